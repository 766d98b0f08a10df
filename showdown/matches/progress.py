"""The progress line of a running match: hands done, hands/s and each agent's running chips/100."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from showdown.evaluation.stats import MatchStats
from showdown.status import StatusLine

__all__ = ["Progress", "say_on_stderr", "wants_progress"]


def say_on_stderr(text: str) -> None:
    """A match's one-line message, on stderr: ``showdown match: TEXT``. A stderr no one reads any more
    (a duplicate half whose runner was killed) loses the message, not the match: the write's
    BrokenPipeError, raised in a signal handler, had the stop it was announcing never made."""
    try:
        print(f"showdown match: {text}", file=sys.stderr, flush=True)
    except OSError:
        pass


def wants_progress(asked: bool | None, configured: bool | None) -> bool:
    """Show a progress line? As the caller asks, else as the config says, else on a terminal."""
    if asked is not None:
        return asked
    return configured if configured is not None else sys.stderr.isatty()


class Progress(StatusLine):
    """A progress line on stderr: hands done, hands/s and each agent's running chips/100.

    Printed only after ``delay`` seconds and at most every ``every`` seconds; on a terminal it
    rewrites one line, elsewhere it prints a line each time.
    """

    def __init__(
        self,
        total: int,
        stats: MatchStats,
        stream: TextIO | None = None,
        delay: float = 2.0,
        every: float = 0.5,
        show_agents: bool = True,
        catch_up: Callable[[], None] | None = None,
    ) -> None:
        self.total = total
        self.stats = stats
        self.catch_up = catch_up  # brings ``stats`` up to date before a line is shown
        self.show_agents = show_agents
        super().__init__(stream)
        self.start = time.monotonic()
        self.next = self.start + delay
        self.every = every if self.tty else max(every, 5.0)
        self.shown = False
        self.played_before = 0  # hands a resumed match had played before this run (not in hands/s)

    def update(self) -> None:
        now = time.monotonic()
        if now < self.next:
            return
        self.next = now + self.every
        if self.catch_up is not None:
            self.catch_up()
        done = self.stats.hands
        rate = (done - self.played_before) / (now - self.start) if now > self.start else 0.0
        parts = [f"{done:,}/{self.total:,} hands", f"{rate:,.0f} hands/s"]
        if self.show_agents:
            for name, e in zip(self.stats.names, self.stats.agents()):
                parts.append(f"{name} {e.per100:+.1f}/100")
        self.show("  ".join(parts))

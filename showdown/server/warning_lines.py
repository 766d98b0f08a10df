"""The seats' warnings on stderr: the first few of each seat and the first of each thing the dealer did
about it (so that a seat played for past the cap learns why), the rest counted in the summary; a lost
connection's after a short grace, which a runner that says why the seat went (its process exited)
cancels, so that a crashed bot is told in one line, not two."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from showdown.protocol.events import EventKind
from showdown.server.connection import SeatConnection, warning_detail
from showdown.server.outputs import SeatWarning

__all__ = ["WARNINGS_SHOWN", "WarningLines"]

WARNINGS_SHOWN = 5  # warnings printed per seat; after that they are only counted (the replacement summary)


class WarningLines:
    """Print the dealer's seat warnings (``err``: one line each)."""

    def __init__(self, names: Sequence[str], err: Callable[[str], None]) -> None:
        self.names = list(names)
        self.err = err
        self.lost_grace_s = 0.0
        """Seconds a lost connection's warning waits (0: said at once, as ``showdown dealer`` does); a
        runner watching the seat's process sets it and calls ``explained`` when it says why."""
        self._shown = [0] * len(self.names)
        self._kinds: set[tuple[int, str]] = set()  # (seat, kind) shown once already
        self._lost: dict[int, asyncio.TimerHandle] = {}

    def show(self, o: SeatWarning, conn: SeatConnection | None, loop: asyncio.AbstractEventLoop) -> None:
        if o.kind == EventKind.CONNECTION_LOST and self.lost_grace_s > 0:
            self.explained(o.seat)
            self._lost[o.seat] = loop.call_later(self.lost_grace_s, self._print, o, None)
            return
        self._print(o, conn)

    def explained(self, seat: int) -> None:
        """The seat's lost connection is told otherwise (its process's exit): its warning is dropped."""
        handle = self._lost.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def _print(self, o: SeatWarning, conn: SeatConnection | None) -> None:
        self._lost.pop(o.seat, None)
        shown = self._shown[o.seat]
        self._shown[o.seat] = shown + 1
        new_kind = bool(o.kind) and (o.seat, o.kind) not in self._kinds  # (what the dealer did: said once at least)
        self._kinds.add((o.seat, o.kind))
        if shown < WARNINGS_SHOWN or new_kind:
            self.err(f"WARNING: seat {o.seat + 1} ({self.names[o.seat]}): {o.text}" + warning_detail(o, conn))
        elif shown == WARNINGS_SHOWN:
            self.err(f"WARNING: seat {o.seat + 1} ({self.names[o.seat]}): more warnings are counted in the summary at the end")

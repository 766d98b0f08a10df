"""Run a match: the one entry that checks the settings and plays them plain or in duplicate.

``run_match(config)`` plays a plain match (``plain.MatchRun``: the dealer in this process, every
agent a separate OS process; built-in agents as ``python -m showdown agent NAME --game G --seed S
... HOST PORT``, outside bots as ``<command> HOST PORT`` with ``SHOWDOWN_GAME`` set) or, with
``duplicate``, the same deals with the seats permuted (``duplicate``), and returns a ``MatchReport``.
Unknown agents and bad options of the cheap built-in agents fail here, before anything starts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from showdown.evaluation.report import MatchReport
from showdown.matches.agent_process import agent_command
from showdown.matches.checks import check_match
from showdown.matches.config import MatchConfig
from showdown.matches.files import load_match_file, save_match_file
from showdown.matches.progress import Progress
from showdown.matches.seating import agent_seed, seat_labels
from showdown.protocol.logfile import HandRecord

__all__ = [
    "Progress", "agent_command", "derive_seed", "load_match_file", "run_match", "run_match_async", "save_match_file",
    "seat_labels",
]

derive_seed = agent_seed
"""The seed of the agent in ``seat`` when none is given (``showdown.matches.seating.agent_seed``)."""

async def run_match_async(
    config: MatchConfig,
    *,
    on_hand: Callable[[HandRecord], None] | None = None,
    progress: bool | None = None,
    notify: Callable[[str], None] | None = None,
    install_signals: bool = False,
    in_process: Mapping[int, Any] | None = None,
) -> MatchReport:
    """Play ``config`` and return its report (see the module docstring).

    ``in_process`` maps seats (from 0) to ``Agent`` objects that play in this process, over TCP
    like every other seat (the Python API's agents given as objects); their specs are not started.
    """
    game = check_match(config, in_process or {})
    if config.duplicate:
        from showdown.matches.duplicate import run_duplicate_async

        return await run_duplicate_async(config, on_hand=on_hand, progress=progress, notify=notify, install_signals=install_signals,
                                         game=game)
    from showdown.matches.plain import MatchRun

    run = MatchRun(config, on_hand=on_hand, progress=progress, notify=notify, in_process=in_process, game=game)
    return await run.play(install_signals)


def run_match(
    config: MatchConfig,
    *,
    on_hand: Callable[[HandRecord], None] | None = None,
    progress: bool | None = None,
    notify: Callable[[str], None] | None = None,
    install_signals: bool = True,
    in_process: Mapping[int, Any] | None = None,
) -> MatchReport:
    """Blocking ``run_match_async`` in a fresh event loop (uvloop when installed).

    ``install_signals`` (main thread only) makes Ctrl-C stop the match cleanly.
    """
    import threading

    from showdown.server.event_loop import run_in_new_loop

    if threading.current_thread() is not threading.main_thread():
        install_signals = False
    return run_in_new_loop(run_match_async(config, on_hand=on_hand, progress=progress, notify=notify,
                                           install_signals=install_signals, in_process=in_process))

"""showdown: an ACPC-style poker dealer, agents, solvers and match runner.

The Python API (``run_match``, ``run_match_async``, ``run_tournament``) is in ``showdown.api`` and
importable from here; it is loaded on first use so that the command line starts fast.
"""

from __future__ import annotations

TYPE_CHECKING = False  # no import of typing at start-up: a Ctrl-C then has almost nothing to interrupt
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"
__all__ = ["__version__", "run_match", "run_match_async", "run_tournament"]


def __getattr__(name: str) -> Any:
    if name in ("run_match", "run_match_async", "run_tournament", "MatchResult", "TournamentTable"):
        from showdown import api

        return getattr(api, name)
    raise AttributeError(f"module 'showdown' has no attribute {name!r}")

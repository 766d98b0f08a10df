"""showdown: an ACPC-style poker dealer, agents, solvers and match runner.

The Python API (``run_match``, ``run_match_async``, ``run_tournament`` and their results) is in
``showdown.api`` and importable from here; it is loaded on first use so that the command line
starts fast. Each subpackage lists its own public names in its ``__all__``.
"""

from __future__ import annotations

from showdown._lazy import lazy_exports

TYPE_CHECKING = False  # no import of typing at start-up: a Ctrl-C then has almost nothing to interrupt
if TYPE_CHECKING:
    from showdown.api import MatchResult, TournamentTable, run_match, run_match_async, run_tournament

__version__ = "0.1.0"
__all__ = ["MatchResult", "TournamentTable", "__version__", "run_match", "run_match_async", "run_tournament"]

__getattr__, __dir__ = lazy_exports(__name__, __file__)

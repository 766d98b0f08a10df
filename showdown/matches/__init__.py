"""Playing matches: match and tournament files, agent processes, plain and duplicate matches, tournaments, executors."""

from __future__ import annotations

from typing import TYPE_CHECKING

from showdown._lazy import lazy_exports

if TYPE_CHECKING:
    from showdown.matches.config import AgentSpec, MatchConfig, load_match_config
    from showdown.matches.executors import Executor, LocalExecutor, make_executor
    from showdown.matches.runner import run_match
    from showdown.matches.settings import ExecutorName
    from showdown.matches.tournament import run_tournament
    from showdown.matches.tournament_config import TournamentConfig, load_tournament_config
    from showdown.matches.tournament_results import TournamentResult

__all__ = [
    "AgentSpec",
    "Executor",
    "ExecutorName",
    "LocalExecutor",
    "MatchConfig",
    "TournamentConfig",
    "TournamentResult",
    "load_match_config",
    "load_tournament_config",
    "make_executor",
    "run_match",
    "run_tournament",
]

__getattr__, __dir__ = lazy_exports(__name__, __file__)

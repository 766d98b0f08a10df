"""The dealer: the sans-io match engine, its time limits, and the asyncio TCP server that moves the lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from showdown._lazy import lazy_exports

if TYPE_CHECKING:
    from showdown.server.dealer import MatchEngine, OnTimeout
    from showdown.server.tcp import DealerOptions, MatchResult, MatchServer, run_match
    from showdown.server.timing import DealerSettings, TimedMatch, TimeLimits

__all__ = [
    "DealerOptions",
    "DealerSettings",
    "MatchEngine",
    "MatchResult",
    "MatchServer",
    "OnTimeout",
    "TimeLimits",
    "TimedMatch",
    "run_match",
]

__getattr__, __dir__ = lazy_exports(__name__, __file__)

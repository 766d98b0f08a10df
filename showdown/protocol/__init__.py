"""The ACPC text formats, one owner each (pure): MATCHSTATE lines and replies, log lines, JSON Lines records.

See docs/protocol.md for the formats themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from showdown._lazy import lazy_exports

if TYPE_CHECKING:
    from showdown.protocol.codec import MatchStateDecoder, MatchStateEncoder
    from showdown.protocol.logfile import (
        HandRecord,
        LogFile,
        LoggedHand,
        LogHeader,
        MatchSummary,
        Score,
        format_score_line,
        format_state_line,
        parse_log,
        parse_score_line,
        parse_state_line,
        read_records,
    )
    from showdown.protocol.matchstate import MatchState, Reply, format_matchstate, format_reply, parse_matchstate, parse_reply

__all__ = [
    "HandRecord",
    "LogFile",
    "LogHeader",
    "LoggedHand",
    "MatchState",
    "MatchStateDecoder",
    "MatchStateEncoder",
    "MatchSummary",
    "Reply",
    "Score",
    "format_matchstate",
    "format_reply",
    "format_score_line",
    "format_state_line",
    "parse_log",
    "parse_matchstate",
    "parse_reply",
    "parse_score_line",
    "parse_state_line",
    "read_records",
]

__getattr__, __dir__ = lazy_exports(__name__, __file__)

"""What the match engine asks its driver to do: the frozen records ``MatchEngine`` inputs return.

``Send`` a line, report a ``SeatWarning``, ``Reject`` a connection, log a ``HandFinished``, end on
``MatchFinished``: the sans-io engine's only way out (the h11 model), carried out by ``server.tcp``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from showdown.games.cards import Card
from showdown.protocol.events import HandEvent
from showdown.protocol.logfile import HandRecord, Score, hand_json, state_line_text

__all__ = ["HandFinished", "MatchFinished", "Output", "Reject", "SeatWarning", "Send"]


class Send(NamedTuple):
    """Send ``line`` (without its ``\\r\\n``) to ``seat``."""

    seat: int
    line: str


class SeatWarning(NamedTuple):
    """Something a seat did was repaired or ignored; ``text`` is the reference's wording, ``detail``
    what the seat sent and what a reply looks like (for people reading the warning, not the log)."""

    seat: int
    text: str
    detail: str = ""
    kind: str = ""
    """What the dealer did about it (``EventKind``), when it counts one: the first of each kind is shown
    even past the per-seat cap, so that a seat the dealer played for learns why."""


class Reject(NamedTuple):
    """Send ``line`` (a ``#`` comment, which clients ignore) to ``seat`` and close its connection."""

    seat: int
    line: str


class HandFinished(NamedTuple):
    """A hand ended: what its ``.log`` line and JSON Lines record say, by position.

    The dealer hands over the texts it already has (hole cards, board, values); the record and the
    STATE line are put together when read (once each: a driver keeps them), so that it can send the
    next hand's first lines before it spends time on the logs.
    """

    hand: int
    game: str
    names: tuple[str, ...]
    seats: tuple[int, ...]
    hole: tuple[tuple[Card, ...], ...]
    hole_text: Sequence[str]
    board: tuple[tuple[Card, ...], ...]
    board_text: str
    betting: str
    values: tuple[float, ...]
    values_text: str
    events: tuple[HandEvent, ...]

    @property
    def record(self) -> HandRecord:
        return HandRecord(
            self.hand, self.game, self.names, self.seats, self.hole, self.board, self.betting, self.values, self.events
        )

    @property
    def json(self) -> str:
        """The JSON Lines record (``HandRecord.to_json``), without making the record."""
        return hand_json(
            self.hand, self.game, self.names, self.seats, self.hole, self.board, self.betting, self.values, self.events
        )

    @property
    def state_line(self) -> str:
        """The STATE line as ``format_state_line`` writes it (tests check they agree), from the texts."""
        return state_line_text(self.hand, self.betting, self.hole_text, self.board_text, self.values_text, self.names)

    def __repr__(self) -> str:
        return f"HandFinished({self.state_line!r})"


class MatchFinished(NamedTuple):
    """The match is over (all hands played, aborted or stopped); ``score`` covers the hands played."""

    score: Score
    hands_played: int
    aborted: bool
    reason: str | None


Output = Send | SeatWarning | Reject | HandFinished | MatchFinished

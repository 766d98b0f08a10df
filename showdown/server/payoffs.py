"""What a finished hand pays each position, and its ``.log`` text, memoised where hands repeat.

Small games (Kuhn, Leduc) deal the same cards again and again: their payoffs are memoised by deal and
betting. In larger ones deals seldom repeat, so the engine works the showdown values out ahead,
while a seat thinks (``deals_repeat`` tells it which), and only the few distinct results' texts are
memoised.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from showdown.games.cards import Card
from showdown.games.gamedef import GameDef
from showdown.games.hand_value import showdown_values
from showdown.games.state import split_pots
from showdown.protocol.logfile import format_value
from showdown.server.betting_tree import Betting

__all__ = ["CACHE_SIZE", "HandPayoffs"]

CACHE_SIZE = 4096
"""Entries per memo; a game with at most this many deals counts as one whose deals repeat."""


class HandPayoffs:
    """``payoff(hole, board, betting, strengths)``: the chips by position and their log text."""

    __slots__ = ("deals_repeat", "by_hand", "_texts")

    def __init__(self, game: GameDef) -> None:
        dealt = game.num_players * game.num_hole_cards + sum(game.num_board_cards)
        self.deals_repeat = math.perm(game.num_ranks * game.num_suits, dealt) <= CACHE_SIZE
        self.by_hand: dict[Any, tuple[tuple[float, ...], str]] = {}  # (hole, board, betting) -> payoff, when deals repeat
        self._texts: dict[tuple[float, ...], str] = {}  # chip results -> their log text

    def payoff(
        self,
        hole: tuple[tuple[Card, ...], ...],
        board: tuple[Card, ...],
        betting: Betting,
        strengths: Sequence[int] | None,
    ) -> tuple[tuple[float, ...], str]:
        """The hand's values by position (``strengths``: its showdown values when worked out ahead)."""
        key = (hole, board, betting.betting) if self.deals_repeat else None
        payoff = self.by_hand.get(key) if key is not None else None
        if payoff is None:
            shown: Sequence[int] = ()
            if betting.is_showdown:
                shown = strengths or showdown_values(hole, board)
            values = split_pots(betting.spent, betting.folded, shown)
            text = self._texts.get(values)  # the same few results come again and again
            if text is None:
                text = "|".join([format_value(v) for v in values])
                _remember(self._texts, values, text)
            payoff = (values, text)
            if key is not None:
                _remember(self.by_hand, key, payoff)
        return payoff


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    """Bounded memo: starts afresh when full (hits only matter for small games, which fit)."""
    if len(cache) >= CACHE_SIZE:
        cache.clear()
    cache[key] = value

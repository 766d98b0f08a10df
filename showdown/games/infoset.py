"""The information-set key: what solvers, strategy files and agents agree on (docs/design.md).

The acting player's hole cards, ``:``, the visible board cards, ``/``, the ACPC betting string, e.g.
``"Ks:/cr"`` (Kuhn) or ``"Qh:Kh/rrc/r"`` (Leduc). Hole cards are written highest card index first, so
any deal order gives the same key; board cards round by round, highest first within a round. Cards
use ACPC text (``"Qh"``); ranks past the ace (N-card Kuhn with N > 13) have no ACPC text and are
written ``r<rank><suit>``, e.g. ``"r57s"``. Pure: it lives with the rules so that the solvers' tree
and strategies both build on it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from showdown.games.cards import MAX_TEXT_RANKS, SUITS, Card, format_card, rank_of, suit_of
from showdown.games.state import State

__all__ = ["card_key_text", "cards_key_text", "infoset_key", "state_infoset_key"]



def card_key_text(card: Card) -> str:
    """ACPC text of a card (``"Ks"``), or ``r<rank><suit>`` for ranks past the ace (``"r57s"``)."""
    if 0 <= rank_of(card) < MAX_TEXT_RANKS:
        return format_card(card)
    return f"r{rank_of(card)}{SUITS[suit_of(card)]}"


def cards_key_text(cards: Iterable[Card]) -> str:
    """Cards as they appear in a key: highest index first, concatenated."""
    return "".join(card_key_text(c) for c in sorted(cards, reverse=True))


def infoset_key(
    hole_cards: Iterable[Card],
    board_cards: Sequence[Card],
    betting: str,
    num_board_cards: Sequence[int] | None = None,
) -> str:
    """The information-set key ``hole:board/betting``.

    Hole cards are sorted (highest first). ``board_cards`` are the visible board cards in dealing
    order; give the game's ``num_board_cards`` to sort them within each round as the solvers do (this
    only matters for games that deal several board cards in one round).
    """
    if num_board_cards is None:
        board = "".join(card_key_text(c) for c in board_cards)
    else:
        parts = []
        start = 0
        for n in num_board_cards:
            if start >= len(board_cards):
                break
            parts.append(cards_key_text(board_cards[start : start + n]))
            start += n
        board = "".join(parts)
    return f"{cards_key_text(hole_cards)}:{board}/{betting}"


def state_infoset_key(state: State, player: int | None = None) -> str:
    """The key of ``player``'s information set in ``state`` (default: the player to act)."""
    p = state.current_player if player is None else player
    return infoset_key(state.hole[p], state.visible_board(), state.betting, state.game.num_board_cards)

"""Cards as small integers, in the reference dealer's numbering.

A card is ``rank * 4 + suit``: rank 0..12 stands for ``23456789TJQKA``, suit 0..3 for ``cdhs``.
This is the index the reference dealer deals from, so dealing, the evaluator and the solvers share
it without translation. Games with more than 13 ranks (the solvers' N-card Kuhn) keep the same
formula with ranks past 12; such cards have no ACPC text form.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from showdown.errors import CardError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
NUM_SUITS = 4
MAX_TEXT_RANKS = len(RANKS)

Card = int


def make_card(rank: int, suit: int) -> Card:
    """The card index of ``rank`` (0 = deuce) and ``suit`` (0 = clubs)."""
    return rank * NUM_SUITS + suit


def rank_of(card: Card) -> int:
    return card // NUM_SUITS


def suit_of(card: Card) -> int:
    return card % NUM_SUITS


def parse_card(text: str) -> Card:
    """``"Td"`` -> card index; raises ``CardError`` for anything else."""
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise CardError(f"bad card {text!r}: expected a rank of {RANKS} then a suit of {SUITS}, like 'Td'")
    return make_card(RANKS.index(text[0]), SUITS.index(text[1]))


def format_card(card: Card) -> str:
    """Card index -> ``"Td"``; ranks beyond the ace have no text form."""
    rank = rank_of(card)
    if not 0 <= rank < MAX_TEXT_RANKS or card < 0:
        raise CardError(f"card {card} (rank {rank}) has no ACPC text form: only 13 ranks can be written")
    return RANKS[rank] + SUITS[suit_of(card)]


def parse_cards(text: str) -> tuple[Card, ...]:
    """``"AsKd"`` -> two cards; the empty string gives no cards."""
    if len(text) % 2:
        raise CardError(f"bad cards {text!r}: cards are two characters each")
    return tuple(parse_card(text[i : i + 2]) for i in range(0, len(text), 2))


_CARD_TEXT = [RANKS[c // NUM_SUITS] + SUITS[c % NUM_SUITS] for c in range(MAX_TEXT_RANKS * NUM_SUITS)]
"""``format_card`` of every writable card, by index: the dealer formats several cards a hand."""


_WRITABLE = len(_CARD_TEXT)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards -> ``"AsKd"`` (``CardError`` for a card with no text form, as ``format_card``)."""
    return "".join([_CARD_TEXT[c] if 0 <= c < _WRITABLE else format_card(c) for c in cards])


def deck_ranks(num_ranks: int) -> range:
    """The ranks a game keeps: the highest ``num_ranks`` of the 13.

    A deck of more than 13 ranks (the solvers' N-card Kuhn) uses ranks 13 .. 13 + N - 1, none of
    which has ACPC text, so no card of it can be mistaken for a real one.
    """
    if num_ranks > MAX_TEXT_RANKS:
        return range(MAX_TEXT_RANKS, MAX_TEXT_RANKS + num_ranks)
    return range(MAX_TEXT_RANKS - num_ranks, MAX_TEXT_RANKS)


def deck_suits(num_suits: int) -> range:
    """The suits a game keeps: the last ``num_suits`` of ``cdhs``."""
    return range(NUM_SUITS - num_suits, NUM_SUITS)


@cache
def make_deck(num_ranks: int, num_suits: int) -> tuple[Card, ...]:
    """The fresh deck in the reference dealer's order: suit by suit, ranks low to high (a tuple, made
    once per size: estimators ask for it per hand)."""
    return tuple(make_card(r, s) for s in deck_suits(num_suits) for r in deck_ranks(num_ranks))


def cards_text(cards: Sequence[Card]) -> str:
    """Readable form for messages: text where possible, ``#index`` otherwise."""
    out = []
    for c in cards:
        try:
            out.append(format_card(c))
        except CardError:
            out.append(f"r{rank_of(c)}{SUITS[suit_of(c)]}")
    return " ".join(out)

"""One hand's strength as one integer, in plain Python: the dealer's and the agents' evaluator.

A hand is 1 to 7 cards (hole cards plus board). Its value is the best 5-card poker hand among them;
suits never break ties. With fewer than 5 cards only the rank-multiplicity categories exist (no
straights or flushes), so 1 card is a high card (Kuhn) and 2 cards are a pair or high card (Leduc).
Hands of 1 to 4 cards may use any rank up to ``MAX_RANK`` (the N-card Kuhn solvers go past the
ace); 5 or more cards need the 13 real ranks.

Value layout (an ``int`` that fits an int64)::

    category << 55 | r1 << 44 | r2 << 33 | r3 << 22 | r4 << 11 | r5

``category`` is a ``HandCategory`` and ``r1..r5`` are the tie-break ranks in the order that decides
(e.g. two pair: high pair, low pair, kicker); unused slots are 0. Two hands of the same number of
cards compare correctly as plain integers; values of hands of different sizes are not comparable.

This module needs no numpy, so a dealer starts and ends its first showdown without importing it or
building tables: a 5-7 card hand's rank multiset is hashed by summing per-card keys (the same
perfect hash ``showdown.games.evaluate`` indexes its tables with) and its value is worked out the
first time that multiset is seen, then remembered (at most 73,775 multisets of 5 to 7 cards).
``showdown.games.evaluate.hand_values`` gives identical values for many hands at once (the tests
compare the two on every rank multiset and every flush).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from enum import IntEnum

from showdown.errors import CardError

__all__ = [
    "CATEGORY_SHIFT",
    "MAX_CARDS",
    "MAX_RANK",
    "HandCategory",
    "category",
    "hand_category",
    "hand_value",
    "showdown_values",
]


class HandCategory(IntEnum):
    """Poker hand categories, weakest first, numbered as stored in the value's top bits."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """Human name, e.g. ``"three of a kind"``."""
        return self.name.lower().replace("_", " ")

    def __str__(self) -> str:
        return self.label


MAX_CARDS = 7
RANK_BITS = 11
MAX_RANK = (1 << RANK_BITS) - 1
SLOTS = 5
CATEGORY_SHIFT = RANK_BITS * SLOTS
SLOT_SHIFTS = tuple(RANK_BITS * (SLOTS - 1 - i) for i in range(SLOTS))  # 44, 33, 22, 11, 0

POKER_RANKS = 13
DECK_SIZE = 52
FULL_MIN_CARDS = 5  # from here on straights and flushes exist and ranks must be 0..12

# Per-rank keys whose sums identify a multiset of exactly k ranks (k <= 7, at most 4 of a rank)
# uniquely, so the sum is a perfect hash (largest 7-card sum: 7,825,759). Checked by the tests.
RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
RANK_SUM_MASK = (1 << 32) - 1
SUIT_SHIFT = 32  # suit counts live in 4-bit nibbles above the rank-key sum
FLUSH_BIAS = 0x3333  # adding 3 to a nibble sets its top bit exactly when the count is >= 5
FLUSH_TEST = 0x8888

# Per-card packed key: rank key plus one in the card's suit nibble; summing a hand's cards gives
# the rank-multiset hash in the low bits and the four suit counts above it.
CARD_KEYS = tuple(RANK_KEYS[c >> 2] + (1 << (SUIT_SHIFT + 4 * (c & 3))) for c in range(DECK_SIZE))

_WHEEL = (1 << 12) | 0b1111  # A-2-3-4-5


def straight_top(ranks: int) -> int:
    """Top rank of the best straight in a 13-bit rank mask, or -1; the wheel tops at the 5 (rank 3)."""
    for high in range(POKER_RANKS - 1, 3, -1):
        window = 0b11111 << (high - 4)
        if ranks & window == window:
            return high
    return 3 if ranks & _WHEEL == _WHEEL else -1


def _top(mask: int) -> int:
    """Highest rank in a mask (0 for the empty mask: an unused slot)."""
    return mask.bit_length() - 1 if mask else 0


def _tops(mask: int, n: int) -> list[int]:
    """The ``n`` highest ranks in a mask, highest first (0 for missing ones)."""
    out = []
    for _ in range(n):
        top = _top(mask)
        out.append(top)
        mask &= ~(1 << top)
    return out


def encode(cat: int, *ranks: int) -> int:
    """A value from its category and tie-break ranks, in deciding order."""
    value = cat << CATEGORY_SHIFT
    for shift, rank in zip(SLOT_SHIFTS, ranks):
        value |= rank << shift
    return value


def nonflush_value(ranks: Sequence[int]) -> int:
    """Value of 5 to 7 cards' ranks (0..12, at most 4 of each), flushes left out."""
    m1 = m2 = m3 = m4 = 0  # ranks held at least once, twice, three and four times
    for rank in ranks:
        bit = 1 << rank
        if not m1 & bit:
            m1 |= bit
        elif not m2 & bit:
            m2 |= bit
        elif not m3 & bit:
            m3 |= bit
        else:
            m4 |= bit
    if m4:
        quad = _top(m4)
        return encode(HandCategory.FOUR_OF_A_KIND, quad, _top(m1 & ~(1 << quad)))
    trip = _top(m3)
    if m3 and m2 & ~(1 << trip):
        return encode(HandCategory.FULL_HOUSE, trip, _top(m2 & ~(1 << trip)))
    high = straight_top(m1)
    if high >= 0:
        return encode(HandCategory.STRAIGHT, high)
    if m3:
        return encode(HandCategory.THREE_OF_A_KIND, trip, *_tops(m1 & ~(1 << trip), 2))
    if m2:
        first, second = _tops(m2, 2)
        if m2 & ~(1 << first):
            return encode(HandCategory.TWO_PAIR, first, second, _top(m1 & ~(1 << first) & ~(1 << second)))
        return encode(HandCategory.PAIR, first, *_tops(m1 & ~(1 << first), 3))
    return encode(HandCategory.HIGH_CARD, *_tops(m1, 5))


def flush_value(ranks: int) -> int:
    """Value of one suit's cards (a 13-bit rank mask) as a flush or straight flush; 0 below 5 cards."""
    if ranks.bit_count() < FULL_MIN_CARDS:
        return 0
    high = straight_top(ranks)
    if high >= 0:
        return encode(HandCategory.STRAIGHT_FLUSH, high)
    return encode(HandCategory.FLUSH, *_tops(ranks, 5))


# per hand size (the hash is perfect only among multisets of one size): rank-key sum -> non-flush
# value, filled as multisets come
_NONFLUSH: tuple[dict[int, int], ...] = tuple({} for _ in range(MAX_CARDS + 1))


def hand_value(cards: Sequence[int]) -> int:
    """Value of the best hand in ``cards`` (1-7 distinct card indices); larger is better.

    Values of hands with the same number of cards compare as the reference dealer ranks them.
    Raises ``CardError`` for a bad count, duplicate, negative or out-of-range card.
    """
    num = len(cards)
    if not 1 <= num <= MAX_CARDS:
        raise CardError(f"a hand has 1 to {MAX_CARDS} cards, got {num}")
    if num < FULL_MIN_CARDS:
        return _small_hand_value(cards)
    total = 0
    seen = 0
    for card in map(operator.index, cards):
        if not 0 <= card < DECK_SIZE:
            raise CardError(f"card {card} is not one of the 52 cards a {num}-card hand is made of")
        bit = 1 << card
        if seen & bit:
            raise CardError(f"card {card} appears twice in one hand")
        seen |= bit
        total += CARD_KEYS[card]
    return _value(total, num, cards)


def _value(total: int, num: int, cards: Sequence[int]) -> int:
    """The value of 5-7 valid ``cards`` whose keys sum to ``total``."""
    memo = _NONFLUSH[num]
    key = total & RANK_SUM_MASK
    value = memo.get(key)
    if value is None:
        value = memo[key] = nonflush_value([card >> 2 for card in cards])
    suits = total >> SUIT_SHIFT
    if (suits + FLUSH_BIAS) & FLUSH_TEST:
        flush_suit = next(s for s in range(4) if (suits >> (4 * s)) & 0xF >= FULL_MIN_CARDS)
        mask = 0
        for card in cards:
            if card & 3 == flush_suit:
                mask |= 1 << (card >> 2)
        value = max(value, flush_value(mask))
    return value


def showdown_values(hole: Sequence[Sequence[int]], board: Sequence[int]) -> list[int]:
    """``hand_value`` of each player's hole cards with the shared ``board``: the dealer's showdown,
    with the board's part of the hash summed once. The cards are trusted (dealt from one deck):
    unlike ``hand_value``, nothing is checked."""
    keys = CARD_KEYS
    shared = 0
    for card in board:
        shared += keys[card]
    values = []
    for cards in hole:
        num = len(cards) + len(board)
        if num < FULL_MIN_CARDS:
            values.append(_small_hand_value((*cards, *board)))
            continue
        total = shared
        for card in cards:
            total += keys[card]
        values.append(_value(total, num, (*cards, *board)))
    return values


def _small_hand_value(cards: Sequence[int]) -> int:
    """1-4 cards: only pairs, trips, quads and high cards; any rank up to ``MAX_RANK``."""
    counts: dict[int, int] = {}
    seen: set[int] = set()
    for card in map(operator.index, cards):
        if card < 0 or card >> 2 > MAX_RANK:
            raise CardError(f"card {card} is outside the ranks 0..{MAX_RANK} the evaluator supports")
        if card in seen:
            raise CardError(f"card {card} appears twice in one hand")
        seen.add(card)
        rank = card >> 2
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(counts.items(), key=lambda group: (group[1], group[0]), reverse=True)
    most = groups[0][1]
    pairs = sum(1 for _, n in groups if n >= 2)
    value = int(_small_category(most, pairs)) << CATEGORY_SHIFT
    for shift, (rank, _) in zip(SLOT_SHIFTS, groups):
        value |= rank << shift
    return value


def _small_category(most: int, pairs: int) -> HandCategory:
    if most == 4:
        return HandCategory.FOUR_OF_A_KIND
    if most == 3:
        return HandCategory.THREE_OF_A_KIND
    if pairs >= 2:
        return HandCategory.TWO_PAIR
    if most == 2:
        return HandCategory.PAIR
    return HandCategory.HIGH_CARD


def hand_category(value: int) -> HandCategory:
    """The ``HandCategory`` a value belongs to."""
    code = operator.index(value) >> CATEGORY_SHIFT
    try:
        return HandCategory(code)
    except ValueError:
        raise CardError(f"{value} is not a hand value") from None


def category(value: int) -> str:
    """The poker name of a value's category, e.g. ``"full house"``."""
    return hand_category(value).label

"""Hand strength of many hands at once with numpy, ranked exactly like the ACPC reference dealer.

``hand_values`` gives, for every row of 1 to 7 cards, the same integer as the numpy-free
``showdown.games.hand_value.hand_value`` (re-exported here, with the value layout it documents):
millions of 7-card hands per second on one core. ``values_on_boards`` ranks every hand on every
board for equity and best-response code. For 5 to 7 cards the non-flush part comes from a
perfect-hash table over rank multisets (built lazily, per hand size, the first time it is needed)
and flushes from an 8192-entry table over suit rank masks.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

import numpy as np

from showdown.errors import CardError
from showdown.games.hand_value import (
    CARD_KEYS,
    CATEGORY_SHIFT,
    DECK_SIZE,
    FLUSH_BIAS,
    FLUSH_TEST,
    FULL_MIN_CARDS,
    MAX_CARDS,
    MAX_RANK,
    POKER_RANKS,
    RANK_BITS,
    RANK_KEYS,
    RANK_SUM_MASK,
    SLOT_SHIFTS,
    SLOTS,
    SUIT_SHIFT,
    HandCategory,
    category,
    hand_category,
    hand_value,
)

__all__ = [
    "CATEGORY_SHIFT",
    "MAX_CARDS",
    "MAX_RANK",
    "HandCategory",
    "categories",
    "category",
    "compiled_preferred",
    "hand_category",
    "hand_value",
    "hand_values",
    "prefer_compiled",
    "values_on_boards",
]

_CHUNK_ROWS = 1 << 16  # rows per internal numpy batch: bounds temporary memory
_HAS_BITWISE_COUNT = hasattr(np, "bitwise_count")  # numpy >= 2.0

# the perfect hash of ``showdown.games.hand_value`` as arrays: rank keys, and per card its rank key
# plus one in its suit's nibble
_RANK_KEYS = np.array(RANK_KEYS, dtype=np.int64)
_CARD_KEYS = np.array(CARD_KEYS, dtype=np.int64)

_MASKS = np.arange(1 << POKER_RANKS, dtype=np.int64)


def _top_bit_table() -> np.ndarray:
    top = np.zeros(1 << POKER_RANKS, dtype=np.int64)  # 0 for the empty mask: an unused slot
    for bit in range(POKER_RANKS):
        top[_MASKS >= (1 << bit)] = bit
    return top


def _straight_table() -> np.ndarray:
    """13-bit rank mask -> top rank of its best straight, or -1; the wheel A-2-3-4-5 tops at the 5."""
    top = np.full(1 << POKER_RANKS, -1, dtype=np.int64)
    for high in range(4, POKER_RANKS):  # ascending, so the highest straight wins
        window = 0b11111 << (high - 4)
        top[(_MASKS & window) == window] = high
    wheel = (1 << 12) | 0b1111
    top[(top < 0) & ((_MASKS & wheel) == wheel)] = 3
    return top


_TOP_BIT = _top_bit_table()
_STRAIGHT_TOP = _straight_table()
_POPCOUNT = ((_MASKS[:, None] >> np.arange(POKER_RANKS)) & 1).sum(axis=1)


def _encode(cat: int | np.ndarray, *slots: np.ndarray | int) -> np.ndarray:
    value = np.asarray(cat, dtype=np.int64) << CATEGORY_SHIFT
    for shift, rank in zip(SLOT_SHIFTS, slots):
        value = value | (np.asarray(rank, dtype=np.int64) << shift)
    return value


def _pop_top(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Highest set rank of each mask (0 if empty) and the mask without it."""
    top = _TOP_BIT[mask]
    return top, mask & ~(np.int64(1) << top)


def _tops(mask: np.ndarray, n: int) -> list[np.ndarray]:
    out = []
    for _ in range(n):
        top, mask = _pop_top(mask)
        out.append(top)
    return out


def _nonflush_values(counts: np.ndarray) -> np.ndarray:
    """Values of rank multisets (rows of per-rank counts over 13 ranks), ignoring flushes."""
    weights = np.int64(1) << np.arange(POKER_RANKS, dtype=np.int64)
    m1, m2, m3, m4 = (((counts >= n).astype(np.int64)) @ weights for n in (1, 2, 3, 4))

    quad = _TOP_BIT[m4]
    quads = _encode(HandCategory.FOUR_OF_A_KIND, quad, _TOP_BIT[m1 & ~(np.int64(1) << quad)])

    trip = _TOP_BIT[m3]
    without_trip = ~(np.int64(1) << trip)
    fh_pair = _TOP_BIT[m2 & without_trip]
    full_house = _encode(HandCategory.FULL_HOUSE, trip, fh_pair)

    straight_top = _STRAIGHT_TOP[m1]
    straight = _encode(HandCategory.STRAIGHT, np.maximum(straight_top, 0))

    trips = _encode(HandCategory.THREE_OF_A_KIND, trip, *_tops(m1 & without_trip, 2))

    p1, rest = _pop_top(m2)
    p2 = _TOP_BIT[rest]
    kicker = _TOP_BIT[m1 & ~(np.int64(1) << p1) & ~(np.int64(1) << p2)]
    two_pair = _encode(HandCategory.TWO_PAIR, p1, p2, kicker)

    pair = _encode(HandCategory.PAIR, p1, *_tops(m1 & ~(np.int64(1) << p1), 3))
    high = _encode(HandCategory.HIGH_CARD, *_tops(m1, 5))

    return np.select(
        [
            m4 != 0,
            (m3 != 0) & ((m2 & without_trip) != 0),
            straight_top >= 0,
            m3 != 0,
            _POPCOUNT[m2] >= 2,
            m2 != 0,
        ],
        [quads, full_house, straight, trips, two_pair, pair],
        high,
    )


def _flush_table() -> np.ndarray:
    """One suit's 13-bit rank mask -> its flush or straight-flush value, or 0 below 5 cards."""
    straight_top = _STRAIGHT_TOP
    flush = _encode(HandCategory.FLUSH, *_tops(_MASKS, 5))
    straight_flush = _encode(HandCategory.STRAIGHT_FLUSH, np.maximum(straight_top, 0))
    value = np.where(straight_top >= 0, straight_flush, flush)
    return np.where(_POPCOUNT >= 5, value, 0)


_FLUSH_VALUES = _flush_table()


@cache
def _rank_table(num_cards: int) -> tuple[np.ndarray, np.ndarray]:
    """For 5-7 cards: (rank-key sum -> row index, row -> non-flush value).

    Built on first use (tens of milliseconds, ~15 MB for 7 cards) since most games never need it.
    """
    combos = np.array(
        list(itertools.combinations_with_replacement(range(POKER_RANKS), num_cards)), dtype=np.intp
    )
    counts = np.zeros((len(combos), POKER_RANKS), dtype=np.int64)
    rows = np.arange(len(combos))
    for column in combos.T:
        counts[rows, column] += 1
    counts = counts[counts.max(axis=1) <= 4]
    sums = counts @ _RANK_KEYS
    values = _nonflush_values(counts)
    index = np.zeros(int(sums.max()) + 1, dtype=np.uint16)
    index[sums] = np.arange(len(values), dtype=np.uint16)
    return index, values


_COMPILED = [False]


def prefer_compiled(on: bool = True) -> bool:
    """Rank hands with the compiled kernels of ``solvers.hand_kernels`` in this process from now on
    (or no longer), where the code can: the hold'em river strengths (``solvers.holdem_buckets``) and
    the chance corrections' exact equities (``evaluation.chance``). The same numbers bit for bit,
    faster; returns the previous choice. Local best response turns it on: it ranks every holding on
    thousands of boards, and its runs are long enough to pay numba's loading (about a second); the
    dealer and a match's agents keep the numpy path."""
    previous = _COMPILED[0]
    _COMPILED[0] = on
    return previous


def compiled_preferred() -> bool:
    """Whether ``prefer_compiled`` was turned on in this process."""
    return _COMPILED[0]


# --------------------------------------------------------------------------------------------
# vectorised path


def hand_values(cards: np.ndarray) -> np.ndarray:
    """``hand_value`` of every row of an (n, k) integer array of card indices, k in 1..7.

    Returns int64 values identical to ``hand_value`` row by row. Works in batches of 65536 rows,
    so temporary memory stays bounded however many hands are given. Rows must hold distinct,
    valid cards (checked; ``CardError`` otherwise).
    """
    array = np.asarray(cards)
    if array.ndim != 2:
        raise CardError(f"hand_values wants an (n, k) array of card indices, got shape {array.shape}")
    num_rows, num_cards = array.shape
    if not 1 <= num_cards <= MAX_CARDS:
        raise CardError(f"a hand has 1 to {MAX_CARDS} cards, got {num_cards} columns")
    if num_rows and not np.issubdtype(array.dtype, np.integer):
        raise CardError(f"card indices must be integers, got dtype {array.dtype}")
    out = np.empty(num_rows, dtype=np.int64)
    if num_rows == 0:
        return out
    low, high = int(array.min()), int(array.max())
    limit = DECK_SIZE if num_cards >= FULL_MIN_CARDS else (MAX_RANK + 1) * 4
    if low < 0 or high >= limit:
        bad = low if low < 0 else high
        raise CardError(f"card {bad} is out of range for {num_cards}-card hands (0..{limit - 1})")
    if num_cards >= FULL_MIN_CARDS:
        dtype: np.dtype[Any]
        batch, dtype = _full_values, np.dtype(np.int8)  # small indices make the per-batch transpose cheap
    else:
        batch, dtype = _small_values, np.dtype(np.intp)
    for start in range(0, num_rows, _CHUNK_ROWS):
        chunk = array[start : start + _CHUNK_ROWS].astype(dtype, copy=False)
        out[start : start + len(chunk)] = batch(chunk)
    return out


def values_on_boards(boards: np.ndarray, hands: np.ndarray) -> np.ndarray:
    """``hand_value`` of every hand on every board: an (R, H) array for (R, b) boards and (H, h)
    private hands, b + h in 5..7.

    The board's part of the rank key is summed once per board and each hand's once per hand, so a
    value costs one addition and two table lookups (no 7-column gather): this is what local best
    response and equity code need, every holding against many runouts. Entries where a hand shares a
    card with its board are meaningless (callers mask them); cards are not checked here.
    """
    boards = np.asarray(boards, dtype=np.intp)
    hands = np.asarray(hands, dtype=np.intp)
    num_cards = boards.shape[1] + hands.shape[1]
    if not FULL_MIN_CARDS <= num_cards <= MAX_CARDS:
        raise CardError(f"values_on_boards ranks 5 to 7 cards, got {boards.shape[1]} + {hands.shape[1]}")
    index, nonflush = _rank_table(num_cards)
    board_keys = _CARD_KEYS.take(boards).sum(axis=1)
    hand_keys = _CARD_KEYS.take(hands).sum(axis=1)
    packed = board_keys[:, None] + hand_keys[None, :]
    values: np.ndarray = nonflush[index.take(packed & RANK_SUM_MASK, mode="clip")]
    suits = packed >> SUIT_SHIFT
    rows, cols = np.nonzero((suits + FLUSH_BIAS) & FLUSH_TEST)
    if len(rows):
        flush_suit = ((suits[rows, cols, None] >> (4 * np.arange(4))) & 0xF).argmax(axis=1)
        board_masks = _suit_masks(boards)  # (R, 4) rank bits per suit
        hand_masks = _suit_masks(hands)
        masks = board_masks[rows, flush_suit] | hand_masks[cols, flush_suit]
        values[rows, cols] = np.maximum(values[rows, cols], _FLUSH_VALUES[masks])
    return values


def _suit_masks(cards: np.ndarray) -> np.ndarray:
    """(n, 4): for each row of cards, the 13-bit mask of its ranks in each suit."""
    bits = np.int64(1) << (cards >> 2)
    return np.stack([np.where((cards & 3) == s, bits, 0).sum(axis=1) for s in range(4)], axis=1)


def _check_distinct(rows: np.ndarray) -> None:
    """Raise if any row repeats a card (sorted neighbours equal)."""
    ordered = np.sort(rows, axis=1)
    repeats = ordered[:, 1:] == ordered[:, :-1]
    if repeats.any():
        row = int(np.flatnonzero(repeats.any(axis=1))[0])
        raise CardError(f"hand {rows[row].tolist()} repeats a card")


def _all_distinct(columns: np.ndarray) -> bool:
    """True if no hand (column of a (k, n) array of cards 0..51) holds a card twice."""
    seen = np.bitwise_or.reduce(np.int64(1) << columns, axis=0)
    if _HAS_BITWISE_COUNT:
        return bool((np.bitwise_count(seen) == len(columns)).all())
    return bool(np.array_equal(seen, np.add.reduce(np.int64(1) << columns, axis=0)))


def _full_values(chunk: np.ndarray) -> np.ndarray:
    """5-7 cards, ranks 0..12: rank-multiset table, then flushes for the few rows that have one."""
    num_cards = chunk.shape[1]
    index, nonflush = _rank_table(num_cards)
    # (k, n) layout: one contiguous array per card position, so reductions run along rows
    columns = np.ascontiguousarray(chunk.T).astype(np.intp)
    packed = np.add.reduce(_CARD_KEYS.take(columns), axis=0)
    if not _all_distinct(columns):
        _check_distinct(chunk)
    values: np.ndarray = nonflush[index[packed & RANK_SUM_MASK]]
    suits = packed >> SUIT_SHIFT
    flush_rows = np.flatnonzero((suits + FLUSH_BIAS) & FLUSH_TEST)
    if len(flush_rows):
        sub = chunk[flush_rows]
        nibbles = (suits[flush_rows, None] >> (4 * np.arange(4))) & 0xF
        flush_suit = nibbles.argmax(axis=1)
        in_suit = (sub & 3) == flush_suit[:, None]
        masks = np.where(in_suit, np.int64(1) << (sub >> 2), 0).sum(axis=1)
        values[flush_rows] = np.maximum(values[flush_rows], _FLUSH_VALUES[masks])
    return values


def _small_values(chunk: np.ndarray) -> np.ndarray:
    """1-4 cards, any rank: group equal ranks, order groups by (size, rank), pack their ranks."""
    if chunk.shape[1] > 1:
        _check_distinct(chunk)
    ranks = chunk >> 2
    counts = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    keys = np.sort((counts << (RANK_BITS + 1)) | ranks, axis=1)[:, ::-1]
    leader = np.ones(keys.shape, dtype=bool)
    leader[:, 1:] = keys[:, 1:] != keys[:, :-1]
    slot = np.cumsum(leader, axis=1) - 1
    group_rank = keys & ((1 << (RANK_BITS + 1)) - 1)
    group_size = keys >> (RANK_BITS + 1)
    most = group_size[:, 0]
    pairs = (leader & (group_size >= 2)).sum(axis=1)
    cat = np.select(
        [most == 4, most == 3, pairs >= 2, most == 2],
        [
            HandCategory.FOUR_OF_A_KIND,
            HandCategory.THREE_OF_A_KIND,
            HandCategory.TWO_PAIR,
            HandCategory.PAIR,
        ],
        HandCategory.HIGH_CARD,
    ).astype(np.int64)
    shifts = RANK_BITS * (SLOTS - 1 - slot)
    tiebreak = np.where(leader, group_rank.astype(np.int64) << shifts, 0).sum(axis=1)
    result: np.ndarray = (cat << CATEGORY_SHIFT) | tiebreak
    return result


# --------------------------------------------------------------------------------------------
# categories


def categories(values: np.ndarray) -> np.ndarray:
    """Vectorised ``hand_category``: the category codes (``HandCategory`` ints) of many values."""
    return np.asarray(values, dtype=np.int64) >> CATEGORY_SHIFT

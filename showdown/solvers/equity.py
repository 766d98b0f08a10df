"""Exact all-in equity of the 169 preflop hand classes against each other, from our own evaluator.

For every ordered pair of hand classes ``(a, k)`` the table counts, over every ordered pair of
disjoint two-card combos ``h`` in ``a`` and ``g`` in ``k`` and every one of the C(48, 5) = 1,712,304
boards disjoint from both, how often ``h`` wins, ties and loses against ``g``. Card removal is exact:
``pairs[a, k]`` is the number of such combo pairs (its sum is 1326 x 1225).

How it is computed in about a minute on two idle cores, boards first:

* Boards are enumerated up to suit permutation: 134,459 classes of 5-card boards with weights
  (the size of each orbit; they sum to C(52, 5)). Every class pair count is invariant under suit
  permutations, so a board stands for its whole orbit.
* On a board every one of the 1081 compatible combos gets its 7-card value (``hand_values``); the
  combos are sorted by value and split into groups of equal value. With ``H[t, a]`` the number of
  class-``a`` combos in group ``t`` and ``C`` the running sum of ``H`` over the groups, the wins of
  ``a`` over ``k`` summed over *all* combo pairs (overlapping ones too) are ``sum_t H[t, a] (C[t-1, k])``
  and the ties ``sum_t H[t, a] H[t, k]``: a sparse ``H`` against a dense ``C``, a few tens of
  thousands of operations per board instead of 1081^2 comparisons.
* Pairs that share a card are taken out again by inclusion-exclusion. A pair sharing exactly the
  card ``c`` is ``({c, x}, {c, y})``; for each card ``c`` off the board the 46 combos holding it are
  sorted the same way, counted by partner type (rank of ``x``, suited with ``c`` or not: 26 types)
  and accumulated per rank of ``c``; a (rank, type) is a class, so the 13 x 26 x 26 result maps onto
  class pairs at the end. A combo paired with itself shares two cards, is counted twice there, and is
  a tie, which fixes the diagonal.
* Losses are wins transposed; ``win + tie + loss = pairs * 1712304`` is then a real check because
  ties are counted on their own.

The table ships as package data (``data/equity169.npz``, about 300 KB) with a SHA-256 of its
contents; ``equity_table()`` loads it, or else the copy in the cache directory, or else builds it
(progress on stderr) and caches it. ``showdown equity --build`` does the last step on demand.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO

import numpy as np

from showdown.cache import cache_dir
from showdown.errors import CardError, SolverError
from showdown.games.cards import RANKS, cards_text, parse_card
from showdown.games.evaluate import CATEGORY_SHIFT, hand_values

__all__ = [
    "BOARDS_PER_MATCHUP",
    "CLASS_NAMES",
    "EQUITY_SHA256",
    "NUM_CLASSES",
    "NUM_COMBOS",
    "EquityError",
    "EquityTable",
    "board_counts",
    "build_equity_table",
    "cached_table_path",
    "canonical_boards",
    "class_combos",
    "class_index",
    "class_of",
    "class_sizes",
    "combo_classes",
    "equity_table",
    "load_equity_table",
    "packaged_table_path",
    "pair_counts",
    "progress_printer",
    "save_equity_table",
]

NUM_CLASSES = 169
NUM_COMBOS = 1326
BOARDS_PER_MATCHUP = math.comb(48, 5)
"""Boards dealt to one pair of disjoint hole-card combos: 1,712,304."""

TABLE_FORMAT = "showdown-equity169"
TABLE_VERSION = 1

EQUITY_SHA256 = "63257d743b862c13c617042cd7fae98cfb9e11f31607da3364c23f6bea64d5d9"
"""Digest (``EquityTable.digest``) of the exact table; the shipped file and every rebuild must match."""

_NUM_RANKS = 13
_NUM_TYPES = 2 * _NUM_RANKS  # partner type of a card x next to a card c: rank of x, suited with c
_BATCH_BOARDS = 384  # boards per numpy batch: bounds the temporary arrays (about 100 MB)


class EquityError(SolverError):
    """The equity table is missing, damaged, or a hand class name is not understood."""


# ---------------------------------------------------------------------------------------------
# hand classes


def _class_id(high: int, low: int, suited: bool) -> int:
    """Grid position: row = 12 - high for pairs and suited hands (AKs right of AA), 12 - low for offsuit."""
    if high == low:
        return (12 - high) * 14
    if suited:
        return (12 - high) * _NUM_RANKS + (12 - low)
    return (12 - low) * _NUM_RANKS + (12 - high)


def _class_name(index: int) -> str:
    row, col = divmod(index, _NUM_RANKS)
    r_row, r_col = 12 - row, 12 - col
    if row == col:
        return RANKS[r_row] * 2
    if col > row:  # right of the diagonal: suited, the row holds the high rank
        return RANKS[r_row] + RANKS[r_col] + "s"
    return RANKS[r_col] + RANKS[r_row] + "o"


CLASS_NAMES: tuple[str, ...] = tuple(_class_name(i) for i in range(NUM_CLASSES))
"""Class names in index order: the 13 x 13 grid row by row from ``AA`` (``AKs`` right, ``AKo`` below)."""

_NAME_TO_CLASS = {name: i for i, name in enumerate(CLASS_NAMES)}


def class_of(card1: int, card2: int) -> int:
    """Class index of two distinct cards (card = rank * 4 + suit)."""
    if card1 == card2 or not (0 <= card1 < 52 and 0 <= card2 < 52):
        raise CardError(f"a hole-card combo is two distinct cards 0..51, got {card1} and {card2}")
    r1, r2 = card1 >> 2, card2 >> 2
    return _class_id(max(r1, r2), min(r1, r2), (card1 & 3) == (card2 & 3))


def class_index(name: str) -> int:
    """Index of a class written ``"AA"``, ``"AKs"``, ``"T9o"`` or as two cards (``"AsKd"``)."""
    text = name.strip()
    if len(text) == 4:
        try:
            return class_of(parse_card(text[:2]), parse_card(text[2:]))
        except CardError:
            pass
    key = text[:2].upper() + text[2:].lower()
    if len(key) == 3 and key[0] != key[1] and key[0] in RANKS and key[1] in RANKS:
        if RANKS.index(key[0]) < RANKS.index(key[1]):
            key = key[1] + key[0] + key[2]
    if key in _NAME_TO_CLASS:
        return _NAME_TO_CLASS[key]
    if len(key) == 2 and key[0] != key[1] and key[0] in RANKS and key[1] in RANKS:
        raise EquityError(f"hand class {name!r} is ambiguous: say {key}s (suited) or {key}o (offsuit)")
    raise EquityError(f"unknown hand class {name!r}: write a pair like 'AA', 'AKs', 'T9o', or cards like 'AsKd'")


def hand_cards(text: str) -> tuple[int, int] | None:
    """The two cards of ``"AsKd"`` (None when the text is a class like ``"AKs"``); the same card
    twice is an ``EquityError``."""
    t = text.strip()
    if len(t) != 4:
        return None
    try:
        a, b = parse_card(t[:2]), parse_card(t[2:])
    except CardError:
        return None
    if a == b:
        raise EquityError(f"{text!r} holds the same card twice")
    return a, b


def cards_equity(hand_a: tuple[int, int], hand_b: tuple[int, int]) -> tuple[int, int, int]:
    """Exact (win, tie, loss) board counts of two specific hands, over every board of the other 48
    cards (1,712,304 of them), with the vectorised evaluator."""
    from itertools import combinations

    from showdown.games.evaluate import hand_values

    used = set(hand_a) | set(hand_b)
    if len(used) < 4:
        shared = sorted(set(hand_a) & set(hand_b))
        raise EquityError(f"the two hands share {cards_text(tuple(shared))}: a card is dealt once")
    rest = np.array([c for c in range(52) if c not in used], dtype=np.int64)
    boards = np.array(list(combinations(range(len(rest)), 5)), dtype=np.int64)
    boards = rest[boards]
    win = tie = loss = 0
    for start in range(0, len(boards), 200_000):
        chunk = boards[start : start + 200_000]
        va = hand_values(np.hstack([np.broadcast_to(np.array(hand_a), (len(chunk), 2)), chunk]))
        vb = hand_values(np.hstack([np.broadcast_to(np.array(hand_b), (len(chunk), 2)), chunk]))
        win += int((va > vb).sum())
        tie += int((va == vb).sum())
        loss += int((va < vb).sum())
    return win, tie, loss


@cache
def combo_classes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The 1326 combos as ``(first card, second card, class)`` arrays, first < second, lexicographic."""
    first, second = np.triu_indices(52, 1)
    r1, r2 = first >> 2, second >> 2
    classes = np.array(
        [_class_id(max(a, b), min(a, b), bool(s)) for a, b, s in zip(r1, r2, (first & 3) == (second & 3))],
        dtype=np.int64,
    )
    for array in (first, second, classes):
        array.setflags(write=False)
    return first.astype(np.int64), second.astype(np.int64), classes


def class_combos(index: int) -> tuple[tuple[int, int], ...]:
    """The combos (as card pairs, first < second) of class ``index``: 6 for a pair, 4 suited, 12 offsuit."""
    first, second, classes = combo_classes()
    rows = np.flatnonzero(classes == index)
    return tuple((int(first[r]), int(second[r])) for r in rows)


@cache
def class_sizes() -> np.ndarray:
    """Number of combos of each class (6, 4 or 12)."""
    sizes = np.bincount(combo_classes()[2], minlength=NUM_CLASSES)
    sizes.setflags(write=False)
    return sizes


@cache
def pair_counts() -> np.ndarray:
    """``[a, k]``: ordered pairs of disjoint combos with the first in class ``a``, the second in ``k``."""
    first, second, classes = combo_classes()
    bits = (np.int64(1) << first) | (np.int64(1) << second)
    disjoint = (bits[:, None] & bits[None, :]) == 0
    onehot = np.zeros((NUM_COMBOS, NUM_CLASSES))
    onehot[np.arange(NUM_COMBOS), classes] = 1.0
    counts: np.ndarray = np.rint(onehot.T @ disjoint.astype(np.float64) @ onehot).astype(np.int64)  # exact
    counts.setflags(write=False)
    return counts


# ---------------------------------------------------------------------------------------------
# boards


def canonical_boards() -> tuple[np.ndarray, np.ndarray]:
    """The 134,459 five-card boards up to suit permutation: ``(boards (n, 5) int8, weights (n,) int64)``.

    A board's class is fixed by the multiset of its four per-suit rank masks, so sorting the masks
    gives a canonical key; a weight is the number of the C(52, 5) boards in the class.
    """
    boards = np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)), dtype=np.int8
    ).reshape(-1, 5)
    # one bit per card, 13 bits per suit: the board's four per-suit rank masks side by side
    bit = np.int64(1) << ((np.arange(52) >> 2) + 13 * (np.arange(52) & 3)).astype(np.int64)
    packed = bit[boards].sum(axis=1)
    m = [(packed >> (13 * s)) & 0x1FFF for s in range(4)]
    for i, j in ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)):  # sorting network: m[0] <= ... <= m[3]
        m[i], m[j] = np.minimum(m[i], m[j]), np.maximum(m[i], m[j])
    key = (m[3] << 39) | (m[2] << 26) | (m[1] << 13) | m[0]
    order = np.argsort(key)
    ordered = key[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    first = order[starts]
    weights = np.diff(np.append(starts, len(key)))
    return boards[first], weights.astype(np.int64)


# ---------------------------------------------------------------------------------------------
# the per-board accumulation


@cache
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Combo index of a card pair (52 x 52), combo bits, partner index pattern, (rank, type) -> class."""
    first, second, _ = combo_classes()
    combo_of = np.full((52, 52), -1, dtype=np.int64)
    combo_of[first, second] = np.arange(NUM_COMBOS)
    combo_of[second, first] = np.arange(NUM_COMBOS)
    bits = (np.int64(1) << first) | (np.int64(1) << second)
    partners = np.array([[j for j in range(47) if j != i] for i in range(47)], dtype=np.int64)
    type_class = np.zeros((_NUM_RANKS, _NUM_TYPES), dtype=np.int64)
    for rank in range(_NUM_RANKS):
        for other in range(_NUM_RANKS):
            for suited in (0, 1):
                high, low = max(rank, other), min(rank, other)
                type_class[rank, 2 * other + suited] = _class_id(high, low, bool(suited) and rank != other)
    return combo_of, bits, partners, type_class


@cache
def _pair_tables() -> tuple[np.ndarray, np.ndarray]:
    """Indexed by ``own * 52 + partner``: the combo of the two cards and the partner's type next to ``own``."""
    combo_of = _tables()[0]
    own, partner = np.divmod(np.arange(52 * 52), 52)
    kind = 2 * (partner >> 2) + ((partner & 3) == (own & 3))
    return combo_of.ravel().copy(), kind.astype(np.int64)


def _compact(values: np.ndarray) -> np.ndarray:
    """7-card values squeezed into 24 bits, order kept: category and the five tie-break ranks, 4 bits each.

    Relies on the value layout documented in ``showdown.games.evaluate`` (ranks 0..12 in 11-bit slots).
    """
    out = (values >> CATEGORY_SHIFT) << 20
    for i, shift in enumerate((44, 33, 22, 11, 0)):
        out |= ((values >> shift) & 0x7FF) << (16 - 4 * i)
    return out


def _grouped_sums(
    keys: np.ndarray, num_labels: int, out_base: np.ndarray, weights: np.ndarray, num_out: int
) -> tuple[np.ndarray, np.ndarray]:
    """Sorted-cumulative counting for many independent problems, one per row of ``keys``.

    Each item is ``value << 8 | label`` (label < num_labels <= 256). Returns the weighted
    ``(num_out, num_labels)`` sums over all rows of ordered pairs (item, item of a smaller value)
    and of pairs of equal value (an item with itself included), by the second item's label; the first
    item, of row ``i`` and label ``l``, lands in output row ``out_base[i] + l`` with weight ``weights[i]``.

    Per row the distinct values are groups ``t = 0, 1, ...``; a cell is (group, row), stored slab by
    slab (slab ``t`` holds the rows with more than ``t`` groups, most groups first), so the running
    count of labels over groups is one vector add per slab and nothing is padded. Items are runs of
    equal keys; the pairing is a sparse (items) times dense (cells x labels) product.
    """
    num_rows, width = keys.shape
    keys = np.sort(keys, axis=1)
    values = keys >> 8
    group = np.empty((num_rows, width), dtype=np.int64)
    group[:, 0] = 0
    np.not_equal(values[:, 1:], values[:, :-1], out=group[:, 1:])
    np.cumsum(group, axis=1, out=group)
    num_groups = group[:, -1] + 1
    slot = np.empty(num_rows, dtype=np.int64)
    slot[np.argsort(-num_groups, kind="stable")] = np.arange(num_rows)
    active = np.cumsum(np.bincount(num_groups, minlength=width + 1)[::-1])[::-1][1 : int(num_groups.max()) + 1]
    slab = np.concatenate(([0], np.cumsum(active)))
    num_cells = int(slab[-1])

    new = np.empty((num_rows, width), dtype=bool)
    new[:, 0] = True
    np.not_equal(keys[:, 1:], keys[:, :-1], out=new[:, 1:])
    start = np.flatnonzero(new)
    size = np.diff(np.append(start, num_rows * width)).astype(np.int32)
    row = start // width
    cell = slab[group.ravel()[start]] + slot[row]
    label = (keys.ravel()[start] & 0xFF).astype(np.int64)

    # the weighted items as a sparse (output row x cell) matrix; rows < 2**15, so a radix sort
    out = out_base[row] + label
    order = np.argsort(out.astype(np.int16), kind="stable")
    indptr = np.zeros(num_out + 1, dtype=np.int64)
    np.cumsum(np.bincount(out, minlength=num_out), out=indptr[1:])
    import scipy.sparse as sp  # type: ignore[import-untyped]  # here: a command line need not load scipy

    weighted = sp.csr_matrix(
        ((size * weights[row].astype(np.int32))[order], cell[order], indptr), shape=(num_out, num_cells)
    )
    # per cell: label counts (left half) and their running sums over the groups (right half)
    dense = np.zeros((num_cells, 2 * num_labels), dtype=np.int32)
    dense[cell, label] = size
    dense[cell, num_labels + label] = size
    running = dense[:, num_labels:]
    for t in range(1, len(active)):
        running[slab[t] : slab[t] + active[t]] += running[slab[t - 1] : slab[t - 1] + active[t]]
    both = np.asarray(weighted @ dense, dtype=np.int64)
    ties = both[:, :num_labels]
    return both[:, num_labels:] - ties, ties


def board_counts(boards: np.ndarray, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Win and tie counts ``(169, 169)`` of class ``a`` against ``k`` over the given boards.

    Sums, over the boards (each counted ``weights[i]`` times, default once) and over every ordered pair
    of disjoint combos off the board, ``h`` in ``a`` and ``g`` in ``k``: whether ``h`` beats ``g``,
    and whether they tie. Boards are rows of 5 distinct card indices. The building block of the
    table, exposed so that tests can check it against direct comparison on a few boards.
    """
    boards = np.asarray(boards, dtype=np.int8).reshape(-1, 5)
    weights = np.ones(len(boards), dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    if len(weights) != len(boards) or (weights < 0).any():
        raise EquityError("board_counts needs one non-negative weight per board")
    # the per-batch sums are int32: at most 144 combo pairs per class pair and board, times the weight
    heaviest = max(int(weights.max()) if len(weights) else 1, 1)
    batch = min(_BATCH_BOARDS, (2**31 - 1) // (144 * heaviest))
    if batch < 1:
        raise EquityError(f"board weight {heaviest} is too large for exact int32 batch sums")
    wins = np.zeros((NUM_CLASSES, NUM_CLASSES), dtype=np.int64)
    ties = np.zeros_like(wins)
    for start in range(0, len(boards), batch):
        w, t = _batch_counts(boards[start : start + batch], weights[start : start + batch])
        wins += w
        ties += t
    return wins, ties


def _types_to_classes(counts: np.ndarray) -> np.ndarray:
    """(13, 26, 26) counts by (rank of the shared card, type of one partner, type of the other) -> class pairs."""
    type_class = _tables()[3]
    rows = np.repeat(type_class, _NUM_TYPES, axis=1).ravel()  # class of (rank c, type x)
    cols = np.tile(type_class, (1, _NUM_TYPES)).ravel()  # class of (rank c, type y)
    out = np.zeros((NUM_CLASSES, NUM_CLASSES), dtype=np.int64)
    np.add.at(out, (rows, cols), np.asarray(counts, dtype=np.int64).ravel())
    return out


def _batch_counts(boards: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    first, second, classes = combo_classes()
    _, bits, partners, _ = _tables()
    num = len(boards)
    board_bits = np.bitwise_or.reduce(np.int64(1) << boards.astype(np.int64), axis=1)
    live = (bits[None, :] & board_bits[:, None]) == 0
    combos = np.nonzero(live)[1].reshape(num, 1081)
    cards = np.empty((num, 1081, 7), dtype=np.int8)
    cards[:, :, :5] = boards[:, None, :]
    cards[:, :, 5] = first[combos]
    cards[:, :, 6] = second[combos]
    values = _compact(hand_values(cards.reshape(-1, 7))).reshape(num, 1081)

    # all pairs of live combos, overlapping ones included; labels are classes (< 256)
    all_wins, all_ties = _grouped_sums(
        (values << 8) | classes[combos], NUM_CLASSES, np.zeros(num, dtype=np.int64), weights, NUM_CLASSES
    )

    # pairs sharing a card c: per card off the board, its 46 combos labelled by partner type
    full = np.zeros((num, NUM_COMBOS), dtype=np.int64)
    np.put_along_axis(full, combos, values << 8, axis=1)
    card_bit = np.int64(1) << np.arange(52, dtype=np.int64)
    off = np.nonzero((board_bits[:, None] & card_bit[None, :]) == 0)[1].reshape(num, 47)
    pair = (off[:, :, None] * 52 + off[:, partners]).reshape(num, -1)  # (own card, partner card)
    pair_combo, pair_type = _pair_tables()
    shared = np.take_along_axis(full, pair_combo[pair], axis=1) | pair_type[pair]
    shared = shared.reshape(num * 47, 46)
    share_wins, share_ties = _grouped_sums(
        shared, _NUM_TYPES, ((off >> 2) * _NUM_TYPES).ravel(), np.repeat(weights, 47), _NUM_RANKS * _NUM_TYPES
    )
    shared_w = _types_to_classes(share_wins.reshape(_NUM_RANKS, _NUM_TYPES, _NUM_TYPES))
    shared_t = _types_to_classes(share_ties.reshape(_NUM_RANKS, _NUM_TYPES, _NUM_TYPES))

    # a combo against itself: counted twice among the shared pairs (once per card), a tie, not a pair
    per_combo = np.repeat(weights, 1081).astype(np.float64)
    live_weight = np.rint(np.bincount(classes[combos].ravel(), per_combo, NUM_CLASSES)).astype(np.int64)  # exact
    wins = all_wins - shared_w
    ties = all_ties - shared_t + np.diag(live_weight)
    return wins, ties


# ---------------------------------------------------------------------------------------------
# the table


@dataclass(frozen=True)
class EquityTable:
    """Exact win/tie/loss counts of class ``a`` (row) against class ``k`` (column), over all boards."""

    win: np.ndarray
    tie: np.ndarray
    loss: np.ndarray
    pairs: np.ndarray

    @property
    def totals(self) -> np.ndarray:
        """Matchups counted per class pair: disjoint combo pairs times 1,712,304 boards."""
        return self.pairs * BOARDS_PER_MATCHUP

    def probabilities(self) -> np.ndarray:
        """Probability that Alice holds class ``a`` and Bob class ``k`` (sums to 1)."""
        return self.pairs / float(NUM_COMBOS * math.comb(50, 2))

    def net_equity(self) -> np.ndarray:
        """``P(win) - P(loss)`` of ``a`` against ``k`` given both hold those classes (0 where impossible)."""
        totals = self.totals.astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = (self.win - self.loss) / totals
        return np.where(totals > 0, out, 0.0)

    def fractions(self, a: int, k: int) -> tuple[float, float, float]:
        """``(win, tie, loss)`` probabilities of class ``a`` against ``k``."""
        total = int(self.totals[a, k])
        if total == 0:
            raise EquityError(f"{CLASS_NAMES[a]} cannot meet {CLASS_NAMES[k]}: they need the same cards")
        return (int(self.win[a, k]) / total, int(self.tie[a, k]) / total, int(self.loss[a, k]) / total)

    def digest(self) -> str:
        """SHA-256 of the four count arrays (int64, little-endian, row-major), in hex."""
        sha = hashlib.sha256(f"{TABLE_FORMAT}/{TABLE_VERSION}".encode())
        for array in (self.win, self.tie, self.loss, self.pairs):
            sha.update(np.ascontiguousarray(array, dtype="<i8").tobytes())
        return sha.hexdigest()

    def check(self) -> None:
        """Raise ``EquityError`` unless the counts are consistent (shapes, totals, win/loss antisymmetry)."""
        for name in ("win", "tie", "loss", "pairs"):
            array = getattr(self, name)
            if array.shape != (NUM_CLASSES, NUM_CLASSES) or array.dtype != np.int64:
                raise EquityError(f"equity table: {name} should be a 169 x 169 int64 array")
        if not np.array_equal(self.pairs, pair_counts()):
            raise EquityError("equity table: pair counts differ from the exact combinatorics")
        if not np.array_equal(self.win + self.tie + self.loss, self.totals):
            raise EquityError("equity table: win + tie + loss differs from the number of matchups")
        if not np.array_equal(self.win, self.loss.T) or not np.array_equal(self.tie, self.tie.T):
            raise EquityError("equity table: wins are not the transposed losses")


def _chunks(order: np.ndarray, size: int) -> Iterator[np.ndarray]:
    for start in range(0, len(order), size):
        yield order[start : start + size]


def _work(task: tuple[np.ndarray, np.ndarray]) -> tuple[int, np.ndarray, np.ndarray]:
    boards, weights = task
    wins, ties = board_counts(boards, weights)
    return len(boards), wins, ties


def build_equity_table(
    *, processes: int | None = None, progress: Callable[[int, int], None] | None = None
) -> EquityTable:
    """Compute the exact table over all 134,459 suit-canonical boards (about a minute on 2 cores).

    ``processes`` defaults to the number of CPUs (at most 8); ``progress(done, total)`` is called
    with boards done so far.
    """
    boards, weights = canonical_boards()
    tasks = [(boards[idx], weights[idx]) for idx in _chunks(np.arange(len(boards)), 4 * _BATCH_BOARDS)]
    workers = max(1, min(processes or os.cpu_count() or 1, 8))
    wins = np.zeros((NUM_CLASSES, NUM_CLASSES), dtype=np.int64)
    ties = np.zeros_like(wins)
    done = 0
    if progress:
        progress(0, len(boards))
    pool = None
    if workers == 1:
        results: Iterator[tuple[int, np.ndarray, np.ndarray]] = map(_work, tasks)
    else:
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        pool = multiprocessing.get_context(method).Pool(workers)
        results = pool.imap_unordered(_work, tasks)
    try:
        for count, w, t in results:
            wins += w
            ties += t
            done += count
            if progress:
                progress(done, len(boards))
    except BaseException:
        if pool is not None:
            pool.terminate()  # interrupted or failed: do not wait for the remaining boards
        raise
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    table = EquityTable(win=wins, tie=ties, loss=wins.T.copy(), pairs=pair_counts().copy())
    table.check()
    return table


def save_equity_table(table: EquityTable, path: Path) -> None:
    """Write the table as compressed ``.npz`` with its format, version and SHA-256."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + f".{os.getpid()}.tmp")
    with open(partial, "wb") as handle:
        np.savez_compressed(
            handle,
            format=np.array(TABLE_FORMAT),
            version=np.array(TABLE_VERSION),
            sha256=np.array(table.digest()),
            win=table.win,
            tie=table.tie,
            loss=table.loss,
            pairs=table.pairs,
        )
    os.replace(partial, path)


def load_equity_table(path: Path) -> EquityTable:
    """Read and verify a table file (format, SHA-256 of the contents, consistency); ``EquityError`` if bad."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["format"]) != TABLE_FORMAT or int(data["version"]) != TABLE_VERSION:
                raise EquityError(f"{path}: not a version-{TABLE_VERSION} {TABLE_FORMAT} file")
            stored = str(data["sha256"])
            table = EquityTable(
                **{name: np.asarray(data[name], dtype=np.int64) for name in ("win", "tie", "loss", "pairs")}
            )
    except (OSError, KeyError, ValueError) as exc:
        raise EquityError(f"{path}: cannot read the equity table ({exc})") from None
    if table.digest() != stored:
        raise EquityError(
            f"{path}: checksum mismatch, the file is damaged; rebuild with 'showdown equity --build --force'"
        )
    try:
        table.check()
    except EquityError as exc:
        raise EquityError(f"{path}: {exc}") from None
    return table


def packaged_table_path() -> Path:
    """Where the shipped table lives: ``showdown/solvers/data/equity169.npz``."""
    return Path(__file__).resolve().parent / "data" / "equity169.npz"


def cached_table_path() -> Path:
    """Where a built table is cached: ``<cache>/equity/equity169-v1.npz``."""
    return cache_dir("equity") / f"equity169-v{TABLE_VERSION}.npz"


def progress_printer(stream: IO[str]) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback for the build: one line rewritten in place on a terminal,
    a line every 10% otherwise (logs stay short)."""
    start = time.perf_counter()
    interactive = bool(getattr(stream, "isatty", lambda: False)())
    last = [-1]

    def show(done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        step = 1 if interactive else 10
        if percent // step == last[0] // step and done < total:
            return
        last[0] = percent
        elapsed = time.perf_counter() - start
        text = f"building the exact equity table: {percent:3d}% ({done:,} of {total:,} boards, {elapsed:.0f} s)"
        if interactive:
            print("\r" + text, end="\n" if done >= total else "", file=stream, flush=True)
        else:
            print(text, file=stream, flush=True)

    return show


_LOADED: dict[str, EquityTable] = {}


def equity_table(*, build: bool = True, stream: IO[str] | None = None) -> EquityTable:
    """The exact table: the shipped file, else the cached one, else built now and cached.

    A damaged file is skipped with a one-line note on ``stream`` (default stderr), which also gets
    the build progress. With ``build=False`` a missing table raises ``EquityError``.
    """
    if "table" in _LOADED:
        return _LOADED["table"]
    out = sys.stderr if stream is None else stream
    for path in (packaged_table_path(), cached_table_path()):
        if path.exists():
            try:
                _LOADED["table"] = load_equity_table(path)
                return _LOADED["table"]
            except EquityError as exc:
                print(f"note: skipping {exc}", file=out)
    if not build:
        raise EquityError("no equity table found: build it with 'showdown equity --build'")
    table = build_equity_table(progress=progress_printer(out))
    save_equity_table(table, cached_table_path())
    _LOADED["table"] = table
    return table


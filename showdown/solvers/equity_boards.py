"""The boards-first count behind the equity table: the 5-card boards up to suit permutation, and on
each the wins and ties of every hand class against every other (how: ``equity``'s docstring)."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from showdown.games.evaluate import CATEGORY_SHIFT, hand_values
from showdown.solvers.hand_classes import NUM_CLASSES, NUM_COMBOS, NUM_RANKS, EquityError, class_id, combo_classes

__all__ = ["BATCH_BOARDS", "board_counts", "canonical_boards"]

_NUM_TYPES = 2 * NUM_RANKS  # partner type of a card x next to a card c: rank of x, suited with c
BATCH_BOARDS = 384  # boards per numpy batch: bounds the temporary arrays (about 100 MB)


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
    type_class = np.zeros((NUM_RANKS, _NUM_TYPES), dtype=np.int64)
    for rank in range(NUM_RANKS):
        for other in range(NUM_RANKS):
            for suited in (0, 1):
                high, low = max(rank, other), min(rank, other)
                type_class[rank, 2 * other + suited] = class_id(high, low, bool(suited) and rank != other)
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
    batch = min(BATCH_BOARDS, (2**31 - 1) // (144 * heaviest))
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
        shared, _NUM_TYPES, ((off >> 2) * _NUM_TYPES).ravel(), np.repeat(weights, 47), NUM_RANKS * _NUM_TYPES
    )
    shared_w = _types_to_classes(share_wins.reshape(NUM_RANKS, _NUM_TYPES, _NUM_TYPES))
    shared_t = _types_to_classes(share_ties.reshape(NUM_RANKS, _NUM_TYPES, _NUM_TYPES))

    # a combo against itself: counted twice among the shared pairs (once per card), a tie, not a pair
    per_combo = np.repeat(weights, 1081).astype(np.float64)
    live_weight = np.rint(np.bincount(classes[combos].ravel(), per_combo, NUM_CLASSES)).astype(np.int64)  # exact
    wins = all_wins - shared_w
    ties = all_ties - shared_t + np.diag(live_weight)
    return wins, ties

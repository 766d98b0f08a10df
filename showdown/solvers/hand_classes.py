"""The 169 preflop hand classes of hold'em (``AA``, ``AKs``, ``AKo``, ...): names, indices on the
13 x 13 grid, the combos in each, and the exact all-in equity of two given hands."""

from __future__ import annotations

from functools import cache

import numpy as np

from showdown.errors import CardError, SolverError
from showdown.games.cards import RANKS, cards_text, parse_card

__all__ = [
    "CLASS_NAMES",
    "NUM_CLASSES",
    "NUM_COMBOS",
    "NUM_RANKS",
    "EquityError",
    "cards_equity",
    "class_combos",
    "class_id",
    "class_index",
    "class_of",
    "class_sizes",
    "combo_classes",
    "hand_cards",
    "pair_counts",
]

NUM_CLASSES = 169
NUM_COMBOS = 1326
NUM_RANKS = 13


class EquityError(SolverError):
    """The equity table is missing, damaged, or a hand class name is not understood."""


def class_id(high: int, low: int, suited: bool) -> int:
    """Grid position: row = 12 - high for pairs and suited hands (AKs right of AA), 12 - low for offsuit."""
    if high == low:
        return (12 - high) * 14
    if suited:
        return (12 - high) * NUM_RANKS + (12 - low)
    return (12 - low) * NUM_RANKS + (12 - high)


def _class_name(index: int) -> str:
    row, col = divmod(index, NUM_RANKS)
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
    return class_id(max(r1, r2), min(r1, r2), (card1 & 3) == (card2 & 3))


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
        [class_id(max(a, b), min(a, b), bool(s)) for a, b, s in zip(r1, r2, (first & 3) == (second & 3))],
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

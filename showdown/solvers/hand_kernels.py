"""Compiled hand ranking (numba) for the work that ranks every holding on many boards: the hold'em
river strengths behind the agents' turn buckets (``holdem_buckets.river_strengths``), local best
response's showdown sums (``evaluation.lbr``) and the chance corrections' exact equities
(``evaluation.chance``), where ``games.evaluate.prefer_compiled`` asks for them.

The same table walk as ``games.evaluate.values_on_boards`` (the rank multiset's perfect hash gives
the non-flush value; five or more of a suit index the flush table with that suit's rank mask), fused
with what the callers do with the values, so no (boards x holdings) array is built: integer counts
and half-point sums, equal bit for bit to the numpy path (``tests/solvers/test_hand_kernels.py``).

Import this module only where such a run happens (local best response turns the preference on):
importing numba costs about half a second, which the dealer and agents in a match must not pay. The
machine code is cached next to this file (``cache=True``), so only the first run after an install
compiles; ``solvers.warm_up.compile_kernels`` (run by ``make install``) does that once.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from showdown.games import evaluate
from showdown.games.hand_value import FLUSH_BIAS, FLUSH_TEST, RANK_SUM_MASK, SUIT_SHIFT


@njit(cache=True, nogil=True)
def _keys(cards: np.ndarray, card_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of cards: its summed card keys, its rank masks (13 bits per suit, suit ``s`` at bit
    ``13 s``: one integer, so a hand's masks are its parts' ``|``), and its card bits."""
    n = cards.shape[0]
    keys = np.zeros(n, dtype=np.int64)
    masks = np.zeros(n, dtype=np.int64)
    bits = np.zeros(n, dtype=np.int64)
    for i in range(n):
        for j in range(cards.shape[1]):
            c = cards[i, j]
            keys[i] += card_keys[c]
            masks[i] |= np.int64(1) << (13 * (c & 3) + (c >> 2))
            bits[i] |= np.int64(1) << c
    return keys, masks, bits


@njit(cache=True, nogil=True)
def _rank(packed: int, masks: int, index: np.ndarray, nonflush: np.ndarray, flush_values: np.ndarray) -> int:
    """The value of a hand from its summed card keys and its rank masks (``_keys``). The loops over
    many hands write the non-flush lookup out and call ``_with_flush`` only for the few hands with
    five of a suit: a call passing arrays, even inlined, costs more than the lookup itself."""
    value = nonflush[index[min(packed & RANK_SUM_MASK, index.shape[0] - 1)]]
    if ((packed >> SUIT_SHIFT) + FLUSH_BIAS) & FLUSH_TEST:
        value = _with_flush(value, packed, masks, flush_values)
    return int(value)


@njit(cache=True, nogil=True)
def _with_flush(value: int, packed: int, masks: int, flush_values: np.ndarray) -> int:
    """The larger of a non-flush ``value`` and the flush of the hand's suit of five or more."""
    suits = packed >> SUIT_SHIFT
    flush_suit = 0
    for s in range(1, 4):
        if ((suits >> (4 * s)) & 0xF) > ((suits >> (4 * flush_suit)) & 0xF):
            flush_suit = s
    return int(max(value, flush_values[(masks >> (13 * flush_suit)) & 0x1FFF]))


@njit(cache=True, nogil=True)
def _values(boards: np.ndarray, hands: np.ndarray, card_keys: np.ndarray, index: np.ndarray, nonflush: np.ndarray,
            flush_values: np.ndarray, out: np.ndarray) -> None:
    """``out[r, h]``: the value of hand ``h`` on board ``r`` (meaningless where they share a card)."""
    board_keys, board_masks, _ = _keys(boards, card_keys)
    hand_keys, hand_masks, _ = _keys(hands, card_keys)
    last = index.shape[0] - 1
    for r in range(boards.shape[0]):
        for h in range(hands.shape[0]):
            packed = board_keys[r] + hand_keys[h]
            value = nonflush[index[min(packed & RANK_SUM_MASK, last)]]
            if ((packed >> SUIT_SHIFT) + FLUSH_BIAS) & FLUSH_TEST:
                value = _with_flush(value, packed, board_masks[r] | hand_masks[h], flush_values)
            out[r, h] = value


@njit(cache=True, nogil=True)
def _showdown_scores(boards: np.ndarray, mine: np.ndarray, hands: np.ndarray, live: np.ndarray, card_keys: np.ndarray,
                     index: np.ndarray, nonflush: np.ndarray, flush_values: np.ndarray, score: np.ndarray, valid: np.ndarray) -> None:
    """Per ``live`` hand: ``mine``'s showdown score against it (1 win, 1/2 tie) summed over the boards
    where it shares no card with ``mine`` or the board, and the count of those boards."""
    board_keys, board_masks, board_bits = _keys(boards, card_keys)
    hand_keys, hand_masks, hand_bits = _keys(hands, card_keys)
    mine_keys, mine_masks, mine_bits = _keys(mine.reshape(1, -1), card_keys)
    last = index.shape[0] - 1
    for r in range(boards.shape[0]):
        dead = board_bits[r] | mine_bits[0]
        ours = _rank(board_keys[r] + mine_keys[0], board_masks[r] | mine_masks[0], index, nonflush, flush_values)
        for h in range(hands.shape[0]):
            if hand_bits[h] & dead or not live[h]:
                continue
            packed = board_keys[r] + hand_keys[h]
            theirs = nonflush[index[min(packed & RANK_SUM_MASK, last)]]
            if ((packed >> SUIT_SHIFT) + FLUSH_BIAS) & FLUSH_TEST:
                theirs = _with_flush(theirs, packed, board_masks[r] | hand_masks[h], flush_values)
            valid[h] += 1.0
            if ours > theirs:
                score[h] += 1.0
            elif ours == theirs:
                score[h] += 0.5


@njit(cache=True, nogil=True)
def _holding_counts(boards: np.ndarray, mine: np.ndarray, hands: np.ndarray, card_keys: np.ndarray, index: np.ndarray,
                    nonflush: np.ndarray, flush_values: np.ndarray, win: np.ndarray, lose: np.ndarray) -> None:
    """Per board: how many ``hands`` sharing no card with it or with ``mine`` ``mine`` beats, and loses to."""
    board_keys, board_masks, board_bits = _keys(boards, card_keys)
    hand_keys, hand_masks, hand_bits = _keys(hands, card_keys)
    mine_keys, mine_masks, mine_bits = _keys(mine.reshape(1, -1), card_keys)
    last = index.shape[0] - 1
    for r in range(boards.shape[0]):
        dead = board_bits[r] | mine_bits[0]
        ours = _rank(board_keys[r] + mine_keys[0], board_masks[r] | mine_masks[0], index, nonflush, flush_values)
        for h in range(hands.shape[0]):
            if hand_bits[h] & dead:
                continue
            packed = board_keys[r] + hand_keys[h]
            theirs = nonflush[index[min(packed & RANK_SUM_MASK, last)]]
            if ((packed >> SUIT_SHIFT) + FLUSH_BIAS) & FLUSH_TEST:
                theirs = _with_flush(theirs, packed, board_masks[r] | hand_masks[h], flush_values)
            if ours > theirs:
                win[r] += 1
            elif ours < theirs:
                lose[r] += 1


@njit(cache=True, nogil=True)
def _pair_score(h0: np.ndarray, h1: np.ndarray, fixed: np.ndarray, rest: np.ndarray, rows: np.ndarray, card_keys: np.ndarray,
                index: np.ndarray, nonflush: np.ndarray, flush_values: np.ndarray) -> float:
    """``h0``'s wins and half ties against ``h1`` summed over the boards ``fixed`` + ``rest[rows[r]]``:
    each board's keys are the fixed cards' plus its own few, so no board array is built."""
    keys = np.zeros(3, dtype=np.int64)
    masks = np.zeros(3, dtype=np.int64)
    for i, cards in enumerate((h0, h1, fixed)):
        for c in cards:
            keys[i] += card_keys[c]
            masks[i] |= np.int64(1) << (13 * (c & 3) + (c >> 2))
    last = index.shape[0] - 1
    score = 0.0
    for r in range(rows.shape[0]):
        board_key = keys[2]
        board_mask = masks[2]
        for j in range(rows.shape[1]):
            c = rest[rows[r, j]]
            board_key += card_keys[c]
            board_mask |= np.int64(1) << (13 * (c & 3) + (c >> 2))
        packed = keys[0] + board_key
        ours = nonflush[index[min(packed & RANK_SUM_MASK, last)]]
        if ((packed >> SUIT_SHIFT) + FLUSH_BIAS) & FLUSH_TEST:
            ours = _with_flush(ours, packed, masks[0] | board_mask, flush_values)
        packed = keys[1] + board_key
        theirs = nonflush[index[min(packed & RANK_SUM_MASK, last)]]
        if ((packed >> SUIT_SHIFT) + FLUSH_BIAS) & FLUSH_TEST:
            theirs = _with_flush(theirs, packed, masks[1] | board_mask, flush_values)
        if ours > theirs:
            score += 1.0
        elif ours == theirs:
            score += 0.5
    return score


@njit(cache=True, nogil=True)
def _strength_counts(boards: np.ndarray, cards: np.ndarray, card_keys: np.ndarray, index: np.ndarray, nonflush_level: np.ndarray,
                     flush_level: np.ndarray, num_levels: int, win: np.ndarray, lose: np.ndarray) -> None:
    """Per board and two-card holding: the disjoint opponents it beats and loses to. The holdings are
    ranked by their hand's level (its place among every value a hand can have: a counting sort, no
    comparisons), blocked ones lowest; then the runs of equal level in strength order give each
    holding the weaker and stronger ones, and an opponent sharing a card is taken out card by card
    (two holdings share both cards only when they are one), as ``holdem_buckets.river_strengths``
    does with its group ranks."""
    board_keys, board_masks, board_bits = _keys(boards, card_keys)
    hand_keys, hand_masks, hand_bits = _keys(cards, card_keys)
    n = cards.shape[0]
    level = np.empty(n, dtype=np.int64)
    count = np.empty(num_levels + 2, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    below = np.zeros(52, dtype=np.int64)
    in_run = np.zeros(52, dtype=np.int64)
    board_size = boards.shape[1]
    last = index.shape[0] - 1
    for r in range(boards.shape[0]):
        count[:] = 0
        n_blocked = 0
        for h in range(n):
            if hand_bits[h] & board_bits[r]:
                level[h] = 0
                n_blocked += 1
            else:
                packed = board_keys[r] + hand_keys[h]
                value = nonflush_level[index[min(packed & RANK_SUM_MASK, last)]]
                if ((packed >> SUIT_SHIFT) + FLUSH_BIAS) & FLUSH_TEST:
                    value = _with_flush(value, packed, board_masks[r] | hand_masks[h], flush_level)
                level[h] = 1 + value
            count[level[h] + 1] += 1
        for k in range(1, num_levels + 2):
            count[k] += count[k - 1]  # count[k]: holdings below level k, then the next free place of level k
        for h in range(n):
            order[count[level[h]]] = h
            count[level[h]] += 1
        below[:] = 0
        start = 0
        while start < n:
            end = start
            while end < n and level[order[end]] == level[order[start]]:
                end += 1
            for k in range(start, end):
                h = order[k]
                in_run[cards[h, 0]] += 1
                in_run[cards[h, 1]] += 1
            for k in range(start, end):
                h = order[k]
                a, b = cards[h, 0], cards[h, 1]
                # the group of a card: its 51 holdings, of which board_size pair it with a board card
                win[r, h] = start - n_blocked - (below[a] - board_size) - (below[b] - board_size)
                lose[r, h] = (n - end) - (51 - below[a] - in_run[a]) - (51 - below[b] - in_run[b])
            for k in range(start, end):
                h = order[k]
                for c in (cards[h, 0], cards[h, 1]):
                    below[c] += in_run[c]
                    in_run[c] = 0
            start = end


@cache
def _levels(num_cards: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The tables with each value replaced by its level: its place among the values a hand of
    ``num_cards`` can have (order kept, so the larger of two levels is the larger value's)."""
    card_keys, index, nonflush, flush = _tables(num_cards)
    values = np.unique(np.concatenate([nonflush, flush[flush > 0]]))
    level_of = np.searchsorted(values, nonflush).astype(np.int64), np.searchsorted(values, flush).astype(np.int64)
    return card_keys, index, level_of[0], level_of[1], len(values)


def _tables(num_cards: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    index, nonflush = evaluate._rank_table(num_cards)
    return evaluate._CARD_KEYS, index, nonflush, evaluate._FLUSH_VALUES


def values_on_boards(boards: np.ndarray, hands: np.ndarray) -> np.ndarray:
    """``games.evaluate.values_on_boards``, compiled: (R, H) values of the (H, h) hands on the (R, b) boards."""
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    out = np.empty((len(boards), len(hands)), dtype=np.int64)
    _values(boards, hands, *_tables(boards.shape[1] + hands.shape[1]), out)
    return out


def showdown_scores(boards: np.ndarray, mine: tuple[int, ...], hands: np.ndarray,
                    live: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per hand of ``hands`` (H, h): ``mine``'s showdown score against it summed over the full
    ``boards`` (R, b) it shares no card with (1 a win, 1/2 a tie), and the count of those boards;
    0 and 0 for the hands ``live`` leaves out (default: none)."""
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    score = np.zeros(len(hands))
    valid = np.zeros(len(hands))
    alive = np.ones(len(hands), dtype=np.bool_) if live is None else np.ascontiguousarray(live, dtype=np.bool_)
    _showdown_scores(boards, np.array(mine, dtype=np.int64), hands, alive, *_tables(boards.shape[1] + len(mine)), score, valid)
    return score, valid


def pair_share(h0: tuple[int, ...], h1: tuple[int, ...], fixed: tuple[int, ...], rest: np.ndarray, rows: np.ndarray) -> float:
    """``h0``'s share of the pot against ``h1`` (wins and half the ties) over the boards made of ``fixed``
    and, per row of ``rows`` (R, k), the cards ``rest[row]``: the chance corrections' equities."""
    score = _pair_score(np.array(h0, dtype=np.int64), np.array(h1, dtype=np.int64), np.array(fixed, dtype=np.int64),
                        np.ascontiguousarray(rest, dtype=np.int64), rows, *_tables(len(h0) + len(fixed) + rows.shape[1]))
    return float(score / rows.shape[0])


def holding_counts(boards: np.ndarray, mine: tuple[int, ...], hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per full board of ``boards`` (R, b): how many of ``hands`` (H, h) that share no card with it or
    with ``mine`` ``mine`` beats, and how many beat it (one holding's side of ``strength_counts``)."""
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    win = np.zeros(len(boards), dtype=np.int64)
    lose = np.zeros(len(boards), dtype=np.int64)
    _holding_counts(boards, np.array(mine, dtype=np.int64), np.ascontiguousarray(hands, dtype=np.int64),
                    *_tables(boards.shape[1] + len(mine)), win, lose)
    return win, lose


def strength_counts(boards: np.ndarray, cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per (R, 5) river board and holding of ``cards`` (the 1,326 of a 52-card deck): how many
    disjoint opponent holdings it beats, and how many it loses to (0 and 0 where the board blocks it)."""
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    win = np.zeros((len(boards), len(cards)), dtype=np.int64)
    lose = np.zeros((len(boards), len(cards)), dtype=np.int64)
    _strength_counts(boards, np.ascontiguousarray(cards, dtype=np.int64), *_levels(boards.shape[1] + cards.shape[1]), win, lose)
    return win, lose


def warm_up() -> None:
    """Load (or compile once) every kernel on a tiny input."""
    hands = np.array([[0, 1], [2, 3]], dtype=np.int64)
    boards = np.array([[8, 12, 16, 20, 24]], dtype=np.int64)
    values_on_boards(boards, hands)
    showdown_scores(boards, (4, 5), hands)
    holding_counts(boards, (4, 5), hands)
    pair_share((0, 1), (2, 3), (8, 12, 16), np.array([20, 24, 28], dtype=np.int64), np.array([[0, 1]], dtype=np.int64))
    strength_counts(boards, hands)


__all__ = ["holding_counts", "pair_share", "showdown_scores", "strength_counts", "values_on_boards", "warm_up"]

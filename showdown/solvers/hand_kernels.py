"""Compiled hand ranking (numba) for the work that ranks every holding on many boards: the hold'em
river strengths behind the agents' turn buckets (``holdem_buckets.river_strengths``) and local best
response's showdown tables (``evaluation.lbr``).

The same table walk as ``games.evaluate.values_on_boards`` (the rank multiset's perfect hash gives
the non-flush value; five or more of a suit index the flush table with that suit's rank mask), fused
with what the callers do with the values, so no (boards x holdings) array is built: integer counts
and half-point sums, equal bit for bit to the numpy path (``tests/solvers/test_hand_kernels.py``).

Import this module only where such a run happens (local best response, a bucket table build):
importing numba costs about half a second, which the dealer and agents in a match must not pay. The
machine code is cached next to this file (``cache=True``), so only the first run after an install
compiles; ``solvers.warm_up.compile_kernels`` (run by ``make install``) does that once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from showdown.games import evaluate
from showdown.games.hand_value import FLUSH_BIAS, FLUSH_TEST, RANK_SUM_MASK, SUIT_SHIFT


@njit(cache=True, nogil=True)
def _keys(cards: np.ndarray, card_keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of cards: its summed card keys, its rank mask in each suit, and its card bits."""
    n = cards.shape[0]
    keys = np.zeros(n, dtype=np.int64)
    masks = np.zeros((n, 4), dtype=np.int64)
    bits = np.zeros(n, dtype=np.int64)
    for i in range(n):
        for j in range(cards.shape[1]):
            c = cards[i, j]
            keys[i] += card_keys[c]
            masks[i, c & 3] |= np.int64(1) << (c >> 2)
            bits[i] |= np.int64(1) << c
    return keys, masks, bits


@njit(cache=True, nogil=True, inline="always")
def _rank(packed: int, board_masks: np.ndarray, hand_masks: np.ndarray, index: np.ndarray, nonflush: np.ndarray,
          flush_values: np.ndarray) -> int:
    """The value of a hand from its summed card keys, and the rank masks per suit of its two parts."""
    value = nonflush[index[min(packed & RANK_SUM_MASK, index.shape[0] - 1)]]
    suits = packed >> SUIT_SHIFT
    if (suits + FLUSH_BIAS) & FLUSH_TEST:
        flush_suit = 0
        for s in range(1, 4):
            if ((suits >> (4 * s)) & 0xF) > ((suits >> (4 * flush_suit)) & 0xF):
                flush_suit = s
        value = max(value, flush_values[board_masks[flush_suit] | hand_masks[flush_suit]])
    return int(value)


@njit(cache=True, nogil=True)
def _values(boards: np.ndarray, hands: np.ndarray, card_keys: np.ndarray, index: np.ndarray, nonflush: np.ndarray,
            flush_values: np.ndarray, out: np.ndarray) -> None:
    """``out[r, h]``: the value of hand ``h`` on board ``r`` (meaningless where they share a card)."""
    board_keys, board_masks, _ = _keys(boards, card_keys)
    hand_keys, hand_masks, _ = _keys(hands, card_keys)
    for r in range(boards.shape[0]):
        for h in range(hands.shape[0]):
            out[r, h] = _rank(board_keys[r] + hand_keys[h], board_masks[r], hand_masks[h], index, nonflush, flush_values)


@njit(cache=True, nogil=True)
def _showdown_scores(boards: np.ndarray, mine: np.ndarray, hands: np.ndarray, card_keys: np.ndarray, index: np.ndarray,
                     nonflush: np.ndarray, flush_values: np.ndarray, score: np.ndarray, valid: np.ndarray) -> None:
    """Per hand: ``mine``'s showdown score against it (1 win, 1/2 tie) summed over the boards where it
    shares no card with ``mine`` or the board, and the count of those boards."""
    board_keys, board_masks, board_bits = _keys(boards, card_keys)
    hand_keys, hand_masks, hand_bits = _keys(hands, card_keys)
    mine_keys, mine_masks, mine_bits = _keys(mine.reshape(1, -1), card_keys)
    for r in range(boards.shape[0]):
        dead = board_bits[r] | mine_bits[0]
        ours = _rank(board_keys[r] + mine_keys[0], board_masks[r], mine_masks[0], index, nonflush, flush_values)
        for h in range(hands.shape[0]):
            if hand_bits[h] & dead:
                continue
            theirs = _rank(board_keys[r] + hand_keys[h], board_masks[r], hand_masks[h], index, nonflush, flush_values)
            valid[h] += 1.0
            if ours > theirs:
                score[h] += 1.0
            elif ours == theirs:
                score[h] += 0.5


@njit(cache=True, nogil=True)
def _strength_counts(values: np.ndarray, cards: np.ndarray, blocked: np.ndarray, board_size: int, win: np.ndarray,
                     lose: np.ndarray) -> None:
    """Per board and two-card holding: the disjoint opponents it beats and loses to (blocked holdings
    rank lowest and count as neither). One sort per board, then the runs of equal values in strength
    order; an opponent sharing a card is taken out card by card (two holdings share both cards only
    when they are one), as ``holdem_buckets.river_strengths`` does with its group ranks."""
    n = values.shape[1]
    below = np.zeros(52, dtype=np.int64)
    in_run = np.zeros(52, dtype=np.int64)
    for r in range(values.shape[0]):
        row = values[r].copy()
        n_blocked = 0
        for h in range(n):
            if blocked[r, h]:
                row[h] = -1
                n_blocked += 1
        order = np.argsort(row)
        below[:] = 0
        start = 0
        while start < n:
            end = start
            while end < n and row[order[end]] == row[order[start]]:
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


def showdown_scores(boards: np.ndarray, mine: tuple[int, ...], hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per hand of ``hands`` (H, h): ``mine``'s showdown score against it summed over the full
    ``boards`` (R, b) it shares no card with (1 a win, 1/2 a tie), and the count of those boards."""
    boards = np.ascontiguousarray(boards, dtype=np.int64)
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    score = np.zeros(len(hands))
    valid = np.zeros(len(hands))
    _showdown_scores(boards, np.array(mine, dtype=np.int64), hands, *_tables(boards.shape[1] + len(mine)), score, valid)
    return score, valid


def strength_counts(values: np.ndarray, cards: np.ndarray, blocked: np.ndarray, board_size: int) -> tuple[np.ndarray, np.ndarray]:
    """Per board row of ``values`` (R, 1326; ``blocked`` where a holding meets the board): how many
    disjoint opponent holdings each holding beats, and how many it loses to."""
    win = np.zeros(values.shape, dtype=np.int64)
    lose = np.zeros(values.shape, dtype=np.int64)
    _strength_counts(np.ascontiguousarray(values), np.ascontiguousarray(cards, dtype=np.int64), np.ascontiguousarray(blocked),
                     board_size, win, lose)
    return win, lose


def warm_up() -> None:
    """Load (or compile once) every kernel on a tiny input."""
    hands = np.array([[0, 1], [2, 3]], dtype=np.int64)
    boards = np.array([[8, 12, 16, 20, 24]], dtype=np.int64)
    values_on_boards(boards, hands)
    showdown_scores(boards, (4, 5), hands)
    strength_counts(values_on_boards(boards, hands), hands, np.zeros((1, 2), dtype=bool), 5)


__all__ = ["showdown_scores", "strength_counts", "values_on_boards", "warm_up"]

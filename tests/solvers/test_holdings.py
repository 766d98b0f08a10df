"""Batched win/lose/fold sums with card removal agree with the plain double loop over holdings."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.games.evaluate import hand_value
from showdown.solvers.holdings import RankedBoard, disjoint_sums, holdings_of


def _brute(h, board, reach):
    n = h.size
    win = np.zeros(n)
    lose = np.zeros(n)
    free = np.zeros(n)
    vals = [None if set(row) & set(board) else hand_value(tuple(row) + tuple(board)) for row in h.cards.tolist()]
    for i, a in enumerate(h.cards.tolist()):
        if vals[i] is None:
            continue
        for j, b in enumerate(h.cards.tolist()):
            if vals[j] is None or set(a) & set(b):
                continue
            free[i] += reach[j]
            if vals[j] < vals[i]:
                win[i] += reach[j]
            elif vals[j] > vals[i]:
                lose[i] += reach[j]
    return win, lose, free


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_sums_match_the_double_loop_in_a_small_two_card_deck(seed):
    rng = np.random.default_rng(seed)
    deck = tuple(sorted(rng.choice(52, size=12, replace=False).tolist()))
    h = holdings_of(deck, 2)
    board = tuple(int(c) for c in rng.choice(deck, size=5, replace=False))
    ranked = RankedBoard(h, board)
    reach = rng.random(h.size) * ~ranked.blocked
    win, lose = ranked.win_lose(reach[None, :])
    free = disjoint_sums(h, reach[None, :])
    bw, bl, bf = _brute(h, board, reach)
    ok = ~ranked.blocked
    assert np.allclose(win[0][ok], bw[ok])
    assert np.allclose(lose[0][ok], bl[ok])
    assert np.allclose(free[0][ok], bf[ok])


def test_one_card_holdings_leduc():
    deck = (36, 37, 40, 41, 44, 45)  # Q Q K K A A of two suits
    h = holdings_of(deck, 1)
    board = (40,)
    ranked = RankedBoard(h, board)
    reach = np.array([1.0, 2.0, 0.0, 3.0, 4.0, 5.0])
    win, lose = ranked.win_lose(reach[None, :])
    bw, bl, _ = _brute(h, board, reach)
    ok = ~ranked.blocked
    assert np.allclose(win[0][ok], bw[ok]) and np.allclose(lose[0][ok], bl[ok])

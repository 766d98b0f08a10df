"""The compiled hand ranking equals the numpy path bit for bit: values, river strengths, E[HS^2], LBR's
showdown sums, the chance corrections' equities, and whole LBR runs against the hold'em ``cfr`` agent
(the numpy path as the oracle)."""

from __future__ import annotations

import numpy as np
import pytest

from showdown.evaluation.lbr import LocalBestResponse
from showdown.evaluation.lbr_runs import _reseed, agent_for, play_hands
from showdown.games.catalog import get_game
from showdown.games.evaluate import compiled_preferred, prefer_compiled, values_on_boards
from showdown.solvers import hand_kernels, holdem_buckets
from showdown.solvers.holdings import holdings_of

HANDS = holdings_of(tuple(range(52)), 2).cards


def _boards(num: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([rng.choice(52, size, replace=False) for _ in range(num)], dtype=np.int64)


def _blocked(boards: np.ndarray, extra: tuple[int, ...] = ()) -> np.ndarray:
    dead = np.zeros((len(boards), 52), dtype=bool)
    dead[np.arange(len(boards))[:, None], boards] = True
    dead[:, list(extra)] = True
    return np.asarray(dead[:, HANDS[:, 0]] | dead[:, HANDS[:, 1]])


@pytest.fixture
def restored_preference():  # type: ignore[no-untyped-def]
    previous = prefer_compiled(False)
    yield
    prefer_compiled(previous)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_compiled_values_equal_the_numpy_values_wherever_hand_and_board_are_disjoint(size: int) -> None:
    boards = _boards(60, size, seed=size)
    ok = ~_blocked(boards)
    assert np.array_equal(hand_kernels.values_on_boards(boards, HANDS)[ok], values_on_boards(boards, HANDS)[ok])


def test_flush_and_straight_flush_boards_rank_as_the_numpy_path() -> None:
    boards = np.array([[0, 4, 8, 12, 16], [1, 5, 9, 13, 49], [48, 0, 4, 8, 12], [2, 10, 18, 26, 34]], dtype=np.int64)
    ok = ~_blocked(boards)
    assert np.array_equal(hand_kernels.values_on_boards(boards, HANDS)[ok], values_on_boards(boards, HANDS)[ok])


def test_compiled_river_strengths_and_turn_ehs2_are_bit_identical(restored_preference: None) -> None:
    boards = _boards(40, 5, seed=3)
    turn = (3, 17, 30, 45)
    numpy_hs, numpy_ehs2 = holdem_buckets.river_strengths(boards), holdem_buckets.expected_hs2(turn)
    prefer_compiled(True)
    assert holdem_buckets.river_strengths(boards).tobytes() == numpy_hs.tobytes()
    assert holdem_buckets.expected_hs2(turn).tobytes() == numpy_ehs2.tobytes()


def test_lbr_showdown_sums_equal_the_numpy_comparison() -> None:
    mine = (7, 9)
    boards = _boards(120, 5, seed=4)
    boards = boards[~np.isin(boards, mine).any(axis=1)]
    score, valid = hand_kernels.showdown_scores(boards, mine, HANDS)
    ours = values_on_boards(boards, np.array([mine]))[:, 0]
    theirs = values_on_boards(boards, HANDS)
    blocked = _blocked(boards, mine)
    won = (ours[:, None] > theirs) + 0.5 * (ours[:, None] == theirs)
    won[blocked] = 0.0
    assert np.array_equal(score, won.sum(axis=0)) and np.array_equal(valid, len(boards) - blocked.sum(axis=0))


@pytest.mark.parametrize("game_name", ["holdem-nolimit", "holdem-limit"])
def test_lbr_with_the_compiled_kernels_plays_every_seeded_hand_as_the_numpy_path(game_name: str, restored_preference: None) -> None:
    game = get_game(game_name)
    results = []
    for compiled in (False, True):
        prefer_compiled(False)
        agent = agent_for(game, "cfr", None, {"search": "off"})
        _reseed(agent, 5)
        lbr = LocalBestResponse(game, agent, actions="wide" if not game.is_limit else "fcpa", compiled=compiled)
        assert compiled_preferred() is compiled
        results.append(np.array(play_hands(lbr, 0, 24, seed=5)))
    assert results[0].tobytes() == results[1].tobytes()


def test_one_holdings_turn_ehs2_is_the_same_compiled_and_equals_the_whole_boards_table(restored_preference: None) -> None:
    """``holding_turn_ehs2`` (a turn decision's bucket) through ``hand_kernels.holding_counts`` against
    the numpy counts and against ``expected_hs2`` at that holding, bit for bit."""
    rng = np.random.default_rng(8)
    index = {tuple(sorted(row)): i for i, row in enumerate(HANDS.tolist())}
    for k in range(25):
        cards = [int(c) for c in rng.choice(52, 6, replace=False)]
        hole, board = tuple(cards[:2]), tuple(cards[2:])
        prefer_compiled(False)
        numpy_value = holdem_buckets.holding_turn_ehs2(hole, board)
        prefer_compiled(True)
        assert holdem_buckets.holding_turn_ehs2(hole, board) == numpy_value
        if k < 3:
            assert holdem_buckets.expected_hs2(board)[index[tuple(sorted(hole))]] == numpy_value
    boards = _boards(30, 5, seed=11)
    mine = (int(boards[0, 0]) ^ 1, int(boards[0, 1]) ^ 1)  # cards of the same ranks, other suits: off board 0
    boards = boards[~np.isin(boards, mine).any(axis=1)]
    win, lose = hand_kernels.holding_counts(boards, mine, HANDS)
    ours = values_on_boards(boards, np.array([mine]))[:, 0]
    theirs = values_on_boards(boards, HANDS)
    live = ~_blocked(boards, mine)
    assert np.array_equal(win, ((theirs < ours[:, None]) & live).sum(axis=1))
    assert np.array_equal(lose, ((theirs > ours[:, None]) & live).sum(axis=1))


@pytest.mark.parametrize("compiled", [False, True])
def test_turn_ehs2_adds_the_squared_river_strengths_one_river_after_the_other(compiled: bool, restored_preference: None) -> None:
    prefer_compiled(compiled)
    turn = (5, 22, 38, 51)
    holdings = holdings_of(tuple(range(52)), 2)
    total, count = np.zeros(holdings.size), np.zeros(holdings.size)
    for river in (c for c in range(52) if c not in turn):
        hs = holdem_buckets.river_strength(turn + (river,))
        ok = ~holdings.blocked((river,))
        total += np.where(ok, hs * hs, 0.0)
        count += ok
    expected = np.zeros(holdings.size)
    np.divide(total, count, out=expected, where=count > 0)
    expected[holdings.blocked(turn)] = 0.0
    assert holdem_buckets.expected_hs2(turn).tobytes() == expected.tobytes()


def test_chance_equities_are_the_same_compiled(restored_preference: None) -> None:
    from showdown.evaluation import chance

    deals = [((0, 13), (26, 39), (1, 14, 27)), ((48, 49), (50, 51), (0, 4, 8, 12)), ((7, 30), (2, 44), (9, 21, 33, 45, 5)),
             ((3, 20), (11, 24), ())]
    rng = np.random.default_rng(4)
    for size in (3, 3, 3, 4, 4, 5, 0, 1, 2):  # random deals too; no board and one or two cards: sampled only
        cards = tuple(int(c) for c in rng.choice(52, 4 + size, replace=False))
        deals.append((tuple(sorted(cards[:2])), tuple(sorted(cards[2:4])), tuple(sorted(cards[4:]))))
    got = []
    for compiled in (False, True):
        prefer_compiled(compiled)
        chance._exact_equity.cache_clear()
        chance.sampled_equity.cache_clear()
        exact = [chance._exact_equity(13, 4, 5, h0, h1, board) for h0, h1, board in deals]
        sampled = [chance.sampled_equity(13, 4, 5, h0, h1, board, seed=9, boards=500) for h0, h1, board in deals]
        got.append((exact, sampled))
    assert got[0] == got[1]  # bit for bit: the compiled kernel sums the same wins and half ties
    exact, sampled = got[0]
    assert exact[2] in (0.0, 0.5, 1.0) and exact[3] is None and exact[-3:] == [None] * 3 and None not in exact[4:-3]
    assert all(abs(s - e) < 0.1 for s, e in zip(sampled, exact) if e is not None)


@pytest.mark.parametrize("board", [(10, 20, 30), (10, 20, 30, 40)])
def test_lbr_sums_a_narrowed_range_and_a_wider_one_on_the_same_runouts_as_the_numpy_path(board: tuple[int, ...],
                                                                                       restored_preference: None) -> None:
    game = get_game("holdem-limit")
    agent = agent_for(game, "call", None, {})
    numpy_lbr = LocalBestResponse(game, agent, compiled=False)
    compiled_lbr = LocalBestResponse(game, agent)
    mine = (0, 1)
    everyone = np.ones(len(HANDS), dtype=bool)
    narrow = everyone.copy()
    narrow[::3] = False
    expected = numpy_lbr._showdowns(mine, board, np.random.default_rng(3), everyone)
    rng = np.random.default_rng(3)
    score, valid = compiled_lbr._showdowns(mine, board, rng, narrow)
    assert not score[~narrow].any() and not valid[~narrow].any()
    assert np.array_equal(score[narrow], expected[0][narrow]) and np.array_equal(valid[narrow], expected[1][narrow])
    wider = compiled_lbr._showdowns(mine, board, rng, everyone)  # a sibling branch's wider range: the same runouts
    assert np.array_equal(wider[0], expected[0]) and np.array_equal(wider[1], expected[1])

"""The exact class-vs-class equity table: classes, card removal, the board-first counting, the shipped file."""

from __future__ import annotations

import itertools
import math
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from showdown.games.cards import parse_cards
from showdown.games.evaluate import hand_values
from showdown.solvers import equity, equity_boards
from showdown.solvers.equity import (
    BOARDS_PER_MATCHUP,
    EQUITY_SHA256,
    EquityTable,
    load_equity_table,
    packaged_table_path,
    save_equity_table,
)
from showdown.solvers.equity_boards import board_counts, canonical_boards
from showdown.solvers.hand_classes import (
    CLASS_NAMES,
    EquityError,
    class_combos,
    class_index,
    class_of,
    class_sizes,
    combo_classes,
    pair_counts,
)


@pytest.fixture(scope="module")
def table() -> EquityTable:
    return load_equity_table(packaged_table_path())


# ---------------------------------------------------------------------------------------------
# independent references: plain comparison of every pair, no sorting tricks


def direct_counts(board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Wins and ties of class a over class k on one board, by comparing every pair of live combos."""
    first, second, classes = combo_classes()
    bits = (np.int64(1) << first) | (np.int64(1) << second)
    board_bits = int(np.bitwise_or.reduce(np.int64(1) << board.astype(np.int64)))
    live = np.flatnonzero((bits & board_bits) == 0)
    cards = np.hstack([np.repeat(board[None, :], len(live), axis=0), np.stack([first[live], second[live]], 1)])
    values = hand_values(cards)
    disjoint = (bits[live][:, None] & bits[live][None, :]) == 0
    onehot = np.zeros((len(live), 169))
    onehot[np.arange(len(live)), classes[live]] = 1.0
    wins = onehot.T @ ((values[:, None] > values[None, :]) & disjoint) @ onehot
    ties = onehot.T @ ((values[:, None] == values[None, :]) & disjoint) @ onehot
    return np.rint(wins).astype(np.int64), np.rint(ties).astype(np.int64)


@cache
def five_of_48() -> np.ndarray:
    boards = itertools.chain.from_iterable(itertools.combinations(range(48), 5))
    return np.fromiter(boards, dtype=np.int8).reshape(-1, 5)


def suit_image(cards: tuple[int, ...], perm: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted((c & ~3) | perm[c & 3] for c in cards))


def enumerated_counts(a: int, k: int) -> tuple[int, int, int]:
    """Win/tie/loss counts of class a against k by enumerating every board for every matchup.

    Suit symmetry only trims the work: every combo of ``a`` has the same totals, so one stands for
    all; opponents equivalent under the suit permutations fixing it are enumerated once, times the
    size of their orbit.
    """
    hero = class_combos(a)[0]
    fixing = [perm for perm in itertools.permutations(range(4)) if suit_image(hero, perm) == hero]
    orbits: dict[tuple[int, ...], int] = {}
    for villain in class_combos(k):
        if set(villain) & set(hero):
            continue
        key = min(suit_image(villain, perm) for perm in fixing)
        orbits[key] = orbits.get(key, 0) + 1
    win = tie = loss = 0
    for rep, size in orbits.items():
        rest = np.array([c for c in range(52) if c not in hero and c not in rep], dtype=np.int8)
        boards = rest[five_of_48()]
        mine = hand_values(np.hstack([boards, np.tile(np.array(hero, dtype=np.int8), (len(boards), 1))]))
        theirs = hand_values(np.hstack([boards, np.tile(np.array(rep, dtype=np.int8), (len(boards), 1))]))
        win += size * int((mine > theirs).sum())
        tie += size * int((mine == theirs).sum())
        loss += size * int((mine < theirs).sum())
    n = len(class_combos(a))
    return n * win, n * tie, n * loss


# ---------------------------------------------------------------------------------------------
# classes and card removal


def test_there_are_13_pairs_78_suited_and_78_offsuit_classes() -> None:
    assert len(CLASS_NAMES) == len(set(CLASS_NAMES)) == 169
    assert sum(len(n) == 2 for n in CLASS_NAMES) == 13
    assert sum(n.endswith("s") for n in CLASS_NAMES) == 78
    assert sum(n.endswith("o") for n in CLASS_NAMES) == 78
    sizes = class_sizes()
    assert sizes.sum() == 1326
    assert {CLASS_NAMES[i]: int(sizes[i]) for i in (class_index("AA"), class_index("AKs"), class_index("AKo"))} == {
        "AA": 6,
        "AKs": 4,
        "AKo": 12,
    }


def test_class_names_round_trip_and_grid_order() -> None:
    assert CLASS_NAMES[0] == "AA" and CLASS_NAMES[1] == "AKs" and CLASS_NAMES[13] == "AKo" and CLASS_NAMES[-1] == "22"
    for index, name in enumerate(CLASS_NAMES):
        assert class_index(name) == index
        assert all(class_of(c1, c2) == index for c1, c2 in class_combos(index))


def test_class_index_accepts_either_rank_order_lower_case_and_cards() -> None:
    assert class_index("KAs") == class_index("aks") == class_index("AKs")
    assert class_index("AsKs") == class_index("AKs")
    assert class_index("AsKd") == class_index("AKo")
    assert class_index("7c7d") == class_index("77")


@pytest.mark.parametrize("name", ["AK", "XX", "AKx", "", "AAs", "AsAs"])
def test_unknown_or_ambiguous_class_names_are_errors(name: str) -> None:
    with pytest.raises(EquityError):
        class_index(name)


def test_pair_weights_count_ordered_disjoint_combo_pairs() -> None:
    pairs = pair_counts()
    assert pairs.sum() == 1326 * 1225
    assert np.array_equal(pairs, pairs.T)
    assert np.array_equal(pairs.sum(axis=1), class_sizes() * 1225)
    aa, kk, aks, ako = (class_index(n) for n in ("AA", "KK", "AKs", "AKo"))
    assert pairs[aa, kk] == 36 and pairs[aa, aa] == 6  # AA vs AA: the two aces left over
    assert pairs[aa, aks] == 6 * 2 and pairs[aa, ako] == 6 * 2 * 3
    # AKo vs AKo: 3 aces x 3 kings left, minus the 2 suited ones
    assert pairs[aks, aks] == 4 * 3 and pairs[ako, ako] == 12 * (9 - 2)


def test_canonical_boards_cover_every_board_once() -> None:
    boards, weights = canonical_boards()
    assert len(boards) == 134_459
    assert weights.sum() == math.comb(52, 5)
    assert set(np.unique(weights)) <= {1, 4, 6, 12, 24}
    assert (np.sort(boards, axis=1)[:, 1:] > np.sort(boards, axis=1)[:, :-1]).all()


def test_compact_values_keep_the_evaluator_order() -> None:
    rng = np.random.default_rng(5)
    hands = np.argsort(rng.random((50_000, 52)), axis=1)[:, :7].astype(np.int8)
    values = hand_values(hands)
    compact = equity_boards._compact(values)
    i, j = rng.integers(0, len(values), (2, 200_000))
    assert np.array_equal(np.sign(values[i] - values[j]), np.sign(compact[i] - compact[j]))


BOARDS = [
    "AsKsQsJsTs",  # royal flush on board: everybody ties
    "2c3c4c5c7c",  # five clubs
    "AhAdAcKsKh",  # full house on board, quads possible
    "9h8h2h2dKc",  # three hearts, a pair
    "Th9h8h7cQh",  # four hearts, straights
    "Ac7d3h2sJc",  # rainbow-ish, wheel draws
]


@pytest.mark.parametrize("text", BOARDS)
def test_board_counts_equal_direct_comparison_of_every_pair(text: str) -> None:
    board = np.array(parse_cards(text), dtype=np.int8)
    wins, ties = board_counts(board[None, :])
    expected_wins, expected_ties = direct_counts(board)
    assert np.array_equal(wins, expected_wins)
    assert np.array_equal(ties, expected_ties)


def test_board_counts_weights_and_batches_add_up() -> None:
    rng = np.random.default_rng(11)
    boards = np.array([rng.choice(52, 5, replace=False) for _ in range(7)], dtype=np.int8)
    weights = rng.integers(1, 25, len(boards))
    wins, ties = board_counts(boards, weights)
    one_by_one = [board_counts(b[None, :]) for b in boards]
    assert np.array_equal(wins, sum(w * c[0] for w, c in zip(weights, one_by_one)))
    assert np.array_equal(ties, sum(w * c[1] for w, c in zip(weights, one_by_one)))
    # on one board, every disjoint pair of live combos is a win, a tie or a loss
    single_wins, single_ties = one_by_one[0]
    first, second, classes = combo_classes()
    bits = (np.int64(1) << first) | (np.int64(1) << second)
    board_bits = int(np.bitwise_or.reduce(np.int64(1) << boards[0].astype(np.int64)))
    live = (bits & board_bits) == 0
    onehot = np.zeros((1326, 169))
    onehot[np.flatnonzero(live), classes[live]] = 1.0
    pairs = np.rint(onehot.T @ ((bits[:, None] & bits[None, :]) == 0) @ onehot).astype(np.int64)
    assert np.array_equal(single_wins + single_ties + single_wins.T, pairs)


# ---------------------------------------------------------------------------------------------
# the shipped table


def test_shipped_table_is_the_exact_table(table: EquityTable) -> None:
    assert table.digest() == EQUITY_SHA256
    assert packaged_table_path().stat().st_size < 1_000_000


def test_win_tie_loss_add_up_to_every_matchup(table: EquityTable) -> None:
    assert np.array_equal(table.win + table.tie + table.loss, table.pairs * BOARDS_PER_MATCHUP)
    assert table.pairs.sum() == 1326 * 1225
    assert BOARDS_PER_MATCHUP == 1_712_304


def test_table_is_antisymmetric_in_win_and_loss(table: EquityTable) -> None:
    assert np.array_equal(table.win, table.loss.T)
    assert np.array_equal(table.tie, table.tie.T)
    assert np.allclose(table.net_equity(), -table.net_equity().T)
    assert table.probabilities().sum() == pytest.approx(1.0, abs=1e-15)


def test_aces_against_kings(table: EquityTable) -> None:
    # the figures (AA vs KK all-in preflop, every board and suit combination)
    win, tie, loss = table.fractions(class_index("AA"), class_index("KK"))
    assert win == pytest.approx(0.81715, abs=5e-6)
    assert loss == pytest.approx(0.17823, abs=5e-6)
    assert tie == pytest.approx(0.00463, abs=5e-6)


def test_equity_against_a_random_hand_matches_the_well_known_figures(table: EquityTable) -> None:
    # widely published preflop all-in equities against a random hand (win + tie / 2)
    share = (table.win + table.tie / 2).sum(axis=1) / table.totals.sum(axis=1)
    assert share[class_index("AA")] == pytest.approx(0.8520, abs=1e-4)
    assert share[class_index("72o")] == pytest.approx(0.3458, abs=1e-4)
    assert share[class_index("32o")] == pytest.approx(0.3230, abs=1e-4)


@pytest.mark.parametrize("pair", [("AA", "KK"), ("AKs", "AQs"), ("T9s", "98o")])
def test_table_entries_equal_full_enumeration(table: EquityTable, pair: tuple[str, str]) -> None:
    a, k = (class_index(n) for n in pair)
    assert enumerated_counts(a, k) == (int(table.win[a, k]), int(table.tie[a, k]), int(table.loss[a, k]))


def test_damaged_table_file_is_rejected(table: EquityTable, tmp_path: Path) -> None:
    path = tmp_path / "equity.npz"
    save_equity_table(table, path)
    assert load_equity_table(path).digest() == EQUITY_SHA256
    win = table.win.copy()
    win[3, 4] += 1
    damaged = EquityTable(win=win, tie=table.tie, loss=table.loss, pairs=table.pairs)
    save_equity_table(damaged, path)
    with pytest.raises(EquityError, match="win \\+ tie \\+ loss"):
        load_equity_table(path)
    np.savez(path, format=np.array("showdown-equity169"), version=np.array(1), sha256=np.array("0" * 64),
             win=table.win, tie=table.tie, loss=table.loss, pairs=table.pairs)
    with pytest.raises(EquityError, match="checksum"):
        load_equity_table(path)
    path.write_bytes(b"not a table")
    with pytest.raises(EquityError, match="cannot read"):
        load_equity_table(path)


def test_equity_table_falls_back_to_the_cache_then_refuses_to_build(
    table: EquityTable, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHOWDOWN_CACHE", str(tmp_path))
    monkeypatch.setattr(equity, "packaged_table_path", lambda: tmp_path / "missing.npz")
    monkeypatch.setattr(equity, "_LOADED", {})
    with pytest.raises(EquityError, match="--build"):
        equity.equity_table(build=False)
    save_equity_table(table, equity.cached_table_path())
    assert equity.equity_table(build=False).digest() == EQUITY_SHA256


# ---------------------------------------------------------------------------------------------
# slow: the whole table from scratch


@pytest.mark.slow
def test_rebuilding_the_table_reproduces_the_shipped_one(table: EquityTable) -> None:
    # the time is reported by benchmarks/bench_equity.py (about a minute on 2 idle cores)
    rebuilt = equity.build_equity_table(processes=2)
    assert rebuilt.digest() == EQUITY_SHA256


@pytest.mark.slow
def test_random_table_entries_equal_full_enumeration(table: EquityTable) -> None:
    rng = np.random.default_rng(2024)
    for a, k in rng.integers(0, 169, (8, 2)):
        assert enumerated_counts(int(a), int(k)) == (
            int(table.win[a, k]),
            int(table.tie[a, k]),
            int(table.loss[a, k]),
        ), (CLASS_NAMES[a], CLASS_NAMES[k])


def _no_work(task: tuple[np.ndarray, np.ndarray]) -> tuple[int, np.ndarray, np.ndarray]:
    zeros = np.zeros((len(CLASS_NAMES), len(CLASS_NAMES)), dtype=np.int64)
    return len(task[0]), zeros, zeros


def test_a_sigterm_while_the_table_is_built_stops_the_pool_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM killed `equity --build` at once: its workers printed BrokenPipeError tracebacks and one
    lived on; now the pool is stopped and the command says one line, exit 143."""
    import multiprocessing
    import os
    import signal

    from showdown.errors import Terminated

    monkeypatch.setattr(equity, "_work", _no_work)
    before = signal.signal(signal.SIGTERM, lambda *_: None)  # without the fix: swallowed, the build goes on
    try:
        with pytest.raises(Terminated):
            equity.build_equity_table(processes=2, progress=lambda done, n: done and os.kill(os.getpid(), signal.SIGTERM))
    finally:
        signal.signal(signal.SIGTERM, before)
    assert multiprocessing.active_children() == []

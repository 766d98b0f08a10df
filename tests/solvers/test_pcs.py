"""Public-chance-sampling CFR+ on abstractions, checked exactly in Leduc."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from showdown.games.catalog import get_game
from showdown.solvers.abstraction import RankAbstraction, StrengthAbstraction
from showdown.solvers.best_response import expected_value, exploitability
from showdown.solvers.holdings import game_holdings
from showdown.solvers.pcs import AbstractStrategy, PCSSolver, real_strategy

LEDUC = get_game("leduc")
LEDUC_VALUE = -0.0856  # the first player's equilibrium value (Waugh et al.)


@pytest.fixture(scope="module")
def lossless() -> PCSSolver:
    solver = PCSSolver(LEDUC, RankAbstraction(LEDUC), exhaustive=True)
    solver.iterate(500)
    return solver


def test_lossless_abstraction_converges_to_the_exact_solution(lossless):
    strategy = real_strategy(lossless.strategy())
    assert exploitability(LEDUC, strategy) < 1e-3
    assert abs(expected_value(LEDUC, strategy) - LEDUC_VALUE) < 1e-3


def test_lossy_abstractions_cost_exploitability(lossless):
    exact = exploitability(LEDUC, real_strategy(lossless.strategy()))
    for n in (2, 3):
        solver = PCSSolver(LEDUC, StrengthAbstraction(LEDUC, n), exhaustive=True)
        solver.iterate(100)
        assert exploitability(LEDUC, real_strategy(solver.strategy())) > 100 * exact


def test_sampled_boards_also_converge():
    solver = PCSSolver(LEDUC, RankAbstraction(LEDUC), seed=3)
    solver.iterate(50)
    early = exploitability(LEDUC, real_strategy(solver.strategy()))
    solver.iterate(1500)
    assert exploitability(LEDUC, real_strategy(solver.strategy())) < early / 2


@pytest.mark.parametrize("abstraction", [RankAbstraction(LEDUC), StrengthAbstraction(LEDUC, 3)])
def test_the_agents_bucket_is_the_solvers_bucket(abstraction):
    holdings = game_holdings(LEDUC)
    for board in abstraction.all_boards():
        table = abstraction.buckets(board)
        for i, row in enumerate(holdings.cards.tolist()):
            if board[0] in row:
                continue
            for r in range(LEDUC.num_rounds):
                assert abstraction.bucket(tuple(row), board, r) == table[r, i]


def test_checkpoint_resume_equals_one_run(tmp_path):
    one = PCSSolver(LEDUC, RankAbstraction(LEDUC), seed=5)
    one.iterate(40)
    two = PCSSolver(LEDUC, RankAbstraction(LEDUC), seed=5)
    two.iterate(15)
    two.save_checkpoint(tmp_path / "c.npz")
    resumed = PCSSolver.load_checkpoint(tmp_path / "c.npz")
    resumed.iterate(25)
    assert np.array_equal(one.regret, resumed.regret) and np.array_equal(one.average, resumed.average)


def test_strategy_file_round_trip(tmp_path, lossless):
    path = lossless.strategy().save(tmp_path / "leduc.pcs.npz")
    loaded = AbstractStrategy.load(path, LEDUC)
    assert np.allclose(loaded.probabilities, lossless.average_strategy(), atol=1e-4)
    with pytest.raises(Exception, match="not kuhn|for game"):
        AbstractStrategy.load(path, get_game("kuhn"))


def test_rows_of_many_holdings_are_at_row_by_row_to_the_last_bit(lossless):
    """``rows`` (read from a node's table, worked out once) answers what ``at`` answers bucket by
    bucket, the uniform rows of buckets never reached included."""
    strategy = lossless.strategy()
    strategy.probabilities[strategy.layout.base[0]] = 0.0  # a bucket with no weight: uniform over the legal actions
    for node in strategy.tree.decision_nodes().tolist():
        count = strategy.abstraction.num_buckets[int(strategy.tree.round[node])]
        buckets = np.array([count - 1, 0, *range(count)], dtype=np.int64)
        rows = strategy.rows(node, buckets)
        assert np.array_equal(rows, np.array([strategy.at(node, int(b)) for b in buckets]))
        assert strategy.rows(node, buckets[:1]) is not strategy.node_table(node)


@pytest.mark.slow
def test_holdem_runs_resume_exactly(tmp_path):
    """What makes the shipped strategies reproducible: a run resumed from a checkpoint is the same run."""
    from showdown.solvers.holdem_buckets import HoldemAbstraction

    game = get_game("holdem-limit")
    one = PCSSolver(game, HoldemAbstraction(game), seed=2)
    one.iterate(3)
    two = PCSSolver(game, HoldemAbstraction(game), seed=2)
    two.iterate(1)
    two.save_checkpoint(tmp_path / "h.ckpt.pcs.npz")
    resumed = PCSSolver.load_checkpoint(tmp_path / "h.ckpt.pcs.npz")
    resumed.iterate(2)
    assert np.array_equal(one.regret, resumed.regret) and np.array_equal(one.average, resumed.average)


def test_a_strategy_file_read_again_is_the_same_read_only_object_until_the_file_changes(tmp_path: Path) -> None:
    import os

    from showdown.agents.abstract_cfr import shipped_path

    game = get_game("holdem-limit")
    shipped = shipped_path(game, None)
    assert shipped is not None
    copy = tmp_path / "s.pcs.npz"
    copy.write_bytes(Path(shipped).read_bytes())
    first = AbstractStrategy.load(copy, game)
    assert AbstractStrategy.load(copy, game) is first and not first.probabilities.flags.writeable
    stat = copy.stat()
    os.utime(copy, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # "written again"
    again = AbstractStrategy.load(copy, game)
    assert again is not first and (again.probabilities == first.probabilities).all()

"""The compiled PCS pass equals the plain-numpy oracle (tests/solvers/pcs_oracle.py) to 1e-12."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from showdown.games.catalog import get_game
from showdown.games.gamedef import parse_gamedef
from showdown.solvers.abstraction import RankAbstraction, StrengthAbstraction, _Base
from showdown.solvers.holdings import RankedBoard, board_strength, game_holdings
from showdown.solvers.pcs import PCSSolver
from tests.solvers.pcs_oracle import oracle_pass

MINI_HOLDEM = parse_gamedef(
    """GAMEDEF
limit
numPlayers = 2
numRounds = 3
blind = 10 5
raiseSize = 10 20 20
firstPlayer = 2 1 1
maxRaises = 3 2 2
numSuits = 4
numRanks = 6
numHoleCards = 2
numBoardCards = 0 3 1
END GAMEDEF
""",
    name="mini-holdem",
)


class _ScrambledBuckets(_Base):
    """Two-card holdings in buckets by an arbitrary rule mixing hole and board (any rule must give equal results)."""

    kind = "test"

    def __init__(self, game):
        self.game = game
        self._h = game_holdings(game)
        self.num_buckets = (7, 5, 4)

    def buckets(self, board):
        h = self._h.cards
        return np.stack(
            [(h[:, 0] * 3 + h[:, 1]) % 7, (h[:, 0] + h[:, 1] + sum(board[:3])) % 5, (h[:, 0] * h[:, 1] + sum(board)) % 4]
        ).astype(np.int64)


def _with_oracle(make):
    """The solver with the numpy pass in place of the compiled one (one board's regrets floored after it, CFR+)."""
    solver = make()

    def numpy_pass(p, prepared, delta):
        board, buckets, _ = prepared
        into = np.zeros_like(solver.regret) if delta is None else delta
        oracle_pass(solver, p, buckets, RankedBoard(solver.holdings, board), into)
        if delta is None:
            np.maximum(solver.regret + into, 0.0, out=solver.regret)

    solver._pass = numpy_pass
    return solver


def _assert_close(a: np.ndarray, b: np.ndarray) -> None:
    assert np.abs(a - b).max() <= 1e-12 * max(np.abs(b).max(), 1.0)


@pytest.mark.parametrize(
    "make",
    [
        lambda: PCSSolver(get_game("leduc"), RankAbstraction(get_game("leduc")), exhaustive=True),
        lambda: PCSSolver(get_game("leduc"), StrengthAbstraction(get_game("leduc"), 3), exhaustive=True),
        lambda: PCSSolver(MINI_HOLDEM, _ScrambledBuckets(MINI_HOLDEM), seed=4),
    ],
    ids=["leduc-lossless", "leduc-lossy", "two-card-holdings"],
)
def test_compiled_pass_equals_the_numpy_oracle(make):
    fast, slow = make(), _with_oracle(make)
    for _ in range(6):
        fast.iterate(1)
        slow.iterate(1)
        _assert_close(fast.regret, slow.regret)
        _assert_close(fast.average, slow.average)
    assert np.abs(fast.regret).max() > 1.0  # something was learned


def test_ties_and_card_removal_at_showdown():
    """Boards where many holdings tie (a paired, low board in a small deck): the sweep's tie groups matter."""
    fast = PCSSolver(MINI_HOLDEM, _ScrambledBuckets(MINI_HOLDEM))
    slow = _with_oracle(lambda: PCSSolver(MINI_HOLDEM, _ScrambledBuckets(MINI_HOLDEM)))
    board = (28, 29, 32, 33, 36)  # two low pairs on board: many holdings play the board and tie
    for solver in (fast, slow):
        solver.abstraction.sample_board = lambda rng, board=board: board
        solver.iterate(3)
    _assert_close(fast.regret, slow.regret)
    _assert_close(fast.average, slow.average)
    strength = board_strength(fast.holdings, board)
    assert len(np.unique(strength[strength >= 0])) < 0.5 * (strength >= 0).sum()  # ties are common


@pytest.mark.parametrize("game_name", ["kuhn3p", "leduc3p"])
@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "linear", "dcfr"])
def test_compiled_multiplayer_cfr_equals_the_numpy_update(game_name, algorithm):
    from showdown.solvers.cfr import make_solver

    game = get_game(game_name)
    fast, slow = make_solver(game, algorithm), make_solver(game, algorithm)
    n = 30 if game_name == "kuhn3p" else 2
    fast.numpy_until = 0  # compiled from the first iteration
    fast.iterate(n)
    slow._numpy_iterations(n)  # the plain-numpy update, exact when the rule samples nothing
    _assert_close(fast.regrets, slow.regrets)
    _assert_close(fast.average_sums, slow.average_sums)
    _assert_close(fast.current_sigma(), slow.current_sigma())
    assert fast.iterations == slow.iterations == n


@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "linear", "dcfr", "simultaneous"])
def test_compiled_two_player_cfr_equals_the_numpy_update(game_name, algorithm):
    """The sequence-form kernel (sequence_kernels.sequence_cfr_iterations) against CFRSolver's numpy
    update, bit for bit, for every exact rule, alternating or not, a second call continuing the first."""
    from showdown.solvers.cfr import cfr, make_solver

    game = get_game(game_name)

    def make():
        return cfr(game, alternating=False) if algorithm == "simultaneous" else make_solver(game, algorithm)

    fast, slow = make(), make()
    for n in (1, 29):
        fast._compiled_iterations(n)
        slow._numpy_iterations(n)
        for p in (0, 1):
            assert np.array_equal(fast.regrets[p], slow.regrets[p])
            assert np.array_equal(fast.average_sums[p], slow.average_sums[p])
            assert np.array_equal(fast.current_sigma()[p], slow.current_sigma()[p])
            assert np.array_equal(fast._x[p], slow._x[p])
    assert fast.iterations == slow.iterations == 30
    assert np.abs(fast.regrets[0]).max() > 0.01  # something was learned


def test_compiled_cfr_continues_from_regrets_set_from_outside(tmp_path):
    """Numpy iterations, a checkpoint, then compiled ones (whose arrays a list entry set from outside
    replaces) end exactly as an uninterrupted compiled run: where ``iterate`` switches changes nothing."""
    from showdown.solvers.cfr import CFRSolver, make_solver

    game = get_game("leduc")
    straight, stopped = make_solver(game, "cfr+"), make_solver(game, "cfr+")
    straight._compiled_iterations(20)
    stopped._numpy_iterations(10)
    resumed, _ = CFRSolver.load(stopped.save(tmp_path / "c.npz"))
    resumed._compiled_iterations(5)
    resumed.regrets[0] = resumed.regrets[0].copy()  # a list entry replaced: picked up again
    resumed._compiled_iterations(5)
    for p in (0, 1):
        assert np.array_equal(resumed.regrets[p], straight.regrets[p])
        assert np.array_equal(resumed.average_sums[p], straight.average_sums[p])


def test_small_cfr_solves_stay_in_numpy_and_long_ones_switch_to_the_kernel():
    """Kuhn's 1,000 iterations finish in numpy without importing numba (whose import costs more than
    the whole solve); once numpy iterations have cost as much as that import, the kernel takes over."""
    import subprocess
    import sys

    code = (
        "import sys; from showdown.games.catalog import get_game; from showdown.solvers.cfr import make_solver; "
        "s = make_solver(get_game('kuhn'), 'cfr+'); s.iterate(1000); a = 'numba' in sys.modules; "
        "s._numpy_seconds = 10.0; s.iterate(1); print(a, 'numba' in sys.modules, s.iterations)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True", "1001"]


def test_small_multiplayer_solves_stay_in_numpy_and_resume_across_the_switch(tmp_path):
    """3-player Kuhn's default 1,000 iterations run in numpy without importing numba (whose import costs
    more than the whole solve); 3-player Leduc switches after a few; the switch is at an iteration count
    fixed by the game, so a run resumed from a checkpoint across it equals the straight run bit for bit."""
    import subprocess
    import sys

    from showdown.solvers.cfr import load_solver, make_solver

    code = (
        "import sys; from showdown.games.catalog import get_game; from showdown.solvers.cfr import make_solver; "
        "s = make_solver(get_game('kuhn3p'), 'cfr+'); s.iterate(1000); a = 'numba' in sys.modules; "
        "s.numpy_until = 0; s.iterate(1); print(a, 'numba' in sys.modules, s.iterations, make_solver(get_game('leduc3p'), 'cfr+').numpy_until)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[:3] == ["False", "True", "1001"] and 1 <= int(out[3]) <= 10
    game = get_game("kuhn3p")
    straight, half = make_solver(game, "cfr+"), make_solver(game, "cfr+")
    straight.numpy_until = half.numpy_until = 15
    straight.iterate(30)
    half.iterate(10)
    half.save(tmp_path / "c.npz")
    resumed, _ = load_solver(tmp_path / "c.npz", game)
    resumed.numpy_until = 15
    resumed.iterate(20)
    assert np.array_equal(resumed.regrets, straight.regrets) and np.array_equal(resumed.average_sums, straight.average_sums)


def test_numba_loads_only_where_a_solver_runs():
    """The dealer, the CLI and the hold'em cfr agent playing its blueprint (its shipped strategy loaded,
    ``search=off``) start without numba (whose import alone takes about half a second); a PCS solve
    imports it. (The searching agent loads it too, in a background thread while it connects: whether that
    thread has got there when the agent is made depends on the machine's load, so it is not asked here.)"""
    import subprocess
    import sys

    code = (
        "import sys; import showdown.cli.dealer, showdown.cli.agent, showdown.server.tcp; "
        "from showdown.agents.cfr import make_cfr; from showdown.games.catalog import get_game; "
        "make_cfr(get_game('holdem-limit'), {'search': 'off'}); print('numba' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"
    solve = "import sys; from tests.solvers.test_kernels import MINI_HOLDEM, _ScrambledBuckets; from showdown.solvers.pcs import PCSSolver; "
    solve += "PCSSolver(MINI_HOLDEM, _ScrambledBuckets(MINI_HOLDEM)).iterate(1); print('numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", solve], capture_output=True, text=True, check=True, cwd=str(Path(__file__).parents[2]))
    assert out.stdout.strip() == "True"


@pytest.mark.parametrize("game_name", ["kuhn3p", "leduc3p"])
def test_compiled_multiplayer_best_response_equals_the_numpy_one(game_name):
    """kernels.ntree_best_response / ntree_evaluation against the numpy passes, for every player, on the
    uniform profile, a CFR average, and random profiles with zero-probability actions (unreached
    information sets: every action ties at 0 and the first legal one must be chosen)."""
    import sys

    import showdown.solvers.kernels  # noqa: F401  (numba loaded: the compiled path is taken)
    from showdown.solvers.cfr import make_solver
    from showdown.solvers.multiplayer import (
        best_response,
        evaluate,
        numpy_best_response,
        numpy_evaluate,
        regret_matching,
    )

    assert "numba" in sys.modules
    solver = make_solver(get_game(game_name), "cfr+")
    solver.iterate(20 if game_name == "kuhn3p" else 2)
    tree = solver.tree
    rng = np.random.default_rng(7)
    profiles = [tree.uniform(), solver.average_sigma()]
    profiles += [regret_matching(rng.standard_normal(solver.regrets.shape), tree.legal) for _ in range(2)]
    for sigma in profiles:
        for p in tree.players:
            value, choice = best_response(tree, sigma, p)
            oracle_value, oracle_choice = numpy_best_response(tree, sigma, p)
            assert abs(value - oracle_value) <= 1e-12
            assert np.isin(choice[tree.infoset_player == p], (0.0, 1.0)).all()  # pure
            assert abs(numpy_evaluate(tree, choice).values[p] - value) <= 1e-12  # and it earns the value
            # the same actions, but for rare exact ties that the two passes may round apart (today: none)
            assert (choice == oracle_choice).all(axis=1).mean() > 0.99
        fast, slow = evaluate(tree, sigma), numpy_evaluate(tree, sigma)
        np.testing.assert_allclose(fast.values, slow.values, rtol=0, atol=1e-12)
        np.testing.assert_allclose(fast.best_response, slow.best_response, rtol=0, atol=1e-12)

"""HiGHS through highspy, through scipy's bindings and through ``linprog``: the same answers."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from showdown.solvers.equity import equity_table
from showdown.solvers.highs_lp import LinearProgram, solve_lp
from showdown.solvers.one_round import OneRoundGame, _matrices
from showdown.solvers.one_round_programs import alice_program, bob_program

OPTIONS = {"presolve": False, "primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
BINDINGS = ["highspy", "scipy"]


@pytest.mark.parametrize("route", BINDINGS)
@pytest.mark.parametrize("form", ["bob", "alice"])
@pytest.mark.parametrize("method", ["highs-ds", "highs-ipm"])
def test_the_bindings_and_linprog_agree_on_both_programs(route: str, form: str, method: str) -> None:
    game = OneRoundGame(bets=(0.0, 2.0, 6.0))
    mats = _matrices(game, equity_table())
    program = (bob_program if form == "bob" else alice_program)(mats.G, mats.p, game.sb, game.bb)
    options = {**OPTIONS, **({"ipm_optimality_tolerance": 1e-10} if method == "highs-ipm" else {})}
    direct = solve_lp(program, method, options, route=route)  # type: ignore[arg-type]
    reference = solve_lp(program, method, options, route="linprog")
    assert direct.optimal and reference.optimal
    assert direct.objective == pytest.approx(reference.objective, abs=1e-12)
    assert direct.ineq_duals.shape == reference.ineq_duals.shape == (program.n_ineq,)
    if method == "highs-ds":  # the same simplex path: the same vertex
        np.testing.assert_allclose(direct.x, reference.x, atol=1e-12)
        np.testing.assert_allclose(direct.ineq_duals, reference.ineq_duals, atol=1e-12)
        assert direct.iterations == reference.iterations > 0


@pytest.mark.parametrize("route", [*BINDINGS, "linprog"])
def test_an_infeasible_program_is_reported_not_optimal(route: str) -> None:
    # x <= -1 with 0 <= x <= 1
    program = LinearProgram(
        cost=np.ones(1),
        lower=np.zeros(1),
        upper=np.ones(1),
        indptr=np.array([0, 1]),
        indices=np.array([0]),
        data=np.ones(1),
        row_lower=np.array([-np.inf]),
        row_upper=np.array([-1.0]),
        n_ineq=1,
    )
    answer = solve_lp(program, "highs-ds", OPTIONS, route=route)  # type: ignore[arg-type]
    assert not answer.optimal and answer.message
    assert answer.x.size == 0


def test_the_one_round_solve_needs_no_scipy_optimize_with_highspy() -> None:
    # the start-up this module exists for: with highspy installed, scipy.optimize is never imported
    import subprocess

    code = (
        "import sys\n"
        "from showdown.solvers.one_round import OneRoundGame, solve_one_round\n"
        "solve_one_round(OneRoundGame(bets=(0.0, *map(float, range(2, 41)))))\n"
        "print(sorted(m for m in sys.modules if m.startswith(('scipy.optimize', 'scipy.sparse'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600)
    assert out.stdout.strip() == "[]"

"""HiGHS called directly and through ``linprog``: the same answers on the one-round programs."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp  # type: ignore[import-untyped]

from showdown.solvers.equity import equity_table
from showdown.solvers.highs_lp import solve_lp
from showdown.solvers.one_round import OneRoundGame, _alice_program, _bob_program, _matrices

OPTIONS = {"presolve": False, "primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}


@pytest.mark.parametrize("form", ["bob", "alice"])
@pytest.mark.parametrize("method", ["highs-ds", "highs-ipm"])
def test_direct_and_linprog_agree_on_both_programs(form: str, method: str) -> None:
    game = OneRoundGame(bets=(0.0, 2.0, 6.0))
    mats = _matrices(game, equity_table())
    program = _bob_program(game, mats) if form == "bob" else _alice_program(game, mats)
    options = {**OPTIONS, **({"ipm_optimality_tolerance": 1e-10} if method == "highs-ipm" else {})}
    direct = solve_lp(program, method, options)
    reference = solve_lp(program, method, options, direct=False)
    assert direct.optimal and reference.optimal
    assert direct.objective == pytest.approx(reference.objective, abs=1e-12)
    assert direct.ineq_duals.shape == reference.ineq_duals.shape == (len(program["b_ub"]),)
    if method == "highs-ds":  # the same simplex path: the same vertex
        np.testing.assert_allclose(direct.x, reference.x, atol=1e-12)
        np.testing.assert_allclose(direct.ineq_duals, reference.ineq_duals, atol=1e-12)
        assert direct.iterations == reference.iterations > 0


@pytest.mark.parametrize("direct", [True, False])
def test_an_infeasible_program_is_reported_not_optimal(direct: bool) -> None:
    # x <= -1 with x >= 0
    program = {"c": np.ones(1), "A_ub": sp.csr_matrix(np.ones((1, 1))), "b_ub": np.array([-1.0]), "bounds": np.array([[0.0, 1.0]])}
    answer = solve_lp(program, "highs-ds", OPTIONS, direct=direct)
    assert not answer.optimal and answer.message
    assert answer.x.size == 0

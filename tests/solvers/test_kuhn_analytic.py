from __future__ import annotations

import pytest

from showdown.errors import SolverError
from showdown.games.catalog import get_game
from showdown.solvers.best_response import expected_value, exploitability
from showdown.solvers.kuhn_analytic import (
    KUHN_VALUE,
    family_deviation,
    kuhn_equilibrium,
    kuhn_parameters,
)
from showdown.solvers.sequence_lp import solve_sequence_lp
from showdown.solvers.strategy import Strategy

KUHN = get_game("kuhn")


@pytest.mark.parametrize("y", [0.0, 0.1, 1 / 3, 0.5, 0.9, 1.0])
def test_every_member_of_the_family_is_an_equilibrium_worth_minus_one_eighteenth(y: float) -> None:
    # Kuhn (1950); seeds 000/004: value 17/18 - 1 = -1/18 for the first player whatever y.
    s = kuhn_equilibrium(y)
    assert abs(exploitability(KUHN, s)) <= 1e-12
    assert expected_value(KUHN, s) == pytest.approx(float(KUHN_VALUE), abs=1e-12)


def test_family_parameters_follow_the_seed_formulas() -> None:
    p = kuhn_parameters(kuhn_equilibrium(0.6))
    assert (p.y, p.x, p.z, p.a, p.b) == pytest.approx((0.6, 0.2, 1.6 / 3, 1 / 3, 1 / 3))


def test_lp_solution_lies_in_the_family() -> None:
    s = solve_sequence_lp("kuhn").strategy
    p = kuhn_parameters(s)
    assert p.x == pytest.approx(p.y / 3, abs=1e-9)
    assert p.z == pytest.approx((p.y + 1) / 3, abs=1e-9)
    assert p.a == pytest.approx(1 / 3, abs=1e-9) and p.b == pytest.approx(1 / 3, abs=1e-9)
    assert family_deviation(s) <= 1e-9


def test_leaving_the_family_is_exploitable() -> None:
    table = dict(kuhn_equilibrium(0.9).table)
    table["Qs:/"] = {"c": 1.0, "r": 0.0}  # never bluff while still value-betting the ace
    s = Strategy(KUHN, table)
    assert exploitability(KUHN, s) > 0.01
    assert family_deviation(s) == pytest.approx(0.3)


def test_y_outside_the_unit_interval_is_refused() -> None:
    with pytest.raises(SolverError):
        kuhn_equilibrium(1.5)

"""The factored sequence-form payoff: the same ``A`` as the plain one, and LPs with the same optimum."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse.linalg as sla  # type: ignore[import-untyped]

from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.solvers.best_response import exploitability
from showdown.solvers.sequence_lp import game_value, sequence_form, solve_sequence_lp
from showdown.solvers.sequence_payoff import payoff_product


def _two_card_kuhn() -> GameDef:
    """Kuhn's betting with two private cards from six: card removal needs every subset of a hand."""
    return replace(get_game("kuhn"), num_hole_cards=2, num_ranks=6, name="kuhn-2x6")


def _two_card_leduc() -> GameDef:
    """Leduc's betting with two private cards from eight and a board card: removal by hands and board."""
    return replace(get_game("leduc"), num_hole_cards=2, num_ranks=4, name="leduc-2x8")


GAMES = {"kuhn": lambda: get_game("kuhn"), "kuhn-10": lambda: get_game("kuhn-10"), "leduc": lambda: get_game("leduc"),
         "kuhn-2x6": _two_card_kuhn, "leduc-2x8": _two_card_leduc}


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("rows_player", [0, 1])
def test_running_sums_give_the_plain_payoff_matrix(name: str, rows_player: int) -> None:
    sf = sequence_form(GAMES[name]())
    fp = sf.factored(rows_player)
    plain = sf.A if rows_player == 0 else sf.A.T.tocsr()
    v = np.random.default_rng(7).random(plain.shape[1])
    n = len(v)
    running = sla.spsolve(fp.define[:, n:].tocsc(), -(fp.define[:, :n] @ v))  # the definitions solved for P
    np.testing.assert_allclose(fp.direct @ v + fp.aux @ running, plain @ v, rtol=0, atol=1e-15)


@pytest.mark.parametrize("name", list(GAMES))
def test_product_terminal_by_terminal_is_the_plain_product(name: str) -> None:
    sf = sequence_form(GAMES[name]())
    rng = np.random.default_rng(8)
    x, y = rng.random(sf.A.shape[0]), rng.random(sf.A.shape[1])
    np.testing.assert_allclose(payoff_product(sf.tree, y, 0), sf.A @ y, rtol=0, atol=1e-15)
    np.testing.assert_allclose(payoff_product(sf.tree, x, 1), sf.A.T @ x, rtol=0, atol=1e-15)


def test_a_large_deck_has_linear_nonzeros() -> None:
    sf = sequence_form(get_game("kuhn-100"))
    assert sf.plain_nonzeros == 5 * 100 * 99  # five terminals, every deal of two different cards
    assert sf.factored(0).nnz < 25 * 100  # a few per card and terminal


@pytest.mark.parametrize("name", ["kuhn", "kuhn-10", "leduc", "kuhn-2x6"])
def test_factored_and_plain_lps_have_the_same_value_and_exact_equilibria(name: str) -> None:
    game = GAMES[name]()
    plain = solve_sequence_lp(game, form="plain")
    factored = solve_sequence_lp(game, form="factored")
    assert factored.value == pytest.approx(plain.value, abs=1e-9)
    for sol in (plain, factored):
        assert abs(exploitability(game, sol.strategy)) <= 1e-9
    sf = sequence_form(game)  # the plans and duals keep their meaning in the factored LP
    np.testing.assert_allclose(sf.E @ factored.x, sf.e, atol=1e-9)
    np.testing.assert_allclose(sf.F @ factored.y, sf.f, atol=1e-9)
    assert sf.f @ factored.q == pytest.approx(factored.value, abs=1e-9)


def test_a_failure_on_the_running_sums_falls_back_to_the_plain_lp(monkeypatch: pytest.MonkeyPatch) -> None:
    from showdown.errors import SolverError
    from showdown.solvers import sequence_lp

    real = sequence_lp._plans
    forms = []

    def plans(sf: object, refine: bool, form: str) -> object:
        forms.append(form)
        if form == "auto":
            raise SolverError("sequence-form LP (equilibrium) failed: HiGHS status 4")
        return real(sf, refine, form)  # type: ignore[arg-type]

    monkeypatch.setattr(sequence_lp, "_plans", plans)
    assert solve_sequence_lp("kuhn-10").value == pytest.approx(-11 / 180, abs=1e-9)
    assert forms == ["auto", "plain"]


def test_a_form_asked_for_is_not_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    from showdown.errors import SolverError
    from showdown.solvers import sequence_lp

    def plans(sf: object, refine: bool, form: str) -> object:
        raise SolverError(f"sequence-form LP ({form}) failed")

    monkeypatch.setattr(sequence_lp, "_plans", plans)
    with pytest.raises(SolverError, match="factored"):
        solve_sequence_lp("kuhn-10", form="factored")


def test_an_unknown_payoff_form_is_refused() -> None:
    from showdown.errors import SolverError

    with pytest.raises(SolverError, match="payoff form"):
        game_value("kuhn", form="dense")  # type: ignore[arg-type]


KUHN_1000_PLAIN_VALUE = -0.05566616616616832
"""kuhn-1000's value by the plain LP (``game_value("kuhn-1000", form="plain")``, measured once: the whole
solve took 39-49 s and 1.1 GB that way); -111221/1998000, the fraction that fits kuhn-3 .. kuhn-1000, agrees."""


@pytest.mark.slow
def test_kuhn_1000_is_solved_exactly_in_little_memory() -> None:
    script = (  # a fresh process: its peak RSS is the whole solve's (Linux: KiB)
        "import resource\n"
        "from showdown.solvers.sequence_lp import solve_sequence_lp\n"
        "from showdown.solvers.best_response import exploitability\n"
        "sol = solve_sequence_lp('kuhn-1000')\n"
        "print(repr(sol.value), repr(exploitability(sol.game, sol.strategy)), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=600)
    value, exploit, peak_kib = map(float, out.stdout.split())
    assert value == pytest.approx(KUHN_1000_PLAIN_VALUE, abs=1e-9)
    assert value == pytest.approx(float(Fraction(-111221, 1998000)), abs=1e-9)
    assert abs(exploit) <= 1e-9
    assert peak_kib < 300 * 1024, f"peak RSS {peak_kib / 1024:.0f} MiB (was 1.1 GB with the plain LP)"

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from showdown.games.catalog import get_game
from showdown.solvers.best_response import exploitability
from showdown.solvers.sequence_lp import (
    SequenceLPSolution,
    behavioural_strategy,
    kuhn_seed_sequence_form,
    realization_plan,
    sequence_form,
    solve_sequence_lp,
)
from showdown.solvers.strategy import strategy_to_arrays
from showdown.solvers.tree import build_tree

# Seed 004 ("Solving Poker - Toy Poker Games", AIPT section 3.2): the sequence form of Kuhn poker.
SEED_E = np.array(
    [
        [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [-1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, -1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
        [-1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, -1, 1, 1, 0, 0, 0, 0],
        [-1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, 1, 1],
    ]
)
SEED_F = np.array(
    [
        [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [-1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [-1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
        [-1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0],
        [-1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0],
        [-1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0],
        [-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1],
    ]
)
SEED_A_TIMES_6 = np.array(
    [
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 2, 1, 0, 0, 2, 1, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1],
        [0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0],
        [0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, -1, 0],
        [0, -2, 1, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0],
        [0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, -2, 0, 0, 0, 0, 0, 0, 0, 2, 0],
        [0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, -1, 0],
        [0, -2, 1, 0, 0, -2, 1, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0],
        [0, 0, 0, -2, 0, 0, 0, -2, 0, 0, 0, 0, 0],
        [0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0],
    ]
)


@pytest.fixture(scope="module")
def leduc() -> SequenceLPSolution:
    return solve_sequence_lp("leduc")


def test_kuhn_sequence_form_equals_the_seed_matrices() -> None:
    sf = kuhn_seed_sequence_form()
    assert sf.p0_sequences[:5] == ("0", "A_b", "A_p", "A_pb", "A_pp")
    assert sf.p1_sequences[:5] == ("0", "A_b(ab)", "A_p(ab)", "A_b(ap)", "A_p(ap)")
    np.testing.assert_array_equal(sf.E, SEED_E)
    np.testing.assert_array_equal(sf.F, SEED_F)
    np.testing.assert_array_equal(sf.e, [1, 0, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(sf.f, [1, 0, 0, 0, 0, 0, 0])
    np.testing.assert_allclose(sf.A, SEED_A_TIMES_6 / 6, atol=1e-15)  # chance 1/6 per deal included


def test_kuhn_value_is_minus_one_eighteenth() -> None:
    # Kuhn (1950); seed 004's LP output p(1) = -0.0556.
    sol = solve_sequence_lp("kuhn")
    assert sol.value == pytest.approx(-1 / 18, abs=1e-9)
    assert sol.p[0] == pytest.approx(sol.value, abs=1e-12)


def test_duals_are_the_other_players_plan_and_values() -> None:
    sol = solve_sequence_lp("leduc", refine=False)
    sf = sequence_form(get_game("leduc"))
    np.testing.assert_allclose(sf.E @ sol.x, sf.e, atol=1e-9)
    np.testing.assert_allclose(sf.F @ sol.y, sf.f, atol=1e-9)
    assert sol.x.min() >= -1e-12 and sol.y.min() >= -1e-12
    assert sol.x @ sf.A @ sol.y == pytest.approx(sol.value, abs=1e-9)
    assert sf.f @ sol.q == pytest.approx(sol.value, abs=1e-9)
    assert (sf.A @ sol.y - sf.E.T @ sol.p).max() <= 1e-9


def test_n_card_kuhn_with_three_cards_is_kuhn() -> None:
    assert solve_sequence_lp("kuhn-3").value == pytest.approx(-1 / 18, abs=1e-9)


@pytest.mark.parametrize(
    ("name", "value"),
    # Not in the seeds: computed by this LP and confirmed by exploitability 0 (an independent best response).
    [("kuhn-10", Fraction(-11, 180)), ("kuhn-100", Fraction(-5605, 99000))],
)
def test_n_card_kuhn_values(name: str, value: Fraction) -> None:
    sol = solve_sequence_lp(name)
    assert sol.value == pytest.approx(float(value), abs=1e-9)
    assert abs(exploitability(sol.game, sol.strategy)) < 1e-9


def test_leduc_value_matches_the_published_figure(leduc: SequenceLPSolution) -> None:
    # Published value of Leduc hold'em for the first player: -0.085606... (e.g. the ACPC/Alberta
    # literature and OpenSpiel's sequence-form solution).
    sol = leduc
    assert sol.value == pytest.approx(-0.085606, abs=1e-6)
    assert abs(exploitability(sol.game, sol.strategy)) < 1e-9


@pytest.mark.parametrize("name", ["kuhn", "kuhn-10", "kuhn-100"])
def test_refined_kuhn_strategy_never_folds_the_best_card_or_calls_with_the_worst(name: str) -> None:
    sol = solve_sequence_lp(name)
    tree = build_tree(sol.game)
    best, worst = tree.hand_text[-1], tree.hand_text[0]
    facing_bet = [k for k in tree.infoset_keys() if k.endswith("r")]
    assert len(facing_bet) == 2 * len(tree.hands)
    for key in facing_bet:
        hand = key.split(":")[0]
        if hand == best:
            assert sol.strategy[key]["c"] == 1.0, key
        if hand == worst:
            assert sol.strategy[key]["c"] == 0.0, key


def test_every_information_set_gets_a_distribution(leduc: SequenceLPSolution) -> None:
    sol = leduc
    tree = build_tree(sol.game)
    assert set(sol.strategy.table) == set(tree.infoset_keys())
    for probs in sol.strategy.table.values():
        assert sum(probs.values()) == pytest.approx(1.0, abs=1e-12)
        assert min(probs.values()) >= 0.0


def test_refined_leduc_never_folds_a_pair_on_the_river(leduc: SequenceLPSolution) -> None:
    # A pair with the board card cannot lose in Leduc (only two cards of each rank).
    sol = leduc
    for key, probs in sol.strategy.table.items():
        hole, rest = key.split(":")
        board = rest.split("/")[0]
        if board and hole[0] == board[0] and "f" in probs:
            assert probs["f"] == 0.0, key


def test_realization_plan_of_the_solution_satisfies_the_constraints(leduc: SequenceLPSolution) -> None:
    sol = leduc
    sf = sequence_form(get_game("leduc"))
    arrays = strategy_to_arrays(sf.tree, sol.strategy)
    x = realization_plan(sf.tree, 0, arrays)
    y = realization_plan(sf.tree, 1, arrays)
    np.testing.assert_allclose(sf.E @ x, sf.e, atol=1e-12)
    np.testing.assert_allclose(sf.F @ y, sf.f, atol=1e-12)
    assert x @ sf.A @ y == pytest.approx(sol.value, abs=1e-9)


def test_behaviour_of_a_plan_round_trips_where_reached(leduc: SequenceLPSolution) -> None:
    tree = build_tree(leduc.game)
    x = realization_plan(tree, 0, leduc.arrays)
    arrays, undefined = behavioural_strategy(tree, 0, x)
    for d in range(tree.num_decision_nodes):
        if tree.decision(d).player != 0:
            assert not undefined[d].any()
            continue
        bs, hs = tree.cells[d]
        reached = ~undefined[d][bs, hs]
        np.testing.assert_allclose(arrays[d][bs, hs][reached], leduc.arrays[d][bs, hs][reached], atol=1e-12)
    assert any(u.any() for u in undefined)  # the equilibrium leaves some of its own branches unplayed


def test_solve_sequence_lp_of_no_game_says_what_it_takes() -> None:
    from showdown.errors import GameDefError

    with pytest.raises(GameDefError, match=r"^solve_sequence_lp: expected a game"):  # was: 'int' object has no attribute 'name'
        solve_sequence_lp(5)  # type: ignore[arg-type]

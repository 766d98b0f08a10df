"""N-player exact evaluation and CFR: against the heads-up evaluator, the rules' payoffs, the published
3-player Kuhn equilibrium family, and falling NashConv for every variant."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from showdown.errors import SolverError
from showdown.games.catalog import get_game
from showdown.games.state import State
from showdown.solvers import best_response as heads_up
from showdown.solvers.cfr import RULES, load_solver, make_solver
from showdown.solvers.kuhn3p_family import family_values, kuhn3p_equilibrium
from showdown.solvers.multiplayer import MultiCFRSolver, NTree, best_response, build_ntree, evaluate, expected_values
from showdown.solvers.strategy import ntree_sigma, uniform_strategy
from showdown.solvers.training import train


@pytest.fixture(scope="module")
def kuhn3p() -> NTree:
    return build_ntree(get_game("kuhn3p"))


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_two_player_values_match_the_heads_up_evaluator(name: str) -> None:
    game = get_game(name)
    tree = NTree(game)
    solver = make_solver(game, "cfr+")
    solver.iterate(30)
    for strategy in (solver.average_strategy(), uniform_strategy(game)):
        sigma = ntree_sigma(tree, strategy)
        ev = evaluate(tree, sigma)
        assert ev.values[0] == pytest.approx(heads_up.expected_value(game, strategy), abs=1e-12)
        assert ev.best_response == pytest.approx(heads_up.best_response_values(game, strategy), abs=1e-12)
        assert ev.nash_conv == pytest.approx(heads_up.nash_conv(game, strategy), abs=1e-12)


@pytest.mark.parametrize("name", ["kuhn3p", "leduc3p"])
def test_terminal_payoffs_are_the_rules_payoffs(name: str) -> None:
    game = get_game(name)
    tree = build_ntree(game)
    rng = np.random.default_rng(3)
    for t in rng.choice(len(tree.terminals), size=min(60, len(tree.terminals)), replace=False).tolist():
        node = int(tree.terminals[t])
        for x in rng.choice(tree.num_deals, size=8, replace=False).tolist():
            hole = [tree.hands[h] for h in tree.hand_of[x].tolist()]
            state = State.initial(game).apply_betting(tree.betting[node])
            state = state.with_cards(hole, tuple(int(c) for c in tree.board_cards[x]))
            assert tuple(tree.payoff[:, t, x]) == pytest.approx(state.payoffs())


def test_leduc3p_is_openspiel_leduc_for_three() -> None:
    game = get_game("leduc3p")
    assert (game.num_players, game.num_ranks, game.num_suits) == (3, 4, 2)
    assert (game.raise_size, game.max_raises, game.num_board_cards) == ((2, 4), (2, 2), (0, 1))
    assert build_ntree(game).num_deals == 8 * 7 * 6 * 5


FAMILY = [
    {},
    {"c11": 0.0, "b11": 0.1, "b21": 0.2, "b32": 0.3, "c33": 0.4, "c34": 0.7},
    {"c11": 0.0, "b11": 0.0, "b21": 0.25, "b32": 0.5, "c33": 0.2, "c34": 0.5},
    {"c11": 0.25, "b11": 0.2, "b21": 0.2, "b32": 0.6, "c33": 0.2, "c34": 0.2},
    {"c11": 0.4, "b11": 0.1, "b21": 0.1, "b32": 0.1, "c33": 0.5, "c34": 1.0},
    {"c11": 0.5, "b11": 0.2, "b21": 0.1, "b23": 0.05, "b32": 0.6, "c33": 0.1, "c34": 1.0},
    {"c11": 0.5, "b11": 0.25, "b21": 0.0, "b23": 0.125, "b32": 0.0, "c33": 0.6, "c34": 0.3},
]


@pytest.mark.parametrize("params", FAMILY, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "zero")
def test_the_published_family_is_an_equilibrium(kuhn3p: NTree, params: dict[str, float]) -> None:
    """Szafron, Gibson and Sturtevant (2013): every member is a Nash equilibrium (NashConv 0) with the
    paper's values: P1 -(1 + 2 beta)/48, P2 -1/48, P3 (1 + beta)/24, beta = max(b11, b21), so the
    members move chips between P1 and P3 while P2's value stays put."""
    sigma = ntree_sigma(kuhn3p, kuhn3p_equilibrium(**params))
    ev = evaluate(kuhn3p, sigma)
    beta = max(params.get("b11", 0.0), params.get("b21", 0.0))
    assert ev.nash_conv < 1e-12
    assert ev.values[0] == pytest.approx(-(1 + 2 * beta) / 48, abs=1e-12)
    assert ev.values[1] == pytest.approx(float(Fraction(-1, 48)), abs=1e-12)
    assert ev.values[2] == pytest.approx((1 + beta) / 24, abs=1e-12)
    assert ev.values == pytest.approx(family_values(params.get("b11", 0.0), params.get("b21", 0.0)), abs=1e-12)
    assert sum(ev.values) == pytest.approx(0.0, abs=1e-12)


def test_leaving_the_family_is_exploitable(kuhn3p: NTree) -> None:
    strategy = kuhn3p_equilibrium()
    table = {k: dict(v) for k, v in strategy.table.items()}
    table["Ks:/"] = {"c": 0.5, "r": 0.5}  # P1 bets a king half the time
    sigma = ntree_sigma(kuhn3p, type(strategy)(strategy.game, table))
    ev = evaluate(kuhn3p, sigma)
    assert ev.gains[0] > 1e-3 and ev.nash_conv > 1e-3
    with pytest.raises(SolverError, match="b32"):
        kuhn3p_equilibrium(b11=0.0, b21=0.0, b32=0.9)


def test_best_response_strategy_achieves_its_value(kuhn3p: NTree) -> None:
    sigma = kuhn3p.uniform()
    for p in kuhn3p.players:
        value, response = best_response(kuhn3p, sigma, p)
        assert expected_values(kuhn3p, response)[p] == pytest.approx(value, abs=1e-12)
        assert value > expected_values(kuhn3p, sigma)[p]


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "linear", "dcfr"])
def test_every_variant_drives_kuhn3p_nash_conv_down(kuhn3p: NTree, algorithm: str) -> None:
    solver = make_solver(get_game("kuhn3p"), algorithm)
    assert isinstance(solver, MultiCFRSolver)
    start = solver.exploitability()
    solver.iterate(100)
    mid = solver.exploitability()
    solver.iterate(900)
    end = solver.exploitability()
    assert start > 0.1 and mid < start / 5 and end < mid
    assert end < (5e-3 if algorithm == "cfr" else 1e-3)


def test_cfr_plus_reaches_1e3_and_p2_gets_the_game_value() -> None:
    solver = make_solver(get_game("kuhn3p"), "cfr+")
    result = train(solver, target=1e-3, iterations=2000)
    assert result.stopped_by == "target" and result.exploitability <= 1e-3
    assert isinstance(solver, MultiCFRSolver)
    assert solver.average_values()[1] == pytest.approx(-1 / 48, abs=2e-3)


def test_external_sampling_learns(kuhn3p: NTree) -> None:
    solver = make_solver(get_game("kuhn3p"), "es", seed=4)
    start = solver.exploitability()
    solver.iterate(1500)
    assert solver.exploitability() < min(0.04, start / 10)


def test_leduc3p_nash_conv_falls() -> None:
    solver = make_solver(get_game("leduc3p"), "cfr+")
    start = solver.exploitability()
    solver.iterate(20)
    assert solver.exploitability() < start / 4


def test_checkpoint_resumes_bit_for_bit(tmp_path) -> None:  # type: ignore[no-untyped-def]
    game = get_game("kuhn3p")
    straight = make_solver(game, "es", seed=9)
    straight.iterate(40)
    half = make_solver(game, "es", seed=9)
    half.iterate(20)
    half.save(tmp_path / "c.npz", {"note": 1})
    resumed, extra = load_solver(tmp_path / "c.npz", game)
    assert extra == {"note": 1}
    resumed.iterate(20)
    assert isinstance(resumed, MultiCFRSolver) and isinstance(straight, MultiCFRSolver)
    assert np.array_equal(resumed.average_sums, straight.average_sums)
    assert np.array_equal(resumed.regrets, straight.regrets)
    with pytest.raises(SolverError, match="for game kuhn3p, not leduc3p"):
        load_solver(tmp_path / "c.npz", get_game("leduc3p"))


def test_refuses_what_it_cannot_solve() -> None:
    with pytest.raises(SolverError, match="limit games only"):
        NTree(get_game("holdem-nolimit-3p"))
    with pytest.raises(SolverError, match="too large"):
        NTree(get_game("holdem-limit-3p"))
    with pytest.raises(SolverError, match="heads-up only"):
        MultiCFRSolver(get_game("kuhn3p"), RULES["cs"])


def test_keys_are_the_agents_keys(kuhn3p: NTree) -> None:
    """Every key is what ``infoset_key`` gives the acting player at that point of a real hand."""
    from showdown.solvers.strategy import state_infoset_key

    game = get_game("leduc3p")
    tree = build_ntree(game)
    deck = list(itertools.islice(iter(tree.deck), None))
    rng = np.random.default_rng(0)
    for _ in range(200):
        cards = rng.permutation(deck)[:4].tolist()
        state = State.initial(game).with_cards([[cards[0]], [cards[1]], [cards[2]]], [cards[3]])
        while not state.is_terminal:
            key = state_infoset_key(state)
            assert key in tree.key_index and tree.player_of(key) == state.current_player
            actions = state.legal_actions()
            assert tuple(str(a) for a in actions) == tree.legal_actions(key)
            state = state.apply(actions[int(rng.integers(len(actions)))])

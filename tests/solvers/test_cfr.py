"""CFR variants: convergence against the sequence-form LP and exact best responses, an independent
history-by-history reference, the Monte Carlo estimators, training budgets and checkpoints."""

from __future__ import annotations

import itertools
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from showdown.errors import SolverError
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import State
from showdown.solvers.best_response import expected_value, exploitability
from showdown.solvers.cfr import (
    ALGORITHMS,
    RULES,
    CFRSolver,
    Rule,
    cfr,
    cfr_plus,
    chance_sampling_cfr,
    discounted_cfr,
    external_sampling_cfr,
    linear_cfr,
    make_solver,
)
from showdown.solvers.cfr_core import FlatTree, flat_tree
from showdown.solvers.sequence_lp import solve_sequence_lp
from showdown.solvers.strategy import state_infoset_key, strategy_to_arrays, validate_strategy
from showdown.solvers.training import train
from showdown.solvers.tree import build_tree


@pytest.fixture(scope="module")
def lp_values() -> dict[str, float]:
    return {name: solve_sequence_lp(get_game(name)).value for name in ("kuhn", "leduc")}


# ---------------------------------------------------------------------- convergence (LP and best response)


@pytest.mark.parametrize(
    ("game_name", "algorithm"),
    [
        ("kuhn", "cfr+"),
        ("kuhn", "linear"),
        ("kuhn", "dcfr"),
        ("leduc", "cfr+"),
        ("leduc", "dcfr"),
        # Linear CFR needs about 10,000 iterations on Leduc (3-4 s, then as many again): slow run;
        # test_linear_cfr_on_leduc_makes_steady_progress is the quick check.
        pytest.param("leduc", "linear", marks=pytest.mark.slow),
    ],
)
def test_exploitability_falls_below_1e3_and_keeps_falling(
    game_name: str, algorithm: str, lp_values: dict[str, float]
) -> None:
    game = get_game(game_name)
    solver = make_solver(game, algorithm)
    result = train(solver, target=1e-3, iterations=30_000)
    assert result.stopped_by == "target"
    at_target = exploitability(game, solver.average_strategy())  # the reference best response
    assert at_target <= 1e-3
    assert solver.exploitability() == pytest.approx(at_target, abs=1e-12)
    solver.iterate(solver.iterations)  # twice the iterations
    later = exploitability(game, solver.average_strategy())
    assert later < at_target
    # |u(sigma) - v| <= BR_0 + BR_1 = 2 * exploitability for any profile sigma.
    value = expected_value(game, solver.average_strategy())
    assert abs(value - lp_values[game_name]) <= 2 * later + 1e-12


def test_linear_cfr_on_leduc_makes_steady_progress(lp_values: dict[str, float]) -> None:
    game = get_game("leduc")
    solver = linear_cfr(game, 500)
    e500 = solver.exploitability()
    solver.iterate(500)
    e1000 = exploitability(game, solver.average_strategy())
    assert e1000 < 0.8 * e500 and e1000 < 1e-2
    assert abs(solver.average_value() - lp_values["leduc"]) <= 2 * e1000


def test_kuhn_value_is_minus_one_eighteenth_and_cfr_plus_gets_close_fast() -> None:
    # Kuhn (1950): the first player loses 1/18 per hand at equilibrium.
    solver = cfr_plus(get_game("kuhn"), 1000)
    assert solver.exploitability() < 3e-4
    assert solver.average_value() == pytest.approx(-1 / 18, abs=1e-3)


def test_vanilla_cfr_converges_more_slowly_but_converges() -> None:
    game = get_game("kuhn")
    solver = cfr(game)
    values = []
    for n in (10, 100, 1000):
        solver.iterate(n - solver.iterations)
        values.append(solver.exploitability())
    assert values[0] > values[1] > values[2]
    assert values[2] < 1e-2
    simultaneous = cfr(game, 1000, alternating=False)
    assert simultaneous.exploitability() < 5e-2


def test_cfr_plus_on_100_card_kuhn_reaches_1e3() -> None:
    game = get_game("kuhn-100")
    result = train(cfr_plus(game), target=1e-3, iterations=5000)
    assert result.stopped_by == "target"
    assert exploitability(game, result.strategy) <= 1e-3


def test_three_card_kuhn_is_kuhn() -> None:
    a = cfr_plus(get_game("kuhn-3"), 200).average_strategy()
    b = cfr_plus(get_game("kuhn"), 200).average_strategy()
    assert a.table == b.table


def test_the_average_strategy_is_a_valid_profile_in_the_shared_format() -> None:
    game = get_game("leduc")
    strategy = cfr_plus(game, 50).average_strategy()
    validate_strategy(strategy)
    assert set(strategy.table) == set(build_tree(game).infoset_keys())


def test_holdem_is_refused_in_one_line() -> None:
    with pytest.raises(SolverError) as err:
        make_solver(get_game("holdem-limit"), "cfr+")
    assert "cannot run CFR on holdem-limit" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(SolverError, match="3 players"):
        cfr(get_game("kuhn3p"))


def test_unknown_algorithm_names_the_choices() -> None:
    with pytest.raises(SolverError, match="cfr, cfr\\+, linear, dcfr, cs, es"):
        make_solver(get_game("kuhn"), "cfr++")


def test_every_algorithm_function_cites_its_paper() -> None:
    papers = {"cfr": "Zinkevich", "cfr+": "Tammelin", "linear": "Brown", "dcfr": "Brown", "cs": "Lanctot", "es": "Lanctot"}
    for name, fn in ALGORITHMS.items():
        assert papers[name] in (fn.__doc__ or ""), name


# ---------------------------------------------------------------------- the vectorised passes


@pytest.mark.parametrize("game_name", ["kuhn", "kuhn-10", "leduc"])
def test_flat_exploitability_equals_the_best_response_module(game_name: str) -> None:
    game = get_game(game_name)
    tree = build_tree(game)
    flat = flat_tree(tree)
    rng = np.random.default_rng(5)
    sigma = tuple(lay.normalize(rng.random(lay.num_sequences) ** 3) for lay in flat.players)
    profile = flat.to_profile(sigma)  # type: ignore[arg-type]
    assert flat.exploitability(sigma) == pytest.approx(exploitability(tree, profile), abs=1e-12)  # type: ignore[arg-type]
    assert flat.expected_value(sigma) == pytest.approx(expected_value(tree, profile), abs=1e-12)  # type: ignore[arg-type]
    back = flat.from_profile(profile)
    for a, b in zip(back, sigma):
        np.testing.assert_allclose(a, b, atol=1e-15)


@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
def test_payoff_matrix_and_grouped_products_agree(game_name: str) -> None:
    flat = FlatTree(build_tree(get_game(game_name)))
    rng = np.random.default_rng(1)
    xs = [lay.realization(lay.normalize(rng.random(lay.num_sequences))) for lay in flat.players]
    ratio = rng.random(flat.num_cells)
    for p in (0, 1):
        matrix = [flat.terminal_values(p, xs[1 - p]), flat.terminal_values(p, xs[1 - p], ratio)]
        payoff, flat.payoff = flat.payoff, None
        grouped = [flat.terminal_values(p, xs[1 - p]), flat.terminal_values(p, xs[1 - p], ratio)]
        flat.payoff = payoff
        for a, b in zip(matrix, grouped):
            np.testing.assert_allclose(a, b, atol=1e-14)


# ---------------------------------------------------------------------- an independent reference


def _deals(game: GameDef) -> list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...], float]]:
    deck = build_tree(game).deck
    perms = list(itertools.permutations(deck, 2 + game.total_board_cards))
    return [(((d[0],), (d[1],)), d[2:], 1.0 / len(perms)) for d in perms]


def _reference_cfr(
    game: GameDef, rule: Rule, iterations: int, initial: dict[str, dict[str, float]] | None = None
) -> dict[str, dict[str, float]]:
    """CFR one history at a time, every deal enumerated: the textbook algorithm with ``rule``'s updates."""
    deals = _deals(game)
    regrets: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for key, row in (initial or {}).items():
        regrets[key].update(row)
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))

    def current(key: str, actions: list[str]) -> dict[str, float]:
        pos = {a: max(regrets[key][a], 0.0) for a in actions}
        total = sum(pos.values())
        return {a: (pos[a] / total if total > 0 else 1.0 / len(actions)) for a in actions}

    def walk(state: State, p: int, own: float, other: float, inst: dict, contrib: dict, frozen: dict) -> float:
        if state.is_terminal:
            return state.payoffs()[p] * other
        key = state_infoset_key(state)
        actions = [str(a) for a in state.legal_actions()]
        sigma = frozen.setdefault(key, current(key, actions))
        if state.current_player == p:
            values = {a: walk(state.apply(a2), p, own * sigma[a], other, inst, contrib, frozen) for a, a2 in zip(actions, state.legal_actions())}
            v = sum(sigma[a] * values[a] for a in actions)
            for a in actions:
                inst[key][a] += values[a] - v
                contrib[key][a] += own * sigma[a]
            return v
        return sum(walk(state.apply(a2), p, own, other * sigma[a], inst, contrib, frozen) for a, a2 in zip(actions, state.legal_actions()))

    def apply(t: int, inst: dict, contrib: dict) -> None:
        for key, row in inst.items():
            for a, r in row.items():
                regrets[key][a] += r
                if rule.alpha is not None and rule.beta is not None:
                    x = regrets[key][a]
                    e = rule.alpha if x > 0 else rule.beta
                    regrets[key][a] = x * t**e / (t**e + 1)
                if rule.plus:
                    regrets[key][a] = max(regrets[key][a], 0.0)
        for key, row in contrib.items():
            for a, c in row.items():
                sums[key][a] = (sums[key][a] + c) * ((t / (t + 1)) ** rule.gamma if rule.gamma is not None else 1.0)

    for t in range(1, iterations + 1):
        if rule.alternating:
            for p in (0, 1):
                inst: dict = defaultdict(lambda: defaultdict(float))
                contrib: dict = defaultdict(lambda: defaultdict(float))
                frozen: dict = {}
                for hole, board, w in deals:
                    walk(State.initial(game, hole, board), p, 1.0, w, inst, contrib, frozen)
                apply(t, inst, contrib)
        else:
            frozen = {}
            per = []
            for p in (0, 1):
                inst = defaultdict(lambda: defaultdict(float))
                contrib = defaultdict(lambda: defaultdict(float))
                for hole, board, w in deals:
                    walk(State.initial(game, hole, board), p, 1.0, w, inst, contrib, frozen)
                per.append((inst, contrib))
            for inst, contrib in per:
                apply(t, inst, contrib)
    out = {}
    for key, row in sums.items():
        total = sum(row.values())
        out[key] = {a: (c / total if total > 0 else 1.0 / len(row)) for a, c in row.items()}
    return out


@pytest.mark.parametrize(
    "rule",
    [RULES["cfr"], Rule("cfr", alternating=False), RULES["cfr+"], RULES["linear"], RULES["dcfr"]],
    ids=lambda r: f"{r.name}-{'alt' if r.alternating else 'sim'}",
)
def test_vectorised_cfr_equals_the_history_by_history_reference(rule: Rule) -> None:
    game = get_game("kuhn")
    solver = CFRSolver(game, rule)
    # Start both from the same generic regrets: from zero, Kuhn has exact indifferences where rounding
    # noise of order 1e-17 decides regret matching+'s choice, and the two orders of summation differ.
    rng = np.random.default_rng(0)
    initial: dict[str, dict[str, float]] = {}
    for p, lay in enumerate(solver.flat.players):
        solver.regrets[p] = rng.random(lay.num_sequences)
        for d, seqs in lay.node_sequences.items():
            actions = solver.tree.decision(d).actions
            for key, row in zip(solver.tree.keys_by_node[d], seqs):
                initial[key] = dict(zip(actions, solver.regrets[p][row].tolist()))
    solver._refresh()
    solver.iterate(30)
    reference = _reference_cfr(game, rule, 30, initial)
    ours = solver.average_strategy().table
    assert set(ours) == set(reference)
    for key, row in reference.items():
        for a, p in row.items():
            assert ours[key][a] == pytest.approx(p, abs=1e-12), (key, a)


# ---------------------------------------------------------------------- Monte Carlo


@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
def test_sampling_every_deal_once_gives_the_exact_values(game_name: str) -> None:
    flat = flat_tree(build_tree(get_game(game_name)))
    rng = np.random.default_rng(2)
    xs = [lay.realization(lay.normalize(rng.random(lay.num_sequences))) for lay in flat.players]
    ratio = flat.chance_ratio(flat.deals)
    np.testing.assert_allclose(ratio[ratio > 0], 1.0)
    for p in (0, 1):
        np.testing.assert_allclose(flat.terminal_values(p, xs[1 - p], ratio), flat.terminal_values(p, xs[1 - p]), atol=1e-15)


def test_sampled_values_are_unbiased() -> None:
    flat = flat_tree(build_tree(get_game("leduc")))
    rng = np.random.default_rng(3)
    xs = [lay.realization(lay.normalize(rng.random(lay.num_sequences))) for lay in flat.players]
    for p in (0, 1):
        exact = flat.terminal_values(p, xs[1 - p])
        draws = np.array([flat.terminal_values(p, xs[1 - p], flat.chance_ratio(flat.sample_deals(rng, 16))) for _ in range(500)])
        error = np.abs(draws.mean(axis=0) - exact)
        assert (error <= 5 * draws.std(axis=0) / np.sqrt(len(draws)) + 1e-12).all()


def test_external_sampling_draws_pure_strategies_with_the_current_probabilities() -> None:
    solver = external_sampling_cfr(get_game("leduc"), 3, batch=1)
    draws = np.array([solver._sample_pure(1) for _ in range(2000)])
    assert set(np.unique(draws)) == {0.0, 1.0}
    assert (draws[:, 0] == 1.0).all() and (draws[:, -1] == 0.0).all()
    error = np.abs(draws.mean(axis=0) - solver._x[1])
    assert (error <= 5 * draws.std(axis=0) / np.sqrt(len(draws)) + 1e-12).all()
    batched = external_sampling_cfr(get_game("leduc"), 3, batch=64)
    means = np.array([batched._sample_pure(1) for _ in range(200)])  # 200 means of 64 stratified draws
    error = np.abs(means.mean(axis=0) - batched._x[1])
    assert (error <= 5 * means.std(axis=0) / np.sqrt(len(means)) + 1e-3).all()  # 1e-3: actions too rare to draw
    x = batched._x[1]
    independent = np.sqrt(x * (1 - x) / 64)  # the standard deviation of a mean of 64 independent draws
    assert (means.std(axis=0) <= 1.5 * independent + 1e-12).all()


@pytest.mark.parametrize(("algorithm", "bound"), [("cs", 0.1), ("es", 0.2)])
def test_monte_carlo_variants_make_quick_progress(algorithm: str, bound: float) -> None:
    # The quick check; test_monte_carlo_variants_reach_1e2_on_leduc (slow) goes to 1e-2.
    game = get_game("leduc")
    solver = make_solver(game, algorithm, seed=7)
    start = solver.exploitability()
    result = train(solver, iterations=1000)
    assert exploitability(game, result.strategy) < bound < start


def test_linear_cfr_is_discounted_cfr_with_ones() -> None:
    a = linear_cfr(get_game("kuhn"), 40).average_strategy()
    b = discounted_cfr(get_game("kuhn"), 40, alpha=1.0, beta=1.0, gamma=1.0).average_strategy()
    assert a.table == b.table


def test_monte_carlo_runs_are_reproducible_from_the_seed() -> None:
    a = chance_sampling_cfr(get_game("kuhn"), 50, seed=4).average_strategy()
    b = chance_sampling_cfr(get_game("kuhn"), 50, seed=4).average_strategy()
    c = chance_sampling_cfr(get_game("kuhn"), 50, seed=5).average_strategy()
    assert a.table == b.table != c.table


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["cs", "es"])
def test_monte_carlo_variants_reach_1e2_on_leduc(algorithm: str) -> None:
    # Measured on 2 shared cores at the default batches: cs 8-12 s, es 130-200 s.
    game = get_game("leduc")
    result = train(make_solver(game, algorithm, seed=1), target=1e-2, seconds=600)
    assert result.stopped_by == "target"
    assert exploitability(game, result.strategy) <= 1e-2


# ---------------------------------------------------------------------- budgets and checkpoints


def test_train_stops_at_the_first_budget_and_records_a_growing_curve() -> None:
    solver = cfr_plus(get_game("kuhn"))
    result = train(solver, iterations=300)
    assert result.stopped_by == "iterations" and result.iterations == 300
    its = [q.iteration for q in result.curve]
    assert its[0] == 1 and its[-1] == 300 and its == sorted(set(its))
    assert 10 < len(its) < 100
    result = train(cfr_plus(get_game("kuhn")), iterations=10**9, seconds=0.05)
    assert result.stopped_by == "seconds"
    calls = []
    result = train(cfr_plus(get_game("kuhn")), iterations=10**9, should_stop=lambda: len(calls) > 20 or bool(calls.append(1)))
    assert result.stopped_by == "interrupted" and result.iterations == 21
    with pytest.raises(SolverError, match="budget"):
        train(cfr_plus(get_game("kuhn")))


def test_train_returns_the_final_average_strategy() -> None:
    solver = chance_sampling_cfr(get_game("kuhn"), seed=1, batch=1)
    result = train(solver, iterations=200)
    assert result.strategy.table == solver.average_strategy().table
    assert result.exploitability == result.curve[-1].exploitability
    assert exploitability(get_game("kuhn"), result.strategy) == pytest.approx(result.exploitability, abs=1e-12)


@pytest.mark.parametrize("algorithm", ["cfr+", "dcfr", "es"])
def test_a_checkpoint_resumes_bit_for_bit(algorithm: str, tmp_path: Path) -> None:
    game = get_game("leduc")
    straight = make_solver(game, algorithm, seed=3)
    straight.iterate(40)
    first = make_solver(game, algorithm, seed=3)
    first.iterate(25)
    path = first.save(tmp_path / "run.npz", {"note": "x"})
    resumed, extra = CFRSolver.load(path, game)
    assert extra == {"note": "x"} and resumed.iterations == 25 and resumed.rule == first.rule
    resumed.iterate(15)
    for q in (0, 1):
        np.testing.assert_array_equal(resumed.regrets[q], straight.regrets[q])
        np.testing.assert_array_equal(resumed.average_sums[q], straight.average_sums[q])


def test_a_checkpoint_of_100_card_kuhn_loads_without_the_game(tmp_path: Path) -> None:
    path = cfr_plus(get_game("kuhn-100"), 3).save(tmp_path / "k.npz")
    solver, _ = CFRSolver.load(path)
    assert solver.game == get_game("kuhn-100") and solver.iterations == 3


def test_a_checkpoint_of_another_game_is_refused(tmp_path: Path) -> None:
    path = cfr_plus(get_game("kuhn"), 3).save(tmp_path / "k.npz")
    with pytest.raises(SolverError, match="for game kuhn"):
        CFRSolver.load(path, get_game("leduc"))
    (tmp_path / "bad.npz").write_bytes(b"not a checkpoint")
    with pytest.raises(SolverError, match="not a CFR checkpoint"):
        CFRSolver.load(tmp_path / "bad.npz")


def test_profile_arrays_match_the_strategy() -> None:
    solver = discounted_cfr(get_game("leduc"), 20)
    arrays = strategy_to_arrays(solver.tree, solver.average_strategy())
    for a, b in zip(arrays, solver.average_profile()):
        np.testing.assert_allclose(a, b, atol=1e-15)


def test_two_runs_saving_one_checkpoint_at_once_each_write_their_own_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both wrote ``<checkpoint>.tmp``: the second's rename was a FileNotFoundError traceback."""
    import os

    solver = cfr_plus(get_game("kuhn"), 3)
    path = tmp_path / "k.npz"
    real = np.savez_compressed
    other = [True]

    def savez(file: Any, **arrays: Any) -> None:  # the other process saves just as this one has written its file
        real(file, **arrays)
        if other and other.pop():
            with monkeypatch.context() as m:
                m.setattr(os, "getpid", lambda: 1)
                solver.save(path)

    monkeypatch.setattr(np, "savez_compressed", savez)
    solver.save(path)
    assert CFRSolver.load(path)[0].iterations == 3
    assert [p.name for p in tmp_path.iterdir()] == ["k.npz"]

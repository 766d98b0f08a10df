"""Re-solving a last-round subgame: values against a pair-by-pair reference, and safety (the re-solved
strategy gives no opponent holding more than the blueprint did) in Leduc and hold'em river subgames."""

from __future__ import annotations

import numpy as np
import pytest

from showdown.games.cards import parse_cards
from showdown.games.catalog import get_game
from showdown.games.evaluate import hand_value
from showdown.games.state import State
from showdown.solvers.betting import DECISION, build_tree
from showdown.solvers.holdings import RankedBoard, game_holdings
from showdown.solvers.subgame import (
    Subgame,
    SubgameSizing,
    SubgameSolver,
    best_response_values,
    counterfactual_values,
    disjoint_reach,
)

LEDUC = get_game("leduc")
NOLIMIT = get_game("holdem-nolimit")


def _random_strategy(game: Subgame, hh: int, rng: np.random.Generator) -> list[np.ndarray | None]:
    out: list[np.ndarray | None] = []
    for n in range(game.num_nodes):
        k = len(game.children[n])
        out.append(rng.dirichlet(np.ones(k) * 0.5, size=hh).T if k else None)
    return out


def _reference_values(game, holdings, board, player, strategies, root_reach, best_response):
    """Counterfactual values by a double loop over the two players' holdings, node by node."""
    hh = holdings.size
    cards = holdings.cards.tolist()
    strength = [None if set(c) & set(board) else hand_value(tuple(c) + tuple(board)) for c in cards]

    def value(n, h):
        """Sum over the other's holdings of (their reach to n) x (player's payoff below n, playing on)."""
        kids = game.children[n]
        if not kids:
            total = 0.0
            for o in others:
                if strength[o] is None or set(cards[o]) & set(cards[h]):
                    continue
                w = other_reach[n][o]
                if game.kind[n] == 1:  # fold
                    folder = int(game.player[n])
                    total += w * (-game.spent[n][player] if folder == player else game.spent[n][1 - player])
                elif strength[h] > strength[o]:
                    total += w * game.spent[n][1 - player]
                elif strength[h] < strength[o]:
                    total -= w * game.spent[n][player]
            return total
        vs = [value(c, h) for c in kids]
        if int(game.player[n]) != player:
            return sum(vs)
        if best_response:
            return max(vs)
        return sum(strategies[n][a][h] * v for a, v in enumerate(vs))

    others = np.flatnonzero(root_reach[1 - player] > 0).tolist()
    mine = root_reach[player] > 0
    other_reach = {0: root_reach[1 - player]}
    for n in range(game.num_nodes):
        for a, c in enumerate(game.children[n]):
            r = other_reach[n]
            other_reach[c] = r * strategies[n][a] if int(game.player[n]) != player else r
    return np.array([value(0, h) if strength[h] is not None and mine[h] else 0.0 for h in range(hh)])


def _leduc_case(seed: int):
    rng = np.random.default_rng(seed)
    holdings = game_holdings(LEDUC)
    board = (int(rng.choice(holdings.cards[:, 0])),)
    root = State.initial(LEDUC).apply_betting(["cc/", "rc/", "crrc/"][seed % 3])
    ranked = RankedBoard(holdings, board)
    reach = rng.random((2, holdings.size)) * ~ranked.blocked
    return Subgame.of_state(root), holdings, board, ranked, reach, rng


def _river_case(seed: int, live: int = 14):
    """A no-limit river with each range on ``live`` random holdings (so the reference loop is quick)."""
    rng = np.random.default_rng(seed)
    holdings = game_holdings(NOLIMIT)
    board = tuple(parse_cards("2c7d9hJsKc"))
    ranked = RankedBoard(holdings, board)
    reach = np.zeros((2, holdings.size))
    for p in (0, 1):
        free = np.flatnonzero(~ranked.blocked)
        reach[p, rng.choice(free, size=live, replace=False)] = rng.random(live) + 0.1
    root = State.initial(NOLIMIT).apply_betting("r300c/cc/cr900c/")
    return root, holdings, board, ranked, reach, rng


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("best_response", [False, True])
def test_leduc_values_match_the_pair_by_pair_reference(seed, best_response):
    game, holdings, board, ranked, reach, rng = _leduc_case(seed)
    strategies = _random_strategy(game, holdings.size, rng)
    for player in (0, 1):
        got = counterfactual_values(game, ranked, player, strategies, reach, best_response=best_response)[0]
        want = _reference_values(game, holdings, board, player, strategies, reach, best_response)
        ok = ~ranked.blocked
        assert np.allclose(got[ok], want[ok])


def test_holdem_river_values_match_the_pair_by_pair_reference():
    root, holdings, board, ranked, reach, rng = _river_case(0, live=8)
    game = Subgame.of_state(root, SubgameSizing((1.0,), 1))
    strategies = _random_strategy(game, holdings.size, rng)
    for player in (0, 1):
        live = reach[player] > 0
        for br in (False, True):
            got = counterfactual_values(game, ranked, player, strategies, reach, best_response=br)[0]
            want = _reference_values(game, holdings, board, player, strategies, reach, br)
            assert np.allclose(got[live], want[live])


def test_subgame_keeps_the_real_pot_the_actual_bet_and_all_in():
    root = State.initial(NOLIMIT).apply_betting("r300c/cc/cc/r400")  # a 1/6-pot river bet, off every tree
    game = Subgame.of_state(root, SubgameSizing((0.5, 1.0), 2))
    assert sorted(game.spent[0].tolist()) == [300, 400]
    sizes = [a.size for a in game.actions[0] if a.size]
    assert max(sizes) == 20_000 and len(sizes) == 3
    for n in range(game.num_nodes):
        for c in game.children[n]:
            assert c > n  # children after parents: one backward sweep computes values
    with pytest.raises(Exception, match="last betting round"):
        Subgame.of_state(State.initial(NOLIMIT).apply_betting("r300c/"))


def _check_safe(game, blueprint_game, blueprint, ranked, reach, opponent, iterations):
    """Re-solve with the blueprint's best-response values as the opponent's alternatives, then compare
    the opponent's best response to each strategy, holding by holding and in total."""
    alt = best_response_values(blueprint_game, ranked, opponent, blueprint, reach)
    solver = SubgameSolver(game, ranked, reach, opponent, alt)
    assert solver.run(iterations) == iterations
    resolved = solver.average_strategy()
    after = best_response_values(game, ranked, opponent, resolved, reach)
    scale = np.abs(alt).max()
    live = reach[opponent] > 0
    assert (after[live] <= alt[live] + 0.02 * scale).all()  # no holding gains more than 2% of the largest value
    total_before = float(reach[opponent] @ alt)
    total_after = float(reach[opponent] @ after)
    assert total_after <= total_before + 1e-9 * abs(total_before)
    return total_before, total_after, solver


@pytest.mark.parametrize("seed", range(6))
def test_leduc_resolving_is_no_more_exploitable_than_the_blueprint(seed):
    game, holdings, board, ranked, reach, rng = _leduc_case(seed)
    blueprint = _random_strategy(game, holdings.size, rng)
    opponent = int(game.player[0]) if seed % 2 else 1 - int(game.player[0])
    before, after, _ = _check_safe(game, game, blueprint, ranked, reach, opponent, 1000)
    assert after < before  # a random blueprint leaves something to take back


def test_holdem_river_resolving_in_a_finer_tree_is_safe_against_the_coarse_blueprint():
    root, holdings, board, ranked, reach, rng = _river_case(1, live=40)
    coarse = Subgame.of_state(root, SubgameSizing((1.0,), 1))
    fine = Subgame.of_state(root, SubgameSizing((0.5, 1.0), 2))
    blueprint = _random_strategy(coarse, holdings.size, rng)
    for opponent in (0, 1):
        before, after, _ = _check_safe(fine, coarse, blueprint, ranked, reach, opponent, 400)
        assert after < before


def test_gadget_values_are_the_better_of_the_alternative_and_the_subgame():
    """At the gadget's solution each opponent holding gets about max(alternative, value of entering):
    with alternatives far above what the subgame can give, nobody enters; far below, everybody does."""
    game, holdings, board, ranked, reach, rng = _leduc_case(4)
    opponent = 1 - int(game.player[0])
    big = np.full(holdings.size, 1e6)
    solver = SubgameSolver(game, ranked, reach, opponent, big)
    solver.run(50)
    assert (solver.entering()[reach[opponent] > 0] < 0.05).all()
    solver = SubgameSolver(game, ranked, reach, opponent, -big)
    solver.run(50)
    assert (solver.entering()[reach[opponent] > 0] > 0.95).all()


def test_a_large_penalty_keeps_every_holding_at_its_alternative():
    """The penalty gadget with a large penalty is safe as the resolve gadget is: against the blueprint's
    best-response values no opponent holding gains more than 2% of the largest value, nor in total."""
    for seed in range(3):
        game, holdings, board, ranked, reach, rng = _leduc_case(seed)
        blueprint = _random_strategy(game, holdings.size, rng)
        opponent = 1 - int(game.player[0])
        alt = best_response_values(game, ranked, opponent, blueprint, reach)
        solver = SubgameSolver(game, ranked, reach, opponent, alt, penalty=1000.0)
        solver.run(1000)
        after = best_response_values(game, ranked, opponent, solver.average_strategy(), reach)
        live = reach[opponent] > 0
        assert (after[live] <= alt[live] + 0.02 * np.abs(alt).max()).all()
        assert float(reach[opponent] @ after) <= float(reach[opponent] @ alt) + 0.01 * float(np.abs(reach[opponent] @ alt))


def test_a_penalty_gadget_that_never_binds_is_no_gadget():
    """With alternatives far above what the subgame can give, the penalty gadget's solve is the plain
    solve from the ranges (the whole range in, nobody counted as over), iteration for iteration."""
    game, holdings, board, ranked, reach, rng = _leduc_case(4)
    opponent = 1 - int(game.player[0])
    plain = SubgameSolver(game, ranked, reach, opponent)
    plain.run(60)
    penalised = SubgameSolver(game, ranked, reach, opponent, np.full(holdings.size, 1e6), penalty=50.0)
    penalised.run(60)
    assert (penalised.entering()[reach[opponent] > 0] == 0).all()
    for a, b in zip(plain.average_strategy(), penalised.average_strategy()):
        assert (a is None and b is None) or np.array_equal(a, b)


def test_the_penalty_trades_the_gadget_for_value_against_the_real_range():
    """Against alternatives that bind (the blueprint's own values), a small penalty lets the opponent's
    range do worse than under the resolve gadget's solve (the whole range stays in the optimisation)
    and a large one keeps the holdings at their alternatives as resolve does."""
    game, holdings, board, ranked, reach, rng = _leduc_case(1)
    blueprint = _random_strategy(game, holdings.size, rng)
    opponent = 1 - int(game.player[0])
    alt = counterfactual_values(game, ranked, opponent, blueprint, reach)[0]

    def against_range(solver):
        solver.run(1500)
        return float(reach[opponent] @ best_response_values(game, ranked, opponent, solver.average_strategy(), reach))

    resolve = against_range(SubgameSolver(game, ranked, reach, opponent, alt))
    small = against_range(SubgameSolver(game, ranked, reach, opponent, alt, penalty=0.5))
    assert small < resolve
    with pytest.raises(Exception, match="penalty"):
        SubgameSolver(game, ranked, reach, opponent, alt, penalty=-1.0)


def test_without_a_gadget_cfr_plus_converges_to_an_equilibrium_of_the_subgame():
    game, holdings, board, ranked, reach, rng = _leduc_case(2)
    solver = SubgameSolver(game, ranked, reach, 1)
    solver.run(2000)
    avg = solver.average_strategy()
    br = [float(reach[p] @ best_response_values(game, ranked, p, avg, reach)) for p in (0, 1)]
    # a zero-sum game: the best responses' values sum to the exploitability, ~0 at an equilibrium
    pot = float(game.spent[0].sum()) * float(reach.sum(axis=1).prod())
    assert sum(br) == pytest.approx(0.0, abs=1e-3 * pot)


def test_the_blueprint_subtree_of_an_abstract_tree_has_its_sizes():
    tree = build_tree(LEDUC)
    node = tree.node_of_betting("rc/")
    sub, order = Subgame.of_tree(tree, node)
    direct = Subgame.of_state(State.initial(LEDUC).apply_betting("rc/"))
    assert sub.num_nodes == direct.num_nodes and (sub.spent == direct.spent).all()
    assert all(tree.kind[o] == sub.kind[i] for i, o in enumerate(order))
    assert (sub.kind == DECISION).sum() == (direct.kind == DECISION).sum()


@pytest.mark.parametrize("case", ["leduc", "river"])
def test_the_compiled_pass_gives_the_reference_values(case):
    """The compiled CFR+ pass (``subgame_kernels.cfr_pass``) against the vector formulas, which the
    pair-by-pair reference checks above: values of the current strategies, and best-response values."""
    if case == "leduc":
        game, holdings, board, ranked, reach, rng = _leduc_case(1)
    else:
        root, holdings, board, ranked, reach, rng = _river_case(2, live=60)
        game = Subgame.of_state(root, SubgameSizing((0.5, 1.0), 2))
    solver = SubgameSolver(game, ranked, reach, 0)
    solver.run(7)  # regrets that are not uniform
    root = solver.root_reach.astype(float)
    for p in (0, 1):
        current = _current(solver)  # the previous player's update moved its regrets
        want = counterfactual_values(game, ranked, p, current, root)[0]
        got = solver._pass(p, 0.0, solver.root_reach, best_response=True).copy()
        want_br = best_response_values(game, ranked, p, current, root)
        live = ~ranked.blocked
        scale = np.abs(want_br).max()
        assert np.allclose(got[live], want_br[live], atol=1e-5 * scale)
        assert not np.allclose(want[live], want_br[live])  # the strategies are not already best responses
        got = solver._pass(p, 0.0, solver.root_reach).copy()  # the current strategies' values (then an update)
        assert np.allclose(got[live], want[live], atol=1e-5 * scale)


def _current(solver):
    f = solver.flat
    out = []
    for n in range(f.kind.shape[0]):
        if f.kind[n] != DECISION:
            out.append(None)
            continue
        r = solver.regret[f.row[n] : f.row[n] + f.count[n]].astype(float)
        total = r.sum(axis=0)
        out.append(np.where(total > 0, r / np.where(total > 0, total, 1), 1.0 / r.shape[0]))
    return out


def test_exploitability_is_the_sum_of_the_best_responses_and_stops_the_solver_early():
    """``exploitability`` equals the best responses' sum by the vector formulas (per pair of holdings
    reaching the root), falls as CFR+ runs, and a target stops ``run`` once it is reached."""
    root, holdings, board, ranked, reach, rng = _river_case(3, live=60)
    game = Subgame.of_state(root, SubgameSizing((0.5, 1.0), 2))
    solver = SubgameSolver(game, ranked, reach, 1)
    solver.run(5)
    early = solver.exploitability()
    avg = solver.average_strategy()
    br = sum(float(reach[p] @ best_response_values(game, ranked, p, avg, reach)) for p in (0, 1))
    mass = float(reach[0] @ disjoint_reach(holdings, reach[1][None, :])[0])
    assert early == pytest.approx(br / mass, rel=1e-3, abs=1e-3)
    solver.run(200)
    assert 0 <= solver.exploitability() < early / 4
    pot = float(game.spent[0].sum())
    stopped = SubgameSolver(game, ranked, reach, 1)
    done = stopped.run(1000, target=0.02)
    assert done < 1000 and done % 10 == 0 and stopped.exploitability() <= 0.02 * pot

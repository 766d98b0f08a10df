from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest

from showdown.errors import SolverError
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import State
from showdown.solvers.best_response import (
    best_response,
    best_response_values,
    complete_unreached,
    counterfactual_values,
    expected_value,
    exploitability,
    nash_conv,
)
from showdown.solvers.normal_lp import kuhn_normal_form
from showdown.solvers.sequence_lp import solve_sequence_lp
from showdown.solvers.strategy import (
    Strategy,
    arrays_to_strategy,
    state_infoset_key,
    strategy_to_arrays,
    uniform_strategy,
)
from showdown.solvers.tree import build_tree

# ---------------------------------------------------------------------- a slow, obvious reference


def _deals(game: GameDef) -> list[tuple[tuple[tuple[int, ...], ...], tuple[int, ...], float]]:
    """Every deal (hole cards of both positions, full board) with its probability; 1 hole card."""
    tree = build_tree(game)
    deck = tree.deck
    n_board = game.total_board_cards
    perms = list(itertools.permutations(deck, 2 + n_board))
    return [(((d[0],), (d[1],)), d[2:], 1.0 / len(perms)) for d in perms]


def _random_strategy(game: GameDef, seed: int) -> Strategy:
    rng = np.random.default_rng(seed)
    tree = build_tree(game)
    table = {}
    for key in tree.infoset_keys():
        actions = tree.legal_actions(key)
        probs = rng.dirichlet(np.ones(len(actions)))
        if rng.random() < 0.2:  # some pure choices, so some information sets go unreached
            probs = np.eye(len(actions))[rng.integers(len(actions))]
        table[key] = dict(zip(actions, probs.tolist()))
    return Strategy(game, table)


def _naive_value(game: GameDef, strategy: Strategy) -> float:
    def value(state: State) -> float:
        if state.is_terminal:
            return state.payoffs()[0]
        probs = strategy[state_infoset_key(state)]
        return sum(p * value(state.apply(a)) for a in state.legal_actions() if (p := probs[str(a)]) > 0)

    return sum(w * value(State.initial(game, hole, board)) for hole, board, w in _deals(game))


def _naive_best_response(game: GameDef, strategy: Strategy, player: int) -> float:
    """Best response by brute force over histories, deciding each information set on its aggregate."""
    members: dict[str, list[tuple[State, float]]] = defaultdict(list)

    def collect(state: State, weight: float) -> None:
        if state.is_terminal:
            return
        key = state_infoset_key(state)
        if state.current_player == player:
            members[key].append((state, weight))
            for a in state.legal_actions():
                collect(state.apply(a), weight)
        else:
            for a in state.legal_actions():
                if (p := strategy[key][str(a)]) > 0:
                    collect(state.apply(a), weight * p)

    choice: dict[str, int] = {}

    def best(key: str) -> int:
        if key not in choice:
            states = members[key]
            n = len(states[0][0].legal_actions())
            totals = [sum(w * value(s.apply(s.legal_actions()[i])) for s, w in states) for i in range(n)]
            choice[key] = int(np.argmax(totals))
        return choice[key]

    def value(state: State) -> float:
        if state.is_terminal:
            return state.payoffs()[player]
        legal = state.legal_actions()
        key = state_infoset_key(state)
        if state.current_player == player:
            return value(state.apply(legal[best(key)]))
        probs = strategy[key]
        return sum(p * value(state.apply(a)) for a in legal if (p := probs[str(a)]) > 0)

    deals = _deals(game)
    for hole, board, w in deals:
        collect(State.initial(game, hole, board), w)
    return sum(w * value(State.initial(game, hole, board)) for hole, board, w in deals)


# ---------------------------------------------------------------------- tests


def test_uniform_kuhn_matches_openspiel() -> None:
    # OpenSpiel (cfr_br_test / exploitability of the uniform policy): NashConv of uniform Kuhn = 11/12.
    game = get_game("kuhn")
    s = uniform_strategy(game)
    assert nash_conv(game, s) == pytest.approx(11 / 12, abs=1e-12)
    assert exploitability(game, s) == pytest.approx(11 / 24, abs=1e-12)


def test_uniform_leduc_matches_openspiel() -> None:
    # OpenSpiel cfr_br_test: _EXPECTED_EXPLOITABILITIES_CFRBR_LEDUC[0] = 4.747222222222222 (NashConv of
    # the uniform policy); the uniform profile's value for player 0 is -0.078125.
    game = get_game("leduc")
    s = uniform_strategy(game)
    assert nash_conv(game, s) == pytest.approx(4.747222222222222, abs=1e-12)
    assert expected_value(game, s) == pytest.approx(-0.078125, abs=1e-12)


@pytest.mark.parametrize("seed", [1, 2])
def test_leduc_values_agree_with_brute_force_over_states(seed: int) -> None:
    game = get_game("leduc")
    s = _random_strategy(game, seed)
    assert expected_value(game, s) == pytest.approx(_naive_value(game, s), abs=1e-12)
    br0, br1 = best_response_values(game, s)
    assert br0 == pytest.approx(_naive_best_response(game, s, 0), abs=1e-12)
    assert br1 == pytest.approx(_naive_best_response(game, s, 1), abs=1e-12)


def test_kuhn_best_response_equals_best_pure_strategy_of_the_normal_form() -> None:
    game = get_game("kuhn")
    s = _random_strategy(game, 5)
    nf = kuhn_normal_form()
    br0, br1 = best_response_values(game, s)
    assert best_response(game, s, 0).value == pytest.approx(br0, abs=1e-15)
    assert max(_pure_values(game, s, nf.row_labels, player=0)) == pytest.approx(br0, abs=1e-12)
    assert max(_pure_values(game, s, nf.column_labels, player=1)) == pytest.approx(br1, abs=1e-12)


def _pure_values(game: GameDef, s: Strategy, labels: tuple[str, ...], player: int) -> list[float]:
    """Value for ``player`` of each pure strategy (normal-form label) against ``s``'s other player."""
    out = []
    for label in labels:
        table = dict(s.table)
        for card, first, second in zip("QKA", label[:3], label[3:]):
            if player == 0:
                table[f"{card}s:/"] = {"c": float(first == "C"), "r": float(first == "B")}
                table[f"{card}s:/cr"] = {"f": float(second == "F"), "c": float(second == "C")}
            else:
                table[f"{card}s:/r"] = {"f": float(first == "F"), "c": float(first == "C")}
                table[f"{card}s:/c"] = {"c": float(second == "C"), "r": float(second == "B")}
        v = expected_value(game, Strategy(game, table))
        out.append(v if player == 0 else -v)
    return out


def test_best_response_strategy_achieves_its_value() -> None:
    game = get_game("leduc")
    s = _random_strategy(game, 11)
    for player in (0, 1):
        br = best_response(game, s, player)
        profile = s.for_player(1 - player).merged(br.strategy(game))
        v = expected_value(game, profile)
        assert (v if player == 0 else -v) == pytest.approx(br.value, abs=1e-12)


@pytest.mark.parametrize("name", ["kuhn", "kuhn-10", "leduc"])
def test_equilibrium_has_zero_exploitability(name: str) -> None:
    sol = solve_sequence_lp(name)
    assert abs(exploitability(sol.game, sol.strategy)) < 1e-9
    assert expected_value(sol.game, sol.strategy) == pytest.approx(sol.value, abs=1e-9)


def test_exploitability_is_half_nash_conv_and_accepts_arrays() -> None:
    game = get_game("leduc")
    s = _random_strategy(game, 3)
    arrays = strategy_to_arrays(build_tree(game), s)
    assert exploitability(game, arrays) == pytest.approx(nash_conv(game, s) / 2, abs=1e-15)
    assert exploitability(game, s) > 0.1


def test_best_response_never_folds_when_calling_is_as_good() -> None:
    # Facing a bet that never comes, calling and folding are both worth 0: prefer the call.
    game = get_game("kuhn")
    never_bets = {"Qs:/": {"c": 1.0, "r": 0.0}, "Ks:/": {"c": 1.0, "r": 0.0}, "As:/": {"c": 1.0, "r": 0.0}}
    s = uniform_strategy(game).table | never_bets
    br = best_response(game, Strategy(game, s), 1).strategy(game)
    assert br["Qs:/r"] == {"f": 0.0, "c": 1.0}


def test_completing_unreached_cells_uses_trembled_beliefs() -> None:
    game = get_game("kuhn")
    tree = build_tree(game)
    never_bets = uniform_strategy(game).table | {f"{c}s:/": {"c": 1.0, "r": 0.0} for c in "QKA"}
    arrays = strategy_to_arrays(tree, Strategy(game, never_bets))
    undefined = [np.zeros(a.shape[:2], dtype=bool) for a in arrays]
    d = next(i for i in range(tree.num_decision_nodes) if tree.decision(i).betting == "r")
    undefined[d][:] = True
    s = arrays_to_strategy(tree, complete_unreached(tree, arrays, undefined))
    assert s["As:/r"] == {"f": 0.0, "c": 1.0}  # wins against every card a bettor could hold
    assert s["Qs:/r"] == {"f": 1.0, "c": 0.0}  # loses against every card a bettor could hold


def test_value_of_kuhn_equilibrium_is_minus_one_eighteenth() -> None:
    # Kuhn (1950): the first player's value is -1/18.
    sol = solve_sequence_lp("kuhn")
    assert Fraction(expected_value(sol.game, sol.strategy)).limit_denominator(1000) == Fraction(-1, 18)


def test_counterfactual_values_at_the_root_sum_to_the_expected_value() -> None:
    game = get_game("leduc")
    s = _random_strategy(game, 4)
    v0, v1 = counterfactual_values(game, s)
    assert v0[0].sum() == pytest.approx(expected_value(game, s), abs=1e-12)
    assert v1[0].sum() == pytest.approx(-expected_value(game, s), abs=1e-12)


def test_exploitability_says_what_a_game_and_a_profile_are() -> None:
    kuhn = get_game("kuhn")
    solution = solve_sequence_lp(kuhn)
    assert exploitability("kuhn", solution.strategy) == pytest.approx(exploitability(kuhn, solution.strategy))
    with pytest.raises(SolverError, match="expected a game"):
        exploitability(3, solution.strategy)  # type: ignore[arg-type]
    for bad in ({"Q": 1}, "strategy.json", [1, 2]):
        with pytest.raises(SolverError, match="expected a Strategy .* or a profile of 4 arrays"):
            exploitability(kuhn, bad)  # type: ignore[arg-type]

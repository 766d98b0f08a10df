"""Re-solving the next-to-last round to the end of the hand, over every last card or sampling them:
in Leduc (whose first round is its next-to-last) the solver from the first decision solves the game."""

from __future__ import annotations

import numpy as np
import pytest

from showdown.games.cards import make_deck, parse_cards
from showdown.games.catalog import get_game
from showdown.games.state import State
from showdown.solvers.holdings import RankedBoard, game_holdings
from showdown.solvers.subgame import SubgameSizing, counterfactual_values
from showdown.solvers.subgame_kernels import CHANCE
from showdown.solvers.turn_subgame import TurnSolver, TurnSubgame, river_boards

LEDUC = get_game("leduc")
NOLIMIT = get_game("holdem-nolimit")
LEDUC_VALUE = -0.085606  # the first player's value of Leduc hold'em (published; tests/solvers checks it too)


def _leduc(per_iteration: int, iterations: int) -> tuple[float, float]:
    holdings = game_holdings(LEDUC)
    deck = tuple(make_deck(LEDUC.num_ranks, LEDUC.num_suits))
    turn = TurnSubgame.of_state(State.initial(LEDUC), holdings, (), deck, SubgameSizing(), SubgameSizing())
    reach = np.ones((2, holdings.size)) / holdings.size
    solver = TurnSolver(turn, reach, 1, per_iteration=per_iteration, seed=3)
    solver.run(iterations)
    full = TurnSolver(turn, reach, 1, per_iteration=len(turn.cards))  # evaluates over every card
    full.average[:] = solver.average
    full.regret[:] = solver.average  # regret matching of the average: the average strategy
    full._prepare()  # deals every card, one a slot
    pairs = holdings.size * (holdings.size - 1) / holdings.size**2  # reach counts impossible pairs too
    values = [float(reach[p] @ full._pass(p, 0.0, full.root_reach, best_response=True)) / pairs for p in (0, 1)]
    return values[0], values[1]


def test_over_every_card_cfr_plus_solves_leduc():
    br0, br1 = _leduc(per_iteration=6, iterations=400)
    assert br0 + br1 == pytest.approx(0.0, abs=0.01)  # exploitability (chips a hand, summed over seats)
    assert br0 == pytest.approx(LEDUC_VALUE, abs=0.01) and -br1 == pytest.approx(LEDUC_VALUE, abs=0.01)


def test_sampling_two_cards_an_iteration_converges_too():
    """Public chance sampling: slower (a third of the cards an iteration; 0.19 chips after 300
    iterations, 0.09 after 1,200, 0.04 after 4,000), but towards the equilibrium."""
    early = sum(_leduc(per_iteration=2, iterations=300))
    late = sum(_leduc(per_iteration=2, iterations=1200))
    assert 0 <= late < 0.12 and late < 0.6 * early


def test_river_boards_rank_like_one_board_at_a_time():
    holdings = game_holdings(NOLIMIT)
    board = tuple(parse_cards("2c7d9hJs"))
    deck = tuple(make_deck(NOLIMIT.num_ranks, NOLIMIT.num_suits))
    cards, tables = river_boards(holdings, board, deck)
    assert len(cards) == 48
    for i in (0, 17, 47):
        ranked = RankedBoard(holdings, board + (cards[i],))
        assert (tables.masks[i] == ~ranked.blocked).all()
        assert (ranked.strength[tables.order[i]] == np.sort(ranked.strength)).all()
        assert (tables.group_end[i] == ranked.hi[tables.order[i]]).all()


def test_a_river_card_chance_node_averages_the_river_subgames_values():
    """In hold'em, the value at the end of the turn is the average over the river cards (each blocking
    the holdings that hold it; one over 44 a pair of holdings) of the river subgame's values on that
    board, computed by the river's own vector formulas (``counterfactual_values``)."""
    holdings = game_holdings(NOLIMIT)
    board = tuple(parse_cards("2c7d9hJs"))
    deck = tuple(make_deck(NOLIMIT.num_ranks, NOLIMIT.num_suits))
    root = State.initial(NOLIMIT).apply_betting("r300c/cc/")
    turn = TurnSubgame.of_state(root, holdings, board, deck, SubgameSizing((1.0,), 1), SubgameSizing((1.0,), 1))
    rng = np.random.default_rng(5)
    blocked = RankedBoard(holdings, board).blocked
    reach = np.zeros((2, holdings.size))
    for p in (0, 1):
        live = rng.choice(np.flatnonzero(~blocked), size=60, replace=False)
        reach[p, live] = rng.random(60) + 0.1
    solver = TurnSolver(turn, reach, 1, per_iteration=len(turn.cards))
    solver.regret[:] = rng.random(solver.regret.shape)  # random current strategies everywhere
    solver._prepare()
    lay = solver.layout
    ends = np.flatnonzero(turn.game.kind == CHANCE)
    e = next(i for i, r in enumerate(turn.rivers) if r is not None)  # an end where the river is bet
    end, river = int(ends[e]), turn.rivers[e]
    assert river is not None
    for p in (0, 1):
        solver._pass(p, 0.0, solver.root_reach, best_response=True)  # values at the end do not depend on p's choices above
        got = solver.values[end].astype(float)
        at_end = solver._reach[end].astype(float)
        want = np.zeros(holdings.size)
        first = int(lay.flat.first[end])
        for slot in range(int(lay.flat.count[end])):
            b = int(lay.flat.board[first + slot])
            ranked = RankedBoard(holdings, board + (turn.cards[b],))
            below = (lay.slot == slot) & (lay.entry == e)
            nodes = [first + slot] + [n for n in np.flatnonzero(below) if n != first + slot]  # river node i at nodes[i]
            rows = {i: int(lay.flat.row[nodes[i]]) for i in range(river.num_nodes) if river.kind[i] == 0}
            sigma = [None if i not in rows else solver._sigma[rows[i] : rows[i] + len(river.children[i])].astype(float) for i in range(river.num_nodes)]
            values = counterfactual_values(river, ranked, p, sigma, at_end * ~ranked.blocked, best_response=True)[0]
            want += np.where(ranked.blocked, 0.0, values) / 44
        live = reach[p] > 0
        assert np.allclose(got[live], want[live], rtol=1e-4, atol=1e-4 * np.abs(want).max())


def _random_strategies(turn: TurnSubgame, buckets: int, rng: np.random.Generator):
    """Random probabilities at every turn decision (per holding) and, per end, a random river strategy
    by bucket (``strategy_values``' river tables)."""
    from showdown.solvers.subgame_kernels import DECISION

    hh = turn.tables.cards.shape[0]

    def probs(shape: tuple[int, ...], axis: int) -> np.ndarray:
        x = rng.random(shape)
        return x / x.sum(axis=axis, keepdims=True)

    turns = [probs((len(turn.game.children[i]), hh), 0) if turn.game.kind[i] == DECISION else None for i in range(turn.game.num_nodes)]
    tables = [
        None if r is None else np.concatenate([probs((buckets, len(r.children[i])), 1) for i in range(r.num_nodes) if r.kind[i] == DECISION], axis=1)
        for r in turn.rivers
    ]
    return turns, tables


@pytest.mark.parametrize("best_response", [False, True])
def test_strategy_values_over_every_card_equal_the_solvers_pass(best_response):
    """The blueprint's values over every river card (the turn's gadget), card chunk by chunk in the
    evaluation pass, equal the solver's own pass with every card dealt at once and the same strategies
    (each card's river by its buckets); a best response chooses at the turn on the sum over the cards."""
    from showdown.solvers.turn_subgame import strategy_values

    holdings = game_holdings(NOLIMIT)
    board = tuple(parse_cards("2c7d9hJs"))
    deck = tuple(make_deck(NOLIMIT.num_ranks, NOLIMIT.num_suits))
    root = State.initial(NOLIMIT).apply_betting("r300c/cc/")
    turn = TurnSubgame.of_state(root, holdings, board, deck, SubgameSizing((0.5, 1.0), 1), SubgameSizing((1.0,), 1))
    rng = np.random.default_rng(5)
    reach = np.where(RankedBoard(holdings, board).blocked, 0.0, rng.random((2, holdings.size)))
    buckets = rng.integers(0, 7, size=(len(turn.cards), holdings.size))
    turns, tables = _random_strategies(turn, 7, rng)
    for p in (0, 1):
        got = strategy_values(turn, turns, tables, buckets, reach, p, best_response=best_response)
        solver = TurnSolver(turn, reach, 1 - p, per_iteration=len(turn.cards))
        flat, lay = solver.layout.flat, solver.layout
        for n, s in enumerate(turns):
            if s is not None:
                solver.regret[flat.row[n] : flat.row[n] + s.shape[0]] = s
        for e, table in enumerate(tables):
            per = int(lay.per_card[e])
            for c in range(len(turn.cards) if table is not None else 0):
                solver.regret[lay.base[e] + c * per : lay.base[e] + (c + 1) * per] = table[buckets[c]].T
        solver._prepare()  # every card, one a slot
        solver._pass(p, 0.0, solver.root_reach, best_response=best_response)
        want = solver.values[: turn.game.num_nodes].astype(float)
        assert np.allclose(got, want, rtol=1e-5, atol=1e-6 * np.abs(want).max())


def test_the_blueprints_turn_values_are_its_value_in_leduc(tmp_path):
    """Leduc's first round is its next-to-last: the blueprint's own tree from the first decision
    (``tree_turn``, every last card below each end of the round) with its strategy by bucket gives
    each holding its counterfactual value, whose sum over the holdings is the game's expected value
    for that seat computed over the whole game tree (``best_response.expected_value``)."""
    from showdown.agents.registry import make_agent
    from showdown.solvers.abstraction import StrengthAbstraction
    from showdown.solvers.best_response import expected_value
    from showdown.solvers.pcs import PCSSolver
    from showdown.solvers.strategy import Strategy
    from showdown.solvers.subgame_kernels import DECISION
    from showdown.solvers.turn_subgame import strategy_values, tree_turn
    from tests.agents.test_search import _leduc_table

    solver = PCSSolver(LEDUC, StrengthAbstraction(LEDUC, 2), exhaustive=True)
    solver.iterate(20)
    path = str(solver.strategy().save(tmp_path / "leduc.pcs.npz"))
    agent = make_agent("cfr", LEDUC, {"strategy": path, "search": "off"})
    strategy, boards = agent.strategy, agent._boards
    holdings = game_holdings(LEDUC)
    deck = tuple(make_deck(LEDUC.num_ranks, LEDUC.num_suits))
    cards, tables = river_boards(holdings, (), deck)
    turn, order, river_nodes = tree_turn(strategy.tree, 0, cards, tables)
    every = boards.every_bucket((), 0)
    turns = [strategy.rows(int(order[i]), every)[:, : len(turn.game.children[i])].T if turn.game.kind[i] == DECISION else None
             for i in range(turn.game.num_nodes)]
    river_tables = []
    for river, nodes in zip(turn.rivers, river_nodes):
        decisions = [] if river is None else [i for i in range(river.num_nodes) if river.kind[i] == DECISION]
        river_tables.append(np.concatenate([strategy.node_table(int(nodes[i]))[:, : len(river.children[i])] for i in decisions], axis=1)
                            if decisions else None)
    buckets = np.stack([boards.every_bucket((c,), 1) for c in cards])
    chance = np.ones((2, holdings.size)) / holdings.size  # each holding's chance, and the other's given it
    chance_other = np.ones((2, holdings.size)) / (holdings.size - 1)
    value = expected_value(LEDUC, Strategy(LEDUC, _leduc_table(agent)))
    for p in (0, 1):
        got = strategy_values(turn, turns, river_tables, buckets, chance_other, p)[0]
        assert float(chance[p] @ got) == pytest.approx(value if p == 0 else -value, abs=1e-5)

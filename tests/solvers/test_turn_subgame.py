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

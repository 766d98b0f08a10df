"""Re-solving the next-to-last round to the end of the hand, over every last card or sampling them:
in Leduc (whose first round is its next-to-last) the solver from the first decision solves the game."""

from __future__ import annotations

import numpy as np
import pytest

from showdown.games.cards import make_deck, parse_cards
from showdown.games.catalog import get_game
from showdown.games.state import State
from showdown.solvers.holdings import RankedBoard, game_holdings
from showdown.solvers.subgame import SubgameSizing
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

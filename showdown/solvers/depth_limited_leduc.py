"""Depth-limited re-solving checked exactly where the whole game fits: Leduc hold'em, whose first
round is the flop's analogue (its leaves at the second card).

The whole game is one ``TurnSolver`` over every second card; a blueprint is its CFR+ average after a
few iterations (weak on purpose: a re-solve has something to take back). ``resolved_exploitability``
re-solves the first round from the start for one seat with leaves valued by the blueprint's
continuations (``depth_limited``), plays the blueprint's second round after it, and returns the
opponent's best response to that: the figure the issue's safety test compares with the blueprint's.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from showdown.games.cards import make_deck
from showdown.games.catalog import get_game
from showdown.games.state import ActionKind, State
from showdown.solvers.betting import DECISION
from showdown.solvers.depth_limited import DepthLimitedSolver, DepthLimitedSubgame, Strategies, biased, continuation_values
from showdown.solvers.holdings import game_holdings
from showdown.solvers.subgame import SubgameSizing, regret_matching
from showdown.solvers.turn_subgame import TurnSolver, TurnSubgame

LEDUC = get_game("leduc")
HOLDINGS = game_holdings(LEDUC)
BIASES = (ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE)
"""Modicum's biased continuations after the blueprint's own, in order."""


def whole_game() -> TurnSubgame:
    """Leduc from its first decision to the end of the hand, every second card below the first round."""
    deck = tuple(make_deck(LEDUC.num_ranks, LEDUC.num_suits))
    return TurnSubgame.of_state(State.initial(LEDUC), HOLDINGS, (), deck, SubgameSizing(), SubgameSizing())


def whole_solver(turn: TurnSubgame) -> TurnSolver:
    """The whole game as one solver over every second card (each dealt once, the same every iteration)."""
    solver = TurnSolver(turn, np.ones((2, HOLDINGS.size)), 1, per_iteration=len(turn.cards))
    solver._prepare()
    return solver


def train_blueprint(turn: TurnSubgame, iterations: int) -> np.ndarray:
    """CFR+'s average strategy rows of the whole game after ``iterations`` (each node's rows give its
    strategy by regret matching, as the compiled pass reads them)."""
    solver = whole_solver(turn)
    for _ in range(iterations):
        solver.iterate()
    return np.asarray(solver.average.astype(float))


def node_rows(solver: TurnSolver, node: int) -> slice:
    """The strategy rows of a first-round node of the whole game."""
    f = solver.layout.flat
    return slice(int(f.row[node]), int(f.row[node] + f.count[node]))


def river_continuation(turn: TurnSubgame, solver: TurnSolver, rows: np.ndarray) -> Callable[[int, int], Strategies]:
    """``continuation(end, card)``: the blueprint's strategies in the second round below an end."""
    layout = solver.layout

    def continuation(end: int, card: int) -> Strategies:
        river = turn.rivers[end]
        assert river is not None
        out: Strategies = []
        rel = 0
        for n in range(river.num_nodes):
            if river.kind[n] != DECISION:
                out.append(None)
                continue
            start = int(layout.base[end] + card * layout.per_card[end]) + rel
            out.append(regret_matching(rows[start : start + len(river.children[n])]))
            rel += len(river.children[n])
        return out

    return continuation


def opponent_best_response(turn: TurnSubgame, rows: np.ndarray, opponent: int) -> float:
    """The opponent's best-response value (chips a hand) against the whole-game strategy ``rows``."""
    solver = whole_solver(turn)
    solver.regret[:] = rows  # regret matching of a strategy is the strategy
    reach = solver.root_reach.astype(float)
    pairs = HOLDINGS.size * (HOLDINGS.size - 1)
    return float(reach[opponent] @ solver._pass(opponent, 0.0, solver.root_reach, best_response=True)) / pairs


def first_round_solver(turn: TurnSubgame, rows: np.ndarray, opponent: int, choices: int) -> DepthLimitedSolver:
    """The first round as a depth-limited subgame from the start, its leaves valued by the blueprint's
    continuation and, with ``choices`` > 1, its versions biased toward ``BIASES`` for the opponent."""
    sub = DepthLimitedSubgame.of_state(State.initial(LEDUC), SubgameSizing(), opponent, choices)
    blueprint = river_continuation(turn, whole_solver(turn), rows)
    continuations = [blueprint]
    for kind in BIASES[: choices - 1]:
        def pushed(end: int, card: int, kind: ActionKind = kind) -> Strategies:
            river = turn.rivers[end]
            assert river is not None
            return biased(river, blueprint(end, card), opponent, kind)
        continuations.append(pushed)
    leaves = continuation_values(turn, HOLDINGS, continuations)
    blocked = np.zeros(HOLDINGS.size, dtype=bool)
    return DepthLimitedSolver(sub, turn, HOLDINGS, leaves, blocked, np.ones((2, HOLDINGS.size)), opponent)


def resolved_exploitability(turn: TurnSubgame, rows: np.ndarray, me: int, choices: int, iterations: int = 400) -> float:
    """The opponent's best response to the first round re-solved for ``me`` (``iterations`` of CFR+),
    played on with the blueprint's second round."""
    solver = first_round_solver(turn, rows, 1 - me, choices)
    solver.run(iterations)
    resolved = solver.average_strategy()
    whole = whole_solver(turn)
    combined = rows.copy()
    for n in range(turn.game.num_nodes):
        if turn.game.kind[n] == DECISION and int(turn.game.player[n]) == me:
            combined[node_rows(whole, n)] = resolved[n]
    return opponent_best_response(turn, combined, 1 - me)


__all__ = [
    "BIASES", "first_round_solver", "node_rows", "opponent_best_response", "resolved_exploitability", "river_continuation",
    "train_blueprint", "whole_game", "whole_solver",
]

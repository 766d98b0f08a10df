"""Kuhn poker in normal form: pure-strategy payoff matrices and their solution as a matrix game.

Each player of Kuhn poker has 6 information sets with 2 actions, so 2^6 = 64 pure strategies
(Kuhn 1950); position 0 has only 27 distinct ones once the moves a first-round bet makes
irrelevant are dropped (the "reduced" normal form of the seeds). Entries are position 0's expected
chips, chance included, computed as ``x_i^T A y_j`` from the sequence form (pure plans are 0/1).

Labels follow the UBC Wiki's ("Poker and linear programming") with the ACPC cards: six letters, the three lowest-to-highest
cards Q, K, A (the wiki's J, Q, K). Position 0: first-round move per card (``C`` check, ``B`` bet),
then the answer to check-bet per card (``F`` fold, ``C`` call, ``X`` when the first move was a bet, in
the reduced form only). Position 1: the answer to a bet per card (``F``/``C``), then the move after a
check per card (``C`` check, ``B`` bet).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog  # type: ignore[import-untyped]

from showdown.errors import SolverError
from showdown.games.catalog import get_game
from showdown.solvers.sequence_lp import realization_plan, sequence_form
from showdown.solvers.strategy import Profile
from showdown.solvers.tree import GameTree


@dataclass(frozen=True, slots=True)
class MatrixGameSolution:
    """Value (for the row player) and optimal mixed strategies of a zero-sum matrix game."""

    value: float
    row_strategy: np.ndarray
    column_strategy: np.ndarray


def solve_matrix_game(matrix: np.ndarray) -> MatrixGameSolution:
    """Maximin mixed strategies of the row player (payoffs ``matrix``) by one LP; columns from its duals.

    ``max v  s.t.  matrix^T x >= v, sum x = 1, x >= 0``; the duals of the first constraints are the
    column player's minimax strategy (von Neumann's minimax theorem as LP duality).
    """
    m = np.asarray(matrix, dtype=np.float64)
    rows, cols = m.shape
    c = np.zeros(rows + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-m.T, np.ones((cols, 1))])
    a_eq = np.concatenate([np.ones(rows), [0.0]]).reshape(1, -1)
    bounds = [(0, None)] * rows + [(None, None)]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(cols), A_eq=a_eq, b_eq=[1.0], bounds=bounds, method="highs")
    if res.status != 0:
        raise SolverError(f"matrix-game LP failed: {res.message}")
    return MatrixGameSolution(float(res.x[-1]), res.x[:rows].copy(), -res.ineqlin.marginals)


@dataclass(frozen=True, slots=True)
class NormalForm:
    """A payoff matrix for position 0 with row (position 0) and column (position 1) labels."""

    matrix: np.ndarray
    row_labels: tuple[str, ...]
    column_labels: tuple[str, ...]


def _pure_plan(tree: GameTree, player: int, choice: dict[tuple[str, str], str]) -> np.ndarray:
    """Realisation plan of a pure strategy given as {(card letter, betting): action}."""
    profile: Profile = []
    for d in range(tree.num_decision_nodes):
        node = tree.decision(d)
        arr = np.zeros((tree.num_boards[node.round], len(tree.hands), len(node.actions)))
        arr[:, :, 0] = 1.0
        if node.player == player:
            for h, text in enumerate(tree.hand_text):
                action = choice.get((text[0], node.betting))
                if action is not None:
                    arr[:, h, :] = 0.0
                    arr[:, h, node.actions.index(action)] = 1.0
        profile.append(arr)
    return realization_plan(tree, player, profile)


_CARDS = ("Q", "K", "A")


def _p0_strategies(reduced: bool) -> list[tuple[str, dict[tuple[str, str], str]]]:
    out = []
    for first in itertools.product("CB", repeat=3):
        options = [("X",) if reduced and f == "B" else ("F", "C") for f in first]
        for second in itertools.product(*options):
            choice: dict[tuple[str, str], str] = {}
            for card, f, s in zip(_CARDS, first, second):
                choice[(card, "")] = "r" if f == "B" else "c"
                if s != "X":
                    choice[(card, "cr")] = "c" if s == "C" else "f"
            out.append(("".join(first) + "".join(second), choice))
    return out


def _p1_strategies() -> list[tuple[str, dict[tuple[str, str], str]]]:
    out = []
    for vs_bet in itertools.product("FC", repeat=3):
        for vs_check in itertools.product("CB", repeat=3):
            choice: dict[tuple[str, str], str] = {}
            for card, b, k in zip(_CARDS, vs_bet, vs_check):
                choice[(card, "r")] = "c" if b == "C" else "f"
                choice[(card, "c")] = "r" if k == "B" else "c"
            out.append(("".join(vs_bet) + "".join(vs_check), choice))
    return out


def kuhn_normal_form(reduced: bool = False) -> NormalForm:
    """Kuhn's 64x64 pure-strategy payoff matrix for position 0, or the 27x64 reduced form."""
    sf = sequence_form(get_game("kuhn"))
    rows = _p0_strategies(reduced)
    cols = _p1_strategies()
    x = np.array([_pure_plan(sf.tree, 0, c) for _, c in rows])
    y = np.array([_pure_plan(sf.tree, 1, c) for _, c in cols])
    matrix = x @ (sf.A @ y.T)
    return NormalForm(np.asarray(matrix), tuple(lbl for lbl, _ in rows), tuple(lbl for lbl, _ in cols))


def solve_kuhn_normal_form(reduced: bool = False) -> MatrixGameSolution:
    """Kuhn poker solved as a matrix game (value -1/18 for position 0)."""
    return solve_matrix_game(kuhn_normal_form(reduced).matrix)


__all__ = ["MatrixGameSolution", "NormalForm", "kuhn_normal_form", "solve_kuhn_normal_form", "solve_matrix_game"]

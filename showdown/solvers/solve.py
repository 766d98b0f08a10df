"""Exact solving of small games by method name, and the exploitability report of a profile.

``solve(method, game)``: ``lp`` is the sequence-form LP (any 2-player game the exact solvers hold:
Kuhn, N-card Kuhn, Leduc), ``normal`` Kuhn's 64 x 64 normal form as a matrix game and ``analytic`` the
closed-form Kuhn family. ``exploit_report(profile)``: best-response values and exploitability (2
players), or each position's value, best response and gain and NashConv (3 or more). The
``showdown solve`` and ``showdown exploit`` commands (``showdown.cli``) print these.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from showdown.errors import ConfigError, SolverError
from showdown.games.catalog import catalog_name, get_game
from showdown.games.gamedef import GameDef
from showdown.solvers.strategy import Strategy, StrategyError

__all__ = ["DEFAULT_Y", "KUHN_ONLY", "METHODS", "SolveResult", "exploit_report", "normal_form_strategy", "solve"]

METHODS = ("lp", "normal", "analytic")
KUHN_ONLY = ("normal", "analytic")
DEFAULT_Y = 1.0 / 3.0
"""Default ace-betting probability of ``solve analytic`` (any y in [0, 1] is an equilibrium)."""

_KUHN_CARDS = ("Qs", "Ks", "As")  # the normal form's labels list cards low to high


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What ``solve`` returns: value for position 0, the profile and the seconds the solver took."""

    game: GameDef
    method: str
    value: float
    strategy: Strategy
    seconds: float


# ---------------------------------------------------------------------- solving


def _is_kuhn(game: GameDef) -> bool:
    return catalog_name(game) == "kuhn"


def normal_form_strategy(row: np.ndarray, column: np.ndarray, row_labels: tuple[str, ...], column_labels: tuple[str, ...]) -> Strategy:
    """Kuhn's behavioural profile from mixed strategies over the normal form's pure strategies.

    Kuhn's theorem (perfect recall): the probability of an action at an information set is the
    weight of the pure strategies that reach it and take the action, over the weight of those that
    reach it. Labels are ``normal_lp``'s: position 0 ``CBC FCX`` (opening move per card Q, K, A, then
    the answer to check-bet), position 1 ``FCC CBB`` (answer to a bet, then the move after a check).
    Information sets no pure strategy in the support reaches get a best response to the rest.
    """
    game = get_game("kuhn")
    table: dict[str, dict[str, float]] = {}
    unreached: list[str] = []
    w0 = np.clip(np.asarray(row, dtype=np.float64), 0.0, None)
    w1 = np.clip(np.asarray(column, dtype=np.float64), 0.0, None)
    w0, w1 = w0 / w0.sum(), w1 / w1.sum()
    for i, card in enumerate(_KUHN_CARDS):
        bet = sum(w for w, lbl in zip(w0, row_labels) if lbl[i] == "B")
        table[f"{card}:/"] = {"c": 1.0 - bet, "r": bet}
        checked = sum(w for w, lbl in zip(w0, row_labels) if lbl[i] == "C")
        called = sum(w for w, lbl in zip(w0, row_labels) if lbl[i] == "C" and lbl[3 + i] == "C")
        if checked > 1e-12:
            table[f"{card}:/cr"] = {"f": 1.0 - called / checked, "c": called / checked}
        else:
            unreached.append(f"{card}:/cr")
        call = sum(w for w, lbl in zip(w1, column_labels) if lbl[i] == "C")
        table[f"{card}:/r"] = {"f": 1.0 - call, "c": call}
        bet = sum(w for w, lbl in zip(w1, column_labels) if lbl[3 + i] == "B")
        table[f"{card}:/c"] = {"c": 1.0 - bet, "r": bet}
    table = {k: {a: min(1.0, max(0.0, p)) for a, p in v.items()} for k, v in table.items()}
    if not unreached:
        return Strategy(game, table)
    return _complete(game, table, unreached)


def _complete(game: GameDef, table: dict[str, dict[str, float]], unreached: list[str]) -> Strategy:
    """Fill the given (own-unreached) information sets with best-response actions."""
    from showdown.solvers.best_response import complete_unreached
    from showdown.solvers.strategy import arrays_to_strategy, strategy_to_arrays
    from showdown.solvers.tree import build_tree

    tree = build_tree(game)
    partial = Strategy(game, table, validate=False)
    arrays = strategy_to_arrays(tree, partial, missing="uniform")
    masks = [np.zeros(a.shape[:2], dtype=bool) for a in arrays]
    for key in unreached:
        d, b, h = tree.key_index[key]
        masks[d][b, h] = True
    return arrays_to_strategy(tree, complete_unreached(tree, arrays, masks))


NO_LIMIT_TREE = ("no-limit: solved on the tree whose raises are the minimum and the all-in only; "
                 "values and best responses are that tree's (raises of other sizes are not in them)")
"""Said with a no-limit game's value or exploitability, which are not the full game's (README, agents)."""


def tree_note(game: GameDef) -> str | None:
    """What the solvers' numbers for ``game`` are about when its tree is not the whole game, else None:
    a no-limit game's exact "value" and "exploitability 0" read as the full game's (the full game of
    1-card no-limit Kuhn, stacks 5, is worth -0.083 to position 0; the tree's -0.060)."""
    return None if game.is_limit else NO_LIMIT_TREE


def solve(method: str, game: GameDef, y: float | None = None) -> SolveResult:
    """Solve ``game`` with ``method`` (``lp``, ``normal`` or ``analytic``); Kuhn-only methods check the game."""
    if method not in METHODS:
        raise ConfigError(f"unknown solve method {method!r}: use one of {', '.join(METHODS)}")
    name = game.name or "this game"
    if method in KUHN_ONLY and not _is_kuhn(game):
        raise SolverError(
            f"the {method} solver handles 2-player Kuhn poker only, not {name}; use 'showdown solve lp {game.name or 'GAME'}'"
        )
    if y is not None and method != "analytic":
        raise ConfigError("--y applies to 'showdown solve analytic' only")
    # imports first: ``seconds`` is the solver's time, not scipy's import
    from showdown.solvers.kuhn_analytic import KUHN_VALUE, kuhn_equilibrium
    from showdown.solvers.normal_lp import kuhn_normal_form, solve_matrix_game
    from showdown.solvers.sequence_lp import solve_sequence_lp

    start = time.perf_counter()
    if method == "lp":
        sol = solve_sequence_lp(game, refine=True)
        value, strategy = sol.value, sol.strategy
    elif method == "normal":
        nf = kuhn_normal_form()
        mg = solve_matrix_game(nf.matrix)
        value = mg.value
        strategy = normal_form_strategy(mg.row_strategy, mg.column_strategy, nf.row_labels, nf.column_labels)
    else:
        strategy = kuhn_equilibrium(DEFAULT_Y if y is None else y)
        value = float(KUHN_VALUE)
    return SolveResult(game, method, float(value), strategy, time.perf_counter() - start)


# ---------------------------------------------------------------------- exploitability


def exploit_report(profile: Strategy) -> dict[str, Any]:
    """``best_response_values`` per position, ``nash_conv`` and ``exploitability``; for games of more
    than two players also ``values`` (each position's under the profile) and ``gains`` (what each
    position wins by deviating alone), and ``exploitability`` is NashConv / N, as OpenSpiel reports it."""
    if profile.game.num_players > 2:
        return _multiplayer_report(profile)
    from showdown.solvers.best_response import best_response_values
    from showdown.solvers.tree import build_tree

    tree = build_tree(profile.game)
    _check_complete(profile, tree.infoset_keys())
    br0, br1 = best_response_values(tree, profile)
    return {"best_response_values": [br0, br1], "nash_conv": br0 + br1, "exploitability": (br0 + br1) / 2.0}


def _check_complete(profile: Strategy, keys: Sequence[str]) -> None:
    missing = [k for k in keys if k not in profile.table]
    if missing:
        raise StrategyError(
            f"the strategy lacks {len(missing)} of the game's {len(keys)} information sets "
            f"(e.g. {missing[0]!r}): exploitability needs every position's strategy"
        )


def _multiplayer_report(profile: Strategy) -> dict[str, Any]:
    from showdown.solvers.multiplayer import build_ntree, evaluate
    from showdown.solvers.strategy import ntree_sigma

    tree = build_ntree(profile.game)
    _check_complete(profile, tree.infoset_keys)
    ev = evaluate(tree, ntree_sigma(tree, profile))
    n = tree.num_players
    return {
        "players": n,
        "values": list(ev.values),
        "best_response_values": list(ev.best_response),
        "gains": list(ev.gains),
        "nash_conv": ev.nash_conv,
        "exploitability": ev.nash_conv / n,
    }



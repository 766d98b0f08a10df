"""Exact best responses, expected values and exploitability on the vectorised public tree.

One forward pass computes both players' reach probabilities at every public node as arrays over
(board, hand); one backward pass computes counterfactual values, taking at each of a player's nodes
the maximum over actions separately for every (board, own hand) cell, which is that player's
information set, so the result is an exact best response to the other player's fixed strategy.
Both best responses come out of the same two passes.

Conventions (as OpenSpiel's ``exploitability`` module): values are chips per hand for the player
concerned, averaged over the deal; ``nash_conv`` is the sum over players of what a best response
gains over the profile, which in a zero-sum game is ``BR_0 + BR_1``; ``exploitability`` is
``nash_conv / 2``. Both are 0 exactly at a Nash equilibrium.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from showdown.errors import SolverError
from showdown.games.gamedef import GameDef
from showdown.solvers.strategy import Profile, Strategy, arrays_to_strategy, strategy_to_arrays
from showdown.solvers.tree import GameTree, NodeKind, build_tree

TIE_PREFERENCE = ("c", "r", "f")
"""Order in which equally good actions are chosen by a best response (never fold when calling is as good)."""


@dataclass(frozen=True, slots=True)
class _Plan:
    """The tree flattened for fast passes: per node, what the loops need."""

    num_nodes: int
    root_shape: tuple[int, int]
    # decision nodes in pre-order: (node, decision index, player, children, expand factors)
    decisions: tuple[tuple[int, int, int, tuple[int, ...], tuple[int, ...]], ...]
    # per node (reverse order used): kind, player, children, expand factors, decision index
    kind: tuple[int, ...]
    player: tuple[int, ...]
    children: tuple[tuple[int, ...], ...]
    expands: tuple[tuple[int, ...], ...]
    decision_index: tuple[int, ...]
    matrix: tuple[np.ndarray | None, ...]  # the round's fold or showdown matrix at terminals (shared)
    coef0: tuple[float, ...]  # position 0's payoff = coef0 * matrix
    coef1: tuple[float, ...]  # position 1's payoff = coef1 * matrix^T, folded into a sign: fold matrices
    # are symmetric in the two hands, showdown matrices antisymmetric, so matrix^T = +-matrix
    preference: tuple[tuple[int, ...], ...]  # per decision index: action indices in tie order


@cache
def _plan(tree: GameTree) -> _Plan:
    nodes = tree.nodes
    kinds: list[int] = []
    players: list[int] = []
    children: list[tuple[int, ...]] = []
    expands: list[tuple[int, ...]] = []
    dindex: list[int] = []
    mats: list[np.ndarray | None] = []
    coef0: list[float] = []
    coef1: list[float] = []
    decisions: list[tuple[int, int, int, tuple[int, ...], tuple[int, ...]]] = []
    preference: list[tuple[int, ...]] = []
    for n in nodes:
        kinds.append(int(n.kind))
        players.append(n.player)
        children.append(n.children)
        ex = tuple(tree.expand[c] for c in n.children)
        expands.append(ex)
        dindex.append(n.decision_index)
        if n.kind is NodeKind.DECISION:
            mats.append(None)
            coef0.append(0.0)
            coef1.append(0.0)
            decisions.append((n.index, n.decision_index, n.player, n.children, ex))
            order = [i for t in TIE_PREFERENCE for i, a in enumerate(n.actions) if a.startswith(t)]
            preference.append(tuple(order))
        else:
            if n.kind is NodeKind.FOLD:
                mats.append(tree.fold_matrix[n.round])
                coef0.append(n.coef)
                coef1.append(-n.coef)
            else:
                mats.append(tree.showdown_matrix[n.round])
                coef0.append(n.coef)
                coef1.append(n.coef)
    return _Plan(
        len(nodes),
        (tree.num_boards[0], len(tree.hands)),
        tuple(decisions),
        tuple(kinds),
        tuple(players),
        tuple(children),
        tuple(expands),
        tuple(dindex),
        tuple(mats),
        tuple(coef0),
        tuple(coef1),
        tuple(preference),
    )


def _tree_of(game: GameDef | GameTree) -> GameTree:
    if isinstance(game, GameTree):
        return game
    if isinstance(game, str):  # a catalog name or .game file, as solve_sequence_lp takes
        from showdown.games.catalog import get_game

        game = get_game(game)
    if not isinstance(game, GameDef):
        raise SolverError(f"expected a game (showdown.games.get_game('leduc')) or its GameTree, got {type(game).__name__} {game!r:.40}")
    return build_tree(game)


def _arrays(tree: GameTree, profile: Strategy | Profile) -> Profile:
    """The profile's arrays: a ``Strategy`` converted, or arrays as given, one per decision node."""
    if isinstance(profile, Strategy):
        return strategy_to_arrays(tree, profile)
    if isinstance(profile, (str, bytes, Mapping)) or not isinstance(profile, Sequence) or len(profile) != tree.num_decision_nodes:
        raise SolverError(f"expected a Strategy (e.g. solve_sequence_lp(game).strategy, load_strategy(path)) or a profile of "
                          f"{tree.num_decision_nodes} arrays, one per decision node; got {type(profile).__name__} {profile!r:.40}")
    return profile


def reach_probabilities(tree: GameTree, profile: Profile) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Each player's own reach probability at every node, as ``(boards, hands)`` arrays (chance excluded)."""
    plan = _plan(tree)
    r0: list[np.ndarray] = [None] * plan.num_nodes  # type: ignore[list-item]
    r1: list[np.ndarray] = [None] * plan.num_nodes  # type: ignore[list-item]
    r0[0] = np.ones(plan.root_shape)
    r1[0] = r0[0]
    for n, d, p, kids, ex in plan.decisions:
        mine, other = (r0, r1) if p == 0 else (r1, r0)
        weighted = mine[n][:, :, None] * profile[d]
        base = other[n]
        for a, c in enumerate(kids):
            f = ex[a]
            if f == 1:
                mine[c] = weighted[:, :, a]
                other[c] = base
            else:
                mine[c] = np.repeat(weighted[:, :, a], f, axis=0)
                other[c] = np.repeat(base, f, axis=0)
    return r0, r1


def _backward(
    tree: GameTree, r0: list[np.ndarray], r1: list[np.ndarray], profile: Profile | None, want_choice: bool
) -> tuple[list[np.ndarray], list[np.ndarray], dict[int, np.ndarray]]:
    """Counterfactual values of both players; best responses when ``profile`` is None, else on-policy."""
    plan = _plan(tree)
    v0: list[np.ndarray] = [None] * plan.num_nodes  # type: ignore[list-item]
    v1: list[np.ndarray] = [None] * plan.num_nodes  # type: ignore[list-item]
    choice: dict[int, np.ndarray] = {}
    matmul = np.matmul
    for n in range(plan.num_nodes - 1, -1, -1):
        kids = plan.children[n]
        if not kids:
            m = plan.matrix[n]
            v0[n] = plan.coef0[n] * matmul(m, r1[n][:, :, None])[:, :, 0]  # type: ignore[arg-type]
            v1[n] = plan.coef1[n] * matmul(m, r0[n][:, :, None])[:, :, 0]  # type: ignore[arg-type]
            continue
        ex = plan.expands[n]
        c0 = []
        c1 = []
        for a, c in enumerate(kids):
            f = ex[a]
            x0, x1 = v0[c], v1[c]
            if f != 1:
                b = x0.shape[0] // f
                x0 = x0.reshape(b, f, -1).sum(axis=1)
                x1 = x1.reshape(b, f, -1).sum(axis=1)
            c0.append(x0)
            c1.append(x1)
        p = plan.player[n]
        mine, other = (c0, c1) if p == 0 else (c1, c0)
        if profile is None:
            stacked = np.stack(mine, axis=-1)
            best = stacked.max(axis=-1)
            if want_choice:
                choice[plan.decision_index[n]] = _choose(stacked, best, plan.preference[plan.decision_index[n]])
        else:
            stacked = np.stack(mine, axis=-1)
            best = (stacked * profile[plan.decision_index[n]]).sum(axis=-1)
        total = other[0]
        for x in other[1:]:
            total = total + x
        if p == 0:
            v0[n], v1[n] = best, total
        else:
            v0[n], v1[n] = total, best
    return v0, v1, choice


def _choose(stacked: np.ndarray, best: np.ndarray, preference: tuple[int, ...]) -> np.ndarray:
    """Index of the chosen action per cell: the first in ``preference`` within rounding of the best.

    The tolerance is relative to the cell's values, which may be tiny (trembled beliefs).
    """
    tol = 1e-10 * np.abs(stacked).max(axis=-1)
    chosen = np.full(best.shape, -1, dtype=np.int64)
    for a in preference:
        take = (chosen < 0) & (stacked[:, :, a] >= best - tol)
        chosen[take] = a
    return chosen


@dataclass(frozen=True, slots=True)
class BestResponse:
    """A best response of ``player`` to the other player's fixed strategy.

    ``value`` is the best responder's expected chips per hand; ``arrays`` are behavioural arrays
    (one-hot at the player's nodes, the opponent's fixed strategy elsewhere).
    """

    player: int
    value: float
    arrays: Profile

    def strategy(self, game: GameDef | GameTree) -> Strategy:
        """The best response as a ``Strategy`` over the player's information sets."""
        return arrays_to_strategy(_tree_of(game), self.arrays, players=(self.player,))


def best_response(
    game: GameDef | GameTree, profile: Strategy | Profile, player: int, *, tremble: float = 0.0
) -> BestResponse:
    """Exact best response of ``player`` to the other player's strategy in ``profile``.

    With ``tremble > 0`` the opponent is taken to play ``(1 - tremble) * strategy + tremble * uniform``:
    this gives beliefs at information sets the opponent's strategy never reaches (used to give
    unreached information sets sensible actions); ``value`` is then against the perturbed opponent.
    """
    tree = _tree_of(game)
    arrays = _arrays(tree, profile)
    if tremble:
        arrays = _trembled(tree, arrays, 1 - player, tremble)
    r0, r1 = reach_probabilities(tree, arrays)
    v0, v1, choice = _backward(tree, r0, r1, None, True)
    value = float((v0 if player == 0 else v1)[0].sum())
    out = list(arrays)
    for d, idx in choice.items():
        if tree.decision(d).player == player:
            one_hot = np.zeros(arrays[d].shape)
            np.put_along_axis(one_hot, idx[:, :, None], 1.0, axis=-1)
            out[d] = one_hot
    return BestResponse(player, value, out)


def _trembled(tree: GameTree, arrays: Profile, player: int, tremble: float) -> Profile:
    out = list(arrays)
    for d in range(tree.num_decision_nodes):
        if tree.decision(d).player == player:
            k = arrays[d].shape[-1]
            out[d] = (1.0 - tremble) * arrays[d] + tremble / k
    return out


def best_response_values(game: GameDef | GameTree, profile: Strategy | Profile) -> tuple[float, float]:
    """(position 0's best-response value against position 1's strategy, position 1's against position 0's)."""
    tree = _tree_of(game)
    arrays = _arrays(tree, profile)
    r0, r1 = reach_probabilities(tree, arrays)
    v0, v1, _ = _backward(tree, r0, r1, None, False)
    return float(v0[0].sum()), float(v1[0].sum())


def expected_value(game: GameDef | GameTree, profile: Strategy | Profile) -> float:
    """Position 0's expected chips per hand when both players follow ``profile``."""
    tree = _tree_of(game)
    arrays = _arrays(tree, profile)
    r0, r1 = reach_probabilities(tree, arrays)
    plan = _plan(tree)
    total = 0.0
    for n in range(plan.num_nodes):
        m = plan.matrix[n]
        if m is not None:
            total += plan.coef0[n] * float(np.einsum("bi,bij,bj->", r0[n], m, r1[n]))
    return total


def counterfactual_values(
    game: GameDef | GameTree, profile: Strategy | Profile
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Each position's counterfactual value at every node under ``profile``, as ``(boards, hands)`` arrays.

    The value of a cell is the player's expected chips from that node on, weighted by chance and the
    opponent's reach (not the player's own): the quantity CFR's regrets are built from. Summing the
    root's cells gives the expected value.
    """
    tree = _tree_of(game)
    arrays = _arrays(tree, profile)
    r0, r1 = reach_probabilities(tree, arrays)
    v0, v1, _ = _backward(tree, r0, r1, arrays, False)
    return v0, v1


def nash_conv(game: GameDef | GameTree, profile: Strategy | Profile) -> float:
    """Sum over both players of the gain of a best response over the profile (``BR_0 + BR_1``)."""
    br0, br1 = best_response_values(game, profile)
    return br0 + br1


def exploitability(game: GameDef | GameTree, profile: Strategy | Profile) -> float:
    """``(BR_0 + BR_1) / 2`` in chips per hand: OpenSpiel's ``exploitability`` (NashConv / 2).

    ``BR_p`` is the expected value of a best response of position ``p`` against the other position's
    strategy in the profile; the profile must cover every information set of both players.
    """
    return nash_conv(game, profile) / 2.0


def complete_unreached(
    game: GameDef | GameTree, profile: Profile, undefined: list[np.ndarray], *, tremble: float = 1e-6, rounds: int = 2
) -> Profile:
    """Give the cells marked ``undefined`` (per decision node, ``(boards, hands)`` bool) best-response actions.

    Each player's undefined cells get a best response to the other player's strategy perturbed by
    ``tremble`` (so information sets the opponent never reaches still get beliefs); alternating
    ``rounds`` times lets both players' undefined parts settle. Only cells a player itself never
    reaches should be passed: there the change cannot alter any payoff, so an equilibrium stays one.
    """
    tree = _tree_of(game)
    out = list(profile)
    for d, mask in enumerate(undefined):
        if mask.any():
            k = out[d].shape[-1]
            out[d] = out[d].copy()
            out[d][mask] = 1.0 / k
    if not any(m.any() for m in undefined):
        return out
    for _ in range(rounds):
        for player in (0, 1):
            br = best_response(tree, out, player, tremble=tremble)
            for d, mask in enumerate(undefined):
                if tree.decision(d).player == player and mask.any():
                    out[d] = out[d].copy()
                    out[d][mask] = br.arrays[d][mask]
    return out


__all__ = [
    "BestResponse",
    "best_response",
    "best_response_values",
    "complete_unreached",
    "counterfactual_values",
    "expected_value",
    "exploitability",
    "nash_conv",
    "reach_probabilities",
]

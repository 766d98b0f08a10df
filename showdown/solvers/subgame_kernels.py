"""Compiled CFR+ pass of a re-solved subgame (numba): one vector over every holding per public node.

The subgame is a public tree in breadth-first order (each node's children consecutive, after it):
decisions, folds, showdowns, and chance nodes dealing one more board card (the river of a turn
subgame), whose children are one subtree per card. Each holding's reach is carried per node and
player; at a chance node a child keeps the holdings its card does not block (``masks``) and passes
its values back weighted by ``weight`` (one over the cards a pair of holdings leaves). Terminal
values sum the opponent's reach over the holdings that share no card with ours, in O(holdings):
at a showdown one sweep in strength order with a running sum per card (inclusion-exclusion: a
two-card holding shares both cards only with itself), at a fold the total minus each card's sum.

The pass is the CFR+ update of Tammelin 2014 for one player (regrets floored at zero, the average
weighted by the iteration number), on the current strategies of both (regret matching). Importing
this module loads numba (about half a second): the agents import it only when they search.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _card_sums(opp: np.ndarray, cards: np.ndarray, per_card: np.ndarray) -> float:
    """Total reach, and into ``per_card[c]`` the reach of the holdings holding card ``c``."""
    per_card[:] = 0.0
    total = 0.0
    for h in range(opp.shape[0]):
        total += opp[h]
        for j in range(cards.shape[1]):
            per_card[cards[h, j]] += opp[h]
    return total


@njit(cache=True, nogil=True)
def fold_values(opp: np.ndarray, cards: np.ndarray, gain: float, out: np.ndarray, per_card: np.ndarray) -> None:
    """``out[h] = gain * D(h)``: D the opponent reach over holdings disjoint from ``h``."""
    total = _card_sums(opp, cards, per_card)
    two = cards.shape[1] == 2
    for h in range(opp.shape[0]):
        d = total - per_card[cards[h, 0]]
        if two:
            d += opp[h] - per_card[cards[h, 1]]
        out[h] = gain * d


@njit(cache=True, nogil=True)
def _showdown_values(
    opp: np.ndarray, cards: np.ndarray, group_end: np.ndarray, win: float, lose: float, out: np.ndarray, scratch: np.ndarray
) -> None:
    """``out[h] = win * W(h) - lose * L(h)`` by one sweep over the tie groups in increasing strength."""
    card_total, card_below = scratch[0], scratch[1]
    total = _card_sums(opp, cards, card_total)
    card_below[:] = 0.0
    two = cards.shape[1] == 2
    below = 0.0  # reach of the holdings weaker than the current tie group
    i = 0
    while i < opp.shape[0]:
        end = group_end[i]
        for h in range(i, end):  # weaker and disjoint: W
            w = below - card_below[cards[h, 0]]
            if two:
                w -= card_below[cards[h, 1]]
            out[h] = win * w
        for h in range(i, end):
            below += opp[h]
            card_below[cards[h, 0]] += opp[h]
            if two:
                card_below[cards[h, 1]] += opp[h]
        for h in range(i, end):  # stronger and disjoint: L
            c = cards[h, 0]
            stronger = total - below - (card_total[c] - card_below[c])
            if two:
                c = cards[h, 1]
                stronger -= card_total[c] - card_below[c]
            out[h] -= lose * stronger
        i = end



DECISION, FOLD_END, SHOWDOWN, CHANCE, LEAF = 0, 1, 2, 3, 4
"""Node kinds (the first three as in ``solvers.betting``); a LEAF ends a depth-limited subgame, its
value per pair of holdings given (``leaves[board[n]]``, ``solvers.depth_limited``)."""


@njit(cache=True, nogil=True)
def _matching(regret: np.ndarray, row: int, count: int, out: np.ndarray) -> None:
    """Rows ``row .. row + count`` of ``out``: regret matching of CFR+ regrets (never negative), per holding."""
    hh = regret.shape[1]
    for h in range(hh):
        total = 0.0
        for a in range(count):
            total += regret[row + a, h]
        for a in range(count):
            out[row + a, h] = regret[row + a, h] / total if total > 0 else 1.0 / count


@njit(cache=True, nogil=True)
def showdown_values(
    opp: np.ndarray, sorted_cards: np.ndarray, order: np.ndarray, group_end: np.ndarray, win: float, lose: float,
    out: np.ndarray, scratch: np.ndarray,
) -> None:
    """``out[h] = win * W(h) - lose * L(h)``: W, L the opponent reach over disjoint weaker / stronger
    holdings; ``order`` lists the holdings by increasing strength (``sorted_cards`` their cards),
    ``group_end[i]`` is one past the last place of the tie group at place ``i``; ``scratch`` (4, H)."""
    n = order.shape[0]
    sorted_opp = scratch[2, :n]
    sorted_out = scratch[3, :n]
    for i in range(n):
        sorted_opp[i] = opp[order[i]]
    _showdown_values(sorted_opp, sorted_cards, group_end, win, lose, sorted_out, scratch[:2])
    for i in range(n):
        out[order[i]] = sorted_out[i]


@njit(cache=True, nogil=True)
def _reach_down(
    kind: np.ndarray, player: np.ndarray, first: np.ndarray, count: np.ndarray, row: np.ndarray, board: np.ndarray,
    masks: np.ndarray, sigma: np.ndarray, reach: np.ndarray, root_reach: np.ndarray,
) -> None:
    """Both players' reach at every node from the root's, the strategies and the chance masks."""
    hh = reach.shape[2]
    reach[0, 0, :] = root_reach[0]
    reach[0, 1, :] = root_reach[1]
    for n in range(kind.shape[0]):
        f, m = first[n], count[n]
        if kind[n] == DECISION:
            actor = player[n]
            for a in range(m):
                c = f + a
                for h in range(hh):
                    reach[c, 0, h] = reach[n, 0, h]
                    reach[c, 1, h] = reach[n, 1, h]
                    reach[c, actor, h] *= sigma[row[n] + a, h]
        elif kind[n] == CHANCE:
            for a in range(m):
                c = f + a
                mask = masks[board[c]]
                for h in range(hh):
                    reach[c, 0, h] = reach[n, 0, h] * mask[h]
                    reach[c, 1, h] = reach[n, 1, h] * mask[h]


@njit(cache=True, nogil=True)
def _decision_up(
    n: int, first: int, count: int, row: int, mine: bool, regret: np.ndarray, average: np.ndarray, sigma: np.ndarray,
    reach: np.ndarray, values: np.ndarray, t: float, best_response: bool,
) -> None:
    """The values at decision ``n`` from its children's; at the updating player's (``mine``) its regrets
    and average move too, unless ``best_response`` (then the best action's value is taken)."""
    hh = values.shape[1]
    out = values[n]
    if not mine:
        out[:] = 0.0
        for a in range(count):
            for h in range(hh):
                out[h] += values[first + a, h]
    elif best_response:
        for h in range(hh):
            best = values[first, h]
            for a in range(1, count):
                best = max(best, values[first + a, h])
            out[h] = best
    else:
        for h in range(hh):
            v = 0.0
            for a in range(count):
                v += sigma[row + a, h] * values[first + a, h]
            out[h] = v
            weight = t * reach[h]
            for a in range(count):
                regret[row + a, h] = max(regret[row + a, h] + values[first + a, h] - v, 0.0)
                average[row + a, h] += weight * sigma[row + a, h]


@njit(cache=True, nogil=True)
def _leaf_values(pairs: np.ndarray, other: np.ndarray, p: int, out: np.ndarray) -> None:
    """``p``'s counterfactual values at a leaf: the pair values (the first player's) against the other's reach."""
    hh = out.shape[0]
    for h in range(hh):
        v = 0.0
        if p == 0:
            for o in range(hh):
                v += pairs[h, o] * other[o]
        else:
            for o in range(hh):
                v -= pairs[o, h] * other[o]
        out[h] = v


@njit(cache=True, nogil=True)
def _end_value(
    n: int, kind: np.ndarray, player: np.ndarray, first: np.ndarray, count: np.ndarray, board: np.ndarray,
    spent: np.ndarray, weight: np.ndarray, cards: np.ndarray, sorted_cards: np.ndarray, order: np.ndarray,
    group_end: np.ndarray, masks: np.ndarray, other: np.ndarray, p: int, values: np.ndarray, scratch: np.ndarray,
) -> None:
    """``p``'s values at fold, showdown or chance node ``n`` into ``values[n]`` (``other``: the other
    player's reach there; a chance node's children already valued): shared by both passes."""
    q = 1 - p
    out = values[n]
    k = kind[n]
    if k == FOLD_END:
        gain = -spent[n, p] if player[n] == p else spent[n, q]
        fold_values(other, cards, gain, out, scratch[0, : cards.max() + 1])
    elif k == SHOWDOWN:
        b = board[n]
        showdown_values(other, sorted_cards[b], order[b], group_end[b], spent[n, q], spent[n, p], out, scratch)
    elif k == CHANCE:
        out[:] = 0.0
        for a in range(count[n]):
            c = first[n] + a
            mask = masks[board[c]]
            for h in range(out.shape[0]):
                out[h] += weight[n] * mask[h] * values[c, h]


@njit(cache=True, nogil=True)
def cfr_pass(
    kind: np.ndarray, player: np.ndarray, first: np.ndarray, count: np.ndarray, row: np.ndarray,
    board: np.ndarray, spent: np.ndarray, weight: np.ndarray,
    cards: np.ndarray, sorted_cards: np.ndarray, order: np.ndarray, group_end: np.ndarray, masks: np.ndarray,
    regret: np.ndarray, average: np.ndarray, sigma: np.ndarray, reach: np.ndarray, values: np.ndarray,
    root_reach: np.ndarray, p: int, t: float, best_response: bool, leaves: np.ndarray,
) -> None:
    """One pass for player ``p``: the current strategies from the regrets, both players' reach down the
    tree from ``root_reach`` (2, H), then ``p``'s counterfactual values up it into ``values`` (nodes, H),
    updating ``p``'s regrets and average (weight ``t``) on the way. With ``best_response`` nothing is
    updated and ``p`` takes its best action per holding (its best-response values). ``leaves`` (L, H,
    H): the first player's chips won per pair of holdings at each LEAF (zero where they share a card)."""
    nodes, hh = values.shape
    scratch = np.zeros((4, max(cards.max() + 1, hh)), dtype=np.float64)
    for n in range(nodes):
        if kind[n] == DECISION:
            _matching(regret, row[n], count[n], sigma)
    _reach_down(kind, player, first, count, row, board, masks, sigma, reach, root_reach)
    q = 1 - p
    for n in range(nodes - 1, -1, -1):
        k = kind[n]
        if k == LEAF:
            _leaf_values(leaves[board[n]], reach[n, q], p, values[n])
        elif k != DECISION:
            _end_value(n, kind, player, first, count, board, spent, weight, cards, sorted_cards, order, group_end, masks,
                       reach[n, q], p, values, scratch)
        else:
            _decision_up(n, first[n], count[n], row[n], player[n] == p, regret, average, sigma, reach[n, p], values, t, best_response)


@njit(cache=True, nogil=True)
def _other_reach_down(
    kind: np.ndarray, player: np.ndarray, first: np.ndarray, count: np.ndarray, row: np.ndarray, board: np.ndarray,
    masks: np.ndarray, sigma: np.ndarray, reach: np.ndarray, q: int,
) -> None:
    """Player ``q``'s reach at every node ((nodes, H), the root's given) from its strategies and the masks."""
    hh = reach.shape[1]
    for n in range(kind.shape[0]):
        f, m = first[n], count[n]
        if kind[n] == DECISION:
            acting = player[n] == q
            for a in range(m):
                for h in range(hh):
                    reach[f + a, h] = reach[n, h] * sigma[row[n] + a, h] if acting else reach[n, h]
        elif kind[n] == CHANCE:
            for a in range(m):
                mask = masks[board[f + a]]
                for h in range(hh):
                    reach[f + a, h] = reach[n, h] * mask[h]


@njit(cache=True, nogil=True)
def _decision_value(values: np.ndarray, n: int, f: int, m: int, row: int, mine: bool, sigma: np.ndarray, best_response: bool) -> None:
    """The value at decision ``n`` from its children's: summed at the other's, at ours the strategy's
    average, or with ``best_response`` the best action's."""
    hh = values.shape[1]
    out = values[n]
    for h in range(hh):
        v = 0.0
        if not mine:
            for a in range(m):
                v += values[f + a, h]
        elif best_response:
            v = values[f, h]
            for a in range(1, m):
                v = max(v, values[f + a, h])
        else:
            for a in range(m):
                v += sigma[row + a, h] * values[f + a, h]
        out[h] = v


@njit(cache=True, nogil=True)
def strategy_pass(
    kind: np.ndarray, player: np.ndarray, first: np.ndarray, count: np.ndarray, row: np.ndarray,
    board: np.ndarray, spent: np.ndarray, weight: np.ndarray,
    cards: np.ndarray, sorted_cards: np.ndarray, order: np.ndarray, group_end: np.ndarray, masks: np.ndarray,
    sigma: np.ndarray, reach: np.ndarray, values: np.ndarray, other_root: np.ndarray, p: int, best_response: bool,
) -> None:
    """``p``'s counterfactual values into ``values`` (nodes, H) when both play the given strategies
    (``sigma``: probabilities, rows as ``cfr_pass``'s regrets) from the other player's reach at the
    root ``other_root`` (H); with ``best_response``, ``p`` takes its best action per holding. Only the
    other player's reach is carried (``reach``, (nodes, H)) and nothing is updated: an evaluation, at
    about half the cost of a CFR pass (no LEAF nodes)."""
    hh = values.shape[1]
    scratch = np.zeros((4, max(cards.max() + 1, hh)), dtype=np.float64)
    q = 1 - p
    reach[0, :] = other_root
    _other_reach_down(kind, player, first, count, row, board, masks, sigma, reach, q)
    for n in range(kind.shape[0] - 1, -1, -1):
        if kind[n] != DECISION:
            _end_value(n, kind, player, first, count, board, spent, weight, cards, sorted_cards, order, group_end, masks,
                       reach[n], p, values, scratch)
        else:
            _decision_value(values, n, first[n], count[n], row[n], player[n] == p, sigma, best_response)


@njit(cache=True, nogil=True)
def bucket_rows(sigma: np.ndarray, at: int, table: np.ndarray, buckets: np.ndarray) -> None:
    """Rows ``at ..`` of ``sigma`` from a bucketed strategy: for each card ``s`` of ``buckets`` ((cards,
    H), each holding's bucket), the table's rows ((rows, buckets)) read at the holdings' buckets."""
    rows = table.shape[0]
    for s in range(buckets.shape[0]):
        for j in range(rows):
            out = sigma[at + s * rows + j]
            for h in range(buckets.shape[1]):
                out[h] = table[j, buckets[s, h]]


def warm_up() -> None:
    """Compile (or load from numba's cache) the passes with the argument types the solver gives them,
    on a three-node tree, so that no decision pays for it."""
    i64, f32 = np.int64, np.float32
    z = np.zeros
    tree = (
        np.array([DECISION, FOLD_END, SHOWDOWN], dtype=i64), z(3, dtype=i64), np.array([1, -1, -1], dtype=i64),
        np.array([2, 0, 0], dtype=i64), np.array([0, -1, -1], dtype=i64), z(3, dtype=i64), np.ones((3, 2)), z(3),
        np.array([[0, 1], [2, 3]], dtype=i64), np.array([[[0, 1], [2, 3]]], dtype=i64), np.array([[0, 1]], dtype=i64), np.array([[1, 2]], dtype=i64),
        np.ones((1, 2), dtype=f32),
    )
    cfr_pass(
        *tree, z((2, 2), dtype=f32), z((2, 2), dtype=f32), z((2, 2), dtype=f32),
        z((3, 2, 2), dtype=f32), z((3, 2), dtype=f32), np.ones((2, 2), dtype=f32), 0, 1.0, False, z((1, 2, 2), dtype=f32),
    )
    strategy_pass(*tree, np.ones((2, 2), dtype=f32), z((3, 2), dtype=f32), z((3, 2), dtype=f32), np.ones(2, dtype=f32), 0, False)
    bucket_rows(z((2, 2), dtype=f32), 0, np.ones((2, 1), dtype=f32), z((1, 2), dtype=i64))


__all__ = ["CHANCE", "DECISION", "FOLD_END", "LEAF", "SHOWDOWN", "bucket_rows", "cfr_pass", "fold_values", "showdown_values", "strategy_pass", "warm_up"]

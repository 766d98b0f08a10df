"""The plain-numpy PCS pass the compiled kernel replaced, in float64: the test oracle of ``kernels.pcs_pass``.

Level by level over the whole tree (reach down, values up) with the batched card-removal sums of
``holdings.RankedBoard.win_lose`` and ``disjoint_sums``; slow and memory-hungry, but written from the
paper's formulas with numpy operations only.
"""

from __future__ import annotations

import numpy as np

from showdown.solvers.betting import DECISION, FOLD_END, SHOWDOWN
from showdown.solvers.holdings import RankedBoard, disjoint_sums
from showdown.solvers.pcs import PCSSolver


def _level_groups(solver: PCSSolver, lo: int, hi: int) -> list[tuple[np.ndarray, int, int]]:
    tree = solver.tree
    nodes = np.arange(lo, hi)
    nodes = nodes[tree.kind[nodes] == DECISION]
    out = []
    for r in np.unique(tree.round[nodes]):
        for actor in (0, 1):
            sel = nodes[(tree.round[nodes] == r) & (tree.player[nodes] == actor)]
            if len(sel):
                out.append((sel, int(r), actor))
    return out


def _terminal_values(solver: PCSSolver, p: int, opp: np.ndarray, ranked: RankedBoard, values: np.ndarray) -> None:
    tree = solver.tree
    spent = tree.spent
    folds = np.flatnonzero(tree.kind == FOLD_END)
    showdowns = np.flatnonzero(tree.kind == SHOWDOWN)
    if len(folds):
        folder = tree.player[folds]
        gain = np.where(folder == p, -spent[folds, p], spent[folds, 1 - p]).astype(float)
        values[folds] = disjoint_sums(solver.holdings, opp[folds]) * gain[:, None]
    if len(showdowns):
        win, lose = ranked.win_lose(opp[showdowns])
        values[showdowns] = win * spent[showdowns, 1 - p][:, None] - lose * spent[showdowns, p][:, None]


def oracle_pass(solver: PCSSolver, p: int, buckets: np.ndarray, ranked: RankedBoard, delta: np.ndarray) -> None:
    """What ``PCSSolver._pass`` computes, in numpy: regrets into ``delta``, average weights into ``solver.average``."""
    tree, lay = solver.tree, solver.layout
    nn, hh, na = tree.num_nodes, solver.holdings.size, tree.max_actions
    nb = solver.abstraction.num_buckets
    valid = (~ranked.blocked).astype(float)
    own = np.empty((nn, hh))
    opp = np.empty((nn, hh))
    own[0] = valid
    opp[0] = valid
    strategy = solver._current_strategy()
    onehot = [np.eye(n)[buckets[r]] * valid[:, None] for r, n in enumerate(nb)]
    saved = {}
    for lo, hi in tree.levels:
        level = []
        for nodes, r, actor in _level_groups(solver, lo, hi):
            block = strategy[lay.base[nodes][:, None] + np.arange(nb[r])[None, :]].transpose(0, 2, 1)  # (n, A, buckets)
            sigma = block[:, :, buckets[r]]  # (n, A, H)
            mine = actor == p
            level.append((nodes, r, block, sigma, mine))
            moving, fixed = (own, opp) if mine else (opp, own)
            for a in range(na):
                child = tree.children[nodes, a]
                ok = child >= 0
                moving[child[ok]] = moving[nodes[ok]] * sigma[ok, a]
                fixed[child[ok]] = fixed[nodes[ok]]
        saved[lo] = level
    values = np.zeros((nn + 1, hh))
    _terminal_values(solver, p, opp, ranked, values)
    values[:nn] *= valid
    weight = float(solver.iterations)
    for lo, _hi in reversed(tree.levels):
        for nodes, r, block, sigma, mine in saved[lo]:
            kids = tree.children[nodes]
            kv = values[np.where(kids >= 0, kids, nn)]  # (n, A, H)
            if not mine:
                values[nodes] = kv.sum(axis=1)
                continue
            values[nodes] = np.einsum("nah,nah->nh", kv, sigma)
            n = len(nodes)
            kvb = (kv.reshape(n * na, hh) @ onehot[r]).reshape(n, na, nb[r])
            vb = (kvb * block).sum(axis=1)
            reach_b = own[nodes] @ onehot[r]
            rows = lay.base[nodes][:, None] + np.arange(nb[r])[None, :]
            legal = kids >= 0
            for a in range(na):
                la = legal[:, a]
                delta[rows[la], a] += (kvb[:, a] - vb)[la]
                solver.average[rows[la], a] += weight * (reach_b * block[:, a])[la]

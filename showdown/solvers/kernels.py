"""Compiled inner loops of the solvers (numba): the public-chance-sampling CFR+ pass, and exact CFR in
N-player games (``exact_cfr_iterations``, the ``multiplayer.MultiCFRSolver`` update).

Import this module only where a solver runs: importing numba takes about half a second, which the
dealer, the agents and the command line must not pay. The compiled code is cached next to this file
(``__pycache__``, numba's ``cache=True``) so only the first run after an install compiles (a few
seconds); where that folder is read-only numba falls back to a per-user cache directory.

``pcs_pass`` is the per-board pass of Johanson et al. 2012 ("Efficient Nash equilibrium approximation
through Monte Carlo counterfactual regret minimization"): a depth-first walk of the abstract betting
tree carrying one reach vector per player over the private holdings ``h`` the board leaves possible,
held in increasing hand strength. At a terminal node the counterfactual value of each holding sums
the opponent's reach over the holdings that share no card with it: ``u(h) = spent_opp * W(h) -
spent_own * L(h)`` at a showdown, where ``W``/``L`` are the disjoint weaker/stronger holdings' reach,
found with one sweep in strength order plus a running sum per card (inclusion-exclusion: a two-card
holding shares both cards only with itself), and ``u(h) = gain * D(h)`` at a fold, ``D`` the disjoint
reach. Memory is a few vectors per tree level.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from showdown.solvers.betting import FOLD_END, SHOWDOWN

Tree = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
Board = tuple[np.ndarray, np.ndarray, np.ndarray]
Buffers = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
Solver = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


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
def _fold_values(opp: np.ndarray, cards: np.ndarray, gain: float, out: np.ndarray, per_card: np.ndarray) -> None:
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


@njit(cache=True, nogil=True)
def _regret_matching(regret: np.ndarray, legal: np.ndarray, row0: int, nb: int, out: np.ndarray) -> None:
    """Rows ``row0 .. row0 + nb`` of ``pcs.regret_matching``: sigma proportional to positive regret (Hart and
    Mas-Colell 2000), uniform over the legal actions where none is positive. Same operations, same bits."""
    na = regret.shape[1]
    for b in range(nb):
        total = 0.0
        for a in range(na):
            out[b, a] = max(regret[row0 + b, a], 0.0)
            total += out[b, a]
        if total > 0:
            for a in range(na):
                out[b, a] /= total
        else:
            count = 0.0
            for a in range(na):
                if legal[row0 + b, a]:
                    count += 1.0
            for a in range(na):
                out[b, a] = 1.0 / count if legal[row0 + b, a] else 0.0


@njit(cache=True, nogil=True)
def _regret_update(
    row0: int, nb: int, legal: np.ndarray, sums: np.ndarray, sigma: np.ndarray, weight: float, delta: np.ndarray, average: np.ndarray
) -> None:
    """Per bucket b: regret sum_h v_a(h) - sum_a' sigma_a' sum_h v_a'(h), and average weight sigma_a * reach_b."""
    na = legal.shape[0]
    for b in range(nb):
        row = row0 + b
        on_policy = 0.0
        for a in range(na):
            if legal[a]:
                on_policy += sigma[b, a] * sums[a, b]
        for a in range(na):
            if legal[a]:
                delta[row, a] += sums[a, b] - on_policy
                average[row, a] += weight * sums[na, b] * sigma[b, a]


@njit(cache=True, nogil=True)
def _enter(node: int, d: int, p: int, tree: Tree, board: Board, regret: np.ndarray, legal: np.ndarray, buffers: Buffers) -> bool:
    """Arrive at ``node`` (depth ``d``, reaches set): a terminal's values into ``values[d]`` (True), or a
    decision's current strategy worked out and its accumulators cleared (False)."""
    children, kind, player, rounds, spent, base, num_buckets = tree
    cards, group_end, buckets = board
    reach, values, _, bucket_sums, scratch, rows = buffers
    out = values[d]
    if kind[node] == FOLD_END:
        gain = -spent[node, p] if player[node] == p else spent[node, 1 - p]
        _fold_values(reach[d, 1], cards, float(gain), out, scratch[0])
        return True
    if kind[node] == SHOWDOWN:
        _showdown_values(reach[d, 1], cards, group_end, float(spent[node, 1 - p]), float(spent[node, p]), out, scratch)
        return True
    out[:] = 0.0
    _regret_matching(regret, legal, base[node], num_buckets[rounds[node]], rows[d])
    if player[node] == p:  # bucket sums of each action's child values, then of own reach
        sums = bucket_sums[d]
        bk = buckets[rounds[node]]
        sums[:, : num_buckets[rounds[node]]] = 0.0
        for h in range(out.shape[0]):
            sums[-1, bk[h]] += reach[d, 0, h]
    return False


@njit(cache=True, nogil=True)
def _descend(node: int, d: int, a: int, p: int, tree: Tree, board: Board, buffers: Buffers) -> None:
    """The reaches after action ``a`` at ``node``: the actor's times sigma_a of its bucket."""
    _, _, player, rounds, _, _, _ = tree
    bk = board[2][rounds[node]]
    reach, _, sigma, _, _, rows = buffers
    moving = 0 if player[node] == p else 1
    sig = sigma[d]
    strategy = rows[d]
    for h in range(sig.shape[0]):
        sig[h] = strategy[bk[h], a]
        reach[d + 1, moving, h] = reach[d, moving, h] * sig[h]
    reach[d + 1, 1 - moving] = reach[d, 1 - moving]


@njit(cache=True, nogil=True)
def _ascend(node: int, d: int, a: int, p: int, tree: Tree, board: Board, buffers: Buffers) -> None:
    """Add action ``a``'s child value (``values[d + 1]``) to ``node``'s: weighted by sigma_a at p's own decisions."""
    _, _, player, rounds, _, _, _ = tree
    _, values, sigma, bucket_sums, _, _ = buffers
    out, kid = values[d], values[d + 1]
    if player[node] != p:
        out += kid
        return
    bk = board[2][rounds[node]]
    sig, sums = sigma[d], bucket_sums[d]
    for h in range(out.shape[0]):
        out[h] += sig[h] * kid[h]
        sums[a, bk[h]] += kid[h]


@njit(cache=True, nogil=True)
def _walk(p: int, tree: Tree, board: Board, solver: Solver, weight: float, buffers: Buffers) -> None:
    """Depth-first over the tree from the root, an explicit stack of (node, action being walked) per depth."""
    children, _, player, rounds, _, base, num_buckets = tree
    regret, legal, delta, average = solver
    na = children.shape[1]
    stack_node = np.zeros(buffers[0].shape[0], dtype=np.int64)
    stack_action = np.full(buffers[0].shape[0], -1, dtype=np.int64)
    _enter(0, 0, p, tree, board, regret, legal, buffers)
    d = 0
    while d >= 0:
        node = stack_node[d]
        a = stack_action[d] + 1
        while a < na and children[node, a] < 0:
            a += 1
        if a == na:  # every action walked: the node's value is complete
            if player[node] == p:
                _regret_update(base[node], num_buckets[rounds[node]], children[node] >= 0, buffers[3][d], buffers[5][d], weight, delta, average)
            d -= 1
            if d >= 0:
                _ascend(stack_node[d], d, stack_action[d], p, tree, board, buffers)
            continue
        stack_action[d] = a
        _descend(node, d, a, p, tree, board, buffers)
        child = children[node, a]
        if _enter(child, d + 1, p, tree, board, regret, legal, buffers):
            _ascend(node, d, a, p, tree, board, buffers)
        else:
            d += 1
            stack_node[d] = child
            stack_action[d] = -1


def pcs_pass(
    p: int,
    tree: Tree,
    cards: np.ndarray,
    strength: np.ndarray,
    buckets: np.ndarray,
    solver: Solver,
    weight: float,
    depth: int,
) -> None:
    """One CFR pass for player ``p`` on one board: regrets into ``delta``, average weights into ``average``.

    ``solver`` = (regret, legal actions, delta, average), one row per information set: the current
    strategy is regret matching on ``regret``; ``weight`` is the average strategy's weight this iteration.

    ``tree`` = (children, kind, player, round, spent, first information set row of each node, buckets
    per round), as ``PCSSolver`` lays them out; ``cards`` (holdings, k), ``strength`` (holdings; -1
    where the board blocks the holding) and ``buckets`` (rounds, holdings) describe the board; ``depth``
    is the tree's deepest level.
    """
    order = np.argsort(strength, kind="stable")
    order = order[strength[order] >= 0]  # the possible holdings, weakest first
    ranked = strength[order]
    board = (
        np.ascontiguousarray(cards[order]),
        np.searchsorted(ranked, ranked, side="right"),  # one past each holding's tie group
        np.ascontiguousarray(buckets[:, order], dtype=np.int64),
    )
    hh = len(order)
    reach = np.zeros((depth + 2, 2, hh))
    reach[0] = 1.0
    buffers = (
        reach,
        np.zeros((depth + 2, hh)),  # values
        np.zeros((depth + 2, hh)),  # the current action's probability per holding
        np.zeros((depth + 2, tree[0].shape[1] + 1, int(tree[6].max()))),  # bucket sums
        np.zeros((2, int(cards.max()) + 1)),  # per-card sums at terminals
        np.zeros((depth + 2, int(tree[6].max()), tree[0].shape[1])),  # the current strategy of each bucket
    )
    _walk(p, tree, board, solver, weight, buffers)


# ---------------------------------------------------------------------- exact N-player CFR (multiplayer.NTree)

NTreeArrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@njit(cache=True, nogil=True)
def _counterfactual_regrets(p: int, tree: NTreeArrays, prob: np.ndarray, reach: np.ndarray, value: np.ndarray, inst: np.ndarray) -> None:
    """Add player p's instantaneous counterfactual regrets (v(child) - v(node)) * others' reach to ``inst``."""
    parent, actor, first_child, num_children, edge, payoff, terminal_index = tree[:7]
    nodes, deals = edge.shape
    reach[0] = 1.0
    for n in range(1, nodes):  # breadth first: parents before children; rows of deals, in memory order
        if actor[parent[n]] != p:
            reach[n] = reach[parent[n]] * prob[n]
        else:
            reach[n] = reach[parent[n]]
    for n in range(nodes - 1, -1, -1):
        if actor[n] < 0:
            value[n] = payoff[p, terminal_index[n]]
            continue
        value[n] = 0.0
        for c in range(first_child[n], first_child[n] + num_children[n]):
            for x in range(deals):
                value[n, x] += value[c, x] * prob[c, x]
    for n in range(nodes):
        if actor[n] == p:
            for c in range(first_child[n], first_child[n] + num_children[n]):
                for x in range(deals):
                    inst[edge[c, x]] += (value[c, x] - value[n, x]) * reach[c, x]


@njit(cache=True, nogil=True)
def exact_cfr_iterations(
    n: int,
    t0: int,
    groups: np.ndarray,
    rule: tuple[bool, float, float, float],
    tree: NTreeArrays,
    regrets: np.ndarray,
    sums: np.ndarray,
    sigma: np.ndarray,
) -> None:
    """``n`` iterations of exact CFR on an ``NTree`` after ``t0`` done: the ``MultiCFRSolver`` update.

    ``groups[g, p]``: player p updates in the g-th step of an iteration (one player a step when the
    updates alternate, all at once otherwise). ``rule`` = (plus, alpha, beta, gamma), NaN for no
    discount: regret matching+ (Tammelin 2014) floors regrets at zero; positive and negative
    regrets are multiplied by t^alpha/(t^alpha+1) and t^beta/(t^beta+1), the average sums by
    (t/(t+1))^gamma (discounted CFR, Brown and Sandholm 2019). The average strategy adds each
    information set's own reach times sigma; sigma is regret matching on the new regrets.
    """
    edge, own_path, legal, infoset_player = tree[4], tree[7], tree[8], tree[9]
    nodes, deals = edge.shape
    rows, actions = regrets.shape
    flat = sigma.reshape(-1)
    prob = np.empty((nodes, deals))
    reach = np.empty((nodes, deals))
    value = np.empty((nodes, deals))
    inst = np.zeros(rows * actions)
    for it in range(n):
        t = t0 + it + 1
        for g in range(groups.shape[0]):
            prob[0] = 1.0
            for m in range(1, nodes):
                for x in range(deals):
                    prob[m, x] = flat[edge[m, x]]
            inst[:] = 0.0
            for p in range(groups.shape[1]):
                if groups[g, p]:
                    _counterfactual_regrets(p, tree, prob, reach, value, inst)
            for i in range(rows):
                if groups[g, infoset_player[i]]:
                    _update_infoset(i, t, rule, own_path, inst, regrets, sums, sigma)
            for i in range(rows):
                if groups[g, infoset_player[i]]:
                    _multiplayer_regret_matching(regrets[i], legal[i], sigma[i])


@njit(cache=True, nogil=True)
def _update_infoset(
    i: int, t: int, rule: tuple[bool, float, float, float], own_path: np.ndarray, inst: np.ndarray, regrets: np.ndarray, sums: np.ndarray, sigma: np.ndarray
) -> None:
    """Information set ``i`` at iteration ``t``: regrets plus ``inst`` (discounted, floored by ``rule``), and the
    average sums plus its own reach (the product of its player's earlier actions' sigma) times sigma."""
    plus, alpha, beta, gamma = rule
    rows, actions = regrets.shape
    flat = sigma.reshape(-1)
    for a in range(actions):
        r = regrets[i, a] + inst[i * actions + a]
        if not np.isnan(alpha):
            r *= t**alpha / (t**alpha + 1.0) if r > 0.0 else t**beta / (t**beta + 1.0)
        regrets[i, a] = max(r, 0.0) if plus else r
    own = 1.0
    for k in range(own_path.shape[1]):
        if own_path[i, k] < rows * actions:
            own *= flat[own_path[i, k]]
    for a in range(actions):
        sums[i, a] += own * sigma[i, a]
        if not np.isnan(gamma):
            sums[i, a] *= (t / (t + 1.0)) ** gamma


@njit(cache=True, nogil=True)
def _multiplayer_regret_matching(regret: np.ndarray, legal: np.ndarray, out: np.ndarray) -> None:
    """``multiplayer.regret_matching`` for one row."""
    total = 0.0
    count = 0.0
    for a in range(regret.shape[0]):
        if legal[a]:
            total += max(regret[a], 0.0)
            count += 1.0
    for a in range(regret.shape[0]):
        if total > 0.0:
            out[a] = max(regret[a], 0.0) / total if legal[a] else 0.0
        else:
            out[a] = 1.0 / count if legal[a] else 0.0

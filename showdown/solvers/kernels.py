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
and ``u(h) = gain * D(h)`` at a fold, ``D`` the disjoint reach. All three come from two prefix sums of
the opponent's reach, one in strength order and one along each card's holdings (inclusion-exclusion:
a two-card holding shares both cards only with itself), as in Johanson et al. 2011 ("Accelerating
best response calculation in large extensive games"); siblings that see the same opponent reach
share them. Memory is a few vectors per tree level.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from showdown.solvers.betting import FOLD_END, SHOWDOWN
from showdown.solvers.ntree import MAX_ACTIONS

Tree = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
Board = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]
Buffers = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
Solver = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]

LANES = 4
"""Running sums kept in ``LANES`` interleaved copies: consecutive holdings often share a bucket or a
card, and one accumulator would make every addition wait for the one before."""


@njit(cache=True, nogil=True)
def _reach_sums(opp: np.ndarray, board: Board, cum: np.ndarray, ccum: np.ndarray) -> None:
    """``cum[i]``: opponent reach of the i weakest holdings; ``ccum[c, k]``: of the k weakest holding card c.

    ``opp`` is zero from the last holding to its end (a multiple of ``LANES`` plus one), and so is
    ``cum`` past it. The strength-order sum runs as ``LANES`` independent stretches, then joined."""
    members = board[3]
    q = (opp.shape[0] - 1) // LANES
    cum[0] = 0.0
    a0 = a1 = a2 = a3 = 0.0
    for i in range(q):
        a0 += opp[i]
        a1 += opp[q + i]
        a2 += opp[2 * q + i]
        a3 += opp[3 * q + i]
        cum[i + 1] = a0
        cum[q + i + 1] = a1
        cum[2 * q + i + 1] = a2
        cum[3 * q + i + 1] = a3
    for s in range(1, LANES):
        base = cum[s * q]
        for i in range(s * q + 1, (s + 1) * q + 1):
            cum[i] += base
    cards, m = members.shape
    ccum[:, 0] = 0.0
    for k in range(m):  # card by card inside: independent sums
        for c in range(cards):
            ccum[c, k + 1] = ccum[c, k] + opp[members[c, k]]


@njit(cache=True, nogil=True)
def _terminal_values(kind: int, win: float, lose: float, opp: np.ndarray, board: Board, cum: np.ndarray, ccum: np.ndarray, out: np.ndarray) -> None:
    """A showdown's ``win * W(h) - lose * L(h)`` or a fold's ``win * D(h)``, from ``_reach_sums``."""
    lo, hi, at, pair = board[1], board[2], board[4], board[5]
    flat = ccum.reshape(-1)
    n = lo.shape[0]
    total = cum[-1]
    if kind == SHOWDOWN:
        for h in range(n):
            w = cum[lo[h]] - flat[at[0, h]] - flat[at[1, h]]
            lost = total - cum[hi[h]] - (flat[at[4, h]] - flat[at[2, h]]) - (flat[at[5, h]] - flat[at[3, h]])
            out[h] = win * w - lose * lost
    else:
        for h in range(n):
            out[h] = win * (total - flat[at[4, h]] - flat[at[5, h]] + pair * opp[h])


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
    row0: int, nb: int, legal: np.ndarray, lanes: np.ndarray, sigma: np.ndarray, weight: float, delta: np.ndarray, average: np.ndarray, floor: bool
) -> None:
    """Per bucket b: regret sum_h v_a(h) - sum_a' sigma_a' sum_h v_a'(h) (added to ``delta``, or to the regret
    floored at zero when ``floor``: CFR+), and average weight sigma_a * reach_b."""
    na = legal.shape[0]
    sums = lanes[0, :, :nb] + lanes[1, :, :nb] + lanes[2, :, :nb] + lanes[3, :, :nb]
    for b in range(nb):
        row = row0 + b
        on_policy = 0.0
        for a in range(na):
            if legal[a]:
                on_policy += sigma[b, a] * sums[a, b]
        for a in range(na):
            if legal[a]:
                if floor:
                    delta[row, a] = max(delta[row, a] + (sums[a, b] - on_policy), 0.0)
                else:
                    delta[row, a] += sums[a, b] - on_policy
                average[row, a] += weight * sums[na, b] * sigma[b, a]


@njit(cache=True, nogil=True)
def _enter(node: int, d: int, p: int, tree: Tree, board: Board, regret: np.ndarray, legal: np.ndarray, buffers: Buffers) -> bool:
    """Arrive at ``node`` (depth ``d``, reaches set): a terminal's values into ``values[d]`` (True), or a
    decision's current strategy worked out and its accumulators cleared (False)."""
    _, kind, player, rounds, spent, base, num_buckets = tree
    reach, source, seen, values, _, bucket_sums, cum, ccum, rows = buffers
    out = values[d]
    if kind[node] == FOLD_END or kind[node] == SHOWDOWN:
        opp = reach[source[d, 1], 1]
        if seen[d] != seen[-1]:  # a new opponent reach since the last terminal
            _reach_sums(opp, board, cum, ccum)
            seen[-1] = seen[d]
        if kind[node] == SHOWDOWN:
            _terminal_values(SHOWDOWN, float(spent[node, 1 - p]), float(spent[node, p]), opp, board, cum, ccum, out)
        else:
            gain = -spent[node, p] if player[node] == p else spent[node, 1 - p]
            _terminal_values(FOLD_END, float(gain), 0.0, opp, board, cum, ccum, out)
        return True
    out[:] = 0.0
    nb = num_buckets[rounds[node]]
    _regret_matching(regret, legal, base[node], nb, rows[d])
    if player[node] == p:  # per-lane bucket sums of each action's child values, then of own reach
        lanes = bucket_sums[d]
        lanes[:, :, :nb] = 0.0
        bk = board[0][rounds[node]]
        own = reach[source[d, 0], 0]
        na = lanes.shape[1] - 1
        for h in range(out.shape[0]):
            lanes[h & (LANES - 1), na, bk[h]] += own[h]
    return False


@njit(cache=True, nogil=True)
def _descend(node: int, d: int, a: int, p: int, tree: Tree, board: Board, buffers: Buffers) -> None:
    """The reaches after action ``a`` at ``node``: the actor's times sigma_a of its bucket (the other's is kept
    where it is: ``source[d, player]`` is the depth holding each player's current reach)."""
    player, rounds = tree[2], tree[3]
    bk = board[0][rounds[node]]
    reach, source, seen, _, sigma, _, _, _, rows = buffers
    moving = 0 if player[node] == p else 1
    sig = sigma[d]
    strategy = rows[d]
    before = reach[source[d, moving], moving]
    after = reach[d + 1, moving]
    for h in range(sig.shape[0]):
        sig[h] = strategy[bk[h], a]
        after[h] = before[h] * sig[h]
    source[d + 1, moving] = d + 1
    source[d + 1, 1 - moving] = source[d, 1 - moving]
    if moving == 1:
        seen[-2] += 1
        seen[d + 1] = seen[-2]
    else:
        seen[d + 1] = seen[d]


@njit(cache=True, nogil=True)
def _ascend(node: int, d: int, a: int, p: int, tree: Tree, board: Board, buffers: Buffers) -> None:
    """Add action ``a``'s child value (``values[d + 1]``) to ``node``'s: weighted by sigma_a at p's own decisions."""
    player, rounds = tree[2], tree[3]
    values, sigma, bucket_sums = buffers[3], buffers[4], buffers[5]
    out, kid = values[d], values[d + 1]
    if player[node] != p:
        out += kid
        return
    bk = board[0][rounds[node]]
    sig, lanes = sigma[d], bucket_sums[d]
    for h in range(out.shape[0]):
        out[h] += sig[h] * kid[h]
        lanes[h & (LANES - 1), a, bk[h]] += kid[h]


@njit(cache=True, nogil=True)
def _walk(p: int, tree: Tree, board: Board, solver: Solver, weight: float, floor: bool, buffers: Buffers) -> None:
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
                _regret_update(base[node], num_buckets[rounds[node]], children[node] >= 0, buffers[5][d], buffers[8][d], weight, delta, average, floor)
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


def prepare_board(cards: np.ndarray, strength: np.ndarray, buckets: np.ndarray) -> Board:
    """The board as ``pcs_pass`` reads it: holdings the board leaves possible, weakest first.

    (buckets per round, first and one-past-last place of each holding's tie group, the places of
    the holdings holding each card (padded with a place whose reach is always zero), the flat
    ``ccum`` indices of each holding's cards (weaker, at-or-below, all) and 1.0 for two-card holdings;
    indices unsigned.)"""
    order = np.argsort(strength, kind="stable")
    order = order[strength[order] >= 0]
    ranked = strength[order]
    n = len(order)
    pad = LANES * -(-n // LANES)  # the zero place
    held = np.ascontiguousarray(cards[order])
    k = held.shape[1]
    num_cards = int(cards.max()) + 2  # the last card is no card: one-card holdings' missing second card
    if k == 1:
        held = np.concatenate([held, np.full((n, 1), num_cards - 1)], axis=1)
    pairs_card, pairs_place = held.ravel(), np.repeat(np.arange(n), 2)
    real = pairs_card < num_cards - 1
    by_card = np.lexsort((pairs_place[real], pairs_card[real]))  # each card's holdings in strength order
    card, place = pairs_card[real][by_card], pairs_place[real][by_card]
    slot = np.arange(len(card)) - np.searchsorted(card, card, side="left")
    m = int(slot.max()) + 1
    members = np.full((num_cards, m), pad, dtype=np.int64)
    members[card, slot] = place
    at = np.empty((6, n), dtype=np.int64)
    for j in range(2):
        c = held[:, j]
        row = np.where(members[c] < pad, ranked[np.minimum(members[c], n - 1)], np.iinfo(np.int64).max)
        at[j] = c * (m + 1) + (row < ranked[:, None]).sum(axis=1)
        at[2 + j] = c * (m + 1) + (row <= ranked[:, None]).sum(axis=1)
        at[4 + j] = c * (m + 1) + m
    index = np.uint64  # unsigned: numba then skips the negative-index check on every lookup
    return (
        np.ascontiguousarray(buckets[:, order], dtype=index),
        np.searchsorted(ranked, ranked, side="left").astype(index),
        np.searchsorted(ranked, ranked, side="right").astype(index),
        members.astype(index),
        at.astype(index),
        1.0 if k == 2 else 0.0,
    )


def pcs_pass(p: int, tree: Tree, board: Board, solver: Solver, weight: float, depth: int, *, floor: bool = False) -> None:
    """One CFR pass for player ``p`` on one board: regrets into ``delta``, average weights into ``average``.

    ``solver`` = (regret, legal actions, delta, average), one row per information set: the current
    strategy is regret matching on ``regret``; ``weight`` is the average strategy's weight this iteration.
    With ``floor`` (``delta`` is then ``regret`` itself) the regrets are updated in place and floored at
    zero, CFR+'s update for an iteration of one board: exact, since a pass reads a row's regret once,
    on arriving at its node, before it updates the row on leaving.

    ``tree`` = (children, kind, player, round, spent, first information set row of each node, buckets
    per round), as ``PCSSolver`` lays them out; ``board`` is ``prepare_board``'s; ``depth`` is the
    tree's deepest level.
    """
    n = board[1].shape[0]
    width = LANES * -(-n // LANES) + 1
    reach = np.zeros((depth + 2, 2, width))
    reach[0, :, :n] = 1.0
    na, most = tree[0].shape[1], int(tree[6].max())
    buffers = (
        reach,
        np.zeros((depth + 2, 2), dtype=np.int64),  # the depth holding each player's current reach
        np.full(depth + 4, -1, dtype=np.int64),  # which opponent reach each depth sees; [-2] the last issued, [-1] the summed
        np.zeros((depth + 2, n)),  # values
        np.zeros((depth + 2, n)),  # the current action's probability per holding
        np.zeros((depth + 2, LANES, na + 1, most)),  # bucket sums per lane
        np.zeros(width),  # cum
        np.zeros((board[3].shape[0], board[3].shape[1] + 1)),  # ccum
        np.zeros((depth + 2, most, na)),  # the current strategy of each bucket
    )
    buffers[2][0] = 0
    buffers[2][-2] = 0
    _walk(p, tree, board, solver, weight, floor, buffers)


# ---------------------------------------------------------------------- exact N-player CFR (multiplayer.NTree)

NTreeArrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@njit(cache=True, nogil=True)
def _edge_probabilities(edge: np.ndarray, flat_sigma: np.ndarray, prob: np.ndarray) -> None:
    """``prob[n, x]``: the probability sigma gives the action into node n in deal x (1 at the root)."""
    nodes, deals = edge.shape
    prob[0] = 1.0
    for m in range(1, nodes):
        for x in range(deals):
            prob[m, x] = flat_sigma[edge[m, x]]


@njit(cache=True, nogil=True)
def _others_reach(p: int, tree: NTreeArrays, prob: np.ndarray, reach: np.ndarray) -> None:
    """``reach[n, x]``: pi_{-p}(n), the product of the other players' action probabilities on the path to n."""
    parent, actor = tree[0], tree[1]
    reach[0] = 1.0
    for n in range(1, parent.shape[0]):  # breadth first: parents before children; rows of deals, in memory order
        if actor[parent[n]] != p:
            reach[n] = reach[parent[n]] * prob[n]
        else:
            reach[n] = reach[parent[n]]


@njit(cache=True, nogil=True)
def _children_sum(n: int, tree: NTreeArrays, prob: np.ndarray, value: np.ndarray) -> None:
    """``value[n] = sum_a prob(child_a) value(child_a)``, deal by deal."""
    first_child, num_children = tree[2], tree[3]
    value[n] = 0.0
    for c in range(first_child[n], first_child[n] + num_children[n]):
        for x in range(value.shape[1]):
            value[n, x] += value[c, x] * prob[c, x]


@njit(cache=True, nogil=True)
def _counterfactual_regrets(p: int, tree: NTreeArrays, prob: np.ndarray, reach: np.ndarray, value: np.ndarray, inst: np.ndarray) -> None:
    """Add player p's instantaneous counterfactual regrets (v(child) - v(node)) * others' reach to ``inst``."""
    actor, first_child, num_children, edge, payoff, terminal_index = tree[1:7]
    nodes, deals = edge.shape
    _others_reach(p, tree, prob, reach)
    for n in range(nodes - 1, -1, -1):
        if actor[n] < 0:
            value[n] = payoff[p, terminal_index[n]]
        else:
            _children_sum(n, tree, prob, value)
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
            _edge_probabilities(edge, flat, prob)
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


@njit(cache=True, nogil=True)
def _respond(n: int, tree: NTreeArrays, reach: np.ndarray, value: np.ndarray, totals: np.ndarray, flat_choice: np.ndarray) -> None:
    """At node n of the best responder: each information set I (the node's deals that agree on the
    responder's cards and the board) takes the action a maximising sum_{x in I} pi_{-p}(child_a, x)
    v(child_a, x) (ties: the first legal action), and the node is worth v(child_a) in every deal of I;
    ``flat_choice`` gets I's row one-hot."""
    first_child, num_children, edge = tree[2], tree[3], tree[4]
    lo, hi = first_child[n], first_child[n] + num_children[n]
    actions = MAX_ACTIONS
    for c in range(lo, hi):
        for x in range(value.shape[1]):
            totals[edge[c, x]] += value[c, x] * reach[c, x]
    for x in range(value.shape[1]):
        best = lo
        for c in range(lo + 1, hi):
            if totals[edge[c, x]] > totals[edge[best, x]]:
                best = c
        value[n, x] = value[best, x]
        row = edge[lo, x] // actions
        flat_choice[row * actions : (row + 1) * actions] = 0.0
        flat_choice[edge[best, x]] = 1.0


@njit(cache=True, nogil=True)
def ntree_best_response(p: int, tree: NTreeArrays, sigma: np.ndarray, choice: np.ndarray) -> float:
    """Player p's best-response value against the others' ``sigma`` (chips per hand), and that best response.

    Backward induction over the betting nodes (children after parents, so in reverse order): a terminal is
    worth u_p, another player's node sum_a sigma(a) v(child_a), p's node the best action's value per
    information set (``_respond``); perfect recall makes this exact (Johanson et al. 2011). ``choice`` (a
    copy of ``sigma``) gets p's rows one-hot; returns the root's value averaged over the equally likely
    deals. The compiled ``multiplayer.best_response``.
    """
    actor, edge, payoff, terminal_index = tree[1], tree[4], tree[5], tree[6]
    nodes, deals = edge.shape
    prob = np.empty((nodes, deals))
    reach = np.empty((nodes, deals))
    value = np.empty((nodes, deals))
    totals = np.zeros(choice.size)
    _edge_probabilities(edge, sigma.reshape(-1), prob)
    _others_reach(p, tree, prob, reach)
    for n in range(nodes - 1, -1, -1):
        if actor[n] < 0:
            value[n] = payoff[p, terminal_index[n]]
        elif actor[n] != p:
            _children_sum(n, tree, prob, value)
        else:
            _respond(n, tree, reach, value, totals, choice.reshape(-1))
    return float(value[0].sum() / deals)


@njit(cache=True, nogil=True)
def ntree_evaluation(tree: NTreeArrays, sigma: np.ndarray, values: np.ndarray, best: np.ndarray) -> None:
    """Every player's expected value (``values[p]``) and best-response value (``best[p]``) under ``sigma``:
    ``multiplayer.evaluate``, one backward pass per player carrying both (the edge probabilities once)."""
    actor, edge, payoff, terminal_index = tree[1], tree[4], tree[5], tree[6]
    nodes, deals = edge.shape
    prob = np.empty((nodes, deals))
    reach = np.empty((nodes, deals))
    on_policy = np.empty((nodes, deals))
    response = np.empty((nodes, deals))
    totals = np.empty(sigma.size)
    choice = np.empty(sigma.size)
    _edge_probabilities(edge, sigma.reshape(-1), prob)
    for p in range(values.shape[0]):
        _others_reach(p, tree, prob, reach)
        totals[:] = 0.0
        for n in range(nodes - 1, -1, -1):
            if actor[n] < 0:
                on_policy[n] = payoff[p, terminal_index[n]]
                response[n] = on_policy[n]
                continue
            _children_sum(n, tree, prob, on_policy)
            if actor[n] != p:
                _children_sum(n, tree, prob, response)
            else:
                _respond(n, tree, reach, response, totals, choice)
        values[p] = on_policy[0].sum() / deals
        best[p] = response[0].sum() / deals

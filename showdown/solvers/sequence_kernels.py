"""Exact two-player CFR in sequence form, compiled (numba): ``CFRSolver.iterate`` for the exact rules on
trees small enough for a sequence-form payoff matrix (``cfr_core.FlatTree.payoff``: Kuhn, Leduc).

Per iteration and player p: the counterfactual values v = A_p x_opp of p's sequences (Koller, Megiddo
and von Stengel 1994's payoff matrix times the opponent's realization plan; Zinkevich et al. 2007),
information-set values bottom up, then the rule's regret and average update and regret matching
(see ``kernels.exact_cfr_iterations`` for the rules). Sums are taken in numpy's order, so the results
equal ``CFRSolver._numpy_iterations`` bit for bit where that uses sparse products (Leduc), and to
rounding where it uses a dense one (Kuhn: the BLAS orders its sums its own way).

Imported only where a solver runs (numba's import costs about half a second); compiled code cached.
"""

from __future__ import annotations

import numpy as np
from numba import njit

Layout = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
Payoff = tuple[np.ndarray, np.ndarray, np.ndarray]


@njit(cache=True, nogil=True)
def _block_sum(a: np.ndarray, lo: int, hi: int) -> float:
    """``a[lo:hi].sum()`` for at most 128 entries, in numpy's order: one by one below eight, else eight
    running sums combined pairwise, then the remainder."""
    n = hi - lo
    total = 0.0
    if n < 8:
        for i in range(lo, hi):
            total += a[i]
        return total
    r0, r1, r2, r3, r4, r5, r6, r7 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3], a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = lo + 8
    while i < hi - n % 8:
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    total = float(((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)))
    while i < hi:
        total += a[i]
        i += 1
    return total


@njit(cache=True, nogil=True)
def _pairwise_sum(a: np.ndarray) -> float:
    """``a.sum()`` with numpy's order of additions (pairwise: halves down to blocks of 128)."""
    n = a.shape[0]
    if n <= 128:
        return _block_sum(a, 0, n)
    half = n // 2
    half -= half % 8
    return _pairwise_sum(a[:half]) + _pairwise_sum(a[half:])


@njit(cache=True, nogil=True)
def _first_plus_rest(a: np.ndarray, n: int) -> float:
    """``a[:n]`` summed as ``np.add.reduceat`` sums a segment: the first entry plus the sum of the others."""
    if n == 0:
        return 0.0
    return float(a[0] + (_block_sum(a, 1, n) if n <= 129 else _pairwise_sum(a[1:n])))


@njit(cache=True, nogil=True)
def _sequence_values(
    p: int, layouts: tuple[Layout, Layout], payoffs: tuple[Payoff, Payoff], x: np.ndarray, sigma: np.ndarray, v: np.ndarray, vi: np.ndarray, scratch: np.ndarray
) -> None:
    """Counterfactual values of p's sequences ``v`` and information sets ``vi`` (Zinkevich et al. 2007):
    v = A_p x_opp (the sequence-form payoff, Koller et al. 1994), then level by level from the deepest,
    vi(I) = sum_{s in I} sigma(s) v(s), added into the parent sequence of I (in ``backward``'s order)."""
    parent, starts, _, infoset_parent, level_starts, single = layouts[p]
    indptr, cols, values = payoffs[p]
    opp = x[1 - p]
    for s in range(v.shape[0]):
        total = 0.0
        for k in range(indptr[s], indptr[s + 1]):
            total += values[k] * opp[cols[k]]
        v[s] = total
    vi[0] = 0.0
    for lv in range(level_starts.shape[0] - 2, -1, -1):
        first, end = level_starts[lv], level_starts[lv + 1]
        for i in range(first, end):
            m = starts[i + 1] - starts[i]
            for k in range(m):
                scratch[k] = v[starts[i] + k] * sigma[p, starts[i] + k]
            vi[i] = _first_plus_rest(scratch, m)
        if single[lv]:  # one parent for the whole level: its values summed (as numpy's sum does), then added
            v[infoset_parent[first]] += _pairwise_sum(vi[first:end])
        else:
            for i in range(first, end):
                v[infoset_parent[i]] += vi[i]


@njit(cache=True, nogil=True)
def _sequence_update(
    p: int, t: int, rule: tuple[bool, float, float, float], layout: Layout, v: np.ndarray, vi: np.ndarray,
    regrets: np.ndarray, sums: np.ndarray, sigma: np.ndarray, x: np.ndarray, scratch: np.ndarray,
) -> None:
    """``CFRSolver._update``: regrets plus v(s) - vi(I(s)) (discounted, floored by ``rule`` as in
    ``exact_cfr_iterations``), average sums plus the realization plan x, then sigma by regret matching
    and x(s) = x(parent(s)) sigma(s)."""
    parent, starts, segment_of = layout[:3]
    plus, alpha, beta, gamma = rule
    r, s_, sig, xp = regrets[p], sums[p], sigma[p], x[p]
    n = v.shape[0]
    pos = neg = 1.0
    if not np.isnan(alpha):
        ta, tb = t**alpha, t**beta
        pos, neg = ta / (ta + 1.0), tb / (tb + 1.0)
    keep = (t / (t + 1.0)) ** gamma if not np.isnan(gamma) else 1.0
    for s in range(n):
        q = r[s] + v[s]
        q -= vi[segment_of[s]]
        if not np.isnan(alpha):
            q *= pos if q > 0.0 else neg
        r[s] = max(q, 0.0) if plus else q
        s_[s] += xp[s]
        if not np.isnan(gamma):
            s_[s] *= keep
    for i in range(starts.shape[0] - 1):
        m = starts[i + 1] - starts[i]
        for k in range(m):
            scratch[k] = max(r[starts[i] + k], 0.0)
        total = _first_plus_rest(scratch, m)
        for s in range(starts[i], starts[i + 1]):
            sig[s] = max(r[s], 0.0) / total if total > 0.0 else 1.0 / (starts[i + 1] - starts[i])
    xp[0] = 1.0
    for s in range(1, n):
        xp[s] = xp[parent[s]] * sig[s]


@njit(cache=True, nogil=True)
def sequence_cfr_iterations(
    n: int, t0: int, alternating: bool, rule: tuple[bool, float, float, float], layouts: tuple[Layout, Layout], payoffs: tuple[Payoff, Payoff],
    regrets: np.ndarray, sums: np.ndarray, sigma: np.ndarray, x: np.ndarray,
) -> None:
    """``n`` iterations of exact two-player CFR after ``t0`` done: ``CFRSolver.iterate`` for the exact rules.

    Per player p, padded to the longer: ``regrets[p]``, ``sums[p]`` (average-strategy sums), ``sigma[p]``
    (current strategy) per sequence, ``x[p]`` its realization plan (then a dead slot, always 0).
    ``layouts[p]`` = (parent sequence of each sequence, first sequence of each information set
    then the end, information set of each sequence, parent sequence of each information set, first
    information set of each depth level then the end, whether a level's information sets share one parent);
    ``payoffs[p]`` the sequence-form payoff matrix of p (chance-weighted) in CSR form.
    """
    size = max(layouts[0][0].shape[0], layouts[1][0].shape[0])
    v = np.empty((2, size))
    vi = np.empty((2, max(layouts[0][1].shape[0], layouts[1][1].shape[0])))
    scratch = np.empty(max(np.diff(layouts[0][1]).max(), np.diff(layouts[1][1]).max()))  # one information set's entries
    for it in range(n):
        t = t0 + it + 1
        for p in range(2):
            m = layouts[p][0].shape[0]
            _sequence_values(p, layouts, payoffs, x, sigma, v[p, :m], vi[p], scratch)
            if alternating:
                _sequence_update(p, t, rule, layouts[p], v[p, :m], vi[p], regrets, sums, sigma, x, scratch)
        if not alternating:
            for p in range(2):
                m = layouts[p][0].shape[0]
                _sequence_update(p, t, rule, layouts[p], v[p, :m], vi[p], regrets, sums, sigma, x, scratch)

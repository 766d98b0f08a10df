"""The one-round game's two linear programs (``showdown.solvers.one_round``), as CSR arrays for HiGHS.

Bob's form has his calling probabilities as variables and Alice's strategy as the duals of its rows;
Alice's form (the post's program) the other way round. Both are built directly in CSR, one row per
(bet, class) with its 1 + 169 entries, no sparse-matrix library in between, from ``G[b, a, k]``
(Alice's gain per call, bet by bet), the class probabilities ``p`` and the blinds.
"""

from __future__ import annotations

import numpy as np

from showdown.solvers.hand_classes import NUM_CLASSES
from showdown.solvers.highs_lp import LinearProgram

__all__ = ["alice_program", "bob_program"]


def bob_program(G: np.ndarray, p: np.ndarray, sb: float, bb: float) -> LinearProgram:
    """Bob's form: variables ``mu`` (169) then ``y[b, k]``; one row per (bet, Alice class)."""
    n, m = NUM_CLASSES, len(G)
    # row (b, a): -mu[a] + sum_k G_b[a, k] y[b, k] <= -bb p_a ; 1 + n entries per row, columns sorted
    indices = np.empty((m, n, n + 1), dtype=np.int32)
    indices[:, :, 0] = np.arange(n)[None, :]
    indices[:, :, 1:] = (n + n * np.arange(m))[:, None, None] + np.arange(n)[None, None, :]
    data = np.empty((m, n, n + 1))
    data[:, :, 0] = -1.0
    data[:, :, 1:] = G
    return LinearProgram(
        cost=np.concatenate([np.ones(n), np.zeros(m * n)]),
        lower=np.concatenate([-sb * p, np.zeros(m * n)]),
        upper=np.concatenate([np.full(n, np.inf), np.ones(m * n)]),
        indptr=np.arange(0, m * n * (n + 1) + 1, n + 1, dtype=np.int64),
        indices=indices.ravel(),
        data=data.ravel(),
        row_lower=np.full(m * n, -np.inf),
        row_upper=np.tile(-bb * p, m),
        n_ineq=m * n,
    )


def alice_program(G: np.ndarray, p: np.ndarray, sb: float, bb: float) -> LinearProgram:
    """Alice's form: variables ``x[a, j]`` (fold first) then ``z[b, k]``; one row per (bet, Bob class),
    then one per class of Alice (her probabilities sum to 1)."""
    n, m = NUM_CLASSES, len(G)
    nx = n * (m + 1)
    # row (b, k): z[b, k] - sum_a G_b[a, k] x[a, b] <= 0
    indices = np.empty((m, n, n + 1), dtype=np.int32)
    indices[:, :, :n] = (np.arange(n) * (m + 1))[None, None, :] + 1 + np.arange(m)[:, None, None]
    indices[:, :, n] = nx + n * np.arange(m)[:, None] + np.arange(n)[None, :]
    data = np.empty((m, n, n + 1))
    data[:, :, :n] = -np.transpose(G, (0, 2, 1))
    data[:, :, n] = 1.0
    # row a: sum_j x[a, j] = 1, the m + 1 columns of class a in a row
    indptr = np.concatenate([np.arange(0, m * n * (n + 1), n + 1), m * n * (n + 1) + np.arange(0, nx + 1, m + 1)])
    cost = np.zeros(nx + m * n)
    cost[0:nx:m + 1] = sb * p
    for j in range(1, m + 1):
        cost[j:nx:m + 1] = -bb * p
    cost[nx:] = -1.0
    return LinearProgram(
        cost=cost,
        lower=np.concatenate([np.zeros(nx), np.full(m * n, -np.inf)]),
        upper=np.concatenate([np.full(nx, np.inf), np.zeros(m * n)]),
        indptr=indptr.astype(np.int64),
        indices=np.concatenate([indices.ravel(), np.arange(nx, dtype=np.int32)]),
        data=np.concatenate([data.ravel(), np.ones(nx)]),
        row_lower=np.concatenate([np.full(m * n, -np.inf), np.ones(n)]),
        row_upper=np.concatenate([np.zeros(m * n), np.ones(n)]),
        n_ineq=m * n,
    )

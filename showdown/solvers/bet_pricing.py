"""Pricing a left-out bet size in one-round hold'em: can Bob make it unprofitable for every hand of Alice?

Column generation over bet sizes (see ``showdown.solvers.one_round``) solves the game on a subset of
the grid, then asks for each bet ``b`` left out whether Bob has calling probabilities ``y`` (one per
class ``k``, in ``[0, 1]``) with::

    bb p_a + sum_k G_b[a, k] y[k] <= mu[a]      for every class a of Alice,

where ``mu[a]`` is what class ``a`` already earns in the restricted game (weighted by its probability).
Such a ``y`` *deters* ``b``: no hand of Alice gains by switching to it. The question is a 169-variable
LP (``min t`` subject to ``G_b y - t <= mu - bb p``); it is asked of HiGHS only after cheaper candidates
(Bob's calling vectors at the bets already in the program, earlier answers for this bet, and every
calling threshold in a given order of his classes, all 170 at once by running sums) fail the exact
numpy check. The LP's answers are not thresholds in any one strength order (on the 80-bet grid they
have 6-11 fractional entries), but thresholds deter most large bets, sparing most LPs. A returned ``y`` always passes that check in floating point, so the certificate
built from it is exact, not within a solver tolerance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["deterring_calls"]

MARGIN = 1e-9
"""A bet counts as deterred by an LP answer only if ``t <= -MARGIN``: HiGHS's rows are exact to 1e-10."""

_FEASIBILITY = 1e-10


def deterring_calls(
    G_b: np.ndarray,
    slack: np.ndarray,
    candidates: np.ndarray | None = None,
    order: np.ndarray | None = None,
    ranges: np.ndarray | None = None,
) -> np.ndarray | None:
    """Bob's calling probabilities ``y`` with ``G_b @ y <= slack`` exactly, or ``None`` if there is none.

    ``G_b[a, k]`` is Alice's gain per call when class ``a`` bets ``b`` into class ``k`` (weighted by
    the pair's probability), ``slack[a] = mu[a] - bb p_a`` what class ``a`` may gain from Bob's calls
    at ``b`` without preferring ``b`` to what it does now. ``candidates`` (``(169, c)``) are tried first,
    in order, then (given an ``order`` of Bob's classes) every threshold: calling with the first ``j``
    classes of ``order``. ``None`` means the LP found no ``y`` with a margin of ``MARGIN`` (the bet
    must join the program: it may be in Alice's equilibrium support), or that one of Alice's
    ``ranges`` (``(169, r)`` weights per class, e.g. her ranges at the bets she uses), cut to the
    classes that beat the best candidate (and those classes alone, equally weighted), gains by moving
    to this bet against every reply of Bob: a proof that no ``y`` exists (``profitable_range``),
    found without the LP (it spares 4 of the 20 LPs of the first round on the post's grid).
    """
    beaten = np.ones(len(slack), dtype=bool)  # the classes of Alice that gain against the best candidate
    if candidates is not None and candidates.size:
        # einsum, not matmul: a multithreaded BLAS call costs 10x the CPU on a busy machine
        excess = np.einsum("ak,kc->ac", G_b, candidates) - slack[:, None]
        worst = excess.max(axis=0)
        passing = np.flatnonzero(worst <= 0.0)
        if passing.size:
            return np.asarray(candidates[:, passing[0]])
        beaten = excess[:, int(np.argmin(worst))] > 0.0
    if order is not None:
        # Alice's gain from every threshold at once: running sums of G_b's columns in Bob's order
        gains = np.hstack([np.zeros((len(slack), 1)), np.cumsum(G_b[:, order], axis=1)])
        passing = np.flatnonzero((gains - slack[:, None]).max(axis=0) <= 0.0)
        if passing.size:
            calls = np.zeros(G_b.shape[1])
            calls[order[: passing[0]]] = 1.0
            if float((G_b @ calls - slack).max()) <= 0.0:  # the running sum's rounding, checked as used
                return calls
    if ranges is not None and profitable_range(G_b, slack, np.column_stack([ranges, np.ones(len(slack))]) * beaten[:, None]):
        return None
    y = _deterrence_lp(G_b, slack)
    if y is None or float((G_b @ y - slack).max()) > 0.0:
        return None
    return y


def profitable_range(G_b: np.ndarray, slack: np.ndarray, ranges: np.ndarray) -> bool:
    """Whether some column ``w >= 0`` of ``ranges`` gains at this bet whatever Bob calls with.

    Alice betting the range ``w`` gains ``w @ (G_b y - slack)``; Bob's best reply calls with class
    ``k`` exactly when ``(w @ G_b)[k] < 0``. If even that reply leaves her a gain, no ``y`` has
    ``G_b y <= slack`` (Farkas: ``w`` is the LP's certificate of infeasibility). A one-sided test: a
    bet with no such ``w`` among ``ranges`` may still be undeterred (the LP decides).
    """
    weighted = np.einsum("ar,ak->rk", ranges, G_b)  # (r, 169): Alice's gain per call by each class of Bob, range by range
    gains = np.minimum(weighted, 0.0).sum(axis=1) - ranges.T @ slack
    return bool((gains > 0.0).any())


def _deterrence_lp(G_b: np.ndarray, slack: np.ndarray) -> np.ndarray | None:
    """``min t`` s.t. ``G_b y - t <= slack``, ``0 <= y <= 1``, ``t >= -1e-7`` (enough margin, then stop)."""
    from showdown.solvers.highs_lp import LinearProgram, solve_lp

    rows, n = G_b.shape
    data = np.empty((rows, n + 1))
    data[:, :n], data[:, n] = G_b, -1.0
    program = LinearProgram(
        cost=np.concatenate([np.zeros(n), [1.0]]),
        lower=np.concatenate([np.zeros(n), [-1e-7]]),
        upper=np.concatenate([np.ones(n), [np.inf]]),
        indptr=np.arange(0, rows * (n + 1) + 1, n + 1),
        indices=np.tile(np.arange(n + 1, dtype=np.int32), rows),
        data=data.ravel(),
        row_lower=np.full(rows, -np.inf),
        row_upper=slack,
        n_ineq=rows,
    )
    options: dict[str, Any] = {
        "presolve": False,
        "primal_feasibility_tolerance": _FEASIBILITY,
        "dual_feasibility_tolerance": _FEASIBILITY,
    }
    answer = solve_lp(program, "highs-ds", options)
    if not answer.optimal or answer.objective > -MARGIN:
        return None
    return np.asarray(np.clip(answer.x[:n], 0.0, 1.0))

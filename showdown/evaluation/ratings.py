"""Bradley-Terry ratings with 95% intervals from pairwise results.

The Bradley-Terry model (Bradley and Terry 1952) gives each agent a strength ``r_i`` with
``P(i beats j) = 1 / (1 + exp(r_j - r_i))``. From a matrix of pairwise wins the maximum-likelihood
strengths are found by Hunter's minorisation-maximisation iteration (Hunter 2004, "MM algorithms for
generalized Bradley-Terry models", Ann. Statist. 32(1)), which converges from any start when every
agent has at least one win and one loss against a connected field; the intervals come from the
inverse of the observed Fisher information with the ratings centred on zero (the model fixes
differences only). Ratings are reported on the natural-log scale and as Elo points
(``400 / ln 10`` per unit), the scale poker players know from rating lists.

In a poker tournament a "win" of agent i over agent j is a hand of theirs in which i's value was
larger than j's (hands with equal values carry no information and are dropped); the rating
difference of two agents then estimates the log-odds of winning a hand against each other.
This complements the ACPC's bankroll and instant run-off rankings, which rank by chips.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from showdown.errors import ShowdownError

__all__ = ["ELO_PER_UNIT", "Ratings", "bradley_terry", "pairwise_wins"]

ELO_PER_UNIT = 400.0 / math.log(10.0)
"""Elo points per unit of log-odds strength."""

_Z95 = 1.959963984540054


@dataclass(frozen=True)
class Ratings:
    """Maximum-likelihood Bradley-Terry strengths (mean zero) with standard errors and 95% intervals.

    ``rating[i]`` is on the log-odds scale; ``elo`` gives the same in Elo points. ``se[i]`` is
    ``nan`` for an agent whose strength is not finite (it won, or lost, every comparison).
    """

    rating: tuple[float, ...]
    se: tuple[float, ...]
    comparisons: int
    iterations: int

    @property
    def ci95(self) -> tuple[tuple[float, float], ...]:
        return tuple((r - _Z95 * s, r + _Z95 * s) for r, s in zip(self.rating, self.se))

    @property
    def elo(self) -> tuple[float, ...]:
        return tuple(r * ELO_PER_UNIT for r in self.rating)

    @property
    def elo_ci95(self) -> tuple[tuple[float, float], ...]:
        return tuple((lo * ELO_PER_UNIT, hi * ELO_PER_UNIT) for lo, hi in self.ci95)

    def win_probability(self, i: int, j: int) -> float:
        """The model's probability that agent i wins a comparison against agent j."""
        return 1.0 / (1.0 + math.exp(self.rating[j] - self.rating[i]))


def pairwise_wins(values: ArrayLike, agents: ArrayLike, n: int) -> np.ndarray:
    """Count, from per-hand values, how often each agent won a hand against each other one.

    ``values[h, p]`` is the value of position p in hand h and ``agents[h, p]`` the index (0..n-1)
    of the agent in that position. Returns ``wins[i, j]``: hands in which i's value exceeded j's.
    """
    v = np.asarray(values, dtype=float)
    a = np.asarray(agents, dtype=np.int64)
    if v.shape != a.shape or v.ndim != 2:
        raise ShowdownError("pairwise_wins: values and agents must be arrays of the same shape (hands, positions)")
    wins = np.zeros((n, n), dtype=np.int64)
    positions = v.shape[1]
    for p in range(positions):
        for q in range(positions):
            if p == q:
                continue
            won = v[:, p] > v[:, q]
            np.add.at(wins, (a[won, p], a[won, q]), 1)
    return wins


def bradley_terry(wins: ArrayLike, *, prior: float = 0.0, tol: float = 1e-10, max_iterations: int = 10_000) -> Ratings:
    """Fit Bradley-Terry strengths to ``wins[i, j]`` (times i beat j) by Hunter's MM iteration.

    ``prior`` adds that many virtual wins each way to every pair that met (a weak prior pulling
    ratings together, as rating tools do, so that a clean sweep gives a large finite rating).
    Without it, an agent that won (or lost) every comparison left in the field has no finite
    maximum-likelihood strength: it is set aside as ``+inf`` (``-inf``), its comparisons carry no
    information about the others, and the rest are fitted among themselves.
    """
    w = np.array(wins, dtype=float)
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ShowdownError("bradley_terry: wins must be a square matrix")
    if (w < 0).any() or not np.isfinite(w).all():
        raise ShowdownError("bradley_terry: wins must be finite counts >= 0")
    n = w.shape[0]
    np.fill_diagonal(w, 0.0)
    if prior < 0:
        raise ShowdownError("bradley_terry: the prior must be >= 0")
    w = w + prior * ((w + w.T) > 0)
    rating = np.full(n, np.nan)
    field = np.flatnonzero((w + w.T).sum(axis=1) > 0)
    while field.size:
        sub = w[np.ix_(field, field)]
        won, lost = sub.sum(axis=1), sub.sum(axis=0)
        extreme = (won == 0) | (lost == 0)
        if not extreme.any():
            break
        rating[field[extreme & (lost == 0) & (won > 0)]] = np.inf
        rating[field[extreme & (won == 0) & (lost > 0)]] = -np.inf
        field = field[~extreme]
    iterations = 0
    if field.size:
        sub = w[np.ix_(field, field)]
        games = sub + sub.T
        total_wins = sub.sum(axis=1)
        p = np.ones(field.size)
        for iterations in range(1, max_iterations + 1):  # noqa: B007 (the count is reported)
            new = total_wins / (games / (p[:, None] + p[None, :])).sum(axis=1)
            new /= math.exp(float(np.log(new).mean()))
            done = float(np.max(np.abs(np.log(new) - np.log(p)))) < tol
            p = new
            if done:
                break
        rating[field] = np.log(p) - np.log(p).mean()
    se = _standard_errors(w + w.T, rating, field)
    return Ratings(tuple(float(x) for x in rating), tuple(float(x) for x in se), int(w.sum()), iterations)


def _standard_errors(games: np.ndarray, rating: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Standard errors of the centred ratings from the inverse observed Fisher information.

    The information matrix is singular along the all-ones direction (adding a constant to every
    rating changes nothing); its Moore-Penrose inverse is the covariance of the ratings centred on
    zero, which is how they are reported.
    """
    n = games.shape[0]
    se = np.full(n, np.nan)
    if idx.size < 2:
        return se
    r = rating[idx]
    g = games[np.ix_(idx, idx)]
    prob = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))
    weight = g * prob * (1.0 - prob)
    info = -weight
    np.fill_diagonal(info, weight.sum(axis=1))
    cov = np.linalg.pinv(info)
    se[idx] = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    return se


def ratings_table(labels: Sequence[str], ratings: Ratings) -> list[dict[str, object]]:
    """Rows for ``results.json``: label, Elo rating and its 95% interval, best first."""
    order = sorted(range(len(labels)), key=lambda i: -ratings.rating[i] if not math.isnan(ratings.rating[i]) else math.inf)
    rows: list[dict[str, object]] = []
    for i in order:
        elo, (lo, hi) = ratings.elo[i], ratings.elo_ci95[i]
        rows.append(
            {
                "agent": labels[i],
                "elo": round(elo, 1) if math.isfinite(elo) else None,
                "elo_ci95": [round(lo, 1), round(hi, 1)] if math.isfinite(lo) and math.isfinite(hi) else None,
            }
        )
    return rows

"""Anytime-valid confidence sequences for a match's win rate, so that a match may stop early.

A fixed-sample 95% interval is valid only at the number of hands chosen in advance: checking it
after every batch and stopping when it excludes zero inflates the error rate far beyond 5%. A
confidence sequence holds at every hand count at once (Howard, Ramdas, McAuliffe and Sekhon 2021,
"Time-uniform, nonparametric, nonasymptotic confidence sequences", Ann. Statist. 49(2)), so a match
can be stopped as soon as it says enough. This one is the predictable plug-in empirical-Bernstein
sequence of Waudby-Smith and Ramdas (2023, "Estimating means of bounded random variables by
betting", JRSS B, Theorem 2) for values in a known range ``[low, high]`` (a hand's chips are bounded
by the stacks), kept as a running intersection; it adapts to the observed variance, so it is narrow
when the results vary little.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from showdown.errors import ShowdownError
from showdown.games.gamedef import GameDef

__all__ = ["ConfidenceSequence", "hand_range"]


def hand_range(game: GameDef) -> tuple[float, float]:
    """The fewest and most chips one player can end a hand with: ``(-commit, (players - 1) * commit)``
    where ``commit`` is what a player can put in (its stack, or in a limit game with no stacks the
    blinds and every raise the rounds allow: Kuhn 2, Leduc 13, limit hold'em 240)."""
    commit = _most_committed(game)
    return -commit, (game.num_players - 1) * commit


def _most_committed(game: GameDef) -> float:
    from showdown.games.gamedef import UNLIMITED_STACK

    stacks = [s for s in game.stack if s < UNLIMITED_STACK]
    if stacks:
        return float(max(stacks))
    if not game.is_limit or any(m > 100 for m in game.max_raises):
        raise ShowdownError(f"{game.name or 'this game'} has no bound on a hand's chips")
    commit = max(game.blind) + sum(m * r for m, r in zip(game.max_raises, game.raise_size))
    return float(commit)


STOPPING_ALPHA = 0.05
"""The level of ``showdown match --until-ci`` and ``--until-separated``: a 95% confidence sequence."""


class ConfidenceSequence:
    """Anytime-valid ``1 - alpha`` interval for the mean of values in ``[low, high]``, fed in batches."""

    def __init__(self, low: float, high: float, alpha: float = STOPPING_ALPHA, cap: float = 0.5) -> None:
        if not high > low:
            raise ShowdownError(f"a confidence sequence needs low < high, got [{low}, {high}]")
        if not 0 < alpha < 1:
            raise ShowdownError(f"alpha must be in (0, 1), got {alpha}")
        self.low, self.high, self.alpha, self.cap = float(low), float(high), alpha, cap
        self.n = 0
        self._sum_x = 0.0  # of the values scaled to [0, 1]
        self._sum_sq = 0.0  # of (x_i - mean estimate before i)^2
        self._sum_lambda = 0.0
        self._sum_lambda_x = 0.0
        self._sum_penalty = 0.0  # of v_i psi(lambda_i)
        self._lo, self._hi = 0.0, 1.0  # the running intersection, scaled

    def update(self, values: Iterable[float] | np.ndarray) -> None:
        """Add the next values, in the order they happened."""
        x = (np.asarray(values, dtype=float).ravel() - self.low) / (self.high - self.low)
        if x.size == 0:
            return
        if (x < -1e-12).any() or (x > 1 + 1e-12).any():
            raise ShowdownError(f"a value lies outside [{self.low:g}, {self.high:g}]")
        x = np.clip(x, 0.0, 1.0)
        t = self.n + np.arange(1, x.size + 1, dtype=float)  # the index of each value, from 1
        # estimates before each value (predictable): from the previous values only
        sum_before = self._sum_x + np.concatenate(([0.0], np.cumsum(x)[:-1]))
        mean_before = (0.5 + sum_before) / t  # (1/2 + sum of the t-1 earlier) / t
        sq = (x - mean_before) ** 2
        sq_before = self._sum_sq + np.concatenate(([0.0], np.cumsum(sq)[:-1]))
        var_before = (0.25 + sq_before) / t
        log_term = math.log(2.0 / self.alpha)
        lam = np.minimum(np.sqrt(2.0 * log_term / (var_before * t * np.log(t + 1.0))), self.cap)
        penalty = sq * (-np.log1p(-lam) - lam)  # v_i psi_E(lambda_i) with v_i = 4 sq and psi_E = (.)/4
        lam_c = self._sum_lambda + np.cumsum(lam)
        center = (self._sum_lambda_x + np.cumsum(lam * x)) / lam_c
        width = (log_term + self._sum_penalty + np.cumsum(penalty)) / lam_c
        self._lo = max(self._lo, float(np.max(center - width)))
        self._hi = min(self._hi, float(np.min(center + width)))
        self.n += x.size
        self._sum_x += float(x.sum())
        self._sum_sq += float(sq.sum())
        self._sum_lambda = float(lam_c[-1])
        self._sum_lambda_x += float((lam * x).sum())
        self._sum_penalty += float(penalty.sum())

    def interval(self) -> tuple[float, float]:
        """The interval now, in the values' units (the whole range before any value)."""
        span = self.high - self.low
        lo, hi = (self._lo, self._hi) if self._lo <= self._hi else (self._hi, self._lo)
        return self.low + lo * span, self.low + hi * span

    def half_width(self) -> float:
        lo, hi = self.interval()
        return (hi - lo) / 2

    def excludes(self, value: float = 0.0) -> bool:
        """The interval lies wholly on one side of ``value``."""
        lo, hi = self.interval()
        return lo > value or hi < value

"""How many hands a match needs: from a pilot's per-hand results to a plan.

Two answers for the question "how many hands until I know agent A wins at least D per 100 hands":

* **fixed sample** (decide the number of hands in advance, look once): the classic two-sided test
  at level ``alpha`` with power ``power`` needs ``n = ((z_{1-alpha/2} + z_power) * sd / delta)^2``
  hands, ``sd`` the standard deviation of A's result per hand and ``delta = D / 100``;
* **anytime-valid** (``showdown match --until-separated``, look after every hand): the hands the
  empirical-Bernstein confidence sequence (``evaluation.confidence``) takes to exclude zero when A
  truly wins ``delta`` per hand, found by simulation: the pilot's results are resampled (bootstrap)
  and shifted to have mean ``delta``; the median and the ``power`` quantile of the stopping hand
  over ``runs`` simulated matches, each stopped at ``max_hands``.

A variance-reducing estimator (duplicate, AIVAT) divides the fixed-sample hands by its variance
reduction factor (``plain variance / reduced variance``), which ``plan`` reports when the pilot had one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from showdown.errors import ShowdownError
from showdown.evaluation.confidence import ConfidenceSequence


@dataclass(frozen=True, slots=True)
class Plan:
    """Hands needed to separate a win rate of ``difference_per100`` from zero."""

    difference_per100: float
    sd_per_hand: float
    pilot_hands: int
    alpha: float
    power: float
    fixed_hands: int
    anytime_median: int | None  # None: not reached within max_hands in most runs
    anytime_power: int | None
    max_hands: int
    runs: int
    reduction: float | None = None  # the pilot estimator's variance reduction, when it had one

    @property
    def fixed_hands_reduced(self) -> int | None:
        if self.reduction is None or not self.reduction > 0 or math.isinf(self.reduction):
            return None
        return max(1, math.ceil(self.fixed_hands / self.reduction))

    def to_json(self) -> dict[str, object]:
        return {
            "difference_per100": self.difference_per100,
            "sd_per_hand": self.sd_per_hand,
            "pilot_hands": self.pilot_hands,
            "alpha": self.alpha,
            "power": self.power,
            "fixed_sample_hands": self.fixed_hands,
            "fixed_sample_hands_with_variance_reduction": self.fixed_hands_reduced,
            "variance_reduction": self.reduction,
            "anytime_valid_median_hands": self.anytime_median,
            "anytime_valid_power_hands": self.anytime_power,
            "max_hands": self.max_hands,
            "simulated_runs": self.runs,
        }


def fixed_sample_hands(sd: float, delta: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Hands for a two-sided level-``alpha`` test to detect a mean of ``delta`` with ``power``."""
    if delta <= 0:
        raise ShowdownError("the difference to detect must be above zero")
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    return max(2, math.ceil((z * sd / delta) ** 2))


def anytime_hands(
    pilot: np.ndarray,
    delta: float,
    bounds: tuple[float, float],
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    runs: int = 40,
    max_hands: int = 2_000_000,
    seed: int = 0,
    batch: int = 2000,
) -> tuple[int | None, int | None]:
    """(median, ``power`` quantile) of the hand at which the confidence sequence first excludes zero,
    over ``runs`` bootstrap matches whose results have mean ``delta``; None where most runs (or
    more than ``1 - power`` of them) had not stopped by ``max_hands``."""
    rng = np.random.default_rng(seed)
    low, high = bounds
    shifted = np.clip(pilot - pilot.mean() + delta, low, high)
    stops: list[float] = []
    for _ in range(runs):
        cs = ConfidenceSequence(low, high, alpha)
        stopped = math.inf
        while cs.n < max_hands:
            cs.update(rng.choice(shifted, size=min(batch, max_hands - cs.n)))
            if cs.excludes(0.0):
                stopped = cs.n
                break
        stops.append(stopped)
    ordered = sorted(stops)
    median = ordered[len(ordered) // 2]
    quantile = ordered[min(len(ordered) - 1, math.ceil(power * len(ordered)) - 1)]
    return _hands(median), _hands(quantile)


def _hands(x: float) -> int | None:
    return None if math.isinf(x) else int(x)


def make_plan(
    pilot: np.ndarray,
    difference_per100: float,
    bounds: tuple[float, float],
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    runs: int = 40,
    max_hands: int = 2_000_000,
    seed: int = 0,
    reduction: float | None = None,
) -> Plan:
    """The plan from a pilot's per-hand results of the agent whose win rate is to be separated."""
    values = np.asarray(pilot, dtype=float)
    if values.size < 30:
        raise ShowdownError(f"a pilot of {values.size} hands is too short to estimate the spread: play at least 30")
    if not 0 < alpha < 1 or not 0 < power < 1:
        raise ShowdownError("alpha and power are probabilities strictly between 0 and 1")
    delta = difference_per100 / 100.0
    sd = float(values.std(ddof=1))
    fixed = fixed_sample_hands(sd, delta, alpha, power)
    batch = max(50, min(2000, fixed // 20))  # the stopping hand is found to within one batch
    median, q = anytime_hands(values, delta, bounds, alpha=alpha, power=power, runs=runs, max_hands=max_hands, seed=seed, batch=batch)
    return Plan(difference_per100, sd, int(values.size), alpha, power, fixed, median, q, max_hands, runs, reduction)


__all__ = ["Plan", "anytime_hands", "fixed_sample_hands", "make_plan"]

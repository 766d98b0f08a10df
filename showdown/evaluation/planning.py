"""How many hands a match needs: from a pilot's per-hand results to a plan.

Two answers for the question "how many hands until I know agent A wins at least D per 100 hands":

* **fixed sample** (decide the number of hands in advance, look once): the classic two-sided test
  at level ``alpha`` with power ``power`` needs ``n = ((z_{1-alpha/2} + z_power) * sd / delta)^2``
  hands, ``sd`` the standard deviation of A's result per hand and ``delta = D / 100``;
* **anytime-valid** (``showdown match --until-separated``, look after every hand): the hands the
  empirical-Bernstein confidence sequence (``evaluation.confidence``) takes to exclude zero when A
  truly wins ``delta`` per hand, found by simulation: the pilot's results are resampled (bootstrap)
  and shifted to have mean ``delta``; the median and the ``power`` quantile of the stopping hand
  over simulated matches, each stopped at ``max_hands``. The number of simulated matches follows
  from the precision asked of the median (``precision``, relative): batches are simulated until the
  distribution-free 95% interval of the median (order statistics) is within it, and that interval
  is reported (40 runs left the median about 30% off; 400, about 3%).

A variance-reducing estimator (duplicate, AIVAT) divides the fixed-sample hands by its variance
reduction factor (``plain variance / reduced variance``), which ``plan`` reports when the pilot had one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from showdown.errors import ShowdownError
from showdown.evaluation.confidence import STOPPING_ALPHA, ConfidenceSequence


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
    median_ci: tuple[int | None, int | None] | None = None  # distribution-free 95% interval of the median stop

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
            "anytime_valid_alpha": STOPPING_ALPHA,
            "anytime_valid_median_hands": self.anytime_median,
            "anytime_valid_power_hands": self.anytime_power,
            "max_hands": self.max_hands,
            "simulated_runs": self.runs,
            "anytime_valid_median_ci95": list(self.median_ci) if self.median_ci is not None else None,
            "anytime_valid_median_precision": self.median_precision,
        }

    @property
    def median_precision(self) -> float | None:
        """Half the width of the median's 95% interval, relative to the median (None when unknown)."""
        if self.median_ci is None or self.anytime_median is None or None in self.median_ci:
            return None
        lo, hi = self.median_ci
        assert lo is not None and hi is not None
        return (hi - lo) / 2 / self.anytime_median


PROBABILITY_EDGE = 1e-12
"""The nearest to 0 or 1 a level or a power may be: normal quantiles there are still exact in floats."""
MAX_RUNS = 10_000
"""The most simulated matches a plan may ask for (1,000 give the median within a few per cent; each may
play millions of hands)."""
MAX_ROOT = 1e9
"""The square root of the most hands a plan may ask for (1e18: a hand count a log can still hold)."""


def fixed_sample_hands(sd: float, delta: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Hands for a two-sided level-``alpha`` test to detect a mean of ``delta`` with ``power``."""
    if not (math.isfinite(delta) and delta > 0):
        raise ShowdownError(f"the difference to detect must be a number above zero, got {delta!r}")
    z = NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)
    root = z * sd / delta
    if not root <= MAX_ROOT:  # NaN too
        raise ShowdownError(f"a difference of {delta:g} a hand is too small to tell from zero with a spread of {sd:g} "
                            f"a hand: it would take more than {MAX_ROOT**2:.0e} hands")
    return max(2, math.ceil(root**2))


def shifted_to_mean(pilot: np.ndarray, delta: float, bounds: tuple[float, float]) -> np.ndarray:
    """The pilot's results moved by one amount, kept within ``bounds``, so that their mean is ``delta``.
    Moved by ``delta - mean`` then clipped, the results at the bound were cut back: a Kuhn pilot
    (a quarter of its hands at +2) moved to +0.5/100 had +0.12/100 left, and the plan asked 18 times
    the hands. The amount is found by bisection (the clipped mean grows with it)."""
    low, high = bounds
    if not low < delta < high:
        return np.asarray(np.clip(pilot - pilot.mean() + delta, low, high))
    below, above = low - float(pilot.max()), high - float(pilot.min())  # all at low / all at high
    for _ in range(200):
        shift = (below + above) / 2
        if float(np.clip(pilot + shift, low, high).mean()) < delta:
            below = shift
        else:
            above = shift
        if above - below <= 1e-12 * max(1.0, abs(shift)):
            break
    return np.clip(pilot + (below + above) / 2, low, high)


def stopping_hands(
    pilot: np.ndarray, delta: float, bounds: tuple[float, float], runs: int, *, alpha: float = 0.05,
    max_hands: int = 2_000_000, rng: np.random.Generator, batch: int = 2000,
) -> list[float]:
    """The hand at which the confidence sequence first excludes zero in each of ``runs`` bootstrap
    matches whose results have mean ``delta`` (inf: not by ``max_hands``)."""
    low, high = bounds
    shifted = shifted_to_mean(pilot, delta, bounds)
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
    return stops


def median_interval(stops: list[float]) -> tuple[float, float]:
    """Distribution-free 95% interval of the median: the order statistics n/2 -+ 1.96 sqrt(n)/2."""
    ordered = sorted(stops)
    n = len(ordered)
    half = 1.959963984540054 * math.sqrt(n) / 2
    return ordered[max(0, math.floor(n / 2 - half))], ordered[min(n - 1, math.ceil(n / 2 + half))]


def anytime_hands(
    pilot: np.ndarray,
    delta: float,
    bounds: tuple[float, float],
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    runs: int | None = None,
    precision: float = 0.05,
    max_runs: int = 1000,
    max_hands: int = 2_000_000,
    seed: int = 0,
    batch: int = 2000,
) -> tuple[int | None, int | None, int, tuple[int | None, int | None]]:
    """(median, ``power`` quantile, runs simulated, the median's 95% interval) of the hand at which
    the confidence sequence first excludes zero; ``runs`` fixed, or else batches until the median's
    interval is within ``precision`` of it (at most ``max_runs``). None where most runs (or more than
    ``1 - power`` of them) had not stopped by ``max_hands``."""
    rng = np.random.default_rng(seed)
    stops: list[float] = []
    target = runs if runs is not None else 40
    while True:
        stops += stopping_hands(pilot, delta, bounds, target - len(stops), alpha=alpha, max_hands=max_hands, rng=rng, batch=batch)
        ordered = sorted(stops)
        median = ordered[len(ordered) // 2]
        lo, hi = median_interval(stops)
        if runs is not None or math.isinf(hi) or len(stops) >= max_runs or (hi - lo) / 2 <= precision * median:
            break
        target = min(max_runs, 2 * len(stops))
    quantile = ordered[min(len(ordered) - 1, math.ceil(power * len(ordered)) - 1)]
    return _hands(median), _hands(quantile), len(stops), (_hands(lo), _hands(hi))


def _hands(x: float) -> int | None:
    return None if math.isinf(x) else int(x)


def make_plan(
    pilot: np.ndarray,
    difference_per100: float,
    bounds: tuple[float, float],
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    runs: int | None = None,
    precision: float = 0.05,
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
    if not (PROBABILITY_EDGE <= alpha / 2 and power <= 1 - PROBABILITY_EDGE):  # (1 - 1e-300 is 1.0: a StatisticsError traceback)
        raise ShowdownError(f"alpha {alpha:.15g} or power {power:.15g} is too near 0 or 1 to plan for: give alpha of at least "
                            f"{2 * PROBABILITY_EDGE:g} and power of at most {1 - PROBABILITY_EDGE}")
    delta = difference_per100 / 100.0
    sd = float(values.std(ddof=1))
    if not sd > 0.0:  # (it planned 2 hands from a spread of 0: a certainty no pilot gives)
        raise ShowdownError(f"the pilot's {values.size} hands all came out alike ({values[0]:+g} chips each): they show no spread "
                            "to plan from; play a pilot whose results vary (other agents, or more hands)")
    fixed = fixed_sample_hands(sd, delta, alpha, power)
    batch = max(50, min(2000, fixed // 20))  # the stopping hand is found to within one batch
    # the stopping rule `match` runs (95%, whatever the fixed test's alpha): the plan is for that command
    median, q, ran, ci = anytime_hands(values, delta, bounds, alpha=STOPPING_ALPHA, power=power, runs=runs, precision=precision,
                                       max_hands=max_hands, seed=seed, batch=batch)
    return Plan(difference_per100, sd, int(values.size), alpha, power, fixed, median, q, max_hands, ran, reduction, ci)


__all__ = ["Plan", "anytime_hands", "fixed_sample_hands", "make_plan", "median_interval", "shifted_to_mean", "stopping_hands"]

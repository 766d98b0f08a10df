"""Win rates with confidence intervals, per agent and per position, computed online.

Everything is kept as running sums (Welford's algorithm), so memory does not grow with the number
of hands. Results are in chips per 100 hands (and milli-big-blinds per hand, mbb/hand =
1000 x chips / (hands x big blind), the ACPC unit), each with a 95% normal confidence interval.

Per agent the variance is *stratified by position*: with seats rotating, an agent plays every
position a fixed share of the hands by design, so its total is a sum of independent per-position
samples and its variance is ``sum_p n_p s_p^2`` (s_p^2 the sample variance of its results at
position p). Pooling all hands instead would count the positional edge (a fixed, not a random,
effect) as noise. With fixed seats there is one stratum and both agree. Per position the results
of whoever sat there are pooled.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from showdown.protocol.logfile import HandRecord

__all__ = ["Z95", "Welford", "Estimate", "MatchStats"]

Z95 = 1.959963984540054
"""Two-sided 95% quantile of the standard normal distribution."""


class Welford:
    """Running count, sum, mean and sum of squared deviations (Welford 1962)."""

    __slots__ = ("n", "total", "mean", "m2")

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0  # kept apart from the mean: chip totals stay exact
        self.mean = 0.0
        self.m2 = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        d = x - self.mean
        self.mean += d / self.n
        self.m2 += d * (x - self.mean)

    @property
    def variance(self) -> float | None:
        """Sample variance (n - 1 denominator); None below two samples."""
        return self.m2 / (self.n - 1) if self.n > 1 else None

    def merged(self, other: Welford) -> Welford:
        """The statistics of both samples together (Chan et al.'s parallel update)."""
        out = Welford()
        out.n = self.n + other.n
        out.total = self.total + other.total
        if out.n:
            d = other.mean - self.mean
            out.mean = self.mean + d * other.n / out.n
            out.m2 = self.m2 + other.m2 + d * d * self.n * other.n / out.n
        return out


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean result per hand with its standard error; derived figures per 100 hands and in mbb.

    ``se`` is None when it cannot be estimated (fewer than two hands).
    """

    hands: int
    total: float
    mean: float
    se: float | None
    big_blind: int = 1

    @property
    def per100(self) -> float:
        return 100.0 * self.total / self.hands if self.hands else 0.0

    @property
    def ci95(self) -> tuple[float, float] | None:
        """95% interval for the per-100-hands rate."""
        if self.se is None:
            return None
        half = 100.0 * Z95 * self.se
        return (self.per100 - half, self.per100 + half)

    @property
    def mbb(self) -> float:
        """Milli-big-blinds per hand."""
        return 1000.0 * self.total / (self.hands * self.big_blind) if self.hands else 0.0

    @property
    def ci95_mbb(self) -> tuple[float, float] | None:
        if self.se is None:
            return None
        half = 1000.0 * Z95 * self.se / self.big_blind
        return (self.mbb - half, self.mbb + half)


class MatchStats:
    """Per-seat (agent) and per-position results of a match, fed one hand at a time."""

    def __init__(self, names: Sequence[str], big_blind: int = 1, num_positions: int | None = None) -> None:
        self.names = tuple(names)
        n = len(self.names) if num_positions is None else num_positions
        self.big_blind = max(1, big_blind)
        self.hands = 0
        self._cells = [[Welford() for _ in range(n)] for _ in self.names]  # [seat][position]
        self._positions = [Welford() for _ in range(n)]

    def add(self, seats: Sequence[int], values: Sequence[float]) -> None:
        """One hand: ``seats[p]`` sat at position p and won ``values[p]``."""
        self.hands += 1
        cells = self._cells
        positions = self._positions
        for p, seat in enumerate(seats):
            v = values[p]
            cells[seat][p].add(v)
            positions[p].add(v)

    def add_record(self, record: HandRecord) -> None:
        self.add(record.seats, record.values)

    def agent(self, seat: int) -> Estimate:
        """The result of the agent in ``seat``, its variance stratified by position."""
        cells = [c for c in self._cells[seat] if c.n]
        n = sum(c.n for c in cells)
        total = sum(c.total for c in cells)
        if n == 0:
            return Estimate(0, 0.0, 0.0, None, self.big_blind)
        se: float | None = None
        if n > 1:
            if all(c.n > 1 for c in cells):
                # sum_p n_p s_p^2, with s_p^2 = M2_p / (n_p - 1)
                var_sum = sum(c.n / (c.n - 1) * c.m2 for c in cells)
            else:  # a position seen once: fall back to the pooled variance
                pooled = Welford()
                for c in cells:
                    pooled = pooled.merged(c)
                assert pooled.variance is not None
                var_sum = n * pooled.variance
            se = math.sqrt(var_sum) / n
        return Estimate(n, total, total / n, se, self.big_blind)

    def position(self, position: int) -> Estimate:
        """The result at ``position``, whoever sat there."""
        w = self._positions[position]
        var = w.variance
        se = None if var is None else math.sqrt(var / w.n)
        return Estimate(w.n, w.total, w.total / w.n if w.n else 0.0, se, self.big_blind)

    def agents(self) -> list[Estimate]:
        return [self.agent(s) for s in range(len(self.names))]

    def positions(self) -> list[Estimate]:
        return [self.position(p) for p in range(len(self._positions))]

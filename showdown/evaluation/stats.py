"""Win rates with confidence intervals, per agent, per position and between agents, computed online.

Everything is kept as running sums (Welford's algorithm), so memory does not grow with the number
of hands. Results are in chips per 100 hands (and milli-big-blinds per hand, mbb/hand =
1000 x chips / (hands x big blind), the ACPC unit), each with a 95% confidence interval.

The variance is *stratified*: with seats rotating, each agent plays every position a share of the
hands fixed by the design (not drawn at random), so an agent's total is a sum of independent
per-position samples and its variance is ``sum_p n_p s_p^2`` (``s_p^2`` the sample variance of its
results at position p). Pooling all hands instead would count the positional edge (a fixed effect)
as noise. In the same way a position's result aggregates whoever sat there, stratified by the agent
in the seat, and the difference between two agents is stratified by the pair of positions they had.
With fixed seats there is a single stratum and every formula is the textbook one.

Intervals and p-values use Student's t with the sample's degrees of freedom (Welch-Satterthwaite's
over the strata; the normal quantile once they are many, as in matches of thousands of hands): the
normal quantile alone left a 10-hand match's 95% interval covering 91% of the time, a 2-hand one's
58 to 77% (``showdown match kuhn equilibrium bluff``, chunks of one long seeded match). A sample with
no spread at all (one or two hands, or every hand won the same) has no standard error to speak of:
its interval is not available (None), not zero wide, unless the estimator is exact (AIVAT with every
strategy known: ``exact``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from showdown.evaluation.student import t_quantile, t_two_sided
from showdown.protocol.logfile import HandRecord

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "Z95",
    "quantile95",
    "Welford",
    "Estimate",
    "Difference",
    "MatchStats",
    "stratified_estimate",
    "sample_estimate",
    "two_sided_p",
    "variance_ratio",
]

Z95 = 1.959963984540054
"""Two-sided 95% quantile of the standard normal distribution."""


EXACT_ZERO = 1e-9
"""An exact (zero-variance) mean below this many chips per hand counts as zero."""


def two_sided_p(z: float, df: float | None = None) -> float:
    """Two-sided p-value of a statistic ``z``: standard normal (``df`` None), else Student's t with ``df``
    degrees of freedom: ``P(|T| >= |z|)``."""
    if math.isnan(z):
        return float("nan")
    if df is None or df >= NORMAL_DF:
        return math.erfc(abs(z) / math.sqrt(2.0))
    return t_two_sided(z, df)


NORMAL_DF = 1e5
"""From this many degrees of freedom on, t is taken as normal (its 95% quantile 1.2e-5 wider)."""


def quantile95(df: float | None = None) -> float:
    """The two-sided 95% quantile: the normal's (``df`` None), else Student's t with ``df`` degrees of freedom."""
    if df is None or df >= NORMAL_DF:
        return Z95
    return t_quantile(float(df))


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

    @classmethod
    def of(cls, values: Iterable[float]) -> Welford:
        """The statistics of ``values`` (a numpy array is summarised in one pass)."""
        try:
            import numpy as np
        except ImportError:  # pragma: no cover - numpy is a dependency
            np = None  # type: ignore[assignment]
        out = cls()
        if np is not None and isinstance(values, np.ndarray):
            x = values.astype(np.float64, copy=False).ravel()
            out.n = int(x.size)
            if out.n:
                out.total = float(x.sum())
                if x.min() == x.max():  # constant (an exact estimator): no rounding noise
                    out.mean = float(x[0])
                else:
                    out.mean = out.total / out.n
                    out.m2 = float(((x - out.mean) ** 2).sum())
            return out
        for v in values:
            out.add(float(v))
        return out

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

    def update(self, other: Welford) -> None:
        """Merge ``other`` into this one in place."""
        m = self.merged(other)
        self.n, self.total, self.mean, self.m2 = m.n, m.total, m.mean, m.m2


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean result per hand with its standard error; derived figures per 100 hands and in mbb.

    ``se`` is the standard error of ``mean`` (chips per hand); None when it cannot be estimated
    (fewer than two hands). ``df``: its degrees of freedom (Student's t intervals and p-values), None
    for the normal approximation.
    """

    hands: int
    total: float
    mean: float
    se: float | None
    big_blind: int = 1
    df: float | None = None

    @property
    def per100(self) -> float:
        return 100.0 * self.total / self.hands if self.hands else 0.0

    @property
    def se100(self) -> float | None:
        """Standard error per 100 hands."""
        return None if self.se is None else 100.0 * self.se

    @property
    def half_width(self) -> float | None:
        """Half the width of the 95% interval, per 100 hands."""
        return None if self.se is None else 100.0 * quantile95(self.df) * self.se

    @property
    def ci95(self) -> tuple[float, float] | None:
        """95% interval for the per-100-hands rate."""
        if self.se is None:
            return None
        half = 100.0 * quantile95(self.df) * self.se
        return (self.per100 - half, self.per100 + half)

    @property
    def mbb(self) -> float:
        """Milli-big-blinds per hand."""
        return 1000.0 * self.total / (self.hands * self.big_blind) if self.hands else 0.0

    @property
    def ci95_mbb(self) -> tuple[float, float] | None:
        if self.se is None:
            return None
        half = 1000.0 * quantile95(self.df) * self.se / self.big_blind
        return (self.mbb - half, self.mbb + half)

    @property
    def p_value(self) -> float | None:
        """Two-sided p-value of "the true mean is 0" (None without a standard error)."""
        if self.se is None:
            return None
        if self.se == 0.0:  # an exact value: zero up to float round-off of the sums, or not
            return 1.0 if abs(self.mean) < EXACT_ZERO else 0.0
        return two_sided_p(self.mean / self.se, self.df)

    def as_json(self) -> dict[str, Any]:
        """The figures as plain JSON values (intervals as two-element lists or null)."""
        return {
            "hands": self.hands,
            "total": self.total,
            "per100": self.per100,
            "se100": self.se100,
            "ci95": _pair(self.ci95),
            "mbb_per_hand": self.mbb,
            "ci95_mbb": _pair(self.ci95_mbb),
        }


def _pair(ci: tuple[float, float] | None) -> list[float] | None:
    if ci is None or not all(math.isfinite(x) for x in ci):
        return None
    return [ci[0], ci[1]]


@dataclass(frozen=True, slots=True)
class Difference:
    """Agent ``a`` minus agent ``b``, per hand over the hands both played, with a test of "no difference"."""

    a: str
    b: str
    estimate: Estimate

    @property
    def p_value(self) -> float | None:
        return self.estimate.p_value

    def as_json(self) -> dict[str, Any]:
        e = self.estimate
        return {"a": self.a, "b": self.b, "hands": e.hands, "per100": e.per100, "ci95": _pair(e.ci95), "p_value": e.p_value}


def _no_spread(se: float | None, exact: bool) -> float | None:
    """``se``, or None when it is 0 from a sample of an estimator that is not exact: values that
    happened to agree tell nothing of the spread, and a zero-wide interval would claim certainty."""
    return None if se == 0.0 and not exact else se


def stratified_estimate(cells: Sequence[Welford], big_blind: int = 1, exact: bool = False) -> Estimate:
    """The mean over all samples of ``cells`` (strata) with the stratified standard error.

    Var(total) = sum over strata of ``n_s s_s^2``; when a stratum has a single sample its variance
    cannot be estimated and the pooled variance of all samples is used instead. ``exact`` values
    (each stratum's the exact expected value of its seating) have a standard error of 0 however few
    they are (pooling would count the gap between strata as noise); other values that show no spread
    have none (None, see ``_no_spread``).
    """
    cells = [c for c in cells if c.n]
    n = sum(c.n for c in cells)
    total = sum(c.total for c in cells)
    if n == 0:
        return Estimate(0, 0.0, 0.0, None, big_blind)
    se: float | None = 0.0 if exact else None
    df: float | None = None
    if n > 1 and not exact:
        if all(c.n > 1 for c in cells):
            terms = [c.n / (c.n - 1) * c.m2 for c in cells]  # n_s s_s^2
            var_sum = sum(terms)
            spread = sum(t * t / (c.n - 1) for t, c in zip(terms, cells))
            df = var_sum * var_sum / spread if spread > 0 else float(n - len(cells))  # Welch-Satterthwaite
        else:
            pooled = Welford()
            for c in cells:
                pooled = pooled.merged(c)
            assert pooled.variance is not None
            var_sum = n * pooled.variance
            df = float(n - 1)
        se = _no_spread(math.sqrt(max(var_sum, 0.0)) / n, exact)
    return Estimate(n, total, total / n, se, big_blind, df)


def sample_estimate(values: Iterable[float], big_blind: int = 1, hands_per_sample: int = 1, exact: bool = False) -> Estimate:
    """The mean of independent identically distributed samples (e.g. duplicate deals).

    Each sample stands for ``hands_per_sample`` hands (a deal played once per duplicate half): the
    estimate is per hand, its total the sum of every hand's value. ``exact`` values have a standard
    error of 0, one sample or many; other values that show no spread have none (None).
    """
    w = Welford.of(values)
    if w.n == 0:
        return Estimate(0, 0.0, 0.0, None, big_blind)
    var = w.variance
    se = 0.0 if exact else None if var is None else _no_spread(math.sqrt(max(var, 0.0) / w.n), exact)
    return Estimate(w.n * hands_per_sample, w.total * hands_per_sample, w.mean, se, big_blind, float(w.n - 1) if w.n > 1 else None)


def variance_ratio(plain: Estimate, better: Estimate) -> float | None:
    """How many times fewer hands ``better`` needs than ``plain`` for the same interval width.

    ``(se_plain / se_better)^2``; infinite when ``better`` has no sampling error at all.
    """
    if plain.se is None or better.se is None:
        return None
    if better.se == 0.0:
        return math.inf if plain.se > 0.0 else None
    return (plain.se / better.se) ** 2


class MatchStats:
    """Per-seat (agent), per-position and pairwise results of a match, fed one hand at a time."""

    def __init__(self, names: Sequence[str], big_blind: int = 1, num_positions: int | None = None, exact: bool = False) -> None:
        self.names = tuple(names)
        self.exact = exact  # the values are exact (no sampling error): a standard error of 0 stands
        n = len(self.names) if num_positions is None else num_positions
        self.num_positions = n
        self.big_blind = max(1, big_blind)
        self.hands = 0
        self._cells = [[Welford() for _ in range(n)] for _ in self.names]  # [seat][position]
        # [a][b] for a < b: results of seat a minus seat b, by (position of a) * n + (position of b)
        self._diffs: dict[tuple[int, int], dict[int, Welford]] = {}

    def add(self, seats: Sequence[int], values: Sequence[float]) -> None:
        """One hand: ``seats[p]`` sat at position p and won ``values[p]``."""
        self.hands += 1
        cells = self._cells
        for p, seat in enumerate(seats):
            cells[seat][p].add(values[p])
        if len(seats) > 1:
            n = self.num_positions
            for p in range(len(seats)):
                for q in range(len(seats)):
                    a, b = seats[p], seats[q]
                    if a < b:
                        strata = self._diffs.setdefault((a, b), {})
                        w = strata.get(p * n + q)
                        if w is None:
                            w = strata[p * n + q] = Welford()
                        w.add(values[p] - values[q])

    def add_record(self, record: HandRecord) -> None:
        self.add(record.seats, record.values)

    def add_many(self, seats: ArrayLike, values: ArrayLike) -> None:
        """Many hands at once: ``seats`` and ``values`` are ``(hands, positions)`` arrays (as ``add``)."""
        import numpy as np

        seats = np.asarray(seats, dtype=np.int64)
        values = np.asarray(values, dtype=np.float64)
        if seats.ndim != 2 or seats.shape != values.shape:
            raise ValueError("seats and values must be (hands, positions) arrays of the same shape")
        hands, positions = seats.shape
        if hands == 0:
            return
        self.hands += hands
        n = self.num_positions
        for p in range(positions):
            column = seats[:, p]
            for s in np.unique(column).tolist():
                self._cells[s][p].update(Welford.of(values[column == s, p]))
        for p in range(positions):
            for q in range(positions):
                if p == q:
                    continue
                a_col, b_col = seats[:, p], seats[:, q]
                keep = a_col < b_col
                if not keep.any():
                    continue
                d = values[keep, p] - values[keep, q]
                pairs = a_col[keep] * len(self.names) + b_col[keep]
                for code in np.unique(pairs).tolist():
                    a, b = divmod(code, len(self.names))
                    strata = self._diffs.setdefault((a, b), {})
                    w = strata.setdefault(p * n + q, Welford())
                    w.update(Welford.of(d[pairs == code]))

    def agent(self, seat: int) -> Estimate:
        """The result of the agent in ``seat``, its variance stratified by position."""
        return stratified_estimate(self._cells[seat], self.big_blind, self.exact)

    def position(self, position: int) -> Estimate:
        """The result at ``position``, whoever sat there (stratified by the agent in it)."""
        return stratified_estimate([row[position] for row in self._cells], self.big_blind, self.exact)

    def agents(self) -> list[Estimate]:
        return [self.agent(s) for s in range(len(self.names))]

    def positions(self) -> list[Estimate]:
        return [self.position(p) for p in range(self.num_positions)]

    def difference(self, a: int, b: int) -> Difference:
        """Seat ``a``'s result minus seat ``b``'s per hand, stratified by their positions."""
        if a == b:
            raise ValueError("a difference needs two different seats")
        lo, hi = min(a, b), max(a, b)
        strata = list(self._diffs.get((lo, hi), {}).values())
        e = stratified_estimate(strata, self.big_blind, self.exact)
        if a > b:  # stored as lo - hi
            e = Estimate(e.hands, -e.total, -e.mean, e.se, e.big_blind, e.df)
        return Difference(self.names[a], self.names[b], e)

    def differences(self) -> list[Difference]:
        """Every pair of seats, lower seat first."""
        n = len(self.names)
        return [self.difference(a, b) for a in range(n) for b in range(a + 1, n)]

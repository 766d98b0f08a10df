"""Student's t distribution without scipy (whose import costs a match's report a third of a second):
the two-sided tail by the regularized incomplete beta function (Lentz's continued fraction, as in
Numerical Recipes' ``betacf``) and the quantile by Newton's method on it. Both agree with scipy's
``stdtr`` and ``stdtrit`` to 1e-12 (``tests/evaluation/test_stats.py``)."""

from __future__ import annotations

import functools
import math
from statistics import NormalDist

__all__ = ["t_two_sided", "t_quantile"]


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < eps:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)``."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_two_sided(t: float, df: float) -> float:
    """``P(|T| >= |t|)`` for Student's t with ``df`` > 0 degrees of freedom."""
    return _betainc(df / 2.0, 0.5, df / (df + t * t))


def _density(t: float, df: float) -> float:
    return math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - (df + 1) / 2 * math.log1p(t * t / df)) / math.sqrt(df * math.pi)


@functools.lru_cache(maxsize=4096)
def t_quantile(df: float, tail: float = 0.05) -> float:
    """The ``t`` > 0 with ``P(|T| >= t) = tail`` (0.05: the two-sided 95% quantile): Cornish-Fisher's
    expansion about the normal quantile, then Newton's steps on the tail (a few at most)."""
    z = NormalDist().inv_cdf(1 - tail / 2)
    if df <= 2.0:  # closed forms of 1 and 2 degrees of freedom bracket the start
        t = math.tan(math.pi * (1 - tail) / 2) if df <= 1.0 else math.sqrt(2.0 / (tail * (2 - tail)) - 2.0)
    else:
        z2 = z * z
        t = z + z * (z2 + 1) / (4 * df) + z * (5 * z2 * z2 + 16 * z2 + 3) / (96 * df * df) + z * (
            3 * z2 ** 3 + 19 * z2 * z2 + 17 * z2 - 15) / (384 * df ** 3)
        if df >= 1000:  # the expansion alone is within 1e-11 there
            return t
    for _ in range(50):
        step = (t_two_sided(t, df) - tail) / (2.0 * _density(t, df))
        t = max(t + step, t / 2)
        if abs(step) < 1e-13 * t:
            break
    return t

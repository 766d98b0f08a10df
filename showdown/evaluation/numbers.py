"""Figures as text: as many decimals as it takes to show what the statistics say, and the sign kept.

A column is printed with one number of decimals (so it lines up), at least two, and more where
needed: enough for one significant digit of the narrowest 95% half-width, and for the first
significant digit of every value its interval (or an exact value) separates from zero. So an exact
-0.00088 chips/100 reads ``-0.0009``, not ``+0.00``, while a rate of +3.21 ±1.50 stays two decimals.
Only float round-off of an exact zero (below ``EXACT_ZERO`` per hand) prints as ``+0.00``.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Sequence

from showdown.evaluation.stats import EXACT_ZERO, Estimate

__all__ = ["MOST_DECIMALS", "counted", "decimals", "decimals_of", "gain_text", "interval_text", "left", "mbb_interval", "right", "signed", "width"]

MOST_DECIMALS = 6
"""Never more decimals than this (0.000001 chips per 100 hands is far below any real difference)."""


def counted(n: int, word: str = "hand") -> str:
    """``n`` with its thousands separated and ``word`` in the number it takes: '1 hand', '3,000 hands'."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def decimals(pairs: Iterable[tuple[float, float | None]], least: int = 2, most: int = MOST_DECIMALS) -> int:
    """Decimals for a column of ``(value, 95% half-width)`` pairs (half-width None: unknown)."""
    d = least
    for value, half in pairs:
        if half is None or not math.isfinite(half) or not math.isfinite(value):
            continue
        if half > 0:
            d = max(d, _first_digit(half))
        if abs(value) > max(half, 100 * EXACT_ZERO):  # separated from zero: show its first digit
            d = max(d, _first_digit(abs(value)))
    return min(d, most)


def decimals_of(estimates: Iterable[Estimate | None], least: int = 2, mbb: bool = False) -> int:
    """``decimals`` for a column of estimates per 100 hands (or in mbb/hand)."""
    pairs = []
    for e in estimates:
        if e is None or not e.hands:
            continue
        half = e.half_width
        if mbb and half is not None:
            half = 10.0 * half / e.big_blind
        pairs.append((e.mbb if mbb else e.per100, half))
    return decimals(pairs, least)


def signed(x: float, digits: int = 2) -> str:
    """``x`` with its sign and ``digits`` decimals; only an exact zero's round-off reads ``+0.00``."""
    if abs(x) < 100 * EXACT_ZERO:
        x = 0.0
    return f"{x:+,.{digits}f}"


def interval_text(ci: tuple[float, float] | None, digits: int = 2) -> str:
    if ci is None:
        return "n/a"
    return f"[{signed(ci[0], digits)}, {signed(ci[1], digits)}]"


def mbb_interval(ci: Sequence[float] | None, digits: int = 1) -> str:
    """A JSON interval (two numbers, or null: none to be had) as text: ``[-12.5, +40.0]`` or ``n/a``."""
    if ci is None:
        return "n/a"
    return f"[{ci[0]:+.{digits}f}, {ci[1]:+.{digits}f}]"


def gain_text(x: float | None) -> str:
    """How many times fewer hands an estimator needs than the plain one (``exact``: no sampling error)."""
    if x is None:
        return "n/a"
    if math.isinf(x):
        return "exact"
    return f"x{x:.1f}"


def _first_digit(x: float) -> int:
    """Decimals that show the first significant digit of ``x`` > 0."""
    return max(0, -math.floor(math.log10(x)))


def width(text: str) -> int:
    """The terminal columns ``text`` takes: two for a wide (CJK) character, none for a combining mark."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def left(text: str, columns: int) -> str:
    """``text`` padded on the right to ``columns`` terminal columns (``str.ljust`` counts characters)."""
    return text + " " * (columns - width(text))


def right(text: str, columns: int) -> str:
    """``text`` padded on the left to ``columns`` terminal columns."""
    return " " * (columns - width(text)) + text

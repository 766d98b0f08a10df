"""The dealer's clock as an agent learns it: the ACPC protocol never sends the time limits, so
``showdown match`` (and ``check-bot``) hand them to every agent process in ``SHOWDOWN_TIME_LIMITS``
(``response_ms=10000,hand_ms=60000,per_hand_ms=7000``), which any bot may read with
``dealer_clock()``. The ``cfr`` agent keeps each decision, and its mean time a hand, under a share of
them: a match with a short clock gets the blueprint (fast) rather than the dealer's check/fold."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["CLOCK_ENV", "DealerClock", "clock_text", "dealer_clock"]

CLOCK_ENV = "SHOWDOWN_TIME_LIMITS"

DECISION_SHARE = 0.5
"""The share of the dealer's time per decision a searching agent may think (the rest: the ranges, the
reply's way to the dealer, a loaded machine)."""

HAND_DECISIONS = 4
"""Decisions a hand may search (the turn's and the river's, a raise and a re-raise each): each gets at
most ``DECISION_SHARE / HAND_DECISIONS`` of the dealer's time per hand."""

RESERVE_MS = 50.0
"""Milliseconds of every decision's limit kept for what is not solving (the ranges, the reply)."""


@dataclass(frozen=True, slots=True)
class DealerClock:
    """The dealer's limits in milliseconds: per decision, per seat and hand, and the mean a hand over
    the match (None: not known)."""

    response_ms: float | None = None
    hand_ms: float | None = None
    per_hand_ms: float | None = None

    def decision_ms(self) -> float | None:
        """The most a decision may think: a share of the time per decision and of the time per hand,
        less ``RESERVE_MS``; None without limits."""
        caps = [DECISION_SHARE * self.response_ms - RESERVE_MS] if self.response_ms is not None else []
        if self.hand_ms is not None:
            caps.append(DECISION_SHARE * self.hand_ms / HAND_DECISIONS - RESERVE_MS)
        return max(0.0, min(caps)) if caps else None

    def mean_hand_ms(self) -> float | None:
        """The most a hand may think on average over the match (a share of the dealer's mean a hand)."""
        return None if self.per_hand_ms is None else DECISION_SHARE * self.per_hand_ms


def clock_text(response_ms: float, hand_ms: float, per_hand_ms: float) -> str:
    """The ``SHOWDOWN_TIME_LIMITS`` value of a dealer's limits."""
    return f"response_ms={response_ms:g},hand_ms={hand_ms:g},per_hand_ms={per_hand_ms:g}"


def dealer_clock(environ: Mapping[str, str] | None = None) -> DealerClock:
    """The limits in ``SHOWDOWN_TIME_LIMITS`` (each unknown when absent, not a positive number, or the
    variable is unset: a bot started by hand knows nothing of the clock)."""
    text = (os.environ if environ is None else environ).get(CLOCK_ENV, "")
    found: dict[str, float] = {}
    for part in text.split(","):
        key, _, value = part.partition("=")
        try:
            number = float(value)
        except ValueError:
            continue
        if key.strip() in ("response_ms", "hand_ms", "per_hand_ms") and math.isfinite(number) and number > 0:
            found[key.strip()] = number
    return DealerClock(**found)

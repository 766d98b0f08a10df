"""The parameterized family of equilibrium profiles of 3-player Kuhn poker.

Szafron, Gibson and Sturtevant (2013), "A parameterized family of equilibrium profiles for
three-player Kuhn poker" (AAMAS). Cards J < Q < K < A, ante 1, one bet of 1; P1, P2, P3 act in that
order (our positions 0, 1, 2). The values per hand are the paper's: P1 ``-(1 + 2 beta)/48``, P2
``-1/48`` in every member, P3 ``(1 + beta)/24``, with ``beta = max(b11, b21)``: P2's bluffing moves
chips from P1 to P3 while its own value stays put.

The free parameters are probabilities: ``b11``/``b21`` (P2 bets J/Q after P1 checks), ``b23`` (P2
calls with Q after check, check, bet, fold), ``b32`` (P2 calls P1's bet with K), ``c11`` (P3 bets J
after two checks), ``c33``/``c34`` (P3 calls with K after bet-fold / bet-call). The others follow:
``c21 = 1/2 - c11``, ``b41 = 2 (b11 + b21)``, ``b33 = 1/2 + (b11 + b21)/2 + max(b11, b21)/2 - b23 (1 - b21)``.
The family splits on ``c11``: ``c11 = 0`` (then ``b11 <= b21 <= 1/4``, ``b23 = 0``);
``0 < c11 < 1/2`` (``b21 = b11 <= 1/4``, and ``c11 <= (2 - b11)/(3 + 4 b11)`` when ``b11 > 1/6``);
``c11 = 1/2`` (``b11 <= 1/4``, ``b21 <= min(b11, 1/2 - 2 b11)``). ``b23`` is at most
``max(0, (b11 - b21) / (2 (1 - b21)))``; ``b32`` at most ``1/2 + 3/4 (b11 + b21) + max(b11, b21)/4``;
``c33`` lies in ``[1/2 - b32, 1/2 - b32 + 3/4 (b11 + b21) + max(b11, b21)/4]``. Every other action
is pure: P1 never bets and calls only with A (and with K half the time after check, bet, fold).
"""

from __future__ import annotations

from fractions import Fraction

from showdown.errors import SolverError
from showdown.games.catalog import get_game
from showdown.solvers.strategy import Strategy

P2_VALUE = Fraction(-1, 48)
"""The second player's value in every member of the family (chips per hand)."""


def family_values(b11: float = 0.0, b21: float = 0.0) -> tuple[float, float, float]:
    """The paper's values of P1, P2, P3 for a member with these P2 bluffing frequencies."""
    beta = max(b11, b21)
    return (-(1 + 2 * beta) / 48, float(P2_VALUE), (1 + beta) / 24)

RANKS = ("J", "Q", "K", "A")


def kuhn3p_equilibrium(
    c11: float = 0.0,
    b11: float = 0.0,
    b21: float = 0.0,
    b23: float = 0.0,
    b32: float = 0.0,
    c33: float = 0.5,
    c34: float = 0.0,
) -> Strategy:
    """The profile of the family with these parameters (all three positions), checked against its domain."""
    tol = 1e-12
    for name, v in (("c11", c11), ("b11", b11), ("b21", b21), ("b23", b23), ("b32", b32), ("c33", c33), ("c34", c34)):
        if not -tol <= v <= 1 + tol:
            raise SolverError(f"3-player Kuhn family: {name} = {v} is not a probability")
    if c11 > 0.5 + tol:
        raise SolverError("3-player Kuhn family: c11 must be at most 1/2")
    beta = max(b11, b21)
    if c11 <= tol:
        if not b11 <= b21 + tol or b21 > 0.25 + tol:
            raise SolverError("3-player Kuhn family: with c11 = 0, b11 <= b21 <= 1/4")
    elif c11 < 0.5 - tol:
        if abs(b21 - b11) > tol or b11 > 0.25 + tol:
            raise SolverError("3-player Kuhn family: with 0 < c11 < 1/2, b21 = b11 <= 1/4")
        if b11 > 1 / 6 and c11 > (2 - b11) / (3 + 4 * b11) + tol:
            raise SolverError("3-player Kuhn family: c11 too large for this b11")
    else:
        if b11 > 0.25 + tol or b21 > min(b11, 0.5 - 2 * b11) + tol:
            raise SolverError("3-player Kuhn family: with c11 = 1/2, b11 <= 1/4 and b21 <= min(b11, 1/2 - 2 b11)")
    if b23 > max(0.0, (b11 - b21) / (2 * (1 - b21))) + tol:
        raise SolverError("3-player Kuhn family: b23 too large")
    spread = 0.75 * (b11 + b21) + beta / 4
    if b32 > 0.5 + spread + tol:
        raise SolverError("3-player Kuhn family: b32 too large")
    if not 0.5 - b32 - tol <= c33 <= 0.5 - b32 + spread + tol:
        raise SolverError("3-player Kuhn family: c33 outside [1/2 - b32, 1/2 - b32 + 3/4 (b11 + b21) + max(b11, b21)/4]")
    c21 = 0.5 - c11
    b41 = 2 * (b11 + b21)
    b33 = 0.5 + (b11 + b21) / 2 + beta / 2 - b23 * (1 - b21)
    # Probability of the aggressive action ("r" where one may bet, "c" where one faces a bet), per card.
    aggressive: dict[str, tuple[float, float, float, float]] = {
        "": (0.0, 0.0, 0.0, 0.0),  # P1 opens
        "ccr": (0.0, 0.0, 0.0, 1.0),
        "crf": (0.0, 0.0, 0.5, 1.0),
        "crc": (0.0, 0.0, 0.0, 1.0),
        "c": (b11, b21, 0.0, b41),  # P2
        "r": (0.0, 0.0, b32, 1.0),
        "ccrf": (0.0, b23, b33, 1.0),
        "ccrc": (0.0, 0.0, 0.0, 1.0),
        "cc": (c11, c21, 0.0, 1.0),  # P3
        "cr": (0.0, 0.0, 0.0, 1.0),
        "rf": (0.0, 0.0, c33, 1.0),
        "rc": (0.0, 0.0, c34, 1.0),
    }
    table: dict[str, dict[str, float]] = {}
    for betting, probs in aggressive.items():
        can_bet = betting in ("", "c", "cc")
        for rank, p in zip(RANKS, probs):
            p = min(1.0, max(0.0, p))
            table[f"{rank}s:/{betting}"] = {"c": 1.0 - p, "r": p} if can_bet else {"f": 1.0 - p, "c": p}
    return Strategy(get_game("kuhn3p"), table)


__all__ = ["P2_VALUE", "family_values", "kuhn3p_equilibrium"]

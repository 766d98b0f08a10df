"""Kuhn poker's equilibria in closed form (Kuhn 1950, "A simplified two-person poker").

Position 0 (the seeds' "P1", who acts first) is parametrised by ``y`` in [0, 1], the probability of
betting the ace:

* first move: bet Q with ``x = y / 3``, never bet K, bet A with ``y``;
* after check and a bet: fold Q, call K with ``z = (y + 1) / 3``, call A.

Position 1 (the seeds' "P2") has one equilibrium strategy:

* facing a bet: fold Q, call K with ``a = 1/3``, call A;
* after a check: bet Q with ``b = 1/3``, check K, bet A.

Every member is an equilibrium and the game value is -1/18 for position 0 whatever ``y``.
Cards are the ACPC deck's Q, K, A of spades (``"Qs"``, ``"Ks"``, ``"As"``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from showdown.errors import SolverError
from showdown.games.catalog import get_game
from showdown.solvers.strategy import Strategy

KUHN_VALUE = Fraction(-1, 18)
"""Position 0's value of Kuhn poker (Kuhn 1950; seeds 000/004: 17/18 - 1)."""


@dataclass(frozen=True, slots=True)
class KuhnParameters:
    """The five free probabilities of the seeds' analysis, read off a strategy profile."""

    y: float  # position 0 bets A
    x: float  # position 0 bets Q
    z: float  # position 0 calls with K after check-bet
    a: float  # position 1 calls a bet with K
    b: float  # position 1 bets Q after a check


def kuhn_equilibrium(y: float) -> Strategy:
    """The equilibrium profile of the family with position 0 betting the ace with probability ``y``."""
    if not 0.0 <= y <= 1.0:
        raise SolverError(f"the Kuhn family needs 0 <= y <= 1, got {y}")
    x, z, a, b = y / 3.0, (y + 1.0) / 3.0, 1.0 / 3.0, 1.0 / 3.0

    def bet(p: float) -> dict[str, float]:  # check/call first, then bet: the legal-action order
        return {"c": 1.0 - p, "r": p}

    def call(p: float) -> dict[str, float]:
        return {"f": 1.0 - p, "c": p}

    table = {
        "Qs:/": bet(x),
        "Ks:/": bet(0.0),
        "As:/": bet(y),
        "Qs:/cr": call(0.0),
        "Ks:/cr": call(z),
        "As:/cr": call(1.0),
        "Qs:/r": call(0.0),
        "Ks:/r": call(a),
        "As:/r": call(1.0),
        "Qs:/c": bet(b),
        "Ks:/c": bet(0.0),
        "As:/c": bet(1.0),
    }
    return Strategy(get_game("kuhn"), table)


def kuhn_parameters(strategy: Strategy) -> KuhnParameters:
    """``y, x, z, a, b`` of a Kuhn profile (whether or not it belongs to the family)."""
    s = strategy
    return KuhnParameters(
        y=s["As:/"]["r"], x=s["Qs:/"]["r"], z=s["Ks:/cr"]["c"], a=s["Ks:/r"]["c"], b=s["Qs:/c"]["r"]
    )


def family_deviation(strategy: Strategy) -> float:
    """Largest distance of any probability of ``strategy`` from the family member with the same ``y``."""
    member = kuhn_equilibrium(min(1.0, max(0.0, strategy["As:/"]["r"])))
    return max(abs(strategy[k][a] - p) for k, probs in member.table.items() for a, p in probs.items())


__all__ = ["KUHN_VALUE", "KuhnParameters", "family_deviation", "kuhn_equilibrium", "kuhn_parameters"]

"""The search's clock over a match: a time bank that keeps the mean thinking per hand at a target.

A solve's budget (``budget_ms``, ``turn_budget_ms``) bounds one decision. Against an opponent that
leaves the blueprint's tree in every hand, a turn and a river solve in every hand add up to about half
a second a hand, and the turn gadget's exact values, which come before the turn's budget, grow on a
slower or loaded machine. Time rules of competitions are per match (the ACPC's: 7 s a hand on
average), and so is this bank: it credits ``hand_ms`` for every hand begun, debits every solve's
wall-clock time, and scales each hand's budgets by::

    scale = clamp((target + balance / HORIZON) / demand, MIN_SCALE, 1)

where ``demand`` is the moving average (over hands, searched or not) of a hand's solve time per unit
of scale, and ``balance`` the credit left (negative when overdrawn): a surplus saved on hands that
stayed on the tree is spent over the next ``HORIZON`` hands, an overdraft paid back over as many.
A solve also gets no more than the credit left plus an overdraft of ``OVERDRAFT`` hands, and none
below ``MIN_SCALE`` of its configured budget (the blueprint plays), so that costs the scale does not
move (the turn gadget's exact values before its budget, a machine so loaded that a pass takes most
of a budget) cannot carry the mean past the target for long. Against an opponent that stays on the
tree nothing changes (the scale stays 1); against one that leaves it in every hand, the mean
settles at the target.
"""

from __future__ import annotations

HORIZON = 20.0
"""Hands over which a surplus is spent or an overdraft repaid."""
MIN_SCALE = 0.25
"""The least fraction of the configured budgets a solve is given: with less it is not started."""
OVERDRAFT = 2.0
"""Hands of credit a solve may borrow: past it solves wait (the blueprint plays) until credit comes."""
SMOOTHING = 0.05
"""Weight of the last hand in the moving average of the demand (about the last 20 hands)."""


class TimeBank:
    """Credit ``hand_ms`` a hand, debit solves; ``budget`` scales a configured budget (0: no bank)."""

    def __init__(self, hand_ms: float) -> None:
        self.target = hand_ms / 1000.0
        self.balance = 0.0
        self.scale = 1.0
        self.hands = 0
        self.spent = 0.0
        """Solve seconds over every hand so far (the current one included)."""
        self._demand: float | None = None
        self._this_hand = 0.0

    def new_hand(self) -> None:
        """Close the hand in play (its solve time into the demand) and credit the next one."""
        if self.target <= 0:
            return
        if self.hands:
            per_unit = self._this_hand / self.scale
            self._demand = per_unit if self._demand is None else (1 - SMOOTHING) * self._demand + SMOOTHING * per_unit
        self.hands += 1
        self.balance += self.target
        self._this_hand = 0.0
        if self._demand is not None and self._demand > 0:
            # the balance already holds this hand's credit: what is left over the target is surplus
            wanted = self.target + (self.balance - self.target) / HORIZON
            self.scale = min(1.0, max(MIN_SCALE, wanted / self._demand))

    def budget(self, seconds: float) -> float:
        """The budget a solve gets this hand, configured as ``seconds``: scaled, at most the credit left
        with an overdraft of ``OVERDRAFT`` hands, and 0 (do not solve: play the blueprint) when that
        is under ``MIN_SCALE`` of ``seconds``."""
        if self.target <= 0:
            return seconds
        given = min(seconds * self.scale, self.balance + OVERDRAFT * self.target)
        return given if given >= MIN_SCALE * seconds else 0.0

    def spend(self, seconds: float) -> None:
        """Debit a solve's wall-clock time."""
        self.balance -= seconds
        self.spent += seconds
        self._this_hand += seconds

    def mean_ms(self) -> float:
        """Solve milliseconds per hand so far."""
        return 1000.0 * self.spent / self.hands if self.hands else 0.0


__all__ = ["HORIZON", "MIN_SCALE", "OVERDRAFT", "TimeBank"]

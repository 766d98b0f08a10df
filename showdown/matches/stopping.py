"""``--until-ci`` / ``--until-separated``: when a running match may stop."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from showdown.games.gamedef import GameDef
from showdown.matches.config import MatchConfig
from showdown.protocol.logfile import HandRecord

__all__ = ["LOOK_EVERY", "StoppingRule"]

LOOK_EVERY = 256
"""Hands between two looks at the interval (any spacing keeps the error rate: the sequence is anytime-valid)."""


@dataclass
class StoppingRule:
    """Stop once the first agent's anytime-valid interval (a confidence sequence, valid however often
    it is looked at) is narrow enough or excludes zero."""

    sequence: Any
    label: str
    half_width_per100: float | None
    separated: bool
    pending: list[float] = field(default_factory=list)
    stopped: bool = False

    @classmethod
    def of(cls, config: MatchConfig, game: GameDef, label: str) -> StoppingRule | None:
        if config.until_ci is None and not config.until_separated:
            return None
        from showdown.evaluation.confidence import ConfidenceSequence, hand_range

        low, high = hand_range(game)
        return cls(ConfidenceSequence(low, high), label, config.until_ci, config.until_separated)

    def add(self, record: HandRecord) -> bool:
        """Take a hand; True when the match may stop (looked at every ``LOOK_EVERY`` hands)."""
        for name, value in zip(record.players, record.values):
            if name == self.label:
                self.pending.append(value)
        if len(self.pending) < LOOK_EVERY:
            return False
        self.sequence.update(self.pending)
        self.pending.clear()
        if self.separated and self.sequence.excludes(0.0):
            return True
        return self.half_width_per100 is not None and 100 * self.sequence.half_width() <= self.half_width_per100

    def summary(self, hands: int) -> dict[str, Any]:
        lo, hi = self.sequence.interval()
        goal = "the interval excludes zero" if self.separated else f"a half-width of {self.half_width_per100:g}/100"
        return {
            "rule": "until-separated" if self.separated else "until-ci",
            "agent": self.label,
            "goal": goal,
            "reached": self.stopped,
            "hands": hands,
            "interval_per100": [100 * lo, 100 * hi],
            "method": "anytime-valid 95% confidence sequence (empirical Bernstein; Waudby-Smith and Ramdas 2023)",
        }

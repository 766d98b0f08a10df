"""Cumulative winnings of every seat, thinned to a bounded number of points, for charts.

A million-hand match is drawn from at most ``2 * max_points`` points: every ``stride`` hands one
point of each seat's running total; when the points fill up, every other one is dropped and the
stride doubles. The per-hand mean and standard deviation of each seat are kept exactly (Welford), so
a chart can draw the 95% band ``total_k +- 1.96 sd sqrt(k)`` around the line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any


class WinningsSeries:
    """Running totals per seat (seat order), sampled every ``stride`` hands."""

    def __init__(self, names: Sequence[str], max_points: int = 500) -> None:
        self.names = tuple(names)
        self.max_points = max_points
        n = len(self.names)
        self.hands = 0
        self.stride = 1
        self.points: list[tuple[int, tuple[float, ...]]] = []
        self.total = [0.0] * n
        self.count = [0] * n
        self.mean = [0.0] * n
        self.m2 = [0.0] * n

    def add(self, seats: Sequence[int], values: Sequence[float]) -> None:
        """One hand: ``seats[p]`` sat in position ``p`` and won ``values[p]``."""
        self.hands += 1
        for s, v in zip(seats, values):
            self.total[s] += v
            self.count[s] += 1
            delta = v - self.mean[s]
            self.mean[s] += delta / self.count[s]
            self.m2[s] += delta * (v - self.mean[s])
        if self.hands % self.stride == 0:
            self.points.append((self.hands, tuple(self.total)))
            if len(self.points) >= 2 * self.max_points:
                self.points = self.points[1::2]
                self.stride *= 2

    def sd(self, seat: int) -> float:
        """Standard deviation of the seat's result per hand (0 before two hands)."""
        c = self.count[seat]
        return math.sqrt(self.m2[seat] / (c - 1)) if c > 1 else 0.0

    def to_json(self) -> dict[str, Any]:
        """``{"hands", "names", "sd", "points": [[hand, [total per seat]], ...]}`` (the last hand included)."""
        points = list(self.points)
        if self.hands and (not points or points[-1][0] != self.hands):
            points.append((self.hands, tuple(self.total)))
        return {
            "hands": self.hands,
            "names": list(self.names),
            "sd": [self.sd(s) for s in range(len(self.names))],
            "points": [[h, list(t)] for h, t in points],
        }


__all__ = ["WinningsSeries"]

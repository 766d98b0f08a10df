"""Exact expected values of a match whose every strategy is known, for any number of players.

The multiplayer form of our exact estimator: when each seat plays a known strategy table (built-in
agents such as ``cfr``, ``equilibrium``, ``rules``), the expected chips of every seat and position
follow from the seat arrangements the match actually used (``HandRecord.seats``: who sat in which
position, hand by hand) and the exact values of each arrangement's profile
(``multiplayer.expected_values``). Reported beside the sampled estimate, they say what the match
converges to; the estimate's interval should contain them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from showdown.games.gamedef import GameDef
from showdown.solvers.strategy import Strategy


@dataclass(frozen=True, slots=True)
class ExactValues:
    """Expected chips per hand by seat (in seat order) and by position, over ``hands`` hands."""

    seats: tuple[float, ...]
    positions: tuple[float, ...]
    hands: int


def exact_values(game: GameDef, strategies: Sequence[Strategy], arrangements: Mapping[tuple[int, ...], int]) -> ExactValues:
    """Exact values of ``strategies`` (one per seat) weighted by how many hands each arrangement
    (seat index per position) was played. ``SolverError`` when the game is too large or a table
    lacks an information set."""
    from showdown.solvers.multiplayer import build_ntree, expected_values
    from showdown.solvers.strategy import ntree_sigma

    tree = build_ntree(game)
    sigmas = [ntree_sigma(tree, s) for s in strategies]
    n = game.num_players
    seat_total = np.zeros(len(strategies))
    position_total = np.zeros(n)
    hands = 0
    for seats, count in arrangements.items():
        profile = tree.uniform()
        for position, seat in enumerate(seats):
            rows = tree.infoset_player == position
            profile[rows] = sigmas[seat][rows]
        values = expected_values(tree, profile)
        for position, seat in enumerate(seats):
            seat_total[seat] += count * values[position]
            position_total[position] += count * values[position]
        hands += count
    if hands == 0:
        return ExactValues(tuple(0.0 for _ in strategies), tuple(0.0 for _ in range(n)), 0)
    return ExactValues(tuple((seat_total / hands).tolist()), tuple((position_total / hands).tolist()), hands)


__all__ = ["ExactValues", "exact_values"]

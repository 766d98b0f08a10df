"""Regret matching (Hart and Mas-Colell 2000): play each action in proportion to its positive regret.

Two forms share one rule: ``regret_matching`` over the last axis of a dense array (a normal-form game,
or a batch of same-size decisions), and ``segment_regret_matching`` over flat arrays holding many
decisions of different sizes back to back (CFR's information sets, see ``showdown.solvers.cfr``).
Where no regret is positive every action gets the same probability.

``learn_against_fixed`` is the seeds' example (AIPT section 3, "Regret Matching"): a learner plays
rock-paper-scissors against a fixed 40% rock / 30% paper / 30% scissors opponent; since paper earns
0.4 - 0.3 = +0.1 per game against that mix, rock 0 and scissors -0.1, regret matching learns to play
paper.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

ROCK_PAPER_SCISSORS = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
"""Row player's payoff: rows and columns are rock, paper, scissors; win +1, tie 0, loss -1."""

RPS_ACTIONS = ("rock", "paper", "scissors")


def regret_matching(regrets: np.ndarray) -> np.ndarray:
    """Strategy proportional to the positive part of ``regrets`` along the last axis (uniform if none)."""
    r = np.asarray(regrets, dtype=np.float64)
    pos = np.maximum(r, 0.0)
    total = pos.sum(axis=-1, keepdims=True)
    uniform = np.full_like(pos, 1.0 / r.shape[-1])
    out: np.ndarray = np.divide(pos, total, out=uniform, where=total > 0.0)
    return out


def segment_regret_matching(
    regrets: np.ndarray, starts: np.ndarray, segment_of: np.ndarray, inv_size: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """Regret matching over consecutive segments of a flat array, all at once (into ``out`` if given).

    ``starts`` (ascending, first 0) are the segments' first indices, ``segment_of[i]`` the segment of
    entry ``i`` and ``inv_size[i]`` one over the size of that segment (the uniform probability).
    """
    return segment_normalize(np.maximum(regrets, 0.0), starts, segment_of, inv_size, out)


def segment_normalize(
    weights: np.ndarray, starts: np.ndarray, segment_of: np.ndarray, inv_size: np.ndarray, out: np.ndarray | None = None
) -> np.ndarray:
    """``weights`` (non-negative) scaled to sum to 1 in each segment, uniform where a segment sums to 0
    (into ``out`` if given)."""
    total = np.add.reduceat(weights, starts)[segment_of]
    if out is None:
        out = inv_size.copy()
    else:
        out[...] = inv_size
    result: np.ndarray = np.divide(weights, total, out=out, where=total > 0.0)
    return result


class LearningRun(NamedTuple):
    """What ``learn_against_fixed`` did: the final and average strategies, the regrets, the profit."""

    strategy: np.ndarray
    average_strategy: np.ndarray
    regrets: np.ndarray
    profit: float
    iterations: int


def learn_against_fixed(
    payoff: np.ndarray,
    opponent: np.ndarray,
    iterations: int,
    rng: np.random.Generator,
    *,
    sampled: bool = True,
) -> LearningRun:
    """Regret matching for the row player of ``payoff`` against a fixed column strategy ``opponent``.

    With ``sampled`` (the seeds' version) both players draw an action each game and the learner's
    regrets are what each of its actions would have won against the opponent's drawn action minus
    what its own drawn action won; otherwise the regrets are expected values against ``opponent``.
    ``profit`` is the learner's total winnings (sampled play) or expected winnings.
    """
    payoff = np.asarray(payoff, dtype=np.float64)
    opponent = np.asarray(opponent, dtype=np.float64)
    n = payoff.shape[0]
    regrets = np.zeros(n)
    strategy_sum = np.zeros(n)
    strategy = np.full(n, 1.0 / n)
    profit = 0.0
    expected = payoff @ opponent
    if sampled:
        theirs_all = np.searchsorted(np.cumsum(opponent), rng.random(iterations) * opponent.sum(), side="right")
        draws = rng.random(iterations)
    for t in range(iterations):
        strategy = regret_matching(regrets)
        strategy_sum += strategy
        if sampled:
            mine = min(int(np.searchsorted(np.cumsum(strategy), draws[t], side="right")), n - 1)
            theirs = min(int(theirs_all[t]), len(opponent) - 1)
            won = payoff[:, theirs]
            regrets += won - won[mine]
            profit += float(won[mine])
        else:
            value = float(strategy @ expected)
            regrets += expected - value
            profit += value
    return LearningRun(regret_matching(regrets), strategy_sum / max(iterations, 1), regrets, profit, iterations)


__all__ = [
    "LearningRun",
    "ROCK_PAPER_SCISSORS",
    "RPS_ACTIONS",
    "learn_against_fixed",
    "regret_matching",
    "segment_normalize",
    "segment_regret_matching",
]

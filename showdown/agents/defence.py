"""The defence floor: never fold more of a range to a bet than makes any two cards a profitable bluff.

A bet of ``b`` chips into a pot of ``P`` (the bet included, so the bettor risks ``b`` to win ``P - b``)
shows a profit with any two cards, whatever they are, when the defender folds more than ``alpha = b / P``
of its range: the bluff wins ``P - b`` that often and loses ``b`` otherwise (Chen and Ankenman 2006,
"The Mathematics of Poker": the bettor's ``alpha``; the defender's "minimum defence frequency"
is ``1 - alpha``). An equilibrium defender therefore folds at most ``alpha`` of its range to every bet
the bettor could make with hands that would otherwise check; an abstraction's blueprint, trained on a
few sizes and coarse buckets, often folds more (the shipped no-limit blueprint folds about 40% of its
range where LBR bets half the pot, against an ``alpha`` of 33%), and a best responder (LBR, a probe)
takes the difference with every hand it holds.

``floor_folds`` lowers a node's fold probabilities, strongest holdings first, until the range's fold
is ``alpha``; the folds it removes become calls. It changes nothing where the range already folds
``alpha`` or less, and it never adds a fold.
"""

from __future__ import annotations

from functools import cache

import numpy as np

__all__ = ["alpha", "floor_folds", "preflop_strength"]


def alpha(to_call: float, pot: float) -> float:
    """The bettor's break-even fold frequency ``b / P``: ``to_call`` chips asked of the defender,
    ``pot`` every chip in the middle with the bet."""
    return to_call / pot if pot > 0 else 0.0


def floor_folds(table: np.ndarray, fold: int, call: int, buckets: np.ndarray, reach: np.ndarray, limit: float,
                strength: np.ndarray | None = None) -> np.ndarray | None:
    """``table`` (buckets x action slots, rows summing to 1) with the range's fold at most ``limit``,
    or None when it already is.

    ``buckets`` gives each holding's bucket and ``reach`` its weight in the defender's range (0 for
    holdings the board blocks); ``strength`` ranks the buckets (higher: stronger; default: the bucket
    index, as percentile buckets are). The excess fold is removed from the strongest buckets first, a
    bucket's rows moving that part of their fold to ``call``, so the weakest holdings keep folding.
    """
    weight = np.bincount(buckets, weights=reach, minlength=len(table))[: len(table)]
    total = float(weight.sum())
    if total <= 0:
        return None
    folded = weight * table[:, fold]
    excess = float(folded.sum()) - limit * total
    if excess <= 1e-12 * total:
        return None
    order = np.argsort(-np.arange(len(table)) if strength is None else -np.asarray(strength), kind="stable")
    before = np.concatenate(([0.0], np.cumsum(folded[order])[:-1]))  # fold mass of the stronger buckets
    taken = np.clip(excess - before, 0.0, folded[order])  # what each bucket gives up, strongest first
    share = np.zeros(len(table))
    held = folded[order] > 0
    share[order[held]] = taken[held] / folded[order][held]
    out = table.copy()
    moved = out[:, fold] * share
    out[:, fold] -= moved
    out[:, call] += moved
    return out


@cache
def preflop_strength() -> np.ndarray:
    """The 169 preflop classes' share of the pot against a random holding (wins and half the ties, from
    the exact equity table ``solvers.equity``): their order of strength, which the class numbers are not."""
    from showdown.solvers.equity import equity_table

    table = equity_table()
    share: np.ndarray = (table.win + 0.5 * table.tie).sum(axis=1) / table.totals.sum(axis=1)
    share.setflags(write=False)
    return share

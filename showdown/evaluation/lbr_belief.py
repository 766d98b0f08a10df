"""The luck of the agent's hidden cards, taken out of LBR's result by averaging over its range.

After the chance terms (``evaluation.chance``) and AIVAT's action terms (``evaluation.lbr_terms``),
what is left of LBR's variance is mostly which hand the agent really held in the big pots: an all-in
LBR calls is scored by its equity against the agent's real cards, 0.2 or 0.8 of a pot of 400 big
blinds. LBR knows more than that: its range of the agent, by Bayes' rule from the agent's own action
probabilities, is the exact distribution of the agent's cards given everything public (the actions,
the board, LBR's cards) whenever those probabilities are the ones the agent's ``act`` draws from, raise
sizes included. Conditioning on the public history (Rao and Blackwell) then removes that luck without
bias, as AIVAT does for a player whose strategy is known (Burch, Schmid, Moravcik, Morrill and Bowling
2018, section 5: the known player's private cards are integrated out through their strategy).

The corrected result is linear in LBR's equity against the agent's hand at each round reached:
``Y(h) = sum_k c_k eq_k(h) + (terms free of h or small)``, where ``c_k`` is what the pot grew by in
round ``k`` (the pot when the next round's cards came, or the final pot at a showdown, 0 after a fold,
minus the pot when round ``k``'s came). The term added is ``D = sum_k c_k (E_post[e_k] - e_k(h))``
for LBR's own per-holding equities ``e_k`` of that round: given the public history, the agent's hand
``h`` is distributed as the posterior, so ``D`` has mean zero for any ``e_k`` that does not look at
``h``, and where ``e_k`` is close to the chance terms' equity, ``Y + D`` is nearly ``Y`` averaged over
the range. A precondition, not an approximation: the posterior must be exact, so the term is used only
when the agent's raise sizes are told (``range_policy`` with ``r<to>`` keys, ``sized_range_policy``), do
not depend on its cards (``raise_sizes_blind``), or the game is limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from showdown.games.state import Action, ActionKind, State

BELIEF_ESTIMATOR = "chance+range"
"""The estimator's name in the JSON: the chance terms, and the agent's cards and draws integrated out over its range."""


@dataclass(slots=True)
class Round:
    """One betting round of a hand as LBR saw it: the pot when its cards came, and LBR's equity
    against every holding of the agent on its board (None until the round is over)."""

    pot: float
    equities: np.ndarray | None = field(default=None, repr=False)


def hidden_cards_term(rounds: list[Round], final_pot: float, posterior: np.ndarray, held: int) -> float:
    """``D`` of the module docstring: ``rounds`` in order, ``final_pot`` the pot at a showdown (0 when
    the hand ended in a fold), ``posterior`` the agent's range at the end (cards seen masked out),
    ``held`` the index of the agent's real holding."""
    total = float(posterior.sum())
    if total <= 0 or not rounds:
        return 0.0
    out = 0.0
    for k, street in enumerate(rounds):
        after = rounds[k + 1].pot if k + 1 < len(rounds) else final_pot
        grew = after - street.pot
        if grew == 0 or street.equities is None:
            continue
        e = street.equities
        out += grew * (float(posterior @ e) / total - float(e[held]))
    return out


def equities_from(score: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Per holding: its share of a showdown summed over the boards it can meet, over their count (1/2
    where it meets none)."""
    out: np.ndarray = np.divide(score, valid, out=np.full(len(score), 0.5), where=valid > 0)
    return out


class RangeKeeper(Protocol):
    """What the action values read of a local best response (``evaluation.lbr.LocalBestResponse``,
    which imports this module: a protocol, not an import back)."""

    check_until: int

    def action_keys(self, board: tuple[int, ...], state: State, position: int) -> list[str]: ...

    def range_probs(self, weights: np.ndarray, board: tuple[int, ...], state: State, position: int, letter: str) -> np.ndarray: ...

    def win_probability(self, mine: tuple[int, ...], weights: np.ndarray, board: tuple[int, ...], rng: np.random.Generator) -> float: ...


def action_values(lbr: RangeKeeper, public: State, me: int, mine: tuple[int, ...], weights: np.ndarray, board: tuple[int, ...],
                  rng: np.random.Generator) -> dict[str, tuple[float, float]]:
    """Each action the agent may take at ``public`` (keys of its range table: ``f``, ``c``, each raise
    size ``r<to>`` where told, else ``r`` for any raise), as (its probability given the public history,
    LBR's value after it): a fold wins what the agent put in; a call or check is valued as the pot
    checked down against the range that takes it; a raise by LBR's answer to it, folding where its rule
    folds, else the raised pot checked down. Where sizes are not told, the raise is valued at one
    reference raise (a pot raise), whatever size was drawn, so that the value does not look at it."""
    from showdown.evaluation.lbr_terms import lbr_folds_to, reference_raise

    total = float(weights.sum())
    out: dict[str, tuple[float, float]] = {}
    if total <= 0:
        return out
    agent = 1 - me
    for key in lbr.action_keys(board, public, agent):
        probs = lbr.range_probs(weights, board, public, agent, key)
        after_weights = weights * probs
        p = float(after_weights.sum()) / total
        if p <= 0:
            continue
        if key == "f":
            out[key] = (p, float(public.spent[agent]))
            continue
        if key == "c":
            called = public.max_spent
            out[key] = (p, lbr.win_probability(mine, after_weights, board, rng) * 2 * called - called)
            continue
        raised = Action(ActionKind.RAISE, int(key[1:])) if len(key) > 1 else reference_raise(public)
        if raised is None:
            continue
        after = public.apply(public.repair(raised)[0])
        wp = lbr.win_probability(mine, after_weights, board, rng)
        if lbr_folds_to(after, wp, lbr.check_until):
            out[key] = (p, -float(after.spent[me]))
        else:
            to = after.max_spent
            out[key] = (p, wp * 2 * to - to)
    return out


def belief_action_term(values: dict[str, tuple[float, float]], taken: str) -> float:
    """AIVAT's action term with the agent's cards integrated out: ``v(taken) - sum_a P(a | public) v(a)``,
    mean zero when the range is the exact posterior (0 where ``taken`` had no probability)."""
    if taken not in values:
        return 0.0
    norm = sum(p for p, _ in values.values())
    expected = sum(p * v for p, v in values.values()) / norm
    return values[taken][1] - expected


__all__ = ["BELIEF_ESTIMATOR", "RangeKeeper", "Round", "action_values", "belief_action_term", "equities_from", "hidden_cards_term"]

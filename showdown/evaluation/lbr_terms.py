"""AIVAT's action terms for local best response: the luck of the agent's own draws taken out of LBR's
result (Burch, Schmid, Moravcik, Morrill and Bowling 2018, "AIVAT: a new variance reduction technique
for agent evaluation in imperfect information games").

LBR knows the agent's policy: at every agent decision it asks ``policy()``, the exact distribution of
the action kind ``act`` draws. So for any value ``v`` of the history after each kind (fold, call,
raise) computed from what is known before the draw, the term ``v(taken) - sum_a pi(a) v(a)`` has mean
zero whatever ``v`` is, and subtracting it keeps LBR's estimate unbiased; the closer ``v`` is to what
LBR goes on to win, the more of the draw's luck it takes out. The values (LBR's net chips):

* fold: what the agent has put in (exact);
* call: LBR's all-in value of the pot after the call, its equity against the agent's real cards;
* raise: LBR's own rule's answer to a reference raise (a pot-size raise in no-limit; the raise in
  limit). LBR would fold to it: minus what LBR has put in; else the all-in value of the pot after
  the raise is called. The agent's size distribution is not known (``policy`` gives kinds only), so
  the value cannot depend on the size drawn: one reference size keeps the term exact.

``RAISE_AS_CALL`` values a raise as a call: the term is then ``(folded - p_fold) (v_fold - v_on)``,
the correction for the agent's folds alone (the estimator before ``chance+actions``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from showdown.games.gamedef import GameDef
from showdown.games.state import Action, ActionKind, State

if TYPE_CHECKING:
    from showdown.evaluation.chance import ChanceCorrector


class Responder(Protocol):
    """What the terms read of a local best response (``evaluation.lbr.LocalBestResponse``, which
    imports this module: a protocol, not an import back)."""

    game: GameDef
    agent: Any
    check_until: int

    def observe(self, weights: np.ndarray, board: tuple[int, ...], state: State, position: int, letter: str) -> np.ndarray: ...

    def win_probability(self, mine: tuple[int, ...], weights: np.ndarray, board: tuple[int, ...], rng: np.random.Generator) -> float: ...

    def agent_view(self, state: State, position: int, hole: tuple[int, ...], board: tuple[int, ...]) -> Any: ...


RAISE_AS_CALL = "call"
"""A raise valued as a call: the fold term alone."""
RAISE_CALLED = "called"
"""A raise valued as the reference raise called by LBR, whatever LBR's rule would do."""
RAISE_ANSWERED = "answered"
"""A raise valued by LBR's rule's answer (fold or go on) to the reference raise: the default."""
RAISE_VALUES = (RAISE_AS_CALL, RAISE_CALLED, RAISE_ANSWERED)
ESTIMATOR = {RAISE_AS_CALL: "chance+folds", RAISE_CALLED: "chance+actions(called)", RAISE_ANSWERED: "chance+actions"}
"""The estimator's name in the JSON for each way of valuing a raise."""


def action_term(values: dict[str, float], probs: dict[str, float], taken: str) -> float:
    """``v(taken) - sum_a pi(a) v(a)``: the action's luck, mean zero when ``taken`` is drawn from ``probs``
    (kinds with no value are valued as a call)."""
    on = values["c"]
    expected = sum(p * values.get(letter, on) for letter, p in probs.items())
    total = sum(probs.values())
    if total > 0:
        expected /= total
    return values.get(taken, on) - expected


def reference_raise(state: State) -> Action | None:
    """The raise the values stand for: the limit raise, or a pot-size raise made legal; None if none is."""
    bounds = state.raise_bounds()
    if bounds is None:
        return None
    if state.game.is_limit:
        return Action(ActionKind.RAISE)
    lo, hi = bounds
    to = state.max_spent + sum(state.spent) + state.to_call()
    return Action(ActionKind.RAISE, min(max(to, lo), hi))


def lbr_folds_to(after: State, wp: float, check_until: int) -> bool:
    """Whether LBR's rule (``LocalBestResponse.decide``) folds, at ``after``, to the raise just made,
    with ``wp`` its win chance against the range that raised: the call's value is below 0 (and LBR
    is past the rounds it only checks or calls)."""
    asked = float(after.to_call())
    return after.round >= check_until and wp * (after.pot() + asked) - asked < 0


def decision_values(lbr: Responder, public: State, me: int, mine: tuple[int, ...], equity: float,
                    weights: np.ndarray, board: tuple[int, ...], rng: np.random.Generator,
                    raise_value: str = RAISE_ANSWERED) -> dict[str, float]:
    """LBR's values (module docstring) of the agent's fold, call and raise at ``public`` (the agent to act),
    ``equity`` LBR's share of a showdown against the agent's real cards, ``weights`` the agent's range.
    A kind the agent cannot take here (a fold with nothing to call, a raise when none is legal) is
    repaired to a call, and so valued."""
    called = public.max_spent
    on = equity * 2 * called - called
    values = {"f": float(public.spent[1 - me]) if public.can_fold() else on, "c": on}
    raised = reference_raise(public) if raise_value != RAISE_AS_CALL else None
    if raised is None:
        return values
    after = public.apply(raised)
    to = after.max_spent
    values["r"] = equity * 2 * to - to
    if raise_value == RAISE_ANSWERED and after.round >= lbr.check_until:
        facing = lbr.observe(weights, board, public, 1 - me, "r")
        if lbr_folds_to(after, lbr.win_probability(mine, facing, board, rng), lbr.check_until):
            values["r"] = -float(after.spent[me])
    return values


class ActionTerms:
    """The action terms of one LBR's hands: ``term`` at each agent decision, after the agent's ``act``."""

    def __init__(self, lbr: Responder, raise_value: str = RAISE_ANSWERED) -> None:
        if raise_value not in RAISE_VALUES:
            raise ValueError(f"raise_value must be one of {RAISE_VALUES} (got {raise_value!r})")
        self.lbr = lbr
        self.raise_value = raise_value
        self._equity: ChanceCorrector | None = None

    def equity(self, mine: tuple[int, ...], theirs: tuple[int, ...], board: tuple[int, ...]) -> float | None:
        """LBR's share of a showdown against the agent's real cards (None where too costly to compute)."""
        if self._equity is None:
            from showdown.evaluation.chance import ChanceCorrector

            self._equity = ChanceCorrector(self.lbr.game)
        return self._equity.showdown_equity(mine, theirs, board)

    def term(self, public: State, me: int, mine: tuple[int, ...], theirs: tuple[int, ...], board: tuple[int, ...],
             weights: np.ndarray, rng: np.random.Generator, action: Action) -> float:
        """The term of the agent's ``action`` at ``public``. Its probabilities are asked again after
        ``act``: an agent that translates off-tree bets at random (the hold'em ``cfr``) walked the hand
        anew for ``act``, and only its own answer now is the distribution its draw had."""
        probs = {k: float(v) for k, v in self.lbr.agent.policy(self.lbr.agent_view(public, 1 - me, theirs, board)).items()}
        if max(probs.values(), default=1.0) >= 1.0:
            return 0.0  # a pure choice: no luck to take out (and no values to work out)
        equity = self.equity(mine, theirs, board)
        if equity is None:
            return 0.0
        values = decision_values(self.lbr, public, me, mine, equity, weights, board, rng, self.raise_value)
        return action_term(values, probs, _LETTER[action.kind])


_LETTER = {ActionKind.FOLD: "f", ActionKind.CALL: "c", ActionKind.RAISE: "r"}

__all__ = ["ActionTerms", "ESTIMATOR", "RAISE_ANSWERED", "RAISE_AS_CALL", "RAISE_CALLED", "RAISE_VALUES", "Responder", "action_term", "decision_values", "lbr_folds_to",
           "reference_raise"]

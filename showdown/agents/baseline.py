"""Baseline agents: ``random`` (seeded, uniform over legal action kinds) and ``call`` (calling station)."""

from __future__ import annotations

from typing import Any

from showdown.agents.base import Agent, Policy, PolicyAgent, View
from showdown.agents.hand_random import HandRandom
from showdown.errors import ConfigError
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, RAISE, Action, ActionKind

SIZINGS = ("uniform", "pot")


class RandomAgent(PolicyAgent):
    """Uniform over the legal action *kinds*: fold (only when facing a bet), call, raise.

    No-limit raise sizes (``sizing``): ``"uniform"`` (default, like the ACPC example player) draws
    the raise-to total uniformly from the legal range [min, all-in]; ``"pot"`` picks uniformly
    among min-raise, half pot, pot, two pots and all-in (pot fractions of the pot after calling,
    made legal, duplicates removed). ``seed`` makes play reproducible, hand by hand (``HandRandom``);
    None draws a fresh seed.
    """

    name = "random"
    cards_blind = True
    raise_sizes_blind = True

    def __init__(self, game: GameDef | None = None, seed: int | None = None, sizing: str = "uniform") -> None:
        super().__init__(game)
        if sizing not in SIZINGS:
            raise ConfigError(f"random agent: sizing {sizing!r} is not one of {', '.join(SIZINGS)}")
        self.seed = seed
        self.sizing = sizing
        self.rng = HandRandom(seed)  # per hand: a resumed match draws what the first run drew

    def policy(self, view: View) -> Policy:
        letters = ("f" if view.can_fold() else "") + "c" + ("r" if view.can_raise() else "")
        p = 1.0 / len(letters)
        return {ch: p for ch in letters}

    def act(self, view: View) -> Action:
        state = view.public
        bounds = state.raise_bounds()
        can_fold = state.can_fold()
        rng = self.rng.at(view.hand)
        k = rng.randrange(1 + can_fold + (bounds is not None))
        if can_fold:
            if k == 0:
                return FOLD
            k -= 1
        if k == 0:
            return CALL
        assert bounds is not None
        if view.game.is_limit:
            return RAISE
        lo, hi = bounds
        if self.sizing == "uniform":
            return Action(ActionKind.RAISE, rng.randint(lo, hi))
        sizes = sorted({lo, hi} | {view.pot_raise(f).size for f in (0.5, 1.0, 2.0)})
        return Action(ActionKind.RAISE, sizes[rng.randrange(len(sizes))])


class CallAgent(PolicyAgent):
    """Calling station: checks or calls every time, never folds, never raises."""

    name = "call"
    cards_blind = True
    raise_sizes_blind = True

    def policy(self, view: View) -> Policy:
        return {"c": 1.0}

    def act(self, view: View) -> Action:
        return CALL


def make_random(game: GameDef, options: dict[str, Any]) -> Agent:
    from showdown.agents.registry import take_options

    return RandomAgent(game, **take_options("random", options))


def make_call(game: GameDef, options: dict[str, Any]) -> Agent:
    from showdown.agents.registry import take_options

    take_options("call", options)
    return CallAgent(game)

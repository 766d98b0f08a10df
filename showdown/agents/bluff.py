"""The always-bluff agent: bets or raises whenever a raise is legal, otherwise calls; never folds."""

from __future__ import annotations

from typing import Any

from showdown.agents.base import Agent, Policy, PolicyAgent, View
from showdown.errors import ConfigError
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, Action

SIZES = ("min", "pot", "allin")


class BluffAgent(PolicyAgent):
    """Maximally aggressive whatever its cards: raise when allowed, else check/call; never folds.

    No-limit raise size (``size``): ``"min"`` (default) the minimum legal raise, ``"pot"`` a pot-size
    raise (to the current bet plus the pot after calling), ``"allin"`` the whole stack.
    """

    name = "bluff"
    cards_blind = True
    raise_sizes_blind = True

    def __init__(self, game: GameDef | None = None, size: str = "min") -> None:
        super().__init__(game)
        if size not in SIZES:
            raise ConfigError(f"bluff agent: size {size!r} is not one of {', '.join(SIZES)}")
        self.size = size

    def policy(self, view: View) -> Policy:
        return {"r": 1.0} if view.can_raise() else {"c": 1.0}

    def act(self, view: View) -> Action:
        bounds = view.raise_bounds()
        if bounds is None:
            return CALL
        if self.size == "pot":
            return view.pot_raise(1.0)
        return view.raise_to(bounds[1] if self.size == "allin" else bounds[0])


def make_bluff(game: GameDef, options: dict[str, Any]) -> Agent:
    from showdown.agents.registry import take_options

    o = take_options("bluff", options)
    o.pop("seed", None)
    return BluffAgent(game, **o)

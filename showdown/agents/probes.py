"""Probe opponents: scripted exploiters that try the bet sizes and lines abstraction agents handle
worst, as ordinary built-in agents (``showdown match holdem-nolimit cfr probe-minraise``).

What a probe wins from a bot in a duplicate match is a lower bound on the bot's exploitability that
needs nothing from the bot (no ``policy``): ``showdown exploit --probes`` plays them all. The names
are stable (other tools and papers refer to them):

* ``probe-minraise``: min-raises whenever a raise is legal, whatever its cards; never folds.
* ``probe-third-raise``: with a medium or strong hand (``rules``' classes) min-raises as the first
  raise of a round and as the third or a later one, and calls the second; folds weak hands to a bet.
* ``probe-third-raise-any``: the same raises whatever its cards, and calls everything else; never
  folds (the 60-line bot of issue 25, which took 937 to 1,377 mbb/hand from the blueprint of then).
* ``probe-jam``: moves all in whenever a raise is legal; never folds.
* ``probe-tiny``: with a medium or strong hand bets or raises 1/10 to 1/3 of the pot (drawn
  uniformly, seeded); folds weak hands to a bet.
* ``probe-odd``: with a medium or strong hand bets or raises 0.3, 1.7 or 3.5 pots (drawn uniformly,
  seeded); folds weak hands to a bet.
* ``probe-checkraise``: checks when not facing a bet; bet into, raises a pot with a medium or strong
  hand and folds a weak one.
* ``probe-raise``: the limit probe, bets or raises whenever allowed, never folds (in no-limit: pot).
* ``probe-adaptive``: learns over the match how often the bot folds to each bet size in each spot and
  bets the size of best expected value (``showdown.agents.adaptive_probe``).
* ``probe-cbet``: bets 2/3 pot as the first bet of every round with any cards; calls the rest.
* ``probe-betfold``: bets 1/2 pot as the first bet of every round with any cards; folds to any bet.
  (These two are fixed plans of ``probe-bet``, the probe with options: ``showdown.agents.bet_probe``.)

Every probe's ``policy`` is the action kind its ``act`` plays (kinds are deterministic; only the
no-limit sizes of ``probe-tiny`` and ``probe-odd`` are drawn), so LBR can be run against them too.
"""

from __future__ import annotations

from typing import Any, ClassVar

from showdown.agents.base import Policy, PolicyAgent, View
from showdown.agents.hand_random import HandRandom
from showdown.agents.rules import MEDIUM, strength_class
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, Action, ActionKind

PROBES = (
    "probe-minraise", "probe-third-raise", "probe-third-raise-any", "probe-jam", "probe-tiny", "probe-odd", "probe-checkraise", "probe-raise", "probe-adaptive",
    "probe-cbet", "probe-betfold",
)
"""Every probe's agent name."""


def raises_this_round(view: View) -> int:
    """Raises (bets included) made so far in the current betting round."""
    history = view.public.history
    return sum(1 for _, a in history[-1] if a.kind is ActionKind.RAISE) if history else 0


class ProbeAgent(PolicyAgent):
    """A scripted probe: ``raise_here`` picks its raises, ``size`` their totals, ``otherwise`` the rest."""

    name: ClassVar[str] = "probe"
    value_only: ClassVar[bool] = True
    """Raise only with a medium or strong hand; False: whatever the cards."""
    raise_sizes_blind = True  # ``size`` reads the betting and the probe's random numbers, never the cards

    def __init__(self, game: GameDef | None = None, seed: int | None = None) -> None:
        super().__init__(game)
        self.rng = HandRandom(seed)  # per hand: a resumed match draws what the first run drew

    @classmethod
    def create(cls, game: GameDef, options: dict[str, Any]) -> ProbeAgent:
        """The registry's factory (``showdown.agents.probes:JamProbe.create``): options checked by name."""
        from showdown.agents.registry import take_options

        return cls(game, seed=take_options(cls.name, options).get("seed"))

    def raise_here(self, view: View) -> bool:
        return True

    def size(self, view: View) -> Action:
        return view.raise_to()

    def otherwise(self, view: View) -> Action:
        """Not raising: check or call, folding weak hands (``rules``' classes) to a bet."""
        if view.can_fold() and strength_class(view) < MEDIUM:
            return FOLD
        return CALL

    def hand_allows(self, view: View) -> bool:
        """Whether its cards let it raise: any cards, or a medium or strong hand with ``value_only``."""
        return not self.value_only or strength_class(view) >= MEDIUM

    def act(self, view: View) -> Action:
        if view.can_raise() and self.raise_here(view) and self.hand_allows(view):
            return self.size(view)
        return self.otherwise(view)

    def policy(self, view: View) -> Policy:
        """The kind ``act`` plays, with probability 1 (only sizes are drawn): ``act`` is asked on a
        copy of the generator so asking the policy changes no later draw."""
        saved = self.rng.getstate()
        try:
            return {"fcr"[self.act(view).kind]: 1.0}
        finally:
            self.rng.setstate(saved)


class BlindProbe(ProbeAgent):
    """A probe that never looks at its cards: it raises where its rule says, else checks or calls."""

    cards_blind = True
    value_only = False

    def otherwise(self, view: View) -> Action:
        return CALL


class MinRaiseProbe(BlindProbe):
    name = "probe-minraise"


class ThirdRaiseProbe(ProbeAgent):
    name = "probe-third-raise"

    def raise_here(self, view: View) -> bool:
        made = raises_this_round(view)
        return made == 0 or made >= 2


class ThirdRaiseAnyProbe(BlindProbe, ThirdRaiseProbe):
    name = "probe-third-raise-any"


class JamProbe(MinRaiseProbe):
    name = "probe-jam"

    def size(self, view: View) -> Action:
        return view.all_in()


class TinyProbe(ProbeAgent):
    name = "probe-tiny"

    def size(self, view: View) -> Action:
        return view.pot_raise(0.1 + (1 / 3 - 0.1) * self.rng.at(view.hand).random())


class OddProbe(ProbeAgent):
    name = "probe-odd"

    def size(self, view: View) -> Action:
        return view.pot_raise((0.3, 1.7, 3.5)[self.rng.at(view.hand).randrange(3)])


class CheckRaiseProbe(ProbeAgent):
    name = "probe-checkraise"

    def raise_here(self, view: View) -> bool:
        return view.to_call() > 0

    def size(self, view: View) -> Action:
        return view.pot_raise(1.0)


class RaiseProbe(MinRaiseProbe):
    name = "probe-raise"

    def size(self, view: View) -> Action:
        return view.pot_raise(1.0)


__all__ = [
    "BlindProbe", "CheckRaiseProbe", "JamProbe", "MinRaiseProbe", "OddProbe", "PROBES", "ProbeAgent", "RaiseProbe", "ThirdRaiseAnyProbe", "ThirdRaiseProbe",
    "TinyProbe",
    "raises_this_round",
]

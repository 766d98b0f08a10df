"""``probe-bet``: one probe with options, for sweeping the space of simple bots that bet fixed sizes.

A bot that no simple bot beats must hold against the probes it was never tried on: the cousins of
``showdown.agents.probes``. ``probe-bet`` is any of them, by its options (``-o 2:KEY=VALUE`` on a
match's command line, or ``options:`` of a match file's agent entry):

* ``sizes`` (default ``0.5``): the raise sizes, ``/``-separated, one drawn uniformly per raise
  (seeded, per hand): a pot fraction (``0.25`` raises a quarter of the pot after calling, ``2`` an
  overbet of two pots), ``min`` (the minimum raise), ``allin``, or ``Nx`` (raise to N times the
  largest total put in so far: ``3x`` opens to 3 big blinds before the flop, and 3-bets an open to
  three times its size). Limit games ignore them.
* ``raises`` (default ``all``): which raises of a round it makes, ``/``-separated: ``first`` (the bet
  after the flop; the open before it, the blinds not counting), ``second``, ``third`` (the third or a
  later one), or ``all``.
* ``streets`` (default ``all``): ``preflop``, ``flop``, ``turn``, ``river``, ``/``-separated, or
  ``all`` (Leduc's two rounds are ``preflop`` and ``flop``).
* ``hands`` (default ``any``): ``any`` raises whatever its cards; ``value`` only with a medium or strong
  hand (``rules``' classes).
* ``facing`` (default ``call``): how it answers a bet when its raise rule does not raise: ``call``
  (never folds), ``fold-weak`` (folds a weak hand, calls the rest), ``fold`` (folds to every bet), or
  ``raise`` (raises any bet with its sizes whenever allowed, with the hands ``hands`` allows; calls
  with the others).

When it neither raises nor faces a bet it checks. ``showdown match holdem-nolimit cfr probe-bet
-o 2:sizes=0.25 -o 2:streets=flop/turn/river`` limps before the flop and bets a quarter pot after it.
Bad values fail before any process starts, in one line.

The action kind is a function of the view (only the sizes are drawn), so ``policy`` gives it with
probability 1, and the size never reads the cards (``raise_sizes_blind``): LBR keeps the probe's exact
range. Two cousins are in the probe pool (``showdown.agents.probes.PROBES``) under their own names,
fixed option sets of it: ``probe-cbet`` (``sizes=0.67 raises=first``) and ``probe-betfold``
(``sizes=0.5 raises=first facing=fold``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from showdown.agents.base import View
from showdown.agents.probes import ProbeAgent, raises_this_round
from showdown.agents.rules import MEDIUM, strength_class
from showdown.errors import ConfigError
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, Action

__all__ = ["BetFoldProbe", "BetPlan", "BetProbe", "BlindBetProbe", "CBetProbe", "parse_plan"]

STREETS = ("preflop", "flop", "turn", "river")
RAISES = ("first", "second", "third")
FACING = ("call", "fold-weak", "fold", "raise")
HANDS = ("any", "value")

Size = float | str
"""A pot fraction, ``"min"``, ``"allin"``, or ``"Nx"`` (kept as text)."""


@dataclass(frozen=True, slots=True)
class BetPlan:
    """What a ``probe-bet`` does: sizes, on which raises (0: first, 1: second, 2: third or later) of
    which rounds, with which hands, and its answer to a bet it does not raise."""

    sizes: tuple[Size, ...] = (0.5,)
    raises: frozenset[int] = frozenset({0, 1, 2})
    streets: frozenset[int] = frozenset({0, 1, 2, 3})
    value_only: bool = False
    facing: str = "call"

    @property
    def cards_blind(self) -> bool:
        """Whether no action of the plan depends on the cards."""
        return not self.value_only and self.facing != "fold-weak"


def _words(option: str, text: str, allowed: tuple[str, ...]) -> frozenset[int]:
    words = [w.strip() for w in text.lower().split("/")]
    if words == ["all"]:
        return frozenset(range(len(allowed)))
    bad = [w for w in words if w not in allowed]
    if bad:
        raise ConfigError(f"probe-bet: {option}={text!r}: {bad[0]!r} is not one of {', '.join(allowed)} or all (separated by /)")
    return frozenset(allowed.index(w) for w in words)


def _size(text: str) -> Size:
    word = text.strip().lower()
    if word in ("min", "allin"):
        return word
    try:
        value = float(word[:-1] if word.endswith("x") else word)
    except ValueError:
        value = float("nan")
    if word.endswith("x") and value > 1 or not word.endswith("x") and value > 0:
        return word if word.endswith("x") else value
    raise ConfigError(
        f"probe-bet: size {text!r} is not a pot fraction above 0 (0.25, 2), min, allin or Nx with N above 1 (3x); separate sizes by /")


def _one_of(option: str, value: str, allowed: tuple[str, ...]) -> str:
    if value.lower() not in allowed:
        raise ConfigError(f"probe-bet: {option}={value!r} is not one of {', '.join(allowed)}")
    return value.lower()


def parse_plan(options: Mapping[str, Any]) -> BetPlan:
    """The plan of ``probe-bet``'s options (strings as given on a command line); ``ConfigError`` names
    the bad one."""
    default = BetPlan()
    sizes = str(options.get("sizes", "0.5"))
    return BetPlan(
        sizes=tuple(_size(s) for s in sizes.split("/")),
        raises=_words("raises", str(options["raises"]), RAISES) if "raises" in options else default.raises,
        streets=_words("streets", str(options["streets"]), STREETS) if "streets" in options else default.streets,
        value_only=_one_of("hands", str(options.get("hands", "any")), HANDS) == "value",
        facing=_one_of("facing", str(options.get("facing", "call")), FACING),
    )


class BetProbe(ProbeAgent):
    """``probe-bet``: raises by its ``BetPlan`` (see the module docstring)."""

    name: ClassVar[str] = "probe-bet"
    PRESET: ClassVar[Mapping[str, str]] = {}
    """A named cousin's plan, fixed (its registry entry takes only ``seed``)."""

    def __init__(self, game: GameDef | None = None, seed: int | None = None, plan: BetPlan | None = None) -> None:
        super().__init__(game, seed)
        self.plan = plan or parse_plan(self.PRESET)

    @classmethod
    def create(cls, game: GameDef, options: dict[str, Any]) -> BetProbe:
        """The registry's factory: options checked by name and value; a plan that never looks at the
        cards builds the ``cards_blind`` kind (LBR then asks it once per decision)."""
        from showdown.agents.registry import take_options

        taken = take_options(cls.name, options)
        seed = taken.pop("seed", None)
        plan = parse_plan({**cls.PRESET, **taken})
        kind = BlindBetProbe if cls is BetProbe and plan.cards_blind else cls
        return kind(game, seed=seed, plan=plan)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A named cousin's plan is fixed: whether it looks at its cards is known from its class."""
        super().__init_subclass__(**kwargs)
        if cls.PRESET:
            cls.cards_blind = parse_plan(cls.PRESET).cards_blind

    def hand_allows(self, view: View) -> bool:
        return not self.plan.value_only or strength_class(view) >= MEDIUM

    def raise_here(self, view: View) -> bool:
        plan = self.plan
        return view.round in plan.streets and min(raises_this_round(view), 2) in plan.raises

    def size(self, view: View) -> Action:
        sizes = self.plan.sizes
        size = sizes[self.rng.at(view.hand).randrange(len(sizes))] if len(sizes) > 1 else sizes[0]
        if isinstance(size, float):
            return view.pot_raise(size)
        if size == "min":
            return view.raise_to()
        if size == "allin":
            return view.all_in()
        return view.raise_to(int(round(float(size[:-1]) * view.public.max_spent)))

    def otherwise(self, view: View) -> Action:
        facing = self.plan.facing
        if not view.can_fold():
            return CALL  # a check
        if facing == "raise" and view.can_raise() and self.hand_allows(view):
            return self.size(view)
        if facing == "fold" or facing == "fold-weak" and strength_class(view) < MEDIUM:
            return FOLD
        return CALL


class BlindBetProbe(BetProbe):
    """A ``probe-bet`` whose plan never looks at the cards."""

    cards_blind = True


class CBetProbe(BetProbe):
    """``probe-cbet``: bets 2/3 of the pot as the first bet of every round (the open before the flop)
    with any cards, and calls everything else: the continuation bettor."""

    name = "probe-cbet"
    PRESET = {"sizes": "0.67", "raises": "first"}


class BetFoldProbe(BetProbe):
    """``probe-betfold``: bets half the pot as the first bet of every round with any cards, and folds
    to any bet or raise: what a bot that never raises a bluff gives away."""

    name = "probe-betfold"
    PRESET = {"sizes": "0.5", "raises": "first", "facing": "fold"}

"""Betting abstraction: the public betting tree a solver plays, and translation of real bets into it.

Limit games keep every action, so their abstract tree is the real one. In no-limit the abstract
game keeps fold, call, raises of a few fractions of the pot (the pot after calling, as players say
"a pot-size raise") and all-in, with a cap on raises per round after which only all-in is left.
Opponents' bets of other sizes are mapped to a neighbouring size (the call counting as a raise of
0 pot) by the randomised pseudo-harmonic mapping of Ganzfried and Sandholm 2013 ("Action translation in extensive-form games with large action
spaces: axioms, paradoxes, and the pseudo-harmonic mapping").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from showdown.errors import ConfigError
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, Action, ActionKind, State

if TYPE_CHECKING:
    from showdown.solvers.strategy import Uniform

FOLD_SLOT, CALL_SLOT = 0, 1
"""Action slots of a node: 0 fold, 1 call, 2.. the raises in ascending size."""

DECISION, FOLD_END, SHOWDOWN = 0, 1, 2


Fractions = tuple[float, ...]


@dataclass(frozen=True, slots=True)
class BetSizing:
    """No-limit raise sizes as fractions of the pot after calling; all-in is always kept.

    ``fractions[r]``: the sizes of the first raise (the opening bet) of round ``r`` (the last entry
    serves later rounds). ``later[r]``: the sizes of its second, third, ... raise, the last repeating;
    empty, the first raise's sizes serve every raise. ``max_raises``: sized raises a round, after which
    only all-in is left.
    """

    fractions: tuple[Fractions, ...]
    max_raises: int
    later: tuple[tuple[Fractions, ...], ...] = ()

    def __post_init__(self) -> None:
        if not self.fractions or (self.later and len(self.later) != len(self.fractions)):
            raise ConfigError("bet sizing: give the sizes of every round, and later raises' sizes for every round or none")

    def of_round(self, r: int) -> Fractions:
        """The sizes of round ``r``'s first raise."""
        return self.fractions[min(r, len(self.fractions) - 1)]

    def of_raise(self, r: int, k: int) -> Fractions:
        """The sizes of round ``r``'s raise number ``k`` (0: the first)."""
        later = self.later[min(r, len(self.later) - 1)] if self.later else ()
        if k == 0 or not later:
            return self.of_round(r)
        return later[min(k, len(later)) - 1]

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"fractions": [list(f) for f in self.fractions], "max_raises": self.max_raises}
        if self.later:
            out["later"] = [[list(f) for f in r] for r in self.later]
        return out

    @classmethod
    def from_json(cls, data: dict[str, object]) -> BetSizing:
        fr = data.get("fractions")
        mr = data.get("max_raises")
        later = data.get("later", [])
        if (
            not isinstance(fr, list)
            or not all(isinstance(r, list) for r in fr)
            or not isinstance(mr, int)
            or not isinstance(later, list)
            or not all(isinstance(r, list) and all(isinstance(f, list) for f in r) for r in later)
        ):
            raise ConfigError("bet sizing: expected {'fractions': [[...], ...], 'max_raises': N, 'later': [[[...], ...], ...]}")
        return cls(
            tuple(tuple(float(x) for x in r) for r in fr),
            mr,
            tuple(tuple(tuple(float(x) for x in f) for f in r) for r in later),
        )


def default_sizing() -> BetSizing:
    """The tree of no-limit's first shipped strategy (``blueprint=v1``) and ``--sizes default``: half pot, pot and twice pot preflop; half pot and pot on
    the flop; pot on turn and river; all-in always; two sized raises a round (11,360 decision nodes in
    no-limit hold'em)."""
    return BetSizing(((0.5, 1.0, 2.0), (0.5, 1.0), (1.0,), (1.0,)), 2)


def wide_sizing() -> BetSizing:
    """The default tree with a small bet and a third sized raise (``--sizes wide``; the shipped no-limit
    strategy's tree): preflop raises of
    1/2, 1 and 2 pots (then 1 and 2, then 1); on the flop bets of 1/4, 1/2 and 1 pot, on the turn and
    river 1/4 and 1 pot, raises of 1 pot; all-in always; three sized raises a round (35,428 decision
    nodes in no-limit hold'em: 3.1 times the default's, 3.7 times its CPU per PCS iteration)."""
    return BetSizing(
        ((0.5, 1.0, 2.0), (0.25, 0.5, 1.0), (0.25, 1.0), (0.25, 1.0)),
        3,
        (((1.0, 2.0), (1.0,)), ((1.0,),), ((1.0,),), ((1.0,),)),
    )


SIZINGS = {"default": default_sizing, "wide": wide_sizing}
"""Named trees for ``--sizes``."""


def pot_raise_to(state: State, fraction: float) -> int:
    """The raise-to total of a raise of ``fraction`` of the pot after calling."""
    to_call = state.to_call()
    return state.max_spent + int(round(fraction * (state.pot() + to_call)))


def abstract_actions(state: State, sizing: BetSizing | None) -> tuple[Action, ...]:
    """The actions the abstract game keeps in ``state``: fold (when owed), call, raises ascending."""
    if state.game.is_limit or sizing is None:
        return state.legal_actions()
    out: list[Action] = [FOLD] if state.can_fold() else []
    out.append(CALL)
    bounds = state.raise_bounds()
    if bounds is None:
        return tuple(out)
    lo, hi = bounds
    sizes: set[int] = {hi}
    raises = state.num_raises()
    if raises < sizing.max_raises:
        for f in sizing.of_raise(state.round, raises):
            sizes.add(min(max(pot_raise_to(state, f), lo), hi))
    out.extend(Action(ActionKind.RAISE, s) for s in sorted(sizes))
    return tuple(out)


@dataclass
class BettingTree:
    """The abstract public tree, nodes in breadth-first order (so every level is a contiguous range).

    Per node: ``kind`` (DECISION, FOLD_END, SHOWDOWN), ``player`` acting (or folding, at FOLD_END),
    ``round``, ``depth``, ``spent`` (chips each position has put in), ``children`` (num_nodes, max
    actions; -1 where the slot is absent), ``actions`` (the abstract actions of each decision node).
    """

    game: GameDef
    sizing: BetSizing | None
    kind: np.ndarray
    player: np.ndarray
    round: np.ndarray
    depth: np.ndarray
    spent: np.ndarray
    children: np.ndarray
    actions: list[tuple[Action, ...]]
    bettings: list[str]
    levels: list[tuple[int, int]] = field(default_factory=list)
    by_betting: dict[str, int] = field(default_factory=dict)

    @property
    def num_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def max_actions(self) -> int:
        return int(self.children.shape[1])

    def decision_nodes(self) -> np.ndarray:
        return np.flatnonzero(self.kind == DECISION)

    def node_of_betting(self, betting: str) -> int | None:
        """The node reached by an abstract betting string (exactly as the tree spells it)."""
        return self.by_betting.get(betting)


MAX_TREE_NODES = 3_000_000
"""Largest abstract tree built: a bound on memory before a too-fine sizing is refused."""


def build_tree(game: GameDef, sizing: BetSizing | None = None) -> BettingTree:
    """The abstract betting tree of a two-player game (``sizing`` is used in no-limit games only)."""
    if game.num_players != 2:
        raise ConfigError("abstract betting trees are built for two-player games")
    if game.is_nolimit and sizing is None:
        sizing = default_sizing()
    kind: list[int] = []
    player: list[int] = []
    round_: list[int] = []
    depth: list[int] = []
    spent: list[tuple[int, ...]] = []
    kids: list[list[int]] = []
    acts: list[tuple[Action, ...]] = []
    bettings: list[str] = []
    root = State.initial(game)
    queue: list[tuple[State, int, str]] = [(root, 0, root.betting)]  # the betting string grows with the path
    head = 0
    while head < len(queue):
        state, d, betting = queue[head]
        head += 1
        spent.append(state.spent)
        round_.append(state.round)
        depth.append(d)
        bettings.append(betting)
        if state.is_terminal:
            folded = [p for p in range(2) if state.folded[p]]
            kind.append(FOLD_END if folded else SHOWDOWN)
            player.append(folded[0] if folded else -1)
            kids.append([])
            acts.append(())
            continue
        kind.append(DECISION)
        player.append(state.current_player)
        actions = abstract_actions(state, sizing if game.is_nolimit else None)
        acts.append(actions)
        row = []
        for a in actions:
            row.append(len(queue))
            child = state.apply_legal(a)  # abstract_actions offers legal actions only
            queue.append((child, d + 1, betting + str(a) + "/" * (len(child.history) - len(state.history))))
        kids.append(row)
        if len(queue) > MAX_TREE_NODES:
            raise ConfigError(f"the abstract betting tree passes {MAX_TREE_NODES:,} nodes: use fewer sizes or raises")
    width = max(len(r) for r in kids)
    children = np.full((len(kids), width), -1, dtype=np.int64)
    for i, r in enumerate(kids):
        children[i, : len(r)] = r
    return tree_of(
        game,
        sizing if game.is_nolimit else None,
        np.array(kind, dtype=np.int8),
        np.array(player, dtype=np.int8),
        np.array(round_, dtype=np.int8),
        np.array(depth, dtype=np.int32),
        np.array(spent, dtype=np.int64),
        children,
        acts,
        bettings,
    )


def tree_of(
    game: GameDef,
    sizing: BetSizing | None,
    kind: np.ndarray,
    player: np.ndarray,
    round_: np.ndarray,
    depth: np.ndarray,
    spent: np.ndarray,
    children: np.ndarray,
    actions: list[tuple[Action, ...]],
    bettings: list[str],
) -> BettingTree:
    """A ``BettingTree`` of its per-node arrays (built, or read back by ``solvers.tree_cache``), with
    its levels and betting index worked out."""
    tree = BettingTree(game, sizing, kind, player, round_, depth, spent, children, actions, bettings)
    starts = np.flatnonzero(np.diff(depth)) + 1
    bounds = [0, *starts.tolist(), len(depth)]
    tree.levels = [(bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]
    tree.by_betting = {b: i for i, b in enumerate(bettings)}
    return tree


# ---------------------------------------------------------------------- translation


def pseudo_harmonic_low(x: float, a: float, b: float) -> float:
    """Probability of mapping a bet of ``x`` (pot fractions) to the smaller size ``a`` rather than ``b``.

    f(x) = (b - x)(1 + a) / ((b - a)(1 + x)), for a <= x <= b (Ganzfried and Sandholm 2013): 1 at a, 0
    at b, and decreasing in between.
    """
    if x <= a:
        return 1.0
    if x >= b:
        return 0.0
    return (b - x) * (1 + a) / ((b - a) * (1 + x))


def translate(real: State, action: Action, abstract: State, options: tuple[Action, ...], rng: Uniform | None) -> int:
    """The slot in ``options`` (the abstract actions at ``abstract``) that a real ``action`` at ``real`` maps to.

    Fold and call map to themselves (a fold that is not offered, to call). A raise maps to the abstract
    raise of the same size as a fraction of the pot, all-in to all-in; any other size between its two
    neighbours by the pseudo-harmonic mapping (with ``rng``: sampled, as the paper does; without: the
    likelier). The call counts as a raise of 0 pot: a raise below the smallest kept size maps between
    the call and that size (Ganzfried and Sandholm 2013 take the call as the lower end), so a tiny bet
    is mostly answered as a check and not as the smallest kept bet, and past the raise cap, where only
    all-in is kept, a small raise maps mostly to the call instead of to all-in. Above the largest kept
    size a raise maps to that one. With no raise among the options, a raise maps to call.

    """
    return _draw(_translation(real, action, abstract, options, call_neighbour=True), rng)


def translate_legacy(real: State, action: Action, abstract: State, options: tuple[Action, ...], rng: Uniform | None) -> int:
    """``translate`` as it was before issue 26, kept to evaluate the blueprint as it then played: the
    call is not a neighbour, so a raise below the smallest kept size maps to that size and, past the
    raise cap, any raise maps to all-in (the holes the probes of issue 25 exploited)."""
    return _draw(_translation(real, action, abstract, options, call_neighbour=False), rng)


def _draw(mapping: tuple[int, int, float], rng: Uniform | None) -> int:
    """One of the two slots of a mapping: sampled with ``rng``, else the likelier."""
    lo, hi, p_low = mapping
    if lo == hi or rng is None:
        return lo if p_low >= 0.5 else hi
    return lo if rng.random() < p_low else hi


def translation_probabilities(real: State, action: Action, abstract: State, options: tuple[Action, ...]) -> np.ndarray:
    """The probability of each slot of ``options`` that ``translate`` with a generator maps a real
    ``action`` to: for following a range through an off-tree bet by Bayes' rule."""
    lo, hi, p_low = _translation(real, action, abstract, options, call_neighbour=True)
    out = np.zeros(len(options))
    out[lo] += p_low
    out[hi] += 1.0 - p_low
    return out


def _translation(
    real: State, action: Action, abstract: State, options: tuple[Action, ...], *, call_neighbour: bool
) -> tuple[int, int, float]:
    """The two slots a real action maps between and the probability of the first (see ``translate``;
    without ``call_neighbour``, ``translate_legacy``)."""
    if action.kind is ActionKind.FOLD:
        slot = 0 if options[0].kind is ActionKind.FOLD else _call_slot(options)
        return slot, slot, 1.0
    call = _call_slot(options)
    raises = [i for i, a in enumerate(options) if a.kind is ActionKind.RAISE]
    if action.kind is ActionKind.CALL or not raises:
        return call, call, 1.0
    if not real.game.is_nolimit:
        return raises[0], raises[0], 1.0
    real_bounds = real.raise_bounds()
    size = action.size or (real_bounds or (0, 0))[0]
    abstract_bounds = abstract.raise_bounds()
    if real_bounds is not None and size >= real_bounds[1] and abstract_bounds is not None:
        top = [i for i in raises if options[i].size >= abstract_bounds[1]]
        if top:
            return top[0], top[0], 1.0
    fractions = [pot_fraction(abstract, options[i].size) for i in raises]
    if not call_neighbour:
        return _between(pot_fraction(real, size), raises, fractions)
    return _between(pot_fraction(real, size), [call, *raises], [0.0, *fractions])


def _between(x: float, slots: list[int], fractions: list[float]) -> tuple[int, int, float]:
    """The slots whose pot fractions surround ``x`` and the pseudo-harmonic probability of the lower
    (one slot when ``x`` is one of them or outside them all)."""
    for k, f in enumerate(fractions):
        if abs(f - x) < 1e-9:
            return slots[k], slots[k], 1.0
    below = [k for k, f in enumerate(fractions) if f < x]
    above = [k for k, f in enumerate(fractions) if f > x]
    if not below:
        return slots[above[0]], slots[above[0]], 1.0
    if not above:
        return slots[below[-1]], slots[below[-1]], 1.0
    lo, hi = below[-1], above[0]
    return slots[lo], slots[hi], pseudo_harmonic_low(x, fractions[lo], fractions[hi])


def pot_fraction(state: State, raise_to: int) -> float:
    """A raise-to total as the fraction of the pot after calling that it raises by."""
    return (raise_to - state.max_spent) / max(state.pot() + state.to_call(), 1)


def realize(action: Action, abstract: State, real: State) -> Action:
    """The real action for an abstract one: the same pot fraction (all-in stays all-in), legal at ``real``."""
    if action.kind is ActionKind.FOLD:
        return FOLD if real.can_fold() else CALL
    if action.kind is ActionKind.CALL:
        return CALL
    bounds = real.raise_bounds()
    if bounds is None:
        return CALL
    if real.game.is_limit:
        return action
    lo, hi = bounds
    abstract_bounds = abstract.raise_bounds()
    if abstract_bounds is not None and action.size >= abstract_bounds[1]:
        return Action(ActionKind.RAISE, hi)
    to = real.max_spent + int(round(pot_fraction(abstract, action.size) * (real.pot() + real.to_call())))
    return Action(ActionKind.RAISE, min(max(to, lo), hi))


def _call_slot(options: tuple[Action, ...]) -> int:
    return next(i for i, a in enumerate(options) if a.kind is ActionKind.CALL)

"""The agent interface: ``act(view) -> Action`` plus hand start/end hooks, and what an agent sees.

An agent never touches the wire: the client (``showdown.agents.client``) turns each MATCHSTATE line
into a ``View`` and the agent's ``Action`` into the reply. A ``View`` holds exactly what one seat
is told (its own cards, the public board, the betting, and opponents' cards only when shown at a
showdown) together with a ``State`` rebuilt from it, so legal actions and raise bounds come from the
one rules engine.

Agents whose behaviour is a fixed function of what they see (``PolicyAgent``) can also list that
behaviour as a strategy table keyed by information set (``"Ks:/cr"``, ``"Qh:Kh/rrc/r"``) for the
exact solvers.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from showdown.errors import ShowdownError, SolverError
from showdown.games.cards import Card, make_deck
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, RAISE, Action, ActionKind, State

__all__ = ["Agent", "PolicyAgent", "Policy", "StrategyTable", "View", "infoset_key", "LETTER_ACTIONS", "no_act"]

Policy = dict[str, float]
"""Probabilities by action letter (``'f'``, ``'c'``, ``'r'``) at one decision point; they sum to 1."""
StrategyTable = dict[str, Policy]
"""Information set key -> policy, for every decision point of a limit game."""

LETTER_ACTIONS: Mapping[str, Action] = {"f": FOLD, "c": CALL, "r": RAISE}


def infoset_key(
    hole: tuple[Card, ...], board: tuple[Card, ...], betting: str, num_board_cards: Sequence[int] | None = None
) -> str:
    """The shared information set key: own cards ``:`` visible board ``/`` ACPC betting.

    The solvers' form (``showdown.solvers.strategy.infoset_key``): hole cards highest first, board
    cards sorted within each round when ``num_board_cards`` is given. Imported on first use so that
    agents that never form keys do not load numpy.
    """
    from showdown.solvers.strategy import infoset_key as solver_key

    return solver_key(hole, board, betting, num_board_cards)


class View:
    """One seat's view of a hand at one moment: what the agent decides from.

    ``state`` is a ``State`` rebuilt from the seat's information (others' hole cards are empty
    unless shown), so ``state.hole[p]`` gives the cards position p showed at a showdown. Legal
    actions and sizes come from the betting alone (``public``, the same state without cards, shared
    between hands by the client's cache); ``state`` is made on first use.
    """

    __slots__ = ("game", "position", "hand", "public", "hole", "board", "betting", "_all_hole", "_state")

    game: GameDef
    position: int
    hand: int
    public: State
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    betting: str

    def __init__(
        self,
        game: GameDef,
        position: int,
        hand: int,
        public: State,
        hole: tuple[Card, ...],
        board: tuple[Card, ...],
        betting: str,
        all_hole: tuple[tuple[Card, ...], ...] | None = None,
        state: State | None = None,
    ) -> None:
        self.game = game
        self.position = position
        self.hand = hand
        self.public = public
        self.hole = hole
        self.board = board
        self.betting = betting
        self._all_hole = all_hole
        self._state = state

    @classmethod
    def of(cls, state: State, position: int, hand: int = 0) -> View:
        """The view ``position`` has of an omniscient ``state`` (opponents' cards hidden
        except at a finished showdown for players who did not fold, as the dealer shows them)."""
        if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < state.game.num_players:
            raise ShowdownError(f"View.of: position is 0 to {state.game.num_players - 1} in {state.game.name}, got {position!r:.40}")
        reveal = state.is_showdown
        hole = tuple(
            h if p == position or (reveal and not state.folded[p]) else ()
            for p, h in enumerate(state.hole)
        )
        board = state.visible_board()
        own = state.hole[position] if position < len(state.hole) else ()
        public = state.with_cards((), ())
        return cls(state.game, position, hand, public, own, board, state.betting, hole, state.with_cards(hole, board))

    @property
    def state(self) -> State:
        """The hand as this seat knows it: the betting with own (and shown) hole cards and the board."""
        if self._state is None:
            hole = self._all_hole
            if hole is None:
                hole = tuple(self.hole if p == self.position else () for p in range(self.game.num_players))
            self._state = self.public.with_cards(hole, self.board)
        return self._state

    # ------------------------------------------------------------------ the situation

    @property
    def round(self) -> int:
        return self.public.round

    @property
    def finished(self) -> bool:
        return self.public.finished

    @property
    def is_our_turn(self) -> bool:
        s = self.public
        return not s.finished and s.current_player == self.position

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def infoset_key(self) -> str:
        """``"Ks:/cr"``: own cards, visible board and betting (see ``infoset_key``)."""
        return infoset_key(self.hole, self.board, self.betting, self.game.num_board_cards)

    def pot(self) -> int:
        """Chips put in by everyone so far."""
        return self.public.pot()

    def to_call(self) -> int:
        """Chips we must add to call (0 means a check); only meaningful on our turn."""
        return self.public.to_call()

    def spent(self, position: int | None = None) -> int:
        """Chips ``position`` (default: us) has put in this hand."""
        return self.public.spent[self.position if position is None else position]

    def shown_cards(self) -> dict[int, tuple[Card, ...]]:
        """Opponents' hole cards that were shown (only in the final state of a showdown)."""
        return {p: h for p, h in enumerate(self.state.hole) if h and p != self.position}

    # ------------------------------------------------------------------ the choices

    def legal_actions(self) -> tuple[Action, ...]:
        """Fold (when facing a bet), call, and raise (no-limit: the minimum and the all-in)."""
        return self.public.legal_actions()

    def can_fold(self) -> bool:
        return self.public.can_fold()

    def can_raise(self) -> bool:
        return self.public.raise_bounds() is not None

    def raise_bounds(self) -> tuple[int, int] | None:
        """(min, max) raise-to totals when a raise is legal (equal in limit games), else None."""
        return self.public.raise_bounds()

    def all_in(self) -> Action:
        """A raise to the largest legal total (a call when no raise is legal)."""
        bounds = self.public.raise_bounds()
        return self.raise_to(bounds[1] if bounds else None)

    def raise_to(self, total: int | None = None) -> Action:
        """A legal raise to ``total`` chips (clamped into range; the minimum when None).

        Limit games ignore ``total``. When no raise is legal this returns a call.
        """
        bounds = self.public.raise_bounds()
        if bounds is None:
            return CALL
        if self.game.is_limit:
            return RAISE
        lo, hi = bounds
        size = lo if total is None else min(max(int(total), lo), hi)
        return Action(ActionKind.RAISE, size)

    def pot_raise(self, fraction: float = 1.0) -> Action:
        """Raise by ``fraction`` of the pot after calling (1.0 = a pot-size raise), made legal."""
        s = self.public
        to_call = s.to_call()
        return self.raise_to(s.max_spent + int(round(fraction * (s.pot() + to_call))))

    # ------------------------------------------------------------------ after the hand

    def payoffs(self) -> tuple[float, ...] | None:
        """Chips won or lost by each position once the hand is finished, else None.

        Always known at the end: a fold leaves one player, and a showdown shows every remaining hand.
        """
        if not self.public.finished:
            return None
        try:
            return self.state.payoffs()
        except ShowdownError:  # cards missing (a dealer that hides them): unknown
            return None

    def value(self) -> float | None:
        """Our result for the finished hand, or None."""
        p = self.payoffs()
        return None if p is None else p[self.position]

    def __repr__(self) -> str:
        return f"View(hand {self.hand}, position {self.position}, {self.infoset_key!r})"



def no_act(cls: type) -> str:
    """What a bot class without its own ``act`` is told (by ``Agent.act``, and by ``run_bot`` before it takes a seat)."""
    return f"{cls.__name__} has no act(self, view) method: a bot's class defines act, which returns its action"

class Agent:
    """Base class of all agents: override ``act``; ``hand_start``/``hand_end`` are optional hooks.

    ``game`` is the game being played (set by the factory or the client); ``name`` labels the agent
    in logs and tables.
    """

    name: ClassVar[str] = "agent"

    def __init__(self, game: GameDef | None = None) -> None:
        self.game = game

    def act(self, view: View) -> Action:
        """The action to take; only called when it is this agent's turn."""
        raise NotImplementedError(no_act(type(self)))

    def hand_start(self, view: View) -> None:
        """Called once per hand with the first state of it this seat sees (normally: cards dealt, no action)."""

    def hand_end(self, view: View) -> None:
        """Called once per hand with the final state (opponents' cards when they were shown)."""

    def strategy_table(self, game: GameDef | None = None) -> StrategyTable:
        """Information set key -> action probabilities; only agents with a fixed policy have one."""
        raise SolverError(f"agent {self.name!r} has no fixed strategy to list as a table")


class PolicyAgent(Agent):
    """An agent whose behaviour is a fixed function of its view: ``policy(view)``.

    The default ``act`` plays the policy's most likely action (right for deterministic policies);
    stochastic agents and no-limit sizing override it. ``strategy_table`` lists the policy at every
    information set by walking the game's betting tree over every possible private view.
    """

    cards_blind: ClassVar[bool] = False
    """True when ``policy`` never looks at the cards (evaluators such as LBR then ask once per decision)."""
    policy_by_hand: ClassVar[bool] = False
    """True when ``policy`` may answer differently in another hand for the same cards and betting (its
    random numbers are drawn per hand): evaluators then keep no answer from one hand to the next."""
    raise_sizes_blind: ClassVar[bool] = False
    """True when the size ``act`` raises to never depends on the cards (only on the betting and its own
    random numbers): a range kept from ``policy``'s kinds is then the exact posterior of the cards."""

    def policy(self, view: View) -> Policy:
        """Probabilities of ``'f'``, ``'c'``, ``'r'`` here; only legal letters may be positive."""
        raise NotImplementedError

    def act(self, view: View) -> Action:
        probs = self.policy(view)
        best = max(probs, key=probs.__getitem__)
        return view.raise_to() if best == "r" else LETTER_ACTIONS[best]

    def strategy_table(self, game: GameDef | None = None) -> StrategyTable:
        game = game or self.game
        if game is None:
            raise SolverError("strategy_table needs the game")
        table: StrategyTable = {}
        for view in decision_views(game):
            key = view.infoset_key
            if key not in table:
                table[key] = dict(self.policy(view))
        return table


_MAX_TABLE_VIEWS = 2_000_000


def decision_views(game: GameDef) -> Iterator[View]:
    """Every decision point of a limit game as the acting seat sees it, once per information set.

    Walks the public betting tree once (cards do not change the betting rules) and at each decision
    yields a view for each possible (own hole cards, visible board) of the acting position; cards
    are taken as sets (per board round), as the information set key orders them.
    """
    if game.is_nolimit:
        raise SolverError("strategy tables exist only for limit games (no-limit raise sizes are unbounded)")
    deck = make_deck(game.num_ranks, game.num_suits)
    privates: dict[int, list[tuple[tuple[Card, ...], tuple[Card, ...]]]] = {}

    def boards(rest: tuple[Card, ...], groups: Sequence[int]) -> Iterator[tuple[Card, ...]]:
        if not groups:
            yield ()
            return
        for first in itertools.combinations(rest, groups[0]):
            left = tuple(c for c in rest if c not in first)
            for more in boards(left, groups[1:]):
                yield first + more

    def private_views(round_: int) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
        if round_ not in privates:
            groups = game.num_board_cards[: round_ + 1]
            out = []
            for hole in itertools.combinations(deck, game.num_hole_cards):
                rest = tuple(c for c in deck if c not in hole)
                for board in boards(rest, groups):
                    out.append((hole, board))
                    if len(out) > _MAX_TABLE_VIEWS:
                        raise SolverError(f"game {game.name or '?'} is too big to list as a strategy table")
            privates[round_] = out
        return privates[round_]

    stack = [State.initial(game)]
    n = game.num_players
    while stack:
        state = stack.pop()
        if state.finished:
            continue
        p = state.current_player
        betting = state.betting
        for hole, board in private_views(state.round):
            holes = tuple(hole if q == p else () for q in range(n))
            yield View(game, p, 0, state, hole, board, betting, holes)
        for action in reversed(state.legal_actions()):
            stack.append(state.apply(action))


def check_policy(policy: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` unless ``policy`` is a probability distribution over f/c/r."""
    if set(policy) - set("fcr") or abs(sum(policy.values()) - 1.0) > 1e-9 or min(policy.values()) < 0:
        raise ValueError(f"not a policy over f/c/r: {dict(policy)}")

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
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from showdown.errors import SolverError
from showdown.games.cards import Card, format_cards, make_deck
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, RAISE, Action, ActionKind, State

__all__ = ["Agent", "PolicyAgent", "Policy", "StrategyTable", "View", "infoset_key", "LETTER_ACTIONS"]

Policy = dict[str, float]
"""Probabilities by action letter (``'f'``, ``'c'``, ``'r'``) at one decision point; they sum to 1."""
StrategyTable = dict[str, Policy]
"""Information set key -> policy, for every decision point of a limit game."""

LETTER_ACTIONS: Mapping[str, Action] = {"f": FOLD, "c": CALL, "r": RAISE}


def infoset_key(hole: tuple[Card, ...], board: tuple[Card, ...], betting: str) -> str:
    """The shared information set key: own cards ``:`` visible board ``/`` ACPC betting."""
    return f"{format_cards(hole)}:{format_cards(board)}/{betting}"


class View:
    """One seat's view of a hand at one moment: what the agent decides from.

    ``state`` is rebuilt from the seat's information (others' hole cards are empty unless shown),
    so ``state.hole[p]`` gives the cards position p showed at a showdown. Legal actions and sizes
    are the state's. Built by the client; cheap to make (derived values are computed on demand).
    """

    __slots__ = ("game", "position", "hand", "state", "hole", "board", "betting")

    game: GameDef
    position: int
    hand: int
    state: State
    hole: tuple[Card, ...]
    board: tuple[Card, ...]
    betting: str

    def __init__(
        self,
        game: GameDef,
        position: int,
        hand: int,
        state: State,
        hole: tuple[Card, ...],
        board: tuple[Card, ...],
        betting: str,
    ) -> None:
        self.game = game
        self.position = position
        self.hand = hand
        self.state = state
        self.hole = hole
        self.board = board
        self.betting = betting

    @classmethod
    def of(cls, state: State, position: int, hand: int = 0) -> View:
        """The view ``position`` has of an omniscient ``state`` (opponents' cards hidden
        except at a finished showdown for players who did not fold, as the dealer shows them)."""
        reveal = state.is_showdown
        hole = tuple(
            h if p == position or (reveal and not state.folded[p]) else ()
            for p, h in enumerate(state.hole)
        )
        board = state.visible_board()
        own = state.hole[position] if position < len(state.hole) else ()
        return cls(state.game, position, hand, state.with_cards(hole, board), own, board, state.betting)

    # ------------------------------------------------------------------ the situation

    @property
    def round(self) -> int:
        return self.state.round

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def is_our_turn(self) -> bool:
        s = self.state
        return not s.finished and s.current_player == self.position

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def infoset_key(self) -> str:
        """``"Ks:/cr"``: own cards, visible board and betting (see ``infoset_key``)."""
        return infoset_key(self.hole, self.board, self.betting)

    def pot(self) -> int:
        """Chips put in by everyone so far."""
        return self.state.pot()

    def to_call(self) -> int:
        """Chips we must add to call (0 means a check); only meaningful on our turn."""
        return self.state.to_call()

    def spent(self, position: int | None = None) -> int:
        """Chips ``position`` (default: us) has put in this hand."""
        return self.state.spent[self.position if position is None else position]

    def shown_cards(self) -> dict[int, tuple[Card, ...]]:
        """Opponents' hole cards that were shown (only in the final state of a showdown)."""
        return {p: h for p, h in enumerate(self.state.hole) if h and p != self.position}

    # ------------------------------------------------------------------ the choices

    def legal_actions(self) -> tuple[Action, ...]:
        """Fold (when facing a bet), call, and raise (no-limit: the minimum and the all-in)."""
        return self.state.legal_actions()

    def can_fold(self) -> bool:
        return self.state.can_fold()

    def can_raise(self) -> bool:
        return self.state.raise_bounds() is not None

    def raise_bounds(self) -> tuple[int, int] | None:
        """(min, max) raise-to totals when a raise is legal (equal in limit games), else None."""
        return self.state.raise_bounds()

    def raise_to(self, total: int | None = None) -> Action:
        """A legal raise to ``total`` chips (clamped into range; the minimum when None).

        Limit games ignore ``total``. When no raise is legal this returns a call.
        """
        bounds = self.state.raise_bounds()
        if bounds is None:
            return CALL
        if self.game.is_limit:
            return RAISE
        lo, hi = bounds
        size = lo if total is None else min(max(int(total), lo), hi)
        return Action(ActionKind.RAISE, size)

    def pot_raise(self, fraction: float = 1.0) -> Action:
        """Raise by ``fraction`` of the pot after calling (1.0 = a pot-size raise), made legal."""
        s = self.state
        to_call = s.to_call()
        return self.raise_to(s.max_spent + int(round(fraction * (s.pot() + to_call))))

    # ------------------------------------------------------------------ after the hand

    def payoffs(self) -> tuple[float, ...] | None:
        """Chips won or lost by each position once the hand is finished, else None.

        Always known at the end: a fold leaves one player, and a showdown shows every remaining hand.
        """
        if not self.state.finished:
            return None
        try:
            return self.state.payoffs()
        except Exception:  # cards missing (a dealer that hides them): unknown
            return None

    def value(self) -> float | None:
        """Our result for the finished hand, or None."""
        p = self.payoffs()
        return None if p is None else p[self.position]

    def __repr__(self) -> str:
        return f"View(hand {self.hand}, position {self.position}, {self.infoset_key!r})"


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
        raise NotImplementedError

    def hand_start(self, view: View) -> None:
        """Called once per hand with the first state this seat sees (cards dealt, no action yet)."""

    def hand_end(self, view: View) -> None:
        """Called once per hand with the final state (opponents' cards when they were shown)."""

    def strategy_table(self, game: GameDef | None = None) -> StrategyTable:
        """Information set key -> action probabilities; only agents with a fixed policy have one."""
        raise SolverError(f"agent {self.name!r} has no fixed strategy to list as a table")


class PolicyAgent(Agent):
    """An agent whose behaviour is a fixed function of its view: ``policy(view)``.

    In limit games ``act`` draws from the policy (deterministic policies need no randomness);
    subclasses override ``act`` for no-limit sizing. ``strategy_table`` lists the policy at every
    information set by walking the game's betting tree over every possible private view.
    """

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
    yields a view for each possible (own hole cards, visible board) of the acting position.
    """
    if game.is_nolimit:
        raise SolverError("strategy tables exist only for limit games (no-limit raise sizes are unbounded)")
    deck = make_deck(game.num_ranks, game.num_suits)
    k = game.num_hole_cards
    privates: dict[int, list[tuple[tuple[Card, ...], tuple[Card, ...]]]] = {}

    def private_views(round_: int) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
        if round_ not in privates:
            nb = game.board_cards_through(round_)
            out = []
            for hole in itertools.permutations(deck, k):
                rest = [c for c in deck if c not in hole]
                for board in itertools.permutations(rest, nb):
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
            yield View(game, p, 0, state.with_cards(holes, board), hole, board, betting)
        for action in reversed(state.legal_actions()):
            stack.append(state.apply(action))


def check_policy(policy: Mapping[str, Any]) -> None:
    """Raise ``ValueError`` unless ``policy`` is a probability distribution over f/c/r."""
    if set(policy) - set("fcr") or abs(sum(policy.values()) - 1.0) > 1e-9 or min(policy.values()) < 0:
        raise ValueError(f"not a policy over f/c/r: {dict(policy)}")

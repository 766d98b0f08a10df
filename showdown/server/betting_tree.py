"""Where a hand's betting is: a shared tree of limit-betting nodes, or the no-limit hand in place.

Both answer the ``Betting`` queries the match engine asks on every action (who acts, what is legal,
how a reply is repaired), so the engine plays either without knowing which it has.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from showdown.games.cards import Card
from showdown.games.state import Action, State
from showdown.protocol.events import EventKind

__all__ = ["MAX_REPLIES_PER_NODE", "MAX_TREE_NODES", "Betting", "BettingNode", "BettingTree"]

MAX_TREE_NODES = 200_000  # a limit game's tree is finite but may be large: past this many nodes it starts afresh
MAX_REPLIES_PER_NODE = 32  # distinct reply texts remembered per node (garbage is not worth keeping)


class BettingNode:
    """One betting sequence of a limit game, without cards: who acts, and where each action leads.

    Who acts, what is legal and how a reply is repaired depend on the betting alone, so the engine
    walks a tree of these nodes, grown on demand and shared by all hands, instead of building a
    ``State`` per action: once a small game's tree is known, an action costs two dict lookups.
    ``replies`` memoises what a reply's action text becomes here: (action played, event kind,
    warning or None). No-limit hands seldom repeat a betting sequence: there the engine plays the
    hand in place instead (``LiveHand``, which answers the same queries).
    """

    __slots__ = ("state", "betting", "player", "round", "finished", "spent", "folded", "is_showdown", "children", "replies")

    def __init__(self, state: State, betting: str) -> None:
        self.state = state  # card-less: ``with_cards`` gives the hand's state
        self.betting = betting
        self.finished = state.finished
        self.player = -1 if state.finished else state.current_player
        self.round = state.round
        self.spent = state.spent
        self.folded = state.folded
        self.is_showdown = state.is_showdown
        self.children: dict[str, BettingNode] = {}
        self.replies: dict[str, tuple[Action, EventKind, str | None]] = {}

    def can_fold(self) -> bool:
        return self.state.can_fold()

    def repair(self, action: Action) -> tuple[Action, str | None]:
        return self.state.repair(action)

    def as_state(self, hole: tuple[tuple[Card, ...], ...], board: tuple[Card, ...]) -> State:
        return self.state.with_cards(hole, board)


class Betting(Protocol):
    """Where the current hand's betting is: a ``BettingNode`` (limit) or the ``LiveHand`` (no-limit)."""

    @property
    def betting(self) -> str: ...
    @property
    def player(self) -> int: ...
    @property
    def round(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    @property
    def spent(self) -> Sequence[int]: ...
    @property
    def folded(self) -> Sequence[bool]: ...
    @property
    def is_showdown(self) -> bool: ...
    def can_fold(self) -> bool: ...
    def repair(self, action: Action) -> tuple[Action, str | None]: ...
    def as_state(self, hole: tuple[tuple[Card, ...], ...], board: tuple[Card, ...]) -> State: ...


class BettingTree:
    """The limit betting nodes met so far, shared by every hand of a match, at most ``MAX_TREE_NODES``."""

    __slots__ = ("root", "size")

    def __init__(self, initial: State) -> None:
        self.root = BettingNode(initial, "")
        self.size = 1

    def grow(self, node: BettingNode, key: str, action: Action) -> BettingNode:
        """The node after ``action`` (whose betting text is ``key``) at ``node``, new to the tree."""
        state = node.state.apply_legal(action)
        # The betting string grows by the action, plus a '/' per round started (or run out).
        child = BettingNode(state, node.betting + key + "/" * (len(state.history) - len(node.state.history)))
        self.size += 1
        if self.size > MAX_TREE_NODES:  # the current hand keeps its own path
            self.root = BettingNode(self.root.state, "")
            self.size = 1
        else:
            node.children[key] = child
        return child

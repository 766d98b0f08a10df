"""One hand's betting applied in place: the dealer's no-limit path.

``State`` is immutable, which the solvers and agents need, and the dealer of a limit game walks a
tree of states shared by all hands. A no-limit hand almost never repeats a betting sequence (raise
sizes vary), so there the dealer would build a new ``State`` per action. ``LiveHand`` plays the same
rules (docs/protocol.md section 2: who acts, legal raises, repairs, round ends, all-ins, side pots) with
counters kept up to date instead of worked out again from the history: an action costs a few
integer updates. Tests check it against ``State`` on random hands of every catalog game.
"""

from __future__ import annotations

from collections.abc import Sequence

from showdown.games.cards import Card
from showdown.games.gamedef import MAX_NUM_ACTIONS, GameDef
from showdown.games.state import Action, ActionKind, State, raise_range, repair_action

__all__ = ["LiveHand"]

_FOLD, _CALL, _RAISE = ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE


class LiveHand:
    """The betting of one hand in progress, changed by ``apply``; ``reset`` starts the next hand.

    Public attributes (read only): ``player`` (position to act, -1 once finished), ``round``,
    ``finished``, ``betting`` (the ACPC betting text so far, ``/`` per round started or run out),
    ``spent`` and ``folded`` by position (``state.split_pots`` gives the payoffs from them).
    """

    __slots__ = (
        "game",
        "_n",
        "_stack",
        "_first",
        "_max_raises",
        "_raise_size",
        "_nolimit",
        "_rounds",
        "_blind",
        "_round_min",
        "_start",
        "player",
        "round",
        "finished",
        "betting",
        "spent",
        "folded",
        "max_spent",
        "min_raise_to",
        "_folds",
        "_acting",
        "_called",
        "_raises",
        "_actions",
    )

    def __init__(self, game: GameDef) -> None:
        self.game = game
        self._n = game.num_players
        self._stack = tuple(game.stack)
        self._first = tuple(game.first_player)
        self._max_raises = tuple(game.max_raises)
        self._raise_size = tuple(game.raise_size)
        self._nolimit = game.is_nolimit
        self._rounds = game.num_rounds
        self._blind = tuple(game.blind)
        self._round_min = max(1, max(game.blind))  # a later round's minimum raise, over the bet
        self._deal_blinds()
        # every hand starts where the blinds leave it: max_spent, min_raise_to, acting, player
        self._start = (self.max_spent, self.min_raise_to, self._acting, self.player)
        self.reset()

    def _deal_blinds(self) -> None:
        """Blinds posted and who acts first, worked out from the game (``State.initial``'s rules)."""
        n = self._n
        stack = self._stack
        self.spent = spent = list(self._blind)
        self.folded = [False] * n
        self.max_spent = max_spent = max(spent)
        self.min_raise_to = (max_spent * 2 if max_spent else 1) if self._nolimit else 0
        self._acting = sum(1 for p in range(n) if spent[p] < stack[p])
        self.player = self._next_player(self._first[0] + n - 1)

    def reset(self) -> None:
        """The next hand: blinds posted, nobody has acted (``State.initial``)."""
        self.spent = list(self._blind)
        self.folded = [False] * self._n
        self.max_spent, self.min_raise_to, self._acting, self.player = self._start
        self.round = 0
        self.finished = False
        self.betting = ""
        self._folds = self._called = self._raises = self._actions = 0

    # ----------------------------------------------------------------- queries

    def can_fold(self) -> bool:
        if self.finished:
            return False
        p = self.player
        spent = self.spent[p]
        return not (spent == self.max_spent or spent == self._stack[p])

    def raise_bounds(self) -> tuple[int, int] | None:
        """(min, max) raise-to totals when a raise is legal, else None (``State.raise_bounds``)."""
        if self.finished:
            return None
        r = self.round
        if self._raises >= self._max_raises[r] or self._actions + self._n > MAX_NUM_ACTIONS or self._acting <= 1:
            return None
        limit_size = None if self._nolimit else self._raise_size[r]
        return raise_range(limit_size, self.min_raise_to, self.max_spent, self._stack[self.player])

    def repair(self, action: Action) -> tuple[Action, str | None]:
        """The reference dealer's repair of a reply's action (``State.repair``)."""
        return repair_action(self, action, self._nolimit)

    def as_state(self, hole: Sequence[Sequence[Card]] = (), board: Sequence[Card] = ()) -> State:
        """The same hand as a ``State`` (replayed: for the rare paths that need one)."""
        return State.initial(self.game, hole, board).apply_betting(self.betting)

    # ----------------------------------------------------------------- transitions

    def apply(self, action: Action) -> None:
        """Play ``action`` (legal: ``repair``'s output, or a stand-in check, call or fold)."""
        p = self.player
        stack = self._stack[p]
        spent = self.spent
        kind = action.kind
        if kind is _FOLD:
            self.folded[p] = True
            self._folds += 1
            self._acting -= 1
            text = "f"
        elif kind is _CALL:
            spent[p] = to = min(self.max_spent, stack)
            if to < stack:
                self._called += 1
            else:
                self._acting -= 1
            text = "c"
        else:
            max_spent = self.max_spent
            if self._nolimit:
                to = action.size
                if 2 * to - max_spent > self.min_raise_to:
                    self.min_raise_to = 2 * to - max_spent
                text = f"r{to}"
            else:
                to = min(max_spent + self._raise_size[self.round], stack)
                text = "r"
            self.max_spent = spent[p] = to
            self._raises += 1
            if to < stack:
                self._called = 1
            else:
                self._called = 0
                self._acting -= 1
        self._actions += 1
        if self._folds + 1 >= self._n:
            self._finish(text)
            return
        acting = self._acting
        if self._called >= acting:
            if acting > 1:
                if self.round + 1 < self._rounds:
                    self.round += 1
                    self.betting += text + "/"
                    self.min_raise_to = self._round_min + self.max_spent
                    self._called = self._raises = self._actions = 0
                    self.player = self._next_player(self._first[self.round] + self._n - 1)
                    return
                self._finish(text)
                return
            # Fewer than two can act: the remaining rounds are run out to a showdown.
            last = self._rounds - 1
            self._finish(text + "/" * (last - self.round))
            self.round = last
            return
        self.betting += text
        self.player = self._next_player(p)

    def _finish(self, text: str) -> None:
        self.betting += text
        self.finished = True
        self.player = -1

    def _next_player(self, after: int) -> int:
        n = self._n
        stack = self._stack
        folded = self.folded
        spent = self.spent
        p = after
        for _ in range(n):
            p = (p + 1) % n
            if not folded[p] and spent[p] < stack[p]:
                return p
        return -1

    # ----------------------------------------------------------------- results

    @property
    def is_showdown(self) -> bool:
        """Finished with at least two players left: hole cards are compared."""
        return self.finished and self._folds + 1 < self._n

"""The rules engine: one poker hand as an immutable ``State``.

Behaviour follows the reference dealer (docs/protocol.md section 2): who acts, what is legal, how a
round ends, all-ins, and the side-pot payoffs. The dealer, the agents and the solvers all use this
one class. ``apply`` returns a new state; nothing is changed in place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import Any, Protocol

from showdown.errors import IllegalActionError, ProtocolError
from showdown.games.cards import Card
from showdown.games.gamedef import MAX_NUM_ACTIONS, GameDef
from showdown.games.hand_value import hand_value


class ActionKind(IntEnum):
    FOLD = 0
    CALL = 1
    RAISE = 2




@dataclass(frozen=True, slots=True)
class Action:
    """A betting action; ``size`` is the no-limit raise-to total (0 for everything else).

    Text form is the ACPC one: ``f``, ``c``, ``r`` (limit) and ``r300`` (no-limit raise to 300).
    """

    kind: ActionKind
    size: int = 0

    def __str__(self) -> str:
        if self.size and self.kind is ActionKind.RAISE:
            return f"r{self.size}"
        return "fcr"[self.kind]

    @property
    def is_fold(self) -> bool:
        return self.kind is ActionKind.FOLD

    @property
    def is_call(self) -> bool:
        return self.kind is ActionKind.CALL

    @property
    def is_raise(self) -> bool:
        return self.kind is ActionKind.RAISE


FOLD = Action(ActionKind.FOLD)
CALL = Action(ActionKind.CALL)
RAISE = Action(ActionKind.RAISE)

_LETTERS = {"f": FOLD, "c": CALL, "r": RAISE}
_DIGITS = frozenset("0123456789")
MAX_SIZE_DIGITS = 18
"""The longest raise size betting text may write: far past any stack (2,147,483,647 chips at most)."""


def _round_actions(part: str, text: str) -> list[Action]:
    """The actions of one round's betting ``part`` of ``text``: the one tokenizer of betting text
    (``f``, ``c``, ``r``, ``r<total>``; ``ProtocolError`` naming ``text`` for anything else)."""
    out: list[Action] = []
    i, n = 0, len(part)
    while i < n:
        action = _LETTERS.get(part[i])
        if action is None:
            raise ProtocolError(f"bad betting {text!r}: unexpected {part[i:]!r}")
        i += 1
        if action is RAISE and i < n and part[i] in _DIGITS:
            j = i + 1
            while j < n and part[j] in _DIGITS:
                j += 1
            if j - i > MAX_SIZE_DIGITS:  # (int() of more than 4,300 digits was a ValueError traceback from analyze)
                raise ProtocolError(f"bad betting {text[:60]!r}...: a raise size of {j - i:,} digits (a stack is at most "
                                    f"10 digits)")
            action = Action(ActionKind.RAISE, int(part[i:j]))
            i = j
        out.append(action)
    return out


def parse_action(text: str) -> Action:
    """Strict parse of one canonical action: ``f``, ``c``, ``r`` or ``r<N>``."""
    action = _LETTERS.get(text)
    if action is not None:
        return action
    try:
        actions = _round_actions(text, text)
    except ProtocolError:
        actions = []
    if len(actions) != 1:
        raise ProtocolError(f"bad action {text!r}: expected f, c, r or r<total>")
    return actions[0]


def parse_betting(text: str) -> tuple[tuple[Action, ...], ...]:
    """``"cr200c/r400"`` -> actions per round (a trailing ``/`` gives an empty round)."""
    return tuple(tuple(_round_actions(part, text)) for part in text.split("/"))


@lru_cache(maxsize=4096)
def betting_actions(text: str) -> tuple[Action, ...]:
    """The actions of a betting text in order, the rounds' ``/`` left out (memoised: a client reads
    the same few pieces of betting again and again)."""
    return tuple(a for part in text.split("/") for a in _round_actions(part, text))


def format_betting(rounds: Iterable[Iterable[Action]]) -> str:
    return "/".join("".join(str(a) for a in r) for r in rounds)


_NOT_YET: Any = object()  # a cached value not worked out yet


class State:
    """One hand in progress or finished, from the omniscient point of view.

    ``hole[p]`` are position p's hole cards and ``board`` all board cards of the hand (dealt up
    front, as the reference deals them); either may be empty when only the betting matters (the
    solvers' public tree). Positions are 0-based.
    """

    __slots__ = (
        "game",
        "hole",
        "board",
        "round",
        "history",
        "spent",
        "folded",
        "max_spent",
        "min_raise_to",
        "finished",
        "_player",
        "_bounds",
    )

    game: GameDef
    hole: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    round: int
    history: tuple[tuple[tuple[int, Action], ...], ...]
    spent: tuple[int, ...]
    folded: tuple[bool, ...]
    max_spent: int
    min_raise_to: int
    finished: bool
    _player: int
    _bounds: Any  # raise_bounds() once worked out, else _NOT_YET

    @classmethod
    def initial(
        cls,
        game: GameDef | str,
        hole: Sequence[Sequence[Card]] = (),
        board: Sequence[Card] = (),
    ) -> State:
        """The state after the blinds are posted and before the first action."""
        if not isinstance(game, GameDef):
            from showdown.games.catalog import as_game

            game = as_game(game, "State.initial")
        s = cls.__new__(cls)
        s.game = game
        s.hole = tuple(tuple(h) for h in hole)
        s.board = tuple(board)
        s.round = 0
        s.history = ((),)
        s.spent = tuple(game.blind)
        s.folded = (False,) * game.num_players
        s.max_spent = max(game.blind)
        if game.is_nolimit:
            s.min_raise_to = s.max_spent * 2 if s.max_spent else 1
        else:
            s.min_raise_to = 0
        s.finished = False
        s._player = s._next_player(game.first_player[0] + game.num_players - 1)
        s._bounds = _NOT_YET
        return s

    # ----------------------------------------------------------------- queries

    @property
    def is_terminal(self) -> bool:
        return self.finished

    @property
    def current_player(self) -> int:
        """Position to act; only meaningful while the hand runs."""
        if self.finished:
            raise IllegalActionError("the hand is over: nobody is to act")
        return self._player

    @property
    def actions(self) -> tuple[tuple[Action, ...], ...]:
        return tuple(tuple(a for _, a in r) for r in self.history)

    @property
    def betting(self) -> str:
        """The ACPC betting string: ``cr/rc`` (rounds separated by ``/``)."""
        return "/".join("".join(str(a) for _, a in r) for r in self.history)

    def num_raises(self) -> int:
        """Raises in the current round (blinds do not count)."""
        return sum(1 for _, a in self.history[self.round] if a.kind is ActionKind.RAISE)

    def num_acting(self) -> int:
        """Players who have not folded and are not all-in."""
        stack = self.game.stack
        spent = self.spent
        count = 0
        for p, folded in enumerate(self.folded):
            if not folded and spent[p] < stack[p]:
                count += 1
        return count

    def num_active(self) -> int:
        """Players who have not folded."""
        return self.folded.count(False)

    def is_all_in(self, p: int) -> bool:
        return self.spent[p] >= self.game.stack[p]

    def to_call(self) -> int:
        """Chips the player to act must add to call (never more than its stack)."""
        p = self._player
        return min(self.max_spent, self.game.stack[p]) - self.spent[p]

    def pot(self) -> int:
        return sum(self.spent)

    def visible_board(self) -> tuple[Card, ...]:
        """Board cards of the rounds reached so far."""
        return self.board[: self.game.board_cards_through(self.round)]

    def board_by_round(self) -> tuple[tuple[Card, ...], ...]:
        """Board cards of each round reached, one group per round."""
        out = []
        start = 0
        for r in range(self.round + 1):
            n = self.game.num_board_cards[r]
            out.append(self.board[start : start + n])
            start += n
        return tuple(out)

    @property
    def is_showdown(self) -> bool:
        """Finished with at least two players left: hole cards are compared."""
        return self.finished and self.num_active() > 1

    def can_fold(self) -> bool:
        if self.finished:
            return False
        p = self._player
        return not (self.spent[p] == self.max_spent or self.spent[p] == self.game.stack[p])

    def can_call(self) -> bool:
        return not self.finished

    def raise_bounds(self) -> tuple[int, int] | None:
        """(min, max) raise-to totals when a raise is legal, else None.

        In limit games both equal the fixed raise-to (current bet + raiseSize, capped at the stack).
        Worked out once per state (agents and the dealer ask at every decision).
        """
        bounds = self._bounds
        if bounds is _NOT_YET:
            bounds = self._bounds = self._raise_bounds()
        return bounds  # type: ignore[no-any-return]

    def _raise_bounds(self) -> tuple[int, int] | None:
        if self.finished:
            return None
        g = self.game
        if self.num_raises() >= g.max_raises[self.round]:
            return None
        if len(self.history[self.round]) + g.num_players > MAX_NUM_ACTIONS:
            return None
        if self.num_acting() <= 1:
            return None
        limit_size = g.raise_size[self.round] if g.is_limit else None
        return raise_range(limit_size, self.min_raise_to, self.max_spent, g.stack[self._player])

    def can_raise(self) -> bool:
        return self.raise_bounds() is not None

    def legal_actions(self) -> tuple[Action, ...]:
        """Fold (when chips are owed), call, and raise: in no-limit the minimum and the all-in."""
        if self.finished:
            return ()
        out: list[Action] = []
        if self.can_fold():
            out.append(FOLD)
        out.append(CALL)
        bounds = self.raise_bounds()
        if bounds is not None:
            if self.game.is_limit:
                out.append(RAISE)
            else:
                out.append(Action(ActionKind.RAISE, bounds[0]))
                if bounds[1] != bounds[0]:
                    out.append(Action(ActionKind.RAISE, bounds[1]))
        return tuple(out)

    def why_illegal(self, action: Action) -> str | None:
        """None when ``action`` is legal here, else the reason in words."""
        if self.finished:
            return "the hand is over"
        if action.kind is ActionKind.FOLD:
            return None if self.can_fold() else "fold when a check is possible (or when all-in)"
        if action.kind is ActionKind.CALL:
            return None if action.size == 0 else "a call takes no size"
        bounds = self.raise_bounds()
        if bounds is None:
            return "no raise is allowed here (raise cap reached or nobody left to call)"
        if self.game.is_limit:
            return None if action.size in (0, bounds[0]) else f"limit raises have a fixed size: raise to {bounds[0]} (write 'r')"
        if not action.size:
            return "a no-limit raise needs its total, like r300"
        if action.size % 1:  # (300.5, nan: the wire has whole chips only; Python callers could play 300.5)
            return f"raise to {_chips(action.size)} is not a whole number of chips"
        lo, hi = bounds
        if not lo <= action.size <= hi:
            return f"raise to {_chips(action.size)} is outside the legal range {lo} to {hi}"
        return None

    def repair(self, action: Action) -> tuple[Action, str | None]:
        """The reference dealer's repair: invalid -> call; no-limit size clamped into range.

        Returns the action to apply and the warning the reference prints (None if unchanged).
        """
        return repair_action(self, action, self.game.is_nolimit)

    # ----------------------------------------------------------------- transitions

    def apply(self, action: Action) -> State:
        """The state after the player to act takes ``action``; raises ``IllegalActionError``."""
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalActionError(f"illegal action {action} at '{self.betting}': {reason}")
        return self._apply(action if type(action.size) is int else Action(action.kind, int(action.size)))  # (300.0, np.int64)

    def apply_legal(self, action: Action) -> State:
        """``apply`` for an action already known legal (``repair``'s output, a stand-in call or
        fold): the dealer's path, which would otherwise check every action twice."""
        return self._apply(action)

    def _apply(self, action: Action) -> State:
        g = self.game
        p = self._player
        spent = list(self.spent)
        folded = self.folded
        max_spent = self.max_spent
        min_raise_to = self.min_raise_to
        stack = g.stack[p]
        if action.kind is ActionKind.FOLD:
            folded = folded[:p] + (True,) + folded[p + 1 :]
            action = FOLD
        elif action.kind is ActionKind.CALL:
            spent[p] = min(max_spent, stack)
            action = CALL
        else:
            if g.is_nolimit:
                to = action.size
                if 2 * to - max_spent > min_raise_to:
                    min_raise_to = 2 * to - max_spent
                max_spent = to
            else:
                max_spent = min(max_spent + g.raise_size[self.round], stack)
                action = RAISE
            spent[p] = max_spent

        s = State.__new__(State)
        s.game = g
        s.hole = self.hole
        s.board = self.board
        s.round = self.round
        history = self.history[:-1] + (self.history[-1] + ((p, action),),)
        s.history = history
        s.spent = tuple(spent)
        s.folded = folded
        s.max_spent = max_spent
        s.min_raise_to = min_raise_to
        s.finished = False
        s._bounds = _NOT_YET

        if folded.count(True) + 1 >= g.num_players:
            s.finished = True
        else:
            acting = s.num_acting()
            if s._num_called() >= acting:
                if acting > 1:
                    if s.round + 1 < g.num_rounds:
                        s.round += 1
                        s.history = history + ((),)
                        s.min_raise_to = max(1, max(g.blind)) + max_spent
                    else:
                        s.finished = True
                else:
                    # Fewer than two can act: run out the remaining rounds to a showdown.
                    s.finished = True
                    s.history = history + ((),) * (g.num_rounds - 1 - s.round)
                    s.round = g.num_rounds - 1
        if not s.finished:
            if len(s.history[s.round]):
                s._player = s._next_player(p)
            else:
                s._player = s._next_player(g.first_player[s.round] + g.num_players - 1)
        else:
            s._player = -1
        return s

    def _num_called(self) -> int:
        """Players (not all-in) who have called or made the current bet in this round."""
        stack = self.game.stack
        count = 0
        for p, a in reversed(self.history[self.round]):
            if a.kind is ActionKind.RAISE:
                if self.spent[p] < stack[p]:
                    count += 1
                return count
            if a.kind is ActionKind.CALL and self.spent[p] < stack[p]:
                count += 1
        return count

    def _next_player(self, after: int) -> int:
        n = self.game.num_players
        stack = self.game.stack
        p = after
        for _ in range(n):
            p = (p + 1) % n
            if not self.folded[p] and self.spent[p] < stack[p]:
                return p
        return -1

    def apply_all(self, actions: Iterable[Action]) -> State:
        s = self
        for a in actions:
            s = s.apply(a)
        return s

    def apply_betting(self, betting: str) -> State:
        """Replay an ACPC betting string from this state; round separators are checked."""
        s = self
        for r, actions in enumerate(parse_betting(betting)):
            if r > 0 and s.round < r and not s.finished:
                raise IllegalActionError(f"betting {betting!r}: round {r} starts before round {r - 1} ended")
            for a in actions:
                if s.round != r:
                    raise IllegalActionError(f"betting {betting!r}: action {a} is in round {r} but round {s.round} is running")
                s = s.apply(a)
        return s

    def with_cards(self, hole: Sequence[Sequence[Card]], board: Sequence[Card]) -> State:
        """The same betting with the given cards."""
        s = self._copy()
        s.hole = tuple(tuple(h) for h in hole)
        s.board = tuple(board)
        return s

    def _copy(self) -> State:
        s = State.__new__(State)
        for name in State.__slots__:
            setattr(s, name, getattr(self, name))
        return s

    # ----------------------------------------------------------------- results

    def payoffs(self) -> tuple[float, ...]:
        """Chips won (+) or lost (-) by each position in a finished hand; they sum to zero."""
        if not self.finished:
            raise IllegalActionError("payoffs need a finished hand")
        return split_pots(self.spent, self.folded, self.hand_strengths() if self.is_showdown else ())

    def hand_strengths(self) -> list[int]:
        """Hand value of every position's best hand with the visible board (-1 for folded)."""
        if len(self.hole) != self.game.num_players:
            raise IllegalActionError("a showdown needs every player's hole cards")
        board = self.visible_board()
        return [-1 if self.folded[p] else hand_value(self.hole[p] + board) for p in range(self.game.num_players)]

    def __repr__(self) -> str:
        who = "over" if self.finished else f"p{self._player} to act"
        return f"State({self.betting!r}, round {self.round}, spent {list(self.spent)}, {who})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (self.game, self.hole, self.board, self.history) == (other.game, other.hole, other.board, other.history)

    def __hash__(self) -> int:
        return hash((self.hole, self.board, self.history))


def split_pots(spent: Sequence[int], folded: Sequence[bool], strength: Sequence[int]) -> tuple[float, ...]:
    """Chips won (+) or lost (-) by each position, given what each put in, who folded and (at a
    showdown) each position's hand value; they sum to zero.

    A folded player loses what it put in; the last player standing takes the rest (``strength`` is
    not read then); at a showdown each side pot (by contribution level) is split evenly among its
    best hands.
    """
    n = len(spent)
    if n == 2 and not (folded[0] and folded[1]):  # heads-up, the dealer's every hand: a shortcut
        if folded[0] or folded[1]:  # the folder loses what it put in
            lost = float(spent[0] if folded[0] else spent[1])
            return (0.0 - lost, lost) if folded[0] else (lost, 0.0 - lost)  # 0.0 - x: never -0.0
        first, second = strength
        if first == second:
            return (0.0, 0.0)
        at_stake = float(min(spent))  # the winner takes what both matched, the rest goes back
        return (at_stake, 0.0 - at_stake) if first > second else (0.0 - at_stake, at_stake)
    if folded.count(False) == 1:
        total = sum(spent)
        return tuple(float(total - spent[p]) if not folded[p] else float(-spent[p]) for p in range(n))
    return side_pots(spent, folded, strength)


def side_pots(spent: Sequence[int], folded: Sequence[bool], strength: Sequence[int]) -> tuple[float, ...]:
    """``split_pots`` by the general rule, for any number of players: each contribution level is a
    pot shared by the best hands among those who reached it and did not fold."""
    n = len(spent)
    won = [0.0] * n
    previous = 0
    for level in sorted(set(spent)):
        if level == previous:
            continue
        contributors = [p for p in range(n) if spent[p] >= level]
        pot = (level - previous) * len(contributors)
        contenders = [p for p in contributors if not folded[p]]
        if not contenders:  # only folded players reached this level: it goes back to them
            for p in contributors:
                won[p] += level - previous
        else:
            best = max(strength[p] for p in contenders)
            winners = [p for p in contenders if strength[p] == best]
            for p in winners:
                won[p] += pot / len(winners)
        previous = level
    return tuple(won[p] - spent[p] for p in range(n))


def raise_range(limit_size: int | None, min_raise_to: int, max_spent: int, stack: int) -> tuple[int, int] | None:
    """(min, max) raise-to totals of a player with ``stack`` whom the rules let raise: in a limit game
    (``limit_size``: the round's raise) both are the bet plus it, capped at the stack; in no-limit from
    the minimum raise (or all in, when short) to all in; None when all in already covers the bet."""
    if limit_size is not None:
        to = min(max_spent + limit_size, stack)
        return (to, to)
    lo = min_raise_to
    if lo > stack:
        if max_spent >= stack:
            return None
        lo = stack
    return (lo, stack)


class _Decision(Protocol):
    finished: bool

    def raise_bounds(self) -> tuple[int, int] | None: ...
    def can_fold(self) -> bool: ...


def _chips(size: int) -> str:
    """A raise's size as the seat sent it, a number of hundreds of digits cut short."""
    text = str(size)
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text.lstrip('-'))} digits)"


def repair_action(at: _Decision, action: Action, nolimit: bool) -> tuple[Action, str | None]:
    """The reference dealer's repair of a reply's ``action`` at decision ``at`` (a ``State`` or the
    dealer's ``LiveHand``): invalid -> call; no-limit size clamped into range. Returns the action to
    apply and the warning the reference prints (None if unchanged)."""
    if at.finished:
        raise IllegalActionError("the hand is over: nothing to repair")
    if action.kind is ActionKind.RAISE:
        bounds = at.raise_bounds()
        if bounds is None:
            return CALL, "invalid action, changed to call"
        if nolimit:
            lo, hi = bounds
            if action.size < lo:
                return Action(ActionKind.RAISE, lo), f"raise of {_chips(action.size)} increased to {lo}"
            if action.size > hi:
                return Action(ActionKind.RAISE, hi), f"raise of {_chips(action.size)} decreased to {hi}"
            return action, None
        return RAISE, None
    if action.kind is ActionKind.FOLD and not at.can_fold():
        return CALL, "invalid action, changed to call"
    return (FOLD if action.kind is ActionKind.FOLD else CALL), None

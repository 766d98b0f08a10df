"""Sans-io match engine: what every seat is sent, when, and what each reply becomes.

No sockets, no asyncio, no clock (the h11 model): a driver feeds events in (``connected``,
``receive``, ``disconnected``, ``timeout``, ``abandon``, ...) and gets frozen output records back
(``Send``, ``SeatWarning``, ``Reject``, ``HandFinished``, ``MatchFinished``). ``showdown.server.timing``
adds the time limits on top and ``showdown.server.tcp`` moves the bytes.

Behaviour follows the reference dealer (docs/protocol.md sections 3 and 4; tests/data/edge_cases.txt):

- every seat is sent the state before every action and the final state of every hand; the next
  hand's first state follows at once;
- seat s plays position (s - h) mod N in hand h, or position s with fixed seats;
- only the acting seat's lines are read: lines from other seats wait in their queue until that seat
  is to act (e13), at most ``max_queue`` of them (more are dropped with a warning);
- per line of the acting seat: comments are ignored; an unparsable line is "bad state format in
  response"; a state that is not the current decision point is "ignoring un-requested response"
  (both keep waiting); a missing or malformed action is "bad action format in response, changed to
  call"; an illegal action becomes a call and no-limit sizes are clamped (``State.repair``);
- the first line of every connection must be ``VERSION:<a>.<b>.<c>``; another parsable version
  is reported and tolerated (e12a-c).

Where we do better than the reference, which ends the match on any of these:

- an unparsable VERSION line rejects that connection only (``Reject``; the seat is then treated
  like one that lost its connection and may reconnect);
- a seat that runs out of time has its action played for it (``timeout``): check if possible else
  fold (``on_timeout="fold"``), or call (``"call"``); ``"abort"`` ends the match like the reference
  but still reports the score of the hands played;
- a seat whose connection is lost (``disconnected``) is waited for on its turns until the driver
  gives up on it (``abandon``); a returning seat sends VERSION again and is sent the current state;
  an abandoned seat ("gone") is played check/fold without waiting until the match ends.

Every replacement and ignored line is counted per seat (``counts``) and listed in the hand's
``HandRecord.events``.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping, Sequence
from enum import Enum, StrEnum
from typing import Any, NamedTuple, Protocol, cast

from showdown.errors import ProtocolError, ShowdownError
from showdown.games.cards import Card
from showdown.games.dealing import CardDealer
from showdown.games.gamedef import GameDef
from showdown.games.hand_value import showdown_values
from showdown.games.live_hand import LiveHand
from showdown.games.state import CALL, FOLD, RAISE, Action, State, split_pots
from showdown.protocol.codec import MatchStateEncoder
from showdown.protocol.logfile import DEALER_CHOSE, HandRecord, Score, check_name, format_value, hand_json, state_line_text
from showdown.protocol.matchstate import (
    MAX_LINE,
    PROTOCOL_VERSION,
    is_comment,
    parse_reply,
    parse_version,
    read_action,
    version_compatible,
    view_of,
)

# ------------------------------------------------------------------------------------ outputs


MAX_IGNORED_LINES = 8
"""Lines in a row from the acting seat that answer no state sent before they count as an invalid reply."""

MAX_EVENTS_PER_HAND = 32
"""Events kept in one hand's record; the rest are counted in one last ``more`` event."""

class Send(NamedTuple):
    """Send ``line`` (without its ``\\r\\n``) to ``seat``."""

    seat: int
    line: str


class SeatWarning(NamedTuple):
    """Something a seat did was repaired or ignored; ``text`` is the reference's wording, ``detail``
    what the seat sent and what a reply looks like (for people reading the warning, not the log)."""

    seat: int
    text: str
    detail: str = ""


class Reject(NamedTuple):
    """Send ``line`` (a ``#`` comment, which clients ignore) to ``seat`` and close its connection."""

    seat: int
    line: str


class HandFinished(NamedTuple):
    """A hand ended: what its ``.log`` line and JSON Lines record say, by position.

    The dealer hands over the texts it already has (hole cards, board, values); the record and the
    STATE line are put together when read (once each: a driver keeps them), so that it can send the
    next hand's first lines before it spends time on the logs.
    """

    hand: int
    game: str
    names: tuple[str, ...]
    seats: tuple[int, ...]
    hole: tuple[tuple[Card, ...], ...]
    hole_text: Sequence[str]
    board: tuple[tuple[Card, ...], ...]
    board_text: str
    betting: str
    values: tuple[float, ...]
    values_text: str
    events: tuple[dict[str, Any], ...]

    @property
    def record(self) -> HandRecord:
        return HandRecord(
            self.hand, self.game, self.names, self.seats, self.hole, self.board, self.betting, self.values, self.events
        )

    @property
    def json(self) -> str:
        """The JSON Lines record (``HandRecord.to_json``), without making the record."""
        return hand_json(
            self.hand, self.game, self.names, self.seats, self.hole, self.board, self.betting, self.values, self.events
        )

    @property
    def state_line(self) -> str:
        """The STATE line as ``format_state_line`` writes it (tests check they agree), from the texts."""
        return state_line_text(self.hand, self.betting, self.hole_text, self.board_text, self.values_text, self.names)

    def __repr__(self) -> str:
        return f"HandFinished({self.state_line!r})"


class MatchFinished(NamedTuple):
    """The match is over (all hands played, aborted or stopped); ``score`` covers the hands played."""

    score: Score
    hands_played: int
    aborted: bool
    reason: str | None


Output = Send | SeatWarning | Reject | HandFinished | MatchFinished

# ------------------------------------------------------------------------------------ betting tree


class BettingNode:
    """One betting sequence of a limit game, without cards: who acts, and where each action leads.

    Who acts, what is legal and how a reply is repaired depend on the betting alone, so the engine
    walks a tree of these nodes, grown on demand and shared by all hands, instead of building a
    ``State`` per action: once a small game's tree is known, an action costs two dict lookups.
    ``replies`` memoises what a reply's action text becomes here: (action played, count kind,
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
        self.replies: dict[str, tuple[Action, str, str | None]] = {}

    def can_fold(self) -> bool:
        return self.state.can_fold()

    def repair(self, action: Action) -> tuple[Action, str | None]:
        return self.state.repair(action)

    def as_state(self, hole: tuple[tuple[Card, ...], ...], board: tuple[Card, ...]) -> State:
        return self.state.with_cards(hole, board)


class _Betting(Protocol):
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


MAX_TREE_NODES = 200_000  # a limit game's tree is finite but may be large: past this many nodes it starts afresh
MAX_REPLIES_PER_NODE = 32  # distinct reply texts remembered per node (garbage is not worth keeping)


# ------------------------------------------------------------------------------------ seats


class SeatStatus(Enum):
    WAITING = "waiting"  # never connected yet
    CONNECTING = "connecting"  # connected, VERSION line not yet received
    ACTIVE = "active"  # playing
    AWAY = "away"  # connection lost or rejected: may come back, its turns are waited for
    GONE = "gone"  # given up on: played check/fold without waiting until the match ends


class OnTimeout(StrEnum):
    """What the dealer plays for a seat that is late or gone: check or fold, call, or end the match
    (the reference's behaviour)."""

    FOLD = "fold"
    CALL = "call"
    ABORT = "abort"


ON_TIMEOUT = tuple(OnTimeout)

# Per-seat counters, all present in every summary. The first five are actions the dealer changed
# or played for the seat; the rest count lines and connections.
COUNT_KINDS = (
    "timeout",  # action played because the seat ran out of time
    "disconnect",  # action played because the seat was not connected
    "invalid",  # illegal action (or unknown letter) changed to call
    "bad_action",  # missing or malformed action changed to call
    "resized",  # no-limit raise size clamped into the legal range
    "ignored",  # line ignored: unparsable, or not the current decision point
    "dropped",  # line dropped because the seat's queue was full
    "connection_lost",  # the seat's connection dropped (or was closed by us)
    "rejected",  # connection refused: bad VERSION line
)

BAD_STATE = "bad state format in response"
UNREQUESTED = "ignoring un-requested response"
BAD_ACTION = "bad action format in response, changed to call"
INVALID_ACTION = "invalid action, changed to call"
VERSION_WARNING = "this server is currently using version {}.{}.{}".format(*PROTOCOL_VERSION)


class MatchEngine:
    """One match between ``len(names)`` seats: decides every line sent and every action applied.

    Inputs return the list of outputs they cause, in order. The driver must call ``advance`` while
    ``needs_advance`` is true (a gone seat is to act): each call plays at most to the end of one
    hand, so a match of absent players never produces an unbounded burst.
    """

    def __init__(
        self,
        game: GameDef,
        names: Sequence[str],
        hands: int,
        seed: int,
        *,
        fixed_seats: bool = False,
        on_timeout: str = "fold",
        game_label: str | None = None,
        max_queue: int = 1000,
        max_warnings: int = 20,
    ) -> None:
        _check_match(game, names, hands, on_timeout)
        self.game = game
        self.names = tuple(names)
        self.hands = hands
        self.seed = seed
        self.fixed_seats = fixed_seats
        self.on_timeout = on_timeout
        self.game_label = game_label or game.name
        self.max_queue = max_queue
        self.max_warnings = max_warnings
        n = game.num_players
        self._n = n
        self._dealer = CardDealer(game, seed)
        self._status = [SeatStatus.WAITING] * n
        self.status_changes = 0  # bumped on every status change, so drivers can cache
        self._queues: list[deque[str]] = [deque() for _ in range(n)]
        self._overflowing = [False] * n
        self._last_sent: list[str | None] = [None] * n
        self.totals = [0.0] * n
        self.counts: list[dict[str, int]] = [dict.fromkeys(COUNT_KINDS, 0) for _ in range(n)]
        self.started = False
        self.finished = False
        self.aborted = False
        self.reason: str | None = None
        self.hand = -1
        self.hands_played = 0
        self.decision_count = 0
        self._stop_requested = False
        self._seating = _seatings(self.names)
        self._seat_of_position, self._position_of_seat, self._names_by_position = self._seating[0]
        self._next_deal: tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]] | None = None
        self._acting: int | None = None  # seat to act, cached: read on every line
        self._root = BettingNode(State.initial(game), "")
        self._tree_size = 1
        self._live = LiveHand(game) if game.is_nolimit else None  # no-limit: the hand played in place
        self._node: _Betting | None = None  # where the current hand's betting is
        self._strengths: list[int] | None = None  # the hand's showdown values, when worked out ahead
        self._next_strengths: list[int] | None = None
        self._next_steps = 0  # how much of the next deal ``prepare`` has done: dealt, texts, values
        self._values_text: dict[tuple[float, ...], str] = {}  # chip results -> their log text
        self._hole: tuple[tuple[Card, ...], ...] = ()  # the current hand's cards
        self._board: tuple[Card, ...] = ()
        self._payoff_cache: dict[Any, tuple[tuple[float, ...], str]] = {}
        # small games (Kuhn, Leduc) deal the same cards again and again: their payoffs are memoised by
        # deal and betting; in larger ones the showdown values are worked out ahead instead
        dealt = game.num_players * game.num_hole_cards + sum(game.num_board_cards)
        self._deals_repeat = math.perm(game.num_ranks * game.num_suits, dealt) <= CACHE_SIZE
        self._codec = MatchStateEncoder(game, self._deals_repeat)  # the hand's MATCHSTATE texts, by position
        self._quick = {"f": FOLD, "c": CALL}
        if game.is_limit:
            self._quick["r"] = RAISE
        self._events: list[dict[str, Any]] = []
        self._ignored_now = 0  # lines of the acting seat that answered no state, in this decision
        self._warnings_this_hand = [0] * n
        self._chosen_this_hand = [False] * n  # the dealer chose an action for the seat in this hand
        self._out: list[Output] = []

    # ----------------------------------------------------------------- queries

    def status(self, seat: int) -> SeatStatus:
        return self._status[seat]

    @property
    def state(self) -> State | None:
        """The current (or last) hand with its cards; None before the first hand."""
        node = self._node
        return None if node is None else node.as_state(self._hole, self._board)

    @property
    def acting_seat(self) -> int | None:
        """The seat whose decision the match is at (None before the start and after the end)."""
        return None if self.finished else self._acting

    @property
    def waiting_for(self) -> int | None:
        """The acting seat when the match waits on it (not when it is gone and is played for)."""
        seat = self.acting_seat
        if seat is None or self._status[seat] is SeatStatus.GONE:
            return None
        return seat

    @property
    def needs_advance(self) -> bool:
        seat = self.acting_seat
        return seat is not None and self._status[seat] is SeatStatus.GONE

    def can_connect(self, seat: int) -> bool:
        """Whether a new connection for ``seat`` is welcome (it has none and is not gone)."""
        return not self.finished and self._status[seat] in (SeatStatus.WAITING, SeatStatus.AWAY)

    def position_of(self, seat: int) -> int:
        return self._position_of_seat[seat]

    def score(self) -> Score:
        return Score(tuple(self.totals), self.names)

    def current_line(self, seat: int) -> str:
        """The MATCHSTATE line ``seat`` would be sent now for the current state."""
        p = self._position_of_seat[seat]
        assert self._node is not None
        return self._codec.line(p, self._node.betting)

    # ----------------------------------------------------------------- inputs

    def connected(self, seat: int) -> list[Output]:
        """A connection for ``seat`` was accepted; its first line must be VERSION."""
        if self.can_connect(seat):
            self._set_status(seat, SeatStatus.CONNECTING)
        return []

    def receive(self, seat: int, line: str) -> list[Output]:
        """A line (without its line end) arrived from ``seat``."""
        out = self._reset()
        status = self._status[seat]
        if self.finished:
            return out
        if status is SeatStatus.CONNECTING:
            self._check_version(seat, line)
        elif status is SeatStatus.ACTIVE:
            queue = self._queues[seat]
            if seat == self._acting and not queue:  # the usual case: the awaited answer
                self._handle_line(seat, line)
                if not self.finished:
                    self._pump()
            elif len(queue) >= self.max_queue:
                self._drop(seat, line)
            else:
                queue.append(line)
                if seat == self._acting and not self.finished:
                    self._pump()
        return out

    def disconnected(self, seat: int) -> list[Output]:
        """The seat's connection is gone; its turns are waited for until ``abandon``."""
        out = self._reset()
        if self.finished:
            return out
        status = self._status[seat]
        if status is SeatStatus.ACTIVE:
            self._count(seat, "connection_lost")
            self._event(seat, "connection_lost", "connection lost")
        if status in (SeatStatus.ACTIVE, SeatStatus.CONNECTING):
            self._set_status(seat, SeatStatus.AWAY)
        return out

    def abandon(self, seat: int) -> list[Output]:
        """Give up on ``seat`` (it did not connect or come back in time): check/fold from now on.

        With ``on_timeout="abort"`` this ends the match, as the reference does on a disconnect.
        """
        out = self._reset()
        status = self._status[seat]
        if self.finished or status in (SeatStatus.GONE, SeatStatus.ACTIVE):
            return out
        if status is SeatStatus.CONNECTING:
            out.append(Reject(seat, "# ERROR: no VERSION line in time; you are out of this match"))
        self._set_status(seat, SeatStatus.GONE)
        self._queues[seat].clear()
        if self.started:
            self._event(seat, "gone", "seat given up on: played check/fold until the match ends")
            if self.on_timeout == "abort":
                self._finish(aborted=True, reason=f"seat {seat + 1} ({self.names[seat]}) disconnected")
                return out
            self._pump()
        elif all(s in (SeatStatus.ACTIVE, SeatStatus.GONE) for s in self._status):
            self._start()
        return out

    def timeout(self, seat: int) -> list[Output]:
        """``seat`` ran out of time on the current decision: play its replacement action."""
        out = self._reset()
        if seat != self.waiting_for:
            return out
        kind = "timeout" if self._status[seat] is SeatStatus.ACTIVE else "disconnect"
        if self.on_timeout == "abort":
            self._count(seat, kind)
            self._finish(aborted=True, reason=f"seat {seat + 1} ({self.names[seat]}) ran out of time")
            return out
        self._replace(seat, kind)
        self._pump()
        return out

    def start(self) -> list[Output]:
        """Start now: seats not yet playing are given up on (the start timeout has passed)."""
        out = self._reset()
        if self.started or self.finished:
            return out
        for seat, status in enumerate(self._status):
            if status is not SeatStatus.ACTIVE:
                if status is SeatStatus.CONNECTING:
                    out.append(Reject(seat, "# ERROR: no VERSION line in time; you are out of this match"))
                self._set_status(seat, SeatStatus.GONE)
        self._start()
        return out

    def advance(self) -> list[Output]:
        """Play for gone seats until a connected seat is to act or one hand has ended."""
        out = self._reset()
        self._pump()
        return out

    def request_stop(self) -> list[Output]:
        """Stop after the current hand (Ctrl-C); before the start, stop at once."""
        out = self._reset()
        self._stop_requested = True
        if not self.started and not self.finished:
            self._finish(aborted=True, reason="stopped before the start")
        return out

    def stop_now(self) -> list[Output]:
        """Stop at once; the unfinished hand is not counted."""
        out = self._reset()
        if not self.finished:
            self._finish(aborted=True, reason="stopped")
        return out

    def prepare(self) -> None:
        """Work ahead while a seat thinks, one step per call: deal the next hand, make its card texts,
        and, in a game whose deals seldom repeat, its showdown values; so the hand's end costs less,
        and no call holds up a reply that has come in for long (a driver calls it after each line).

        The cards are the same as when dealt later (the generator is only ever read in order);
        a hand dealt but never played is simply dropped; what is not done ahead is done at the deal.
        """
        if not self.started or self.finished or self.hand + 1 >= self.hands:
            return
        deal = self._next_deal
        if deal is None:
            self._next_deal = self._dealer.deal()
            self._next_steps = 1
        elif self._next_steps == 1:
            self._codec.prepare(*deal)
            self._next_steps = 2
        elif self._next_steps == 2 and not self._deals_repeat:
            self._next_strengths = showdown_values(*deal)
            self._next_steps = 3

    def _reset(self) -> list[Output]:
        out: list[Output] = []
        self._out = out
        return out

    # ----------------------------------------------------------------- version and queues

    def _check_version(self, seat: int, line: str) -> None:
        try:
            version = parse_version(line)
        except ProtocolError as exc:
            self._count(seat, "rejected")
            self._out.append(SeatWarning(seat, str(exc)))
            self._out.append(Reject(seat, f"# ERROR: {exc}"))
            self._set_status(seat, SeatStatus.AWAY)
            if self.started:
                self._event(seat, "rejected", str(exc))
            return
        if not version_compatible(version):
            self._out.append(SeatWarning(seat, VERSION_WARNING))
        self._set_status(seat, SeatStatus.ACTIVE)
        if not self.started:
            if all(s in (SeatStatus.ACTIVE, SeatStatus.GONE) for s in self._status):
                self._start()
            return
        # A returning seat resumes from the current state.
        self._event(seat, "reconnected", "seat reconnected")
        line_now = self.current_line(seat)
        self._last_sent[seat] = line_now
        self._out.append(Send(seat, line_now))
        if seat == self._acting:
            self._pump()

    def _drop(self, seat: int, line: str) -> None:
        if self._overflowing[seat]:
            self._count(seat, "dropped")
        else:  # one warning per overflow
            self._overflowing[seat] = True
            self._warn(seat, "dropped", f"more than {self.max_queue} lines queued, dropping lines", line)

    # ----------------------------------------------------------------- the match loop

    def _pump(self) -> None:
        """Read the acting seat's queued lines and play for gone seats, until the match must wait.

        Stops after one hand has ended while playing for gone seats (see ``advance``).
        """
        hands_at_entry = self.hands_played
        while not self.finished:
            seat = self._acting
            assert seat is not None
            status = self._status[seat]
            if status is SeatStatus.GONE:
                if self.hands_played > hands_at_entry:
                    return
                self._replace(seat, "disconnect")
                continue
            queue = self._queues[seat]
            if not queue or status is not SeatStatus.ACTIVE:
                return
            line = queue.popleft()
            if self._overflowing[seat] and len(queue) < self.max_queue // 2:
                self._overflowing[seat] = False
            self._handle_line(seat, line)

    def _handle_line(self, seat: int, line: str) -> None:
        """One line from the acting seat, following the reference's rules."""
        expected = self._last_sent[seat]
        if expected is not None and line.startswith(expected):
            rest = line[len(expected) :]
            if rest[:1] == ":":
                self._take_action(seat, rest[1:])
                return
            if not rest:
                self._bad_action(seat, line)
                return
        if is_comment(line):
            return
        try:
            reply = parse_reply(line, self.game)
        except ProtocolError:
            self._ignore(seat, BAD_STATE, line)
            return
        assert self.state is not None
        if not reply.state.same_decision_point(view_of(self.state, self._position_of_seat[seat], self.hand)):
            self._ignore(seat, UNREQUESTED, line)
            return
        if reply.action_text is None:
            self._bad_action(seat, line)
        else:
            self._take_action(seat, reply.action_text)

    def _ignore(self, seat: int, why: str, line: str) -> None:
        """A line from the acting seat that is no reply to its current state. A few are passed over
        (a stale line from a reconnect); ``MAX_IGNORED_LINES`` of them in one decision count as an
        invalid answer, so a seat sending only garbage costs the match no more than that."""
        expected = self._last_sent[seat]
        example = f"{expected}:c" if expected is not None else "MATCHSTATE:...:c"
        self._warn(seat, "ignored", why, line, f"it sent {line[:80]!r}; a reply is the state line it was sent, "
                   f"':' and its action (f, c, r or rSIZE), like {example!r}; still waiting for it")
        self._ignored_now += 1
        if self._ignored_now >= MAX_IGNORED_LINES:
            self._warn(seat, "invalid", f"{MAX_IGNORED_LINES} lines in a row that answer no state sent; played call", line)
            self._apply(CALL)

    def _bad_action(self, seat: int, line: str) -> None:
        self._warn(seat, "bad_action", BAD_ACTION, line)
        self._apply(CALL)

    def _take_action(self, seat: int, text: str) -> None:
        node = self._node
        assert node is not None
        if self._live is not None:
            outcome = self._reply_outcome(node, text)
        else:
            replies = cast(BettingNode, node).replies
            outcome = replies.get(text)  # type: ignore[assignment]
            if outcome is None:
                outcome = self._reply_outcome(node, text)
                if len(replies) < MAX_REPLIES_PER_NODE and len(text) <= 16:
                    replies[text] = outcome
        played, kind, warning = outcome
        if warning is not None:
            self._warn(seat, kind, warning, text)
        self._apply(played)

    def _reply_outcome(self, state: _Betting, text: str) -> tuple[Action, str, str | None]:
        """What the action text of a reply becomes at ``state``: the reference's repairs."""
        quick = self._quick.get(text)
        if quick is CALL:  # always legal
            return CALL, "invalid", None
        if quick is not None:  # a plain f (or r in limit): no parsing needed
            played, warning = state.repair(quick)
            return played, "invalid", warning
        try:
            action = read_action(text, self.game)
        except ProtocolError:
            return CALL, "bad_action", BAD_ACTION
        if action is None:
            return CALL, "invalid", INVALID_ACTION
        played, warning = state.repair(action)
        return played, "invalid" if played.kind is not action.kind else "resized", warning

    def _replace(self, seat: int, kind: str) -> None:
        """Play the stand-in action for a seat that timed out or is not connected."""
        node = self._node
        assert node is not None
        if kind == "disconnect" or self.on_timeout == "fold":
            action = FOLD if node.can_fold() else CALL
        else:
            action = CALL
        self._count(seat, kind)
        self._event(seat, kind, f"{kind}: played {action}", played=str(action), at=node.betting, chosen=True)
        if kind == "timeout":
            self._out.append(SeatWarning(seat, f"ran out of time; played {action}"))
        self._apply(action)

    def _apply(self, action: Action) -> None:
        """Play ``action`` (legal: repaired already) for the position to act."""
        child: _Betting
        live = self._live
        if live is not None:
            live.apply(action)
            child = live
        else:
            node = cast(BettingNode, self._node)
            key = str(action) if action.size else "fcr"[action.kind]
            tree_child = node.children.get(key)
            if tree_child is None:
                tree_child = self._grow(node, key, action)
            self._node = child = tree_child
        self._ignored_now = 0
        self.decision_count += 1
        if child.finished:
            self._acting = None
            self._codec.reveal(child.round, child.folded)
            self._broadcast()
            self._end_hand()
        else:
            self._acting = self._seat_of_position[child.player]
            if child.round != self._codec.round:
                self._codec.set_round(child.round)
            self._broadcast()

    def _grow(self, node: BettingNode, key: str, action: Action) -> BettingNode:
        """The node after ``action`` at ``node``, new to the tree."""
        state = node.state.apply_legal(action)
        # The betting string grows by the action, plus a '/' per round started (or run out).
        child = BettingNode(state, node.betting + key + "/" * (len(state.history) - len(node.state.history)))
        self._tree_size += 1
        if self._tree_size > MAX_TREE_NODES:  # the current hand keeps its own path
            self._root = BettingNode(self._root.state, "")
            self._tree_size = 1
        else:
            node.children[key] = child
        return child

    # ----------------------------------------------------------------- hands

    def resume(self, hands_done: int, totals: Sequence[float], counts: Mapping[int, Mapping[str, int]] = {}) -> None:
        """Before the start: continue a match whose first ``hands_done`` hands are already played and
        logged (crash resume). The next hand dealt is hand ``hands_done``, with the cards and seating
        it would have had; ``totals`` (by seat) and the replacement ``counts`` carry on from the logs."""
        if self.started:
            raise ShowdownError("a match can only be resumed before it starts")
        if not 0 <= hands_done <= self.hands:
            raise ShowdownError(f"cannot resume at hand {hands_done} of a {self.hands}-hand match")
        self._dealer.skip(hands_done)
        self.hand = hands_done - 1
        self.hands_played = hands_done
        self.totals = [float(t) for t in totals]
        for seat, by_kind in counts.items():
            for kind, n in by_kind.items():
                if kind in self.counts[seat]:
                    self.counts[seat][kind] += n

    def _start(self) -> None:
        self.started = True
        if self.hands == 0 or self.hands_played >= self.hands:
            self._finish(aborted=False, reason=None)
            return
        self._start_hand()
        self._pump()

    def _start_hand(self) -> None:
        self.hand += 1
        h = self.hand
        n = self._n
        shift = 0 if self.fixed_seats else h % n
        self._seat_of_position, self._position_of_seat, self._names_by_position = self._seating[shift]
        self._events = []
        self._warnings_this_hand = [0] * n
        self._chosen_this_hand = [False] * n
        if self._next_deal is not None:
            hole, board = self._next_deal
            self._next_deal = None
        else:
            hole, board = self._dealer.deal()
        self._hole = hole
        self._board = board
        self._codec.new_hand(self.hand, hole, board)
        self._strengths, self._next_strengths = self._next_strengths, None
        live = self._live
        node: _Betting
        if live is not None:
            live.reset()
            node = live
        else:
            node = self._root
        self._node = node
        self._acting = self._seat_of_position[node.player]
        self.decision_count += 1
        self._broadcast()

    def _broadcast(self) -> None:
        """The current state to every connected seat (the reference sends it to all, every time)."""
        assert self._node is not None
        betting = ":" + self._node.betting + ":"
        prefix = self._codec.heads
        cards = self._codec.cards
        pos = self._position_of_seat
        out = self._out
        last = self._last_sent
        active = SeatStatus.ACTIVE
        for seat, status in enumerate(self._status):
            if status is active:
                p = pos[seat]
                line = prefix[p] + betting + cards[p]
                last[seat] = line
                out.append(Send(seat, line))
            else:
                last[seat] = None

    def _end_hand(self) -> None:
        """Score the hand, report its log line and record, and deal the next one (or finish)."""
        node = self._node
        assert node is not None
        h = self.hand
        by_position = self._seat_of_position
        betting = node.betting
        key = (self._hole, self._board, betting) if self._deals_repeat else None
        payoff = self._payoff_cache.get(key) if key is not None else None
        if payoff is None:
            strengths: Sequence[int] = ()
            if node.is_showdown:
                strengths = self._strengths or showdown_values(self._hole, self._board)
            values = split_pots(node.spent, node.folded, strengths)
            text = self._values_text.get(values)  # the same few results come again and again
            if text is None:
                text = "|".join([format_value(v) for v in values])
                _remember(self._values_text, values, text)
            payoff = (values, text)
            if key is not None:
                _remember(self._payoff_cache, key, payoff)
        values, values_text = payoff
        codec = self._codec
        totals = self.totals
        for p, v in enumerate(values):
            totals[by_position[p]] += v
        self.hands_played += 1
        self._out.append(
            HandFinished(  # by position, in field order (cheaper than keywords, once a hand)
                h, self.game_label, self._names_by_position, tuple(by_position), self._hole, codec.hole_text,
                codec.board_groups[node.round], codec.board_text[node.round], betting, values, values_text,
                tuple(self._events),
            )
        )
        if self.hands_played >= self.hands:
            self._finish(aborted=False, reason=None)
        elif self._stop_requested:
            self._finish(aborted=True, reason="stopped")
        else:
            self._start_hand()

    def _finish(self, aborted: bool, reason: str | None) -> None:
        self.finished = True
        self.aborted = aborted
        self.reason = reason
        self._out.append(MatchFinished(self.score(), self.hands_played, aborted, reason))

    # ----------------------------------------------------------------- bookkeeping

    def _set_status(self, seat: int, status: SeatStatus) -> None:
        if self._status[seat] is not status:
            self._status[seat] = status
            self.status_changes += 1

    def _count(self, seat: int, kind: str) -> None:
        self.counts[seat][kind] += 1

    def _event(self, seat: int, kind: str, message: str, chosen: bool = False, **extra: Any) -> None:
        """Record what happened in this hand; past ``MAX_EVENTS_PER_HAND`` only a count is kept (a
        client looping on bad lines must not grow a hand's record without bound), in a last ``more``
        event. The first event of each seat whose action the dealer ``chosen`` is always kept, before
        that count: readers count such hands from the record (at most one more event per seat)."""
        events = self._events
        first_chosen = chosen and not self._chosen_this_hand[seat]
        if len(events) >= MAX_EVENTS_PER_HAND and not first_chosen:
            last = events[-1]
            if last.get("kind") != "more":
                last = {"kind": "more", "seat": -1, "name": "", "message": "more events in this hand", "count": 0}
                events.append(last)
            last["count"] += 1
            return
        event: dict[str, Any] = {"kind": kind, "seat": seat, "name": self.names[seat], "message": message, **extra}
        if first_chosen:
            self._chosen_this_hand[seat] = True
            more = bool(events) and events[-1].get("kind") == "more"
            events.insert(len(events) - more, event)  # before the count of those left out
            return
        events.append(event)

    def _warn(self, seat: int, kind: str, text: str, line: str, detail: str = "") -> None:
        """Count, record (the first ``max_warnings`` per seat and hand) and report a repair."""
        self._count(seat, kind)
        shown = self._warnings_this_hand[seat]
        self._warnings_this_hand[seat] = shown + 1
        chosen = kind in DEALER_CHOSE and not self._chosen_this_hand[seat]
        if shown < self.max_warnings or chosen:
            self._event(seat, kind, text, chosen=kind in DEALER_CHOSE, line=line[:120])
            self._out.append(SeatWarning(seat, text, detail))
        elif shown == self.max_warnings:
            self._out.append(SeatWarning(seat, "more warnings for this seat in this hand are not shown"))


def _check_match(game: GameDef, names: Sequence[str], hands: int, on_timeout: str) -> None:
    """A match the engine can serve, or ``ShowdownError`` saying why not."""
    game.require_servable()
    if len(names) != game.num_players:
        raise ShowdownError(f"game {game.name or '?'} needs {game.num_players} players, got {len(names)} names")
    for name in names:
        check_name(name)
    if len(set(names)) != len(names):
        raise ShowdownError(
            f"player names must all differ (logs tell the seats apart by name): {' '.join(names)}; "
            f"add a suffix, like random-1 random-2"
        )
    if hands < 0:
        raise ShowdownError(f"number of hands must be at least 0, got {hands}")
    if on_timeout not in ON_TIMEOUT:
        raise ShowdownError(f"on_timeout must be one of {', '.join(ON_TIMEOUT)}, got {on_timeout!r}")


def _seatings(names: Sequence[str]) -> list[tuple[list[int], list[int], tuple[str, ...]]]:
    """Per rotation (hand number mod seats): the seat at each position, the position of each seat,
    and the names by position."""
    n = len(names)
    return [
        (
            [(p + shift) % n for p in range(n)],
            [(s - shift) % n for s in range(n)],
            tuple(names[(p + shift) % n] for p in range(n)),
        )
        for shift in range(n)
    ]


CACHE_SIZE = 4096


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    """Bounded memo: starts afresh when full (hits only matter for small games, which fit)."""
    if len(cache) >= CACHE_SIZE:
        cache.clear()
    cache[key] = value


# ------------------------------------------------------------------------------------ framing


class LineSplitter:
    """Bytes from a socket -> lines, read the way the reference's ``fgets`` reads them.

    A line is cut after ``limit`` bytes (4095); the rest of a longer line becomes the next line(s),
    exactly as the reference treats it (edge case e14). Line ends (``\\n``, optional ``\\r``) are
    removed; bytes are decoded as Latin-1, which never fails and keeps every byte.
    """

    __slots__ = ("limit", "_buf")

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self._buf = b""

    @property
    def pending(self) -> int:
        """Bytes held back waiting for a line end."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[str]:
        last = len(data) - 1
        if last >= 0 and not self._buf and data.find(b"\n") == last and last < self.limit:
            # the usual case, one whole line: no loop (the same cut as below)
            return [data[: -2 if data[-2:-1] == b"\r" else -1].decode("latin-1")]
        buf = self._buf + data if self._buf else data
        limit = self.limit
        lines: list[str] = []
        start = 0
        size = len(buf)
        while start < size:
            nl = buf.find(b"\n", start, start + limit)
            if nl >= 0:
                end = nl - 1 if nl > start and buf[nl - 1] == 13 else nl
                lines.append(buf[start:end].decode("latin-1"))
                start = nl + 1
            elif size - start >= limit:
                lines.append(buf[start : start + limit].decode("latin-1"))
                start += limit
            else:
                break
        self._buf = buf[start:]
        return lines

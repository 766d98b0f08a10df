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
  like one that lost its connection and may reconnect; over TCP, ``server.admission`` refuses such
  a line at the port, before the seat is taken);
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

from collections import deque
from collections.abc import Mapping, Sequence

from showdown.errors import ProtocolError, ShowdownError
from showdown.games.cards import Card
from showdown.games.dealing import CardDealer
from showdown.games.gamedef import GameDef
from showdown.games.hand_value import showdown_values
from showdown.games.live_hand import LiveHand
from showdown.games.state import CALL, FOLD, Action, State
from showdown.protocol.codec import MatchStateEncoder
from showdown.protocol.events import EventKind
from showdown.protocol.logfile import Score
from showdown.protocol.matchstate import PROTOCOL_VERSION, is_comment, parse_reply, parse_version, quoted, version_compatible, view_of
from showdown.server.betting_tree import Betting, BettingNode, BettingTree
from showdown.server.outputs import HandFinished, MatchFinished, Output, Reject, SeatWarning, Send
from showdown.server.payoffs import HandPayoffs
from showdown.server.replies import BAD_ACTION, BAD_STATE, INVALID_ACTION, MORE_CARDS, UNREQUESTED, ReplyRepairs, no_colon, unknown_action
from showdown.server.seat_book import SeatBook
from showdown.server.seating import ON_TIMEOUT, OnTimeout, SeatStatus, check_match, seatings

__all__ = ["BAD_ACTION", "BAD_STATE", "INVALID_ACTION", "MAX_IGNORED_LINES", "ON_TIMEOUT", "UNREQUESTED",
           "VERSION_WARNING", "MatchEngine", "OnTimeout", "SeatStatus"]  # fmt: skip

MAX_IGNORED_LINES = 32
"""Lines in a row from the acting seat that are no reply at all (not a state line) before they count as an
invalid reply; a bot's few debug lines before each answer, and its answers to states sent before (a bot
that answers every state, as the reference allows), which end the row, are passed over without counting."""

LOST_WARNING = "its connection closed; until it connects again, the dealer plays check/fold for it"
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
        check_match(game, names, hands, on_timeout)
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
        self.any_gone = False  # a seat was given up on (for good): until then no seat needs ``advance``
        self._queues: list[deque[str]] = [deque() for _ in range(n)]
        self._overflowing = [False] * n
        self._last_sent: list[str | None] = [None] * n
        self.totals = [0.0] * n
        self._book = SeatBook(self.names, max_warnings)
        self.counts = self._book.counts  # by seat: what the dealer replaced, repaired or ignored
        self.started = False
        self.finished = False
        self.aborted = False
        self.reason: str | None = None
        self.hand = -1
        self.hands_played = 0
        self.decision_count = 0
        self._stop_requested = False
        self._seating = seatings(self.names)
        self._seat_of_position, self._position_of_seat, self._names_by_position = self._seating[0]
        self._next_deal: tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]] | None = None
        self.acting_seat: int | None = None  # whose decision the match is at (None before the start and after the end)
        self._tree = BettingTree(State.initial(game))  # limit games: the betting nodes met so far
        self._live = LiveHand(game) if game.is_nolimit else None  # no-limit: the hand played in place
        self._node: Betting | None = None  # where the current hand's betting is
        self._strengths: list[int] | None = None  # the hand's showdown values, when worked out ahead
        self._next_strengths: list[int] | None = None
        self._next_steps = 0  # how much of the next deal ``prepare`` has done: dealt, texts, values
        self.work_ahead = True  # ``prepare`` may have a step left (False: a call would do nothing)
        self._hole: tuple[tuple[Card, ...], ...] = ()  # the current hand's cards
        self._board: tuple[Card, ...] = ()
        self._payoffs = HandPayoffs(game)
        self._deals_repeat = self._payoffs.deals_repeat  # then payoffs are memoised, else values worked out ahead
        self._codec = MatchStateEncoder(game, self._deals_repeat)  # the hand's MATCHSTATE texts, by position
        repairs = ReplyRepairs(game)  # limit: remembered per betting node; no-limit: worked out each time
        self._reply_outcome = repairs.outcome if game.is_limit else repairs.repair
        self._tree_walk = game.is_limit  # limit: replies remembered per betting node
        self._ignored_now = 0  # lines of the acting seat that answered no state, in this decision
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
    def waiting_for(self) -> int | None:
        """The acting seat when the match waits on it (not when it is gone and is played for)."""
        seat = self.acting_seat
        if seat is None or (self.any_gone and self._status[seat] is SeatStatus.GONE):
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
        out: list[Output] = []
        self._out = out  # (``_reset``, inline: this runs once per action)
        status = self._status[seat]
        if self.finished:
            return out
        if status is SeatStatus.CONNECTING:
            self._check_version(seat, line)
        elif status is SeatStatus.ACTIVE:
            queue = self._queues[seat]
            if seat == self.acting_seat and not queue:  # the usual case: the awaited answer
                self._handle_line(seat, line)
                acting = self.acting_seat  # the next seat to act: anything for it to read or play?
                if acting is not None and (self._queues[acting] or self._status[acting] is not SeatStatus.ACTIVE):
                    self._pump()
            elif len(queue) >= self.max_queue:
                self._drop(seat, line)
            else:
                queue.append(line)
                if seat == self.acting_seat and not self.finished:
                    self._pump()
        return out

    def disconnected(self, seat: int) -> list[Output]:
        """The seat's connection is gone; its turns are waited for until ``abandon``."""
        out = self._reset()
        if self.finished:
            return out
        status = self._status[seat]
        if status is SeatStatus.ACTIVE:
            self._book.count(seat, EventKind.CONNECTION_LOST)
            self._book.record(seat, EventKind.CONNECTION_LOST, "connection lost")
            out.append(SeatWarning(seat, LOST_WARNING, kind=EventKind.CONNECTION_LOST))  # said now: the time limit or the end would say it late, as something else
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
            self._book.record(seat, EventKind.GONE, "seat given up on: played check/fold until the match ends")
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
        kind = EventKind.TIMEOUT if self._status[seat] is SeatStatus.ACTIVE else EventKind.DISCONNECT
        if self.on_timeout == "abort":
            self._book.count(seat, kind)
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
        """Work ahead while a seat thinks, one step per call (a driver calls it after each line while
        ``work_ahead``): deal the next hand, make its card texts, and, in a game whose deals seldom
        repeat, its showdown values; the cards are the same as when dealt later (the generator is read
        in order); a hand dealt but never played is dropped; what is not done ahead is done at the deal."""
        if not self.started or self.finished or self.hand + 1 >= self.hands:
            return
        deal = self._next_deal
        if deal is None:
            self._next_deal = self._dealer.deal()
            self._next_steps = 1
        elif self._next_steps == 1:
            self._codec.prepare(*deal)
            self._next_steps = 2
            self.work_ahead = not self._deals_repeat
        elif self._next_steps == 2 and not self._deals_repeat:
            self._next_strengths = showdown_values(*deal)
            self._next_steps = 3
            self.work_ahead = False

    def _reset(self) -> list[Output]:
        out: list[Output] = []
        self._out = out
        return out

    # ----------------------------------------------------------------- version and queues

    def _check_version(self, seat: int, line: str) -> None:
        try:
            version = parse_version(line)
        except ProtocolError as exc:
            self._book.count(seat, EventKind.REJECTED)
            self._out.append(SeatWarning(seat, str(exc)))
            self._out.append(Reject(seat, f"# ERROR: {exc}"))
            self._set_status(seat, SeatStatus.AWAY)
            if self.started:
                self._book.record(seat, EventKind.REJECTED, str(exc))
            return
        if not version_compatible(version):
            self._out.append(SeatWarning(seat, VERSION_WARNING))
        self._set_status(seat, SeatStatus.ACTIVE)
        if not self.started:
            if all(s in (SeatStatus.ACTIVE, SeatStatus.GONE) for s in self._status):
                self._start()
            return
        # A returning seat resumes from the current state.
        self._book.record(seat, EventKind.RECONNECTED, "seat reconnected")
        line_now = self.current_line(seat)
        self._last_sent[seat] = line_now
        self._out.append(Send(seat, line_now))
        if seat == self.acting_seat:
            self._pump()

    def _drop(self, seat: int, line: str) -> None:
        if self._overflowing[seat]:
            self._book.count(seat, EventKind.DROPPED)
        else:  # one warning per overflow
            self._overflowing[seat] = True
            self._book.warn(self._out, seat, EventKind.DROPPED, f"more than {self.max_queue} lines queued, dropping lines", line)

    # ----------------------------------------------------------------- the match loop

    def _pump(self) -> None:
        """Read the acting seat's queued lines and play for gone seats, until the match must wait.

        Stops after one hand has ended while playing for gone seats (see ``advance``).
        """
        hands_at_entry = self.hands_played
        while not self.finished:
            seat = self.acting_seat
            assert seat is not None
            status = self._status[seat]
            if status is SeatStatus.GONE:
                if self.hands_played > hands_at_entry:
                    return
                self._replace(seat, EventKind.DISCONNECT)
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
            if rest[:1] not in MORE_CARDS:  # 'STATE :c', 'STATE\0:c': the reference's "bad action format"
                self._bad_action(seat, line, no_colon(line, rest))
                return
        if is_comment(line) or not line.strip():  # (blank lines counted as garbage, so ten of them played call)
            return
        try:
            reply = parse_reply(line, self.game)
        except ProtocolError:
            self._ignore(seat, BAD_STATE, line, counted=True)
            return
        assert self.state is not None
        if not reply.state.same_decision_point(view_of(self.state, self._position_of_seat[seat], self.hand)):
            self._ignore(seat, UNREQUESTED, line, counted=reply.state.hand > self.hand)  # (a later hand's: never sent)
            return
        if reply.action_text is None:
            self._bad_action(seat, line)
        else:
            self._take_action(seat, reply.action_text)

    def _ignore(self, seat: int, why: str, line: str, *, counted: bool = False) -> None:
        """A line from the acting seat that is no reply to its current state, passed over (a stale
        answer, a reconnect's); ``MAX_IGNORED_LINES`` ``counted`` ones (no state line at all) in a row in
        one decision count as an invalid answer, so a seat sending only garbage costs the match no more."""
        expected = self._last_sent[seat]
        example = f"{expected}:c" if expected is not None else "MATCHSTATE:...:c"
        self._book.warn(self._out, seat, EventKind.IGNORED, why, line, f"it sent {quoted(line)}; a reply is the state line it was sent, "
                   f"':' and its action (f, c, r or rSIZE), like {example!r}; still waiting for it")
        self._ignored_now = self._ignored_now + 1 if counted else 0  # an answer to a state sent before ends the row
        if self._ignored_now >= MAX_IGNORED_LINES:
            self._book.warn(self._out, seat, EventKind.INVALID, f"{MAX_IGNORED_LINES} lines in a row that are no state line; played call", line)
            self._apply(CALL)

    def _bad_action(self, seat: int, line: str, detail: str = "") -> None:
        self._book.warn(self._out, seat, EventKind.BAD_ACTION, BAD_ACTION, line, detail)
        self._apply(CALL)

    def _take_action(self, seat: int, text: str) -> None:
        node = self._node
        assert node is not None  # an assert, not a cast: no call on this once-per-action path
        outcome = node.replies.get(text) if self._tree_walk else None  # type: ignore[attr-defined]  # limit: kept at the node
        played, kind, warning = outcome or self._reply_outcome(node, text)
        if warning is not None:
            self._book.warn(self._out, seat, kind, warning, text, unknown_action(text) if kind is EventKind.INVALID else "")
        self._apply(played)

    def _replace(self, seat: int, kind: EventKind) -> None:
        """Play the stand-in action for a seat that timed out or is not connected."""
        node = self._node
        assert node is not None
        if kind is EventKind.DISCONNECT or self.on_timeout == "fold":
            action = FOLD if node.can_fold() else CALL
        else:
            action = CALL
        self._book.count(seat, kind)
        self._book.record(seat, kind, f"{kind}: played {action}", played=str(action), at=node.betting)
        if kind is EventKind.TIMEOUT:
            self._out.append(SeatWarning(seat, f"ran out of time; played {action}", kind=EventKind.TIMEOUT))
        self._apply(action)

    def _apply(self, action: Action) -> None:
        """Play ``action`` (legal: repaired already) for the position to act."""
        child: Betting
        live = self._live
        if live is not None:
            live.apply(action)
            child = live
        else:
            node: BettingNode = self._node  # type: ignore[assignment]  # a limit game: a tree node (no cast call per action)
            key = str(action) if action.size else "fcr"[action.kind]
            tree_child = node.children.get(key)
            if tree_child is None:
                tree_child = self._tree.grow(node, key, action)
            self._node = child = tree_child
        self._ignored_now = 0
        self.decision_count += 1
        if child.finished:
            self.acting_seat = None
            self._codec.reveal(child.round, child.folded)
            self._broadcast()
            self._end_hand()
        else:
            self.acting_seat = self._seat_of_position[child.player]
            if child.round != self._codec.round:
                self._codec.set_round(child.round)
            self._broadcast()

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
        self._book.carry_on(counts)

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
        book = self._book
        if not book.quiet:  # (nothing to clear in almost every hand: no call then)
            book.new_hand()
        if self._next_deal is not None:
            hole, board = self._next_deal
            self._next_deal = None
            self.work_ahead = True
        else:
            hole, board = self._dealer.deal()
        self._hole = hole
        self._board = board
        self._codec.new_hand(self.hand, hole, board)
        self._strengths, self._next_strengths = self._next_strengths, None
        live = self._live
        node: Betting
        if live is not None:
            live.reset()
            node = live
        else:
            node = self._tree.root
        self._node = node
        self.acting_seat = self._seat_of_position[node.player]
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
        payoffs = self._payoffs  # small games: the hand's result remembered, read inline (``HandPayoffs.payoff``)
        known = payoffs.by_hand.get((self._hole, self._board, betting)) if self._deals_repeat else None
        values, values_text = known or payoffs.payoff(self._hole, self._board, node, self._strengths)
        codec = self._codec
        totals = self.totals
        for p, v in enumerate(values):
            totals[by_position[p]] += v
        self.hands_played += 1
        self._out.append(
            HandFinished(  # by position, in field order (cheaper than keywords, once a hand)
                h, self.game_label, self._names_by_position, tuple(by_position), self._hole, codec.hole_text,
                codec.board_groups[node.round], codec.board_text[node.round], betting, values, values_text,
                () if self._book.quiet else self._book.hand_events(),
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
        self.acting_seat = None
        self.aborted = aborted
        self.reason = reason
        self._out.append(MatchFinished(self.score(), self.hands_played, aborted, reason))

    # ----------------------------------------------------------------- bookkeeping

    def _set_status(self, seat: int, status: SeatStatus) -> None:
        if self._status[seat] is not status:
            self._status[seat] = status
            self.status_changes += 1
            self.any_gone = self.any_gone or status is SeatStatus.GONE  # (for good: a gone seat never returns)

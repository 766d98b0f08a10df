"""The dealer on the network: one TCP port per seat, driven by the sans-io ``MatchEngine``.

``MatchServer.start()`` binds one listener per seat (127.0.0.1 by default; port 0 picks a free
port) and returns the ports in seat order; ``run()`` plays the match and returns a ``MatchResult``.
All the deciding happens in ``showdown.server.dealer`` and ``showdown.server.timing``; this module
moves bytes, reads the clock and writes the logs.

Design for throughput: each connection is an ``asyncio.Protocol`` whose ``data_received`` splits
lines and feeds the engine synchronously (no task or coroutine per line); the lines one input
produces for a seat are joined into a single ``transport.write``; the seat that must act is written
at once, while lines for the other seats (who need not answer them) are held for at most
``OBSERVER_DELAY`` (5 ms) or until that seat is to act, whichever comes first, so that a hand costs
about one write and one client wake-up per action instead of one per seat and action. Every seat
still receives exactly the reference's byte stream, only coalesced. A hand is in both logs before
any seat is sent its end (as the reference does); the next deal is made while the acting seat
thinks, and while it does, the dealer polls its socket briefly (``BusyWait``) instead of sleeping,
and reads and answers the reply itself, for up to 2 ms of quick replies before the loop runs again;
there is one lazily re-armed timer for all the time limits; the TO/FROM trace (``trace``) costs
nothing when off; ``run_match`` and the CLI use uvloop when installed (the ``fast`` extra). Warnings
and a final ``# replacements:`` summary line always go to stderr.

Files (when ``log_dir`` is set: ``server.match_logs``) are written a hand at a time, and a hand is
in both before any seat is sent how it ended; a write that fails (a full disk) ends the match at once,
so the hands the seats saw finish are exactly the logged ones (``error_text`` says which was lost).

Robustness (the reference aborts the match on any of these): a late seat's action is played for it,
a dropped seat may reconnect within ``reconnect_ms`` (else it is played check/fold), a bad VERSION
line or a stranger at a seat's port (``server.admission``) is refused without disturbing the match, a
client that stops reading (1 MB waiting for it) is disconnected. The match always finishes and the score
is always written (unless the disk is full). ``tests/server/test_hot_path.py`` holds the fast path to it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from showdown.errors import ShowdownError
from showdown.games.gamedef import GameDef
from showdown.protocol.events import DEALER_CHOSE, chosen_why, seats_with
from showdown.protocol.logfile import HandRecord, LogHeader, MatchSummary, format_score_line
from showdown.server.admission import SeatDoors
from showdown.server.admission import err_line as _err
from showdown.server.busy_wait import BusyWait, SpinTrial
from showdown.server.connection import SeatConnection
from showdown.server.dealer import MatchEngine
from showdown.server.event_loop import new_event_loop, run_in_new_loop
from showdown.server.match_logs import MatchLogs
from showdown.server.options import DealerOptions, MatchResult
from showdown.server.outputs import HandFinished, MatchFinished, Output, Reject, SeatWarning, Send
from showdown.server.timing import TimedMatch
from showdown.server.warning_lines import WarningLines

__all__ = ["BusyWait", "DealerOptions", "MatchResult", "MatchServer", "new_event_loop", "run_match"]

DIRECT_WINDOW = 0.002  # seconds the dealer may answer replies read directly before the event loop runs
CLOSE_GRACE = 2.0  # seconds to let clients read their last lines before connections are cut
OBSERVER_DELAY = 0.005  # seconds a line may wait for a seat that is not to act (see MatchServer)

class MatchServer:
    """Serve one match of ``hands`` hands of ``game`` to ``len(names)`` seats over TCP."""

    def __init__(
        self,
        game: GameDef,
        match_name: str,
        hands: int,
        seed: int,
        names: Sequence[str],
        options: DealerOptions,
        on_hand: Callable[[HandRecord], None] | None = None,
    ) -> None:
        if not match_name or "/" in match_name or any(c.isspace() for c in match_name):
            raise ShowdownError(f"bad match name {match_name!r}: use a plain file name without spaces or '/'")
        self.game = game
        self.match_name = match_name
        self.hands = hands
        self.seed = seed
        self.names = tuple(names)
        self.options = options
        self.on_hand = on_hand
        self.engine = MatchEngine(
            game,
            names,
            hands,
            seed,
            fixed_seats=options.fixed_seats,
            on_timeout=options.on_timeout,
            game_label=options.game_label or game.name,
            max_queue=options.max_queue,
        )
        self.limits = options.limits()
        n = game.num_players
        self._doors = SeatDoors(self, self.names, options)
        self.ports = self._doors.ports
        self._conns = self._doors.conns  # by seat: the connection holding it (read on every reply)
        self._all_conns = self._doors.all_conns
        self._all_gone: asyncio.Future[None] | None = None  # set while shutting down, done when no connection is left
        self._timed: TimedMatch | None = None
        self._loop: asyncio.AbstractEventLoop  # set by start(), before anything can call in
        self._done: asyncio.Future[MatchFinished] | None = None
        self._timer: asyncio.Handle | None = None
        self._timer_when = 0.0  # when self._timer fires (loop time)
        self._advance_pending = False
        self._deferred: list[list[str]] = [[] for _ in range(n)]  # lines not yet written, by seat
        self._observer_timer: asyncio.TimerHandle | None = None
        self._stop_requests = 0
        self._stop_why = "on request"
        self.replaced_hands = [0] * n  # by seat: hands in which the dealer acted for it (timeouts, absence)
        self.resumed_at: int | None = None  # the hand a resumed match continued from
        self.warnings = WarningLines(self.names, _err)  # on stderr, a crashed bot's lost connection after a grace
        self._unlogged: list[HandFinished] = []  # hands played that no log holds (a write failed)
        header = LogHeader(match_name, self.engine.game_label, hands, seed,
                           options.t_response_ms, options.t_hand_ms, options.t_per_hand_ms)  # fmt: skip
        self._logs = MatchLogs(header, game, self.names)
        self._finished: MatchFinished | None = None
        self._ended = False
        self._play_started: float | None = None  # loop time of the first deal
        self._play_seconds = 0.0
        self._trace = options.trace
        self._busy_wait = BusyWait(options.spin_us, trial=SpinTrial()) if options.spin_us > 0 and BusyWait.useful() else None

    # ----------------------------------------------------------------- public

    @property
    def log_path(self) -> Path | None:
        return self._logs.log_path

    @property
    def jsonl_path(self) -> Path | None:
        return self._logs.jsonl_path

    @property
    def error(self) -> str | None:
        """Why the match had to stop (a log write failed: a full disk), for the one-line message."""
        return self._logs.error

    async def start(self, on_resumed: Callable[[Path, int], None] | None = None) -> list[int]:
        """Bind one listener per seat and return the ports in seat order. ``on_resumed(jsonl, hands)``
        takes a resumed match's finished hands before the clocks start (a runner counts them again)."""
        if self._timed is not None:
            return self.ports
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._done = loop.create_future()
        await self._doors.bind(loop)
        self._open_logs()
        if on_resumed is not None and self.resumed_at and self.jsonl_path is not None:
            on_resumed(self.jsonl_path, self.resumed_at)
        # the clocks start once the logs are read (a million hands to resume: a minute of the seats' start time)
        self._timed = TimedMatch(self.engine, self.limits, loop.time())
        await self._doors.start_serving()
        if self._trace:
            for line in self._logs.header.lines():
                _err(line)
        if self._stop_requests:
            self._handle(self._timed.request_stop(loop.time()))
        self._rearm()
        return self.ports

    async def run(self) -> MatchResult:
        """Wait for the clients, play every hand, write the logs, close the connections."""
        await self.start()
        assert self._done is not None
        try:
            finished = await self._done
        finally:
            await self._shutdown()
        return self._result(finished)

    def request_stop(self, why: str = "on request") -> None:
        """Stop after the current hand (a second call: at once); logs and SCORE cover the hands played.
        ``why`` ends the line said when the match stops (the first call's: ``match stopped <why> after ...``)."""
        self._stop_requests += 1
        self._stop_why = why if self._stop_requests == 1 else self._stop_why
        if self._timed is None or self._finished is not None:
            return
        now = self._loop.time()
        if self._stop_requests == 1:
            self._handle(self._timed.request_stop(now))
        else:
            self._handle(self._timed.stop_now(now))

    # ----------------------------------------------------------------- connections

    @property
    def refused(self) -> list[int]:
        """Connections refused at each seat's port (no or a wrong token, the seat taken)."""
        return self._doors.refused

    @property
    def refusals(self) -> list[list[str]]:
        """The last reasons each seat's port refused a client."""
        return self._doors.refusals

    @property
    def on_refused(self) -> Callable[[int, str], None] | None:
        """Called with the seat and the reason when its port refuses a connection."""
        return self._doors.on_refused

    @on_refused.setter
    def on_refused(self, call: Callable[[int, str], None] | None) -> None:
        self._doors.on_refused = call

    def is_open(self) -> bool:
        return self._timed is not None and self._finished is None

    def may_connect(self, seat: int) -> bool:
        return self.engine.can_connect(seat)

    def accepted(self, conn: SeatConnection) -> None:
        self._doors.accepted(conn)

    def seat_taken(self, seat: int) -> None:
        self._guarded(self._timed.connected, seat)  # type: ignore[union-attr]

    def seat_left(self, seat: int) -> None:
        self._deferred[seat] = []  # they were for the lost connection; a new one gets the current state
        if self._timed is not None and self._finished is None:
            self._guarded(self._timed.disconnected, seat)

    def received(self, conn: SeatConnection, data: bytes) -> None:
        """Bytes from a connection. Then, with ``BusyWait``, the replies that follow quickly are read
        and answered here, one after another, for up to ``DIRECT_WINDOW`` seconds; the last wait
        leaves its reply to the event loop, so timers and other connections never wait longer."""
        busy = self._busy_wait
        if busy is not None:
            trial = busy.trial
            if trial is not None and trial.resting:  # polling does not pay now (SpinTrial): nothing per reply
                trial.resting, busy = trial.resting - 1, None
            else:
                busy.arrived(conn)
        lines = conn.splitter.feed(data)
        if lines:
            self._lines(conn, lines)
        elif conn.pending:  # a first line without its end yet (a TLS hello has none: refused now)
            self._doors.first_bytes(conn)
        if busy is None:
            return
        clock = time.perf_counter
        until = clock() + DIRECT_WINDOW
        done = self._done
        while self._finished is None and done is not None and not done.done():  # (done: a bug ended it)
            awaited = self.engine.waiting_for if self.engine.any_gone else self.engine.acting_seat  # (no call while none is gone)
            seat_conn = self._conns[awaited] if awaited is not None else None
            if seat_conn is None:
                return
            if clock() > until:
                busy.wait(seat_conn)
                return
            reply = busy.take(seat_conn)
            if reply is None:
                return
            lines = seat_conn.splitter.feed(reply)
            if lines:
                self._lines(seat_conn, lines)

    def _lines(self, conn: SeatConnection, lines: list[str]) -> None:
        seat = conn.seat
        if conn.pending:
            if self._timed is None or self._finished is not None:
                return
            first = self._doors.take_seat(conn, lines[0])
            if first is None:
                return
            lines = [first, *lines[1:]]
        if self._conns[seat] is not conn or self._timed is None or self._finished is not None:
            return
        if self._trace:
            stamp = time.time()
            for line in lines:
                _err(f"FROM {seat + 1} at {stamp:.6f} {line}")
        try:
            if (acting := self.engine.acting_seat) != seat:  # its lines wait (or are late): see ack_now
                conn.ack_now()
            now = self._loop.time()
            if (timer := self._timer) is not None and self._timer_when <= now:  # a deadline passed while the loop
                timer.cancel()  # was busy (an agent seated in memory thinks in it): the clock before the late line
                self._on_timer()
            if len(lines) == 1:  # the usual case: the clocks follow once the reply's answer is out
                self._handle(out := self.engine.receive(seat, lines[0]), follow_at=now)
            else:
                self._handle(out := [o for line in lines for o in self._timed.receive(seat, line, now)])
            if acting == seat == self.engine.acting_seat and not any(type(o) is Send and o.seat == seat for o in out):
                conn.ack_now()  # still waited for, and told nothing that would carry the ACK: see ack_now
        except BaseException as exc:  # a bug: end the match visibly rather than hang
            self._fail(exc)

    def lost(self, conn: SeatConnection) -> None:
        held = self._doors.lost(conn)
        gone = self._all_gone
        if gone is not None and not self._all_conns and not gone.done():
            gone.set_result(None)
        if held:
            self.seat_left(conn.seat)

    def stalled(self, conn: SeatConnection) -> None:
        """The client has not read its lines for a long time: drop it like a lost connection."""
        if self._conns[conn.seat] is conn and self._finished is None:
            _err(f"WARNING: seat {conn.seat + 1} ({self.names[conn.seat]}) does not read its socket; disconnecting it")
            if conn.transport is not None:
                conn.transport.abort()

    # ----------------------------------------------------------------- engine outputs

    def _guarded(self, method: Callable[[int, float], list[Output]], seat: int) -> None:
        try:
            self._handle(method(seat, self._loop.time()))
        except BaseException as exc:
            self._fail(exc)

    def _handle(self, outputs: list[Output], follow_at: float | None = None) -> None:
        """Carry out the engine's outputs: logs written per hand, then lines to the acting seat at once;
        with ``follow_at``, the outputs came from the engine itself and the clocks follow it then.

        A hand is in both logs before any seat can see how it ended, so a dealer killed at any point
        never leaves a hand that its players saw finish out of the log.
        """
        deferred = self._deferred
        finished_hands: list[HandFinished] = []
        for o in outputs:
            if isinstance(o, Send):
                deferred[o.seat].append(o.line)
            elif isinstance(o, HandFinished):
                finished_hands.append(o)
            elif isinstance(o, SeatWarning):
                self.warnings.show(o, self._conns[o.seat], self._loop)
            elif isinstance(o, Reject):
                self._write_seat(o.seat)
                self._doors.drop(o.seat, o.line)
            else:
                self._finished = o
        if finished_hands and not self._log_hands(finished_hands):
            return
        acting = self.engine.acting_seat
        if acting is not None and deferred[acting]:
            self._write_seat(acting)
        if follow_at is not None:
            self._timed.follow(follow_at)  # type: ignore[union-attr]
        if self._observer_timer is None and any(deferred):
            self._observer_timer = self._loop.call_later(OBSERVER_DELAY, self._write_observers)
        if self.engine.work_ahead:
            self.engine.prepare()  # the next deal, while the seat to act thinks
        if self._play_started is None and self.engine.started:
            self._play_started = self._loop.time()
            if self._trace:
                _err(f"STARTED at {time.time():.6f}")
        if self._finished is not None:
            self._end()
            return
        self._rearm()
        if self.engine.any_gone and not self._advance_pending and self.engine.needs_advance:
            self._advance_pending = True
            self._loop.call_soon(self._advance)

    def _log_hands(self, hands: list[HandFinished]) -> bool:
        """Log the finished hands, before any seat is sent how they ended (as the reference does);
        False when one could not be written: the match has then ended without sending it."""
        for i, hand in enumerate(hands):
            if hand.events:
                for seat in seats_with(hand.events, DEALER_CHOSE):
                    self.replaced_hands[seat] += 1
            if not self._logs.write_hand(hand):
                self._unlogged.append(hand)
                self._unlogged += hands[i + 1 :]  # played after it in the same input: not logged either
                self._stop_unlogged()
                if self._finished is not None:  # the match's last hand was the one
                    self._end()
                return False
            if self.on_hand is not None:
                self.on_hand(hand.record)
        return True

    def _write_seat(self, seat: int) -> None:
        """Write every line waiting for ``seat`` in one ``transport.write``."""
        lines = self._deferred[seat]
        if not lines:
            return
        self._deferred[seat] = []
        conn = self._conns[seat]
        if conn is None:
            return
        if self._trace:
            stamp = time.time()
            for line in lines:
                _err(f"TO {seat + 1} at {stamp:.6f} {line}")
        if len(lines) == 1:
            conn.write((lines[0] + "\r\n").encode())
        else:
            conn.write(("\r\n".join(lines) + "\r\n").encode())

    def _write_observers(self) -> None:
        self._observer_timer = None
        for seat in range(len(self._deferred)):
            self._write_seat(seat)

    def _advance(self) -> None:
        self._advance_pending = False
        if self._timed is not None and self._finished is None and self._timed.needs_advance:
            try:
                self._handle(self._timed.advance(self._loop.time()))
            except BaseException as exc:
                self._fail(exc)

    def _rearm(self) -> None:
        """Keep one timer no later than the next deadline (re-armed lazily: it rarely fires)."""
        assert self._timed is not None and self._loop is not None
        deadline = self._timed.next_deadline()
        if deadline is None:
            return
        timer = self._timer
        if timer is not None:
            if self._timer_when <= deadline:
                return
            timer.cancel()
        # the deadline is kept here: for a time already past, uvloop's call_at gives a plain Handle
        # (a call_soon) that has no when()
        self._timer_when = deadline
        self._timer = self._loop.call_at(deadline, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        if self._timed is None or self._finished is not None:
            return
        try:
            self._handle(self._timed.tick(self._loop.time()))
        except BaseException as exc:
            self._fail(exc)

    def _fail(self, exc: BaseException) -> None:
        done = self._done
        if done is not None and not done.done():
            done.set_exception(exc)

    # ----------------------------------------------------------------- logs

    def _open_logs(self) -> None:
        """Open the logs, or continue a killed match's (then the engine resumes where they end)."""
        log_dir = self.options.log_dir
        if log_dir is None:
            return
        try:
            point = self._logs.open(Path(log_dir), force=self.options.force, resume=self.options.resume)
        except ShowdownError:
            self._doors.close()
            raise
        self.engine.game_label = self._logs.header.game
        if point is not None:
            self.engine.resume(point.hands, [point.totals[name] for name in self.names], point.counts)
            self.resumed_at = point.hands
            _err(f"resuming {self.match_name} at hand {point.hands} of {self.hands}")

    def _stop_unlogged(self) -> None:
        """A hand could not be logged: end the match at once, before any seat is sent how that hand
        ended (its lines are dropped), so the hands the players saw finish are the logged ones."""
        self._deferred = [[] for _ in self._deferred]
        if self._observer_timer is not None:
            self._observer_timer.cancel()
            self._observer_timer = None
        if self._timed is not None and self._finished is None:
            self._stop_requests = max(self._stop_requests, 2)
            self._handle(self._timed.stop_now(self._loop.time()))

    def error_text(self) -> str:
        """The write that failed (``error``, which must be set) and what the logs hold."""
        lost = self._unlogged[0].hand if self._unlogged else None
        logged = self._finished.hands_played - len(self._unlogged) if self._finished is not None else None
        if lost is None:
            return f"{self.error}; every hand is in the logs"
        held = f"hands up to {lost - 1}" if lost else "no hand"
        return (f"{self.error}; the match stopped before any player was told how hand {lost} ended: the logs hold "
                f"{held} ({logged:,} played), complete, and --resume continues from hand {lost} once there is space")

    def _replacements(self) -> dict[str, dict[str, int]]:
        return {name: dict(self.engine.counts[seat]) for seat, name in enumerate(self.names)}

    def _end(self) -> None:
        """The match is over: SCORE and summary, then let ``run`` close everything (once)."""
        f = self._finished
        assert f is not None
        if self._ended:
            return
        self._ended = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._play_started is not None:
            self._play_seconds = self._loop.time() - self._play_started
        score_line = format_score_line(f.score)
        if f.hands_played == 0:
            self._logs.discard()  # a match that never dealt a hand leaves nothing that looks like one
        self._logs.write_end(score_line, MatchSummary(
            match=self.match_name, game=self.engine.game_label, seed=self.seed, hands=self.hands,
            hands_played=f.hands_played, aborted=f.aborted, reason=f.reason, names=self.names,
            totals=tuple(f.score.totals), replacements=self._replacements(),
            replaced_hands=dict(zip(self.names, self.replaced_hands)),
        ))  # fmt: skip
        self._say_how_it_ended(f)
        if self._trace:
            _err(f"FINISHED at {time.time():.6f}")
            _err(score_line)
        if self._trace or any(any(c.values()) for c in self._replacements().values()):
            _err(self._summary_line())  # quiet when nothing was replaced, unless tracing
        for seat, n in enumerate(self.replaced_hands):
            if n:
                why = chosen_why(self.engine.counts[seat])
                _err(f"seat {seat + 1} ({self.names[seat]}) was played by the dealer in {n:,} of {f.hands_played:,} hands ({why})")
        if self._observer_timer is not None:
            self._observer_timer.cancel()
        self._write_observers()
        for conn in list(self._all_conns):
            conn.close()
        done = self._done
        if done is not None and not done.done():
            done.set_result(f)

    def _say_how_it_ended(self, f: MatchFinished) -> None:
        """One line for a match that ended early; a write error is said by the caller (``error_text``)."""
        if self.error is not None or not f.aborted:
            return
        if self._stop_requests:
            if f.hands_played:  # the user's stop, no error (before the first hand: the caller says why)
                _err(f"match stopped {self._stop_why} after {f.hands_played} of {self.hands} hands")
        else:
            _err(f"ERROR: match ended after {f.hands_played} of {self.hands} hands: {f.reason}")

    def _summary_line(self) -> str:
        parts = []
        for name, counts in self._replacements().items():
            shown = ", ".join(f"{k}={v}" for k, v in counts.items() if v)
            parts.append(f"{name}: {shown or 'none'}")
        return "# replacements: " + "; ".join(parts)

    def _result(self, f: MatchFinished) -> MatchResult:
        totals = list(f.score.totals)
        for hand in self._unlogged:  # played, but in no log and seen by no player: not in the result
            for seat, value in zip(hand.seats, hand.values):
                totals[seat] -= value
        return MatchResult(
            names=self.names,
            totals=tuple(totals),
            hands_played=f.hands_played - len(self._unlogged),
            aborted=f.aborted or bool(self._unlogged),
            replacements=self._replacements(),
            log_path=self.log_path,
            jsonl_path=self.jsonl_path,
            reason=self.error_text() if self.error is not None else f.reason,
            error=self.error_text() if self.error is not None else None,
            hands=self.hands,
            seed=self.seed,
            play_seconds=self._play_seconds,
        )

    async def _shutdown(self) -> None:
        """Close listeners and connections (clients see EOF after their last line), files too."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._observer_timer is not None:
            self._observer_timer.cancel()
            self._observer_timer = None
        self._doors.close()
        for conn in list(self._all_conns):
            conn.close()
        if self._all_conns:  # each goes once its last lines are out (or the client left)
            self._all_gone = self._loop.create_future()
            try:
                await asyncio.wait_for(self._all_gone, CLOSE_GRACE)
            except TimeoutError:
                pass
        for conn in list(self._all_conns):
            if conn.transport is not None:
                conn.transport.abort()
        self._logs.close()
        await self._doors.wait_closed()


def run_match(
    game: GameDef,
    match_name: str,
    hands: int,
    seed: int,
    names: Sequence[str],
    options: DealerOptions,
    on_ports: Callable[[list[int]], None] | None = None,
) -> MatchResult:
    """Serve a match to completion in a fresh event loop (uvloop when available)."""

    async def main() -> MatchResult:
        server = MatchServer(game, match_name, hands, seed, names, options)
        ports = await server.start()
        if on_ports is not None:
            on_ports(ports)
        return await server.run()

    return run_in_new_loop(main())

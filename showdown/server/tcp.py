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
nothing when off; ``run_match`` and the CLI use uvloop when it is installed (the ``fast`` extra).
Warnings and a final ``# replacements:`` summary line always go to stderr.

Files (when ``log_dir`` is set), each flushed as soon as a hand ends, so a killed dealer loses no
finished hand; a write that fails (a full disk) ends the match before any seat is told how that
hand ended, so the hands the seats saw finish are exactly the logged ones (``error_text`` says
which hand was lost):

- ``<match>.log``: the reference format: ``# name/game/hands/seed ...`` and ``#--t_*`` header lines,
  one STATE line per hand, then the SCORE line. Unlike the reference, the ``SCORE`` line is also
  written when the match is aborted or stopped (it then covers the hands played).
- ``<match>.jsonl``: one ``HandRecord`` per hand (its ``events`` list what was replaced, repaired or
  ignored), then one summary record (``protocol.logfile.MatchSummary``: ``summary`` true, then
  ``match``, ``game``, ``seed``, ``hands``, ``hands_played``, ``aborted``, ``reason``, ``names``,
  ``totals`` by seat, ``replacements`` by name with every key of ``dealer.COUNT_KINDS``). Readers of
  hand records skip it (``protocol.logfile.is_summary_line``).
- ``<match>.game``: only when the game's label is neither a catalog name nor a readable path, so
  that ``showdown verify-log`` can find the game next to the log.

Robustness (the reference aborts the match on any of these): a late seat's action is played for it,
a dropped seat may reconnect within ``reconnect_ms`` and is otherwise played check/fold, a bad
VERSION line closes only that connection, a second connection to a seat's port is refused (one
with the seat's token takes the seat over: its holder came back before its old connection closed), a
client that stops reading (more than 1 MB waiting to be sent to it) is disconnected, lines are cut
at 4095 bytes and at most 1000 lines are queued per seat. The match always finishes and the score
is always written (unless the disk is full).
"""

from __future__ import annotations

import asyncio
import errno
import functools
import hmac
import importlib
import os
import select
import socket
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import IO, Any, cast

from showdown.errors import GameDefError, LogExistsError, ShowdownError
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef, format_gamedef
from showdown.protocol.logfile import DEALER_CHOSE, HandRecord, LogHeader, MatchSummary, chosen_why, format_score_line
from showdown.protocol.matchstate import split_token
from showdown.server.dealer import (
    HandFinished,
    LineSplitter,
    MatchEngine,
    MatchFinished,
    Output,
    Reject,
    SeatWarning,
    Send,
)
from showdown.server.timing import REFERENCE_T_HAND_MS, REFERENCE_T_RESPONSE_MS, DealerSettings, TimedMatch

WRITE_BUFFER_LIMIT = 1 << 20  # bytes waiting for a client that does not read: it is dropped
DIRECT_WINDOW = 0.002  # seconds the dealer may answer replies read directly before the event loop runs
CLOSE_GRACE = 2.0  # seconds to let clients read their last lines before connections are cut
OBSERVER_DELAY = 0.005  # seconds a line may wait for a seat that is not to act (see MatchServer)


DEALER_PLAYED = DEALER_CHOSE
"""Event kinds in which the dealer chose a seat's action (``protocol.logfile.DEALER_CHOSE``)."""

WARNINGS_SHOWN = 5
"""Warnings printed per seat; after that they are only counted (the replacement summary)."""

@dataclass(frozen=True)
class DealerOptions(DealerSettings):
    """How the match is served: the dealer's settings (by default the reference's: 600 s per decision
    and per hand, no start timeout), and where, to whom, and with what logs."""

    t_response_ms: int = REFERENCE_T_RESPONSE_MS
    t_hand_ms: int = REFERENCE_T_HAND_MS
    start_timeout_ms: int | None = None
    host: str = "127.0.0.1"
    ports: Sequence[int] | None = None  # None or 0 entries: free ports
    fixed_seats: bool = False
    log_dir: Path | None = None  # where <match>.log and <match>.jsonl go (None: no files)
    trace: bool = False  # reference-style TO/FROM trace on stderr
    game_label: str | None = None  # the game as the log header names it (default: game.name)
    max_queue: int = 1000  # lines queued per seat while it is not its turn
    force: bool = False  # overwrite existing logs of the same match (otherwise refused)
    resume: bool = False  # continue a killed match from its logs (start it when there are none)
    tokens: tuple[str | None, ...] | None = None  # per seat: the secret its client must send (None: none)
    first_line_ms: int = 2_000  # a new connection must send its VERSION line within this time
    max_pending: int = 16  # connections per port that have not yet proved their seat
    listeners: tuple[socket.socket | None, ...] | None = None  # per seat: a listening socket to serve it on (a sandbox's)

    @classmethod
    def serving(cls, settings: DealerSettings, **how: Any) -> DealerOptions:
        """Options from a match's dealer ``settings`` and ``how`` to serve it (host, tokens, logs...)."""
        return cls(**{f.name: getattr(settings, f.name) for f in fields(DealerSettings)}, **how)


@dataclass
class MatchResult:
    """What a served match came to; ``totals`` by seat, ``replacements`` by seat name."""

    names: tuple[str, ...]
    totals: tuple[float, ...]
    hands_played: int
    aborted: bool
    replacements: dict[str, dict[str, int]]
    log_path: Path | None
    jsonl_path: Path | None
    reason: str | None = None  # why an aborted match ended early
    hands: int = 0  # hands the match was meant to have
    seed: int = 0
    play_seconds: float = 0.0  # from the first deal to the end (the seats' start-up not counted)
    error: str | None = None  # a log write that failed (a full disk), and what the logs hold


class _SeatConnection(asyncio.Protocol):
    """One client connection to one seat's port."""

    def __init__(self, server: MatchServer, seat: int) -> None:
        self.server = server
        self.seat = seat
        self.transport: asyncio.Transport | None = None
        self.splitter = LineSplitter()
        self.closed = False
        self.poller: Any = None  # select.poll on the socket, for BusyWait (made with ``fd``)
        self.fd = -1  # the socket's descriptor, for BusyWait's reads (-1: none, or a blocking socket)
        self.pending = True  # not yet holding its seat: its first line decides
        self.deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        transport.set_write_buffer_limits(high=WRITE_BUFFER_LIMIT)
        self.server._accepted(self)

    def data_received(self, data: bytes) -> None:
        self.server._received(self, data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.deadline is not None:
            self.deadline.cancel()
        self.server._lost(self)

    def pause_writing(self) -> None:
        self.server._stalled(self)

    def write(self, data: bytes) -> None:
        t = self.transport
        if t is not None and not t.is_closing():
            t.write(data)

    def close(self, last_line: str | None = None) -> None:
        t = self.transport
        if t is not None and not t.is_closing():
            if last_line is not None:
                t.write(last_line.encode("utf-8") + b"\r\n")
            t.close()


class BusyWait:
    """Wait for the awaited reply by reading the seat's socket briefly before the event loop sleeps.

    On small virtual machines a core that went to sleep takes tens of microseconds to wake up:
    much of a fast agent's round trip (measured: about +20% hands/s in Kuhn, +50% in no-limit
    hold'em). So after the lines are out and the logs written, the dealer keeps its core awake for
    up to ``budget_us`` while the reply is on its way. ``take`` reads the reply itself (the bytes the
    event loop would have read, in order) so the dealer answers it at once, without a pass through
    the loop; otherwise the loop finds the socket ready and reads it. Every microsecond counts
    twice: the agent's core sleeps deeper the longer it waits (measured on loopback TCP: 5 us more
    before a write made the round trip 14 us longer). Polling costs CPU only while a reply is due
    and stops after ``MISSES`` windows in a row pass without one (slow agents, a busy machine), for
    ``PAUSE`` decisions. Useless, and so never used, with a single CPU.

    It also never takes a core another process wants: with ``yield_to_load`` (the server's way) it
    polls only while the machine's run queue (``/proc/loadavg``: tasks running or ready to run, the
    dealer and the thinking agent included) is no longer than its number of CPUs, looked at every
    ``LOAD_CHECK`` seconds, so on a machine whose cores are all wanted (other matches, a build, a
    ``--jobs 2`` tournament on 2 cores) the dealer sleeps in the event loop like any other program.
    """

    MISSES = 8
    PAUSE = 256
    READ_SIZE = 1 << 12
    LOAD_CHECK = 0.05
    RUN_QUEUE = "/proc/loadavg"

    def __init__(self, budget_us: int, *, yield_to_load: bool = True) -> None:
        self.budget = budget_us * 1e-6
        self.misses = 0
        self.paused = 0
        self.hits = 0
        self.taken = 0  # replies read here rather than by the event loop
        self.yielded = 0  # windows not polled because every core was wanted
        self.yield_to_load = yield_to_load and os.path.exists(self.RUN_QUEUE)
        self._cpus = self._cpu_count()
        self._load_checked = -1.0
        self._cores_free = True

    @staticmethod
    def _cpu_count() -> int:
        try:
            return len(os.sched_getaffinity(0))
        except AttributeError:  # not Linux
            return os.cpu_count() or 1

    @staticmethod
    def useful() -> bool:
        """Only with two CPUs or more, where the agent runs while the dealer polls."""
        return BusyWait._cpu_count() >= 2 and hasattr(select, "poll")

    def machine_has_a_free_core(self) -> bool:
        """True unless the run queue (read at most every ``LOAD_CHECK`` s) is longer than the CPUs."""
        if not self.yield_to_load:
            return True
        now = time.monotonic()
        if now - self._load_checked >= self.LOAD_CHECK:
            self._load_checked = now
            try:
                with open(self.RUN_QUEUE, "rb") as f:
                    running = int(f.read().split()[3].split(b"/")[0])
            except (OSError, ValueError, IndexError):
                running = 0
            self._cores_free = running <= self._cpus
        return self._cores_free

    def take(self, conn: _SeatConnection) -> bytes | None:
        """The bytes of the reply, read from ``conn``'s socket, if they come within the budget; None
        if they do not, or the connection is closing, failed or ended (the event loop reports that)."""
        transport = conn.transport
        if transport is None or transport.is_closing() or self._poller(conn) is None or conn.fd < 0:
            return None
        if not self.wait(conn):
            return None
        try:
            data = os.read(conn.fd, self.READ_SIZE)
        except OSError:  # nothing after all, or an error the event loop will report
            return None
        if not data:  # the end of the stream, also left for the event loop
            return None
        self.taken += 1
        return data

    def wait(self, conn: _SeatConnection | None) -> bool:
        """True once ``conn``'s socket has something to read, False when the budget is spent first."""
        if self.paused:
            self.paused -= 1
            return False
        if not self.machine_has_a_free_core():
            self.yielded += 1
            return False
        poller = self._poller(conn) if conn is not None else None
        if poller is None:
            return False
        poll = poller.poll
        clock = time.perf_counter
        end = clock() + self.budget
        while not poll(0):
            if clock() > end:
                self._missed()
                return False
        self.misses = 0
        self.hits += 1
        return True

    def _missed(self) -> None:
        self.misses += 1
        if self.misses >= self.MISSES:
            self.misses = 0
            self.paused = self.PAUSE

    @staticmethod
    def _poller(conn: _SeatConnection) -> Any:
        """``conn``'s poll object, made on first use together with ``conn.fd`` (left at -1 for a
        blocking socket, which ``take`` must never read); None while it has no socket."""
        poller = conn.poller
        if poller is None:
            sock = conn.transport.get_extra_info("socket") if conn.transport is not None else None
            if sock is None:
                return None
            fd = sock.fileno()
            poller = conn.poller = select.poll()
            poller.register(fd, select.POLLIN)
            conn.fd = -1 if os.get_blocking(fd) else fd
        return poller


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
        self._want_ports = _seat_ports(options, n)
        self.ports: list[int] = []
        self.log_path: Path | None = None
        self.jsonl_path: Path | None = None
        self._servers: list[asyncio.Server] = []
        self._conns: list[_SeatConnection | None] = [None] * n
        self._all_conns: set[_SeatConnection] = set()
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
        self.replaced_hands = [0] * n  # by seat: hands in which the dealer acted for it (timeouts, absence)
        self.resumed_at: int | None = None  # the hand a resumed match continued from
        self._warnings_shown = [0] * n
        self._pending: list[dict[_SeatConnection, None]] = [{} for _ in range(n)]  # oldest first
        self._tokens = _seat_tokens(options, n)
        self.refusals: list[list[str]] = [[] for _ in range(n)]  # the last reasons a seat's port refused a client
        self.refused = [0] * n  # connections refused at each seat's port (no or a wrong token, the seat taken)
        self._refusals_shown = 0
        self.on_refused: Callable[[int, str], None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.error: str | None = None  # why the match had to stop (a full disk), for the one-line message
        self._unlogged: list[HandFinished] = []  # hands played that no log holds (a write failed)
        self._log: IO[bytes] | None = None
        self._ends: list[int] | None = None  # byte lengths of the .log and .jsonl, once writing hands
        self._jsonl: IO[bytes] | None = None
        self._finished: MatchFinished | None = None
        self._ended = False
        self._play_started: float | None = None  # loop time of the first deal
        self._play_seconds = 0.0
        self._trace = options.trace
        self._busy_wait = BusyWait(options.spin_us) if options.spin_us > 0 and BusyWait.useful() else None

    # ----------------------------------------------------------------- public

    async def start(self) -> list[int]:
        """Bind one listener per seat and return the ports in seat order."""
        if self._timed is not None:
            return self.ports
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._done = loop.create_future()
        self._timed = TimedMatch(self.engine, self.limits, loop.time())
        family, address = await _resolve(loop, self.options.host)
        try:
            for seat, port in enumerate(self._want_ports):
                if (own := self._own_listener(seat)) is not None:
                    server = await loop.create_server(functools.partial(_SeatConnection, self, seat), sock=own, start_serving=False)
                else:
                    server = await loop.create_server(
                        functools.partial(_SeatConnection, self, seat),
                        address,
                        port,
                        family=family,
                        reuse_address=True,
                        start_serving=False,
                    )
                self._servers.append(server)
                self.ports.append(server.sockets[0].getsockname()[1])
        except OSError as exc:
            self._close_listeners()
            raise ShowdownError(f"cannot listen on {self.options.host} port {port}: {exc.strerror or exc}") from None
        self._open_logs()
        for server in self._servers:
            await server.start_serving()
        if self._trace:
            for line in self._header().lines():
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

    def request_stop(self) -> None:
        """Stop after the current hand (a second call: at once); logs and SCORE cover the hands played."""
        self._stop_requests += 1
        if self._timed is None or self._finished is not None:
            return
        now = self._loop.time()
        if self._stop_requests == 1:
            self._handle(self._timed.request_stop(now))
        else:
            self._handle(self._timed.stop_now(now))

    # ----------------------------------------------------------------- connections

    def _accepted(self, conn: _SeatConnection) -> None:
        """A new connection waits (bounded in number and time) until its first line proves its seat."""
        seat = conn.seat
        if self._timed is None or self._finished is not None:
            conn.close("# ERROR: the match is over")
            return
        pending = self._pending[seat]
        if len(pending) >= self.options.max_pending:
            # a connect flood: the oldest silent connection makes room (a real bot speaks at once)
            oldest = next(iter(pending))
            del pending[oldest]
            if oldest.deadline is not None:
                oldest.deadline.cancel()
            if oldest.transport is not None:
                oldest.transport.abort()
        self._all_conns.add(conn)
        pending[conn] = None
        conn.deadline = self._loop.call_later(self.options.first_line_ms / 1000, self._first_line_late, conn)

    def _first_line_late(self, conn: _SeatConnection) -> None:
        conn.deadline = None
        if conn.pending:
            self._pending[conn.seat].pop(conn, None)
            conn.close("# ERROR: no VERSION line in time")

    def _take_seat(self, conn: _SeatConnection, first: str) -> str | None:
        """Check a pending connection's first line; the VERSION line to pass on, or None (refused)."""
        seat = conn.seat
        self._pending[seat].pop(conn, None)
        conn.pending = False
        if conn.deadline is not None:
            conn.deadline.cancel()
            conn.deadline = None
        line, token = split_token(first)
        want = self._tokens[seat]
        why = None
        if want is not None and token is None:
            why = "no seat token (send 'VERSION:2.0.0 token=SECRET' as the first line)"
        elif want is not None and not hmac.compare_digest(token or "", want):
            why = "wrong seat token"
        elif self._conns[seat] is not None:
            if want is None:
                why = f"seat {seat + 1} is already connected"
            else:
                self._replaced_by(seat)
        if why is None and not self.engine.can_connect(seat):
            why = f"seat {seat + 1} is out of this match"
        if why is not None:
            self._refused(seat, why)
            conn.close(f"# ERROR: {why}")
            return None
        self._conns[seat] = conn
        for other in list(self._pending[seat]):  # the seat is taken: the others wait for nothing
            other.close(f"# ERROR: seat {seat + 1} is already connected")
        self._pending[seat].clear()
        self._pause_listener(seat)
        self._guarded(self._timed.connected, seat)  # type: ignore[union-attr]
        return line

    def _refused(self, seat: int, why: str) -> None:
        """A connection refused at a seat's port: counted apart from the seat's own counts (it may be
        anyone on the machine), the first few said, the match undisturbed."""
        self.refused[seat] += 1
        self.refusals[seat].append(why)
        del self.refusals[seat][:-5]
        shown = self._refusals_shown
        self._refusals_shown += 1
        if shown < WARNINGS_SHOWN:
            _err(f"WARNING: a connection to the port of seat {seat + 1} ({self.names[seat]}) was refused: {why}")
        if self.on_refused is not None:
            self.on_refused(seat, why)

    def _replaced_by(self, seat: int) -> None:
        """The seat's holder (it has the token) connected again while its old connection looks open
        (a bot that reconnects at once, before its close is seen): the new connection takes over."""
        old = self._conns[seat]
        assert old is not None
        self._conns[seat] = None
        self._deferred[seat] = []
        old.close("# ERROR: your seat was taken over by a new connection with its token")
        if self._timed is not None and self._finished is None:
            self._guarded(self._timed.disconnected, seat)

    def _pause_listener(self, seat: int) -> None:
        """The reference closes a seat's listener once the seat is taken: nobody else can connect.
        A seat with a token keeps listening (the token guards it), so that its holder can come
        back at once, without waiting for the port to listen again."""
        if self._tokens[seat] is not None:
            return
        server = self._servers[seat] if seat < len(self._servers) else None
        if server is not None and server.is_serving():
            server.close()

    def _resume_listener(self, seat: int) -> None:
        """Listen on the seat's port again so that its holder can reconnect (with its token)."""
        if self._finished is not None or seat >= len(self._servers) or self._servers[seat].is_serving():
            return
        task = self._loop.create_task(self._listen_again(seat))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _own_listener(self, seat: int) -> socket.socket | None:
        """A copy of the listening socket given for ``seat`` (closing a server closes its socket)."""
        own = self.options.listeners
        return own[seat].dup() if own is not None and seat < len(own) and own[seat] is not None else None  # type: ignore[union-attr]

    async def _listen_again(self, seat: int) -> None:
        family, address = await _resolve(self._loop, self.options.host)
        try:
            if (own := self._own_listener(seat)) is not None:
                self._servers[seat] = await self._loop.create_server(functools.partial(_SeatConnection, self, seat), sock=own)
                return
            self._servers[seat] = await self._loop.create_server(
                functools.partial(_SeatConnection, self, seat), address, self.ports[seat], family=family,
                reuse_address=True,
            )
        except OSError as exc:
            _err(f"WARNING: seat {seat + 1} ({self.names[seat]}): cannot listen again on port {self.ports[seat]} "
                 f"for its reconnection: {exc.strerror or exc}")

    def _received(self, conn: _SeatConnection, data: bytes) -> None:
        """Bytes from a connection. Then, with ``BusyWait``, the replies that follow quickly are read
        and answered here, one after another, for up to ``DIRECT_WINDOW`` seconds; the last wait
        leaves its reply to the event loop, so timers and other connections never wait longer."""
        lines = conn.splitter.feed(data)
        if lines:
            self._lines(conn, lines)
        busy = self._busy_wait
        if busy is None:
            return
        clock = time.perf_counter
        until = clock() + DIRECT_WINDOW
        done = self._done
        while self._finished is None and done is not None and not done.done():  # (done: a bug ended it)
            awaited = self.engine.waiting_for
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

    def _lines(self, conn: _SeatConnection, lines: list[str]) -> None:
        seat = conn.seat
        if conn.pending:
            if self._timed is None or self._finished is not None:
                return
            first = self._take_seat(conn, lines[0])
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
            now = self._loop.time()
            if len(lines) == 1:  # the usual case: the clocks follow once the reply's answer is out
                self._handle(self.engine.receive(seat, lines[0]), follow_at=now)
            else:
                out: list[Output] = []
                for line in lines:
                    out += self._timed.receive(seat, line, now)
                self._handle(out)
        except BaseException as exc:  # a bug: end the match visibly rather than hang
            self._fail(exc)

    def _lost(self, conn: _SeatConnection) -> None:
        self._all_conns.discard(conn)
        gone = self._all_gone
        if gone is not None and not self._all_conns and not gone.done():
            gone.set_result(None)
        seat = conn.seat
        self._pending[seat].pop(conn, None)
        if self._conns[seat] is not conn:
            return
        self._conns[seat] = None
        self._resume_listener(seat)
        self._deferred[seat] = []  # they were for the lost connection; a new one gets the current state
        if self._timed is not None and self._finished is None:
            self._guarded(self._timed.disconnected, seat)

    def _stalled(self, conn: _SeatConnection) -> None:
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
                self._warning(o)
            elif isinstance(o, Reject):
                self._write_seat(o.seat)
                self._reject(o)
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
        self.engine.prepare()  # the next deal, while the seat to act thinks
        if self._play_started is None and self.engine.started:
            self._play_started = self._loop.time()
            if self._trace:
                _err(f"STARTED at {time.time():.6f}")
        if self._finished is not None:
            if not self._ended:
                self._ended = True
                self._end()
            return
        self._rearm()
        if not self._advance_pending and self.engine.needs_advance:
            self._advance_pending = True
            self._loop.call_soon(self._advance)

    def _log_hands(self, hands: list[HandFinished]) -> bool:
        """Log the finished hands, before any seat is sent how they ended (as the reference does);
        False when one could not be written: the match has then ended without sending it."""
        for i, hand in enumerate(hands):
            self._count_dealer_played(hand)
            if not self._log_hand(hand):
                self._unlogged += hands[i + 1 :]  # played after it in the same input: not logged either
                self._stop_unlogged()
                if self._finished is not None and not self._ended:  # the match's last hand was the one
                    self._ended = True
                    self._end()
                return False
        return True

    def _warning(self, o: SeatWarning) -> None:
        """The first few warnings of each seat on stderr; the rest are counted in the summary."""
        shown = self._warnings_shown[o.seat]
        self._warnings_shown[o.seat] = shown + 1
        if shown < WARNINGS_SHOWN:
            _err(f"WARNING: seat {o.seat + 1} ({self.names[o.seat]}): {o.text}" + (f": {o.detail}" if o.detail else ""))
        elif shown == WARNINGS_SHOWN:
            _err(f"WARNING: seat {o.seat + 1} ({self.names[o.seat]}): more warnings are counted in the summary at the end")

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

    def _reject(self, o: Reject) -> None:
        conn = self._conns[o.seat]
        if conn is None:
            return
        self._conns[o.seat] = None  # the engine already counts the seat as away
        conn.close(o.line)
        self._resume_listener(o.seat)

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

    def _header(self) -> LogHeader:
        o = self.options
        return LogHeader(
            self.match_name,
            self.engine.game_label,
            self.hands,
            self.seed,
            o.t_response_ms,
            o.t_hand_ms,
            o.t_per_hand_ms,
        )

    def _open_logs(self) -> None:
        log_dir = self.options.log_dir
        if log_dir is None:
            return
        log_dir = Path(log_dir)
        log_path = log_dir / f"{self.match_name}.log"
        jsonl_path = log_dir / f"{self.match_name}.jsonl"
        if self.options.resume and log_path.exists():
            self._resume_logs(log_dir, log_path, jsonl_path)
            return
        mode = "wb" if self.options.force else "xb"  # never overwrite a match's logs unless told to
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
            for path in (log_path, jsonl_path):
                if mode == "xb" and path.exists():
                    raise FileExistsError(path)
            self._ensure_game_file(log_dir)
            self._log = open(log_path, mode, buffering=0)  # one write per hand, nothing held back
            self._jsonl = open(jsonl_path, mode, buffering=0)
            self.log_path, self.jsonl_path = log_path, jsonl_path
            _append(self._log, ("\n".join(self._header().lines()) + "\n").encode())
        except FileExistsError as exc:
            self._close_listeners()
            if exc.errno is not None:  # from mkdir: a file where a folder should be, not the logs
                raise ShowdownError(f"cannot write the match logs in {log_dir}: {exc.filename} is a file") from None
            raise LogExistsError(str(exc.args[0] if exc.args else log_path)) from None
        except OSError as exc:
            self._close_listeners()
            self._close_logs()
            raise ShowdownError(f"cannot write the match logs in {log_dir}: {exc.strerror or exc}") from None

    def _resume_logs(self, log_dir: Path, log_path: Path, jsonl_path: Path) -> None:
        """Continue a killed match: its logs say which hands are finished (see ``server.resume``)."""
        from showdown.server.resume import resume_point, truncate

        try:
            self._ensure_game_file(log_dir)
            point = resume_point(log_path, jsonl_path, self._header(), self.names)
            truncate(log_path, point.log_size)
            if jsonl_path.exists():
                truncate(jsonl_path, point.jsonl_size)
            self._log = open(log_path, "ab", buffering=0)
            self._jsonl = open(jsonl_path, "ab", buffering=0)
            self.log_path, self.jsonl_path = log_path, jsonl_path
            if point.hands == 0 and point.log_size == 0:
                _append(self._log, ("\n".join(self._header().lines()) + "\n").encode())
        except ShowdownError:
            self._close_listeners()
            self._close_logs()
            raise
        except OSError as exc:
            self._close_listeners()
            self._close_logs()
            raise ShowdownError(f"cannot resume from the logs in {log_dir}: {exc.strerror or exc}") from None
        self.engine.resume(point.hands, [point.totals[name] for name in self.names], point.counts)
        self.resumed_at = point.hands
        _err(f"resuming {self.match_name} at hand {point.hands} of {self.hands}")

    def _ensure_game_file(self, log_dir: Path) -> None:
        """Make the header's game resolvable: write ``<match>.game`` when the label is not."""
        label = self.engine.game_label
        if label:
            if (log_dir / label).is_file():
                return
            try:
                if get_game(label) == self.game:
                    return
            except GameDefError:
                pass
        name = f"{self.match_name}.game"
        (log_dir / name).write_text(format_gamedef(self.game), encoding="utf-8")
        self.engine.game_label = name

    def _count_dealer_played(self, o: HandFinished) -> None:
        events = o.events
        if events:
            for seat in {e.get("seat") for e in events if e.get("kind") in DEALER_PLAYED}:
                if isinstance(seat, int) and 0 <= seat < len(self.replaced_hands):
                    self.replaced_hands[seat] += 1

    def _log_hand(self, o: HandFinished) -> bool:
        """Append the hand to both logs; False when a write fails (a full disk): what it wrote of
        that hand in either file is taken back, so both keep only complete hands."""
        log, jsonl = self._log, self._jsonl
        if self.error is not None:  # a hand after a failed write (never dealt: see _stop_unlogged)
            self._unlogged.append(o)
            return False
        if log is not None and jsonl is not None:
            if self._ends is None:  # where each file ends, kept here: no seek per hand
                self._ends = [log.tell(), jsonl.tell()]
            ends = self._ends
            line = (o.state_line + "\n").encode()
            record = (o.json + "\n").encode()
            try:
                _append(log, line, ends[0])
                _append(jsonl, record, ends[1])
            except OSError as exc:
                try:
                    log.truncate(ends[0])
                except OSError:
                    pass
                self._disk_failed(exc, f"cannot write hand {o.hand} to the logs")
                self._unlogged.append(o)
                return False
            ends[0] += len(line)
            ends[1] += len(record)
        if self.on_hand is not None:
            self.on_hand(o.record)
        return True

    def _disk_failed(self, exc: OSError, what: str) -> None:
        where = self.log_path.parent if self.log_path is not None else "the log folder"
        why = "the disk is full" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else (exc.strerror or str(exc))
        if self.error is None:
            self.error = f"{what} in {where}: {why}"
        self._close_logs()

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
        """The match is over: SCORE and summary, then let ``run`` close everything."""
        f = self._finished
        assert f is not None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._play_started is not None:
            self._play_seconds = self._loop.time() - self._play_started
        score_line = format_score_line(f.score)
        if f.hands_played == 0:
            self._discard_logs()  # a match that never dealt a hand leaves nothing that looks like one
        try:
            self._write_score_and_summary(f, score_line)
        except OSError as exc:
            self._disk_failed(exc, "cannot write the SCORE line and the summary record after every hand")
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
                _err(f"match stopped on request after {f.hands_played} of {self.hands} hands")
        else:
            _err(f"ERROR: match ended after {f.hands_played} of {self.hands} hands: {f.reason}")

    def _write_score_and_summary(self, f: MatchFinished, score_line: str) -> None:
        if self._log is not None:
            _append(self._log, (score_line + "\n").encode())
            self._log.close()
            self._log = None
        if self._jsonl is not None:
            summary = MatchSummary(
                match=self.match_name,
                game=self.engine.game_label,
                seed=self.seed,
                hands=self.hands,
                hands_played=f.hands_played,
                aborted=f.aborted,
                reason=f.reason,
                names=tuple(self.names),
                totals=tuple(f.score.totals),
                replacements=self._replacements(),
                replaced_hands=dict(zip(self.names, self.replaced_hands)),
            )
            _append(self._jsonl, (summary.to_json() + "\n").encode())
            self._jsonl.close()
            self._jsonl = None

    def _discard_logs(self) -> None:
        self._close_logs()
        for path in (self.log_path, self.jsonl_path):
            if path is not None:
                path.unlink(missing_ok=True)
        self.log_path = self.jsonl_path = None

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
        self._close_listeners()
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
        self._close_logs()
        for server in self._servers:
            await server.wait_closed()

    def _close_logs(self) -> None:
        for f in (self._log, self._jsonl):
            if f is not None:
                try:
                    f.close()
                except OSError:
                    pass
        self._log = self._jsonl = None

    def _close_listeners(self) -> None:
        for server in self._servers:
            server.close()


def _seat_ports(options: DealerOptions, seats: int) -> list[int]:
    """The port each seat listens on (0: any free one)."""
    ports = list(options.ports) if options.ports else [0] * seats
    if len(ports) != seats:
        raise ShowdownError(f"{len(ports)} ports given for {seats} seats")
    taken = [p for p in ports if p]
    if len(set(taken)) != len(taken):
        raise ShowdownError(f"the same port is given to two seats ({','.join(map(str, ports))}): give each seat its own")
    return ports


def _seat_tokens(options: DealerOptions, seats: int) -> tuple[str | None, ...]:
    """The secret each seat's client must send (None: any client may take the seat)."""
    tokens = tuple(options.tokens) if options.tokens is not None else (None,) * seats
    if len(tokens) != seats:
        raise ShowdownError(f"{len(tokens)} seat tokens given for {seats} seats")
    return tokens


async def _resolve(loop: asyncio.AbstractEventLoop, host: str) -> tuple[int, str]:
    """One address for ``host``, so that every seat gets exactly one port."""
    try:
        infos = await loop.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ShowdownError(f"cannot listen on host {host!r}: {exc.strerror or exc}") from None
    family, _, _, _, sockaddr = infos[0]
    return family, str(sockaddr[0])


def _append(f: IO[bytes], data: bytes, start: int | None = None) -> None:
    """Write all of ``data`` at the end of ``f`` (which is at ``start``, when known) or nothing: after
    a short write the rest is tried, so the error is the system's own (a full disk, a file-size
    limit), and what was written of ``data`` is taken back."""
    if start is None:
        start = f.tell()
    try:
        written = f.write(data) or 0
        while written < len(data):  # a short write: the next one says why (or goes on)
            more = f.write(memoryview(data)[written:])
            if not more:
                raise OSError(errno.ENOSPC, "No space left on device")
            written += more
    except OSError:
        f.truncate(start)
        raise


def _err(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def new_event_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop when installed (the ``fast`` extra), else asyncio's."""
    try:
        uvloop = importlib.import_module("uvloop")
    except ImportError:
        return asyncio.new_event_loop()
    loop: asyncio.AbstractEventLoop = uvloop.new_event_loop()
    return loop


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

    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        return runner.run(main())

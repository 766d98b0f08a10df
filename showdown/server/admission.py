"""Who may hold each seat: one listener per seat's port, and the connections that knock on it.

A new connection waits, bounded in number (``max_pending`` per port: in a connect flood the oldest
silent one makes room) and in time (``first_line_ms``, by default as long as a seat's answer or its
start may take: the reference waits for ever, and a bot may load its strategy before it speaks),
until its first line proves its seat: a VERSION line, with the seat's token when it has one.
Refusals (no or a wrong token, no VERSION line, the seat taken) are counted apart from the seat's
own counts, since they may come from anyone on the machine (a port scanner, a browser), and never
disturb the match. As the reference does, a seat's listener closes once the seat is taken, unless
the seat has a token (which guards it), so that its holder can come back at once.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import ipaddress
import re
import socket
import sys
from collections.abc import Callable, Sequence
from typing import Protocol

from showdown.errors import ProtocolError, ShowdownError
from showdown.protocol.matchstate import TLS_HANDSHAKE, foreign_line, parse_version, split_token
from showdown.server.connection import ConnectionHost, SeatConnection
from showdown.server.options import DealerOptions, seat_ports, seat_tokens

__all__ = ["REFUSALS_SHOWN", "SeatDoors", "SeatKeeper", "err_line", "same_secret"]

REFUSALS_SHOWN = 5
"""Refused connections said on stderr; the rest are only counted (``SeatDoors.refused``)."""
_SECRET = re.compile(r"token=\S*")  # a seat token in what a client sent, quoted in a refusal


class SeatKeeper(ConnectionHost, Protocol):
    """What the doors ask of the server behind them (``MatchServer``)."""

    def is_open(self) -> bool: ...
    def may_connect(self, seat: int) -> bool: ...
    def seat_taken(self, seat: int) -> None: ...
    def seat_left(self, seat: int) -> None: ...


class SeatDoors:
    """The listeners, and per seat: the connection holding it (``conns``), those waiting to prove it,
    its token, and the connections its port refused (``refused``; the last reasons in ``refusals``)."""

    def __init__(self, keeper: SeatKeeper, names: Sequence[str], options: DealerOptions) -> None:
        n = len(names)
        self.keeper = keeper
        self.names = tuple(names)
        self.options = options
        self.want_ports = seat_ports(options, n)
        self.tokens = seat_tokens(options, n)
        self.ports: list[int] = []
        self.conns: list[SeatConnection | None] = [None] * n
        self.all_conns: set[SeatConnection] = set()
        self.pending: list[dict[SeatConnection, None]] = [{} for _ in range(n)]  # oldest first
        self.refusals: list[list[str]] = [[] for _ in range(n)]
        self.refused = [0] * n
        self.on_refused: Callable[[int, str], None] | None = None
        self._refusals_shown = 0
        self._servers: list[asyncio.Server] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None

    # ----------------------------------------------------------------- listeners

    async def bind(self, loop: asyncio.AbstractEventLoop) -> list[int]:
        """One listener per seat, not yet serving (``ShowdownError`` if a port cannot be had)."""
        self._loop = loop
        family, address = await _resolve(loop, self.options.host)
        port = 0
        try:
            bound = self.options.bound
            for seat, port in enumerate(self.want_ports):
                if bound is not None:  # already listening (cli.dealer_ports): taken over, not copied
                    server = await loop.create_server(self._protocol(seat), sock=bound[seat], start_serving=False)
                elif (own := self._own_listener(seat) or _dual_stack(family, address, port)) is not None:
                    server = await loop.create_server(self._protocol(seat), sock=own, start_serving=False)
                else:
                    server = await loop.create_server(self._protocol(seat), address, port, family=family,
                                                      reuse_address=True, start_serving=False)  # fmt: skip
                self._servers.append(server)
                self.ports.append(server.sockets[0].getsockname()[1])
        except OSError as exc:
            self.close()
            raise ShowdownError(f"cannot listen on {self.options.host} port {port}: {exc.strerror or exc}") from None
        return self.ports

    async def start_serving(self) -> None:
        for server in self._servers:
            await server.start_serving()

    def close(self) -> None:
        for server in self._servers:
            server.close()

    async def wait_closed(self) -> None:
        for server in self._servers:
            await server.wait_closed()

    def _protocol(self, seat: int) -> Callable[[], SeatConnection]:
        return functools.partial(SeatConnection, self.keeper, seat)

    def _own_listener(self, seat: int) -> socket.socket | None:
        """A copy of the listening socket given for ``seat`` (closing a server closes its socket)."""
        own = self.options.listeners
        sock = own[seat] if own is not None and seat < len(own) else None
        return sock.dup() if sock is not None else None

    def _pause_listener(self, seat: int) -> None:
        """Nobody else can connect to a taken seat without a token (the reference's way)."""
        if self.tokens[seat] is not None:
            return
        server = self._servers[seat] if seat < len(self._servers) else None
        if server is not None and server.is_serving():
            server.close()

    def reopen(self, seat: int) -> None:
        """Listen on the seat's port again so that its holder can reconnect (with its token)."""
        loop = self._loop
        if loop is None or not self.keeper.is_open() or seat >= len(self._servers) or self._servers[seat].is_serving():
            return
        task = loop.create_task(self._listen_again(loop, seat))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _listen_again(self, loop: asyncio.AbstractEventLoop, seat: int) -> None:
        family, address = await _resolve(loop, self.options.host)
        try:
            if (own := self._own_listener(seat) or _dual_stack(family, address, self.ports[seat])) is not None:
                self._servers[seat] = await loop.create_server(self._protocol(seat), sock=own)
                return
            self._servers[seat] = await loop.create_server(self._protocol(seat), address, self.ports[seat],
                                                           family=family, reuse_address=True)  # fmt: skip
        except OSError as exc:
            err_line(f"WARNING: seat {seat + 1} ({self.names[seat]}): cannot listen again on port {self.ports[seat]} "
                 f"for its reconnection: {exc.strerror or exc}")

    # ----------------------------------------------------------------- connections

    def accepted(self, conn: SeatConnection) -> None:
        """A new connection waits (bounded in number and time) until its first line proves its seat."""
        if self._loop is None or not self.keeper.is_open():
            conn.close("# ERROR: the match is over")
            return
        pending = self.pending[conn.seat]
        if len(pending) >= self.options.max_pending:
            # a connect flood: the oldest silent connection makes room (a real bot speaks at once)
            oldest = next(iter(pending))
            del pending[oldest]
            if oldest.deadline is not None:
                oldest.deadline.cancel()
            if oldest.transport is not None:
                oldest.transport.abort()
        self.all_conns.add(conn)
        pending[conn] = None
        conn.deadline = self._loop.call_later(self.first_line_ms / 1000, self._first_line_late, conn)

    @property
    def first_line_ms(self) -> int:
        """How long a new connection may take to send its first line: by default as long as an answer
        may take, or the seats' time to connect when that is longer (a bot that loads for 12 s after
        it connects is told to raise the start timeout, and raising it must be enough)."""
        given = self.options.first_line_ms
        if given is not None:
            return given
        return max(self.options.t_response_ms, self.options.start_timeout_ms or 0)

    def _first_line_late(self, conn: SeatConnection) -> None:
        conn.deadline = None
        if conn.pending:
            self.pending[conn.seat].pop(conn, None)
            conn.close("# ERROR: no VERSION line in time")
            # said, so that a client that connects and waits is not taken for one that never came
            sent = _SECRET.sub("token=...", conn.splitter.held())  # a seat's secret is not for the terminal
            hint = foreign_line(sent)
            held = (f"; {hint}" if hint else f"; it had sent {sent!r} with no line end: a line ends with '\\n' (or '\\r\\n')"
                    ) if conn.splitter.pending else ""
            self._refuse(conn.seat, f"it sent no VERSION line within {self.first_line_ms:,} ms "
                         f"(a client's first line is 'VERSION:2.0.0'){held}")

    def _decided(self, conn: SeatConnection) -> None:
        """A pending connection whose first bytes have decided it: no longer pending, its timer off."""
        self.pending[conn.seat].pop(conn, None)
        conn.pending = False
        if conn.deadline is not None:
            conn.deadline.cancel()
            conn.deadline = None

    def first_bytes(self, conn: SeatConnection) -> None:
        """A pending connection's first bytes, no line end among them yet: a TLS handshake is refused
        at once, saying so (its hello may hold no line end, and its client waits for the server's
        reply: it was refused when the first line's time was up, as a client that says nothing)."""
        if conn.splitter.held(2) != TLS_HANDSHAKE:
            return
        self._decided(conn)
        why = f"its first bytes are no VERSION line (a client's first line is 'VERSION:2.0.0'); {foreign_line(TLS_HANDSHAKE)}"
        conn.close(f"# ERROR: {why}")
        self._refuse(conn.seat, why)

    def take_seat(self, conn: SeatConnection, first: str) -> str | None:
        """Check a pending connection's first line; the VERSION line to pass on, or None (refused)."""
        seat = conn.seat
        self._decided(conn)
        line, token = split_token(first)
        why = self._why_refused(seat, line, token)
        if why is not None:
            hint = foreign_line(first) if token is None and not why.startswith("invalid version") else ""
            why += f"; {hint}" if hint else ""
            self._refuse(seat, why)
            conn.close(f"# ERROR: {why}")
            return None
        self.conns[seat] = conn
        for other in list(self.pending[seat]):  # the seat is taken: the others wait for nothing
            other.close(f"# ERROR: seat {seat + 1} is already connected")
        self.pending[seat].clear()
        self._pause_listener(seat)
        self.keeper.seat_taken(seat)
        return line

    def _why_refused(self, seat: int, line: str, token: str | None) -> str | None:
        """Why a connection whose first line is ``line`` with ``token`` may not have ``seat`` (None: it
        may; its holder with the token takes it over from a connection that still looks open). A first
        line that is no VERSION line (an HTTP request, a port scanner's probe) is refused here, before
        the seat is touched: it was the seat's own rejected connection, counted against its agent."""
        want = self.tokens[seat]
        if want is not None and token is None:
            return "no seat token (send 'VERSION:2.0.0 token=SECRET' as the first line)"
        if want is not None and not same_secret(token or "", want):
            return "wrong seat token"
        try:
            parse_version(line)
        except ProtocolError as exc:
            return str(exc)
        if self.conns[seat] is not None:
            if want is None:
                return f"seat {seat + 1} is already connected"
            self._taken_over(seat)
        if not self.keeper.may_connect(seat):
            return f"seat {seat + 1} is out of this match"
        return None

    def _refuse(self, seat: int, why: str) -> None:
        self.refused[seat] += 1
        self.refusals[seat].append(why)
        del self.refusals[seat][:-5]
        shown = self._refusals_shown
        self._refusals_shown += 1
        if shown < REFUSALS_SHOWN:
            err_line(f"WARNING: a connection to the port of seat {seat + 1} ({self.names[seat]}) was refused: {why}")
        elif shown == REFUSALS_SHOWN:
            err_line("WARNING: more connections refused at the seat ports are counted in the summary at the end")
        if self.on_refused is not None:
            self.on_refused(seat, why)

    def _taken_over(self, seat: int) -> None:
        """The seat's holder (it has the token) connected again while its old connection looks open
        (a bot that reconnects at once, before its close is seen): the new connection takes over."""
        old = self.conns[seat]
        assert old is not None
        self.conns[seat] = None
        old.close("# ERROR: your seat was taken over by a new connection with its token")
        self.keeper.seat_left(seat)

    def lost(self, conn: SeatConnection) -> bool:
        """A connection closed; True when it held its seat (which then listens again)."""
        self.all_conns.discard(conn)
        seat = conn.seat
        self.pending[seat].pop(conn, None)
        if self.conns[seat] is not conn:
            return False
        self.conns[seat] = None
        self.reopen(seat)
        return True

    def drop(self, seat: int, last_line: str) -> None:
        """Close the seat's connection with ``last_line`` (the engine counts the seat away already)."""
        conn = self.conns[seat]
        if conn is None:
            return
        self.conns[seat] = None
        conn.close(last_line)
        self.reopen(seat)


def same_secret(given: str, wanted: str) -> bool:
    """Whether a token a client sent is the secret, in constant time. Compared as bytes:
    ``compare_digest`` refuses str with characters beyond ASCII (a TypeError that killed the
    connection's transport with a traceback), and any client may send such a token."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), wanted.encode("utf-8", "surrogatepass"))


async def _resolve(loop: asyncio.AbstractEventLoop, host: str) -> tuple[int, str]:
    """One address for ``host``, so that every seat gets exactly one port."""
    try:
        infos = await loop.getaddrinfo(host, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise ShowdownError(f"cannot listen on host {host!r}: {exc.strerror or exc}") from None
    family, _, _, _, sockaddr = infos[0]
    return family, str(sockaddr[0])


def _dual_stack(family: int, address: str, port: int) -> socket.socket | None:
    """For ``--host ::`` (every address), a listener that takes IPv4 clients too, as ``0.0.0.0``'s
    does and as '::' means elsewhere (asyncio's own is IPv6 only); None for any other host."""
    if family != socket.AF_INET6 or not ipaddress.ip_address(address).is_unspecified or not socket.has_dualstack_ipv6():
        return None
    return socket.create_server((address, port), family=family, backlog=100, dualstack_ipv6=True)


def err_line(line: str) -> None:
    """A line on stderr for whoever reads it: the dealer's warnings (and ``tcp``'s)."""
    try:
        print(line, file=sys.stderr, flush=True)
    except OSError:  # a stderr no one reads any more (its reader exited, a runner killed): the match goes on
        pass

"""One client connection to one seat's port, as an ``asyncio.Protocol``: bytes in, lines out.

Its events go straight to the server (``ConnectionHost``), with no task or coroutine per line.
"""

from __future__ import annotations

import asyncio
import socket
from functools import partial
from typing import Any, Protocol, cast

from showdown.server.framing import LineSplitter
from showdown.server.outputs import SeatWarning

__all__ = ["WRITE_BUFFER_LIMIT", "ConnectionHost", "SeatConnection", "warning_detail"]

WRITE_BUFFER_LIMIT = 1 << 20  # bytes waiting for a client that does not read: it is dropped
_QUICKACK: int | None = getattr(socket, "TCP_QUICKACK", None)  # (Linux)


class ConnectionHost(Protocol):
    """What a connection reports to (``MatchServer``)."""

    def accepted(self, conn: SeatConnection) -> None: ...
    def received(self, conn: SeatConnection, data: bytes) -> None: ...
    def lost(self, conn: SeatConnection) -> None: ...
    def stalled(self, conn: SeatConnection) -> None: ...


class SeatConnection(asyncio.Protocol):
    """One client connection to one seat's port."""

    def __init__(self, server: ConnectionHost, seat: int) -> None:
        self.server = server
        self.seat = seat
        self.transport: asyncio.Transport | None = None
        self.splitter = LineSplitter()
        self.closed = False
        self.poller: Any = None  # select.poll on the socket, for BusyWait (made with ``fd``)
        self.fd = -1  # the socket's descriptor, for BusyWait's reads (-1: none, or a blocking socket)
        self.pending = True  # not yet holding its seat: its first line decides
        self.deadline: asyncio.TimerHandle | None = None
        # ``data_received``: bytes go straight to the server through a C partial, not a Python method, once per reply
        self.data_received = partial(server.received, self)  # type: ignore[method-assign]

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        transport.set_write_buffer_limits(high=WRITE_BUFFER_LIMIT)
        self.server.accepted(self)

    def eof_received(self) -> None:
        """The client closed its side: a last line without its line end is still read, as the
        reference's reader returns it at the end of input (a bot's last answer, then ``shutdown``);
        the connection then closes, as a lost one."""
        if self.splitter.pending and not self.closed:
            self.data_received(b"\n")

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.deadline is not None:
            self.deadline.cancel()
        self.server.lost(self)

    def pause_writing(self) -> None:
        self.server.stalled(self)

    def write(self, data: bytes) -> None:
        t = self.transport
        if t is not None and not t.is_closing():
            t.write(data)

    def ack_now(self) -> None:
        """Acknowledge the client's bytes at once rather than after the kernel's delayed-ACK wait
        (40 ms): a client that writes twice in a row without ``TCP_NODELAY`` (an answer to an earlier
        state, then its answer) has its second write held until the first is acknowledged."""
        t = self.transport
        sock = t.get_extra_info("socket") if t is not None and _QUICKACK is not None else None
        if sock is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, _QUICKACK, 1)
            except OSError:  # (closed meanwhile, or not TCP)
                pass

    def close(self, last_line: str | None = None) -> None:
        t = self.transport
        if t is not None and not t.is_closing():
            if last_line is not None:
                t.write(last_line.encode("utf-8") + b"\r\n")
            t.close()


def warning_detail(warning: SeatWarning, conn: SeatConnection | None) -> str:
    """The end of a seat's warning line: its own detail, or, for a timeout, the bytes the seat sent
    with no line end after them (a bot that ends replies with '\\r' alone, or none: the commonest
    first mistake, which otherwise reads as a slow bot)."""
    if warning.detail:
        return f": {warning.detail}"
    if conn is None or not conn.splitter.pending or not warning.text.startswith("ran out of time"):
        return ""
    held = conn.splitter.held()
    return f": it had sent {held!r} with no line end yet; a reply ends with '\\n' (or '\\r\\n')"

"""A built-in agent in the runner's own process, on a connection made of memory instead of TCP.

The dealer is the same ``MatchServer`` (seat tokens, time limits, logs, warnings); only the bytes
between it and the seat do not go through the kernel. The seat's transport hands each line the
dealer writes to the agent's ``ClientSession`` at once, and its reply comes back through the event
loop as a TCP client's would (``call_soon``), so the dealer's clocks and every rule apply unchanged.
Over TCP every action costs a write and a read on each side and a wake-up of the agent's process;
here it costs a few function calls (``--in-memory``; Kuhn: about a third of the CPU a hand, in the
README). The agent thinks inside the event loop, so the dealer reads its clock before taking a reply
(``MatchServer._lines``). An agent whose ``act`` raises is dropped like a crashed process: one line
says why and the dealer plays check/fold for its seat.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from showdown.agents.base import Agent
from showdown.agents.client import ClientSession, version_bytes
from showdown.argtypes import option_value
from showdown.games.gamedef import GameDef
from showdown.server.connection import SeatConnection

__all__ = ["MemorySeat", "agent_options", "plays_in_memory"]


def plays_in_memory(name: str | None, command: str | None, sandboxed: bool) -> bool:
    """Whether a seat can play in memory: a built-in agent by name (not a command, a file or a
    ``module:Class`` of the user's, whose code may hang or crash the runner) that is not sandboxed."""
    return command is None and name is not None and not sandboxed and ":" not in name and not name.endswith(".py")


def agent_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options as ``showdown agent`` gets them from the command line the runner writes
    (``-o key=value``: numbers and true/false parsed from their text), so an agent plays the same
    in memory as in its own process."""
    texts = {key: ("true" if value else "false") if isinstance(value, bool) else str(value) for key, value in options.items()}
    return {str(key).strip(): option_value(text) for key, text in texts.items()}


class MemorySeat(asyncio.Transport):
    """The transport of one in-memory seat: what the dealer writes goes to the agent, line by line;
    the agent's replies go back to the dealer on the event loop's next turn."""

    def __init__(self, agent: Agent, game: GameDef, conn: SeatConnection, token: str | None,
                 on_crash: Callable[[BaseException], None]) -> None:  # fmt: skip
        super().__init__()
        self._session = ClientSession(agent, game)
        self._conn = conn
        self._token = token
        self._on_crash = on_crash
        self._loop = asyncio.get_running_loop()
        self._pending = b""
        self._closing = False
        self.session = self._session

    def open(self) -> None:
        """Connect: the dealer accepts the connection, then reads the VERSION line."""
        self._conn.connection_made(self)
        self._loop.call_soon(self._deliver, version_bytes(self._token))

    def _deliver(self, data: bytes) -> None:
        if not self._closing:
            self._conn.data_received(data)

    # ------------------------------------------------------------------ asyncio.Transport

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._closing:
            return
        lines = (self._pending + bytes(data)).split(b"\n")
        self._pending = lines.pop()
        handle = self._session.handle
        replies: list[bytes] = []
        try:
            for raw in lines:
                reply = handle(raw.rstrip(b"\r").decode("ascii", "replace"))
                if reply is not None:
                    replies.append(reply.encode("ascii") + b"\r\n")
        except Exception as exc:  # noqa: BLE001 - the agent's own failure: its seat is dropped, the match goes on
            self.abort()
            self._loop.call_soon(self._on_crash, exc)  # after the dealer has seen the connection go: it then says why
            return
        if replies:
            self._loop.call_soon(self._deliver, b"".join(replies))

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        self.abort()

    def abort(self) -> None:
        if not self._closing:
            self._closing = True
            self._loop.call_soon(self._conn.connection_lost, None)

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

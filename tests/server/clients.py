"""Small scripted asyncio clients for the TCP tests (independent of the agents package)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from showdown.games.gamedef import GameDef
from showdown.protocol.matchstate import parse_matchstate

# A policy gets (the MATCHSTATE line, whether it is our turn, the client) and returns the bytes to
# send (b"" for nothing). It may be async to sleep or to close the connection.
Policy = Callable[[str, bool, "Client"], Awaitable[bytes] | bytes]


@dataclass
class Client:
    """One seat's client: connects, says VERSION, answers its turns with ``policy``."""

    game: GameDef
    port: int
    policy: Policy
    version: bytes = b"VERSION:2.0.0\r\n"
    received: list[str] = field(default_factory=list)
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    closed_by_us: bool = False

    def is_my_turn(self, line: str) -> bool:
        ms = parse_matchstate(line, self.game)
        state = ms.to_state(self.game)
        return not state.finished and state.current_player == ms.position

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, limit=1 << 22)
        self.writer.write(self.version)
        await self.writer.drain()

    async def close(self) -> None:
        self.closed_by_us = True
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except ConnectionError:
                pass

    async def run(self) -> list[str]:
        """Play until the dealer closes the connection (or the policy closes it)."""
        if self.reader is None:
            await self.connect()
        while True:
            assert self.reader is not None and self.writer is not None
            try:
                raw = await self.reader.readline()
            except ConnectionError:
                return self.received
            if not raw:
                return self.received
            line = raw.decode().rstrip("\r\n")
            self.received.append(line)
            if not line.startswith("MATCHSTATE:"):
                continue
            reply = self.policy(line, self.is_my_turn(line), self)
            if not isinstance(reply, (bytes, bytearray)):
                reply = await reply
            if self.closed_by_us:
                return self.received
            if reply:
                try:
                    self.writer.write(reply)
                    await self.writer.drain()
                except ConnectionError:
                    return self.received


def call_policy(line: str, my_turn: bool, client: Client) -> bytes:
    """Check/call every time."""
    return f"{line}:c\r\n".encode() if my_turn else b""


def raise_policy(line: str, my_turn: bool, client: Client) -> bytes:
    """Raise when it can (the dealer turns an impossible raise into a call: counted as invalid)."""
    if not my_turn:
        return b""
    state = parse_matchstate(line, client.game).to_state(client.game)
    return f"{line}:{'r' if state.can_raise() else 'c'}\r\n".encode()

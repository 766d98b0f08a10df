"""check-bot's connection to a bot, when the bot resets it."""

from __future__ import annotations

import asyncio
import socket
import struct

import pytest

from showdown.matches.bot_checks import Transport
from showdown.matches.check_bot import BotGone, _Session


def test_a_bot_that_resets_its_connection_is_gone_not_a_traceback() -> None:
    # a bot killed with lines unread (or closing with SO_LINGER 0) reset the connection: ConnectionResetError
    # came out of check-bot as a traceback instead of 'the bot never ... / it ended first'
    async def main() -> None:
        accepted: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = asyncio.Queue()
        server = await asyncio.start_server(lambda r, w: accepted.put_nowait((r, w)), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        bot = socket.create_connection(("127.0.0.1", port))
        reader, writer = await asyncio.wait_for(accepted.get(), 5)
        session = _Session(reader, writer, Transport.LINES)
        bot.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        bot.close()
        with pytest.raises(BotGone):
            await session.line(5)
        writer.close()
        server.close()
        await server.wait_closed()

    asyncio.run(main())

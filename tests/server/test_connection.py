"""A client's bytes are acknowledged at once when the dealer still waits on it (``SeatConnection.ack_now``)."""

from __future__ import annotations

import asyncio
import socket
import sys
import time
from pathlib import Path

import pytest

from showdown.games.catalog import get_game
from tests.server.clients import Client, call_policy
from tests.server.test_tcp import check_logs, play
from tests.server.test_tcp_budgets import loop_factory, loops

KUHN = get_game("kuhn")
HANDS = 100


class NagleClient(Client):
    """A client without TCP_NODELAY (Nagle's algorithm on, as a plain C or Python socket has it)."""

    async def connect(self) -> None:
        await super().connect()
        assert self.writer is not None
        self.writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 0)


def every_state(line: str, my_turn: bool, client: Client) -> bytes:
    """Answers every state it is sent (as the reference allows), each in a write of its own."""
    return f"{line}:c\r\n".encode()


@pytest.mark.skipif(sys.platform != "linux", reason="TCP_QUICKACK is Linux's")
@pytest.mark.parametrize("loop", loops())
def test_a_client_with_nagle_answering_every_state_is_not_held_by_delayed_acks(tmp_path: Path, loop: str) -> None:
    # its answer to a hand's first state waited for the ACK of its answer to the last hand's end,
    # which the dealer's kernel delayed by 40 ms: 100 Kuhn hands took 6 s (under the reference: 1 s)
    async def main() -> None:
        result, _ = await play(KUHN, HANDS, lambda ports: [Client(KUHN, ports[0], call_policy),
                                                          NagleClient(KUHN, ports[1], every_state)], tmp_path)
        check_logs(result, HANDS)
        assert sum(result.replacements["P2"].get(k, 0) for k in ("invalid", "timeout")) == 0

    with asyncio.Runner(loop_factory=loop_factory(loop)) as runner:
        started = time.perf_counter()
        runner.run(main())
        elapsed = time.perf_counter() - started
    assert elapsed < 2.0, f"{HANDS} hands took {elapsed:.1f} s"

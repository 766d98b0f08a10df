"""A seat over its time budget that keeps replying: the match carries on under both event loops."""

from __future__ import annotations

import asyncio
import importlib
from pathlib import Path

import pytest

from showdown.games.catalog import get_game
from tests.server.clients import Client, call_policy
from tests.server.test_tcp import check_logs, play

KUHN = get_game("kuhn")


def loops() -> list[str]:
    names = ["asyncio"]
    try:
        importlib.import_module("uvloop")
        names.append("uvloop")
    except ImportError:  # pragma: no cover - the fast extra is installed by make test
        pass
    return names


def loop_factory(name: str):  # type: ignore[no-untyped-def]
    if name == "uvloop":
        return importlib.import_module("uvloop").new_event_loop
    return asyncio.new_event_loop


async def slow_call(line: str, my_turn: bool, client: Client) -> bytes:
    """Answers late: its budget is spent, so its next deadline has passed as soon as it is set."""
    if my_turn:
        await asyncio.sleep(0.03)
    return call_policy(line, my_turn, client)


def doubled_call(line: str, my_turn: bool, client: Client) -> bytes:
    """Answers at once, twice in one write: the dealer reads both lines in one turn of its loop."""
    reply = call_policy(line, my_turn, client)
    return reply + reply


@pytest.mark.parametrize("loop", loops())
@pytest.mark.parametrize("budget", ["t_hand_ms", "t_per_hand_ms"])
def test_a_seat_over_its_budget_that_keeps_replying_does_not_crash_the_dealer(tmp_path: Path, loop: str, budget: str) -> None:
    # each reply takes 30 ms against a 20 ms budget: the deadline has passed when the next reply comes
    options = {budget: 20, "t_response_ms": 1_000}

    async def main() -> None:
        result, _ = await play(KUHN, 40, lambda ports: [Client(KUHN, ports[0], slow_call), Client(KUHN, ports[1], doubled_call)],
                               tmp_path, **options)
        check_logs(result, 40)
        assert sum(result.replacements["P1"].values()) > 0  # the slow seat had actions played for it

    with asyncio.Runner(loop_factory=loop_factory(loop)) as runner:
        runner.run(main())


def test_uvloop_is_tested_here() -> None:
    assert "uvloop" in loops(), "install the fast extra (uvloop): the dealer is tested under both loops"

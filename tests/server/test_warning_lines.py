"""The seats' warnings on stderr: capped per seat, the first of each thing the dealer did always said,
a lost connection's held for a runner to explain."""

from __future__ import annotations

import asyncio

from showdown.protocol.events import EventKind
from showdown.server.dealer import LOST_WARNING
from showdown.server.outputs import SeatWarning
from showdown.server.warning_lines import WARNINGS_SHOWN, WarningLines


def LOST(seat: int) -> SeatWarning:  # noqa: N802 - as the engine makes it
    return SeatWarning(seat, LOST_WARNING, kind=EventKind.CONNECTION_LOST)


def test_past_the_cap_only_the_first_of_each_thing_the_dealer_did_is_said() -> None:
    # a bot that floods its seat saw five "ignoring un-requested response" lines and the cap, and never the
    # line saying the dealer had played for it (only the JSONL log held it)
    said: list[str] = []
    lines = WarningLines(["a", "b"], said.append)
    loop = asyncio.new_event_loop()
    try:
        for _ in range(WARNINGS_SHOWN + 3):
            lines.show(SeatWarning(0, "ignoring un-requested response", kind="ignored"), None, loop)
        lines.show(SeatWarning(0, "32 lines in a row that are no state line; played call", kind="invalid"), None, loop)
        lines.show(SeatWarning(0, "32 lines in a row that are no state line; played call", kind="invalid"), None, loop)
        lines.show(SeatWarning(1, "ran out of time; played c", kind="timeout"), None, loop)
    finally:
        loop.close()
    assert said == ["WARNING: seat 1 (a): ignoring un-requested response"] * WARNINGS_SHOWN + [
        "WARNING: seat 1 (a): more warnings are counted in the summary at the end",
        "WARNING: seat 1 (a): 32 lines in a row that are no state line; played call",
        "WARNING: seat 2 (b): ran out of time; played c",
    ]


def test_a_lost_connection_waits_for_its_grace_and_an_explained_one_is_dropped() -> None:
    said: list[str] = []
    lines = WarningLines(["a", "b"], said.append)
    lines.lost_grace_s = 0.05

    async def play() -> None:
        loop = asyncio.get_running_loop()
        lines.show(LOST(0), None, loop)
        lines.show(LOST(1), None, loop)
        assert said == []
        lines.explained(0)  # the runner said why seat 1 went (its process exited)
        await asyncio.sleep(0.2)

    asyncio.run(play())
    assert said == [f"WARNING: seat 2 (b): {LOST_WARNING}"]
    lines.lost_grace_s = 0.0  # `showdown dealer`: at once
    loop = asyncio.new_event_loop()
    try:
        lines.show(LOST(0), None, loop)
    finally:
        loop.close()
    assert said[-1] == f"WARNING: seat 1 (a): {LOST_WARNING}"

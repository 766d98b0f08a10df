"""A stranger at a seat's port costs nothing (issue 31, item 1): a process that connects without the
seat's token, or with a wrong one, before the first hand is refused and counted apart, and the match
waits for its agent; only an agent that never takes its seat stops the match, and the message says
why (its port refused connections: a bot that sends no token)."""

from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from showdown.errors import ConfigError
from showdown.evaluation.verify import verify_log
from showdown.matches.config import AgentSpec, MatchConfig
from showdown.matches.plain import MatchRun
from showdown.server.timing import DealerSettings


def late_bot(go: Path) -> str:
    """The real agent, our runtime, started only once ``go`` exists (the stranger has been answered):
    a fixed head start (it slept 2 s) lost the race on a loaded machine, the seat taken and its port
    closed before the stranger connected."""
    return (f"{sys.executable} -c \"import os, time, runpy, sys; t = time.monotonic() + 60\n"
            f"while not os.path.exists({str(go)!r}) and time.monotonic() < t: time.sleep(0.02)\n"
            "sys.argv = ['showdown', 'agent', 'call', '--game', 'kuhn', *sys.argv[1:]]; runpy.run_module('showdown', run_name='__main__')\"")


NO_TOKEN_STAYS = (  # a bot that cannot send a token and stays connected-less, alive
    f"{sys.executable} -c \"import socket, sys, time; s = socket.create_connection((sys.argv[1], int(sys.argv[2]))); "
    f"s.sendall(b'VERSION:2.0.0\\r\\n'); s.recv(100); time.sleep(60)\""
)
NO_TOKEN_EXITS = (
    f"{sys.executable} -c \"import socket, sys; s = socket.create_connection((sys.argv[1], int(sys.argv[2]))); "
    f"s.sendall(b'VERSION:2.0.0\\r\\n'); print(s.recv(100).decode().strip()); sys.exit(1)\""
)


def config(first: AgentSpec, tmp: Path, start_ms: int = 15_000) -> MatchConfig:
    return MatchConfig(game="kuhn", agents=(first, AgentSpec(name="random")), hands=100, out=tmp,
                       dealer=DealerSettings(start_timeout_ms=start_ms))


async def stranger(run: MatchRun, seat: int, first_line: bytes) -> bytes:
    """Connect to ``seat``'s port as soon as it listens, send ``first_line``, return the answer."""
    while run.server is None or len(run.server.ports) <= seat:
        await asyncio.sleep(0.005)
    reader, writer = await asyncio.open_connection("127.0.0.1", run.server.ports[seat])
    writer.write(first_line)
    answer = await asyncio.wait_for(reader.readline(), 5)
    writer.close()
    return answer


async def play_with_stranger(cfg: MatchConfig, first_line: bytes, go: Path | None = None) -> tuple[object, bytes, MatchRun, list[str]]:
    notes: list[str] = []
    run = MatchRun(cfg, progress=False, notify=notes.append)
    task = asyncio.ensure_future(run.play())
    answer = await stranger(run, 0, first_line)
    if go is not None:
        go.touch()  # the late agent may come now
    report = await asyncio.wait_for(task, 60)
    return report, answer, run, notes


@pytest.mark.parametrize("first_line", [b"VERSION:2.0.0\r\n", b"VERSION:2.0.0 token=" + b"f" * 32 + b"\r\n", b"hello\r\n"])
async def test_a_stranger_before_the_first_hand_does_not_stop_the_match(tmp_path: Path, first_line: bytes) -> None:
    go = tmp_path / "go"
    cfg = config(AgentSpec(command=late_bot(go), label="late"), tmp_path)
    report, answer, run, notes = await play_with_stranger(cfg, first_line, go)
    assert answer.startswith(b"# ERROR:")
    assert report.hands == 100 and not report.aborted and not report.degraded  # type: ignore[attr-defined]
    assert run.strangers == [1, 0]
    assert sum(report.replacements["late"].values()) == 0  # type: ignore[attr-defined]
    assert any("still waiting for agent late" in n for n in notes)
    assert any("not counted against the agents: seat 1 (late): 1" in n for n in notes)
    assert verify_log(report.log_path).ok  # type: ignore[attr-defined]


async def test_an_agent_that_never_takes_its_seat_stops_the_match_saying_its_port_refused_it(tmp_path: Path) -> None:
    cfg = config(AgentSpec(command=NO_TOKEN_STAYS, label="notoken"), tmp_path, start_ms=1500)
    started = time.monotonic()
    with pytest.raises(ConfigError) as err:
        await MatchRun(cfg, progress=False, notify=lambda _: None).play()
    assert time.monotonic() - started < 10
    text = str(err.value)
    assert text.startswith("agent notoken (seat 1) never took its seat; its port refused 1 connection (last: no seat token")
    assert "SHOWDOWN_SEAT_TOKEN" in text and "\n" not in text


async def test_an_agent_refused_and_gone_stops_the_match_at_once_with_the_reason(tmp_path: Path) -> None:
    cfg = config(AgentSpec(command=NO_TOKEN_EXITS, label="notoken"), tmp_path)
    started = time.monotonic()
    with pytest.raises(ConfigError) as err:
        await MatchRun(cfg, progress=False, notify=lambda _: None).play()
    assert time.monotonic() - started < 10  # not the 15 s start limit
    text = str(err.value)
    assert "exited with status 1 before the match began" in text and "its port refused 1 connection" in text
    assert "SHOWDOWN_SEAT_TOKEN" in text


SILENT = f"{sys.executable} -c \"import time; time.sleep(60)\""  # alive, never connects (an agent still training)


async def test_an_agent_that_has_not_connected_by_the_start_limit_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent still starting at the start limit (a built-in agent training a large game) had the
    whole match played check/fold for it, said only as 'not connected: 85 actions'."""
    import showdown.matches.agent_process as agent_process
    import showdown.matches.plain as plain

    for module in (agent_process, plain):  # the silent process is stopped at once when the match ends
        monkeypatch.setattr(module, "AGENT_EXIT_GRACE", 0.1)
    cfg = replace(config(AgentSpec(command=SILENT, label="slow"), tmp_path, start_ms=300), hands=5)
    notes: list[str] = []
    report = await asyncio.wait_for(MatchRun(cfg, progress=False, notify=notes.append).play(), 60)
    said = "agent slow (seat 1) had not connected 300 ms after the start: the match begins without it"
    assert any(n.startswith(said) for n in notes), notes
    assert report.hands == 5 and report.failures[0].startswith(said)  # type: ignore[attr-defined]
    # it said 'plays check/fold for it until it comes', but an agent that came later was refused ('out of this match')
    assert "to the end, refusing it if it comes later" in report.failures[0]  # type: ignore[attr-defined]

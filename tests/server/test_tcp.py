"""The dealer over real sockets on 127.0.0.1 (port 0): reference agreement and misbehaving clients.

In every misbehaving-client test the match completes and ``verify_log`` accepts the log.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from showdown.errors import ShowdownError
from showdown.evaluation.verify import verify_log
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.protocol.logfile import HandRecord
from showdown.server.dealer import MAX_IGNORED_LINES
from showdown.server.tcp import BusyWait, DealerOptions, MatchResult, MatchServer
from tests.server.clients import Client, call_policy, raise_policy
from tests.server.helpers import TRANSCRIPTS, load_transcript

KUHN = get_game("kuhn")
LIMIT = 20.0  # seconds: no test should come near this


async def play(
    game: GameDef,
    hands: int,
    make_clients: Callable[[list[int]], Sequence[Client]],
    tmp_path: Path,
    *,
    names: Sequence[str] = ("P1", "P2"),
    seed: int = 3,
    **options: object,
) -> tuple[MatchResult, list[Client]]:
    """Serve a match to the clients ``make_clients(ports)`` builds; return the result and the clients."""
    server = MatchServer(game, "m", hands, seed, names, DealerOptions(log_dir=tmp_path, **options))  # type: ignore[arg-type]
    ports = await server.start()
    clients = list(make_clients(ports))
    tasks = [asyncio.create_task(c.run()) for c in clients]
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), LIMIT)
    return result, clients


def check_logs(result: MatchResult, hands: int) -> list[dict[str, Any]]:
    """The match finished every hand, the log verifies, the JSON log has a record per hand + summary."""
    assert result.hands_played == hands and not result.aborted
    assert result.log_path is not None and result.jsonl_path is not None
    report = verify_log(result.log_path)
    assert report.ok, report.problems
    assert report.hands == hands
    assert result.log_path.read_text().splitlines()[-1].startswith("SCORE:")
    records = [json.loads(line) for line in result.jsonl_path.read_text().splitlines()]
    assert len(records) == hands + 1 and records[-1]["summary"] is True
    assert records[-1]["replacements"] == result.replacements
    for r in records[:-1]:
        HandRecord.from_json(json.dumps(r))
    return records


def normal(port: int) -> Client:
    return Client(KUHN, port, call_policy)


# ------------------------------------------------------------------ reference agreement


async def scripted_seat(port: int, stream: list[tuple[str, bytes]]) -> None:
    """Send the recorded client bytes and check every byte received against the recording."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for n, (direction, data) in enumerate(stream):
        if direction == "P->D":
            writer.write(data)
            await writer.drain()
        else:
            got = await reader.readline()
            assert got == data, f"stream item {n}: {got!r} != {data!r}"
    assert await reader.read() == b""  # then the dealer closes the connection
    writer.close()


@pytest.mark.parametrize("name", TRANSCRIPTS)
async def test_transcript_bytes_and_log_over_tcp(name: str, tmp_path: Path) -> None:
    t = load_transcript(name)
    options = DealerOptions(log_dir=tmp_path, game_label=t.game_file)
    server = MatchServer(t.game, t.match, t.hands, t.seed, t.names, options)
    ports = await server.start()
    seats = [asyncio.create_task(scripted_seat(port, stream)) for port, stream in zip(ports, t.streams)]
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.wait_for(asyncio.gather(*seats), LIMIT)
    assert (tmp_path / f"{t.match}.log").read_text().splitlines() == t.log_lines
    assert verify_log(tmp_path / f"{t.match}.log").ok
    assert result.hands_played == t.hands and not result.aborted
    assert all(v == 0 for counts in result.replacements.values() for v in counts.values())


# ------------------------------------------------------------------ misbehaving clients


async def test_silent_client_past_the_time_limit_is_played_check_fold(tmp_path: Path) -> None:
    async def silent(line: str, my_turn: bool, client: Client) -> bytes:
        return b""

    result, _ = await play(KUHN, 4, lambda ports: [Client(KUHN, ports[0], silent), normal(ports[1])],
                           tmp_path, t_response_ms=50)
    records = check_logs(result, 4)
    assert result.replacements["P1"]["timeout"] == 4  # seat 2 only checks: one decision a hand
    assert all(r["events"][0]["kind"] == "timeout" for r in records[:-1])


async def test_a_reply_ended_by_cr_alone_is_a_timeout_that_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A reply ending in '\\r' with no '\\n' waits for its line end, as the reference's fgets does; the
    warning said only 'ran out of time', as for a slow bot: now it quotes what waits for its line end."""

    def cr_only(line: str, my_turn: bool, client: Client) -> bytes:
        return f"{line}:c\r".encode() if my_turn else b""

    result, _ = await play(KUHN, 3, lambda ports: [Client(KUHN, ports[0], cr_only), normal(ports[1])], tmp_path,
                           t_response_ms=50)
    check_logs(result, 3)
    assert result.replacements["P1"]["timeout"] == 3
    first = next(x for x in capsys.readouterr().err.splitlines() if "ran out of time" in x)
    assert first.startswith("WARNING: seat 1 (P1): ran out of time; played c: it had sent 'MATCHSTATE:0:0:")
    assert first.endswith(":c\\r' with no line end yet; a reply ends with '\\n' (or '\\r\\n')")


async def test_disconnect_and_reconnect_resumes_from_the_current_state(tmp_path: Path) -> None:
    rejoined: list[Client] = []
    left = asyncio.Event()

    async def leave_in_hand_2(line: str, my_turn: bool, client: Client) -> bytes:
        if line.split(":")[2] == "2":
            await client.close()
            left.set()
            return b""
        return call_policy(line, my_turn, client)

    def clients(ports: list[int]) -> list[Client]:
        async def come_back() -> None:
            await left.wait()
            await asyncio.sleep(0.1)
            c = Client(KUHN, ports[0], call_policy)
            rejoined.append(c)
            await c.run()

        asyncio.get_running_loop().create_task(come_back())
        return [Client(KUHN, ports[0], leave_in_hand_2), normal(ports[1])]

    result, _ = await play(KUHN, 6, clients, tmp_path, reconnect_ms=3000)
    check_logs(result, 6)
    counts = result.replacements["P1"]
    assert counts["connection_lost"] == 1 and counts["disconnect"] == 0 and counts["timeout"] == 0
    # The returning client is first sent the state the match is at: hand 2, where it left.
    assert rejoined[0].received[0].startswith("MATCHSTATE:0:2:")


async def test_disconnect_for_good_is_played_check_fold_without_waiting(tmp_path: Path) -> None:
    async def leave_in_hand_1(line: str, my_turn: bool, client: Client) -> bytes:
        if line.split(":")[2] == "1":
            await client.close()
            return b""
        return call_policy(line, my_turn, client)

    loop = asyncio.get_running_loop()
    started = loop.time()
    result, _ = await play(KUHN, 30, lambda ports: [Client(KUHN, ports[0], leave_in_hand_1),
                                                    Client(KUHN, ports[1], raise_policy)],
                           tmp_path, reconnect_ms=200)
    check_logs(result, 30)
    counts = result.replacements["P1"]
    assert counts["connection_lost"] == 1 and counts["disconnect"] >= 29  # a fold every later hand
    assert loop.time() - started < 5  # waited once (200 ms), not once per hand


async def test_garbage_lines_are_ignored(tmp_path: Path) -> None:
    def garbage(line: str, my_turn: bool, client: Client) -> bytes:
        if not my_turn:
            return b""
        junk = b"hello\r\n\x00\xff\xfe binary\r\n\r\nMATCHSTATE:9:9::|:c\r\n;comment\r\nMATCHSTATE:0:0\r\n"
        return junk + f"{line}:c\r\n".encode()

    result, _ = await play(KUHN, 5, lambda ports: [Client(KUHN, ports[0], garbage), normal(ports[1])], tmp_path)
    check_logs(result, 5)
    counts = result.replacements["P1"]
    assert counts["ignored"] == 4 * 5  # the comment line and the blank one are not counted
    assert counts["invalid"] == counts["bad_action"] == counts["timeout"] == 0


async def test_a_1mb_line_is_cut_and_ignored(tmp_path: Path) -> None:
    sent_big: list[bool] = []

    def big(line: str, my_turn: bool, client: Client) -> bytes:
        if not my_turn:
            return b""
        if not sent_big:
            sent_big.append(True)
            return b"x" * (1 << 20) + b"\r\n" + f"{line}:c\r\n".encode()
        return f"{line}:c\r\n".encode()

    result, _ = await play(KUHN, 3, lambda ports: [Client(KUHN, ports[0], big), normal(ports[1])], tmp_path)
    records = check_logs(result, 3)
    # cut in 4095-byte lines as the reference cuts them; every MAX_IGNORED_LINES of them in a row
    # count as one invalid reply (played as call), so the garbage costs the match a bounded time
    ignored, invalid = result.replacements["P1"]["ignored"], result.replacements["P1"]["invalid"]
    assert ignored >= MAX_IGNORED_LINES and invalid == ignored // MAX_IGNORED_LINES
    assert len(records[0]["events"]) <= 20 + 1  # warnings per seat and hand are capped in the record (+ the call played)


async def test_wrong_version_gets_an_error_line_and_the_seat_is_played_for(tmp_path: Path) -> None:
    bad = Client(KUHN, 0, call_policy, version=b"HELLO\r\n")

    def clients(ports: list[int]) -> list[Client]:
        bad.port = ports[0]
        return [bad, normal(ports[1])]

    result, _ = await play(KUHN, 3, clients, tmp_path, start_timeout_ms=300)
    check_logs(result, 3)
    assert bad.received and bad.received[0].startswith("# ERROR: invalid version string")
    counts = result.replacements["P1"]
    assert counts["rejected"] == 0 and counts["disconnect"] == 3  # refused at the door: the seat never had it


async def test_replies_out_of_turn_wait_and_are_ignored(tmp_path: Path) -> None:
    def always(line: str, my_turn: bool, client: Client) -> bytes:
        return f"{line}:c\r\n".encode()  # e13: answers every state, its turn or not

    result, _ = await play(KUHN, 6, lambda ports: [Client(KUHN, ports[0], always), normal(ports[1])], tmp_path)
    check_logs(result, 6)
    assert result.replacements["P1"]["ignored"] > 0
    assert result.replacements["P1"]["invalid"] == 0


async def test_illegal_actions_become_calls(tmp_path: Path) -> None:
    def fold_or_junk(line: str, my_turn: bool, client: Client) -> bytes:
        return f"{line}:{'f' if line.split(':')[2] in '02468' else 'x'}\r\n".encode() if my_turn else b""

    result, _ = await play(KUHN, 4, lambda ports: [Client(KUHN, ports[0], fold_or_junk), normal(ports[1])], tmp_path)
    records = check_logs(result, 4)
    assert result.replacements["P1"]["invalid"] == 4  # fold when check is possible, unknown letter
    assert all(r["betting"] == "cc" for r in records[:-1])


# ------------------------------------------------------------------ server behaviour


async def test_second_connection_to_a_seat_is_refused(tmp_path: Path) -> None:
    server = MatchServer(KUHN, "m", 2, 1, ["a", "b"], DealerOptions(log_dir=tmp_path))
    ports = await server.start()
    first = Client(KUHN, ports[0], call_policy)
    await first.connect()
    await asyncio.sleep(0.05)
    with pytest.raises(ConnectionRefusedError):  # the seat is taken: its listener is closed, as the reference does
        await asyncio.open_connection("127.0.0.1", ports[0])
    tasks = [asyncio.create_task(first.run()), asyncio.create_task(Client(KUHN, ports[1], call_policy).run())]
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.gather(*tasks)
    check_logs(result, 2)


async def test_abort_mode_stops_at_the_first_timeout_but_writes_the_score(tmp_path: Path) -> None:
    async def silent_from_hand_2(line: str, my_turn: bool, client: Client) -> bytes:
        return b"" if line.split(":")[2] == "2" else call_policy(line, my_turn, client)

    result, _ = await play(KUHN, 10, lambda ports: [Client(KUHN, ports[0], silent_from_hand_2), normal(ports[1])],
                           tmp_path, t_response_ms=50, on_timeout="abort")
    assert result.aborted and result.hands_played == 2 and "ran out of time" in (result.reason or "")
    assert result.log_path is not None
    lines = result.log_path.read_text().splitlines()
    assert [line.split(":")[0] for line in lines[4:]] == ["STATE", "STATE", "SCORE"]
    assert verify_log(result.log_path, partial=True).ok


async def test_request_stop_finishes_the_current_hand_and_scores(tmp_path: Path) -> None:
    server = MatchServer(KUHN, "m", 100_000, 1, ["a", "b"], DealerOptions(log_dir=tmp_path))
    ports = await server.start()
    tasks = [asyncio.create_task(Client(KUHN, p, call_policy).run()) for p in ports]
    asyncio.get_running_loop().call_later(0.3, server.request_stop)
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.gather(*tasks)
    assert result.aborted and 0 < result.hands_played < 100_000
    assert verify_log(result.log_path, partial=True).ok  # type: ignore[arg-type]


async def test_no_clients_and_a_start_timeout_still_plays_and_scores(tmp_path: Path) -> None:
    server = MatchServer(KUHN, "m", 50, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, start_timeout_ms=50))
    await server.start()
    result = await asyncio.wait_for(server.run(), LIMIT)
    check_logs(result, 50)
    assert result.replacements["a"]["disconnect"] > 0


async def test_on_hand_callback_and_no_log_files(tmp_path: Path) -> None:
    seen: list[int] = []
    server = MatchServer(KUHN, "m", 3, 1, ["a", "b"], DealerOptions(), on_hand=lambda r: seen.append(r.hand))
    ports = await server.start()
    tasks = [asyncio.create_task(Client(KUHN, p, call_policy).run()) for p in ports]
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.gather(*tasks)
    assert seen == [0, 1, 2] and result.log_path is None and result.jsonl_path is None


async def test_three_players_rotate_and_verify(tmp_path: Path) -> None:
    game = get_game("kuhn3p")
    result, _ = await play(game, 9, lambda ports: [Client(game, p, raise_policy) for p in ports], tmp_path,
                           names=("a", "b", "c"))
    check_logs(result, 9)


async def test_a_port_in_use_is_a_user_error(tmp_path: Path) -> None:
    first = MatchServer(KUHN, "m1", 1, 1, ["a", "b"], DealerOptions())
    ports = await first.start()
    second = MatchServer(KUHN, "m2", 1, 1, ["a", "b"], DealerOptions(ports=[ports[0], 0]))
    with pytest.raises(ShowdownError, match=f"cannot listen on 127.0.0.1 port {ports[0]}"):
        await second.start()
    first.request_stop()
    await first.run()


def test_bad_arguments_are_user_errors() -> None:
    with pytest.raises(ShowdownError, match="needs 2 players"):
        MatchServer(KUHN, "m", 1, 1, ["a"], DealerOptions())
    with pytest.raises(ShowdownError, match="bad player name"):
        MatchServer(KUHN, "m", 1, 1, ["a", "b:c"], DealerOptions())
    with pytest.raises(ShowdownError, match="on_timeout"):
        MatchServer(KUHN, "m", 1, 1, ["a", "b"], DealerOptions(on_timeout="explode"))
    with pytest.raises(ShowdownError, match="names must all differ"):
        MatchServer(KUHN, "m", 1, 1, ["a", "a"], DealerOptions())
    with pytest.raises(ShowdownError, match="match name"):
        MatchServer(KUHN, "a b", 1, 1, ["a", "b"], DealerOptions())


async def test_a_client_that_stops_reading_is_disconnected(tmp_path: Path) -> None:
    async def slow(line: str, my_turn: bool, client: Client) -> bytes:
        await asyncio.sleep(0.005)
        return call_policy(line, my_turn, client)

    server = MatchServer(KUHN, "m", 100, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, reconnect_ms=100))
    ports = await server.start()
    tasks = [asyncio.create_task(Client(KUHN, p, slow).run()) for p in ports]
    while server.engine.hands_played < 1:
        await asyncio.sleep(0.01)
    conn = server._conns[1]
    assert conn is not None
    conn.pause_writing()  # what asyncio calls when more than 1 MB waits for the client
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.gather(*tasks)
    check_logs(result, 100)
    assert result.replacements["b"]["connection_lost"] == 1 and result.replacements["b"]["disconnect"] > 0


# ------------------------------------------------------------------ busy-waiting for replies


class _Conn:
    """Just enough of a seat connection for ``BusyWait``: a transport that knows its socket."""

    def __init__(self, sock: Any) -> None:
        self.poller = None
        self.fd = -1
        self.transport = self
        self._sock = sock

    def get_extra_info(self, name: str) -> Any:
        return self._sock

    def is_closing(self) -> bool:
        return False


@pytest.fixture
def sockets() -> Iterator[tuple[socket.socket, socket.socket]]:
    """Our end and the agent's end of a connection, a reply already on its way to ours."""
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.send(b"MATCHSTATE:0:0::Ks|:c\r\n")
        yield ours, theirs


def test_busy_wait_returns_once_the_reply_is_there_and_gives_up_on_slow_seats(sockets: tuple[socket.socket, socket.socket]) -> None:
    ours, theirs = sockets
    wait = BusyWait(budget_us=2_000, yield_to_load=False)
    conn = _Conn(ours)
    assert wait.wait(conn)  # type: ignore[arg-type]
    assert wait.hits == 1 and wait.misses == 0
    ours.recv(100)
    for _ in range(BusyWait.MISSES):  # nothing comes: each window is a miss, then it pauses
        assert not wait.wait(conn)  # type: ignore[arg-type]
    assert wait.paused == BusyWait.PAUSE and wait.misses == 0
    theirs.send(b"x\n")
    assert not wait.wait(conn)  # type: ignore[arg-type]  # paused: no polling, no hit counted
    assert wait.hits == 1 and wait.paused == BusyWait.PAUSE - 1


def test_busy_wait_takes_the_reply_itself_from_a_non_blocking_socket_only(sockets: tuple[socket.socket, socket.socket]) -> None:
    ours, theirs = sockets
    wait = BusyWait(budget_us=2_000, yield_to_load=False)
    conn = _Conn(ours)
    assert wait.take(conn) is None  # type: ignore[arg-type]  # a blocking socket is never read here
    assert conn.fd == -1
    ours.recv(100)

    ours.setblocking(False)
    conn = _Conn(ours)
    theirs.send(b"MATCHSTATE:0:0::Ks|:c\r\nMATCH")
    assert wait.take(conn) == b"MATCHSTATE:0:0::Ks|:c\r\nMATCH"  # type: ignore[arg-type]  # as sent
    assert wait.take(conn) is None  # type: ignore[arg-type]  # nothing more within the budget
    theirs.close()
    assert wait.take(conn) is None  # type: ignore[arg-type]  # the end is left to the event loop
    assert ours.recv(10) == b""


@pytest.mark.skipif(not os.path.exists(BusyWait.RUN_QUEUE), reason="the run queue is read from Linux's /proc/loadavg")
def test_busy_wait_leaves_the_cores_to_others_when_every_core_is_wanted(sockets: tuple[socket.socket, socket.socket]) -> None:
    """With more processes ready to run than CPUs, the dealer does not poll, even with a reply there."""
    ours, _ = sockets
    cpus = BusyWait._cpu_count()
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(cpus + 1)]
    try:
        time.sleep(0.3)
        wait = BusyWait(budget_us=2_000)
        assert not wait.wait(_Conn(ours))  # type: ignore[arg-type]
        assert wait.yielded == 1 and wait.hits == 0
        assert BusyWait(budget_us=2_000, yield_to_load=False).wait(_Conn(ours))  # type: ignore[arg-type]
    finally:
        for proc in spinners:
            proc.kill()
            proc.wait()


@pytest.mark.skipif(not BusyWait.useful(), reason="busy-waiting needs two CPUs")
async def test_replies_of_agent_processes_are_read_directly_and_the_logs_are_the_same(tmp_path: Path) -> None:
    """Agents in their own processes answer while the dealer polls: their replies are read and
    answered without the event loop, and the match is the one played with no polling at all."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    game = get_game("holdem-nolimit")
    logs, taken = [], []
    for spin in (0, 5_000):  # a generous window: even a loaded machine answers within it
        server = MatchServer(game, "m", 300, 5, ("a", "b"), DealerOptions(log_dir=tmp_path / str(spin), spin_us=spin))
        if server._busy_wait is not None:  # the direct reads are what is tested, on a machine however busy
            server._busy_wait.yield_to_load = False
        ports = await server.start()
        agents = [
            await asyncio.create_subprocess_exec(
                sys.executable, "-m", "showdown", "agent", "random", "--game", "holdem-nolimit", "--seed", str(k),
                "127.0.0.1", str(port), env=env,
            )
            for k, port in enumerate(ports)
        ]
        result = await asyncio.wait_for(server.run(), 60)
        for a in agents:
            await asyncio.wait_for(a.wait(), 30)
        check_logs(result, 300)
        assert result.log_path is not None
        logs.append([line for line in result.log_path.read_text().splitlines() if line.startswith(("STATE", "SCORE"))])
        taken.append(server._busy_wait.taken if server._busy_wait is not None else 0)
    assert logs[0] == logs[1]
    assert taken[0] == 0 and taken[1] > 0


async def test_busy_waiting_changes_nothing_in_the_logs(tmp_path: Path) -> None:
    logs = []
    for spin in (0, 200):
        result, _ = await play(KUHN, 30, lambda ports: [normal(p) for p in ports], tmp_path / str(spin), spin_us=spin)
        check_logs(result, 30)
        assert result.log_path is not None
        logs.append([line for line in result.log_path.read_text().splitlines() if line.startswith(("STATE", "SCORE"))])
    assert logs[0] == logs[1]


async def test_a_last_answer_without_its_line_end_before_the_bot_closes_its_side_is_played(tmp_path: Path) -> None:
    # the reference's reader returns the bytes before the end of input as a line; ours dropped them
    # and played check/fold for the seat as a lost connection
    async def raise_then_close(line: str, my_turn: bool, client: Client) -> bytes:
        if not my_turn:
            return b""
        assert client.writer is not None
        client.writer.write(f"{line}:r".encode())  # no line end
        client.writer.write_eof()
        return b""

    result, _ = await play(KUHN, 1, lambda ports: [Client(KUHN, ports[0], raise_then_close), normal(ports[1])], tmp_path)
    records = check_logs(result, 1)
    assert records[0]["betting"] == "rc"
    assert result.replacements["P1"]["disconnect"] == 0 and result.replacements["P1"]["bad_action"] == 0

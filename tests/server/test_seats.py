"""No one takes a seat that is not theirs: tokens, listeners that close, squatters and floods."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.games.catalog import get_game
from showdown.server.tcp import DealerOptions, MatchServer
from tests.server.clients import Client, call_policy
from tests.server.test_tcp import LIMIT, check_logs

KUHN = get_game("kuhn")
ROOT = Path(__file__).resolve().parents[2]
TOKENS = ("a" * 32, "b" * 32)


def with_token(port: int, token: str) -> Client:
    return Client(KUHN, port, call_policy, version=f"VERSION:2.0.0 token={token}\r\n".encode())


async def refused_line(port: int, first: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(first)
    line = await asyncio.wait_for(reader.readline(), 5)
    writer.close()
    return line


async def test_a_client_without_the_seat_token_is_refused_and_the_match_is_undisturbed(tmp_path: Path) -> None:
    server = MatchServer(KUHN, "m", 20, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, tokens=TOKENS))
    ports = await server.start()
    assert (await refused_line(ports[0], b"VERSION:2.0.0\r\n")).startswith(b"# ERROR: no seat token")
    assert (await refused_line(ports[0], b"VERSION:2.0.0 token=" + b"x" * 32 + b"\r\n")).startswith(b"# ERROR: wrong seat token")
    clients = [with_token(ports[0], TOKENS[0]), with_token(ports[1], TOKENS[1])]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.gather(*tasks)
    check_logs(result, 20)
    assert server.refused == [2, 0]  # strangers, not counted against the seat's agent
    assert sum(result.replacements["a"].values()) == 0 and sum(result.replacements["b"].values()) == 0
    assert "wrong seat token" in server.refusals[0][-1]


@pytest.mark.parametrize("token", ["\u00e9t\u00e9".encode(), b"\xff\xfe\x00", "a" * 31 + "\u00e9"])
async def test_a_token_beyond_ascii_is_a_wrong_token_not_a_transport_crash(tmp_path: Path, token: bytes | str) -> None:
    """Any client may send one: compare_digest refused the str ('comparing strings with non-ASCII
    characters is not supported'), and asyncio printed 'Fatal error on transport' with a traceback."""
    raw = token if isinstance(token, bytes) else token.encode()
    server = MatchServer(KUHN, "m", 10, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, tokens=TOKENS))
    ports = await server.start()
    assert (await refused_line(ports[0], b"VERSION:2.0.0 token=" + raw + b"\r\n")).startswith(b"# ERROR: wrong seat token")
    clients = [with_token(ports[0], TOKENS[0]), with_token(ports[1], TOKENS[1])]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.gather(*tasks)
    check_logs(result, 10)
    assert server.refused == [1, 0] and "wrong seat token" in server.refusals[0][-1]


async def test_an_idle_squatter_cannot_block_the_start(tmp_path: Path) -> None:
    server = MatchServer(KUHN, "m", 10, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, first_line_ms=300))
    ports = await server.start()
    squatters = [await asyncio.open_connection("127.0.0.1", ports[0]) for _ in range(3)]  # connect, say nothing
    clients = [Client(KUHN, ports[0], call_policy), Client(KUHN, ports[1], call_policy)]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.gather(*tasks)
    check_logs(result, 10)
    for reader, writer in squatters:  # each was closed, the seat went to the real client
        assert await asyncio.wait_for(reader.read(), 5) in (b"", b"# ERROR: seat 1 is already connected\r\n",
                                                            b"# ERROR: no VERSION line in time\r\n")
        writer.close()


async def test_a_client_that_connects_and_never_sends_version_is_named_for_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # it was only "not connected" in the summary, as if nothing had ever come to the port
    server = MatchServer(KUHN, "m", 10, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, first_line_ms=300, start_timeout_ms=2_000))
    ports = await server.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", ports[0])  # connects, says nothing
    client = Client(KUHN, ports[1], call_policy)
    task = asyncio.create_task(client.run())
    result = await asyncio.wait_for(server.run(), LIMIT)
    await task
    check_logs(result, 10)
    assert await asyncio.wait_for(reader.read(), 5) == b"# ERROR: no VERSION line in time\r\n"
    writer.close()
    why = "it sent no VERSION line within 300 ms (a client's first line is 'VERSION:2.0.0')"
    assert server.refused == [1, 0] and server.refusals[0] == [why]
    assert f"WARNING: a connection to the port of seat 1 (a) was refused: {why}" in capsys.readouterr().err


async def test_a_dead_agent_s_seat_cannot_be_taken_over_without_its_token(tmp_path: Path) -> None:
    server = MatchServer(KUHN, "m", 400, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, tokens=TOKENS, reconnect_ms=3_000))
    ports = await server.start()

    async def quit_at_hand_5(line: str, my_turn: bool, client: Client) -> bytes:
        if line.split(":")[2] == "5":
            await client.close()
            return b""
        return call_policy(line, my_turn, client)

    dying = Client(KUHN, ports[0], quit_at_hand_5, version=f"VERSION:2.0.0 token={TOKENS[0]}\r\n".encode())
    tasks = [asyncio.create_task(dying.run()), asyncio.create_task(with_token(ports[1], TOKENS[1]).run())]
    await asyncio.wait_for(tasks[0], LIMIT)
    await asyncio.sleep(0.1)  # the seat's port listens again, for its holder only
    intruder = await refused_line(ports[0], b"VERSION:2.0.0\r\n")
    assert intruder.startswith(b"# ERROR: no seat token")
    back = with_token(ports[0], TOKENS[0])  # the real agent comes back with its token
    tasks.append(asyncio.create_task(back.run()))
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.gather(*tasks)
    check_logs(result, 400)
    assert back.received  # it played again


async def test_a_connect_flood_is_bounded_and_the_match_finishes(tmp_path: Path) -> None:
    server = MatchServer(KUHN, "m", 200, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, first_line_ms=500, max_pending=8))
    ports = await server.start()
    flood = []
    for _ in range(100):
        try:
            flood.append(await asyncio.open_connection("127.0.0.1", ports[0]))
        except OSError:
            pass
    clients = [Client(KUHN, ports[0], call_policy), Client(KUHN, ports[1], call_policy)]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.gather(*tasks)
    check_logs(result, 200)
    for _, writer in flood:
        writer.close()


def _ipv6() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return socket.has_dualstack_ipv6()


@pytest.mark.skipif(not _ipv6(), reason="no IPv6 here")
async def test_listening_on_every_ipv6_address_takes_ipv4_clients_too(tmp_path: Path) -> None:
    # --host :: listened on IPv6 alone: every IPv4 bot (the reference's example_player) was refused
    server = MatchServer(KUHN, "m", 10, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, host="::", tokens=TOKENS))
    ports = await server.start()
    clients = [with_token(ports[0], TOKENS[0]), with_token(ports[1], TOKENS[1])]  # over 127.0.0.1
    tasks = [asyncio.create_task(c.run()) for c in clients]
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.gather(*tasks)
    check_logs(result, 10)
    assert sum(result.replacements["a"].values()) == 0 and sum(result.replacements["b"].values()) == 0


def dealer(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "showdown", "dealer", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_dealer_tokens_are_printed_and_written_for_the_owner_only(tmp_path: Path) -> None:
    proc = dealer("m", "kuhn", "5", "1", "a", "b", "-l", "--tokens", "--tokens-file", str(tmp_path / "t"), "--start_timeout", "200")
    assert proc.stdout is not None
    ports = proc.stdout.readline().split()
    tokens = proc.stdout.readline().split()
    proc.communicate(timeout=30)
    assert len(ports) == 2 and len(tokens) == 2 and all(len(t) == 32 for t in tokens)
    assert (tmp_path / "t").read_text().split() == tokens
    assert (tmp_path / "t").stat().st_mode & 0o777 == 0o600


def test_dealer_counts_every_refused_connection_past_the_few_it_shows(tmp_path: Path) -> None:
    # after 5 refusal warnings the rest went unsaid, and no total was ever given
    proc = dealer("m", "kuhn", "5", "1", "a", "b", "-l", "--tokens", "--start_timeout", "1500")
    assert proc.stdout is not None
    ports = [int(p) for p in proc.stdout.readline().split()]
    for _ in range(8):
        with socket.create_connection(("127.0.0.1", ports[0])) as s:
            s.sendall(b"VERSION:2.0.0\r\n")  # no token
            s.recv(100)
    _, err = proc.communicate(timeout=30)
    assert err.count("was refused: no seat token") == 5
    assert "WARNING: more connections refused at the seat ports are counted in the summary at the end" in err
    assert "# connections refused at the seat ports, not counted against the seats: seat 1 (a): 8\n" in err


def test_listening_beyond_loopback_needs_tokens_or_an_explicit_no(tmp_path: Path) -> None:
    proc = dealer("m", "kuhn", "5", "1", "a", "b", "-l", "--host", "0.0.0.0", "--start_timeout", "200")
    out, _ = proc.communicate(timeout=30)
    assert len(out.splitlines()[1].split()) == 2  # tokens were made and printed
    proc = dealer("m", "kuhn", "5", "1", "a", "b", "-l", "--host", "0.0.0.0", "--no-tokens", "--start_timeout", "200")
    out, err = proc.communicate(timeout=30)
    assert "without seat tokens" in err
    proc = dealer("m", "kuhn", "5", "1", "a", "b", "--host", "[::1]", "--no-tokens")
    _, err = proc.communicate(timeout=30)  # was: the warning, then the error saying it cannot listen there
    assert "without seat tokens" not in err and "cannot listen on host '[::1]'" in err


async def test_the_seat_holder_reconnecting_at_once_is_taken_back(tmp_path: Path) -> None:
    """A bot that opens a new connection with its token, before (or just after) closing its old one,
    and never retries, is accepted back at once and plays on (issue 31): the port of a seat with a
    token keeps listening, and the new connection takes the seat over."""
    server = MatchServer(KUHN, "m", 200, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, tokens=TOKENS, reconnect_ms=3_000))
    ports = await server.start()
    back = with_token(ports[0], TOKENS[0])
    reconnected: list[asyncio.Task[list[str]]] = []

    async def reconnect_at_hand_5(line: str, my_turn: bool, client: Client) -> bytes:
        if line.split(":")[2] == "5" and not reconnected:
            await back.connect()  # once, no retry: a refusal here fails the test
            reconnected.append(asyncio.create_task(back.run()))
            await client.close()
            return b""
        return call_policy(line, my_turn, client)

    first = Client(KUHN, ports[0], reconnect_at_hand_5, version=f"VERSION:2.0.0 token={TOKENS[0]}\r\n".encode())
    tasks = [asyncio.create_task(first.run()), asyncio.create_task(with_token(ports[1], TOKENS[1]).run())]
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.gather(*tasks, *reconnected)
    check_logs(result, 200)
    assert reconnected and sum(1 for line in back.received if line.startswith("MATCHSTATE:")) > 300
    assert server.replaced_hands[0] <= 1 and server.refused == [0, 0]


@pytest.mark.parametrize("sent", [b"VERSION:2.0.0\r", b"VERSION:2.0.0"])
async def test_a_version_line_with_no_line_end_is_quoted_in_its_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sent: bytes
) -> None:
    # a bash bot ending its lines with '\r' alone (or none) was told only 'it sent no VERSION line', as silence is
    server = MatchServer(KUHN, "m", 10, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, first_line_ms=300, start_timeout_ms=2_000))
    ports = await server.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", ports[0])
    writer.write(sent)
    client = Client(KUHN, ports[1], call_policy)
    task = asyncio.create_task(client.run())
    result = await asyncio.wait_for(server.run(), LIMIT)
    await task
    check_logs(result, 10)
    writer.close()
    why = (f"it sent no VERSION line within 300 ms (a client's first line is 'VERSION:2.0.0'); it had sent "
           f"{sent.decode()!r} with no line end: a line ends with '\\n' (or '\\r\\n')")
    assert server.refused == [1, 0] and server.refusals[0] == [why]
    assert f"WARNING: a connection to the port of seat 1 (a) was refused: {why}" in capsys.readouterr().err


async def test_a_tls_handshake_sent_to_a_seat_port_is_named_in_its_refusal(tmp_path: Path) -> None:
    # a TLS ClientHello (no line end; the client waits for the server's) was quoted as 80 bytes of mojibake
    # and it was refused only when the first line's time was up: now at once (the timer is 30 s here)
    server = MatchServer(KUHN, "m", 10, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, first_line_ms=30_000, start_timeout_ms=2_000))
    ports = await server.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", ports[0])
    writer.write(bytes.fromhex("16030100c4010000c00303") + bytes(100))
    said = await asyncio.wait_for(reader.readline(), 5)
    assert said.startswith(b"# ERROR: its first bytes are no VERSION line") and b"TLS handshake" in said
    task = asyncio.create_task(Client(KUHN, ports[1], call_policy).run())
    await asyncio.wait_for(server.run(), LIMIT)
    await task
    writer.close()
    assert server.refused == [1, 0] and server.refusals[0][0].endswith(
        "; that is a TLS handshake: a seat port speaks the ACPC protocol in plain text over TCP; connect without TLS")


@pytest.mark.parametrize(("sent", "what"), [
    (bytes.fromhex("16030100c4010000c00303") + b"\n", "that is a TLS handshake: a seat port speaks the ACPC protocol in plain "
                                                      "text over TCP; connect without TLS"),
    (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "that is an HTTP request: a seat port speaks the ACPC protocol over plain TCP, not HTTP"),
])
async def test_a_tls_or_http_client_at_a_port_that_wants_a_token_is_named_in_its_refusal(
    tmp_path: Path, sent: bytes, what: str
) -> None:
    server = MatchServer(KUHN, "m", 4, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, first_line_ms=30_000, start_timeout_ms=1_000,
                                                                    tokens=TOKENS))
    ports = await server.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", ports[0])
    writer.write(sent)
    said = await asyncio.wait_for(reader.readline(), 5)
    assert said.startswith(b"# ERROR: no seat token")
    task = asyncio.create_task(with_token(ports[1], TOKENS[1]).run())
    await asyncio.wait_for(server.run(), LIMIT)
    await task
    writer.close()
    assert server.refusals[0][0] == f"no seat token (send 'VERSION:2.0.0 token=SECRET' as the first line); {what}"


async def test_a_seat_token_in_a_version_line_with_no_end_is_not_quoted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the refusal quoted 'VERSION:2.0.0 token=<the seat's secret>\r' on the terminal
    server = MatchServer(KUHN, "m", 10, 1, ["a", "b"], DealerOptions(log_dir=tmp_path, first_line_ms=300, start_timeout_ms=2_000,
                                                                     tokens=TOKENS))
    ports = await server.start()
    reader, writer = await asyncio.open_connection("127.0.0.1", ports[0])
    writer.write(f"VERSION:2.0.0 token={TOKENS[0]}\r".encode())
    task = asyncio.create_task(with_token(ports[1], TOKENS[1]).run())
    await asyncio.wait_for(server.run(), LIMIT)
    await task
    writer.close()
    assert "it had sent 'VERSION:2.0.0 token=...\\r' with no line end" in server.refusals[0][0]
    assert TOKENS[0] not in capsys.readouterr().err


async def test_an_http_request_before_the_agent_connects_is_refused_at_the_port_not_counted_against_the_seat(tmp_path: Path) -> None:
    # it took the free seat, was rejected by the engine as the seat's own bad VERSION line ("rejected": 1
    # in the agent's counts) and left the seat away, as if its agent had connected and failed
    server = MatchServer(KUHN, "m", 10, 1, ["a", "b"], DealerOptions(log_dir=tmp_path))
    ports = await server.start()
    said = await refused_line(ports[0], b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    assert said.startswith(b"# ERROR: invalid version string 'GET / HTTP/1.1': that is an HTTP request")
    clients = [Client(KUHN, ports[0], call_policy), Client(KUHN, ports[1], call_policy)]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.gather(*tasks)
    check_logs(result, 10)
    assert server.refused == [1, 0] and "that is an HTTP request" in server.refusals[0][0]
    assert sum(result.replacements["a"].values()) == 0


async def test_a_bot_that_loads_before_it_sends_version_is_seated(tmp_path: Path) -> None:
    # a VERSION line 2 s after the connection was refused ("no VERSION line in time") and the dealer
    # then waited for the seat for ever; the reference waits for the VERSION line as long as it takes
    server = MatchServer(KUHN, "m", 10, 1, ["a", "b"], DealerOptions(log_dir=tmp_path))
    ports = await server.start()
    assert server._doors.first_line_ms == 600_000  # as long as an answer may take (the reference's 10 minutes)
    longer_start = MatchServer(KUHN, "m", 10, 1, ["a", "b"], DealerOptions(t_response_ms=10_000, start_timeout_ms=40_000))
    assert longer_start._doors.first_line_ms == 40_000  # or the seats' time to connect, when that is longer
    slow = Client(KUHN, ports[0], call_policy, version=b"")
    await slow.connect()  # connects, says nothing yet
    other = asyncio.create_task(Client(KUHN, ports[1], call_policy).run())
    await asyncio.sleep(2.5)  # loading its strategy
    assert slow.writer is not None
    slow.writer.write(b"VERSION:2.0.0\r\n")
    await slow.run()
    result = await asyncio.wait_for(server.run(), LIMIT)
    await other
    check_logs(result, 10)
    assert slow.received and sum(result.replacements["a"].values()) == 0

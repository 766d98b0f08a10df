"""The agent client bounds what it reads: a dealer that sends an endless line ends it with one line."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from showdown.agents.baseline import RandomAgent
from showdown.agents.client import MAX_LINE_BYTES, play, play_async
from showdown.errors import ProtocolError
from tests.agents.fake_dealer import one_shot_dealer, play_by

ROOT = Path(__file__).resolve().parents[2]


def flooding_dealer(total: int) -> tuple[int, threading.Thread]:
    """A server that reads the VERSION line, then sends ``total`` bytes with no newline."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            conn.recv(100)
            chunk = b"x" * 65536
            sent = 0
            try:
                while sent < total:
                    conn.sendall(chunk)
                    sent += len(chunk)
            except OSError:
                pass
        server.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    return server.getsockname()[1], thread


def test_play_refuses_a_line_longer_than_the_limit() -> None:
    port, thread = flooding_dealer(20 * MAX_LINE_BYTES)
    with pytest.raises(ProtocolError, match="longer than"):
        play(RandomAgent(seed=1), "127.0.0.1", port, "kuhn")
    thread.join(5)


def test_play_async_refuses_a_line_longer_than_the_limit() -> None:
    port, thread = flooding_dealer(20 * MAX_LINE_BYTES)
    with pytest.raises(ProtocolError, match="longer than"):
        asyncio.run(play_async(RandomAgent(seed=1), "127.0.0.1", port, "kuhn"))
    thread.join(5)


def test_the_agent_process_ends_with_one_line_and_bounded_memory() -> None:
    port, thread = flooding_dealer(200 << 20)  # 200 MB without a newline
    # a wrapper process runs the agent so that its peak memory is the agent's alone
    wrapper = (
        "import resource, subprocess, sys; "
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
        "sys.stderr.write(p.stderr); "
        "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", wrapper, sys.executable, "-m", "showdown", "agent", "random", "--game", "kuhn",
         "127.0.0.1", str(port)],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False,
    )
    returncode, peak_kib = (int(x) for x in proc.stdout.split())
    assert returncode != 0
    assert "longer than" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stderr.strip().count("\n") == 0
    assert peak_kib < 150_000  # far below the 200 MB it was sent
    thread.join(5)


def test_the_client_asks_tcp_to_notice_a_dealer_whose_host_is_gone() -> None:
    """A dealer's host gone without a word (powered off, the network cut) left an agent waiting for the
    next state with nothing in flight, for ever; keep-alive probes now end the wait (about 2 minutes)."""
    from showdown.agents.client import KEEPALIVE_IDLE_S, connect

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    with server, connect("127.0.0.1", server.getsockname()[1]) as sock:
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        if hasattr(socket, "TCP_KEEPIDLE"):
            assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == KEEPALIVE_IDLE_S


class _GoneHost:
    """A connected socket whose host then vanished: what recv raises once the keep-alive probes fail."""

    def sendall(self, data: bytes) -> None:
        pass

    def recv(self, size: int) -> bytes:
        raise TimeoutError(110, "Connection timed out")

    def settimeout(self, seconds: float | None) -> None:
        pass

    def close(self) -> None:
        pass


def test_a_dealer_lost_to_a_timeout_is_one_line_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    from showdown.agents import client
    from showdown.errors import ShowdownError

    monkeypatch.setattr(client, "connect", lambda host, port: _GoneHost())
    with pytest.raises(ShowdownError, match=r"lost the dealer at h:1: Connection timed out \(its host gone"):
        play(RandomAgent(seed=1), "h", 1, "kuhn")


@pytest.mark.parametrize("driver", ["play", "play_async"])
def test_a_dealer_silent_before_its_first_state_is_said_once(
    driver: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A dealer that accepts the seat and says nothing (waiting for its other seats, or no dealer at all):
    the agent waited without a word, as if hung; after ``WAIT_NOTICE_S`` it says once that it waits."""

    from showdown.agents import client
    from showdown.agents.registry import make_agent
    from showdown.games.catalog import get_game

    monkeypatch.setattr(client, "WAIT_NOTICE_S", 0.2)
    port, thread = one_shot_dealer(b"MATCHSTATE:1:0::|Ks\r\nMATCHSTATE:1:0:cc:Qs|Ks\r\n", delay=0.6)
    result = play_by(driver, make_agent("call", get_game("kuhn")), port)
    thread.join()
    err = capsys.readouterr().err
    assert result.hands == 1
    assert err == f"showdown client: still waiting for the dealer at 127.0.0.1:{port} to start the match after 0.2 s " \
                  "(a dealer starts when every seat has connected; Ctrl-C stops)\n"


@pytest.mark.parametrize("token", ["héllo", "a b", "abc\nMATCHSTATE:0:0::Ks|:r"])
@pytest.mark.parametrize("driver", ["play", "play_async"])
def test_a_seat_token_the_first_line_cannot_carry_is_one_line(driver: str, token: str) -> None:
    """A token beyond ASCII was a UnicodeEncodeError traceback; one with a line end sent a second line."""
    from showdown.errors import ConfigError

    with pytest.raises(ConfigError, match="the seat token .* has a space, a line end or a character beyond ASCII"):
        if driver == "play":
            play(RandomAgent(seed=1), "127.0.0.1", 1, "kuhn", token=token)
        else:
            asyncio.run(play_async(RandomAgent(seed=1), "127.0.0.1", 1, "kuhn", token=token))


@pytest.mark.parametrize(("game_name", "line", "says"), [
    ("kuhn", b"MATCHSTATE:0:0::Ks||", "'MATCHSTATE:0:0::Ks||' has 3 players' cards but kuhn has 2 players: is the game right?"),
    ("holdem-limit-3p", b"MATCHSTATE:0:0::8s2h|", "has 2 players' cards but holdem-limit-3p has 3 players: is the game right?"),
    ("leduc", b"MATCHSTATE:0:0::8s2h|", "a seat's hole cards are 1 (or hidden): is the game right?"),
])
@pytest.mark.parametrize("driver", ["play", "play_async"])
def test_another_games_first_state_ends_the_agent_at_once(driver: str, game_name: str, line: bytes, says: str) -> None:
    """The reference dealer of another game: the agent warned of every line and sat out the dealer's time
    limit (10 minutes by default) before it ended, with status 0; now its first state ends it, in one line."""
    from showdown.agents.registry import make_agent
    from showdown.errors import ShowdownError
    from showdown.games.catalog import get_game

    server = socket.create_server(("127.0.0.1", 0))
    closed: list[bytes] = []

    def dealer() -> None:
        conn, _ = server.accept()
        conn.recv(100)  # VERSION
        conn.sendall(line + b"\r\n")
        conn.settimeout(5)
        try:
            closed.append(conn.recv(100))  # b'': the agent hung up without waiting for the dealer
        except TimeoutError:
            closed.append(b"(still waiting)")
        conn.close()
        server.close()

    thread = threading.Thread(target=dealer)
    thread.start()
    agent = make_agent("random", get_game(game_name))
    port = server.getsockname()[1]
    with pytest.raises(ShowdownError, match="the dealer's first state cannot be read as") as caught:
        if driver == "play":
            play(agent, "127.0.0.1", port, game_name)
        else:
            asyncio.run(play_async(agent, "127.0.0.1", port, game_name))
    thread.join()
    assert closed == [b""] and says in str(caught.value) and str(caught.value).count("game right?") == 1


def test_a_broken_state_among_lines_read_together_is_no_traceback() -> None:
    """'MATCHSTATE:0' between two states of one read: ``latest`` looked for its hand number, an IndexError
    traceback that ended the agent; it is passed over (the last state is answered)."""
    from showdown.agents.client import ClientSession
    from showdown.games.catalog import get_game

    game = get_game("kuhn")
    session = ClientSession(RandomAgent(game, seed=1), game)
    batch = ["MATCHSTATE:0:0::Kc|", "MATCHSTATE:0", "MATCHSTATE:0:0:", "MATCHSTATE:1:1::|Kc"]
    assert session.latest(batch) == batch[3:]

"""The view's JSON API without a browser: bad query parameters are one line naming the parameter."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import NamedTuple

import pytest

pytest.importorskip("aiohttp")

from showdown.api import run_match  # noqa: E402
from showdown.view.catalog import ViewError  # noqa: E402
from showdown.view.server import ViewApp  # noqa: E402


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> tuple[ViewApp, str]:
    out = tmp_path_factory.mktemp("m")
    run_match("kuhn", ["rules", "random"], hands=60, seed=3, out=out)
    view = ViewApp([out])
    (key,) = view.catalog().matches
    return view, key


@pytest.mark.parametrize("query, said", [
    ({"start": "-5"}, "start='-5': expected a whole number"),  # was a 500: 'OSError: [Errno 22] Invalid argument' (seek)
    ({"start": "9" * 30}, "start='" + "9" * 30 + "': expected a whole number"),  # 'cannot fit 'int' into an offset-sized integer'
    ({"position": "abc"}, "position='abc': expected a whole number"),  # "invalid literal for int() with base 10: 'abc'"
    ({"limit": "1e3"}, "limit='1e3': expected a whole number"),
    ({"min_won": "nan"}, "min_won='nan': expected a number of chips"),  # nan listed every hand, inf none
    ({"min_won": "x"}, "min_won='x': expected a number of chips"),  # "could not convert string to float: 'x'"
])
def test_a_bad_hand_list_parameter_is_one_line_naming_it(app: tuple[ViewApp, str], query: dict[str, str], said: str) -> None:
    view, key = app
    with pytest.raises(ViewError, match="^" + said.replace("(", r"\(").replace("[", r"\[")):
        view.hands({"key": key, **query})


def test_a_missing_key_or_offset_is_said_as_such(app: tuple[ViewApp, str]) -> None:
    view, key = app
    for handler in (view.match, view.hands, view.tournament):
        with pytest.raises(ViewError, match=r"^no key=: name a match or tournament"):  # was "'key'" (a KeyError)
            handler({})
    with pytest.raises(ViewError, match=r"^no offset=: name a hand by the byte offset"):  # was "'offset'"
        view.hand({"key": key})
    with pytest.raises(ViewError, match=r"^offset='abc': expected a whole number"):
        view.hand({"key": key, "offset": "abc"})


def test_good_parameters_still_list_and_replay(app: tuple[ViewApp, str]) -> None:
    view, key = app
    page = view.hands({"key": key, "start": "0", "limit": "5", "min_won": "1.5", "position": "0"})
    assert 0 < len(page["hands"]) <= 5 and all(h["won"] >= 1.5 for h in page["hands"])
    assert view.hand({"key": key, "offset": str(page["hands"][0]["offset"])})


async def test_a_connection_that_sends_nothing_is_closed_once_idle(app: tuple[ViewApp, str], monkeypatch: pytest.MonkeyPatch) -> None:
    # aiohttp's default kept a silent connection open for an hour (3,630 s): enough of them use up the files
    import asyncio

    from showdown.view import server

    monkeypatch.setattr(server, "IDLE_S", 0.3)
    runner, port = await server.start_server(app[0], "127.0.0.1", 0)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        assert await asyncio.wait_for(reader.read(), 5) == b""  # closed by the server, having sent nothing
        writer.close()
        await _still_serves(port)
    finally:
        await runner.cleanup()


async def _still_serves(port: int) -> None:
    """The server answers a plain request after whatever the test did to it."""
    import asyncio

    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /api/index HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert (await asyncio.wait_for(reader.read(), 5)).startswith(b"HTTP/1.1 200")
    writer.close()


class HeldLive(NamedTuple):
    """A view server in a thread whose live pages hold in their first read of the log until released."""

    port: int
    key: str
    started: threading.Event  # a live page is reading
    release: threading.Event  # lets it end (its read fails, which ends the page)


@pytest.fixture
def held_live(app: tuple[ViewApp, str], monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldLive]:
    from showdown.view.data import LogFollower
    from showdown.view.server import start_view_thread

    held = HeldLive(0, app[1], threading.Event(), threading.Event())

    def slow_poll(self: LogFollower) -> int:
        held.started.set()
        held.release.wait(10)
        raise ViewError("done")  # ends the live page

    monkeypatch.setattr(LogFollower, "poll", slow_poll)
    url, stop = start_view_thread(app[0].paths)
    try:
        yield held._replace(port=int(url.rstrip("/").rpartition(":")[2]))
    finally:
        held.release.set()
        stop()


def test_the_live_page_reads_a_long_log_without_stopping_the_server(held_live: HeldLive) -> None:
    # the live page read the log on the event loop: a 60 MB log held every other request 16 s
    with socket.create_connection(("127.0.0.1", held_live.port), timeout=5) as live:
        live.sendall(f"GET /api/live?key={held_live.key} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        assert held_live.started.wait(5)
        with socket.create_connection(("127.0.0.1", held_live.port), timeout=3) as other:
            other.sendall(b"GET /api/index HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert other.recv(100).startswith(b"HTTP/1.1 200")  # served while the log is read


def test_live_pages_past_the_cap_are_refused_in_one_line(held_live: HeldLive, monkeypatch: pytest.MonkeyPatch) -> None:
    # each live page follows its log from the start: open tabs on a long log added up without bound
    from showdown.view import server

    monkeypatch.setattr(server, "MAX_LIVE_STREAMS", 1)
    request = f"GET /api/live?key={held_live.key} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()

    def ask() -> bytes:
        with socket.create_connection(("127.0.0.1", held_live.port), timeout=5) as s:
            s.sendall(request)
            return b"".join(iter(lambda: s.recv(4096), b""))

    with socket.create_connection(("127.0.0.1", held_live.port), timeout=5) as live:
        live.sendall(request)
        assert held_live.started.wait(5)
        refused = ask()
        assert refused.startswith(b"HTTP/1.1 503") and b"1 live pages are open on this server: close one" in refused
    held_live.release.set()
    for _ in range(50):  # the first stream's end is seen by the server a moment after it closes
        answer = ask()
        if not answer.startswith(b"HTTP/1.1 503"):
            break
    assert answer.startswith(b"HTTP/1.1 200") and b"event: fail" in answer


async def test_a_request_with_a_huge_header_is_one_line_in_the_log(app: tuple[ViewApp, str], caplog: pytest.LogCaptureFixture) -> None:
    # aiohttp's LineTooLong came out as a 10-line traceback on the view's output
    import asyncio

    from showdown.view import server

    runner, port = await server.start_server(app[0], "127.0.0.1", 0)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"a" * 100_000 + b"\r\nConnection: close\r\n\r\n")
        assert (await asyncio.wait_for(reader.read(), 5)).startswith(b"HTTP/1.0 400")
        writer.close()
        said = [r for r in caplog.records if r.name == "aiohttp.server"]
        assert said and all(r.exc_info is None and "\n" not in r.getMessage() for r in said)
        assert "LineTooLong" in said[0].getMessage()
        await _still_serves(port)
    finally:
        await runner.cleanup()


async def test_a_flood_of_unreadable_requests_is_a_few_lines_not_one_each(app: tuple[ViewApp, str], caplog: pytest.LogCaptureFixture,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # 500 requests with a header over 8 KB wrote 500 lines on the view's output
    import asyncio

    from showdown.view import server

    monkeypatch.setattr(server, "_request_errors", [0])
    runner, port = await server.start_server(app[0], "127.0.0.1", 0)
    try:
        for _ in range(server.REQUEST_ERRORS_SHOWN + 7):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"a" * 9000 + b"\r\nConnection: close\r\n\r\n")
            assert (await asyncio.wait_for(reader.read(), 5)).startswith(b"HTTP/1.0 400")
            writer.close()
        said = [r.getMessage() for r in caplog.records if r.name == "aiohttp.server"]
        assert len(said) == server.REQUEST_ERRORS_SHOWN and all("LineTooLong" in line for line in said)
        assert said[-1].endswith("; further unreadable requests are not shown")
        await _still_serves(port)
    finally:
        await runner.cleanup()


async def _get(port: int, host_header: str, path: str = "/api/index", address: str = "127.0.0.1") -> bytes:
    import asyncio

    reader, writer = await asyncio.open_connection(address, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\n\r\n".encode())
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    return answer


async def test_a_request_naming_another_host_is_refused_on_loopback(app: tuple[ViewApp, str]) -> None:
    # DNS rebinding: a page of evil.example whose name was made to point at 127.0.0.1 read every
    # card of every match (/api/index, /api/hands answered any Host)
    from showdown.view import server

    runner, port = await server.start_server(app[0], "127.0.0.1", 0)
    try:
        for path in ("/", "/api/index", f"/api/match?key={app[1]}", "/static/app.js"):
            refused = await _get(port, f"evil.example:{port}", path)
            assert refused.startswith(b"HTTP/1.1 403") and b"is not this machine's loopback address" in refused
        for name in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "LOCALHOST", "app.localhost"):
            assert (await _get(port, name)).startswith(b"HTTP/1.1 200"), name
    finally:
        await runner.cleanup()
    runner, port = await server.start_server(app[0], "0.0.0.0", 0)  # beyond loopback (--public): any name
    try:
        assert (await _get(port, "my-machine.lan")).startswith(b"HTTP/1.1 200")
    finally:
        await runner.cleanup()


async def test_the_address_printed_for_an_ipv6_host_opens_the_view(app: tuple[ViewApp, str]) -> None:
    # --host ::1 printed 'http://::1:PORT/', which no browser or curl opens
    import asyncio
    import urllib.request

    from showdown.view import server

    try:
        runner, port = await server.start_server(app[0], "::1", 0)
    except Exception as exc:  # noqa: BLE001 - a machine without IPv6 loopback
        pytest.skip(f"no ::1 here: {exc}")
    try:
        url = server.view_url("::1", port)
        assert url == f"http://[::1]:{port}/"
        status = await asyncio.get_running_loop().run_in_executor(None, lambda: urllib.request.urlopen(url + "api/index", timeout=5).status)
        assert status == 200
    finally:
        await runner.cleanup()

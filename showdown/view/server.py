"""The view's web server (aiohttp): the page, its JSON API, live updates and the human seat's socket.

One page (``static/index.html`` with ``app.js`` and ``style.css``, shipped in the package: no build
step, no network) reads everything from ``/api/...``:

* ``/api/index``: the matches and tournaments found; ``/api/match?key=K``: a match's summary;
  ``/api/hands?key=K&agent=&position=&showdown=&min_won=&start=&limit=``: a page of hands;
  ``/api/hand?key=K&offset=B``: one hand step by step; ``/api/tournament?key=K``.
* ``/api/live?key=K``: server-sent events, a new summary whenever hands were added to the log.
* ``/api/play/ws?token=T`` (``showdown play`` only): the human seat's WebSocket.

Errors are JSON ``{"error": "one line"}`` with status 404; the page shows the line. The server
listens on 127.0.0.1 unless told otherwise, and there answers only requests naming a loopback host
(DNS rebinding: a page of another site whose name was made to point at 127.0.0.1 could read them).
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import json
import logging
import math
import secrets
from importlib import resources
from pathlib import Path
from typing import Any

from showdown.errors import ConfigError
from showdown.server.admission import same_secret
from showdown.view.catalog import Catalog, MatchFiles, ViewError, discover
from showdown.view.data import LogFollower, match_summary, tournament_summary
from showdown.view.hands import hand_list, hand_replay

LIVE_POLL_S = 0.5
"""How often a live page's log is looked at."""
LIVE_MAX_S = 24 * 3600.0
"""A live stream ends after this long (the page reconnects)."""
MAX_LIVE_STREAMS = 16
"""Live streams served at once: each follows its log from the start (a long log is seconds of CPU), so
many open tabs cannot add up without bound; one more is refused with a line saying so."""


def _aiohttp() -> Any:
    try:
        from aiohttp import web
    except ImportError:
        raise ConfigError("the browser view needs aiohttp: pip install 'showdown-poker[view]'") from None
    return web


def static_text(name: str) -> str:
    """A file of the page, from the package."""
    return resources.files("showdown.view").joinpath("static", name).read_text(encoding="utf-8")


class ViewApp:
    """The application: the paths it shows, and (for ``showdown play``) the human seat."""

    def __init__(self, paths: list[Path], *, seat: Any = None) -> None:
        self.paths = paths
        self.seat = seat  # a play.HumanSeat, or None
        self.play_token = secrets.token_urlsafe(16) if seat is not None else None
        self.live_streams = 0

    def catalog(self) -> Catalog:
        return discover(self.paths) if self.paths else Catalog()

    def build(self, *, loopback_only: bool = True) -> Any:
        """The aiohttp application; ``loopback_only``: requests whose ``Host`` is not a loopback name
        are refused (a server bound beyond loopback with ``--public`` answers any name)."""
        web = _aiohttp()

        @web.middleware  # type: ignore[untyped-decorator]
        async def loopback_host(request: Any, handler: Any) -> Any:
            host = request.headers.get("Host")
            if loopback_only and host is not None and not is_loopback_name(host):
                return web.json_response({"error": f"Host {host[:100]!r} is not this machine's loopback address: "
                                          "open the address showdown printed (http://127.0.0.1:PORT/)"}, status=403)
            return await handler(request)

        app = web.Application(client_max_size=64 * 1024, middlewares=[loopback_host])
        r = app.router
        r.add_get("/", self.page)
        r.add_get("/static/{name}", self.static)
        r.add_get("/api/index", self.api(self.index))
        r.add_get("/api/match", self.api(self.match))
        r.add_get("/api/hands", self.api(self.hands))
        r.add_get("/api/hand", self.api(self.hand))
        r.add_get("/api/tournament", self.api(self.tournament))
        r.add_get("/api/live", self.live)
        r.add_get("/api/play/ws", self.play_socket)
        return app

    # ------------------------------------------------------------------ pages

    async def page(self, request: Any) -> Any:
        web = _aiohttp()
        html = static_text("index.html").replace("__EMBEDDED__", "null")
        return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def static(self, request: Any) -> Any:
        web = _aiohttp()
        name = request.match_info["name"]
        types = {"app.js": "application/javascript", "style.css": "text/css"}
        if name not in types:
            raise web.HTTPNotFound()
        return web.Response(text=static_text(name), content_type=types[name])

    def api(self, handler: Any) -> Any:
        web = _aiohttp()

        async def wrapped(request: Any) -> Any:
            try:
                doc = await asyncio.get_running_loop().run_in_executor(None, handler, dict(request.query))
            except (ViewError, ValueError, KeyError) as exc:
                return web.json_response({"error": _one_line(exc)}, status=404)
            except Exception as exc:  # noqa: BLE001 - a page must never show a traceback
                return web.json_response({"error": f"{type(exc).__name__}: {_one_line(exc)}"}, status=500)
            return web.json_response(doc, dumps=_dumps)

        return wrapped

    # ------------------------------------------------------------------ API

    def index(self, q: dict[str, str]) -> dict[str, Any]:
        c = self.catalog()
        return {
            "matches": [{"key": k, "title": f.title, "folder": f.folder, "finished": f.finished} for k, f in c.matches.items()],
            "tournaments": [{"key": k, "title": k} for k in c.tournaments],
            "play": self.seat is not None,
        }

    def match(self, q: dict[str, str]) -> dict[str, Any]:
        return match_summary(self.catalog().match(_key(q)))

    def hands(self, q: dict[str, str]) -> dict[str, Any]:
        files = self.catalog().match(_key(q))
        showdown = {"yes": True, "no": False}.get(q.get("showdown", ""))
        return hand_list(
            files,
            agent=q.get("agent") or None,
            position=_whole(q, "position", None),
            showdown=showdown,
            min_won=_chips(q, "min_won"),
            start=_whole(q, "start", 0) or 0,
            limit=_whole(q, "limit", 50) or 50,
        )

    def hand(self, q: dict[str, str]) -> dict[str, Any]:
        offset = _whole(q, "offset", None)
        if offset is None:
            raise ViewError("no offset=: name a hand by the byte offset the hand list gives")
        return hand_replay(self.catalog().match(_key(q)), offset)

    def tournament(self, q: dict[str, str]) -> dict[str, Any]:
        c = self.catalog()
        return tournament_summary(c.tournament(_key(q)), c)

    # ------------------------------------------------------------------ live

    async def live(self, request: Any) -> Any:
        """Server-sent events: ``summary`` each time the log grew, ``done`` once the match ended."""
        web = _aiohttp()
        try:
            files = self.catalog().match(_key(dict(request.query)))
        except (ViewError, KeyError) as exc:
            return web.json_response({"error": _one_line(exc)}, status=404)
        if self.live_streams >= MAX_LIVE_STREAMS:
            return web.json_response({"error": f"{MAX_LIVE_STREAMS} live pages are open on this server: close one and reload"},
                                     status=503)
        self.live_streams += 1
        try:
            return await self._stream(request, files)
        finally:
            self.live_streams -= 1

    async def _stream(self, request: Any, files: MatchFiles) -> Any:
        resp = _aiohttp().StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        await resp.prepare(request)
        follower = LogFollower(files.jsonl) if files.jsonl is not None else None
        loop = asyncio.get_running_loop()
        start = loop.time()
        try:
            while loop.time() - start < LIVE_MAX_S:
                if follower is None:
                    await resp.write(b"event: fail\ndata: " + json.dumps({"error": "no .jsonl log to follow"}).encode() + b"\n\n")
                    break
                try:
                    added = await loop.run_in_executor(None, follower.poll)  # a long log: the loop serves on
                except ViewError as exc:
                    await resp.write(b"event: fail\ndata: " + json.dumps({"error": str(exc)}).encode() + b"\n\n")
                    break
                if added or follower.finished is not None:
                    doc = follower.summary()
                    doc["key"] = files.key
                    await resp.write(b"event: update\ndata: " + _dumps(doc).encode() + b"\n\n")
                if follower.finished is not None:
                    await resp.write(b"event: done\ndata: {}\n\n")
                    break
                await asyncio.sleep(LIVE_POLL_S)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        return resp

    # ------------------------------------------------------------------ the human seat

    async def play_socket(self, request: Any) -> Any:
        web = _aiohttp()
        if self.seat is None:
            return web.json_response({"error": "no seat to play here: start one with showdown play GAME AGENT"}, status=404)
        if not self.play_token or not same_secret(request.query.get("token", ""), self.play_token):
            return web.json_response({"error": "wrong or missing token: open the address showdown play printed"}, status=403)
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=4096)
        await ws.prepare(request)
        await self.seat.attach(ws)
        return ws


_MAX_QUERY_DIGITS = 18  # a byte offset, a count or chips: below 10^18 (a seek takes 2^63 - 1 at most)


def is_loopback_name(host: str) -> bool:
    """A ``Host`` header naming this machine's loopback: localhost (or a name under .localhost) or a
    loopback address, with any port."""
    name = host.strip().lower()
    if name.startswith("["):
        name = name[1:].partition("]")[0]
    elif name.count(":") == 1:
        name = name.partition(":")[0]
    name = name.rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _key(q: dict[str, str]) -> str:
    """The ``key`` a request names its match or tournament by (the keys ``/api/index`` gives)."""
    key = q.get("key")
    if not key:
        raise ViewError("no key=: name a match or tournament by a key /api/index gives")
    return key


def _whole(q: dict[str, str], name: str, default: int | None) -> int | None:
    """The query's ``name`` as a whole number of at most 18 digits, or ``default`` when absent;
    anything else is a ``ViewError`` naming it (int() said 'invalid literal for int() with base 10',
    a negative start was a 500 from seek)."""
    text = q.get(name) or ""
    if not text:
        return default
    if not (text.isascii() and text.isdigit() and len(text) <= _MAX_QUERY_DIGITS):
        raise ViewError(f"{name}={text[:40]!r}: expected a whole number (at most {_MAX_QUERY_DIGITS} digits 0-9)")
    return int(text)


def _chips(q: dict[str, str], name: str) -> float | None:
    """The query's ``name`` as a finite number of chips, or None when absent."""
    text = q.get(name) or ""
    if not text:
        return None
    try:
        value = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ViewError(f"{name}={text[:40]!r}: expected a number of chips")
    return value


def _one_line(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__


def _clean(doc: Any) -> Any:
    """JSON has no NaN or infinity: they become null (an interval that cannot be estimated)."""
    if isinstance(doc, float):
        return doc if math.isfinite(doc) else None
    if isinstance(doc, dict):
        return {k: _clean(v) for k, v in doc.items()}
    if isinstance(doc, (list, tuple)):
        return [_clean(v) for v in doc]
    return doc


def _dumps(doc: Any) -> str:
    return json.dumps(_clean(doc), allow_nan=False, default=str)


IDLE_S = 15.0
"""Seconds a connection may stay idle (before its first request, or between two) before it is closed."""


REQUEST_ERRORS_SHOWN = 5
"""Requests aiohttp could not read that are said on the view's output; the rest are not (a client
sending 500 of them wrote 500 lines)."""
_request_errors = [0]


def _request_error_one_line(record: logging.LogRecord) -> bool:
    """aiohttp's report of a request it could not read (a header over 8 KB): one line, its
    reason, instead of a traceback on the view's output; the first ``REQUEST_ERRORS_SHOWN`` only."""
    if record.exc_info and record.exc_info[1] is not None:
        _request_errors[0] += 1
        if _request_errors[0] > REQUEST_ERRORS_SHOWN:
            return False
        exc = record.exc_info[1]
        reason = " ".join(str(exc).split())[:200]
        more = "; further unreadable requests are not shown" if _request_errors[0] == REQUEST_ERRORS_SHOWN else ""
        record.msg, record.args = f"showdown view: {record.getMessage()}: {type(exc).__name__}: {reason}{more}", ()
        record.exc_info = record.exc_text = None
    return True


async def start_server(app: ViewApp, host: str, port: int) -> tuple[Any, int]:
    """Start serving ``app``; returns (runner, the port it listens on)."""
    web = _aiohttp()
    server_log = logging.getLogger("aiohttp.server")
    if _request_error_one_line not in server_log.filters:
        server_log.addFilter(_request_error_one_line)
    # a connection idle that long (silent since it opened, or between requests) is closed: aiohttp's
    # own default kept one that never sent a byte for an hour, so silent clients could use up the files
    loopback_only = is_loopback_name(host)
    runner = web.AppRunner(app.build(loopback_only=loopback_only), access_log=None, keepalive_timeout=IDLE_S)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        if exc.errno == errno.EADDRINUSE:  # (asyncio's text repeats the address: said once, with the way out)
            raise ConfigError(f"cannot listen on {host}:{port}: the port is in use (another view or program): "
                              "give another --port, or --port 0 for a free one") from None
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sockets = getattr(site._server, "sockets", None) or []
    bound = sockets[0].getsockname()[1] if sockets else port
    return runner, int(bound)


__all__ = ["IDLE_S", "REQUEST_ERRORS_SHOWN", "ViewApp", "is_loopback_name", "start_server", "static_text"]


def view_url(host: str, port: int) -> str:
    """The address to open for a server bound to ``host``: loopback for the wildcard addresses."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if ":" in shown:  # an IPv6 address is written in brackets ('http://::1:8765/' opened nothing)
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def start_view_thread(paths: list[Path], host: str = "127.0.0.1", port: int = 0) -> tuple[str, Any]:
    """Serve the view of ``paths`` from a thread of its own (``showdown match --view``); returns the
    address and a function that stops it."""
    import threading

    ready: dict[str, Any] = {}
    started = threading.Event()
    loop = asyncio.new_event_loop()

    async def serve() -> None:
        try:
            runner, bound = await start_server(ViewApp(paths), host, port)
        except Exception as exc:  # noqa: BLE001 - reported to the caller as one line
            ready["error"] = exc
            started.set()
            return
        ready["url"] = view_url(host, bound)
        ready["stop"] = asyncio.Event()
        started.set()
        await ready["stop"].wait()
        await runner.cleanup()

    thread = threading.Thread(target=lambda: loop.run_until_complete(serve()), name="showdown-view", daemon=True)
    thread.start()
    started.wait(10)
    if "error" in ready:
        raise ready["error"]
    if "url" not in ready:
        raise ConfigError("the view server did not start")

    def stop() -> None:
        loop.call_soon_threadsafe(ready["stop"].set)
        thread.join(5)

    return str(ready["url"]), stop

"""``showdown view``, ``showdown report`` and ``showdown play``: the browser view's command lines.

* ``view PATH...``: serve the pages of the matches and tournaments under PATH on 127.0.0.1 (the
  address is printed; nothing is opened), until Ctrl-C.
* ``report PATH -o report.html``: the same pages as one self-contained file (data, script and style
  inside; no server, no network), with the first ``--hands`` hands of each match for the replayer.
* ``play GAME AGENT``: a real match against AGENT (its own process) where a person plays the other
  seat in the browser (``view.play.HumanSeat``); the logs go under ``--out`` as for any match.

Listening beyond loopback needs ``--public``: the pages show every card of every hand logged.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path
from typing import Any

from showdown import argtypes
from showdown.errors import ConfigError

REPORT_MAX_HANDS = 20_000
"""Most hands of a match a report keeps for its replayer (about 1.1 KB of HTML each: 22 MB a match)."""


def add_view_parsers(sub: Any) -> None:
    """Add ``view``, ``report`` and ``play`` to ``showdown``'s subcommands."""
    p = sub.add_parser(
        "view",
        description="Serve a browser view of match output folders, logs (.jsonl, .log) or tournament folders: "
        "results with intervals, a chart of winnings, a hand list with a replayer, a tournament's cross table; a "
        "match still running updates live. Prints the address; needs pip install 'showdown-poker[view]'.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="match output folder, log file, or tournament folder")
    _server_args(p)
    p.set_defaults(handler=view_handler)

    p = sub.add_parser(
        "report",
        description="Write the view's pages as one HTML file with the data inside (no server, no network): "
        "attach it to a paper or send it to a friend.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="match output folder, log file, or tournament folder")
    p.add_argument("-o", "--output", required=True, metavar="FILE.html", help="the file to write")
    p.add_argument("--hands", type=argtypes.whole_number(0, REPORT_MAX_HANDS), default=200,
                   help=f"hands of each match kept for the replayer (default 200, at most {REPORT_MAX_HANDS:,}: about 1 KB of page each)")
    p.set_defaults(handler=report_handler)

    p = sub.add_parser(
        "play",
        description="Start a dealer, AGENT as its own process, and a page where you play the other seat: your "
        "cards, the board, the legal actions (bet sizes in no-limit), your running score with its interval and "
        "the last hands. The page is a seat client like any bot: time limits, logs and replacements apply.",
    )
    p.add_argument("game", help="catalog name or .game file (2 players)")
    p.add_argument("agent", help="the opponent: a built-in agent, ./bot.py or module:Class")
    p.add_argument("--hands", type=argtypes.hand_count, default=100, help="hands to play (default 100)")
    p.add_argument("--seed", type=argtypes.seed, default=0, help="dealing seed (default 0)")
    p.add_argument("--out", default="out/play", help="folder for the logs (default out/play)")
    p.add_argument("--t-response", type=argtypes.real_number(0, 1e6, "a number of seconds"), default=300.0, metavar="S", help="your time per action in seconds (default 300)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="an option of the agent")
    _server_args(p)
    p.set_defaults(handler=play_handler)


def _server_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=argtypes.port, default=8765, help="port (default 8765; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--public", action="store_true", help="allow listening beyond loopback (the pages show every card)")


def _check_host(args: argparse.Namespace) -> None:
    import socket

    try:  # (a name that does not resolve was 'listens beyond this machine: add --public')
        socket.getaddrinfo(args.host, None)
    except (OSError, UnicodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(f"--host {args.host}: the name does not resolve ({why}); give an address or name of "
                          "this machine (the default 127.0.0.1 serves this machine only)") from None
    from showdown.view.server import is_loopback_name

    loopback = is_loopback_name(args.host)  # (127.0.0.2 or 0:0:0:0:0:0:0:1 was 'listens beyond this machine')
    if not loopback and not args.public:
        raise ConfigError(f"--host {args.host} listens beyond this machine: add --public if every card of these matches may be seen there")
    if not loopback:
        print(f"warning: serving on {args.host}: anyone who can reach it sees these matches", file=sys.stderr)


async def _serve_until_stopped(app: Any, host: str, port: int, announce: str) -> None:
    from showdown.view.server import start_server, view_url

    runner, bound = await start_server(app, host, port)
    print(f"{announce} {view_url(host, bound)}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        await stop.wait()
    finally:
        await runner.cleanup()


def view_handler(args: argparse.Namespace) -> int:
    from showdown.view.catalog import discover
    from showdown.view.server import ViewApp

    _check_host(args)
    paths = [Path(p) for p in args.paths]
    catalog = discover(paths)  # a missing path is one line now, not a page later
    _check_named_logs(catalog, paths)
    if not catalog.matches and not catalog.tournaments:
        print(f"note: no logs or tournaments under {', '.join(map(str, paths))} yet; the page lists them as they appear", file=sys.stderr)
    asyncio.run(_serve_until_stopped(ViewApp(paths), args.host, args.port, "view at"))
    return 0


def _check_named_logs(catalog: Any, paths: list[Path]) -> None:
    """A log file named on the command line that is no log (binary, another format) is one line now,
    not an error page later; one with no hands yet is fine (its match may be starting)."""
    from showdown.view.catalog import ViewError
    from showdown.view.data import match_summary

    named = {p.resolve() for p in paths if p.is_file()}
    for files in catalog.matches.values():
        if named & {f.resolve() for f in (files.log, files.jsonl, files.result) if f is not None}:
            try:
                match_summary(files)
            except ViewError:
                pass


def report_handler(args: argparse.Namespace) -> int:
    from showdown.view.report import build_report

    out = Path(args.output)
    if not out.parent.exists():
        raise ConfigError(f"cannot write {out}: folder {out.parent} does not exist")
    paths = [Path(p) for p in args.paths]
    _check_not_read(out, paths)
    html, counts = build_report(paths, hands=args.hands)
    try:
        out.write_text(html, encoding="utf-8")
    except OSError as exc:  # (a full disk, /dev/full: was a traceback)
        raise ConfigError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(f"report: {out} ({counts['matches']} match(es), {counts['tournaments']} tournament(s), {len(html) / 1024:.0f} KiB)")
    return 0


def _check_not_read(out: Path, paths: list[Path]) -> None:
    """The report may not be written over a file it reads: ``report out/ -o out/m.jsonl`` replaced
    the match's log with the page (a file named on the command line is refused before this)."""
    import os

    from showdown.view.catalog import discover

    if not out.is_file():
        return
    catalog = discover(paths)
    read = [f for m in catalog.matches.values() for f in (m.jsonl, m.log, m.result) if f is not None]
    read += [folder / "results.json" for folder in catalog.tournaments.values()]
    for f in read:
        try:
            same = os.path.samefile(out, f)
        except OSError:
            continue
        if same:
            raise ConfigError(f"--output {out} is a file this report reads (a log or result of {', '.join(map(str, paths))}): "
                              "writing it would destroy it; give another file name")


def play_handler(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from showdown.agents.registry import IN_PROCESS
    from showdown.cli.agent import parse_option
    from showdown.games.catalog import get_game
    from showdown.matches.agent_words import agent_from_word
    from showdown.matches.config import AgentSpec, DealerSettings, MatchConfig
    from showdown.view.play import HumanSeat
    from showdown.view.server import ViewApp

    _check_host(args)
    game = get_game(args.game)
    if game.num_players != 2:
        raise ConfigError(f"showdown play seats one person against one agent: {args.game} has {game.num_players} players")
    if args.hands < 1:
        raise ConfigError("--hands must be at least 1")
    opponent = agent_from_word(args.agent)
    if args.option:
        opponent = replace(opponent, options={**dict(opponent.options), **dict(parse_option(o) for o in args.option)})
    config = MatchConfig(
        game=args.game,
        agents=(AgentSpec(name=IN_PROCESS, label="you"), opponent),
        hands=args.hands,
        seed=args.seed,
        out=Path(args.out),
        force=True,
        progress=False,
        dealer=DealerSettings(t_response_ms=int(args.t_response * 1000), t_hand_ms=int(args.t_response * 1000) * 50, t_per_hand_ms=10**9,
                              start_timeout_ms=None, reconnect_ms=int(args.t_response * 1000)),
    ).check()
    seat = HumanSeat(game, ["you", opponent.display], args.hands)
    app = ViewApp([], seat=seat)
    return asyncio.run(_play(config, seat, app, args))


async def _play(config: Any, seat: Any, app: Any, args: argparse.Namespace) -> int:
    """Play the match with the person's seat; its exit status (130 or 143 when a signal stopped it).

    Ctrl-C (or SIGTERM) stops at once, whoever is to act: the person at the terminal is done, and
    the hand in play, unfinished, is left out of the logs (they keep complete hands only)."""
    from showdown.cli.match import exit_status
    from showdown.evaluation.report import format_table
    from showdown.matches.checks import check_match
    from showdown.matches.plain import MatchRun
    from showdown.view.server import start_server, view_url

    check_match(config, {0: seat})
    run = MatchRun(config, progress=False, in_process={0: seat})

    def stop(sig: int) -> None:
        if not run.interrupted:
            print("stopping now (the hand in play is not logged)", file=sys.stderr, flush=True)
        run.interrupted = run.interrupted or sig
        seat.stopped = True
        if run.server is not None:
            run.server.request_stop()
            run.server.request_stop()  # the second request: at once, not after the hand

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop, sig)
    runner, bound = await start_server(app, args.host, args.port)
    print(f"play at {view_url(args.host, bound)}?token={app.play_token}#/play", flush=True)
    try:
        report = await run.play(install_signals=False)
        await seat.close("the match was stopped" if seat.stopped else "the match is over")
        print(format_table(report))
        await asyncio.sleep(0.5)  # the page shows the last hand
    finally:
        await seat.close()
        await runner.cleanup()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
    return exit_status(report)


__all__ = ["add_view_parsers", "play_handler", "report_handler", "view_handler"]

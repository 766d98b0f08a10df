"""``showdown dealer``: the reference dealer's command line, served by ``MatchServer``.

``dealer <match> <game> <hands> <seed> <name1> <name2> ... [options]`` as in docs/protocol.md section 5:
the ports go to the first stdout line (space separated, seat order), ``<match>.log`` and
``<match>.jsonl`` are written in the current directory, and the SCORE line is the last stdout line.
The TO/FROM trace goes to stderr unless ``-q``, as with the reference. ``-a``, ``-t`` and ``-T``
(transaction files, resuming) are accepted; no ``.tlog`` is written (``-T`` says so on stderr): the
logs are the transaction record, ``-a`` resumes from them, and a dropped seat reconnects to the running match.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from showdown import argtypes
from showdown.cli import dealer_ports
from showdown.errors import ShowdownError
from showdown.games.catalog import get_game
from showdown.matches.settings import DEALER_SETTINGS, add_flags, flag_values
from showdown.protocol.logfile import Score, format_score_line
from showdown.server.event_loop import new_event_loop
from showdown.server.tcp import DealerOptions, MatchResult, MatchServer

DESCRIPTION = (
    "Serve one ACPC match: one TCP port per seat (printed on the first stdout line), the reference "
    "protocol and logs (<match>.log, plus <match>.jsonl), the SCORE line last on stdout. Unlike the "
    "reference, a late, disconnected or broken client never ends the match: its actions are played "
    "for it (see --on-timeout and --reconnect-ms)."
)




def _ports(text: str) -> list[int]:
    try:
        ports = [int(p) for p in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ports like 18001,18002, got {text!r}") from None
    if any(not 0 <= p <= 65535 for p in ports):
        raise argparse.ArgumentTypeError(f"ports must be 0 to 65535, got {text!r}")
    return ports


def configure_parser(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the dealer's arguments to ``p`` (shared by the subcommand and ``dealer_command``)."""
    p.add_argument("match", help="match name: the logs are <match>.log and <match>.jsonl (logs/m1: in the folder logs)")
    p.add_argument("game", help="a .game file or a catalog name (see `showdown games`)")
    p.add_argument("hands", type=argtypes.hand_count, help="number of hands (1 or more, as the reference)")
    p.add_argument("seed", type=argtypes.seed, help="card dealing seed (the reference's MT19937)")
    p.add_argument("names", nargs="+", metavar="name", help="one player name per seat, in seat order")
    p.add_argument("-f", dest="fixed", action="store_true", help="fixed seats: seat s always plays position s")
    p.add_argument("-p", dest="ports", type=_ports, metavar="P1,P2,...", help="ports per seat (default: free ports)")
    log = p.add_mutually_exclusive_group()
    log.add_argument("-l", dest="log", action="store_false", help="do not write the log files")
    log.add_argument("-L", dest="log", action="store_true", help="write the log files (default)")
    p.set_defaults(log=True)
    p.add_argument("--tokens", action="store_true",
                   help="give each seat a secret its client must send ('VERSION:2.0.0 token=SECRET'); printed on the "
                   "line after the ports (always on when listening beyond loopback)")
    p.add_argument("--tokens-file", metavar="FILE",
                   help="also write the seat tokens to FILE (one per line, readable by you only)")
    p.add_argument("--no-tokens", action="store_true",
                   help="listen beyond loopback without seat tokens: anyone who reaches a port first takes that seat")
    p.add_argument("--force", action="store_true", help="overwrite the logs of a match with the same name (refused otherwise)")
    p.add_argument("-q", dest="quiet", action="store_true", help="no TO/FROM trace on stderr (only warnings, errors, score)")
    p.add_argument("--resume", "-a", dest="resume", action="store_true",
                   help="continue a killed match from its logs: the first unfinished hand, the same cards (as the "
                   "reference's -a; starts the match when it has no logs yet)")
    p.add_argument("-t", dest="tlog", action="store_false",
                   help="accepted for the reference's command line; no .tlog is needed: the logs, written whole "
                   "per hand, are the transaction record")
    p.add_argument("-T", dest="tlog", action="store_true", help="accepted, as -t")
    p.set_defaults(tlog=False)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    add_flags(p, DEALER_SETTINGS, "dealer", holder=DealerOptions)
    return p


def add_dealer_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``dealer`` on a ``showdown`` subparsers object; the handler is ``run_dealer``."""
    p: argparse.ArgumentParser = subparsers.add_parser("dealer", description=DESCRIPTION)
    configure_parser(p)
    p.set_defaults(handler=run_dealer)
    return p


def split_match(match: str) -> tuple[Path, str]:
    """``<match>`` as the reference takes it, a path without ``.log`` (``logs/m1``, as ``bm_server``
    gives): the folder its logs go in (made when missing) and the match's name."""
    path = Path(match)
    if match.endswith("/") or path.name in ("", ".", ".."):
        raise ShowdownError(f"bad match name {match!r}: give a name, in a folder or not (m1, logs/m1)")
    return Path.cwd() / path.parent, path.name


def options_from_args(args: argparse.Namespace) -> DealerOptions:
    return DealerOptions(
        host=args.host,
        ports=args.ports,
        fixed_seats=args.fixed,
        **flag_values(args, DEALER_SETTINGS, "dealer"),
        log_dir=split_match(args.match)[0] if args.log else None,
        force=args.force,
        resume=args.resume,
        trace=not args.quiet,
        game_label=args.game,
    )


def seat_tokens(args: argparse.Namespace, seats: int) -> tuple[str | None, ...] | None:
    """Seat secrets when asked for, or when the dealer listens beyond loopback (unless --no-tokens)."""
    import ipaddress
    import os
    import secrets

    try:
        loopback = args.host == "localhost" or ipaddress.ip_address(args.host).is_loopback
    except ValueError:
        loopback = False
    if args.no_tokens and (args.tokens or args.tokens_file):
        raise ShowdownError("--no-tokens contradicts --tokens and --tokens-file")
    if not loopback and not args.no_tokens:
        args.tokens = True
    args.open_seats = not loopback and args.no_tokens  # said once it listens (an unusable host: its error alone)
    if not (args.tokens or args.tokens_file):
        return None
    tokens = tuple(secrets.token_hex(16) for _ in range(seats))
    if args.tokens_file:
        try:
            fd = os.open(args.tokens_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write("\n".join(tokens) + "\n")
        except OSError as exc:
            raise ShowdownError(f"cannot write --tokens-file {args.tokens_file}: {exc.strerror or exc}") from None
    return tokens


def _missing_at_start(server: MatchServer, start_ms: int) -> None:
    """Just before the start limit, the seats not connected yet; once it has passed, one line for
    each the match began without (said only in the summary at the end, and its bot, coming later,
    found its port closed)."""
    from showdown.server.dealer import SeatStatus

    engine = server.engine
    missing = [s for s in range(len(server.names)) if not engine.started and engine.status(s) is not SeatStatus.ACTIVE]

    def say() -> None:
        for seat in missing:
            if engine.started and engine.status(seat) is SeatStatus.GONE:
                print(f"showdown dealer: seat {seat + 1} ({server.names[seat]}) had not connected {start_ms:,} ms after "
                      "the start (--start-timeout): the match begins without it and the dealer plays check/fold for it "
                      "to the end", file=sys.stderr, flush=True)

    if missing:
        asyncio.get_running_loop().call_later(0.1, say)


def run_dealer(args: argparse.Namespace) -> int:
    """Handler of ``showdown dealer``: 0 when every hand was played, 1 when the match ended early."""
    game = get_game(args.game)
    game.require_servable()
    tokens = seat_tokens(args, len(args.names))
    if args.tlog:  # asked for by name: say why no <match>.tlog appears
        print("showdown dealer: note: -T writes no .tlog: the logs, written whole per hand, are the transaction record "
              "(--resume continues a killed match from them)", file=sys.stderr, flush=True)
    bound = dealer_ports.take_bound()  # the ports already printed, if they were
    options = dataclasses.replace(options_from_args(args), tokens=tokens, bound=None if bound is None else tuple(bound))
    server = MatchServer(game, split_match(args.match)[1], args.hands, args.seed, args.names, options)
    stopped_by: list[int] = []

    def stop(sig: int) -> None:
        stopped_by.append(sig)
        server.request_stop()

    async def main() -> MatchResult:
        loop = asyncio.get_running_loop()
        kept = dealer_ports.take_signals() if bound is not None else []
        try:  # before the ports are printed: whoever reads them may signal at once
            loop.add_signal_handler(signal.SIGINT, stop, signal.SIGINT)
            loop.add_signal_handler(signal.SIGTERM, stop, signal.SIGTERM)
        except (NotImplementedError, RuntimeError):  # not on this platform or thread
            pass
        ports = await server.start()
        if args.open_seats:
            print(f"WARNING: listening on {args.host} without seat tokens: anyone who reaches a port first plays that seat",
                  file=sys.stderr)
        if options.start_timeout_ms is not None:
            loop.call_later(options.start_timeout_ms / 1000 - 0.05, _missing_at_start, server, options.start_timeout_ms)
        for sig in kept:  # received after the ports were printed early
            stop(sig)
        if bound is None:
            print(" ".join(str(p) for p in ports), flush=True)
        if tokens is not None:
            print(" ".join(t or "-" for t in tokens), flush=True)
        return await server.run()

    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        result = runner.run(main())
    if sum(server.refused):  # strangers at the ports (only the first few were said): not the seats' own counts
        refused = "; ".join(f"seat {s + 1} ({name}): {n}" for s, (name, n) in enumerate(zip(result.names, server.refused)) if n)
        print(f"# connections refused at the seat ports, not counted against the seats: {refused}", file=sys.stderr)
    score_line = format_score_line(Score(result.totals, result.names))
    print(score_line, flush=True)
    if args.quiet:  # the trace (off with -q) carries it otherwise; the reference prints it on stderr either way
        print(score_line, file=sys.stderr, flush=True)
    if server.error is not None:
        print(f"showdown dealer: error: {server.error_text()}", file=sys.stderr)
        return 1
    if stopped_by:  # like a shell: 128 + the signal (130 for Ctrl-C, 143 for SIGTERM)
        print(f"showdown dealer: stopped by {signal.Signals(stopped_by[0]).name} after {result.hands_played} of "
              f"{result.hands} hands; the logs hold every finished hand", file=sys.stderr)
        return 128 + stopped_by[0]
    return 1 if result.aborted else 0


def dealer_command(argv: Sequence[str] | None = None) -> int:
    """``showdown dealer`` on its own: parse ``argv``, serve, and turn user errors into one line."""
    parser = configure_parser(argparse.ArgumentParser(prog="showdown dealer", description=DESCRIPTION))
    args = parser.parse_args(argv)
    try:
        return run_dealer(args)
    except ShowdownError as exc:
        print(f"showdown dealer: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("showdown dealer: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(dealer_command())

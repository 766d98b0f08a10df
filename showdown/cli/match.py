"""``showdown match GAME AGENT AGENT [...]``: play a match between agents and print the results.

Flags and a YAML file (``--config``) give the same settings; flags win where both are given.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from showdown.cli import argtypes
from showdown.errors import ConfigError

__all__ = ["add_match_parser", "run_match_command"]



def add_match_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``match`` subcommand to ``showdown``'s subparsers."""
    from showdown.matches.config import EXECUTORS

    p = subparsers.add_parser(
        "match",
        help="play a match between agents (each its own process) and report win rates",
        description="Start the dealer, launch each agent as a separate process, play, and print each "
        "agent's total and chips per 100 hands (mbb/hand in hold'em) with a 95% confidence interval, "
        "and the same per position, with the difference between agents and its p-value. With --duplicate "
        "every deal is played again with the seats moved and the results are paired; when an agent's "
        "strategy is known (built-in agents in Kuhn/Leduc) the AIVAT estimator removes most of the luck. "
        "Example: showdown match kuhn rules random --hands 10000",
    )
    p.add_argument("game", nargs="?", help="catalog name or .game file (or 'game' in --config)")
    p.add_argument("agents", nargs="*", metavar="agent",
                   help="one per seat, seat 1 first: a built-in agent (showdown agent --help lists them), "
                   "your bot as a file (./my_bot.py, ./my_bot), or a Python class module:Class from this folder")
    p.add_argument("-o", "--option", dest="options", action="append", default=[], metavar="[SEAT:]KEY=VALUE",
                   help="an agent option: for every agent that has it, or with SEAT: for that seat only "
                   "(e.g. -o 1:strategy=s.json); repeatable")
    p.add_argument("--hands", type=argtypes.positive, help="number of hands (default 1000)")
    p.add_argument("--seed", type=argtypes.seed, help="dealing seed; agents' seeds derive from it (default 0)")
    p.add_argument("--fixed-seats", action="store_true", default=None, help="do not rotate seats")
    p.add_argument("--out", type=Path, help="directory for the logs and each bot's output (default: out/)")
    p.add_argument("--force", action="store_true", default=None, help="overwrite the logs of an earlier match of the same name")
    p.add_argument("--resume", metavar="MATCH", help="continue a killed match from its logs: its .match.json, its .log, "
                   "or the folder holding it (the first unfinished hand, the same cards)")
    p.add_argument("--max-replaced", type=float, metavar="SHARE",
                   help="mark the match degraded (exit status 3) when the dealer played for a seat in more than "
                   "this share of hands (default 0.01: 1%%)")
    p.add_argument("--csv", action="store_true", help="print the results as CSV (one row per agent and per position)")
    p.add_argument("--no-log", action="store_true", help="write no log files")
    p.add_argument("--name", help="match name (the log file names)")
    p.add_argument("--config", metavar="FILE", help="YAML match file (see showdown.matches.config)")
    p.add_argument(
        "--duplicate",
        action="store_true",
        default=None,
        help="play every deal again with the seats moved (same seed) and pair the results; the halves "
        "run at once on separate cores",
    )
    p.add_argument(
        "--estimator",
        choices=("plain", "duplicate", "aivat", "chance"),
        help="how win rates are estimated (default: the best available: aivat when an agent's strategy "
        "is known, else chance (the cards' luck taken out by all-in equity; paired with --duplicate) in 2-player "
        "games, else duplicate with --duplicate, else plain); duplicate implies --duplicate",
    )
    p.add_argument("--until-ci", type=float, metavar="WIDTH",
                   help="stop once the first agent's 95%% interval is at most WIDTH chips per 100 hands either side "
                   "(an anytime-valid confidence sequence, so stopping early keeps the error rate); --hands is the most")
    p.add_argument("--until-separated", action="store_true", default=None,
                   help="stop once the first agent's anytime-valid 95%% interval excludes zero; --hands is the most")
    p.add_argument("--t-response", type=argtypes.non_negative, metavar="MS",
                   help="time limit per decision in milliseconds (default 10000; then the dealer plays check/fold "
                   "for the seat); YAML: dealer: {t_response_ms: MS}")
    p.add_argument("--t-hand", type=argtypes.non_negative, metavar="MS",
                   help="time limit per seat and hand in milliseconds (default 60000); YAML: dealer: {t_hand_ms: MS}")
    p.add_argument("--executor", choices=EXECUTORS,
                   help="where duplicate halves run: local processes (default) or a Ray cluster (pip install 'showdown-poker[cluster]')")
    p.add_argument("--address", metavar="HOST:PORT", help="the Ray cluster for --executor ray (default: Ray on this machine)")
    p.add_argument("--jobs", type=argtypes.positive, help="duplicate halves played at once (default: the number of cores)")
    p.add_argument("--view", action="store_true",
                   help="watch it in a browser: serve the live view of the output folder on 127.0.0.1 (address printed), "
                   "until Ctrl-C after the match (needs pip install 'showdown-poker[view]')")
    p.add_argument("--view-port", type=int, default=0, metavar="PORT", help="port of --view (default: a free one)")
    p.add_argument("--sandbox", action="store_true", default=None,
                   help="run bots given as files, commands or module:Class confined: memory, CPU, processes, files, "
                   "a private folder, a scrubbed environment, no network but the dealer's port (limits: per agent in YAML)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--progress", action="store_true", default=None, help="show a progress line even when stderr is not a terminal")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="never show the progress line")
    p.set_defaults(handler=run_match_command)
    return p


def _with_time_limits(base: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The YAML settings with ``--t-response`` and ``--t-hand`` on top of its ``dealer:`` section."""
    from dataclasses import replace

    from showdown.matches.config import DealerSettings

    limits = {k: v for k, v in (("t_response_ms", args.t_response), ("t_hand_ms", args.t_hand)) if v is not None}
    return {**base, "dealer": replace(base.get("dealer", DealerSettings()), **limits)} if limits else base


def run_match_command(args: argparse.Namespace) -> int:
    """Handler: build the config, play, print the table, JSON or CSV; the exit status: ``exit_status``."""
    from showdown.evaluation.report import format_table, report_json
    from showdown.matches.agent_words import agents_from_words
    from showdown.matches.config import load_match_config, merge_config
    from showdown.matches.runner import run_match

    if args.resume:
        from showdown.matches.runner import load_match_file

        if args.game or args.agents or args.config:
            raise ConfigError("--resume takes the match's own settings: give no game, agents or --config with it")
        report = run_match(load_match_file(args.resume))
        print(json.dumps(report_json(report), indent=2) if args.json else format_table(report))
        sys.stdout.flush()
        return exit_status(report)
    base: dict[str, Any] = load_match_config(args.config) if args.config else {}
    agents = agents_from_words(args.agents, args.options) if args.agents else None
    if args.agents and len(args.agents) == 1:
        raise ConfigError("a match needs at least two agents, e.g. showdown match kuhn random call")
    if args.options and not args.agents:
        raise ConfigError("-o sets options of the agents named on the command line; in a YAML file put them under 'options'")
    if args.max_replaced is not None and not 0 <= args.max_replaced <= 1:
        raise ConfigError(f"--max-replaced is a share of hands from 0 to 1 (0.01 is 1%), got {args.max_replaced}")
    out = args.out
    if out is None and not args.no_log and "out" not in base:
        out = Path("out")
    base = _with_time_limits(base, args)
    config = merge_config(
        base,
        game=args.game,
        agents=agents,
        hands=args.hands,
        seed=args.seed,
        fixed_seats=args.fixed_seats,
        out=out,
        name=args.name,
        progress=args.progress,
        duplicate=True if (args.duplicate or args.estimator == "duplicate") else None,
        estimator=args.estimator,
        jobs=args.jobs,
        force=args.force,
        max_replaced=args.max_replaced,
        executor=args.executor,
        address=args.address,
        until_ci=args.until_ci,
        until_separated=args.until_separated,
        sandbox=args.sandbox,
    )
    if (config.until_ci is not None or config.until_separated) and config.duplicate:
        raise ConfigError("--until-ci and --until-separated stop a plain match; give them without --duplicate")
    if config.until_ci is not None and config.until_ci <= 0:
        raise ConfigError(f"--until-ci is a half-width in chips per 100 hands, above 0; got {config.until_ci:g}")
    if (config.executor or config.address) and not config.duplicate:
        raise ConfigError("--executor and --address say where duplicate halves run: add --duplicate")
    if args.no_log:
        from dataclasses import replace

        config = replace(config, out=None)
    stop_view = None
    if args.view:
        if config.out is None:
            raise ConfigError("--view watches the logs: give it with an output folder, not --no-log")
        from showdown.view.server import start_view_thread

        url, stop_view = start_view_thread([Path(config.out)], port=args.view_port)
        print(f"view at {url} (live while the match runs)", file=sys.stderr, flush=True)
    report = run_match(config)
    _print_report(report, args)
    if stop_view is not None:
        import threading

        try:  # from before the line that invites Ctrl-C: the signal may come at once
            print("the view stays up: Ctrl-C to stop", file=sys.stderr, flush=True)
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
        stop_view()
    return exit_status(report)


def _print_report(report: Any, args: argparse.Namespace) -> None:
    from showdown.evaluation.report import format_table, report_json

    if args.json:
        print(json.dumps(report_json(report), indent=2))
    elif args.csv:
        from showdown.evaluation.report import match_csv

        print(match_csv(report_json(report)), end="")
    else:
        print(format_table(report))
    sys.stdout.flush()


def exit_status(report: Any) -> int:
    """0 played in full; 1 aborted, or a file could not be written (a full disk); 3 degraded (the
    dealer played a seat too often); 128 + the signal when stopped early (130 Ctrl-C, 143 SIGTERM),
    as a shell reports it."""
    if getattr(report, "error", None):
        return 1
    if report.interrupted:
        return 128 + (report.stop_signal or 2)
    if report.aborted:
        return 1
    return 3 if report.degraded else 0

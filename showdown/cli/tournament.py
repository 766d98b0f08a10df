"""``showdown tournament FILE.yaml``: a round robin between agents, resumable; see ``tournament``."""

from __future__ import annotations

import argparse
import json
import sys

from showdown.cli import argtypes

__all__ = ["add_tournament_parser", "run_tournament_command"]


def _configure(p: argparse.ArgumentParser) -> None:
    from showdown.matches.config import EXECUTORS

    p.add_argument("config", metavar="FILE.yaml", help="the tournament file (game, agents, hands, duplicate, seed, jobs, out)")
    p.add_argument("--jobs", type=argtypes.positive, help="matches played at once (default: 'jobs' in the file, else the number of cores)")
    p.add_argument("--executor", choices=EXECUTORS, help="where matches run: local processes (default) or a Ray cluster (pip install 'showdown-poker[cluster]')")
    p.add_argument("--address", metavar="HOST:PORT", help="the Ray cluster to use with --executor ray (default: start Ray on this machine)")
    p.add_argument("--sandbox", action=argparse.BooleanOptionalAction, default=None,
                   help="run bots given as files, commands or module:Class sandboxed (default: on, or 'sandbox' in the file)")
    p.add_argument("--json", action="store_true", help="print results.json instead of the tables")
    p.add_argument("--csv", action="store_true", help="print the cross table as CSV (agent, opponent, hands, per100, interval)")
    p.add_argument("--progress", action="store_true", default=None, help="show progress even when stderr is not a terminal")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="never show progress")
    p.set_defaults(handler=run_tournament_command)


def add_tournament_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``tournament`` subcommand to ``showdown``'s subparsers."""
    p = subparsers.add_parser(
        "tournament",
        help="round robin between agents from a YAML file: cross table, ranking, results.json (resumable)",
        description="Play every pair of agents (every seating of every three in 3-player games) as the YAML "
        "file says, print the cross table (row against column, chips per 100 hands with a 95% interval) and "
        "the ranking, and write results.json and each match's logs to the output directory. Running the same "
        "command again resumes: finished matches are kept, unfinished ones replayed. "
        "Example: showdown tournament examples/tournament.yaml",
    )
    _configure(p)
    return p


def run_tournament_command(args: argparse.Namespace) -> int:
    """Handler: validate, play or resume, print. Exit 0 when complete, else 128 + the stopping signal (130 Ctrl-C, 143 SIGTERM)."""
    from showdown.matches.executors import make_executor
    from showdown.matches.tournament import run_tournament
    from showdown.matches.tournament_config import load_tournament_config
    from showdown.matches.tournament_results import format_tournament, tournament_json

    cfg = load_tournament_config(args.config)
    if args.sandbox is not None:
        from dataclasses import replace

        cfg = replace(cfg, sandbox=args.sandbox)
    executor = make_executor(args.executor, args.address) if (args.executor or args.address) else None  # else the file's
    result = run_tournament(cfg, jobs=args.jobs, progress=args.progress, executor=executor)
    if args.json:
        print(json.dumps(tournament_json(result), indent=2))
    elif args.csv:
        from showdown.matches.tournament_results import tournament_csv

        print(tournament_csv(tournament_json(result)), end="")
    else:
        print(format_tournament(result))
        print(f"results: {cfg.out / 'results.json'}")
    sys.stdout.flush()
    return 0 if result.complete else 128 + (result.stop_signal or 2)

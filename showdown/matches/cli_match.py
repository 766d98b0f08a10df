"""``showdown match GAME AGENT AGENT [...]``: play a match between agents and print the results.

Flags and a YAML file (``--config``) give the same settings; flags win where both are given.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from showdown import argtypes
from showdown.errors import ConfigError

__all__ = ["add_match_parser", "run_match_command"]






def add_match_parser(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> argparse.ArgumentParser:
    """Add the ``match`` subcommand to ``showdown``'s subparsers."""
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
    p.add_argument("agents", nargs="*", metavar="agent", help="built-in agent names, one per seat")
    p.add_argument("--hands", type=argtypes.positive, help="number of hands (default 1000)")
    p.add_argument("--seed", type=argtypes.seed, help="dealing seed; agents' seeds derive from it (default 0)")
    p.add_argument("--fixed-seats", action="store_true", default=None, help="do not rotate seats")
    p.add_argument("--out", type=Path, help="directory for <match>.log and <match>.jsonl (default: .)")
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
        choices=("plain", "duplicate", "aivat"),
        help="how win rates are estimated (default: the best available: aivat when an agent's strategy "
        "is known, else duplicate with --duplicate, else plain); duplicate implies --duplicate",
    )
    p.add_argument("--jobs", type=argtypes.positive, help="duplicate halves played at once (default: the number of cores)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--progress", action="store_true", default=None, help="show a progress line even when stderr is not a terminal")
    p.add_argument("--no-progress", dest="progress", action="store_false", help="never show the progress line")
    p.set_defaults(handler=run_match_command)
    return p


def run_match_command(args: argparse.Namespace) -> int:
    """Handler: build the config, play, print the table or JSON. Exit 0, 1 if aborted, 130 if stopped."""
    from showdown.matches.config import AgentSpec, load_match_config, merge_config
    from showdown.matches.report import format_table, report_json
    from showdown.matches.runner import run_match

    base: dict[str, Any] = load_match_config(args.config) if args.config else {}
    agents = tuple(AgentSpec(name=a) for a in args.agents) if args.agents else None
    if args.agents and len(args.agents) == 1:
        raise ConfigError("a match needs at least two agents, e.g. showdown match kuhn random call")
    out = args.out
    if out is None and not args.no_log and "out" not in base:
        out = Path(".")
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
    )
    if args.no_log:
        from dataclasses import replace

        config = replace(config, out=None)
    report = run_match(config)
    if args.json:
        print(json.dumps(report_json(report), indent=2))
    else:
        print(format_table(report))
    sys.stdout.flush()
    if report.interrupted:
        return 130
    return 1 if report.aborted else 0

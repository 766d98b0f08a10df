"""``showdown exploit --lbr``: local best response against an agent or a strategy file, from the command line."""

from __future__ import annotations

import argparse
import json
import sys
import time

from showdown.errors import ConfigError


def lbr_handler(args: argparse.Namespace) -> int:
    """``showdown exploit --lbr``: local best response's winnings with a 95% interval."""
    from showdown.evaluation.lbr import run_lbr_parallel
    from showdown.status import StatusLine

    if args.game is None:
        raise ConfigError("--lbr needs --game (e.g. --game holdem-limit)")
    if (args.strategy is None) == (args.agent is None):
        raise ConfigError("give either a strategy file or --agent NAME (e.g. showdown exploit --lbr --agent rules --game holdem-limit)")
    if args.hands < 2 or args.jobs < 1 or args.rollouts < 1:
        raise ConfigError("--hands must be at least 2, --jobs and --rollouts at least 1")
    from showdown.agents.cli_agent import parse_option

    options = dict(parse_option(o) for o in args.option or [])
    status = StatusLine(sys.stderr) if sys.stderr.isatty() else None
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if status is not None:
            rate = done / max(1e-9, time.perf_counter() - started)
            status.show(f"LBR: {done:,} of {total:,} hands, {rate:,.0f} hands/s")

    result = run_lbr_parallel(args.game, agent=args.agent, strategy=str(args.strategy) if args.strategy else None, options=options,
                              hands=args.hands, seed=args.seed, jobs=args.jobs, rollouts=args.rollouts, action_set=args.actions,
                              progress=progress)
    if status is not None:
        status.finish()
    source = f"agent {args.agent}" if args.agent else str(args.strategy)
    doc = {"game": args.game, "source": source, "method": "local best response (Lisy and Bowling 2017)",
           "actions": args.actions, "rollouts": args.rollouts, "seed": args.seed, **result.to_json()}
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    lo, hi = doc["ci95_mbb"]
    print(f"{args.game}, {source}: LBR wins {doc['lbr_mbb']:+.1f} mbb/hand, 95% CI [{lo:+.1f}, {hi:+.1f}] "
          f"({result.hands:,} hands, {result.seconds:.1f} s, {doc['hands_per_s']:.0f} hands/s)")
    plo, phi = doc["plain_ci95_mbb"]
    print(f"  estimator: chance-only corrections (unbiased); plain {doc['plain_mbb']:+.1f} [{plo:+.1f}, {phi:+.1f}]")
    print("  a lower bound on the exploitability: a best response wins at least this much")
    return 0


__all__ = ["lbr_handler"]

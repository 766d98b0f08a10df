"""Local best response against the baselines in hold'em: values with intervals, and hands per second.

Run: ``PYTHONPATH=. python3 benchmarks/bench_lbr.py [--hands 2000] [--jobs 2] [--games holdem-limit,holdem-nolimit]
[--actions fcpa] [--check-until ROUND] [-o search=off]``.

``hands/s`` is wall-clock; ``per CPU-s`` is hands per CPU-second of this process and its worker
processes (``--jobs 2``: both cores' seconds), the agent's start-up included: the figure to quote on a
shared machine, where wall-clock rates depend on the load. ``--jobs 2`` splits the hands in chunks
of 100 over two forked processes (the agent is built once, before the fork), which exchange nothing
but their results: on 2 free cores its hands per second is close to twice its per-CPU-second figure.

LBR ranks hands with the compiled kernels of ``solvers.hand_kernels`` (numba, cached; loaded once per
run, about 0.7 CPU-seconds, before the workers fork); the figures are the same bit for bit as the numpy
path's (``tests/solvers/test_hand_kernels.py``).

Each action set plays the same deals; the published setting (LBR checks or calls before the flop) is
the default. Targets of issue 25: at least 300 hands/s in no-limit and 200 in limit on 2 cores.
"""

from __future__ import annotations

import argparse
import resource
import time

from showdown.cli.agent import parse_option
from showdown.evaluation.lbr_runs import run_lbr_parallel


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished worker processes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="holdem-limit,holdem-nolimit")
    parser.add_argument("--agents", default="call,bluff,random,rules,cfr")
    parser.add_argument("--actions", default="fcpa", help="comma-separated action sets (no-limit)")
    parser.add_argument("--check-until", type=int, default=None)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="an option of the cfr agent (e.g. search=off: the hold'em blueprint alone, without river search)")
    args = parser.parse_args()
    for game in args.games.split(","):
        print(f"\n{game}: LBR ({args.actions} in no-limit), {args.hands} hands each, {args.jobs} processes, seed {args.seed}")
        print(f"{'agent':10s} {'set':>6s} {'mbb/hand':>10s} {'95% CI':>22s} {'hands/s':>8s} {'per CPU-s':>9s}")
        for agent in args.agents.split(","):
            options = dict(parse_option(o) for o in args.option) if agent == "cfr" else {}
            cpu = _cpu_seconds()
            report = run_lbr_parallel(game, agent=agent, options=options, hands=args.hands, seed=args.seed, jobs=args.jobs,
                                      action_sets=args.actions.split(","), check_until=args.check_until)
            cpu = _cpu_seconds() - cpu
            doc = report.to_json()
            played = sum(row["hands"] for row in doc["sets"])
            per_cpu = f"{played / cpu:9.1f}"
            for row in doc["sets"]:
                lo, hi = row["ci95_mbb"]
                rate = played / doc["seconds"]
                print(f"{agent:10s} {row['actions']:>6s} {row['lbr_mbb']:+10.0f} {f'[{lo:+.0f}, {hi:+.0f}]':>22s} {rate:8.1f} {per_cpu}",
                      flush=True)
        print(f"setting: {doc['setting']}")


if __name__ == "__main__":
    main()

"""End-to-end match throughput: ``showdown match kuhn random random --hands 100000``.

The dealer runs in this process (as ``showdown match`` runs it) and each agent is its own OS
process over loopback TCP, logs on. Prints hands/s and peak RSS of the runner (dealer + statistics)
and of the largest agent process. ``--profile`` runs the first agent under cProfile and prints
where its time goes.

    python benchmarks/bench_match.py [--hands N] [--repeat K] [--spin-us US] [--game G] [--agents A B] [--profile]
                                     [--in-memory] [--option SEAT:KEY=VALUE]

``--in-memory`` seats the built-in agents in the runner's process (``in_memory``): the same dealer and
logs without TCP. Each run also prints its CPU seconds per hand, the runner's and its children's.

Run it with the project's environment (``.venv/bin/python``, which ``make install`` sets up).
"""

from __future__ import annotations

import argparse
import pstats
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from showdown.matches.config import AgentSpec, DealerSettings, MatchConfig
from showdown.matches.runner import run_match


def _has_uvloop() -> bool:
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return False
    return True


def _cpu() -> float:
    """User and system seconds of this process and of its children that have ended."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--game", default="kuhn")
    parser.add_argument("--agents", nargs="+", default=["random", "random"])
    parser.add_argument("--repeat", type=int, default=1, help="play the match this many times; report the median")
    parser.add_argument("--spin-us", type=int, default=DealerSettings().spin_us, help="the dealer's busy-wait (0: never)")
    parser.add_argument("--profile", action="store_true", help="profile the first agent process")
    parser.add_argument("--in-memory", action="store_true", help="seat the built-in agents in memory (no TCP)")
    parser.add_argument("--option", action="append", default=[], metavar="SEAT:KEY=VALUE",
                        help="an agent option, its seat from 1 (e.g. 1:search=off)")
    args = parser.parse_args()
    rates = [_one(args) for _ in range(args.repeat)]
    if args.repeat > 1:
        print(f"median of {args.repeat}: {statistics.median(rates):,.0f} hands/s (all: {', '.join(f'{r:,.0f}' for r in rates)})")
    return 0


def _one(args: argparse.Namespace) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        options: list[dict[str, str]] = [{} for _ in args.agents]
        for text in args.option:
            seat, _, pair = text.partition(":")
            key, _, value = pair.partition("=")
            options[int(seat) - 1][key] = value
        specs = [AgentSpec(name=a, options=o) for a, o in zip(args.agents, options)]
        prof = Path(tmp) / "agent.prof"
        if args.profile:
            specs[0] = AgentSpec(
                command=f"{sys.executable} -m cProfile -o {prof} -m showdown agent {args.agents[0]} --seed 1",
                label=f"{args.agents[0]}-profiled",
            )
        config = MatchConfig(
            game=args.game, agents=tuple(specs), hands=args.hands, seed=0, out=Path(tmp),
            dealer=DealerSettings(spin_us=args.spin_us), in_memory=args.in_memory,
        )
        start = time.perf_counter()
        cpu_before = _cpu()
        report = run_match(config, progress=False)
        wall = time.perf_counter() - start
        cpu = _cpu() - cpu_before
        self_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        child_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        log_mb = sum(f.stat().st_size for f in Path(tmp).iterdir()) / 1e6
        print(
            f"showdown match {args.game} {' '.join(args.agents)} --hands {args.hands}: "
            f"{report.hands} hands in {report.play_seconds:.2f} s of play = {report.hands_per_second:,.0f} hands/s "
            f"(wall {wall:.2f} s with start-up and report: {report.hands / wall:,.0f} hands/s; "
            f"event loop {'uvloop' if _has_uvloop() else 'asyncio'}, spin {args.spin_us} us"
            f"{', agents in memory' if args.in_memory else ''})"
        )
        print(f"CPU: {cpu:.2f} s, runner and agents, start-up included: {cpu / report.hands * 1e6:,.0f} us a hand")
        print(f"peak RSS: runner+dealer {self_rss:.0f} MB, largest agent {child_rss:.0f} MB; logs {log_mb:.1f} MB")
        if any(sum(c.values()) for c in report.replacements.values()) or report.failures:
            print(f"WARNING: replacements {report.replacements}, failures {report.failures}")
        if args.profile and prof.exists():
            print("\nagent profile (top 15 by own time):")
            pstats.Stats(str(prof)).sort_stats("tottime").print_stats(15)
        return report.hands_per_second


if __name__ == "__main__":
    sys.exit(main())

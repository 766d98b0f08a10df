"""Local best response against the baselines in hold'em: values with intervals, and hands per second.

Run: ``PYTHONPATH=. python3 benchmarks/bench_lbr.py [--hands 1000] [--jobs 2] [--games holdem-limit,holdem-nolimit]``.

Targets of the issue: at least 200 hands/s in limit hold'em and 50 in no-limit on 2 cores.
"""

from __future__ import annotations

import argparse

from showdown.evaluation.lbr import run_lbr_parallel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", default="holdem-limit,holdem-nolimit")
    parser.add_argument("--agents", default="call,bluff,random,rules,cfr")
    args = parser.parse_args()
    for game in args.games.split(","):
        print(f"\n{game}: LBR (fcpa in no-limit), {args.hands} hands each, {args.jobs} processes")
        print(f"{'agent':10s} {'mbb/hand':>10s} {'95% CI':>22s} {'hands/s':>8s}")
        for agent in args.agents.split(","):
            r = run_lbr_parallel(game, agent=agent, hands=args.hands, seed=1, jobs=args.jobs)
            doc = r.to_json()
            lo, hi = doc["ci95_mbb"]
            print(f"{agent:10s} {doc['lbr_mbb']:+10.0f} {f'[{lo:+.0f}, {hi:+.0f}]':>22s} {doc['hands_per_s']:8.1f}", flush=True)


if __name__ == "__main__":
    main()

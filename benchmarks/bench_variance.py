"""Variance reduction without known strategies: the chance-only estimator on hold'em baseline matches.

Run: ``PYTHONPATH=. python3 benchmarks/bench_variance.py [--hands 4000] [--games holdem-limit,holdem-nolimit]
[--agents rules,call,bluff,random] [--only cfr]`` (``--only A``: the pairs that include agent A, e.g.
``--agents cfr,rules,call,bluff,random --only cfr`` for the hold'em cfr agent against each baseline).

For every pair of baselines (rules, call, bluff, random) plays a match with ``--estimator chance``
and prints the factor ``plain variance / chance variance`` of the first agent's result (how many
times fewer hands the estimate needs), the standard-deviation cut ``1 - 1/sqrt(factor)`` (AIVAT's
paper reports an 85% cut in no-limit with both strategies known), and the same for the match
played in duplicate (``--duplicate``: the deals paired, then the cards' luck taken out).
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile

AGENTS = ("rules", "call", "bluff", "random")


def factor(game: str, a: str, b: str, hands: int, duplicate: bool, out: str) -> tuple[float, float, float]:
    cmd = [sys.executable, "-m", "showdown", "match", game, a, b, "--hands", str(hands), "--seed", "1",
           "--estimator", "chance", "--out", out, "--force", "--json", "--no-progress"]
    if duplicate:
        cmd.append("--duplicate")
    doc = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    row = doc["agents"][0]
    gain = row["variance_reduction"]
    return (float("inf") if gain == "exact" else float(gain)), row["per100"], row["plain"]["per100"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--games", default="holdem-limit,holdem-nolimit")
    parser.add_argument("--agents", default=",".join(AGENTS), help="agents to pair (comma-separated)")
    parser.add_argument("--only", help="only the pairs that include this agent")
    args = parser.parse_args()
    agents = args.agents.split(",")
    with tempfile.TemporaryDirectory() as out:
        for game in args.games.split(","):
            print(f"\n{game}, {args.hands} hands per match (duplicate: {args.hands} deals x 2)")
            print(f"{'matchup':18s} {'factor':>7s} {'sd cut':>7s} {'dup factor':>10s} {'dup sd cut':>10s}")
            for a, b in itertools.combinations(agents, 2):
                if args.only and args.only not in (a, b):
                    continue
                f, _, _ = factor(game, a, b, args.hands, False, out)
                d, _, _ = factor(game, a, b, args.hands, True, out)
                print(f"{a + ' vs ' + b:18s} {f:7.2f} {1 - f ** -0.5:7.0%} {d:10.2f} {1 - d ** -0.5:10.0%}", flush=True)
        print("(a factor of inf: the duplicate halves cancel exactly, as between two agents that ignore their cards)")


if __name__ == "__main__":
    main()

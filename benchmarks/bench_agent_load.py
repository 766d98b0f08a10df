"""Loading the hold'em ``cfr`` agent: its abstract betting tree built afresh against read from the cache.

Run: ``PYTHONPATH=. python3 benchmarks/bench_agent_load.py [--repeat 5]``

Each figure is a fresh process (as every match's agent is): the shipped strategy loaded with its tree
built by the rules engine (an empty ``SHOWDOWN_CACHE``, the strategy files linked in so that only the
tree differs) and with its tree read back from ``solvers.tree_cache``, alternated, and the tree alone
both ways. Prints the medians and their ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

LOAD = (
    "import time; t = time.perf_counter()\n"
    "from showdown.agents.registry import make_agent\n"
    "from showdown.games.catalog import get_game\n"
    "make_agent('cfr', get_game({game!r}), {{'search': 'off'}})\n"
    "print(time.perf_counter() - t)\n"
)


def timed(code: str, cache: Path) -> float:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "SHOWDOWN_CACHE": str(cache)})
    return float(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--games", default="holdem-nolimit,holdem-limit")
    args = parser.parse_args()
    warm = Path(tempfile.mkdtemp(prefix="tree-cache-"))
    for game in args.games.split(","):
        code = LOAD.format(game=game)
        timed(code, warm)  # keeps the tree (and, where it is not shipped, the strategy)
        built, cached = [], []
        for _ in range(args.repeat):
            cold = Path(tempfile.mkdtemp(prefix="tree-cold-"))
            for sub in warm.iterdir():
                if sub.name != "trees":
                    (cold / sub.name).symlink_to(sub)
            built.append(timed(code, cold))
            cached.append(timed(code, warm))
        b, c = statistics.median(built), statistics.median(cached)
        print(f"{game}: cfr agent loaded in {b:.3f} s with its tree built, {c:.3f} s with it read from the cache "
              f"({c / b:.2f}x; medians of {args.repeat} alternated fresh processes, load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()

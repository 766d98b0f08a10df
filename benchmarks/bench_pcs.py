"""Public-chance-sampling CFR+ speed: seconds per iteration and memory, Leduc and hold'em.

    PYTHONPATH=. python benchmarks/bench_pcs.py [--iterations 5] [--games leduc,holdem-limit,holdem-nolimit]
        [--sizes default|wide|SPEC]

One iteration samples a board and runs one CFR+ pass per player over the whole abstract betting
tree with a vector over all holdings per node (Leduc: every board, so exact CFR+ on the abstraction).
Also prints the abstract game's size (betting nodes, information sets) and the process's peak memory.
"""

from __future__ import annotations

import argparse
import resource
import time

from showdown.games.catalog import get_game
from showdown.solvers.abstraction import RankAbstraction
from showdown.solvers.betting import DECISION
from showdown.solvers.pcs import PCSSolver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--games", default="leduc,holdem-limit,holdem-nolimit")
    parser.add_argument("--sizes", default=None, help="no-limit betting tree, as `showdown solve cfr --sizes` (default: the shipped one)")
    args = parser.parse_args()
    for name in args.games.split(","):
        game = get_game(name)
        if name == "leduc":
            solver = PCSSolver(game, RankAbstraction(game), exhaustive=True)
            n = args.iterations * 20
        else:
            from showdown.cli.pcs import parse_sizes
            from showdown.solvers.holdem_buckets import HoldemAbstraction

            solver = PCSSolver(game, HoldemAbstraction(game), parse_sizes(args.sizes, None) if game.is_nolimit else None)
            n = args.iterations
        solver.iterate(1)  # warm-up: tables, level groups
        start, cpu = time.perf_counter(), time.process_time()
        solver.iterate(n)
        per = (time.perf_counter() - start) / n
        cpu_per = (time.process_time() - cpu) / n
        tree = solver.tree
        print(
            f"{name}: {per * 1e3:.1f} ms per iteration ({1 / per:.2f} it/s; CPU {cpu_per * 1e3:.1f} ms) over {n} iterations; "
            f"{int((tree.kind == DECISION).sum()):,} betting decisions, {solver.layout.num_infosets:,} information sets; "
            f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB",
            flush=True,
        )


if __name__ == "__main__":
    main()

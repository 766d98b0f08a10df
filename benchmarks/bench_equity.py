"""Time the exact equity table build: ``python benchmarks/bench_equity.py [--processes N] [--boards N]``.

Without ``--boards`` builds the whole table (134,459 suit-canonical boards) and checks it against the
shipped digest; with ``--boards N`` times ``board_counts`` on N random canonical boards in one
process and projects the single-core total.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from showdown.solvers.equity import EQUITY_SHA256, build_equity_table, progress_printer  # noqa: E402
from showdown.solvers.equity_boards import board_counts, canonical_boards  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--processes", type=int, default=None, help="worker processes (default: all CPUs)")
    parser.add_argument("--boards", type=int, default=0, help="time only this many random boards, one process")
    args = parser.parse_args()

    if Path("/proc/loadavg").exists():
        print(f"load average at start: {Path('/proc/loadavg').read_text().split()[0]}")
    start = time.perf_counter()
    boards, weights = canonical_boards()
    seconds = time.perf_counter() - start
    print(f"suit-canonical boards: {len(boards):,} (weights sum {weights.sum():,}) in {seconds:.2f} s")
    if args.boards:
        rng = np.random.default_rng(0)
        pick = np.sort(rng.choice(len(boards), args.boards, replace=False))
        board_counts(boards[pick[:8]], weights[pick[:8]])  # warm the evaluator's tables
        cpu, wall = time.process_time(), time.perf_counter()
        board_counts(boards[pick], weights[pick])
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        per_board = cpu / args.boards
        print(
            f"{args.boards:,} boards: {wall:.2f} s wall, {cpu:.2f} s cpu, {1e3 * per_board:.3f} ms/board; "
            f"all boards on one core: {per_board * len(boards):.0f} s"
        )
        return
    start = time.perf_counter()
    table = build_equity_table(processes=args.processes, progress=progress_printer(sys.stderr))
    seconds = time.perf_counter() - start
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = resource.getrusage(resource.RUSAGE_SELF)
    cpu = children.ru_utime + children.ru_stime + own.ru_utime + own.ru_stime
    digest = table.digest()
    print(
        f"full build: {seconds:.1f} s wall, {cpu:.1f} s cpu over all processes; "
        f"digest {'matches' if digest == EQUITY_SHA256 else 'DIFFERS from'} the shipped table"
    )


if __name__ == "__main__":
    main()

"""Build and solve one-round hold'em: ``python benchmarks/bench_one_round.py [--compare] [--max-bet N ...]``.

For each grid {0, 2..N} (default N = 40 and 80) prints the time to load the equity table, build the
LP, solve it and check it with both best responses, with the value, the gap and Alice's limp rate.
``--compare`` also times the other program form and HiGHS method on the 40-bet grid (the numbers
behind the default: dual simplex on Bob's form); ``--presolve`` turns HiGHS's presolve on (off by
default: run both, alternately, to compare); ``--whole`` solves the whole grid as one program instead
of generating bet sizes (the default; run both, alternately, to compare). The first grid's time
includes importing HiGHS's bindings (0.03 s from highspy; 0.3 s through scipy.optimize without it):
time one grid per process (``--max-bet 40``) to compare grids.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from showdown.solvers.equity import equity_table  # noqa: E402
from showdown.solvers.one_round import OneRoundGame, OneRoundSolution, solve_one_round  # noqa: E402


def run(
    max_bet: int, form: str, method: str, presolve: bool = False, whole: bool = False
) -> tuple[OneRoundSolution, float, float]:
    """Solve the grid {0, 2..max_bet}: the solution, wall seconds and CPU seconds (table load included)."""
    start, cpu = time.perf_counter(), time.process_time()
    table = equity_table()
    game = OneRoundGame(bets=(0.0, *map(float, range(2, max_bet + 1))))
    solution = solve_one_round(
        game, table=table, form=form, method=method, presolve=presolve, generate_bets=False if whole else None  # type: ignore[arg-type]
    )
    return solution, time.perf_counter() - start, time.process_time() - cpu


def show(label: str, solution: OneRoundSolution, total: float, cpu: float) -> None:
    print(
        f"{label:<34} total {total:6.2f} s wall, {cpu:6.2f} s cpu (build {solution.build_seconds:.2f}, "
        f"solve {solution.solve_seconds:.2f}, check {solution.check_seconds:.2f})  value {solution.value:.10f}  "
        f"gap {solution.gap:.1e}  limp {solution.limp:.4f}  fold {solution.fold:.1e}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-bet", type=int, nargs="*", default=[40, 80], help="largest raise of each grid")
    parser.add_argument("--compare", action="store_true", help="also time the other forms and methods (40 bets)")
    parser.add_argument("--presolve", action="store_true", help="turn HiGHS's presolve on (off by default)")
    parser.add_argument("--whole", action="store_true", help="one program over the whole grid, no bet generation")
    args = parser.parse_args()

    if Path("/proc/loadavg").exists():
        print(f"load average at start: {Path('/proc/loadavg').read_text().split()[0]}")
    print(f"HiGHS through: {'highspy' if importlib.util.find_spec('highspy') else 'scipy'} (see showdown.solvers.highs_lp)")
    start = time.perf_counter()
    equity_table()
    print(f"equity table load: {time.perf_counter() - start:.2f} s")
    values = {}
    for max_bet in args.max_bet:
        solution, total, cpu = run(max_bet, "bob", "highs-ds", args.presolve, args.whole)
        values[max_bet] = solution.value
        show(f"bets {{0, 2..{max_bet}}} bob/highs-ds{' whole' if args.whole else ''}", solution, total, cpu)
    if len(values) > 1:
        low, high = min(values), max(values)
        print(f"value moves by {values[high] - values[low]:+.2e} from {low} to {high} bets")
    if args.compare:
        for form, method in (("bob", "highs-ipm"), ("alice", "highs-ipm"), ("alice", "highs-ds")):
            solution, total, cpu = run(40, form, method, whole=args.whole)
            show(f"bets {{0, 2..40}} {form}/{method}", solution, total, cpu)


if __name__ == "__main__":
    main()

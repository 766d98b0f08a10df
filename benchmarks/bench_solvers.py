"""Timings of the exact solvers: tree building, sequence-form LPs, exploitability.

Run: ``PYTHONPATH=. python3 benchmarks/bench_solvers.py``. "first" figures clear the per-game caches
(tree, sequence form, best-response plan) before each run; "cached" figures reuse them. Each figure is
the best of several runs. Targets (issue 4): Kuhn LP <= 20 ms, Leduc LP <= 0.2 s, 100-card Kuhn LP
<= 2 s, exploitability of a Leduc profile <= 5 ms; (issue 32) 1,000-card Kuhn LP <= 10 s (the whole
command, its peak memory <= 300 MB: ``/usr/bin/time -v showdown solve lp kuhn-1000 -o k.json``).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from showdown.games.catalog import get_game
from showdown.solvers import best_response, sequence_lp, tree
from showdown.solvers.best_response import exploitability
from showdown.solvers.sequence_lp import solve_sequence_lp
from showdown.solvers.strategy import strategy_to_arrays


def clear_caches() -> None:
    tree.build_tree.cache_clear()
    sequence_lp.sequence_form.cache_clear()
    best_response._plan.cache_clear()


def best_of(fn: Callable[[], object], runs: int, cold: bool = False) -> float:
    times = []
    for _ in range(runs):
        if cold:
            clear_caches()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:8.2f} ms"


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()  # no options: --help says what it times
    games = {"kuhn": (20e-3, 20), "leduc": (0.2, 7), "kuhn-100": (2.0, 5), "kuhn-1000": (10.0, 2)}
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs (other processes slow the figures)")
    solve_sequence_lp("kuhn")  # import and first-call warm-up (numpy/scipy/HiGHS)
    print("sequence-form LP (main LP: value, both plans, duals)")
    for name, (target, runs) in games.items():
        game = get_game(name)
        first_tree = best_of(lambda: tree.build_tree(game), runs, cold=True)
        first = best_of(lambda: solve_sequence_lp(game, refine=False), runs, cold=True)
        cached = best_of(lambda: solve_sequence_lp(game, refine=False), runs)
        refined = best_of(lambda: solve_sequence_lp(game), runs)
        verdict = "ok" if first <= target else "OVER TARGET"
        print(
            f"  {name:9s} tree first build {ms(first_tree)} | LP build+solve first {ms(first)}, cached tree {ms(cached)}"
            f" | with refinement {ms(refined)} | target {ms(target)} {verdict}"
        )

    print("exploitability of the Leduc equilibrium profile")
    game = get_game("leduc")
    strategy = solve_sequence_lp(game).strategy
    t = tree.build_tree(game)
    arrays = strategy_to_arrays(t, strategy)
    exploitability(game, strategy)
    from_arrays = best_of(lambda: exploitability(t, arrays), 50)
    from_strategy = best_of(lambda: exploitability(game, strategy), 50)
    first = best_of(lambda: exploitability(game, strategy), 5, cold=True)
    print(f"  from arrays {ms(from_arrays)} | from a Strategy (incl. conversion) {ms(from_strategy)} | target {ms(5e-3)}"
          f" {'ok' if from_strategy <= 5e-3 else 'OVER TARGET'}")
    print(f"  with cold caches (tree build included) {ms(first)}")
    print(f"  value {exploitability(game, strategy):.3e} chips/hand")


if __name__ == "__main__":
    main()

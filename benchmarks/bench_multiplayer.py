"""Three-player solving speed: 3-player Kuhn CFR to NashConv 1e-3, and 3-player Leduc iterations/s.

Run: ``PYTHONPATH=. python3 benchmarks/bench_multiplayer.py [--leduc-seconds 60] [--no-openspiel]``.

* kuhn3p: for vanilla CFR and CFR+, the iterations our solver needs to reach NashConv <= 1e-3
  (checked after every iteration), the time a fresh solver takes to run that many (best of
  ``--runs``), and, when ``pyspiel`` (``pip install open_spiel``) imports, OpenSpiel's C++ solver on
  its ``kuhn_poker(players=3)`` over the same iterations, with both NashConvs at 10, 100 and 1000
  iterations side by side (the algorithms are the same: the curves agree to rounding).
* NashConv (every player's best response and value) compiled (``kernels.ntree_best_response``) against
  the numpy passes it replaced, alternated, CPU time per evaluation, medians; and ``train`` of 3-player
  Kuhn CFR+ to NashConv 1e-3 with its checks at growing intervals.
* leduc3p: our CFR+ iterations per second and NashConv after ``--leduc-seconds`` of solving; with
  OpenSpiel, the time of its C++ CFR+ iterations on ``leduc_poker(players=3)`` and of one NashConv.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench_cfr import best_of  # type: ignore[import-not-found]  # benchmarks/ is on the path when run

from showdown.games.catalog import get_game
from showdown.solvers import multiplayer
from showdown.solvers.cfr import make_solver
from showdown.solvers.training import train


def compiled_solver(game_name: str, algorithm: str):  # type: ignore[no-untyped-def]
    """A solver whose exact iterations run compiled from the first (a fresh small solve runs numpy until
    numba's import would pay: ``multiplayer.numpy_iterations_before_compiled``)."""
    solver = make_solver(get_game(game_name), algorithm)
    solver.numpy_until = 0
    return solver


def ours_to(algorithm: str, target: float) -> int:
    solver = compiled_solver("kuhn3p", algorithm)
    while solver.iterations < 100_000:
        solver.iterate(1)
        if solver.measure(solver.average_sigma()) <= target:
            return solver.iterations
    return -1


def kuhn3p(runs: int, spiel: object | None) -> None:
    print("3-player Kuhn to NashConv 1e-3 (one core)")
    print(f"{'algorithm':10s} {'iters':>6s} {'ours':>10s} {'OpenSpiel':>10s} {'ratio':>7s}")
    names = {"cfr": "CFRSolver", "cfr+": "CFRPlusSolver"}
    for algorithm in ("cfr", "cfr+"):
        n = ours_to(algorithm, 1e-3)
        ours = best_of(lambda: compiled_solver("kuhn3p", algorithm).iterate(n), runs)
        theirs_text, ratio = "-", "-"
        if spiel is not None:
            os_game = spiel.load_game("kuhn_poker", {"players": 3})  # type: ignore[attr-defined]

            def run_theirs() -> None:
                s = getattr(spiel, names[algorithm])(os_game)
                for _ in range(n):
                    s.evaluate_and_update_policy()

            theirs = best_of(run_theirs, runs)
            theirs_text, ratio = f"{theirs * 1e3:8.1f}ms", f"{theirs / ours:6.1f}x"
        print(f"{algorithm:10s} {n:6d} {ours * 1e3:8.1f}ms {theirs_text:>10s} {ratio:>7s}")
    if spiel is not None:
        print("\nNashConv at the same iteration counts (ours | OpenSpiel's)")
        os_game = spiel.load_game("kuhn_poker", {"players": 3})  # type: ignore[attr-defined]
        for algorithm in ("cfr", "cfr+"):
            ours_solver = compiled_solver("kuhn3p", algorithm)
            theirs_solver = getattr(spiel, names[algorithm])(os_game)
            done = 0
            for it in (10, 100, 1000):
                ours_solver.iterate(it - ours_solver.iterations)
                for _ in range(it - done):
                    theirs_solver.evaluate_and_update_policy()
                done = it
                a = ours_solver.measure(ours_solver.average_sigma())
                b = spiel.nash_conv(os_game, theirs_solver.average_policy())  # type: ignore[attr-defined]
                print(f"  {algorithm:5s} {it:5d}: {a:.12g} | {b:.12g}  (difference {abs(a - b):.1e})")


def numpy_nash_conv(tree: multiplayer.NTree, sigma: object) -> float:
    return multiplayer.numpy_evaluate(tree, sigma).nash_conv  # type: ignore[arg-type]


def nash_conv_speed(pairs: int) -> None:
    print("\nNashConv of a CFR+ average, compiled vs numpy (CPU per evaluation, medians of alternated pairs)")
    for name, iterations in (("kuhn3p", 100), ("leduc3p", 3)):
        solver = compiled_solver(name, "cfr+")
        solver.iterate(iterations)  # loads numba: measure() runs compiled
        sigma = solver.average_sigma()
        repeat = 200 if name == "kuhn3p" else 3
        rows = []
        for _ in range(pairs):
            row = []
            for fn in (lambda: solver.measure(sigma), lambda: numpy_nash_conv(solver.tree, sigma)):
                start = time.process_time()
                for _ in range(repeat):
                    fn()
                row.append((time.process_time() - start) / repeat)
            rows.append(row)
        fast, slow = (statistics.median(r[k] for r in rows) for k in (0, 1))
        ratio = statistics.median(r[1] / r[0] for r in rows)
        print(f"  {name:8s} compiled {fast * 1e6:9.0f} us   numpy {slow * 1e6:9.0f} us   {ratio:6.1f}x "
              f"(difference {abs(solver.measure(sigma) - numpy_nash_conv(solver.tree, sigma)):.1e})")
    def to_target() -> tuple[float, int]:
        start = time.process_time()
        result = train(compiled_solver("kuhn3p", "cfr+"), target=1e-3, iterations=100_000)
        return time.process_time() - start, result.iterations

    compiled = multiplayer._compiled
    to_target()  # the kernels loaded
    times: list[tuple[float, float]] = []
    for _ in range(pairs):
        fast, iterations = to_target()
        multiplayer._compiled = lambda: False  # the numpy evaluation, as before the kernel
        try:
            slow, _ = to_target()
        finally:
            multiplayer._compiled = compiled
        times.append((fast, slow))
    fast, slow = (statistics.median(t[k] for t in times) for k in (0, 1))
    print(f"  train kuhn3p CFR+ to NashConv 1e-3 with its checks: {iterations} iterations, {fast * 1e3:.1f} ms of CPU "
          f"(numpy evaluation: {slow * 1e3:.1f} ms, {statistics.median(t[1] / t[0] for t in times):.1f}x)")


def leduc3p(seconds: float, spiel: object | None) -> None:
    start = time.perf_counter()
    solver = compiled_solver("leduc3p", "cfr+")
    built = time.perf_counter() - start
    result = train(solver, seconds=seconds)
    rate = result.iterations / result.seconds
    print(f"\n3-player Leduc CFR+ (ours): tree built in {built:.2f} s; {result.iterations} iterations in "
          f"{result.seconds:.1f} s of solving ({rate:.1f} it/s, {1e3 / rate:.0f} ms each); NashConv {result.exploitability:.5f}")
    start = time.perf_counter()
    solver.measure(solver.average_sigma())
    print(f"  one exact NashConv (3 best responses + values): {time.perf_counter() - start:.3f} s")
    if spiel is not None:
        os_game = spiel.load_game("leduc_poker", {"players": 3})  # type: ignore[attr-defined]
        s = spiel.CFRPlusSolver(os_game)  # type: ignore[attr-defined]
        start = time.perf_counter()
        for _ in range(3):
            s.evaluate_and_update_policy()
        per = (time.perf_counter() - start) / 3
        start = time.perf_counter()
        spiel.nash_conv(os_game, s.average_policy())  # type: ignore[attr-defined]
        nc = time.perf_counter() - start
        print(f"  OpenSpiel C++ CFR+: {per:.2f} s per iteration ({per * rate:.0f}x ours); one NashConv {nc:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--leduc-seconds", type=float, default=60.0)
    parser.add_argument("--no-openspiel", action="store_true")
    parser.add_argument("--pairs", type=int, default=7, help="alternated pairs of the NashConv timing (default 7)")
    args = parser.parse_args()
    spiel = None
    if not args.no_openspiel:
        try:
            import pyspiel  # type: ignore[import-not-found]

            spiel = pyspiel
        except ImportError:
            print("OpenSpiel: not importable (pip install open_spiel); comparison skipped\n")
    kuhn3p(args.runs, spiel)
    nash_conv_speed(args.pairs)
    leduc3p(args.leduc_seconds, spiel)


if __name__ == "__main__":
    main()

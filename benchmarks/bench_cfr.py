"""Speed of the CFR solvers: time to a target exploitability, per-iteration cost, and OpenSpiel side by side.

Run: ``PYTHONPATH=. python3 benchmarks/bench_cfr.py [--quick] [--no-openspiel]``.

The solvers are timed with numba loaded, so the exact rules on Kuhn and Leduc run compiled
(``showdown.solvers.sequence_kernels``) from their first iteration.

Exploitability is in chips per hand, (BR_0 + BR_1) / 2 as in ``showdown.solvers.best_response``.
For each target: the iterations CFR+ needs (exploitability checked after every iteration), the time a
fresh solver takes to run that many iterations ("solve", best of several runs), and the wall time of
``train(target=...)``, which also pays for its exploitability checks at growing intervals ("train").
Targets (issue 5): Leduc <= 1e-3 in <= 0.5 s, Kuhn <= 1e-4 in <= 0.02 s, 100-card Kuhn <= 1e-3.

If ``pyspiel`` (``pip install open_spiel``) is importable, its C++ CFR+ runs on the same machine to the
same Leduc target, and our final Leduc strategy's exploitability is computed by both libraries.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

from showdown.games.catalog import get_game
from showdown.solvers import cfr_core, tree
from showdown.solvers.cfr import make_solver
from showdown.solvers.strategy import Strategy
from showdown.solvers.training import train


def best_of(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def iterations_to(game_name: str, algorithm: str, target: float, cap: int) -> tuple[int, float]:
    """First iteration at which the average strategy is at most ``target`` exploitable (checked every iteration)."""
    solver = make_solver(get_game(game_name), algorithm)
    while solver.iterations < cap:
        solver.iterate(1)
        e = solver.exploitability()
        if e <= target:
            return solver.iterations, e
    return -1, solver.exploitability()


def targets(runs: int) -> None:
    print("\nCFR+ to a target (one core; 'solve' = that many iterations, 'train' = train(target=...) wall)")
    print(f"{'game':10s} {'target':>7s} {'iters':>6s} {'solve':>9s} {'train':>9s} {'per iter':>9s}  goal")
    goals = {"kuhn": 0.02, "leduc": 0.5, "kuhn-100": None}
    for name, target in (("kuhn", 1e-4), ("leduc", 1e-3), ("kuhn-100", 1e-3)):
        game = get_game(name)
        n, _ = iterations_to(name, "cfr+", target, 20_000)
        solve = best_of(lambda: make_solver(game, "cfr+").iterate(n), runs)
        wall = best_of(lambda: train(make_solver(game, "cfr+"), target=target, iterations=20_000), runs)
        goal = goals[name]
        verdict = "" if goal is None else f"<= {goal} s: {'met' if min(solve, wall) <= goal else 'MISSED'}"
        print(f"{name:10s} {target:7.0e} {n:6d} {solve * 1e3:7.1f}ms {wall * 1e3:7.1f}ms {solve / n * 1e6:7.0f}us  {verdict}")


def algorithms(runs: int, quick: bool) -> None:
    print("\nLeduc, every variant: iterations and solving time to exploitability 1e-3 (Monte Carlo: 1e-2)")
    game = get_game("leduc")
    for name in ("cfr+", "dcfr", "linear", "cfr", "cs", "es"):
        target = 1e-2 if name in ("cs", "es") else 1e-3
        if quick and name in ("cfr", "linear", "es"):
            continue
        limit = {"cfr": 20.0, "es": 400.0}.get(name, 60.0)
        solver = make_solver(game, name, seed=1)
        result = train(solver, target=target, seconds=limit)
        per = best_of(lambda: make_solver(game, name).iterate(20), max(1, runs // 2)) / 20
        reached = "reached" if result.stopped_by == "target" else f"not reached in {limit:.0f} s"
        print(
            f"  {name:6s} target {target:.0e}: {result.iterations:7d} iterations, {result.seconds:7.2f} s "
            f"({reached}, exploitability {result.exploitability:.2e}); {per * 1e6:6.0f} us/iteration"
        )


def cold_start() -> None:
    tree.build_tree.cache_clear()
    cfr_core.flat_tree.cache_clear()
    start = time.perf_counter()
    solver = make_solver(get_game("leduc"), "cfr+")
    built = time.perf_counter() - start
    train(solver, target=1e-3, iterations=20_000)
    print(f"\nLeduc from scratch (tree and flat layout built, imports done; then train to 1e-3): {built * 1e3:.0f} ms + "
          f"{(time.perf_counter() - start - built) * 1e3:.0f} ms")


# ---------------------------------------------------------------------- OpenSpiel


def leduc_key(state: object) -> str:
    """Our information-set key of the player to act in an OpenSpiel ``leduc_poker`` state."""
    cards = "QKA"  # OpenSpiel's J Q K are the catalog Leduc's Q K A
    suits = "sh"
    hist = state.full_history()  # type: ignore[attr-defined]
    player = state.current_player()  # type: ignore[attr-defined]
    private = hist[player].action
    betting = ""
    board = ""
    chance_seen = 0
    for pa in hist:
        if pa.player < 0:
            chance_seen += 1
            if chance_seen == 3:
                board = cards[pa.action // 2] + suits[pa.action % 2]
                betting += "/"
            continue
        betting += "fcr"[pa.action]
    return f"{cards[private // 2]}{suits[private % 2]}:{board}/{betting}"


def side_by_side(pyspiel: object, os_name: str, name: str, target: float, runs: int) -> None:
    """OpenSpiel's C++ CFR+ and ours to the same exploitability, each timed over the iterations it needs."""
    game = pyspiel.load_game(os_name)  # type: ignore[attr-defined]
    solver = pyspiel.CFRPlusSolver(game)  # type: ignore[attr-defined]
    n = 0
    while True:
        solver.evaluate_and_update_policy()
        n += 1
        if pyspiel.exploitability(game, solver.average_policy()) <= target:  # type: ignore[attr-defined]
            break

    def theirs() -> None:
        s = pyspiel.CFRPlusSolver(game)  # type: ignore[attr-defined]
        for _ in range(n):
            s.evaluate_and_update_policy()

    t_theirs = best_of(theirs, max(1, runs // 3) if name == "leduc" else runs)
    m, _ = iterations_to(name, "cfr+", target, 20_000)
    t_ours = best_of(lambda: make_solver(get_game(name), "cfr+").iterate(m), runs)
    print(f"\nOpenSpiel C++ CFR+ (pyspiel.CFRPlusSolver) vs ours, {name} to exploitability {target:.0e}, same machine")
    print(f"  OpenSpiel: {n} iterations in {t_theirs * 1e3:.2f} ms ({t_theirs / n * 1e6:.1f} us/iteration)")
    print(f"  ours:      {m} iterations in {t_ours * 1e3:.2f} ms ({t_ours / m * 1e6:.1f} us/iteration)")
    print(f"  ratio:     {t_theirs / t_ours:.1f}x faster to the target ({(t_theirs / n) / (t_ours / m):.1f}x per iteration)")


def openspiel(runs: int, ours: Strategy) -> None:
    try:
        import pyspiel  # type: ignore[import-not-found]
        from open_spiel.python import policy as os_policy  # type: ignore[import-not-found]
        from open_spiel.python.algorithms import exploitability as os_expl  # type: ignore[import-not-found]
    except ImportError:
        print("\nOpenSpiel: not importable (pip install open_spiel); comparison skipped")
        return
    for os_name, name, target in (("kuhn_poker", "kuhn", 1e-4), ("leduc_poker", "leduc", 1e-3)):
        side_by_side(pyspiel, os_name, name, target, runs)
    game = pyspiel.load_game("leduc_poker")
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(100):  # a profile to time the exploitability of (below)
        solver.evaluate_and_update_policy()

    def action_probs(state: object) -> dict[int, float]:
        probs = ours.probabilities(leduc_key(state))
        return {a: probs.get("fcr"[a], 0.0) for a in state.legal_actions()}  # type: ignore[attr-defined]

    tab = os_policy.tabular_policy_from_callable(game, action_probs)
    from showdown.solvers.best_response import exploitability

    mine = exploitability(get_game("leduc"), ours)
    theirs_e = os_expl.exploitability(game, tab)
    print(f"  our final Leduc strategy: exploitability {mine:.12f} (ours), {theirs_e:.12f} (OpenSpiel); "
          f"difference {abs(mine - theirs_e):.1e}")

    # Exploitability of one Leduc profile, side by side (the exact-solvers issue's target: <= 5 ms).
    from showdown.solvers.best_response import exploitability as ours_expl

    leduc = get_game("leduc")
    t_ours_e = best_of(lambda: ours_expl(leduc, ours), runs)
    t_py = best_of(lambda: os_expl.exploitability(game, tab), min(runs, 3))
    cpp_policy = solver.average_policy()
    t_cpp = best_of(lambda: pyspiel.exploitability(game, cpp_policy), min(runs, 3))
    print("\nExploitability of a Leduc profile, same machine")
    print(f"  ours: {t_ours_e * 1e3:.2f} ms | OpenSpiel C++: {t_cpp * 1e3:.1f} ms ({t_cpp / t_ours_e:.0f}x) | "
          f"OpenSpiel Python: {t_py * 1e3:.0f} ms ({t_py / t_ours_e:.0f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip the slow variants (vanilla, linear, es: minutes)")
    parser.add_argument("--no-openspiel", action="store_true")
    parser.add_argument("--runs", type=int, default=7, help="repetitions per timing (best is kept)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs (other processes slow the figures)")
    import showdown.solvers.sequence_kernels  # noqa: F401  numba loaded: the exact solvers run compiled from the first iteration
    # (a fresh process runs numpy until that has cost numba's import: see CFRSolver.iterate)

    make_solver(get_game("kuhn"), "cfr+").iterate(5)  # imports and first calls
    make_solver(get_game("leduc"), "cfr+").iterate(5)
    make_solver(get_game("kuhn-100"), "cfr+").iterate(5)
    targets(args.runs)
    cold_start()
    algorithms(args.runs, args.quick)
    final = make_solver(get_game("leduc"), "cfr+")
    final.iterate(2000)
    if not args.no_openspiel:
        openspiel(args.runs, final.average_strategy())


if __name__ == "__main__":
    main()

"""Start-up: what a small ``showdown solve cfr`` loads (numpy on one BLAS thread, the game, the CFR
solver: nothing heavier), and the collector paused while a command loads (``showdown.cli.startup``).

Start-up is most of a Kuhn solve (``benchmarks/bench_startup.py``). Each case runs the real command
(``python -m showdown``) in a fresh interpreter and reads ``sys.modules``, the thread count and the
collector's state at its exit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.cli.blas import THREAD_VARIABLES

ROOT = Path(__file__).resolve().parents[2]
AT_EXIT = """
import atexit, gc, json, runpy, sys
out = sys.argv[1]
def dump():
    threads = None
    try:
        with open("/proc/self/status") as f:
            threads = next(int(line.split()[1]) for line in f if line.startswith("Threads:"))
    except OSError:
        pass
    with open(out, "w") as f:
        json.dump({"modules": sorted(sys.modules), "threads": threads, "collecting": gc.isenabled(),
                   "frozen": gc.get_freeze_count()}, f)
atexit.register(dump)
sys.argv = ["showdown", *sys.argv[2:]]
runpy.run_module("showdown", run_name="__main__", alter_sys=True)
"""
NEVER_FOR_A_SMALL_SOLVE = {
    # numba's import alone outlasts a Kuhn solve; scipy, yaml, pictures and the event loop are unused
    "numba", "llvmlite", "scipy", "yaml", "matplotlib", "asyncio", "uvloop",
    # numpy's parts loaded on first use: masked arrays (np.unique pulls them in), random streams (exact
    # CFR draws nothing), polynomials, FFT
    "numpy.ma", "numpy.random", "numpy.polynomial", "numpy.fft",
    # the catalog without importlib.resources (zipfile, tempfile); argparse without shutil (terminal width)
    "importlib.resources", "importlib.metadata", "zipfile", "tempfile", "shutil",
    "threading", "subprocess", "concurrent", "multiprocessing", "hashlib", "random", "logging", "email", "http", "xml",
    # the curve's CSV is numbers only: written without the csv module
    "csv",
    # the other solvers
    "showdown.solvers.pcs", "showdown.solvers.one_round", "showdown.solvers.equity", "showdown.solvers.sequence_lp",
    "showdown.solvers.best_response", "showdown.solvers.kernels",
}  # fmt: skip


def run_and_look(tmp_path: Path, *command: str) -> dict[str, object]:
    """Run ``showdown COMMAND...`` as the program; what it had loaded and the collector's state at exit."""
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    env["PYTHONPATH"] = str(ROOT)
    at_exit = tmp_path / "at_exit.json"
    subprocess.run([sys.executable, "-c", AT_EXIT, str(at_exit), *command], cwd=tmp_path, env=env, check=True, capture_output=True)
    seen: dict[str, object] = json.loads(at_exit.read_text())
    return seen


def solve_and_look(tmp_path: Path, game: str) -> dict[str, object]:
    out = tmp_path / f"{game}.strategy.json"
    seen = run_and_look(tmp_path, "solve", "cfr", game, "-n", "30", "-q", "-o", str(out))
    assert out.exists() and out.with_name(f"{game}.curve.csv").exists() and out.with_name(f"{game}.curve.json").exists()
    return seen


@pytest.mark.parametrize(("game", "solver"), [("kuhn", "cfr"), ("leduc", "cfr"), ("kuhn3p", "multiplayer")])
def test_a_small_solve_loads_only_what_it_uses(tmp_path: Path, game: str, solver: str) -> None:
    seen = solve_and_look(tmp_path, game)
    modules = set(seen["modules"])  # type: ignore[call-overload]
    assert {"numpy", f"showdown.solvers.{solver}"} <= modules
    heavy = {m for m in modules if m in NEVER_FOR_A_SMALL_SOLVE or m.split(".")[0] in NEVER_FOR_A_SMALL_SOLVE}
    assert not heavy, sorted(heavy)
    layers = {m.split(".")[1] for m in modules if m.startswith("showdown.")}
    assert layers <= {"_lazy", "errors", "argtypes", "cli", "games", "solvers"}, layers
    if seen["threads"] is not None:
        assert seen["threads"] == 1  # OpenBLAS started no thread pool for it
    assert seen["collecting"] is True and seen["frozen"] > 0  # type: ignore[operator]  # paused while loading, then on


@pytest.mark.parametrize("game", ["kuhn", "leduc"])
def test_a_small_tree_ranks_its_showdowns_without_the_batch_evaluator(tmp_path: Path, game: str) -> None:
    """A handful of showdown cells are ranked one by one: the batch evaluator's tables (built when
    ``showdown.games.evaluate`` is imported) would cost more than the tree."""
    modules = set(solve_and_look(tmp_path, game)["modules"])  # type: ignore[call-overload]
    assert "showdown.solvers.tree" in modules and "showdown.games.evaluate" not in modules


def test_every_command_runs_with_the_collector_on(tmp_path: Path) -> None:
    seen = run_and_look(tmp_path, "games")
    assert seen["collecting"] is True and seen["frozen"] > 0  # type: ignore[operator]


def test_a_command_called_from_python_leaves_the_callers_collector_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import gc

    from showdown.cli.main import main

    frozen = gc.get_freeze_count()
    assert main(["solve", "cfr", "kuhn", "-n", "5", "-q", "-o", str(tmp_path / "k.json")]) == 0
    assert main(["games"]) == 0
    assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_solve_cfr_builds_only_its_own_parser_without_numpy() -> None:
    code = (
        "import sys; from showdown.cli.main import build_parser; "
        "methods = build_parser('solve', 'cfr')._subparsers._group_actions[0].choices['solve']; "
        "print(sorted(methods._subparsers._group_actions[0].choices), 'numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert out.split() == ["['cfr']", "False"]  # numpy comes after the game is known (one BLAS thread)


def test_the_instruction_count_runs_the_solve_it_names(tmp_path: Path) -> None:
    """``bench_startup.py --instructions`` runs the solve through a wrapper that reaches into the solver
    (numba's switch, its clock): the wrapper still runs the same command, in numpy, on the fake clock."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_startup", ROOT / "benchmarks" / "bench_startup.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = tmp_path / "k.json"
    code = bench.SOLVE_UNDER_VALGRIND.replace("sys.exit(main(sys.argv[1:]))", "code = main(sys.argv[1:])") + "print('numba' in sys.modules); sys.exit(code)\n"
    run = subprocess.run([sys.executable, "-c", code, "solve", "cfr", "kuhn", "-n", "50", "-q", "-o", str(out)],
                         env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, check=True)  # fmt: skip
    assert run.stdout.split()[-1] == "False"  # after the summary: numba never loaded
    curve = json.loads(out.with_name("k.curve.json").read_text())["points"]
    ticks = curve[-1]["seconds"] * 1e6
    assert curve[-1]["iteration"] == 50 and ticks > 0 and abs(ticks - round(ticks)) < 1e-6  # the fake clock's ticks
    import showdown.solvers.cfr as cfr

    assert isinstance(cfr.NUMBA_IMPORT_SECONDS, float) and cfr.time.perf_counter  # what the wrapper replaces exists

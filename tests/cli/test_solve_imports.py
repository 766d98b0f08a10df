"""What a small ``showdown solve cfr`` loads: numpy (one thread of BLAS), the game and the CFR solver.

Start-up is most of a Kuhn solve (``benchmarks/bench_startup.py``). Each case runs the real command
(``python -m showdown``) in a fresh interpreter, strategy and curve files written, and reads
``sys.modules`` and the process's thread count at its exit.
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
import atexit, json, runpy, sys
out = sys.argv[1]
def dump():
    threads = None
    try:
        with open("/proc/self/status") as f:
            threads = next(int(line.split()[1]) for line in f if line.startswith("Threads:"))
    except OSError:
        pass
    with open(out, "w") as f:
        json.dump({"modules": sorted(sys.modules), "threads": threads}, f)
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
    # the other solvers
    "showdown.solvers.pcs", "showdown.solvers.one_round", "showdown.solvers.equity", "showdown.solvers.sequence_lp",
    "showdown.solvers.best_response", "showdown.solvers.kernels",
}  # fmt: skip


def solve_and_look(tmp_path: Path, game: str) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    env["PYTHONPATH"] = str(ROOT)
    at_exit = tmp_path / "at_exit.json"
    out = tmp_path / f"{game}.strategy.json"
    subprocess.run([sys.executable, "-c", AT_EXIT, str(at_exit), "solve", "cfr", game, "-n", "30", "-q", "-o", str(out)],
                   cwd=tmp_path, env=env, check=True, capture_output=True)  # fmt: skip
    assert out.exists() and out.with_name(f"{game}.curve.csv").exists() and out.with_name(f"{game}.curve.json").exists()
    seen: dict[str, object] = json.loads(at_exit.read_text())
    return seen


@pytest.mark.parametrize(("game", "solver"), [("kuhn", "cfr"), ("leduc", "cfr"), ("kuhn3p", "multiplayer")])
def test_a_small_solve_loads_only_what_it_uses(tmp_path: Path, game: str, solver: str) -> None:
    seen = solve_and_look(tmp_path, game)
    modules = set(seen["modules"])  # type: ignore[call-overload]
    assert {"numpy", f"showdown.solvers.{solver}"} <= modules
    heavy = {m for m in modules if m in NEVER_FOR_A_SMALL_SOLVE or m.split(".")[0] in NEVER_FOR_A_SMALL_SOLVE}
    assert not heavy, sorted(heavy)
    layers = {m.split(".")[1] for m in modules if m.startswith("showdown.")}
    assert layers <= {"_lazy", "errors", "cli", "games", "solvers"}, layers
    if seen["threads"] is not None:
        assert seen["threads"] == 1  # OpenBLAS started no thread pool for it


def test_solve_cfr_builds_only_its_own_parser_without_numpy() -> None:
    code = (
        "import sys; from showdown.cli.main import build_parser; "
        "methods = build_parser('solve', 'cfr')._subparsers._group_actions[0].choices['solve']; "
        "print(sorted(methods._subparsers._group_actions[0].choices), 'numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    assert out.split() == ["['cfr']", "False"]  # numpy comes after the game is known (one BLAS thread)

"""Start-up of whole commands: ``showdown solve cfr kuhn`` against OpenSpiel's C++ CFR+ doing the same work.

Run: ``PYTHONPATH=. python3 benchmarks/bench_startup.py [--pairs N] [--instructions]``.

Each command runs as a fresh process, from its start to its exit (interpreter start, imports, work,
output files), alternated with its yardstick (A B A B ...), so a drifting machine load hits both; the
table gives the median wall and CPU seconds of each and the median of the pair-by-pair ratios.

- ``solve cfr kuhn``: 1,000 CFR+ iterations on Kuhn, then its exploitability, strategy and curve files;
  against ``pyspiel.CFRPlusSolver`` for 1,000 iterations and ``pyspiel.nash_conv`` (both C++). Both
  reach the same NashConv (printed: equal to 1e-12), so the work is the same. Ours loads numpy with
  OpenBLAS on one thread and its modules with the cyclic collector paused (``showdown/cli/blas.py``,
  ``showdown/cli/startup.py``); the row against ``import numpy`` (which starts OpenBLAS's thread pool:
  CPU above wall on 2 cores) shows what the command adds to numpy's own import.
- ``solve cfr kuhn3p``: 1,000 CFR+ iterations of 3-player Kuhn, in numpy (numba's import would not pay).
- the floors: ``python -c pass`` and ``python -c 'import numpy'`` (what any numpy program pays).
- ``showdown --help`` (every command's parser) and ``showdown match --help`` (one command's).

``--instructions`` counts instead the instructions each whole command executes, under valgrind's callgrind
(a count the machine's load does not move): the solve with numba's switch off and the solver's clock
faked (``SOLVE_UNDER_VALGRIND``), since valgrind's slowness would otherwise move the switch to numba and
the curve's time-based checks; ``OPENBLAS_NUM_THREADS=1``, ``PYTHONHASHSEED=0``, no address randomisation.

Bytecode caches are written by a warm-up run first (``PYTHONDONTWRITEBYTECODE`` is cleared for the
children), as a user's installed package has them.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OPENSPIEL_KUHN = (
    "import pyspiel\n"
    "game = pyspiel.load_game('kuhn_poker')\n"
    "solver = pyspiel.CFRPlusSolver(game)\n"
    "for _ in range(1000):\n"
    "    solver.evaluate_and_update_policy()\n"
    "print(pyspiel.nash_conv(game, solver.tabular_average_policy()))\n"
)


SOLVE_UNDER_VALGRIND = (
    "import itertools, sys, types\n"
    "from showdown.cli import startup\n"
    "startup.begin()\n"
    "import showdown.solvers.cfr as cfr\n"
    "cfr.NUMBA_IMPORT_SECONDS = float('inf')\n"
    "tick = itertools.count()\n"
    "cfr.time = types.SimpleNamespace(perf_counter=lambda: next(tick) * 1e-6)\n"
    "from showdown.cli.main import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def instructions(command: list[str], env: dict[str, str]) -> int:
    """Instructions executed by one whole run of ``command`` (callgrind's total), its BLAS on one thread."""
    env = {**env, "OPENBLAS_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}
    subprocess.run(command, env=env, capture_output=True, check=True)  # bytecode caches
    fixed = ["setarch", "-R"] if subprocess.run(["setarch", "-R", "true"], capture_output=True).returncode == 0 else []
    out = subprocess.run([*fixed, "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                         env=env, capture_output=True, text=True, check=True).stderr
    return int(out.rsplit("Collected : ", 1)[1].split()[0])


def count_instructions(py: str, tmp: Path, env: dict[str, str]) -> None:
    """The ``--instructions`` table: millions of instructions per whole command."""
    solve = [py, "-c", SOLVE_UNDER_VALGRIND, "solve", "cfr", "kuhn", "-q", "-o", str(tmp / "k.json")]
    rows = {
        "python -c pass": [py, "-c", "pass"],
        "import numpy (one BLAS thread)": [py, "-c", "import numpy"],
        "solve cfr kuhn -n 0 (loading, tree, files)": [*solve, "-n", "0"],
        "solve cfr kuhn (1,000 iterations)": [*solve, "-n", "1000"],
        "OpenSpiel C++ CFR+ (1,000 iterations)": [py, "-c", OPENSPIEL_KUHN],
    }
    for name, command in rows.items():
        try:
            print(f"{name:45s} {instructions(command, env) / 1e6:8.1f}M instructions")
        except (subprocess.CalledProcessError, FileNotFoundError) as exc:
            print(f"{name:45s} not counted ({exc})")


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU (user + system) seconds of one whole run of ``command``, and its standard output."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, out


def paired(a: list[str], b: list[str], pairs: int, env: dict[str, str]) -> dict[str, float]:
    """Medians of A's and B's wall and CPU over alternated runs, and the medians of the per-pair ratios."""
    run(a, env), run(b, env)  # warm-up: bytecode caches, page cache
    rows = [(run(a, env), run(b, env)) for _ in range(pairs)]
    return {
        "a_wall": statistics.median(ra[0] for ra, _ in rows),
        "b_wall": statistics.median(rb[0] for _, rb in rows),
        "a_cpu": statistics.median(ra[1] for ra, _ in rows),
        "b_cpu": statistics.median(rb[1] for _, rb in rows),
        "wall_ratio": statistics.median(ra[0] / rb[0] for ra, rb in rows),
        "cpu_ratio": statistics.median(ra[1] / rb[1] for ra, rb in rows),
    }


def show(name: str, m: dict[str, float]) -> None:
    print(
        f"{name:42s} {1000 * m['a_wall']:8.0f} {1000 * m['a_cpu']:8.0f} {1000 * m['b_wall']:8.0f} {1000 * m['b_cpu']:8.0f}"
        f" {m['wall_ratio']:7.2f}x {m['cpu_ratio']:6.2f}x"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=9, help="alternated pairs per row (default 9)")
    ap.add_argument("--instructions", action="store_true", help="count instructions under valgrind instead of timing")
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parents[1]), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        if args.instructions:
            count_instructions(py, Path(tmp), env)
            return
        ours = [py, "-m", "showdown", "solve", "cfr", "kuhn", "-n", "1000", "-q", "--json", "-o", str(Path(tmp) / "k.json")]
        openspiel = [py, "-c", OPENSPIEL_KUHN]
        try:
            theirs = float(run(openspiel, env)[2])
        except SystemExit:
            theirs = None
        nash_conv = 2 * json.loads(run(ours, env)[2])["exploitability"]
        print(f"load average {os.getloadavg()[0]:.2f}; {args.pairs} alternated pairs; medians in ms; A/B = median of pair ratios")
        print(f"{'A (vs B)':42s} {'A wall':>8s} {'A cpu':>8s} {'B wall':>8s} {'B cpu':>8s} {'wall A/B':>8s} {'cpu A/B':>7s}")
        if theirs is not None:
            print(f"(NashConv after 1,000 CFR+ iterations: ours {nash_conv:.12e}, OpenSpiel {theirs:.12e})")
            show("solve cfr kuhn (vs OpenSpiel C++ CFR+)", paired(ours, openspiel, args.pairs, env))
        else:
            print("(pyspiel not importable: pip install open_spiel for the OpenSpiel row)")
        kuhn3p = [py, "-m", "showdown", "solve", "cfr", "kuhn3p", "-q", "-o", str(Path(tmp) / "k3.json")]
        show("solve cfr kuhn3p (vs import numpy)", paired(kuhn3p, [py, "-c", "import numpy"], args.pairs, env))
        show("import numpy (vs python -c pass)", paired([py, "-c", "import numpy"], [py, "-c", "pass"], args.pairs, env))
        show("solve cfr kuhn (vs import numpy)", paired(ours, [py, "-c", "import numpy"], args.pairs, env))
        show("showdown --help (vs python -c pass)", paired([py, "-m", "showdown", "--help"], [py, "-c", "pass"], args.pairs, env))
        show("showdown match --help (vs python -c pass)", paired([py, "-m", "showdown", "match", "--help"], [py, "-c", "pass"], args.pairs, env))
        print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

"""``showdown dealer``'s start-up: from exec to the ports line on stdout, beside Python's own start.

    PYTHONPATH=. python benchmarks/bench_dealer_start.py [--runs 21]

Each run starts ``python -m showdown dealer`` (a Kuhn match, ``-q``) and times it from just before
the exec to the moment its first stdout line (the ports) is read, then kills it; alternated with
``python -c pass`` (the interpreter's start, ``site`` included, the floor of any Python command) and
with ``python -S -c pass`` (the interpreter alone). Prints the medians and what the dealer adds to
Python's start. The modules are byte-compiled first, as ``pip install`` does.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ports_line_ms(work: Path, run: int) -> float:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "showdown", "dealer", f"start{run}", "kuhn", "10", "1", "a", "b", "-q", "-l"],
                            cwd=work, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    proc.kill()
    proc.wait()
    if len(line.split()) != 2:
        raise SystemExit(f"bench_dealer_start: no ports line from the dealer (got {line!r})")
    return elapsed * 1e3


def exit_ms(*flags: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *flags, "-c", "pass"], check=True)
    return (time.perf_counter() - start) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "showdown", quiet=1)
    load = os.getloadavg()[0]
    dealer, python, bare = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            dealer.append(ports_line_ms(Path(tmp), run))
            python.append(exit_ms())
            bare.append(exit_ms("-S"))
    d, p, b = (statistics.median(x) for x in (dealer, python, bare))
    print(f"showdown dealer, exec to ports line: median {d:.1f} ms (min {min(dealer):.1f}); python -c pass: {p:.1f} ms; "
          f"python -S -c pass: {b:.1f} ms; the dealer adds {d - p:.1f} ms to Python's start ({args.runs} runs, load average "
          f"{load:.2f} -> {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()

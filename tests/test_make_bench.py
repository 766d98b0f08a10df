"""``make bench`` runs every ``benchmarks/bench_*.py`` with no argument and stops at the first failure."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_benchmark_requires_an_argument() -> None:
    needing = [p.name for p in sorted(ROOT.glob("benchmarks/bench_*.py"))
               if re.search(r"required\s*=\s*True", p.read_text(encoding="utf-8"))]
    assert needing == [], f"make bench runs these with no argument, and they refuse to start: {needing}"


def test_interop_benchmark_without_the_reference_dealer_is_skipped() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SHOWDOWN_ACPC"}
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_interop_cfr.py")],
                         capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "skipped: give --acpc DIR" in run.stdout


def test_every_benchmark_answers_help() -> None:
    """``--help`` says how to run each benchmark (bench_evaluate.py read it as its hand count: a traceback)."""
    failing = []
    for path in sorted(ROOT.glob("benchmarks/bench_*.py")):
        run = subprocess.run([sys.executable, str(path), "--help"], capture_output=True, text=True, timeout=120)
        if run.returncode != 0 or "usage:" not in run.stdout:
            failing.append(f"{path.name}: {(run.stderr.strip().splitlines() or ['no usage'])[-1]}")
    assert failing == []

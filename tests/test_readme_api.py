"""The README's library example runs and prints what its comments say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_library_example_runs(tmp_path: Path) -> None:
    readme = ROOT.joinpath("README.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", readme, re.S) if "solve_sequence_lp" in b)
    done = subprocess.run([sys.executable, "-c", block], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["-0.0856", "True", "{'c': 1.0} c", "True"]

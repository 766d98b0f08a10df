"""The README's first example prints what the README shows (all but the timing line)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_quick_start_match_prints_what_the_readme_shows(tmp_path: Path) -> None:
    readme = ROOT.joinpath("README.md").read_text(encoding="utf-8")
    block = re.search(r"```text\n\$ (showdown match [^\n]*)\n(.*?)```", readme, re.S)
    assert block is not None
    command, shown = block.group(1), block.group(2).splitlines()
    done = subprocess.run([sys.executable, "-m", "showdown", *shlex.split(command)[1:], "--no-progress"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    assert re.sub(r", [0-9.]+ s \(.*\)$", "", printed[0]) == re.sub(r", [0-9.]+ s \(.*\)$", "", shown[0])
    assert [line for line in printed[1:] if not line.startswith("log: ")] == shown[1:]

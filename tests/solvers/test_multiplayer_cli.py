"""The command line for 3-player games: solve cfr (NashConv, checkpoints) and exploit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def showdown(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "showdown", *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_solve_cfr_kuhn3p_writes_a_nash_conv_curve_and_resumes(tmp_path: Path) -> None:
    first = showdown("solve", "cfr", "kuhn3p", "--iterations", "50", "--checkpoint", "c.npz", "-o", "s.json", "--json", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    doc = json.loads(first.stdout)
    assert doc["measure"] == "NashConv" and doc["iterations"] == 50 and len(doc["values"]) == 3
    curve = json.loads((tmp_path / "s.curve.json").read_text())
    assert curve["measure"] == "NashConv" and curve["points"][-1]["exploitability"] == doc["nash_conv"]
    again = showdown("solve", "cfr", "kuhn3p", "--iterations", "400", "--checkpoint", "c.npz", "-o", "s.json", "--json", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "resuming" in again.stderr and json.loads(again.stdout)["nash_conv"] < doc["nash_conv"]
    exploit = showdown("exploit", "s.json", "--json", cwd=tmp_path)
    assert exploit.returncode == 0, exploit.stderr
    report = json.loads(exploit.stdout)
    resumed = json.loads(again.stdout)
    assert report["players"] == 3 and abs(report["nash_conv"] - resumed["nash_conv"]) < 1e-12
    assert abs(report["exploitability"] - resumed["exploitability"]) < 1e-12


def test_exploit_an_agent_in_leduc3p(tmp_path: Path) -> None:
    out = showdown("exploit", "--agent", "rules", "--game", "leduc3p", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "position 2:" in out.stdout and "NashConv (sum of the gains)" in out.stdout


def test_nolimit_three_players_is_one_line(tmp_path: Path) -> None:
    out = showdown("solve", "cfr", "holdem-nolimit-3p", "--iterations", "1", cwd=tmp_path)
    assert out.returncode == 2 and "limit games only" in out.stderr and "Traceback" not in out.stderr

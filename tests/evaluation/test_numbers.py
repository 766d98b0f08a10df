"""Figures as text: the digits that are significant, and the sign kept."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from showdown.evaluation.numbers import decimals, interval_text, signed

ROOT = Path(__file__).resolve().parents[2]


def test_sampled_figures_keep_two_decimals() -> None:
    assert decimals([(3.21, 1.5), (-40.0, 12.0)]) == 2
    assert signed(3.2109, decimals([(3.21, 1.5)])) == "+3.21"


def test_a_narrow_interval_or_an_exact_value_gets_the_digits_it_needs() -> None:
    assert decimals([(-0.00088, 0.0002)]) == 4  # one significant digit of the half-width
    assert decimals([(-0.00088, 0.0)]) == 4  # exact and not zero: its first digit
    assert signed(-0.00088, 4) == "-0.0009"
    assert decimals([(0.0, 0.0), (5.5559, 0.0)]) == 2  # an exact zero needs nothing more
    assert decimals([(1e-12, 0.0)], most=6) == 2  # round-off of an exact zero
    assert decimals([(-1e-5, 0.0)]) == 5 and decimals([(-1e-9, 1e-10)]) == 6  # at most six


def test_the_sign_is_kept_and_only_round_off_reads_as_zero() -> None:
    assert signed(-0.001) == "-0.00"  # not significant, still negative
    assert signed(-1e-12) == "+0.00"
    assert interval_text((-0.0011, -0.0007), 4) == "[-0.0011, -0.0007]"
    assert interval_text(None) == "n/a"


def test_a_match_between_cfr_and_equilibrium_shows_the_exact_difference_with_its_sign(tmp_path: Path) -> None:
    """Both agents used to print +0.00 while the difference line said p < 0.0001."""
    r = subprocess.run(
        [sys.executable, "-m", "showdown", "match", "kuhn", "cfr", "equilibrium", "--hands", "300", "--seed", "3",
         "--out", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert r.returncode == 0, r.stderr
    rows = {line.split()[0]: line.split() for line in r.stdout.splitlines() if line.startswith(("cfr ", "equilibrium ")) and " - " not in line}
    doc = json.loads((tmp_path / "out" / "kuhn.cfr-equilibrium.seed3.result.json").read_text())
    cfr = next(a for a in doc["agents"] if a["name"] == "cfr")["per100"]
    assert cfr < 0 and rows["cfr"][2] == signed(cfr, 4) and rows["cfr"][2] != "+0.00"
    assert rows["equilibrium"][2].startswith("+0.000")
    difference = next(line for line in r.stdout.splitlines() if line.startswith("cfr - equilibrium"))
    assert difference.startswith("cfr - equilibrium: -0.00") and "p < 0.0001" in difference
    assert "-0.0000" not in difference

"""`showdown match` against bots that answer with junk, endless or oversize lines (issue 31, item 2):
every hand in which the dealer chose a seat's action counts toward --max-replaced, whatever the
reason, and the summary says how many hands and why."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.evaluation.verify import verify_log

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
BOT = Path(__file__).with_name("hostile_bot.py")


def match(tmp: Path, mode: str, hands: int, *extra: str) -> subprocess.CompletedProcess[str]:
    (tmp / "match.yaml").write_text(
        f"game: kuhn\nhands: {hands}\nagents:\n  - {{command: \"{sys.executable} {BOT} {mode}\", label: {mode}}}\n"
        "  - rules\ndealer: {t_response_ms: 2000}\n"
    )
    return subprocess.run([sys.executable, "-m", "showdown", "match", "--config", str(tmp / "match.yaml"), *extra],
                          cwd=tmp, env=ENV, capture_output=True, text=True, timeout=180, check=False)


@pytest.mark.parametrize(("mode", "hands", "why"), [("junk", 300, "invalid or no reply"), ("endless", 300, "invalid or no reply"),
                                                   ("malformed", 300, "malformed action")])
def test_a_bot_whose_every_action_the_dealer_chose_is_degraded_exit_3(tmp_path: Path, mode: str, hands: int, why: str) -> None:
    r = match(tmp_path, mode, hands, "--max-replaced", "0.01", "--json")
    assert r.returncode == 3, r.stderr
    doc = json.loads(r.stdout)
    assert doc["degraded"] is True and doc["hands"] == hands
    assert doc["replaced_hands"][mode] >= hands * 0.9 and doc["replaced_hands"]["rules"] == 0
    assert f"seat 1 ({mode}) was played by the dealer in" in r.stderr and why in r.stderr
    assert verify_log(tmp_path / doc["log"]).ok


def test_the_table_says_degraded_and_why(tmp_path: Path) -> None:
    r = match(tmp_path, "junk", 200)
    assert r.returncode == 3, r.stderr
    first = r.stdout.splitlines()[0]
    assert first.startswith("DEGRADED MATCH: the dealer played for junk in 200 of 200 hands"), r.stdout
    assert "invalid or no reply" in first


def test_one_16_mb_line_costs_hands_that_count_as_played_by_the_dealer(tmp_path: Path) -> None:
    r = match(tmp_path, "huge-once", 400, "--max-replaced", "0.01", "--json")
    doc = json.loads(r.stdout)
    chosen = doc["replaced_hands"]["huge-once"]
    assert chosen > 4  # 16 MB = 4,097 cut lines, 32 per decision played by the dealer
    assert r.returncode == 3 and doc["degraded"] is True, r.stderr
    loose = match(tmp_path, "huge-once", 400, "--max-replaced", "1", "--json", "--force")
    assert loose.returncode == 0, loose.stderr


def test_a_well_behaved_bot_is_not_degraded(tmp_path: Path) -> None:
    r = match(tmp_path, "call", 200, "--max-replaced", "0.01", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["replaced_hands"]["call"] == 0

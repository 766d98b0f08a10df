"""3-player matches end to end over real sockets and processes: cfr, equilibrium, exploiter and
rules in kuhn3p and leduc3p, with per-seat and per-position results and the exact values beside."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.agents.exploiter import agent_strategy, exploit_plan
from showdown.api import run_match
from showdown.games.catalog import get_game
from showdown.solvers.multiplayer import build_ntree, evaluate
from showdown.solvers.strategy import ntree_sigma


def test_kuhn3p_match_reports_exact_values_inside_the_intervals(tmp_path: Path) -> None:
    result = run_match("kuhn3p", ["cfr", "equilibrium", "rules"], hands=6000, seed=3, out=tmp_path)
    doc = result.to_json()
    exact = doc["exact_values"]
    assert exact is not None and exact["hands"] == 6000
    assert sum(exact["agents"].values()) == pytest.approx(0.0, abs=1e-9)
    for row in doc["agents"]:
        lo, hi = row["ci95"]
        assert lo <= exact["agents"][row["name"]] <= hi
    for row in doc["positions"]:
        lo, hi = row["ci95"]
        assert lo <= exact["positions"][row["position"]] <= hi
    assert "exact expected chips/100" in str(result)


def test_leduc3p_match_end_to_end_on_the_command_line(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "showdown", "match", "leduc3p", "cfr", "cfr", "rules", "--hands", "900",
         "--seed", "5", "--out", str(tmp_path), "--json"],
        capture_output=True, text=True, timeout=300, check=True,
    )
    doc = json.loads(out.stdout)
    assert doc["hands"] == 900 and len(doc["agents"]) == 3 and len(doc["positions"]) == 3
    assert doc["exact_values"] is not None
    verify = subprocess.run([sys.executable, "-m", "showdown", "verify-log", doc["log"]], capture_output=True, text=True, timeout=120)
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_exact_values_only_when_every_strategy_is_known(tmp_path: Path) -> None:
    known = run_match("kuhn3p", ["random", "rules", "call"], hands=300, seed=1, out=tmp_path / "o")
    assert known.to_json()["exact_values"] is not None
    from showdown.agents.baseline import RandomAgent

    # an agent object played in this process: its table is not vouched for, so no exact values
    mixed = run_match("kuhn3p", [RandomAgent(get_game("kuhn3p")), "rules", "call"], hands=300, seed=1, out=tmp_path / "p")
    assert mixed.to_json()["exact_values"] is None


def test_exploiter_best_responds_to_every_other_seat() -> None:
    game = get_game("kuhn3p")
    rules = agent_strategy("rules", game)
    plan = exploit_plan(rules)
    tree = build_ntree(game)
    ev = evaluate(tree, ntree_sigma(tree, rules))
    assert plan.values == pytest.approx(ev.best_response)
    assert all(b > v for b, v in zip(plan.values, ev.values))

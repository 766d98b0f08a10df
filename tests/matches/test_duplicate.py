"""Duplicate matches: the halves deal the same cards with the seats moved, run at once, and pair up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.evaluation.verify import verify_log
from showdown.matches.config import AgentSpec, MatchConfig
from showdown.matches.duplicate import half_agent_seed, half_configs
from showdown.matches.runner import derive_seed, run_match
from showdown.protocol.logfile import HandRecord

ROOT = Path(__file__).resolve().parents[2]


def config(*agents: str, **kw: object) -> MatchConfig:
    return MatchConfig(game=kw.pop("game", "kuhn"), agents=tuple(AgentSpec(name=a) for a in agents), **kw)  # type: ignore[arg-type]


def records(path: str | Path) -> list[HandRecord]:
    lines = Path(path).read_text().splitlines()
    return [HandRecord.from_json(x) for x in lines if x.strip() and '"summary"' not in x]


def test_halves_move_every_agent_through_every_seat(tmp_path: Path) -> None:
    cfg = config("rules", "random", seed=9, hands=10)
    a, b = half_configs(cfg, ["rules", "random"], "m", tmp_path)
    assert [s.label for s in a.agents] == ["rules", "random"] and [s.label for s in b.agents] == ["random", "rules"]
    assert a.seed == b.seed == 9 and a.name == "m.dup0" and b.name == "m.dup1" and not a.duplicate
    assert a.agents[0].seed == derive_seed(9, 0)  # half 0 is the plain match
    assert b.agents[1].seed == half_agent_seed(9, 1, 0) != a.agents[0].seed
    three = half_configs(config("a", "b", "c", game="kuhn3p"), ["a", "b", "c"], "m", tmp_path)
    assert [[s.label for s in h.agents] for h in three] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    kept = half_configs(MatchConfig("kuhn", (AgentSpec(name="random", seed=5), AgentSpec(name="call"))), ["random", "call"], "m", tmp_path)
    assert kept[1].agents[1].seed == 5  # an explicit seed is kept


def test_duplicate_match_pairs_the_same_deals(tmp_path: Path) -> None:
    report = run_match(
        config("rules", "random", hands=300, seed=4, out=tmp_path, duplicate=True, estimator="duplicate", jobs=2),
        progress=False,
    )
    assert report.hands == 600 and report.hands_requested == 600 and len(report.halves) == 2
    assert report.analysis is not None and report.analysis.paired and report.analysis.deals == 300
    assert report.estimator == "duplicate" and report.names == ("rules", "random")
    assert [h["seats"] for h in report.halves] == [["rules", "random"], ["random", "rules"]]
    first, second = (records(h["jsonl"]) for h in report.halves)
    assert len(first) == len(second) == 300
    for x, y in zip(first, second):
        assert x.hand == y.hand and x.hole == y.hole  # the same cards at the same positions
        assert x.players == tuple(reversed(y.players))  # the agents swapped
    for h in report.halves:
        assert verify_log(h["log"]).ok
    assert sum(report.totals) == pytest.approx(0)
    rules = report.analysis.agent_reduction(0)
    assert rules is not None and rules > 1.0  # pairing removed card luck
    # the halves' logs analysed afterwards give the same paired figures
    from showdown.evaluation.analyze import analyze
    from showdown.evaluation.log_reading import read_logs

    again = analyze(read_logs([h["jsonl"] for h in report.halves]).table, estimator="duplicate")
    assert again.deals == 300
    for e1, e2 in zip(again.agents, report.agent_stats):
        assert e1.mean == pytest.approx(e2.mean) and e1.se == pytest.approx(e2.se)
    acpc = analyze(read_logs([h["log"] for h in report.halves]).table, estimator="duplicate")
    assert [e.mean for e in acpc.agents] == pytest.approx([e.mean for e in report.agent_stats])


def test_duplicate_with_known_strategies_uses_aivat_and_copies_do_not_replay(tmp_path: Path) -> None:
    report = run_match(config("random", "random", hands=200, seed=2, out=tmp_path, duplicate=True), progress=False)
    assert report.names == ("random-1", "random-2") and report.estimator == "aivat"
    assert report.analysis is not None and report.analysis.exact
    first, second = (records(h["jsonl"]) for h in report.halves)
    # two copies of one randomised agent get different seeds in each half: no mirrored replay
    assert any(x.betting != y.betting for x, y in zip(first, second))
    from showdown.agents.exploiter import agent_strategy
    from showdown.games.catalog import get_game
    from showdown.solvers.best_response import expected_value

    kuhn = get_game("kuhn")
    value = expected_value(kuhn, agent_strategy("random", kuhn))  # random against itself, position 0
    assert report.position_stats[0].mean == pytest.approx(value) and report.position_stats[0].se == 0.0


def test_cli_duplicate_json(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    run = subprocess.run(
        [sys.executable, "-m", "showdown", "match", "kuhn", "bluff", "call", "--hands", "150",
         "--estimator", "duplicate", "--out", str(tmp_path), "--json"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert doc["estimator"] == "duplicate" and doc["paired_deals"] == 150 and doc["hands"] == 300
    assert len(doc["halves"]) == 2 and all(Path(h["log"]).exists() for h in doc["halves"])
    assert {"plain", "variance_reduction"} <= set(doc["agents"][0])
    assert doc["differences"][0]["a"] == "bluff" and "p_value" in doc["differences"][0]


def test_the_halves_work_out_their_chance_corrections_and_the_figures_are_those_of_the_logs(tmp_path: Path) -> None:
    from showdown.evaluation.analyze import analyze
    from showdown.evaluation.log_reading import read_logs

    cfg = MatchConfig(game="holdem-nolimit", agents=(AgentSpec(name="rules"), AgentSpec(name="probe-tiny")), hands=150,
                      seed=6, duplicate=True, estimator="chance", out=tmp_path, in_memory=True)  # type: ignore[arg-type]
    report = run_match(cfg, progress=False)
    assert report.estimator == "chance" and report.hands == 300
    assert not list(tmp_path.glob("*.chance.json"))  # read by the runner, then removed
    logs = sorted(tmp_path.glob("*.dup?.jsonl"))
    again = analyze(read_logs(logs, chance=True).table, estimator="chance", big_blind=100, show_mbb=True, pair=True)
    assert [a.mean for a in again.agents] == [a.mean for a in report.agent_stats]  # worked out here, from scratch
    assert [a.ci95 for a in again.agents] == [a.ci95 for a in report.agent_stats]


def test_a_halfs_corrections_file_is_every_hand_of_its_log(tmp_path: Path) -> None:
    from showdown.evaluation.log_reading import read_logs
    from showdown.matches.duplicate import _known_corrections
    from showdown.matches.parallel import _save_corrections

    cfg = MatchConfig(game="holdem-limit", agents=(AgentSpec(name="rules"), AgentSpec(name="random")), hands=80, seed=2,
                      out=tmp_path, in_memory=True, name="half")
    report = run_match(cfg, progress=False)
    assert report.jsonl_path is not None
    _save_corrections(report.jsonl_path, cfg, tmp_path / "half.chance.json")
    known = _known_corrections([report.jsonl_path])
    assert known is not None and len(known["corrections"]) == 80 and not (tmp_path / "half.chance.json").exists()
    assert known["settings"] == {"game": "holdem-limit", "sample_boards": True, "boards": 10_000}
    fresh = read_logs([report.jsonl_path], chance=True).table
    looked_up = read_logs([report.jsonl_path], chance=True, known_corrections=known).table
    assert fresh.chance is not None and looked_up.chance is not None and (fresh.chance == looked_up.chance).all()
    wrong = {**known, "corrections": {k: 1.0 for k in known["corrections"]}}
    assert not (read_logs([report.jsonl_path], chance=True, known_corrections=wrong).table.chance == fresh.chance).all()


def test_chance_boards_sets_how_many_boards_each_flops_correction_draws(tmp_path: Path) -> None:
    from showdown.evaluation.analyze import analyze
    from showdown.evaluation.log_reading import read_logs

    def play(boards: int, out: Path) -> tuple[object, list[Path]]:
        cfg = MatchConfig(game="holdem-limit", agents=(AgentSpec(name="call"), AgentSpec(name="rules")), hands=60, seed=8,
                          duplicate=True, estimator="chance", out=out, in_memory=True, chance_boards=boards)  # type: ignore[arg-type]
        return run_match(cfg, progress=False), sorted(out.glob("*.dup?.jsonl"))

    few, logs = play(300, tmp_path / "few")
    many, _ = play(10_000, tmp_path / "many")
    assert few.totals == many.totals  # the same hands (every one reaches the flop: `call`)
    assert [a.mean for a in few.agent_stats] != [a.mean for a in many.agent_stats]  # corrected from other boards
    again = analyze(read_logs(logs, chance=True, chance_boards=300).table, estimator="chance", big_blind=10, show_mbb=True, pair=True)
    assert [a.mean for a in again.agents] == [a.mean for a in few.agent_stats]

"""Whole matches: the real dealer in-process, every agent its own OS process, over real sockets."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from showdown.errors import ConfigError
from showdown.evaluation.report import MatchReport, format_table, report_json
from showdown.evaluation.stats import MatchStats
from showdown.evaluation.verify import verify_log
from showdown.matches.config import AgentSpec, DealerSettings, MatchConfig, load_match_config, merge_config
from showdown.matches.runner import Progress, agent_command, derive_seed, run_match, seat_labels
from showdown.protocol.logfile import HandRecord

ROOT = Path(__file__).resolve().parents[2]


def config(game: str, *agents: str | AgentSpec, hands: int = 200, out: Path | None = None, **kw: object) -> MatchConfig:
    specs = tuple(a if isinstance(a, AgentSpec) else AgentSpec(name=a) for a in agents)
    return MatchConfig(game=game, agents=specs, hands=hands, out=out, **kw)  # type: ignore[arg-type]


def play(cfg: MatchConfig) -> tuple[MatchReport, list[str]]:
    notes: list[str] = []
    report = run_match(cfg, progress=False, notify=notes.append)
    return report, notes


@pytest.mark.parametrize(
    "game,agents,hands",
    [
        ("kuhn", ("random", "rules"), 400),
        ("leduc", ("rules", "bluff"), 200),
        ("holdem-limit", ("random", "call"), 150),
        ("holdem-nolimit", ("random", "rules"), 150),
        ("kuhn3p", ("random", "rules", "bluff"), 200),
        ("holdem-nolimit-3p", ("rules", "call", "random"), 100),
    ],
)
def test_a_match_plays_every_hand_and_its_log_verifies(tmp_path: Path, game: str, agents: tuple[str, ...], hands: int) -> None:
    records: list[HandRecord] = []
    report = run_match(config(game, *agents, hands=hands, out=tmp_path, seed=11), progress=False, on_hand=records.append)
    assert report.hands == hands and not report.aborted and not report.failures
    assert len(records) == hands
    assert report.names == agents
    assert sum(report.totals) == pytest.approx(0)
    assert report.analysis is not None
    assert [e.total for e in report.analysis.plain_agents] == pytest.approx(report.totals)
    assert sum(e.total for e in report.analysis.plain_positions) == pytest.approx(0)
    assert sum(e.mean for e in report.position_stats) == pytest.approx(0)
    # AIVAT wherever the game's tree and an agent's strategy are known (all these are built-ins); else
    # the chance-only corrections in 2-player games; plain with more players
    best = "aivat" if game in ("kuhn", "leduc") else "chance" if len(agents) == 2 else "plain"
    assert report.estimator == best
    assert all(sum(c.values()) == 0 for c in report.replacements.values())  # the dealer replaced nothing
    assert report.log_path is not None and report.log_path.exists()
    check = verify_log(report.log_path)
    assert check.ok, check.problems[:3]
    assert check.hands == hands


def test_rotation_and_positions_in_the_report(tmp_path: Path) -> None:
    # bluff against call in Kuhn: every position's result aggregates whoever sat there
    report = run_match(config("kuhn", "bluff", "call", hands=100, out=tmp_path), progress=False)
    data = report_json(report)
    assert [a["name"] for a in data["agents"]] == ["bluff", "call"]
    assert [p["position"] for p in data["positions"]] == [0, 1]
    assert data["hands"] == 100 and data["game"] == "kuhn" and data["seed"] == 0
    assert data["log"] == str(report.log_path)
    lo, hi = data["agents"][0]["ci95"]
    assert lo <= data["agents"][0]["per100"] <= hi
    assert data["estimator"] == "aivat" and data["exact"] is True  # both strategies known: exact values
    assert data["agents"][0]["total"] == pytest.approx(data["agents"][0]["plain"]["per100"])  # 100 hands
    table = format_table(report)
    assert "position 0" in table and "chips/100" in table and "mbb/hand" not in table


def test_same_agents_get_distinct_names_and_seeds() -> None:
    specs = [AgentSpec(name="random"), AgentSpec(name="random"), AgentSpec(name="rules")]
    assert seat_labels(specs) == ["random-1", "random-2", "rules"]
    assert derive_seed(0, 0) != derive_seed(0, 1)
    assert derive_seed(5, 1) == derive_seed(5, 1) != derive_seed(6, 1)
    args = agent_command(AgentSpec(name="random", options={"sizing": "pot", "x": True}), "kuhn", 42, "127.0.0.1", 9)
    assert args[1:] == ["-P", "-m", "showdown", "agent", "random", "--game", "kuhn", "--seed", "42",
                        "-o", "sizing=pot", "-o", "x=true", "127.0.0.1", "9"]  # fmt: skip
    assert agent_command(AgentSpec(command="./bot --x 'a b'"), "kuhn", 1, "h", 2) == ["./bot", "--x", "a b", "h", "2"]


def test_a_users_file_named_like_a_standard_module_does_not_break_the_built_in_agents(tmp_path: Path) -> None:
    """A random.py (or json.py) in the folder a match runs from was imported by every built-in agent's
    process instead of the standard library's (``python -m`` puts the folder first): they failed to start."""
    for shadow in ("random.py", "json.py"):
        (tmp_path / shadow).write_text("raise RuntimeError('the user\'s own module, not the standard library')\n")
    done = subprocess.run([sys.executable, "-P", "-m", "showdown", "match", "kuhn", "random", "call", "--hands", "30", "--seed", "1",
                           "--out", str(tmp_path / "out"), "--json", "--no-progress"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"] == 30


def test_mirror_match_of_one_agent_with_itself(tmp_path: Path) -> None:
    report = run_match(config("holdem-limit", "random", "random", hands=100, out=tmp_path, seed=3), progress=False)
    assert report.names == ("random-1", "random-2")
    assert report.show_mbb and report.big_blind == 10
    assert "mbb/hand" in format_table(report)
    assert verify_log(report.log_path).ok  # type: ignore[arg-type]


def test_yaml_with_an_outside_bot_and_agent_options(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text(
        f"""
game: leduc
hands: 150
seed: 4
out: {tmp_path / 'logs'}
agents:
  - {{command: "{sys.executable} {ROOT / 'examples' / 'my_bot.py'}", label: my_bot}}
  - {{name: random, seed: 8, options: {{sizing: pot}}}}
"""
    )
    cfg = merge_config(load_match_config(path))
    report, notes = play(cfg)
    assert notes == [] and report.names == ("my_bot", "random")
    assert report.hands == 150 and all(sum(c.values()) == 0 for c in report.replacements.values())
    assert verify_log(report.log_path).ok  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "command, says",
    [
        ("{tmp}/no-such-bot", "could not be started: {tmp}/no-such-bot: No such file"),
        ("{py} -c \"import no_such_module_anywhere\"", "exited with status 1 before the match began: "),
        ("{py} -c \"import sys; print('loading'); sys.exit('bot: no model file')\"", "bot: no model file"),
    ],
)
def test_a_bot_that_cannot_start_stops_the_match_before_its_first_hand(tmp_path: Path, command: str, says: str) -> None:
    command = command.format(tmp=tmp_path, py=sys.executable)
    cfg = config("kuhn", AgentSpec(command=command, label="mybot"), "random", hands=50, out=tmp_path,
                 dealer=DealerSettings(start_timeout_ms=15_000))
    started = time.monotonic()
    with pytest.raises(ConfigError) as err:
        run_match(cfg, progress=False)
    assert time.monotonic() - started < 10  # not the 15 s start timeout
    assert str(err.value).startswith("agent mybot (seat 1) ")
    assert says.format(tmp=tmp_path) in str(err.value)
    assert not list(tmp_path.glob("*.log")) and not list(tmp_path.glob("*.jsonl"))  # nothing looks like a match


def test_a_bot_that_dies_during_the_match_marks_it_degraded(tmp_path: Path) -> None:
    crash_later = (
        f"{sys.executable} -c \"import os, sys, socket; s = socket.create_connection((sys.argv[1], int(sys.argv[2]))); "
        f"s.sendall(('VERSION:2.0.0 token=' + os.environ['SHOWDOWN_SEAT_TOKEN'] + '\\r\\n').encode()); "
        f"s.recv(100); sys.exit('bot: something broke')\""
    )
    cfg = config("kuhn3p", AgentSpec(command=crash_later, label="crasher"), "random", "call", hands=50, out=tmp_path,
                 dealer=DealerSettings(reconnect_ms=200))
    report, notes = play(cfg)
    assert report.hands == 50 and not report.aborted
    assert any("crasher (seat 1) exited with status 1: bot: something broke; the dealer plays" in n for n in notes)
    assert report.replacements["crasher"]["disconnect"] > 0
    assert report.replaced_hands["crasher"] >= 45 and report.replaced_hands["random"] == 0
    assert report.degraded
    table = format_table(report)
    assert table.splitlines()[0].startswith("DEGRADED MATCH: the dealer played for crasher in")
    doc = report_json(report)
    assert doc["degraded"] is True and doc["replaced_hands"]["crasher"] == report.replaced_hands["crasher"]
    assert (tmp_path / f"{report.log_path.stem}.crasher.stderr").read_text().strip().endswith("bot: something broke")  # type: ignore[union-attr]
    assert verify_log(report.log_path).ok  # type: ignore[arg-type]


def test_wrong_number_of_agents_unknown_agent_and_bad_options_fail_before_starting() -> None:
    with pytest.raises(ConfigError, match="kuhn is a 2-player game but 3 agents"):
        run_match(config("kuhn", "random", "call", "rules"), progress=False)
    with pytest.raises(ConfigError, match="unknown agent 'nobody'"):
        run_match(config("kuhn", "random", "nobody"), progress=False)
    with pytest.raises(ConfigError, match="no option 'speed'"):
        run_match(config("kuhn", "random", AgentSpec(name="call", options={"speed": 1})), progress=False)
    # any built-in's option names, types and files: from the registry's table, before any process starts
    with pytest.raises(ConfigError, match="agent 'equilibrium' has no option 'c99'"):
        run_match(config("kuhn", "random", AgentSpec(name="equilibrium", options={"c99": 0.1})), progress=False)
    with pytest.raises(ConfigError, match="agent 'cfr': strategy file nowhere.json does not exist"):
        run_match(config("kuhn", AgentSpec(name="cfr", options={"strategy": "nowhere.json"}), "call"), progress=False)


def test_an_agent_that_refuses_its_options_stops_the_match_before_it_starts(tmp_path: Path) -> None:
    # options of agents other than the baselines are checked by the agent process itself
    spec = AgentSpec(name="tests.agents.test_registry:Folder", options={"bogus": 1})
    with pytest.raises(ConfigError, match="bogus"):
        run_match(config("kuhn", spec, "call", out=tmp_path), progress=False)


def test_progress_line_shows_hands_rate_and_results() -> None:
    stats = MatchStats(["a", "b"])
    stream = io.StringIO()
    progress = Progress(1000, stats, stream=stream, delay=0.0)
    stats.add((0, 1), (2.0, -2.0))
    progress.update()
    line = stream.getvalue()
    assert "1/1,000 hands" in line and "hands/s" in line and "a +200.0/100" in line and "b -200.0/100" in line


# ----------------------------------------------------------------------------- the command


def child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}


def cli(*args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    env = child_env()
    run: subprocess.CompletedProcess[str] = subprocess.run(  # type: ignore[call-overload]
        [sys.executable, "-m", "showdown", "match", *args], capture_output=True, text=True, env=env, timeout=60, **kw
    )
    return run


def test_cli_json_output(tmp_path: Path) -> None:
    run = cli("kuhn", "rules", "random", "--hands", "200", "--seed", "5", "--out", str(tmp_path), "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert set(data) >= {"game", "hands", "seed", "agents", "positions", "replacements", "log"}
    assert data["hands"] == 200 and data["seed"] == 5
    assert [a["name"] for a in data["agents"]] == ["rules", "random"]
    assert all(set(a) >= {"name", "total", "per100", "ci95"} for a in data["agents"])
    assert all(set(p) >= {"position", "per100", "ci95"} for p in data["positions"])
    assert all(sum(c.values()) == 0 for c in data["replacements"].values())
    assert Path(data["log"]).exists() and verify_log(data["log"]).ok
    assert "hands/s" not in run.stderr  # no progress line when stderr is not a terminal


@pytest.mark.parametrize(
    "args,message",
    [
        (("nogame", "random", "call"), "unknown game 'nogame'"),
        (("kuhn", "random", "nobody"), "unknown agent 'nobody': known agents are"),
        (("--config", "/nonexistent/m.yaml"), "cannot read config file /nonexistent/m.yaml"),
        (("kuhn", "random"), "a match needs at least two agents"),
    ],
)
def test_cli_errors_are_one_line_and_status_2(args: tuple[str, ...], message: str) -> None:
    run = cli(*args, "--no-log")
    assert run.returncode == 2
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_ctrl_c_stops_cleanly_with_logs_and_partial_results(tmp_path: Path) -> None:
    env = child_env()
    proc = subprocess.Popen(
        [sys.executable, "-m", "showdown", "match", "kuhn", "random", "call", "--hands", "100000000",
         "--out", str(tmp_path), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    deadline = time.monotonic() + 30
    logs: list[Path] = []
    while time.monotonic() < deadline:  # wait until hands are being played
        logs = list(tmp_path.glob("*.log"))
        if logs and logs[0].read_text().count("STATE:") > 50:
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    data = json.loads(out)
    assert data["interrupted"] is True and 50 < data["hands"] < 100000000
    assert all(sum(c.values()) == 0 for c in data["replacements"].values())
    report = verify_log(logs[0], partial=True)
    assert report.ok and report.hands == data["hands"]
    assert "SCORE:" in logs[0].read_text()
    assert "stopping after this hand" in err

"""`showdown match` as a user runs it: own bots without YAML, options, output files, stops and exits."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from showdown.evaluation.verify import verify_log

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def showdown(cwd: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "showdown", *args], cwd=cwd, env=ENV, capture_output=True,
                          text=True, timeout=timeout, check=False)


def test_your_own_bot_file_and_class_play_without_yaml_and_logs_go_to_out(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "my_bot.py", tmp_path / "my_bot.py")
    (tmp_path / "folder_bot.py").write_text(
        "from showdown.agents import Agent, FOLD, CALL\n"
        "class Folder(Agent):\n"
        "    def act(self, view):\n"
        "        return FOLD if view.can_fold() else CALL\n"
    )
    r = showdown(tmp_path, "match", "leduc", "./my_bot.py", "folder_bot:Folder", "--hands", "200", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [a["name"] for a in doc["agents"]] == ["my_bot", "Folder"]
    assert doc["agents"][0]["total"] > 0  # folding to every bet loses
    log = tmp_path / doc["log"]
    assert log.parent == tmp_path / "out" and verify_log(log).ok
    assert (tmp_path / "out" / f"{log.stem}.my_bot.stderr").exists()


def test_a_bot_file_with_a_space_or_an_accent_in_its_path_plays_under_a_plain_label(tmp_path: Path) -> None:
    # its label was the file's stem, 'my bot ü': the match name made of it was refused ('bad match name ...:
    # use a plain file name without spaces'), a name the user never gave; scorecard and exploit --probes
    # took the path for a command line and started 'my' (No such file or directory)
    folder = tmp_path / "sp ace ü"
    folder.mkdir()
    shutil.copy(ROOT / "examples" / "my_bot.py", folder / "my bot ü.py")
    r = showdown(tmp_path, "match", "kuhn", "sp ace ü/my bot ü.py", "call", "--hands", "20", "--out", "out dir ü", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert [a["name"] for a in doc["agents"]] == ["my_bot_ü", "call"]  # (letters of any script, as match names)
    assert (tmp_path / doc["log"]).name == "kuhn.my_bot_ü-call.seed0.log" and verify_log(tmp_path / doc["log"]).ok
    from showdown.cli.probes import bot_spec

    spec = bot_spec(str(folder / "my bot ü.py"), {})
    assert spec.label == "my_bot_ü" and spec.command is not None and spec.command.endswith("/my bot ü.py'")
    assert bot_spec("python3 -u bot.py", {}).command == "python3 -u bot.py"  # a command line stays one


def test_options_on_the_command_line_reach_the_named_seat(tmp_path: Path) -> None:
    r = showdown(tmp_path, "match", "kuhn", "random", "random", "-o", "2:seed=7", "--hands", "50", "--json")
    assert r.returncode == 0, r.stderr
    bad = showdown(tmp_path, "match", "kuhn", "random", "call", "-o", "3:seed=1", "--hands", "50")
    assert bad.returncode == 2 and "only 2 seats" in bad.stderr and bad.stderr.count("\n") == 1


def test_a_second_run_never_overwrites_the_first(tmp_path: Path) -> None:
    first = showdown(tmp_path, "match", "kuhn", "random", "call", "--hands", "50")
    assert first.returncode == 0, first.stderr
    log = tmp_path / "out" / "kuhn.random-call.seed0.log"
    before = log.read_bytes()
    again = showdown(tmp_path, "match", "kuhn", "random", "call", "--hands", "70")
    assert again.returncode == 2 and "already exists" in again.stderr and again.stderr.count("\n") == 1
    assert log.read_bytes() == before
    forced = showdown(tmp_path, "match", "kuhn", "random", "call", "--hands", "70", "--force")
    assert forced.returncode == 0 and verify_log(log).hands == 70


def test_sigterm_stops_a_match_like_ctrl_c_with_the_summary_and_exit_143(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "showdown", "match", "kuhn", "random", "call", "--hands", "10000000"],
                            cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    log = tmp_path / "out" / "kuhn.random-call.seed0.log"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (log.exists() and log.stat().st_size > 2000):
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "Ctrl-C" not in err and "SIGTERM again: at once" in err
    assert "stopped early: showdown match --resume out/kuhn.random-call.seed0.match.json plays the rest" in err
    assert "stopped early" in out and "random" in out
    assert "ERROR" not in err and "Traceback" not in err
    assert log.read_text().splitlines()[-1].startswith("SCORE:")
    assert verify_log(log, partial=True).ok


def test_csv_output(tmp_path: Path) -> None:
    r = showdown(tmp_path, "match", "kuhn", "rules", "call", "--hands", "100", "--csv")
    assert r.returncode == 0, r.stderr
    rows = r.stdout.splitlines()
    assert rows[0].startswith("what,name,hands") and rows[1].startswith("agent,rules,100")


@pytest.mark.parametrize("estimator", ["plain", "chance"])
def test_json_and_csv_give_each_position_s_total_as_the_table_and_analyze_do(tmp_path: Path, estimator: str) -> None:
    """`match --json` had no positions[].total (the table's total column, in analyze --json too); the CSV left it empty."""
    common = ("match", "leduc", "rules", "call", "--hands", "60", "--in-memory", "--jobs", "1", "--estimator", estimator)
    doc = json.loads(showdown(tmp_path, *common, "--name", "m", "--json").stdout)
    read = showdown(tmp_path, "analyze", "out/m.log", "--estimator", estimator, "--json")
    assert read.returncode == 0, read.stderr
    totals = [p["total"] for p in json.loads(read.stdout)["positions"]]
    assert [p["total"] for p in doc["positions"]] == totals and totals[0] == -totals[1] != 0
    rows = showdown(tmp_path, *common, "--no-log", "--csv").stdout.splitlines()
    assert [float(r.split(",")[3]) for r in rows if r.startswith("position,")] == totals


def test_match_resume_continues_a_killed_match_with_the_same_logs(tmp_path: Path) -> None:
    ref = showdown(tmp_path, "match", "leduc", "rules", "call", "--hands", "3000", "--out", "ref")
    assert ref.returncode == 0, ref.stderr
    proc = subprocess.Popen([sys.executable, "-m", "showdown", "match", "leduc", "rules", "call", "--hands", "3000",
                             "--out", "run"], cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    log = tmp_path / "run" / "leduc.rules-call.seed0.log"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (log.exists() and log.read_bytes().count(b"STATE:") > 500):
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)  # the runner, its dealer and its agents, at once
    proc.communicate(timeout=30)
    resumed = showdown(tmp_path, "match", "--resume", "run", "--json")
    assert resumed.returncode == 0, resumed.stderr
    doc = json.loads(resumed.stdout)
    assert doc["hands"] == 3000  # the report covers every hand, not only those after the crash
    for suffix in (".log", ".jsonl"):
        a = (tmp_path / "ref" / f"leduc.rules-call.seed0{suffix}").read_bytes()
        b = (tmp_path / "run" / f"leduc.rules-call.seed0{suffix}").read_bytes()
        assert a == b, suffix
    again = showdown(tmp_path, "match", "--resume", "run")
    assert again.returncode == 2 and "there finished: nothing to resume" in again.stderr


@pytest.mark.parametrize("game,agents", [
    ("leduc", ("cfr", "random")),  # CFR's sampled actions, uniform random
    pytest.param("kuhn3p", ("equilibrium", "random", "random"), marks=pytest.mark.slow),  # three stochastic seats
    pytest.param("holdem-nolimit", ("random", "call"), marks=pytest.mark.slow),  # random raise sizes
])
def test_a_match_killed_and_resumed_with_stochastic_agents_has_the_logs_of_one_never_killed(
    tmp_path: Path, game: str, agents: tuple[str, ...]
) -> None:
    hands = "2000"
    ref = showdown(tmp_path, "match", game, *agents, "--hands", hands, "--seed", "9", "--out", "ref")
    assert ref.returncode == 0, ref.stderr
    name = next((tmp_path / "ref").glob("*.log")).stem
    for kill_at in (300, 1100):  # killed twice, resumed twice
        proc = subprocess.Popen(
            [sys.executable, "-m", "showdown", *(["match", game, *agents, "--hands", hands, "--seed", "9", "--out", "run"]
                                                if kill_at == 300 else ["match", "--resume", "run"])],
            cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        )
        log = tmp_path / "run" / f"{name}.log"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (log.exists() and log.read_bytes().count(b"STATE:") > kill_at):
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGKILL)  # the runner, its dealer and its agents
        proc.communicate(timeout=30)
    resumed = showdown(tmp_path, "match", "--resume", "run", "--json")
    assert resumed.returncode == 0, resumed.stderr
    doc = json.loads(resumed.stdout)
    assert doc["hands"] == 2000
    assert doc["hands_per_s"] * doc["play_s"] < 2000 - 1000  # hands/s counts only the hands of this run
    for suffix in (".log", ".jsonl"):
        a = (tmp_path / "ref" / f"{name}{suffix}").read_bytes()
        b = (tmp_path / "run" / f"{name}{suffix}").read_bytes()
        assert a == b, suffix


def _stop_when_logged(proc: subprocess.Popen[bytes], log: Path, hands: int, sig: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (log.exists() and log.read_bytes().count(b"STATE:") > hands):
        time.sleep(0.02)
    proc.send_signal(sig)
    proc.communicate(timeout=60)


def test_a_match_stopped_by_ctrl_c_is_resumed_to_its_full_hand_count_with_the_same_logs(tmp_path: Path) -> None:
    ref = showdown(tmp_path, "match", "leduc", "rules", "call", "--hands", "3000", "--out", "ref")
    assert ref.returncode == 0, ref.stderr
    name = "leduc.rules-call.seed0"
    proc = subprocess.Popen([sys.executable, "-m", "showdown", "match", "leduc", "rules", "call", "--hands", "3000",
                             "--out", "run"], cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _stop_when_logged(proc, tmp_path / "run" / f"{name}.log", 300, signal.SIGINT)
    assert proc.returncode == 130
    stopped_at = (tmp_path / "run" / f"{name}.log").read_bytes().count(b"STATE:")
    assert stopped_at < 3000
    named = showdown(tmp_path, "match", "--resume", f"run/{name}.match.json", "--json")  # by its file: not "finished"
    assert named.returncode == 0, named.stderr
    doc = json.loads(named.stdout)
    assert doc["hands"] == 3000 and not doc["interrupted"]
    for suffix in (".log", ".jsonl"):
        assert (tmp_path / "ref" / f"{name}{suffix}").read_bytes() == (tmp_path / "run" / f"{name}{suffix}").read_bytes()
    # stopped twice more (SIGTERM too), each time found in its folder and resumed
    for sig in (signal.SIGTERM, signal.SIGINT):
        shutil.rmtree(tmp_path / "run2", ignore_errors=True)
        proc = subprocess.Popen([sys.executable, "-m", "showdown", "match", "leduc", "rules", "call", "--hands", "3000",
                                 "--out", "run2"], cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        _stop_when_logged(proc, tmp_path / "run2" / f"{name}.log", 200, sig)
        assert proc.returncode == 128 + sig
        found = showdown(tmp_path, "match", "--resume", "run2", "--json")
        assert found.returncode == 0, found.stderr
        assert json.loads(found.stdout)["hands"] == 3000
        assert (tmp_path / "ref" / f"{name}.log").read_bytes() == (tmp_path / "run2" / f"{name}.log").read_bytes()
    done = showdown(tmp_path, "match", "--resume", f"run/{name}.match.json")
    assert done.returncode == 2 and "already finished" in done.stderr and done.stderr.count("\n") == 1


def test_a_match_ended_by_its_stopping_rule_is_finished_not_resumable(tmp_path: Path) -> None:
    r = showdown(tmp_path, "match", "kuhn", "rules", "call", "--hands", "100000", "--until-separated", "--out", "run")
    assert r.returncode == 0, r.stderr
    again = showdown(tmp_path, "match", "--resume", "run")
    assert again.returncode == 2 and "there finished: nothing to resume" in again.stderr
    # the rule stopped it, not the user: stderr said 'match stopped on request after N of 100000 hands'
    assert "on request" not in r.stderr and "stopped by its stopping rule after" in r.stderr, r.stderr


def test_a_command_in_a_yaml_file_runs_from_the_file_s_folder(tmp_path: Path) -> None:
    bots = tmp_path / "bots"
    bots.mkdir()
    shutil.copy(ROOT / "examples" / "my_bot.py", bots / "my_bot.py")
    (bots / "match.yaml").write_text(
        f"game: kuhn\nhands: 100\nagents:\n  - {{command: \"{sys.executable} my_bot.py\", label: mine}}\n  - call\n"
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    r = showdown(elsewhere, "match", "--config", str(bots / "match.yaml"), "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["agents"][0]["name"] == "mine"


def test_tournament_csv(tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text("game: kuhn\nhands: 100\nagents: [rules, call, bluff]\n")
    r = showdown(tmp_path, "tournament", "t.yaml", "--csv")
    assert r.returncode == 0, r.stderr
    rows = r.stdout.splitlines()
    assert rows[0] == "agent,opponent,hands,per100,ci95_low,ci95_high" and len(rows) == 7


def test_until_separated_stops_a_lopsided_match_early_with_an_anytime_valid_interval(tmp_path: Path) -> None:
    r = showdown(tmp_path, "match", "kuhn", "rules", "random", "--hands", "200000", "--until-separated", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["hands"] < 200000 and doc["stopping"]["reached"]
    lo, hi = doc["stopping"]["interval_per100"]
    assert lo > 0  # rules beats random
    table = showdown(tmp_path, "match", "kuhn", "rules", "random", "--hands", "200000", "--until-ci", "20",
                     "--name", "ci", "--force")
    assert table.returncode == 0, table.stderr
    assert "stopping rule: a half-width of 20/100 for rules: reached after" in table.stdout


def test_ctrl_c_while_the_command_loads_is_one_line_and_exit_130(tmp_path: Path) -> None:
    """However early Ctrl-C comes (here from 50 ms to 1 s in), no traceback (issue 31)."""
    script = Path(sys.executable).with_name("showdown")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "showdown"]
    for delay in (0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0):
        proc = subprocess.Popen([*command, "match", "kuhn", "random", "call", "--hands", "100000", "--force"],
                                cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        frames = [line for line in err.splitlines() if line.strip().startswith("File ")]
        if "init_import_site" in err or (proc.returncode == -signal.SIGINT and not err.strip()) or (
            frames and not any("/showdown/" in f for f in frames)
        ):
            continue  # Python was still starting, or importing the entry point's package: no code of ours ran yet
        assert "Traceback" not in err and proc.returncode == 130, (delay, proc.returncode, err)
        assert all(line.startswith(("showdown", "match stopped")) for line in err.strip().splitlines()), err


def test_after_an_early_stop_the_headline_interval_is_the_anytime_valid_one(tmp_path: Path) -> None:
    """Issue 25: a stopped match printed fixed-sample intervals as if valid (they covered 25 of 30)."""
    r = showdown(tmp_path, "match", "kuhn", "rules", "random", "--hands", "200000", "--until-separated", "--estimator", "plain",
                 "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    lo, hi = doc["stopping"]["interval_per100"]
    rules, random_ = doc["agents"]
    assert rules["ci95"] == [lo, hi] and random_["ci95"] == [-hi, -lo]
    assert rules["fixed_sample_valid"] is False and rules["fixed_sample_ci95"] != rules["ci95"]
    assert all(d["fixed_sample_valid"] is False for d in doc["differences"]) and "not valid after stopping" in doc["intervals"]
    table = showdown(tmp_path, "match", "kuhn", "rules", "random", "--hands", "200000", "--until-separated", "--estimator",
                     "plain", "--name", "t", "--force")
    assert table.returncode == 0, table.stderr
    assert "anytime-valid ones" in table.stdout and "not valid after stopping" in table.stdout
    assert f"[{lo:+.2f}, {hi:+.2f}]" in table.stdout.split("note: the match stopped early")[1]
    fixed = showdown(tmp_path, "match", "kuhn", "rules", "random", "--hands", "300", "--json", "--name", "f", "--force")
    assert "fixed_sample_valid" not in json.loads(fixed.stdout)["agents"][0]
    exact = showdown(tmp_path, "match", "kuhn", "rules", "random", "--hands", "200000", "--until-separated", "--json", "--name",
                     "x", "--force")  # AIVAT with every strategy known: exact, valid however the match stopped
    assert "fixed_sample_valid" not in json.loads(exact.stdout)["agents"][0]


def test_ctrl_c_before_a_bot_connects_is_not_said_as_the_bots_failure(tmp_path: Path) -> None:
    """A Ctrl-C while a bot was still starting closed the dealer's ports under it: its 'cannot connect
    ... Connection refused' was reported as the agent's failure ('agent slow (seat 1) exited with
    status 2: ...'). The stop is the news: one line."""
    (tmp_path / "slow.py").write_text(
        "import time\nfrom showdown.agents import CALL, Agent, run_bot\n\n\nclass Slow(Agent):\n"
        "    def act(self, view):\n        return CALL\n\n\nif __name__ == '__main__':\n"
        "    time.sleep(1.5)  # still starting when the match is stopped\n    raise SystemExit(run_bot(Slow))\n")
    proc = subprocess.Popen([sys.executable, "-m", "showdown", "match", "kuhn", "./slow.py", "call", "--hands", "100",
                             "--out", "out"], cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    match_file = tmp_path / "out" / "kuhn.slow-call.seed0.match.json"
    deadline = time.monotonic() + 30
    while not match_file.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.3)  # the ports open, the bots started; the slow one far from connecting
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "exited with status" not in err and "Connection refused" not in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_match_of_one_hand_says_1_hand_and_1_duplicate_deal(tmp_path: Path) -> None:
    """The table was headed 'kuhn: 1 hands, ...' and a duplicate's estimator line said 'paired over 1 duplicate deals'."""
    one = showdown(tmp_path, "match", "kuhn", "rules", "random", "--hands", "1", "--out", "one")
    assert one.returncode == 0, one.stderr
    assert one.stdout.startswith("kuhn: 1 hand, seed 0, ")
    dup = showdown(tmp_path, "match", "kuhn", "rules", "random", "--hands", "1", "--duplicate", "--out", "dup")
    assert dup.returncode == 0, dup.stderr
    assert dup.stdout.splitlines()[1].endswith("; paired over 1 duplicate deal")


@pytest.mark.parametrize(("words", "said"), [
    (["kuhn", "call", "exploiter"], "agent 'exploiter' needs exactly one of opponent_strategy=FILE or opponent=AGENT"),
    (["holdem-limit", "equilibrium", "random"], "agent 'equilibrium' cannot play holdem-limit: game holdem-limit is too large"),
    (["leduc3p", "never-bluff", "random", "random"], "agent 'never-bluff' cannot play leduc3p: game leduc3p has 3 players"),
    (["holdem-limit-3p", "cfr", "random", "random"], "agent 'cfr' cannot play holdem-limit-3p: game holdem-limit-3p is too large"),
    (["holdem-nolimit-3p", "random", "cfr", "random"], "agent 'cfr' cannot play holdem-nolimit-3p: the multiplayer solvers handle limit"),
])
def test_an_exact_agent_that_cannot_play_the_game_is_refused_before_any_process_starts(
    tmp_path: Path, words: list[str], said: str
) -> None:
    """They were refused only once the agent's own process had started and built it (the same line
    behind 'exited with status 2 before the match began: showdown agent: error: ...')."""
    r = showdown(tmp_path, "match", *words, "--hands", "10")
    assert r.returncode == 2 and r.stderr.startswith(f"showdown match: error: {said}"), r.stderr
    assert not list(tmp_path.rglob("*.stderr"))  # no agent was started


def test_a_few_hands_that_came_out_alike_have_no_interval_in_text_json_and_analyze(tmp_path: Path) -> None:
    """`showdown match kuhn bluff call --hands 2 --estimator plain` printed position 0's 95% CI as
    [-200.00, -200.00] (and --json [-200.0, -200.0]): two hands claimed certainty. Now n/a and null, and
    `showdown analyze` of the log says the same."""
    args = ("match", "kuhn", "bluff", "call", "--hands", "2", "--seed", "1", "--estimator", "plain", "--in-memory")
    text = showdown(tmp_path, *args, "--out", "t")
    assert text.returncode == 0, text.stderr
    row = next(line for line in text.stdout.splitlines() if line.startswith("position 0"))
    assert row.split()[-1] == "n/a" and "[-200.00, -200.00]" not in text.stdout
    doc = json.loads(showdown(tmp_path, *args, "--out", "j", "--json").stdout)
    assert [p["ci95"] for p in doc["positions"]] == [None, None] and all(a["ci95"] is not None for a in doc["agents"])
    analyzed = showdown(tmp_path, "analyze", "t/kuhn.bluff-call.seed1.log", "--json")
    assert analyzed.returncode == 0, analyzed.stderr
    assert [p["ci95"] for p in json.loads(analyzed.stdout)["positions"]] == [None, None]


def test_an_exact_estimate_of_two_hands_has_no_sampling_error(tmp_path: Path) -> None:
    """Two hands of rules against random, both strategies known: the table said 'the exact expected value, no
    sampling error' but gave rules +20.83 [+12.67, +29.00] and the positions [-45.00, +36.67]."""
    r = showdown(tmp_path, "match", "kuhn", "rules", "random", "--hands", "2", "--seed", "2", "--in-memory", "--json")
    doc = json.loads(r.stdout)
    assert doc["exact"] is True
    for item in doc["agents"] + doc["positions"] + doc["differences"]:
        assert item["ci95"] == [item["per100"], item["per100"]], item

"""A stopped or killed --duplicate match resumed as the duplicate match: its unfinished halves continued
from their logs, its finished ones taken as they are, and the paired report of a match never stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
HANDS = "1000"


def showdown(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "showdown", *args], cwd=cwd, env=ENV, capture_output=True, text=True,
                          timeout=120, check=False)


def start(cwd: Path, *args: str) -> subprocess.Popen[str]:
    cwd.mkdir(parents=True, exist_ok=True)
    return subprocess.Popen([sys.executable, "-m", "showdown", *args], cwd=cwd, env=ENV, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def wait_for_hands(logs: list[Path], hands: int, runner: subprocess.Popen[str]) -> None:
    """Until every log has more than ``hands`` hands (polled, the runner still playing)."""
    deadline = time.monotonic() + 60
    while not all(p.exists() and p.read_bytes().count(b"\nSTATE:") > hands for p in logs):
        assert runner.poll() is None, "the match ended before it could be stopped"
        assert time.monotonic() < deadline
        time.sleep(0.005)


def wait_stopped(logs: list[Path]) -> None:
    """Until the halves a killed runner leaves stop after their hand (their SCORE line), or never started."""
    deadline = time.monotonic() + 30
    while not all(not p.exists() or p.read_bytes().rstrip().rpartition(b"\n")[2].startswith(b"SCORE:") for p in logs):
        assert time.monotonic() < deadline
        time.sleep(0.02)


def table(out: str) -> list[str]:
    """The printed report but its first line (its time and hands/s) and the logs' folder."""
    return out.replace("never/", "out/").splitlines()[1:]


def comparable(result: Path) -> dict[str, Any]:
    doc = json.loads(result.read_text())
    for key in ("elapsed_s", "hands_per_s"):
        doc.pop(key)
    for half in doc["halves"]:
        half.pop("elapsed_s")
    return doc


def same_as_never_stopped(tmp_path: Path, args: tuple[str, ...], resumed: subprocess.CompletedProcess[str]) -> None:
    """The resumed match printed, saved and logged what the same match played in one go does."""
    (tmp_path / "once").mkdir()
    whole = showdown(tmp_path / "once", *args)
    assert whole.returncode == 0, whole.stderr
    assert resumed.returncode == 0, resumed.stderr
    assert table(resumed.stdout) == table(whole.stdout)
    once, out = tmp_path / "once" / "out", tmp_path / "stopped" / "out"
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in once.iterdir())
    for log in [*once.glob("*.log"), *once.glob("*.jsonl")]:
        assert (out / log.name).read_bytes() == log.read_bytes(), log.name
    [result] = once.glob("*.seed5.result.json")
    assert comparable(out / result.name) == comparable(result)


@pytest.mark.parametrize(("game", "agents"), [("kuhn", ("random", "rules")), ("kuhn3p", ("random", "call", "rules"))])
def test_a_killed_duplicate_match_is_resumed_as_the_duplicate_match(tmp_path: Path, game: str, agents: tuple[str, ...]) -> None:
    """kill -9 of the runner: '--resume out' said '2 unfinished matches there (...dup0, ...dup1); name
    one's .match.json', and the paired result was never made; it now resumes every half at once and
    prints and saves what the match never killed does, its logs byte for byte."""
    args = ("match", game, *agents, "--hands", HANDS, "--seed", "5", "--duplicate", "--out", "out")
    runner = start(tmp_path / "stopped", *args)
    out = tmp_path / "stopped" / "out"
    logs = [out / f"{game}.{'-'.join(agents)}.seed5.dup{k}.log" for k in range(len(agents))]
    wait_for_hands(logs[:2], 30, runner)
    runner.kill()
    runner.communicate(timeout=30)
    wait_stopped(logs)
    resumed = showdown(tmp_path / "stopped", "match", "--resume", "out")
    assert "resuming" in resumed.stderr
    same_as_never_stopped(tmp_path, args, resumed)
    again = showdown(tmp_path / "stopped", "match", "--resume", "out")
    assert again.returncode == 2 and "the match there finished: nothing to resume" in again.stderr


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGINT])
def test_a_half_finished_before_the_stop_is_taken_as_it_is(tmp_path: Path, stop: signal.Signals) -> None:
    """One half at a time (--jobs 1): the first had finished when the runner was killed (its result
    file left) or stopped by Ctrl-C (its result file removed: its logs tell); it is not played again."""
    args = ("match", "kuhn", "random", "rules", "--hands", HANDS, "--seed", "5", "--duplicate", "--jobs", "1", "--out", "out")
    runner = start(tmp_path / "stopped", *args)
    out = tmp_path / "stopped" / "out"
    logs = [out / f"kuhn.random-rules.seed5.dup{k}.log" for k in range(2)]
    wait_for_hands(logs[1:], 30, runner)
    runner.send_signal(stop)
    _, err = runner.communicate(timeout=30)
    assert runner.returncode == -stop if stop == signal.SIGKILL else runner.returncode == 130, err
    wait_stopped(logs)
    resumed = showdown(tmp_path / "stopped", "match", "--resume", "out/kuhn.random-rules.seed5.match.json")
    assert "resuming kuhn.random-rules.seed5.dup1" in resumed.stderr and "dup0" not in resumed.stderr
    same_as_never_stopped(tmp_path, args, resumed)


@pytest.mark.parametrize("resume_from", ["out", "out/kuhn.random-rules.seed5.dup1.log"])
def test_a_duplicate_match_stopped_by_ctrl_c_is_resumed(tmp_path: Path, resume_from: str) -> None:
    """Ctrl-C: the stopped match said 'resume' but its folder held two unfinished halves and no duplicate match.
    A half's log named with --resume played that half alone, as a plain match, with no paired report."""
    args = ("match", "kuhn", "random", "rules", "--hands", HANDS, "--seed", "5", "--duplicate", "--out", "out")
    runner = start(tmp_path / "stopped", *args)
    out = tmp_path / "stopped" / "out"
    wait_for_hands([out / f"kuhn.random-rules.seed5.dup{k}.log" for k in range(2)], 30, runner)
    runner.send_signal(signal.SIGINT)
    _, err = runner.communicate(timeout=30)
    assert runner.returncode == 130, err
    assert "stopped early: showdown match --resume out/kuhn.random-rules.seed5.match.json plays the rest" in err
    resumed = showdown(tmp_path / "stopped", "match", "--resume", resume_from)
    same_as_never_stopped(tmp_path, args, resumed)


def test_a_duplicate_match_killed_after_its_halves_ended_gets_its_paired_report(tmp_path: Path) -> None:
    """Both halves played to the end, the runner killed before its paired result.json (and the halves'
    result files left): --resume plays nothing and prints and saves the report of the match never stopped."""
    args = ("match", "kuhn", "random", "rules", "--hands", "300", "--seed", "5", "--duplicate", "--out", "out")
    (tmp_path / "stopped").mkdir()
    first = showdown(tmp_path / "stopped", *args)
    assert first.returncode == 0, first.stderr
    out = tmp_path / "stopped" / "out"
    (out / "kuhn.random-rules.seed5.result.json").unlink()
    for k in range(2):  # what the halves' workers leave when the runner dies before its clean-up
        (out / f"kuhn.random-rules.seed5.dup{k}.result.json").write_text(json.dumps({"hands": 300, "log": "elsewhere.log"}))
    resumed = showdown(tmp_path / "stopped", "match", "--resume", "out")
    assert "resuming" not in resumed.stderr
    same_as_never_stopped(tmp_path, args, resumed)


@pytest.mark.parametrize("first,second", [(["--duplicate", "--jobs", "1"], []), ([], ["--duplicate", "--jobs", "1"])])
def test_a_plain_and_a_duplicate_match_of_one_name_in_one_folder_are_refused_not_overwritten(
        tmp_path: Path, first: list[str], second: list[str]) -> None:
    # both keep <name>.match.json and <name>.result.json: the second overwrote the first's, and --resume of
    # the first then continued the second
    settings = ["match", "kuhn", "rules", "random", "--hands", "50", "--out", "out"]
    assert showdown(tmp_path, *settings, *first).returncode == 0
    match_file = tmp_path / "out" / "kuhn.rules-random.seed0.match.json"
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    refused = showdown(tmp_path, *settings, "--hands", "60", *second)
    assert refused.returncode == 2 and refused.stdout == ""
    kind = "a duplicate" if first else "a plain"
    assert refused.stderr.splitlines() == [
        f"showdown match: error: out/kuhn.rules-random.seed0.match.json is of {kind} match of the same name, whose settings and "
        f"report {'a plain' if first else 'a duplicate'} match would overwrite (--resume would then continue the wrong one): "
        "give this match another --name or --out, or --force to replace them"]
    assert {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()} == before  # nothing written
    assert json.loads(match_file.read_text())["duplicate"] is bool(first)
    forced = showdown(tmp_path, *settings, "--hands", "60", *second, "--force")
    assert forced.returncode == 0, forced.stderr
    assert json.loads(match_file.read_text())["duplicate"] is bool(second)


def test_ctrl_c_after_the_halves_were_played_says_how_to_get_the_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a Ctrl-C while the paired report was worked out (the halves played) printed 'stopped (Ctrl-C)' alone:
    # no summary, no result.json, and no word that --resume gives them
    from showdown.matches import duplicate
    from showdown.matches.config import AgentSpec, MatchConfig

    def interrupted(self: Any, states: Any, on_hand: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(duplicate._DuplicateRun, "report", interrupted)
    said: list[str] = []
    config = MatchConfig(game="kuhn", agents=(AgentSpec(name="rules"), AgentSpec(name="call")), hands=20, out=tmp_path / "out",
                         duplicate=True, jobs=1, progress=False)
    with pytest.raises(KeyboardInterrupt):
        duplicate.run_duplicate(config, notify=said.append)
    match_file = tmp_path / "out" / "kuhn.rules-call.seed0.match.json"
    assert match_file.is_file() and any(f"showdown match --resume {match_file} finishes the match" in s for s in said), said
    monkeypatch.undo()
    done = showdown(tmp_path, "match", "--resume", str(match_file))
    assert done.returncode == 0 and "rules - call" in done.stdout, done.stderr


@pytest.mark.parametrize("second", [["--duplicate", "--force"], ["--force"]])
def test_a_duplicate_match_still_running_keeps_its_settings_when_another_run_of_its_name_is_refused(
        tmp_path: Path, second: list[str]) -> None:
    """A duplicate ``--force`` run of the same name, refused because the running match's halves hold
    their logs, had first written its settings over the running match's ``.match.json``: ``--resume``
    of the running match, once stopped, then failed ('the log of another match'). Now any run of that
    name is refused in one line before a file is written."""
    from showdown.server.locks import hold

    out = tmp_path / "out"
    out.mkdir()
    (out / "d.match.json").write_text('{"duplicate": true, "agents": [{}, {}]}\n')
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with open(out / "d.dup0.log", "ab") as running:  # a half of the running match holds its log
        assert hold(running)
        refused = showdown(tmp_path, "match", "kuhn", "rules", "call", "--hands", "10", "--name", "d", "--out", "out", *second)
    assert refused.returncode == 2 and refused.stdout == "", refused.stderr
    assert refused.stderr.splitlines() == [
        "showdown match: error: out/d.dup0.log is being written by a match still running: let it finish or stop it "
        "first (Ctrl-C, or kill its process), or give this match another --name or --out"]
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.name != "d.dup0.log"} == before

"""Match files: which match ``--resume`` continues."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from showdown.errors import ConfigError
from showdown.matches.files import load_match_file


def test_a_finished_match_with_long_names_is_not_resumed(tmp_path: Path) -> None:
    """Its SCORE line starts far from the end of its log (long names): it still ends the match
    (regression: a 300-byte tail was searched for it, and the match looked unfinished)."""
    names = ["a" * 200, "b" * 200]
    (tmp_path / "m.match.json").write_text("{}")
    (tmp_path / "m.log").write_text(
        "# name/game/hands/seed m kuhn 1 0\n"
        f"STATE:0:cc:Ks|Qs:1|-1:{'|'.join(names)}\n"
        f"SCORE:1|-1:{'|'.join(names)}\n"
    )
    with pytest.raises(ConfigError, match="already finished"):
        load_match_file(tmp_path / "m.match.json")


def test_a_match_killed_as_it_wrote_its_score_line_is_resumed(tmp_path: Path) -> None:
    """A SCORE line without its line end is one a kill cut: the match is not finished (resuming writes it again)."""
    (tmp_path / "m.match.json").write_text("not json")
    (tmp_path / "m.log").write_text("# name/game/hands/seed m kuhn 1 0\nSTATE:0:cc:Ks|Qs:1|-1:a|b\nSCORE:1|-1:a")
    with pytest.raises(ConfigError, match="cannot read the match file"):  # past the check: it is resumed
        load_match_file(tmp_path / "m.match.json")


def test_a_stopped_match_whose_log_ends_with_a_hand_is_resumed(tmp_path: Path) -> None:
    (tmp_path / "m.match.json").write_text("not json")
    (tmp_path / "m.log").write_text("# name/game/hands/seed m kuhn 2 0\nSTATE:0:cc:Ks|Qs:1|-1:a|b\n")
    with pytest.raises(ConfigError, match="cannot read the match file"):  # past the check: it is resumed
        load_match_file(tmp_path / "m.match.json")


@pytest.mark.parametrize(("edit", "says"), [
    (lambda d: d.pop("agents"), r"is damaged \(KeyError: 'agents'\)"),
    (lambda d: d.update(agents="rules"), r"is damaged \(AttributeError"),
    (lambda d: d.update(seed="abc"), r"is damaged \(ValueError"),
    (lambda d: d["agents"][0].update(options=5), r"is damaged \(TypeError"),
    (lambda d: d.update(hands=-5), r"--resume .*: hands must be at least 1, got -5"),
])
def test_a_hand_edited_match_file_is_one_error_not_a_traceback(tmp_path: Path, edit: Any, says: str) -> None:
    from showdown.matches.config import AgentSpec, MatchConfig, config_to_json

    doc = config_to_json(MatchConfig(game="kuhn", agents=(AgentSpec(name="rules"), AgentSpec(name="call")), hands=2))
    edit(doc)
    (tmp_path / "m.match.json").write_text(json.dumps(doc))
    (tmp_path / "m.log").write_text("# name/game/hands/seed m kuhn 2 0\nSTATE:0:cc:Ks|Qs:1|-1:a|b\n")
    with pytest.raises(ConfigError, match=says):
        load_match_file(tmp_path / "m.match.json")


def test_a_match_killed_as_its_logs_open_can_be_resumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The settings are written before the logs: a kill between them left logs that --resume could not
    continue ('0 unfinished matches there (none)') while starting the match again said to resume them."""
    from showdown.matches.config import AgentSpec, MatchConfig
    from showdown.matches.runner import run_match
    from showdown.server.match_logs import MatchLogs

    out = tmp_path / "out"
    seen: list[object] = []
    real_open = MatchLogs.open

    def open_then_look(self: MatchLogs, log_dir: Path, **kw: Any) -> Any:
        point = real_open(self, log_dir, **kw)
        try:  # what a kill -9 here would leave
            seen.append(load_match_file(out).hands)
        except ConfigError as exc:
            seen.append(str(exc))
        return point

    monkeypatch.setattr(MatchLogs, "open", open_then_look)
    config = MatchConfig(game="kuhn", agents=(AgentSpec(name="call"), AgentSpec(name="call")), hands=3, out=out)
    report = run_match(config, progress=False, notify=lambda _: None, install_signals=False)
    assert report.hands == 3
    assert seen == [3]


def test_a_killed_match_is_resumed_from_another_folder_in_its_own_logs(tmp_path: Path) -> None:
    """Its .match.json held '--out run' and a .game file as the start's folder named them: resumed from
    another folder, a new match began in ./run there (exit 0, the killed one left as it was), and the
    game was 'unknown'; the logs are now those beside the file, the game the dealer's copy there."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}

    def showdown(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "showdown", *args], cwd=cwd, env=env, capture_output=True,
                              text=True, timeout=60, check=False)

    games = showdown(tmp_path, "games", "--show", "kuhn")
    (tmp_path / "k.game").write_text(games.stdout)
    first = showdown(tmp_path, "match", "k.game", "random", "rules", "--hands", "20", "--seed", "3", "--out", "run")
    assert first.returncode == 0, first.stderr
    log, jsonl = sorted((tmp_path / "run").glob("*.log")), sorted((tmp_path / "run").glob("*.jsonl"))
    whole = log[0].read_bytes(), jsonl[0].read_bytes()
    # what a kill after hand 9 leaves
    lines = whole[0].splitlines(keepends=True)
    log[0].write_bytes(b"".join(lines[: next(i for i, x in enumerate(lines) if x.startswith(b"STATE:10:"))]))
    jsonl[0].write_bytes(b"".join(whole[1].splitlines(keepends=True)[:10]))
    (tmp_path / "elsewhere").mkdir()
    resumed = showdown(tmp_path / "elsewhere", "match", "--resume", str(tmp_path / "run"))
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming" in resumed.stderr and "at hand 10 of 20" in resumed.stderr
    assert list((tmp_path / "elsewhere").iterdir()) == []
    assert (log[0].read_bytes(), jsonl[0].read_bytes()) == whole


@pytest.mark.parametrize(("setup", "says"), [
    ("missing", r"^--resume \S+: no such file or folder; give the --out folder"),
    ("empty", r"^--resume \S+: no match there \(no \.match\.json file\)"),
    ("finished", r"^--resume \S+: the match there finished: nothing to resume \('showdown analyze \S+/m\.log' gives"),
])
def test_resume_says_why_a_folder_has_nothing_to_resume(tmp_path: Path, setup: str, says: str) -> None:
    """A missing folder was 'cannot read the match file DIR: [Errno 2]', and a folder holding only a
    finished match '0 unfinished matches there (none); name one's .match.json' (named, it was 'already finished')."""
    folder = tmp_path / "run"
    if setup != "missing":
        folder.mkdir()
    if setup == "finished":
        (folder / "m.match.json").write_text("{}")
        (folder / "m.log").write_text("# name/game/hands/seed m kuhn 1 0\nSTATE:0:cc:Ks|Qs:1|-1:a|b\nSCORE:1|-1:a|b\n")
    with pytest.raises(ConfigError, match=says):
        load_match_file(folder)


@pytest.mark.parametrize(("played", "resumed"), [(1, True), (2, False)])
def test_a_match_stopped_early_without_its_result_file_is_resumed(tmp_path: Path, played: int, resumed: bool) -> None:
    """Ctrl-C twice: the first stops the match after its hand (SCORE line and summary written), the second
    ends the runner before its result file: --resume said 'the match there finished: nothing to resume'
    after 159 of 3,000 hands. The summary record tells a match stopped early from one played to its end."""
    (tmp_path / "m.match.json").write_text("not json")
    hands = ["STATE:0:cc:Ks|Qs:1|-1:a|b\n", "STATE:1:cc:Ks|Qs:-1|1:b|a\n"][:played]
    (tmp_path / "m.log").write_text("# name/game/hands/seed m kuhn 2 0\n" + "".join(hands) + "SCORE:0|0:a|b\n")
    (tmp_path / "m.jsonl").write_text(json.dumps({"summary": True, "match": "m", "game": "kuhn", "seed": 0, "hands": 2,
                                                  "hands_played": played, "aborted": played < 2, "reason": "stopped"}) + "\n")
    with pytest.raises(ConfigError, match="cannot read the match file" if resumed else "already finished"):
        load_match_file(tmp_path / "m.match.json")
    if resumed:
        with pytest.raises(ConfigError, match="cannot read the match file"):
            load_match_file(tmp_path)  # found in its folder too


def _duplicate_match(folder: Path, halves_played: list[int]) -> None:
    """What a killed ``--duplicate`` match leaves: its own file, and each half's file and log."""
    from showdown.matches.config import AgentSpec, MatchConfig, config_to_json

    config = MatchConfig(game="kuhn", agents=(AgentSpec(name="rules"), AgentSpec(name="call")), hands=2, duplicate=True)
    (folder / "d.match.json").write_text(json.dumps(config_to_json(config)))
    for k, played in enumerate(halves_played):
        (folder / f"d.dup{k}.match.json").write_text("{}")
        hands = ["STATE:0:cc:Ks|Qs:1|-1:a|b\n", "STATE:1:cc:Ks|Qs:-1|1:b|a\n"][:played]
        (folder / f"d.dup{k}.log").write_text("# name/game/hands/seed m kuhn 2 0\n" + "".join(hands))


def test_a_folder_of_a_killed_duplicate_match_resumes_the_duplicate_match(tmp_path: Path) -> None:
    """It said '2 unfinished matches there (d.dup0, d.dup1); name one's .match.json'; the halves are part of it."""
    _duplicate_match(tmp_path, [1, 2])
    config = load_match_file(tmp_path)
    assert config.duplicate and config.resume and config.hands == 2
    assert load_match_file(tmp_path / "d.match.json").duplicate


def test_a_duplicate_match_and_an_unrelated_unfinished_match_are_named_in_one_line(tmp_path: Path) -> None:
    _duplicate_match(tmp_path, [1, 0])
    (tmp_path / "m.match.json").write_text("{}")
    (tmp_path / "m.log").write_text("# name/game/hands/seed m kuhn 2 0\nSTATE:0:cc:Ks|Qs:1|-1:a|b\n")
    with pytest.raises(ConfigError, match=r"^--resume \S+: 2 unfinished matches there \(d, m\); name one's \.match\.json$"):
        load_match_file(tmp_path)


def test_a_duplicate_match_is_finished_when_its_halves_are_and_its_paired_result_was_saved(tmp_path: Path) -> None:
    _duplicate_match(tmp_path, [2, 2])
    for k in range(2):
        with (tmp_path / f"d.dup{k}.log").open("a") as f:
            f.write("SCORE:0|0:a|b\n")
    assert load_match_file(tmp_path).duplicate  # killed before its paired result: the report is what is left to do
    (tmp_path / "d.result.json").write_text('{"interrupted": true}')
    assert load_match_file(tmp_path).duplicate  # stopped by Ctrl-C as its halves ended
    (tmp_path / "d.result.json").write_text('{"interrupted": false}')
    with pytest.raises(ConfigError, match=r"the match there finished: nothing to resume \('showdown analyze \S+/d\.dup0\.log \S+/d\.dup1\.log'"):
        load_match_file(tmp_path)


def test_a_folder_on_a_file_system_without_locks_is_run_unguarded_not_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from showdown.matches import files
    from showdown.server import locks

    if locks.fcntl is None:
        pytest.skip("no advisory locks here")

    def no_locks(fd: int, how: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(locks.fcntl, "flock", no_locks)
    held = files.hold_folder(tmp_path, "tournament")  # (was an OSError traceback)
    assert held is not None
    held.close()

"""Crash resume: a dealer killed with SIGKILL at random points and restarted with --resume ends with
logs identical, line for line, to those of the same match never killed."""

from __future__ import annotations

import importlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from showdown.cli import main
from showdown.errors import ShowdownError
from showdown.evaluation.verify import verify_log
from showdown.protocol.lines import MAX_LOG_LINE
from showdown.protocol.logfile import LoggedHand, LogHeader, read_records
from showdown.server.resume import resume_point

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
GAME, HANDS, SEED = "leduc", 3000, 11
AGENTS = ("rules", "call")  # deterministic: the same decisions whenever a hand is replayed


def start(folder: Path, *extra: str) -> tuple[subprocess.Popen[str], list[subprocess.Popen[str]]]:
    dealer = subprocess.Popen(
        [sys.executable, "-m", "showdown", "dealer", "m", GAME, str(HANDS), str(SEED), "p1", "p2", "-q", *extra],
        cwd=folder, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert dealer.stdout is not None
    ports = dealer.stdout.readline().split()
    agents = [
        subprocess.Popen([sys.executable, "-m", "showdown", "agent", name, "--game", GAME, "127.0.0.1", port],
                         env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for name, port in zip(AGENTS, ports)
    ]
    return dealer, agents


def finish(dealer: subprocess.Popen[str], agents: list[subprocess.Popen[str]]) -> int:
    dealer.communicate(timeout=120)
    for a in agents:
        a.wait(timeout=30)
    return dealer.returncode


def kill(dealer: subprocess.Popen[str], agents: list[subprocess.Popen[str]]) -> None:
    dealer.send_signal(signal.SIGKILL)
    dealer.communicate(timeout=30)
    for a in agents:
        a.kill()
        a.wait(timeout=30)


def hands_logged(folder: Path) -> int:
    try:
        return (folder / "m.log").read_bytes().count(b"\nSTATE:")
    except OSError:
        return 0


def played_with_kills(folder: Path, kills: int, rng: random.Random) -> int:
    """Play the match, killing the dealer ``kills`` times at random moments; returns the kills made."""
    made = 0
    dealer, agents = start(folder)
    while made < kills:
        target = min(HANDS - 1, hands_logged(folder) + rng.randint(50, HANDS // (kills + 1)))
        deadline = time.monotonic() + 60
        while hands_logged(folder) < target and dealer.poll() is None and time.monotonic() < deadline:
            time.sleep(rng.uniform(0.0, 0.01))
        if dealer.poll() is not None:
            break
        kill(dealer, agents)
        made += 1
        dealer, agents = start(folder, "--resume")
    assert finish(dealer, agents) == 0
    return made


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("never_killed")
    assert finish(*start(folder)) == 0
    return folder


def check_identical(folder: Path, reference: Path) -> None:
    for name in ("m.log", "m.jsonl"):
        assert (folder / name).read_bytes() == (reference / name).read_bytes(), name
    assert verify_log(folder / "m.log").ok


def test_a_match_killed_three_times_and_resumed_has_the_logs_of_one_never_killed(tmp_path: Path, reference: Path) -> None:
    made = played_with_kills(tmp_path, 3, random.Random(1))
    assert made >= 2
    check_identical(tmp_path, reference)


@pytest.mark.slow
@pytest.mark.parametrize("trial", range(20))
def test_kill_and_resume_twenty_times_at_random_points(tmp_path: Path, reference: Path, trial: int) -> None:
    played_with_kills(tmp_path, 3, random.Random(100 + trial))
    check_identical(tmp_path, reference)


def test_resume_refuses_the_logs_of_another_match_or_a_finished_one(tmp_path: Path, reference: Path) -> None:
    header = LogHeader("m", GAME, HANDS + 1, SEED)
    with pytest.raises(Exception, match="another match"):
        resume_point(reference / "m.log", reference / "m.jsonl", header, ("p1", "p2"))
    with pytest.raises(Exception, match="already finished"):
        resume_point(reference / "m.log", reference / "m.jsonl", LogHeader("m", GAME, HANDS, SEED), ("p1", "p2"))


def test_a_torn_tail_and_a_hand_missing_from_the_jsonl_are_played_again(tmp_path: Path, reference: Path) -> None:
    log = (reference / "m.log").read_bytes().splitlines(keepends=True)
    jsonl = (reference / "m.jsonl").read_bytes().splitlines(keepends=True)
    header = [x for x in log if x.startswith(b"#")]
    states = [x for x in log if x.startswith(b"STATE:")]
    (tmp_path / "m.log").write_bytes(b"".join(header + states[:100]) + states[100][:20])  # torn
    (tmp_path / "m.jsonl").write_bytes(b"".join(jsonl[:99]))  # hand 99 not yet in the jsonl
    point = resume_point(tmp_path / "m.log", tmp_path / "m.jsonl", LogHeader("m", GAME, HANDS, SEED), ("p1", "p2"))
    assert point.hands == 99
    dealer, agents = start(tmp_path, "--resume")
    assert finish(dealer, agents) == 0
    check_identical(tmp_path, reference)


@pytest.mark.parametrize("score", [b"", b"SCORE:-4", None])
def test_a_match_killed_as_it_wrote_its_score_line_ends_on_resume(tmp_path: Path, reference: Path, score: bytes | None) -> None:
    """Every hand logged, the SCORE line missing or cut and the summary missing (a kill as the match
    ended): resume said 'already finished: nothing to resume' while verify-log said the match did not
    finish; the SCORE line and the summary are now written again."""
    log = (reference / "m.log").read_bytes()
    jsonl = (reference / "m.jsonl").read_bytes()
    cut = log[: log.rindex(b"SCORE:")] + (score or b"")
    (tmp_path / "m.log").write_bytes(cut)
    (tmp_path / "m.jsonl").write_bytes(jsonl[: jsonl.rindex(b'{"summary"')] if score is not None else jsonl)
    point = resume_point(tmp_path / "m.log", tmp_path / "m.jsonl", LogHeader("m", GAME, HANDS, SEED), ("p1", "p2"))
    assert point.hands == HANDS
    dealer, agents = start(tmp_path, "--resume")
    assert finish(dealer, agents) == 0
    check_identical(tmp_path, reference)


@pytest.mark.parametrize("cut", [0, 1, 37, 99, 100])
def test_resume_point_reads_the_logs_a_line_at_a_time_to_the_same_point(tmp_path: Path, reference: Path, cut: int) -> None:
    # the logs were read whole into memory (a 1 GB log took a GB); they are now streamed
    log = (reference / "m.log").read_bytes().splitlines(keepends=True)
    jsonl = (reference / "m.jsonl").read_bytes().splitlines(keepends=True)
    header = [x for x in log if x.startswith(b"#")]
    states = [x for x in log if x.startswith(b"STATE:")]
    (tmp_path / "m.log").write_bytes(b"".join(header + states[:100]) + b"SCORE:1|2:p1|p2\n")
    (tmp_path / "m.jsonl").write_bytes(b"".join(jsonl[:cut]) + b'{"torn')
    if cut < 99:  # further apart than a crash leaves them: not one run's logs, and nothing is cut
        with pytest.raises(ShowdownError, match=f"holds the first {cut} hands whole and .*m.log 100; a crash leaves"):
            resume_point(tmp_path / "m.log", tmp_path / "m.jsonl", LogHeader("m", GAME, HANDS, SEED), ("p1", "p2"))
        return
    point = resume_point(tmp_path / "m.log", tmp_path / "m.jsonl", LogHeader("m", GAME, HANDS, SEED), ("p1", "p2"))
    totals = {"p1": 0.0, "p2": 0.0}
    for _, hand in read_records([x.decode() for x in states[:cut]]):
        assert isinstance(hand, LoggedHand)
        for name, value in zip(hand.names, hand.values):
            totals[name] += value
    assert (point.hands, point.totals) == (cut, totals)
    assert (point.log_size, point.jsonl_size) == (len(b"".join(header + states[:cut])), len(b"".join(jsonl[:cut])))


def test_logs_saved_with_a_byte_order_mark_are_cut_after_their_last_whole_hand(tmp_path: Path, reference: Path) -> None:
    """The line reader passes over the mark, so the sizes to cut the logs at were 3 bytes short: the
    resumed match wrote on after the first 3 bytes... of its last hand's line gone."""
    log = (reference / "m.log").read_bytes().splitlines(keepends=True)
    jsonl = (reference / "m.jsonl").read_bytes().splitlines(keepends=True)
    header = [x for x in log if x.startswith(b"#")]
    states = [x for x in log if x.startswith(b"STATE:")]
    (tmp_path / "m.log").write_bytes(b"\xef\xbb\xbf" + b"".join(header + states[:40]) + states[40][:9])
    (tmp_path / "m.jsonl").write_bytes(b"\xef\xbb\xbf" + b"".join(jsonl[:40]))
    point = resume_point(tmp_path / "m.log", tmp_path / "m.jsonl", LogHeader("m", GAME, HANDS, SEED), ("p1", "p2"))
    assert point.hands == 40
    assert (point.log_size, point.jsonl_size) == (3 + len(b"".join(header + states[:40])), 3 + len(b"".join(jsonl[:40])))


def test_resume_refuses_a_log_line_of_no_end_without_holding_it(tmp_path: Path, reference: Path) -> None:
    header = [x for x in (reference / "m.log").read_bytes().splitlines(keepends=True) if x.startswith(b"#")]
    (tmp_path / "m.log").write_bytes(b"".join(header) + b"STATE:0:" + b"c" * (MAX_LOG_LINE + 10))
    with pytest.raises(ShowdownError, match=r"m.log: cannot resume from a damaged log: .*m.log:\d+: a line of more than"):
        resume_point(tmp_path / "m.log", tmp_path / "m.jsonl", LogHeader("m", GAME, HANDS, SEED), ("p1", "p2"))


def test_a_resume_while_the_match_still_runs_is_refused_and_its_logs_stay_whole(tmp_path: Path, reference: Path) -> None:
    """A --resume (or a --force start) while the match still ran in another process cut the logs under
    it and both wrote on, each exiting 0: the log filled with NUL bytes. The running dealer now holds
    its .log: the second is one line, exit 2, before it reads or cuts anything."""
    dealer, agents = start(tmp_path)
    deadline = time.monotonic() + 30
    while hands_logged(tmp_path) < 100 and time.monotonic() < deadline:
        time.sleep(0.01)
    dealer.send_signal(signal.SIGSTOP)  # still running, holding its .log, however slow the next starts are
    for extra in (["--resume"], ["--force"]):
        second = subprocess.run(
            [sys.executable, "-m", "showdown", "dealer", "m", GAME, str(HANDS), str(SEED), "p1", "p2", "-q", *extra],
            cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=30, check=False,
        )
        assert second.returncode == 2, second.stderr
        assert "is being written by a match still running" in second.stderr and second.stderr.count("\n") == 1
    dealer.send_signal(signal.SIGCONT)
    assert finish(dealer, agents) == 0
    check_identical(tmp_path, reference)


def test_resume_never_cuts_a_log_whose_jsonl_is_missing_or_far_behind(tmp_path: Path, reference: Path) -> None:
    """A reference dealer's log (no .jsonl beside it) given to --resume was cut to its header at once,
    the match played from hand 0, and a stop then deleted both logs; a .jsonl far behind its .log cut
    the hands it lacked from the .log. Both are refused in one line, exit 2, the files untouched."""
    log = (reference / "m.log").read_bytes()
    jsonl = (reference / "m.jsonl").read_bytes().splitlines(keepends=True)
    for case, records in (("missing", None), ("behind", jsonl[:50])):
        folder = tmp_path / case
        folder.mkdir()
        (folder / "m.log").write_bytes(log[: log.rindex(b"SCORE:")])
        if records is not None:
            (folder / "m.jsonl").write_bytes(b"".join(records))
        before = {p.name: p.read_bytes() for p in folder.iterdir()}
        r = subprocess.run(
            [sys.executable, "-m", "showdown", "dealer", "m", GAME, str(HANDS), str(SEED), "p1", "p2", "-q", "--resume"],
            cwd=folder, env=ENV, capture_output=True, text=True, timeout=30, check=False,
        )
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
        assert ("m.jsonl is missing" if records is None else "not one run's logs") in r.stderr
        assert {p.name: p.read_bytes() for p in folder.iterdir()} == before, case


@pytest.mark.parametrize("slow", ["reading", "counting"])
def test_a_long_read_of_the_logs_leaves_the_seats_their_start_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str], slow: str) -> None:
    """The start clock ran while a resume read the logs (23 s for a million Kuhn hands) and counted
    their hands again for the report (40 s), against the 15 s seats have to connect: every seat was
    'out of this match' and the dealer played every hand left. Here either is made slow instead of long."""
    plain, match_logs = (importlib.import_module(f"showdown.{m}") for m in ("matches.plain", "server.match_logs"))

    assert main(["match", "kuhn", "call", "call", "--hands", "200", "--in-memory", "--start-timeout", "500",
                 "--out", str(tmp_path)]) == 0
    name = "kuhn.call-1-call-2.seed0"
    for suffix, keep in ((".log", 104), (".jsonl", 100)):  # killed after 100 hands (the .log has a 4-line header)
        path = tmp_path / f"{name}{suffix}"
        path.write_text("".join(path.read_text().splitlines(keepends=True)[:keep]))
    (tmp_path / f"{name}.result.json").unlink()
    module, attribute = (match_logs, "resume_point") if slow == "reading" else (plain, "replay_finished_hands")
    fast = getattr(module, attribute)

    def slowly(*args: object) -> object:
        time.sleep(1.0)  # twice the start time
        return fast(*args)

    monkeypatch.setattr(module, attribute, slowly)
    capsys.readouterr()
    assert main(["match", "--resume", str(tmp_path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["hands"] == 200 and not any(sum(c.values()) for c in doc["replacements"].values())

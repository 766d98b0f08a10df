"""Nothing written is lost: no overwrite, no empty match logs, SIGTERM like Ctrl-C, a full disk,
every finished hand logged before its end goes out, and one line for each user error."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from showdown.evaluation.verify import verify_log

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def dealer(cwd: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "showdown", "dealer", *args],
        cwd=cwd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def agent(port: int, name: str = "random", game: str = "kuhn") -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "showdown", "agent", name, "--game", game, "127.0.0.1", str(port)],
        env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )


def ports_of(proc: subprocess.Popen[str]) -> list[int]:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip(), proc.stderr.read() if proc.stderr else ""
    return [int(p) for p in line.split()]


def play(cwd: Path, *args: str, game: str = "kuhn") -> tuple[subprocess.Popen[str], str, str]:
    proc = dealer(cwd, *args)
    agents = [agent(p, game=game) for p in ports_of(proc)]
    out, err = proc.communicate(timeout=60)
    for a in agents:
        a.wait(timeout=30)
    return proc, out, err


def test_logs_of_an_earlier_match_are_never_overwritten(tmp_path: Path) -> None:
    proc, _, _ = play(tmp_path, "m", "kuhn", "50", "1", "a", "b", "-q")
    assert proc.returncode == 0
    before = (tmp_path / "m.log").read_bytes()
    again = dealer(tmp_path, "m", "kuhn", "60", "2", "a", "b", "-q")
    out, err = again.communicate(timeout=30)
    assert again.returncode == 2
    assert err.strip().count("\n") == 0 and "already exists" in err and "--force" in err
    assert (tmp_path / "m.log").read_bytes() == before
    forced, _, _ = play(tmp_path, "m", "kuhn", "60", "2", "a", "b", "-q", "--force")
    assert forced.returncode == 0 and verify_log(tmp_path / "m.log").hands == 60


def test_a_match_that_never_dealt_a_hand_leaves_no_log(tmp_path: Path) -> None:
    proc = dealer(tmp_path, "m", "kuhn", "50", "1", "a", "b", "-q", "--start_timeout", "20000")
    ports_of(proc)
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=30)
    assert not (tmp_path / "m.log").exists() and not (tmp_path / "m.jsonl").exists()


def test_sigterm_finishes_the_hand_writes_score_and_exits_143(tmp_path: Path) -> None:
    proc = dealer(tmp_path, "m", "kuhn", "1000000", "1", "a", "b", "-q")
    agents = [agent(p) for p in ports_of(proc)]
    log = tmp_path / "m.log"
    deadline = time.monotonic() + 60  # the agents may take long to start on a loaded machine
    while not (log.exists() and "STATE:" in log.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)  # a hand is played: the stop comes mid-match, not before the first deal
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=30)
    for a in agents:
        a.wait(timeout=30)
    assert proc.returncode == 143, err
    assert out.splitlines()[-1].startswith("SCORE:")
    assert "stopped by SIGTERM" in err and "Traceback" not in err
    lines = (tmp_path / "m.log").read_text().splitlines()
    assert lines[-1].startswith("SCORE:")
    report = verify_log(tmp_path / "m.log", partial=True)
    assert report.ok and 0 < report.hands < 1_000_000


def test_the_same_port_for_two_seats_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = dealer(tmp_path, "m", "kuhn", "10", "1", "a", "b", "-p", f"{port},{port}")
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 2 and "same port" in err and err.count("\n") == 1


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small tmpfs needs root")
def test_a_full_disk_stops_the_match_with_one_line_and_keeps_every_complete_hand(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(disk)], check=False).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        proc, out, err = play(disk, "m", "leduc", "100000", "1", "a", "b", "-q", game="leduc")
        assert proc.returncode == 1
        assert "Traceback" not in err
        assert "the disk is full" in err and err.count("showdown dealer: error:") == 1
        log = (disk / "m.log").read_text()
        jsonl = (disk / "m.jsonl").read_text()
        assert log.endswith("\n") and jsonl.endswith("\n")  # no half record
        hands_log = [line for line in log.splitlines() if line.startswith("STATE:")]
        hands_jsonl = jsonl.splitlines()
        assert len(hands_log) == len(hands_jsonl) > 100
        report = verify_log(disk / "m.log", partial=True)
        assert report.ok and report.hands == len(hands_log) and not report.complete
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_a_seat_that_never_connects_is_said_to_be_played_by_the_dealer(tmp_path: Path) -> None:
    proc = dealer(tmp_path, "m", "kuhn", "30", "1", "a", "b", "-q", "--start_timeout", "4000")
    ports = ports_of(proc)
    only = agent(ports[0])  # seat 1 connects well within the start timeout; seat 2 never does
    out, err = proc.communicate(timeout=60)
    only.wait(timeout=30)
    assert "seat 2 (b) was played by the dealer in 30 of 30 hands" in err
    summary = json.loads((tmp_path / "m.jsonl").read_text().splitlines()[-1])
    assert summary["replaced_hands"] == {"a": 0, "b": 30}

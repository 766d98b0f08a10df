"""verify-log and analyze on tampered logs: non-finite numbers are refused in one line, and the work
follows the file's size whatever hand numbers and headers it claims (issue 31, items 3 and 4)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from showdown.errors import ShowdownError
from showdown.evaluation.verify import verify_log
from showdown.games import dealing
from tests.conftest import DATA

ROOT = Path(__file__).resolve().parents[2]
REF = DATA / "kuhn.limit.2p.1000h.seed0.log"
LINES = REF.read_text().splitlines(keepends=True)
HEAD = [x for x in LINES if x.startswith("#")]
HANDS = [x for x in LINES if x.startswith("STATE:")]
SCORE = next(x for x in LINES if x.startswith("SCORE:"))


def run(command: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "showdown", command, *args], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, check=False)


def with_hand(line: str, number: str) -> str:
    return "STATE:" + number + ":" + line.split(":", 2)[2]


# ------------------------------------------------------------------ non-finite numbers (item 3)


# 1e308 is finite, but analyze printed '+inf/100' from it (100 times it is not): values over 1e18 are refused
@pytest.mark.parametrize("bad", ["nan", "inf", "-inf", "NaN", "infinity", "1e308", "-2e18"])
def test_a_non_finite_value_on_a_state_line_is_one_line_exit_2(tmp_path: Path, bad: str) -> None:
    parts = HANDS[3].rstrip("\n").split(":")
    parts[4] = f"{bad}|{bad}"
    path = tmp_path / "m.log"
    path.write_text("".join(HEAD + HANDS[:3]) + ":".join(parts) + "\n" + "".join(HANDS[4:]) + SCORE)
    for command in ("verify-log", "analyze"):
        r = run(command, str(path))
        assert r.returncode == 2, (command, r.stdout, r.stderr)
        assert r.stderr.count("\n") == 1 and "m.log:8" in r.stderr and "finite" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr


def test_a_non_finite_score_is_one_line_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "m.log"
    path.write_text("".join(HEAD + HANDS) + "SCORE:nan|inf:" + SCORE.split(":")[2])
    r = run("verify-log", str(path))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "finite" in r.stderr, r.stderr


@pytest.mark.parametrize("bad", ["NaN", "Infinity", "-Infinity", "1e999", "1e308"])
def test_a_non_finite_value_in_a_jsonl_record_is_one_line_exit_2(tmp_path: Path, bad: str) -> None:
    record = {"hand": 0, "game": "kuhn", "players": ["a", "b"], "seats": [0, 1], "hole": ["Ks", "Qs"], "board": [],
              "betting": "cc", "values": [1.0, -1.0], "events": []}
    text = json.dumps(record).replace("[1.0, -1.0]", f"[{bad}, 0]")
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps(record) + "\n" + text + "\n")
    r = run("analyze", str(path))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "m.jsonl:2" in r.stderr, r.stderr


def test_a_hand_number_of_huge_length_is_one_line_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "m.log"
    path.write_text("".join(HEAD) + with_hand(HANDS[0], "9" * 5000) + SCORE)
    for command in ("verify-log", "analyze"):
        r = run(command, str(path))
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "hand number" in r.stderr, r.stderr


def test_a_header_with_a_huge_seed_is_one_line_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "m.log"
    path.write_text(f"# name/game/hands/seed m kuhn 10 {'7' * 5000}\n" + "".join(HANDS[:10]) + SCORE)
    r = run("verify-log", str(path))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "seed" in r.stderr, r.stderr


# ------------------------------------------------------------------ work bounded by the file (item 4)


def test_one_line_claiming_hand_99999999999_is_checked_at_once(tmp_path: Path) -> None:
    path = tmp_path / "m.log"
    path.write_text("".join(HEAD + HANDS[:5]) + with_hand(HANDS[5], "99999999999") + "".join(HANDS[6:]) + SCORE)
    started = time.monotonic()
    report = verify_log(path)
    assert time.monotonic() - started < 10  # it ran for hours before
    assert not report.ok
    assert any("the log jumps from hand 4 to 99999999999" in p for p in report.problems)
    assert any("not checked against the seed, the first hand 99999999999" in p for p in report.problems)
    assert not any(p.startswith("hand 7:") for p in report.problems)  # the hands after it still checked, fine


class _CountingDealer(dealing.CardDealer):
    """The real dealer, counting the hands it deals or skips over (the audit's work)."""

    work = 0

    def skip(self, hands: int) -> None:
        _CountingDealer.work += hands
        super().skip(hands)

    def draw(self) -> tuple[int, ...]:
        _CountingDealer.work += 1
        return super().draw()


numbers = st.one_of(st.integers(0, 1200), st.integers(0, 10**18), st.sampled_from([99999999999, 10**18 - 1]))
headers = st.tuples(st.integers(0, 10**18), st.integers(0, 10**18)).map(
    lambda hs: f"# name/game/hands/seed m kuhn {hs[0]} {hs[1]}\n"
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(header=st.one_of(st.just(HEAD[0]), headers), hands=st.lists(st.tuples(st.integers(0, 999), numbers), max_size=300))
def test_hostile_hand_numbers_and_headers_cost_work_bounded_by_the_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, header: str, hands: list[tuple[int, int]]
) -> None:
    monkeypatch.setattr("showdown.evaluation.verify.CardDealer", _CountingDealer)
    _CountingDealer.work = 0
    path = tmp_path / "m.log"
    path.write_text(header + "".join(with_hand(HANDS[i], str(n)) for i, n in hands) + SCORE)
    started = time.monotonic()
    try:
        report = verify_log(path, partial=True)
    except ShowdownError as exc:  # a refused line is one line, never a crash or a hang
        assert "\n" not in str(exc)
    else:
        assert report.hands == len(hands)
        assert all(isinstance(p, str) for p in report.problems)
    assert _CountingDealer.work <= 2 * (len(hands) + 1) + 1000 + 1
    assert time.monotonic() - started < 20


@pytest.mark.parametrize(("field", "value", "says"), [
    ("hand", 10**30, "at most 18 digits"), ("hand", -5, "at most 18 digits"), ("hand", True, "at most 18 digits"),
    ("seats", [0, 7], "seats must number each player once"),
])
def test_a_jsonl_record_with_an_impossible_hand_number_or_seat_is_one_line(tmp_path: Path, field: str, value: object,
                                                                          says: str) -> None:
    record = {"hand": 0, "game": "kuhn", "players": ["a", "b"], "seats": [0, 1], "hole": ["Ks", "Qs"], "board": [],
              "betting": "cc", "values": [1.0, -1.0], "events": []}
    path = tmp_path / "m.jsonl"
    path.write_text(json.dumps({**record, field: value}) + "\n")
    r = run("analyze", str(path))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and says in r.stderr, r.stderr


# ------------------------------------------------------------------ a line without end

@pytest.mark.parametrize("name", ["huge.log", "huge.jsonl", "huge.txt"])
def test_a_16_mb_line_is_refused_without_holding_it(tmp_path: Path, name: str) -> None:
    """A file of one 16 MB line (no line end): both commands read the whole line into memory before
    (250 MB of the process for a 50 MB line); now a line over 1 MiB is one line naming the file, exit 2."""
    import tracemalloc

    from showdown.evaluation.log_reading import read_logs

    path = tmp_path / name
    path.write_bytes((b'{"hand": "' if name.endswith(".jsonl") else b"STATE:0:") + b"c" * (16 << 20))
    for read in (lambda: verify_log(path), lambda: read_logs([path])):
        tracemalloc.start()
        try:
            with pytest.raises(ShowdownError, match=rf"{name}:1: a line of more than 1,048,576 bytes"):
                read()
            assert tracemalloc.get_traced_memory()[1] < 8 << 20  # a MiB read at a time, never the 16 MB
        finally:
            tracemalloc.stop()
    for command in ("verify-log", "analyze"):
        done = run(command, str(path))
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert done.stderr.strip().splitlines() == [done.stderr.strip()]


def test_a_pipe_is_refused_before_any_log_is_verified(tmp_path: Path) -> None:
    """A pipe no one writes to (mkfifo) held verify-log for ever at open()."""
    os.mkfifo(tmp_path / "pipe.log")
    with pytest.raises(ShowdownError, match=r"pipe.log is not a regular file \(a device or a pipe\): give a .log or .jsonl file"):
        verify_log(tmp_path / "pipe.log")
    run = subprocess.run([sys.executable, "-m", "showdown", "verify-log", str(DATA / "kuhn.limit.2p.fixed_seats.log"),
                          str(tmp_path / "pipe.log")], capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 2 and run.stdout == "" and "pipe.log is not a regular file" in run.stderr

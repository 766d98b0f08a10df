"""verify-log checks the log as one match: numbering, count, SCORE, torn tails, bounded headers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from showdown.evaluation.verify import verify_log
from tests.conftest import DATA

ROOT = Path(__file__).resolve().parents[2]
REF = DATA / "kuhn.limit.2p.1000h.seed0.log"


def lines() -> list[str]:
    return REF.read_text().splitlines(keepends=True)


def header_and_hands() -> tuple[list[str], list[str], str]:
    all_lines = lines()
    head = [x for x in all_lines if x.startswith("#")]
    hands = [x for x in all_lines if x.startswith("STATE:")]
    score = next(x for x in all_lines if x.startswith("SCORE:"))
    return head, hands, score


def write(tmp: Path, text: str) -> Path:
    (tmp / "kuhn.limit.2p.game").write_text((ROOT / "showdown/games/data/kuhn.limit.2p.game").read_text())
    path = tmp / "m.log"
    path.write_text(text)
    return path


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "showdown", "verify-log", *args], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60, check=False)


def test_the_reference_log_is_a_complete_match() -> None:
    report = verify_log(REF)
    assert report.ok and report.complete and report.hands == report.requested == 1000


def test_a_log_cut_to_600_hands_without_score_fails_unless_partial(tmp_path: Path) -> None:
    head, hands, _ = header_and_hands()
    path = write(tmp_path, "".join(head + hands[:600]))
    report = verify_log(path)
    assert not report.ok and any("only 600 of the 1,000 hands" in p for p in report.problems)
    partial = verify_log(path, partial=True)
    assert partial.ok and partial.hands == 600 and not partial.complete
    r = cli(str(path))
    assert r.returncode == 1 and "1,000 requested" in r.stdout
    assert cli(str(path), "--partial").returncode == 0


def test_a_cherry_picked_log_is_caught_even_with_a_matching_score(tmp_path: Path) -> None:
    head, hands, _ = header_and_hands()
    kept = [h for h in hands if not h.split(":")[4].startswith("-")][:482]  # drop hands the first position lost
    totals: dict[str, float] = {}
    for h in kept:
        parts = h.strip().split(":")
        for name, value in zip(parts[5].split("|"), parts[4].split("|")):
            totals[name] = totals.get(name, 0.0) + float(value)
    names = list(totals)
    score = f"SCORE:{'|'.join(f'{totals[n]:g}' for n in names)}:{'|'.join(names)}\n"
    report = verify_log(write(tmp_path, "".join(head + kept) + score), partial=True)
    assert not report.ok and any("missing" in p for p in report.problems)


def test_more_hands_than_the_header_asks_for_fail(tmp_path: Path) -> None:
    head, hands, score = header_and_hands()
    head = [h.replace(" 1000 0", " 700 0") for h in head]
    report = verify_log(write(tmp_path, "".join(head + hands) + score))
    assert any("1,000 hands logged but the header asks for 700" in p for p in report.problems)


def test_repeated_hands_fail(tmp_path: Path) -> None:
    head, hands, score = header_and_hands()
    report = verify_log(write(tmp_path, "".join(head + hands[:10] + hands[5:10] + hands[10:]) + score))
    assert any("appears again" in p for p in report.problems)


def test_a_match_that_ended_before_its_first_hand_is_not_ok(tmp_path: Path) -> None:
    head, _, _ = header_and_hands()
    report = verify_log(write(tmp_path, "".join(head)))
    assert not report.ok and report.hands == 0


def test_a_torn_last_line_is_noted_and_every_complete_hand_checked(tmp_path: Path) -> None:
    head, hands, _ = header_and_hands()
    path = write(tmp_path, "".join(head + hands[:300]) + hands[300][:17])
    report = verify_log(path, partial=True)
    assert report.ok and report.hands == 300 and report.notes and "cut off" in report.notes[0]
    r = cli(str(path), "--partial")
    assert r.returncode == 0 and "cut off" in r.stdout and "Traceback" not in r.stderr


def test_a_header_asking_for_an_absurd_game_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "m.log"
    path.write_text("# name/game/hands/seed m kuhn-100000000000 10 0\nSTATE:0:cc:5s|3s:1|-1:a|b\n")
    r = cli(str(path))
    assert r.returncode == 2 and "at most 10,000 cards" in r.stderr and r.stderr.count("\n") == 1

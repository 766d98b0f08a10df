"""verify-log: the single strongest check of dealing, rules, side pots and formats together."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.cli import main
from showdown.evaluation.verify import verify_log
from showdown.games.catalog import get_game
from tests.conftest import DATA, REFERENCE_LOGS


@pytest.mark.parametrize("path", REFERENCE_LOGS, ids=lambda p: p.name)
def test_every_reference_log_replays_exactly(path) -> None:
    report = verify_log(path)
    assert report.ok, report.problems[:5]
    assert report.hands == sum(1 for line in path.read_text().splitlines() if line.startswith("STATE:"))


@pytest.mark.parametrize("name", ["kuhn.limit.2p", "leduc.limit.2p", "holdem.limit.2p", "holdem.nolimit.2p"])
def test_transcript_part_c_logs_replay_exactly(name: str, tmp_path) -> None:
    text = (DATA / f"{name}.txt").read_text()
    part_c = text.split("## Part C: log file", 1)[1].strip().splitlines()
    path = tmp_path / f"{name}.log"
    path.write_text("\n".join(part_c) + "\n")
    report = verify_log(path)
    header_hands = int(part_c[0].split()[-2])
    assert report.ok and report.hands == header_hands, report.problems


def tamper(tmp_path, pattern: str, replacement: str):
    src = DATA / "kuhn.limit.2p.1000h.seed0.log"
    text = src.read_text()
    new = re.sub(pattern, replacement, text, count=1, flags=re.M)
    assert new != text
    path = tmp_path / "tampered.log"
    path.write_text(new)
    return path


def test_wrong_cards_are_reported(tmp_path) -> None:
    path = tamper(tmp_path, r"^STATE:0:cc:As\|Ks", "STATE:0:cc:Ks|As")
    report = verify_log(path)
    assert report.problems[0].startswith("hand 0: hole cards Ks | As are not what the seed deals (As | Ks)")


def test_wrong_values_are_reported(tmp_path) -> None:
    path = tamper(tmp_path, r"^STATE:1:rc:As\|Qs:2\|-2", "STATE:1:rc:As|Qs:1|-1")
    report = verify_log(path)
    assert any(p.startswith("hand 1: values 1|-1 should be 2|-2") for p in report.problems)


def test_illegal_betting_is_reported(tmp_path) -> None:
    path = tamper(tmp_path, r"^STATE:2:crf:", "STATE:2:rrf:")
    assert "illegal action r" in verify_log(path).problems[0]


def test_cli_prints_ok_and_exit_status(tmp_path, capsys) -> None:
    assert main(["verify-log", str(REFERENCE_LOGS[0])]) == 0
    assert capsys.readouterr().out.strip() == "OK 1000 hands"
    bad = tamper(tmp_path, r"^STATE:0:cc:As\|Ks", "STATE:0:cc:Ks|As")
    assert main(["verify-log", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "hand 0: hole cards" in out and "FAILED" in out


def test_cli_options_override_the_header(tmp_path, capsys) -> None:
    path = tmp_path / "x.log"
    shutil.copy(DATA / "kuhn.limit.2p.1000h.seed0.log", path)
    assert main(["verify-log", str(path), "--seed", "1"]) == 1
    capsys.readouterr()
    assert main(["verify-log", str(path), "--game", "kuhn", "--seed", "0"]) == 0


def test_cli_user_errors_are_one_line_exit_2(tmp_path, capsys) -> None:
    assert main(["verify-log", str(tmp_path / "missing.log")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read log" in err
    assert main(["verify-log", str(REFERENCE_LOGS[0]), "--game", "nope"]) == 2


@pytest.mark.parametrize("partial", [False, True])
def test_an_empty_file_is_no_log_not_a_match_that_stopped(tmp_path, partial: bool) -> None:
    from showdown.errors import ShowdownError

    path = tmp_path / "m.log"
    path.write_bytes(b"")
    with pytest.raises(ShowdownError, match="m.log is empty: not a match log"):
        verify_log(path, partial=partial)


def test_a_path_of_the_wrong_kind_is_said_by_verify_log() -> None:
    from showdown.errors import ShowdownError

    with pytest.raises(ShowdownError, match=r"^verify_log: expected a log file's path, got int 5$"):  # was os.fspath's TypeError
        verify_log(5)  # type: ignore[arg-type]


@pytest.mark.parametrize(("drop", "says"), [(5, "hands 0 to 4 are missing: the log starts at hand 5"),
                                             (1, "hand 0 is missing: the log starts at hand 1")])
def test_a_log_cut_at_its_start_says_where_it_starts(tmp_path, drop: int, says: str) -> None:
    """It said 'hands 0 to 4 are missing: the log jumps from hand -1 to 5' (and 'hands 0 are missing')."""
    lines = (DATA / "kuhn.limit.2p.1000h.seed0.log").read_text().splitlines(keepends=True)
    states = [i for i, line in enumerate(lines) if line.startswith("STATE:")]
    path = tmp_path / "cut.log"
    path.write_text("".join(line for i, line in enumerate(lines) if i not in states[:drop]))
    assert verify_log(path, partial=True).problems[0] == says


def test_trailing_spaces_and_a_last_score_line_without_its_end_are_read_as_the_log(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Spaces an editor left at the lines' ends made 'Bob ' a player of its own (a wrong table, exit 0)
    and failed the check; a file whose last line end was dropped failed as 'cut off' though its SCORE
    line was whole."""
    from showdown.evaluation.log_reading import read_logs

    src = DATA / "kuhn.limit.2p.1000h.seed0.log"
    spaced = tmp_path / "spaced.log"
    spaced.write_text("".join(line.rstrip("\n") + " \t\n" for line in src.read_text().splitlines(keepends=True)))
    unended = tmp_path / "unended.log"
    unended.write_bytes(src.read_bytes().rstrip(b"\n"))
    reference = verify_log(src)
    for path in (spaced, unended):
        report = verify_log(path)
        assert report.ok and report.complete and report.problems == [], (path, report.problems)
        assert report.hands == reference.hands
    want = read_logs([src]).table
    got = read_logs([spaced]).table
    assert (list(got.names), got.hands) == (list(want.names), want.hands) == (["Alice", "Bob"], 1000)
    cut = tmp_path / "cut.log"  # a SCORE line cut in its names is still cut off
    cut.write_bytes(src.read_bytes().rstrip(b"\n")[:-2])
    assert not verify_log(cut).ok



def test_a_wrong_game_is_a_few_lines_not_one_per_hand(tmp_path) -> None:
    """verify-log --game kuhn of a Leduc log printed 999 lines, one per hand; a few hands of each kind
    of problem are listed, the rest counted in one line, and the status stays 1."""
    leduc = DATA / "leduc.limit.2p.1000h.seed0.log"
    report = verify_log(leduc, game=get_game("kuhn"))
    listed = [p for p in report.problems if p.startswith("hand ")]
    assert len(listed) == 5 and report.found == 998
    assert report.problems[5] == "... and 993 more hands whose cards are not what the seed deals: is --game/--seed right?"
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, "-m", "showdown", "verify-log", str(leduc), "--game", "kuhn"], capture_output=True,
                         text=True, cwd=tmp_path, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}, timeout=120, check=False)
    lines = run.stdout.splitlines()
    assert run.returncode == 1 and len(lines) == 7, run.stdout[-2000:] + run.stderr
    assert lines[-1] == f"FAILED 998 problem(s) in 1000 hands (1,000 requested) ({leduc})"


TIE4 = """GAMEDEF
limit
numPlayers = 4
numRounds = 1
blind = 1 2 0 0
raiseSize = 2
firstPlayer = 1
numSuits = 4
numRanks = 1
numHoleCards = 1
numBoardCards = 0
END GAMEDEF
"""
TIE4_LOG = """# name/game/hands/seed t tie4.game 2 1
#--t_response 600000
#--t_hand 600000
#--t_per_hand 7000
STATE:0:fccc:Ad|Ah|Ac|As:-1|0.333333|0.333333|0.333333:a|b|c|d
STATE:1:fccc:As|Ad|Ah|Ac:-1|0.333333|0.333333|0.333333:a|b|c|d
SCORE:-2|0.666667|0.666667|0.666667:a|b|c|d
"""


def test_a_score_line_rounded_apart_from_its_hands_passes(tmp_path, capsys) -> None:
    """The reference dealer's log (-f, the first position folds, three tie): two hands of a third
    each are 0.666666 as logged and 0.666667 on the SCORE line; verify-log failed it ('SCORE: b is
    given 0.666667 but the hands add up to 0.666666') and analyze noted it, for every tying seat."""
    (tmp_path / "tie4.game").write_text(TIE4)
    (tmp_path / "t.log").write_text(TIE4_LOG)
    report = verify_log(tmp_path / "t.log")
    assert report.ok and report.hands == 2, report.problems
    assert main(["analyze", str(tmp_path / "t.log")]) == 0
    assert "SCORE lines give" not in capsys.readouterr().out

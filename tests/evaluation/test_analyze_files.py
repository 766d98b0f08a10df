"""analyze reads what it is given once and honestly: torn tails, twin files, mixed games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.cli import main
from showdown.errors import ShowdownError
from showdown.evaluation.log_reading import read_logs
from tests.conftest import DATA

ROOT = Path(__file__).resolve().parents[2]


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "showdown", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, check=False)


def test_a_torn_jsonl_keeps_every_complete_hand(tmp_path: Path) -> None:
    r = cli(tmp_path, "match", "kuhn", "random", "call", "--hands", "200", "--out", ".")
    assert r.returncode == 0, r.stderr
    jsonl = tmp_path / "kuhn.random-call.seed0.jsonl"
    text = jsonl.read_text().splitlines(keepends=True)
    jsonl.write_text("".join(text[:150]) + text[150][:30])  # what a crash leaves
    logs = read_logs([jsonl])
    assert logs.table.hands == 150 and any("cut off" in n for n in logs.notes)
    out = cli(tmp_path, "analyze", str(jsonl))
    assert out.returncode == 0 and "150 hands" in out.stdout and "cut off" in out.stdout


def test_the_log_and_jsonl_of_one_match_are_counted_once(tmp_path: Path) -> None:
    r = cli(tmp_path, "match", "kuhn", "random", "call", "--hands", "200", "--out", ".")
    assert r.returncode == 0, r.stderr
    files = sorted(str(p) for p in tmp_path.glob("kuhn.random-call.seed0.*") if p.suffix in (".log", ".jsonl"))
    logs = read_logs(files)
    assert logs.table.hands == 200 and len(logs.files) == 1 and logs.files[0].suffix == ".jsonl"
    assert any("same match" in n for n in logs.notes)


def test_logs_of_different_games_are_not_pooled() -> None:
    with pytest.raises(ShowdownError, match="analyze the games separately"):
        read_logs([DATA / "kuhn.limit.2p.1000h.seed0.log", DATA / "leduc.limit.2p.1000h.seed0.log"])


def test_two_games_joined_in_one_file_are_not_pooled(tmp_path: Path) -> None:
    """``cat kuhn.log leduc.log > both.log`` was analysed as '92 hands of kuhn' (Leduc's cards read as
    Kuhn's); now the line where the second game starts is named, for .log and .jsonl alike."""
    joined = tmp_path / "both.log"
    kuhn, leduc = (DATA / f"{g}.limit.2p.1000h.seed0.log" for g in ("kuhn", "leduc"))
    joined.write_text("".join(kuhn.read_text().splitlines(keepends=True)[:50] + leduc.read_text().splitlines(keepends=True)[:50]))
    with pytest.raises(ShowdownError, match=r"both.log:51: a header of game 'leduc.limit.2p.game' in a log of 'kuhn.limit.2p.game'"):
        read_logs([joined])
    for game in ("kuhn", "leduc"):
        r = cli(tmp_path, "match", game, "random", "call", "--hands", "20", "--out", ".", "--no-progress")
        assert r.returncode == 0, r.stderr
    both = tmp_path / "both.jsonl"
    both.write_text("".join(p.read_text() for p in sorted(tmp_path.glob("*.seed0.jsonl"))))
    out = cli(tmp_path, "analyze", both.name)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == ("showdown analyze: error: both.jsonl:22: a hand of game 'leduc' in a log of 'kuhn' "
                                  "(two matches' logs joined in one file?): analyze each match's log on its own")


def test_a_hand_with_more_players_than_the_game_is_one_line(tmp_path: Path) -> None:
    """A 3-player hand in a Kuhn log: an IndexError traceback from the chance corrections."""
    head = [x for x in (DATA / "kuhn.limit.2p.1000h.seed0.log").read_text().splitlines(keepends=True) if x.startswith("#")]
    bad = tmp_path / "three.log"
    bad.write_text("".join(head) + "STATE:0:cc:Ks|As|Qs:-1|1|0:a|b|c\n")
    with pytest.raises(ShowdownError, match=r"three.log:\d+: a hand of 3 players in a log of a 2-player game"):
        read_logs([bad])
    out = cli(tmp_path, "analyze", bad.name)
    assert out.returncode == 2 and "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1


def test_two_seats_of_one_name_are_not_pooled_into_one_agent(tmp_path: Path) -> None:
    """The reference dealer takes 'Alice Alice': analyze pooled both into one row of total 0."""
    text = (DATA / "kuhn.limit.2p.1000h.seed0.log").read_text()
    same = tmp_path / "same.log"
    same.write_text(text.replace("|Bob", "|Alice").replace("Bob|", "Alice|"))
    out = cli(tmp_path, "analyze", same.name)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert out.stderr.strip().splitlines() == [
        "showdown analyze: error: same.log:5: hand 0 names 'Alice' at two positions: the seats cannot be told apart, "
        "so no agent's win rate can be given; give each seat its own name when the match is played"]


def test_verify_log_given_the_jsonl_says_to_give_the_log(tmp_path: Path) -> None:
    r = cli(tmp_path, "match", "kuhn", "random", "call", "--hands", "5", "--out", ".", "--no-progress")
    assert r.returncode == 0, r.stderr
    out = cli(tmp_path, "verify-log", "kuhn.random-call.seed0.jsonl")
    assert out.returncode == 2
    assert out.stderr.strip().endswith("jsonl:1: a JSON Lines record: verify-log checks the ACPC .log that the dealer "
                                       "writes beside each .jsonl; give that .log")


def test_analyze_says_which_estimator_and_why(tmp_path: Path) -> None:
    out = cli(tmp_path, "analyze", str(DATA / "kuhn.limit.2p.1000h.seed0.log"))
    assert out.returncode == 0
    line = next(x for x in out.stdout.splitlines() if x.startswith("estimator:"))
    assert "chance" in line and "--known" in line  # which one, and how to get AIVAT


@pytest.mark.parametrize(("header", "hands", "says"), [
    ("kuhn.limit.2p.1000h.seed0.log", "holdem.nolimit.2p.reverse_blinds.1000h.seed0.log", "has 2 hole cards where kuhn deals 1"),
    ("holdem.nolimit.2p.reverse_blinds.1000h.seed0.log", "kuhn.limit.2p.1000h.seed0.log", "has 1 hole card where holdem-nolimit deals 2"),
    ("leduc.limit.2p.1000h.seed0.log", "holdem.limit.2p.reverse_blinds.1000h.seed0.log", "has 2 hole cards where leduc deals 1"),
    ("holdem.limit.2p.reverse_blinds.1000h.seed0.log", "holdem.nolimit.2p.reverse_blinds.1000h.seed0.log",
     r"has no-limit raises \(r<total>\), where holdem-limit is a limit game"),
    ("holdem.nolimit.2p.reverse_blinds.1000h.seed0.log", "holdem.limit.2p.reverse_blinds.1000h.seed0.log",
     r"has limit raises \(r, no size\), where holdem-nolimit is a no-limit game"),
])  # fmt: skip
def test_a_header_over_another_games_hands_is_one_line(tmp_path: Path, header: str, hands: str, says: str) -> None:
    """Hold'em hands under a Kuhn header were read as Kuhn's: '30 hands of kuhn', chance corrections
    and figures, exit 0."""
    lines = [(DATA / name).read_text().splitlines(keepends=True) for name in (header, hands)]
    bad = tmp_path / "mixed.log"
    bad.write_text("".join(x for x in lines[0] if x.startswith("#")) + "".join(x for x in lines[1][:40] if x.startswith("STATE")))
    with pytest.raises(ShowdownError, match=rf"^{bad}:\d+: hand \d+ {says}: a hand of another game than the log's"):
        read_logs([bad])


def test_a_card_the_games_deck_has_not_is_one_line(tmp_path: Path) -> None:
    head = [x for x in (DATA / "kuhn.limit.2p.1000h.seed0.log").read_text().splitlines(keepends=True) if x.startswith("#")]
    bad = tmp_path / "two.log"
    bad.write_text("".join(head) + "STATE:0:cc:2s|As:-1|1:a|b\n")
    with pytest.raises(ShowdownError, match=r"two.log:\d+: hand 0 has the card 2s, which kuhn's deck has not"):
        read_logs([bad])


def test_a_header_naming_an_unknown_game_is_said_in_a_note(tmp_path: Path) -> None:
    """The figures came in chips, no game named and no word why."""
    log = tmp_path / "odd.log"
    log.write_text((DATA / "kuhn.limit.2p.1000h.seed0.log").read_text().replace(" kuhn.limit.2p.game ", " nosuch.game ", 1))
    logs = read_logs([log])
    assert logs.game is None and len(logs.table.values) == 1000
    assert logs.notes == [f"{log} names the game 'nosuch.game', which is neither a catalog game nor a file next to the log: "
                          "figures in chips, without the game's corrections (give --game GAME)"]


def test_a_phh_hand_history_given_as_a_log_says_how_to_make_it_one(tmp_path: Path) -> None:
    """analyze, verify-log, view and report said 'unexpected line '[0]'', no way out."""
    from showdown.evaluation.verify import verify_log
    from showdown.view.catalog import ViewError, discover

    phhs = tmp_path / "m.phhs"
    phhs.write_text('[0]\nvariant = "NT"\n')
    says = rf"^{phhs} is a PHH hand history, not a match log: 'showdown import {phhs} -o MATCH.log' makes it one$"
    for read in (lambda: read_logs([phhs]), lambda: verify_log(phhs), lambda: discover([phhs])):
        with pytest.raises((ShowdownError, ViewError), match=says):
            read()


def test_a_hand_record_of_the_wrong_shape_is_one_line_in_every_reader(tmp_path: Path) -> None:
    # 'values' of one entry for two players: analyze and plan raised IndexError, view and report ValueError
    r = cli(tmp_path, "match", "kuhn", "random", "call", "--hands", "50", "--out", ".")
    assert r.returncode == 0, r.stderr
    lines = (tmp_path / "kuhn.random-call.seed0.jsonl").read_text().splitlines(keepends=True)
    record = json.loads(lines[4])
    record["values"] = record["values"][:1]
    lines[4] = json.dumps(record) + "\n"
    (tmp_path / "bad.jsonl").write_text("".join(lines))
    for args in (["analyze", "bad.jsonl"], ["plan", "--pilot", "bad.jsonl", "--difference", "5"], ["report", "bad.jsonl", "-o", "r.html"]):
        out = cli(tmp_path, *args)
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr
        assert "bad.jsonl" in out.stderr and "'values' has 1 entry for 2 players" in out.stderr


def test_a_log_of_one_hand_says_1_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The heading said 'one.log: 1 hands of kuhn'."""
    log = tmp_path / "one.log"
    log.write_text("# name/game/hands/seed one kuhn 1 0\nSTATE:0:cc:Ks|As:-1|1:a|b\nSCORE:-1|1:a|b\n")
    assert main(["analyze", str(log)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"{log}: 1 hand of kuhn"


def test_two_players_who_never_met_have_no_difference_of_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Logs of a-c and b-c read together said 'a - b: +0.00/100 n/a, p n/a', a difference never measured."""
    for name, (x, y) in {"ac": ("a", "c"), "bc": ("b", "c")}.items():
        (tmp_path / f"{name}.log").write_text(f"# name/game/hands/seed {name} kuhn 2 0\nSTATE:0:cc:Ks|As:-1|1:{x}|{y}\n"
                                              f"STATE:1:rc:As|Qs:-2|2:{y}|{x}\n")
    assert main(["analyze", str(tmp_path / "ac.log"), str(tmp_path / "bc.log"), "--estimator", "plain"]) == 0
    out = capsys.readouterr().out
    assert "a - b: no hand played together" in out and "+0.00/100" not in out


def test_logs_of_other_deals_given_as_duplicate_halves_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two matches of other seeds given with --duplicate were paired hand by hand ('paired over 2,000
    duplicate deals', a difference for two players who never met); each deal's hole cards by position
    must be the same in every half."""
    half = "# name/game/hands/seed {0} kuhn 2 {1}\nSTATE:0:cc:{2}:-1|1:{3}|{4}\nSTATE:1:cc:Qs|As:-1|1:{4}|{3}\n"
    (tmp_path / "a.log").write_text(half.format("a", 1, "Ks|As", "x", "y"))
    (tmp_path / "b.log").write_text(half.format("b", 1, "Ks|As", "y", "x"))
    assert main(["analyze", str(tmp_path / "a.log"), str(tmp_path / "b.log"), "--duplicate"]) == 0
    assert "paired over 2 duplicate deals" in capsys.readouterr().out
    (tmp_path / "c.log").write_text(half.format("c", 2, "As|Qs", "y", "x"))
    assert main(["analyze", str(tmp_path / "a.log"), str(tmp_path / "c.log"), "--duplicate"]) == 2
    assert "hand 0 deals other hole cards in one half than in another: these are not the halves of one duplicate match" \
        in capsys.readouterr().err

from __future__ import annotations

import subprocess
import sys

from showdown.cli import main


def test_games_lists_the_catalog_with_descriptions(capsys) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out.splitlines()
    names = [line.split()[0] for line in out]
    assert names == ["kuhn", "kuhn3p", "leduc", "leduc3p", "holdem-limit", "holdem-nolimit", "holdem-limit-3p", "holdem-nolimit-3p", "kuhn-N"]
    assert all(len(line.split()) > 3 for line in out)


def test_games_show_prints_the_definition(capsys) -> None:
    assert main(["games", "--show", "leduc"]) == 0
    assert "raiseSize = 2 4" in capsys.readouterr().out


def test_hand_shows_each_seats_stream_and_the_log_line(capsys) -> None:
    assert main(["hand", "kuhn", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "to P1: MATCHSTATE:0:0::Qs|" in out and "to P2: MATCHSTATE:1:0::|As" in out
    assert "log: STATE:0:" in out


def test_serving_a_large_kuhn_says_why_not(capsys) -> None:
    assert main(["hand", "kuhn-100"]) == 2
    assert "cannot be served over the protocol" in capsys.readouterr().err


def test_help_explains_every_command() -> None:
    out = subprocess.run([sys.executable, "-m", "showdown", "--help"], capture_output=True, text=True).stdout
    for command in ("games", "hand", "verify-log"):
        assert command in out

"""User errors seen on main, each now one line (exit 2) and caught before any work is lost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.errors import GameDefError
from showdown.games.gamedef import parse_gamedef
from showdown.solvers.equity import cards_equity

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "showdown", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, check=False)


@pytest.mark.parametrize(
    "args, says",
    [
        (["solve", "cfr", "kuhn", "--iterations", "100000", "-o", "{tmp}/missing/s.json"], "does not exist"),
        (["solve", "cfr", "kuhn", "--iterations", "100000", "--checkpoint", "{tmp}/missing/c.npz"], "does not exist"),
        (["plot", "strategy", "s.json", "-o", "{tmp}/missing/p.png"], "does not exist"),
        (["analyze", str(ROOT / "tests/data/kuhn.limit.2p.1000h.seed0.log"), "--plot", "{tmp}/missing/p.png"], "does not exist"),
        (["hand", "kuhn", "--seed", "-3"], "expected a seed from 0"),
        (["hand", "kuhn", "--number", "99999999999"], "expected a hand number from 0 to"),
        (["equity", "AsKs", "AsAd"], "share As"),
        (["equity", "AsAs", "KdKh"], "same card twice"),
    ],
)
def test_user_errors_are_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    r = run(*(a.format(tmp=tmp_path) for a in args), cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    error_lines = [line for line in r.stderr.splitlines() if not line.startswith("usage:")]
    assert len(error_lines) == 1 and says in error_lines[0]


def test_equity_of_exact_cards_is_for_those_cards_and_symmetric() -> None:
    from showdown.games.cards import parse_card

    aks = (parse_card("As"), parse_card("Kd"))
    aa = (parse_card("Ah"), parse_card("Ad"))
    win, tie, loss = cards_equity(aks, aa)
    assert win + tie + loss == 1_712_304  # every board of the other 48 cards
    assert cards_equity(aa, aks) == (loss, tie, win)
    r = run("equity", "AsKd", "AhAd")
    assert r.returncode == 0 and "these exact cards" in r.stdout and f"{win / 1_712_304:.5f}" in r.stdout


def test_a_no_limit_game_without_stacks_is_refused() -> None:
    text = ("GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 1\nblind = 1 2\nfirstPlayer = 1\n"
            "numSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0\nEND GAMEDEF\n")
    with pytest.raises(GameDefError, match="needs stacks"):
        parse_gamedef(text)
    parse_gamedef(text.replace("blind = 1 2\n", "blind = 1 2\nstack = 200 200\n"))

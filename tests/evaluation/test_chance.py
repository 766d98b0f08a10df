"""Chance-only corrections: every term has mean zero (exactly, by enumeration), so the estimate is
unbiased whatever the strategies; it agrees with the exact value where that is known and cuts the
variance."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from showdown.evaluation.chance import ChanceCorrector
from showdown.games.cards import make_deck
from showdown.games.catalog import get_game


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_the_deal_term_has_mean_zero_over_every_deal(name: str) -> None:
    game = get_game(name)
    c = ChanceCorrector(game)
    deck = make_deck(game.num_ranks, game.num_suits)
    total = []
    for a, b in itertools.permutations(deck, 2):
        # no board dealt: only the deal's term, (eq - 1/2) * pot
        total.append(c.corrections([(a,), (b,)], [()], "")[0])
    assert abs(float(np.mean(total))) < 1e-12 and max(abs(t) for t in total) > 0


def test_the_board_term_has_mean_zero_given_what_came_before() -> None:
    game = get_game("leduc")
    c = ChanceCorrector(game)
    deck = make_deck(game.num_ranks, game.num_suits)
    for a, b in itertools.permutations(deck, 2):
        base = c.corrections([(a,), (b,)], [()], "cc")[0]
        terms = [c.corrections([(a,), (b,)], [(), (x,)], "cc/")[0] - base for x in deck if x not in (a, b)]
        assert abs(float(np.mean(terms))) < 1e-12


def test_holdem_turn_and_river_terms_have_mean_zero() -> None:
    game = get_game("holdem-limit")
    c = ChanceCorrector(game)
    rng = np.random.default_rng(5)
    deck = list(make_deck(13, 4))
    for _ in range(3):
        cards = [int(x) for x in rng.permutation(deck)[:7]]
        hole = [tuple(cards[0:2]), tuple(cards[2:4])]
        flop = tuple(cards[4:7])
        betting = "cc/cc/"
        before = c.corrections(hole, [(), flop], "cc/")[0]
        rest = [x for x in deck if x not in cards]
        turns = [c.corrections(hole, [(), flop, (t,)], "cc/cc/")[0] - before for t in rest]
        assert abs(float(np.mean(turns))) < 1e-9
        turn = rest[0]
        at_turn = c.corrections(hole, [(), flop, (turn,)], betting)[0]
        rivers = [c.corrections(hole, [(), flop, (turn,), (r,)], betting + "cc/")[0] - at_turn for r in rest[1:]]
        assert abs(float(np.mean(rivers))) < 1e-9


def test_agrees_with_the_exact_value_and_cuts_the_variance(tmp_path: Path) -> None:
    """Leduc, rules against random: both strategies are known, so AIVAT gives the exact value; the
    chance estimate (which does not use them) must agree within its interval, with a smaller one."""
    run = [sys.executable, "-m", "showdown", "match", "leduc", "rules", "random", "--hands", "6000", "--seed", "9",
           "--out", str(tmp_path), "--json"]
    exact = json.loads(subprocess.run(run + ["--estimator", "aivat", "--force"], capture_output=True, text=True, check=True, timeout=300).stdout)
    chance = json.loads(subprocess.run(run + ["--estimator", "chance", "--force"], capture_output=True, text=True, check=True, timeout=300).stdout)
    assert exact["exact"] and chance["estimator"] == "chance"
    truth = exact["agents"][0]["per100"]
    lo, hi = chance["agents"][0]["ci95"]
    assert lo <= truth <= hi
    assert chance["agents"][0]["variance_reduction"] > 1.5
    analyzed = subprocess.run([sys.executable, "-m", "showdown", "analyze", chance["jsonl"], "--json"], capture_output=True,
                              text=True, check=True, timeout=120)
    doc = json.loads(analyzed.stdout)
    assert doc["estimator"] == "chance"
    assert doc["players"][0]["per100"] == pytest.approx(chance["agents"][0]["per100"])

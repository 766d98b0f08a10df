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
    run = [sys.executable, "-m", "showdown", "match", "leduc", "rules", "random", "--hands", "3000", "--seed", "9",
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


def _exact_preflop_equity(h0: tuple[int, int], h1: tuple[int, int]) -> float:
    """Every one of the 1,712,304 boards (the reference the sampled estimate is tested against)."""
    from showdown.games.evaluate import hand_values

    rest = np.array([c for c in make_deck(13, 4) if c not in (*h0, *h1)], dtype=np.int64)
    boards = rest[np.array(list(itertools.combinations(range(len(rest)), 5)), dtype=np.int64)]
    n = len(boards)
    a = hand_values(np.concatenate([np.broadcast_to(np.array(h0), (n, 2)), boards], axis=1))
    b = hand_values(np.concatenate([np.broadcast_to(np.array(h1), (n, 2)), boards], axis=1))
    return float(((a > b).sum() + 0.5 * (a == b).sum()) / n)


@pytest.mark.slow
def test_the_sampled_preflop_equity_is_an_unbiased_estimate_of_the_exact_one() -> None:
    from showdown.evaluation.chance import SAMPLED_BOARDS, sampled_equity

    h0, h1 = (48, 49), (44, 45)  # a pair of aces against a pair of kings, 1.7 million boards enumerated
    exact = _exact_preflop_equity(h0, h1)
    draws = np.array([sampled_equity(13, 4, 5, h0, h1, (), seed=s) for s in range(200)])
    sd = float(np.sqrt(exact * (1 - exact) / SAMPLED_BOARDS))  # at most: ties only lower it
    assert all(abs(d - exact) < 6 * sd for d in draws)  # each draw: a 6-sd miss has chance < 1e-8
    assert abs(float(draws.mean()) - exact) < 6 * sd / np.sqrt(len(draws))  # the mean of 200: unbiased


def test_the_flop_term_has_mean_zero_given_the_hands() -> None:
    """The sampled "before" of the flop is the same whatever flop comes, so the flop term's mean over
    every flop is the exact equity (enumerated: every flop's 990 turn and river cards) minus the
    sampled one: within the sample's noise, and 0 only on average over the samples' seeds."""
    from showdown.evaluation.chance import SAMPLED_BOARDS

    game = get_game("holdem-nolimit")
    c = ChanceCorrector(game, sample_boards=True)
    plain = ChanceCorrector(game)
    hole = [(48, 49), (44, 45)]
    deck = list(make_deck(13, 4))
    rest = [x for x in deck if x not in (48, 49, 44, 45)]
    rng = np.random.default_rng(11)
    flops = [tuple(int(x) for x in rng.choice(rest, 3, replace=False)) for _ in range(300)]
    betting = "cc/"
    terms = [c.corrections(hole, [(), f], betting)[0] - plain.corrections(hole, [(), f], betting)[0] for f in flops]
    pot = 200.0  # both blinds called: the pot when the flop comes
    flop_equities = np.array(terms) / pot + c._sampled_equity(hole[0], hole[1], ())
    # each flop's term is (equity after the flop - sampled preflop equity) x pot: same offset for every flop
    assert np.allclose(flop_equities, [c.showdown_equity(hole[0], hole[1], f) for f in flops])
    exact_over_flops = float(np.mean([c.showdown_equity(hole[0], hole[1], f) for f in flops]))
    sd = 0.5 / np.sqrt(SAMPLED_BOARDS) + 0.5 / np.sqrt(len(flops))
    assert abs(exact_over_flops - c._sampled_equity(hole[0], hole[1], ())) < 6 * sd


def test_a_called_all_in_before_the_flop_is_scored_by_its_expected_value_whatever_the_board() -> None:
    """The "all-in adjusted" result: with the flop, turn and river terms taken out, a preflop all-in's
    corrected result is the same on every board (only the deal's term and the sampled equity left)."""
    game = get_game("holdem-nolimit")
    c = ChanceCorrector(game, sample_boards=True)
    plain = ChanceCorrector(game)
    stack = game.stack[0]
    hole = [(48, 49), (44, 45)]
    rest = [x for x in make_deck(13, 4) if x not in (48, 49, 44, 45)]
    rng = np.random.default_rng(3)
    corrected, uncorrected = [], []
    for _ in range(40):
        board = [int(x) for x in rng.choice(rest, 5, replace=False)]
        from showdown.games.evaluate import hand_values

        a, b = (int(hand_values(np.array([[*h, *board]]))[0]) for h in hole)
        won = stack if a > b else -stack if a < b else 0
        groups = [(), tuple(board[:3]), (board[3],), (board[4],)]
        corrected.append(won - c.corrections(hole, groups, f"r{stack}c///")[0])
        uncorrected.append(won - plain.corrections(hole, groups, f"r{stack}c///")[0])
    assert max(corrected) - min(corrected) < 1e-6 * stack
    assert max(uncorrected) - min(uncorrected) > 0.1 * stack  # without the flop term the board's luck stays


def _pots_by_prefixes(game_name: str, betting: str, rounds_dealt: int) -> list[float]:
    """The pots as first defined: each round's betting prefix replayed from the start (the oracle)."""
    from showdown.games.state import State

    game = get_game(game_name)
    parts = betting.split("/") if betting else [""]
    pots = []
    for r in range(max(rounds_dealt, 1)):
        try:
            state = State.initial(game).apply_betting("/".join(parts[: min(r, len(parts))]))
        except Exception:  # noqa: BLE001
            return [0.0] * max(rounds_dealt, 1)
        pots.append(float(sum(state.spent)))
    return pots


@pytest.mark.parametrize("game_name", ["leduc", "holdem-limit", "holdem-nolimit"])
def test_the_pots_replayed_once_are_the_pots_of_every_prefix(game_name: str) -> None:
    """``_pots`` replays a hand's betting once (it replayed each round's prefix from the start: an eighth of a
    duplicate match's analysis): the same pots on random hands, cut short, and on strings the rules refuse."""
    import random

    from showdown.evaluation.chance import _pots
    from showdown.games.state import State
    from tests.agents.test_policy_matches_act import _random_action

    game = get_game(game_name)
    rng = random.Random(11)
    for _ in range(300):
        state = State.initial(game)
        while not state.is_terminal and rng.random() < 0.93:
            state = state.apply(_random_action(state, rng))
        betting = state.betting
        if rng.random() < 0.2:  # a corrupted or reordered string
            cut = rng.randrange(len(betting) + 1)
            betting = betting[:cut] + rng.choice(["/", "x", "r", "//", "f", "c"]) + betting[cut:]
        for dealt in range(game.num_rounds + 2):
            assert _pots(game, betting, dealt) == _pots_by_prefixes(game_name, betting, dealt), (betting, dealt)


def test_corrections_worked_out_elsewhere_are_taken_by_their_key_and_recorded_ones_are_the_same() -> None:
    from showdown.evaluation.chance import correction_key

    game = get_game("holdem-nolimit")
    hole, board, betting = ((0, 13), (26, 39)), ((1, 14, 27), (40,), (5,)), "cc/cc/cc/cc"
    recording = ChanceCorrector(game, sample_boards=True, record=True)
    first = recording.corrections(hole, board, betting)
    assert recording.recorded == {correction_key(hole, board, betting): first[0]}
    assert first == ChanceCorrector(game, sample_boards=True).corrections(hole, board, betting)
    told = ChanceCorrector(game, sample_boards=True, known={correction_key(hole, board, betting): 12.5})
    assert told.corrections(hole, board, betting) == (12.5, -12.5)
    assert told.corrections(hole, board, "cc/cc/cc/r300c") != (12.5, -12.5)  # another hand: worked out
    assert correction_key(hole, board, betting) != correction_key(hole, ((1, 14, 27), (40,), (6,)), betting)
    # a document of them (a duplicate half's) is taken only when made with the same settings
    key = correction_key(hole, board, betting)
    other = ChanceCorrector(game, sample_boards=True, boards=500)
    assert not other.take_known({"settings": recording.settings, "corrections": {key: 12.5}})
    assert other.corrections(hole, board, betting) != (12.5, -12.5)
    same = ChanceCorrector(game, sample_boards=True)
    assert same.take_known({"settings": recording.settings, "corrections": {key: 12.5}})
    assert same.corrections(hole, board, betting) == (12.5, -12.5)

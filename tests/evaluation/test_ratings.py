"""Bradley-Terry ratings: recovery of known strengths, intervals that cover, the edge cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from showdown.errors import ShowdownError
from showdown.evaluation.ratings import ELO_PER_UNIT, bradley_terry, pairwise_wins


def simulate(strengths: np.ndarray, games: int, rng: np.random.Generator) -> np.ndarray:
    n = len(strengths)
    wins = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        for j in range(i + 1, n):
            p = 1.0 / (1.0 + math.exp(strengths[j] - strengths[i]))
            k = rng.binomial(games, p)
            wins[i, j], wins[j, i] = k, games - k
    return wins


def test_two_agents_rating_is_the_log_odds_of_their_win_share():
    r = bradley_terry([[0, 75], [25, 0]])
    # one comparison pair: the MLE difference is log(75/25), split around zero
    assert r.rating[0] - r.rating[1] == pytest.approx(math.log(3.0), abs=1e-9)
    assert r.rating[0] == pytest.approx(-r.rating[1])
    # se of the difference: 1/sqrt(n p (1-p)) with p = 3/4; each centred rating has half of it
    assert r.se[0] == pytest.approx(0.5 / math.sqrt(100 * 0.75 * 0.25), rel=1e-6)
    assert r.win_probability(0, 1) == pytest.approx(0.75)


def test_simulated_tournament_recovers_the_true_ratings_within_their_intervals():
    rng = np.random.default_rng(7)
    truth = np.array([0.8, 0.3, 0.0, -0.4, -0.7])
    truth -= truth.mean()
    covered = 0
    trials = 40
    for _ in range(trials):
        r = bradley_terry(simulate(truth, 400, rng))
        covered += sum(lo <= t <= hi for t, (lo, hi) in zip(truth, r.ci95))
    # 95% intervals: about 95% of the 200 true values inside (binomial sd about 3%)
    assert covered / (trials * len(truth)) > 0.88


def test_equal_agents_get_equal_ratings():
    r = bradley_terry([[0, 50, 50], [50, 0, 50], [50, 50, 0]])
    assert r.rating == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    assert r.elo == pytest.approx((0.0, 0.0, 0.0), abs=1e-6)


def test_an_unbeaten_agent_has_infinite_strength_and_the_rest_are_still_rated():
    wins = [[0, 10, 10], [0, 0, 6], [0, 4, 0]]
    r = bradley_terry(wins)
    assert r.rating[0] == math.inf
    assert r.rating[1] - r.rating[2] == pytest.approx(math.log(6 / 4))
    assert math.isnan(r.se[0])


def test_elo_scale():
    r = bradley_terry([[0, 75], [25, 0]])
    assert r.elo[0] == pytest.approx(r.rating[0] * ELO_PER_UNIT)
    assert ELO_PER_UNIT == pytest.approx(173.7178, abs=1e-4)


def test_pairwise_wins_counts_hands_won_between_the_agents_seated_there():
    values = [[1.0, -1.0], [-2.0, 2.0], [0.0, 0.0], [1, -1]]
    agents = [[0, 1], [0, 1], [1, 0], [1, 0]]
    wins = pairwise_wins(values, agents, 2)
    assert wins.tolist() == [[0, 1], [2, 0]]  # the tie (hand 2) counts for no one


def test_bad_input_is_one_error():
    with pytest.raises(ShowdownError):
        bradley_terry([[0, -1], [1, 0]])
    with pytest.raises(ShowdownError):
        bradley_terry([[0, 1, 2]])


def test_a_prior_keeps_a_sweep_finite_and_ordered():
    r = bradley_terry([[0, 10, 10], [0, 0, 6], [0, 4, 0]], prior=1.0)
    assert all(math.isfinite(x) for x in r.rating)
    assert r.rating[0] > r.rating[1] > r.rating[2]
    assert all(math.isfinite(x) for x in r.se)

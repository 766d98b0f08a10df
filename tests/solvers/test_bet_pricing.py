"""Pricing a left-out bet: Bob's deterring calls, found exactly or proven absent."""

from __future__ import annotations

import numpy as np
import pytest

from showdown.solvers import bet_pricing
from showdown.solvers.bet_pricing import deterring_calls, profitable_range
from showdown.solvers.equity import equity_table
from showdown.solvers.one_round import OneRoundGame, solve_one_round


def gains(bet: float, bb: float = 2.0) -> np.ndarray:
    """``G_b[a, k]``: Alice's gain per call of ``bet`` by class ``a`` into class ``k``."""
    table = equity_table()
    P = table.probabilities()
    return np.asarray((bb + bet) * P * table.net_equity() - bb * P)


def test_a_bet_beyond_the_grid_is_deterred_exactly() -> None:
    # what each class earns with the sizes {0, 2..24} (Alice raises at most 22); Bob can make 30 unprofitable
    solution = solve_one_round(OneRoundGame(bets=(0.0, *map(float, range(2, 25)))))
    slack = solution.class_values * solution.class_probabilities - 2.0 * solution.class_probabilities
    G = gains(30.0)
    calls = deterring_calls(G, slack)
    assert calls is not None
    assert ((calls >= 0) & (calls <= 1)).all()
    assert (G @ calls <= slack).all()  # exact in floating point, no tolerance


def test_a_profitable_bet_has_no_deterrent() -> None:
    # with the limp only, Alice's raise of 4 gains for some class whatever Bob does
    solution = solve_one_round(OneRoundGame(bets=(0.0,)))
    slack = solution.class_values * solution.class_probabilities - 2.0 * solution.class_probabilities
    assert deterring_calls(gains(4.0), slack) is None


def test_impossible_slack_has_no_deterrent() -> None:
    assert deterring_calls(gains(4.0), np.full(169, -1.0)) is None


def test_a_passing_candidate_is_taken_first() -> None:
    never, always = np.zeros(169), np.ones(169)
    candidates = np.stack([always, never], axis=1)
    G = gains(4.0)
    # every class may gain anything: calling always is fine and is the first candidate
    calls = deterring_calls(G, np.full(169, 10.0), candidates)
    assert calls is not None and (calls == always).all()
    # no class may gain: only never calling keeps each class's gain (0) within its slack (0)
    calls = deterring_calls(np.abs(G), np.zeros(169), candidates)
    assert calls is not None and (calls == never).all()


def test_a_calling_threshold_is_found_without_an_lp() -> None:
    # each class of Alice must lose 2 chips to Bob's calls: only calling with both of his classes 0
    # and 1 (first in the order) does it, and any further call gives her 1 back
    G = np.ones((169, 169))
    G[:, :2] = -1.0
    order = np.array([1, 0, *range(2, 169)])
    calls = deterring_calls(G, np.full(169, -2.0), order=order)
    assert calls is not None and calls.tolist() == [1.0, 1.0] + [0.0] * 167


def test_a_range_that_gains_against_every_reply_proves_the_bet_undeterred() -> None:
    # with the limp only, AA's range (every other class's weight 0) gains by raising 4 whatever
    # Bob calls with: a Farkas certificate, so no y exists; a range that loses to Bob's calls proves nothing
    solution = solve_one_round(OneRoundGame(bets=(0.0,)))
    slack = solution.class_values * solution.class_probabilities - 2.0 * solution.class_probabilities
    G = gains(4.0)
    aces = np.zeros((169, 1))
    aces[int(np.argmax(solution.class_values)), 0] = 1.0
    assert profitable_range(G, slack, aces)
    assert not profitable_range(G, np.full(169, 10.0), aces)
    assert deterring_calls(G, np.full(169, 10.0), ranges=aces) is not None


def test_an_undeterred_bet_is_found_without_an_lp_when_a_range_proves_it(monkeypatch: pytest.MonkeyPatch) -> None:
    solution = solve_one_round(OneRoundGame(bets=(0.0,)))
    slack = solution.class_values * solution.class_probabilities - 2.0 * solution.class_probabilities
    aces = np.zeros((169, 1))
    aces[int(np.argmax(solution.class_values)), 0] = 1.0

    def no_lp(G_b: np.ndarray, slack: np.ndarray) -> None:
        raise AssertionError("the range's certificate should have spared the LP")

    monkeypatch.setattr(bet_pricing, "_deterrence_lp", no_lp)
    assert deterring_calls(gains(4.0), slack, np.zeros((169, 1)), ranges=aces) is None

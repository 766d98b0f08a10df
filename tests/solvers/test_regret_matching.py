"""Regret matching: the rule, its segmented form, and the seeds' rock-paper-scissors example."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

from showdown.solvers.regret_matching import (
    ROCK_PAPER_SCISSORS,
    learn_against_fixed,
    regret_matching,
    segment_normalize,
    segment_regret_matching,
)

OPPONENT = np.array([0.4, 0.3, 0.3])
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rock_paper_scissors.py"


@pytest.mark.parametrize(
    ("total", "strategy"),
    # Rows of the seeds' regret-matching table (AIPT section 3, "Regret Matching"): total regrets for
    # rock, paper, scissors and the strategy they give.
    [([3, 1, 2], [1 / 2, 1 / 6, 1 / 3]), ([4, 5, 3], [1 / 3, 5 / 12, 1 / 4]), ([4, 6, 2], [1 / 3, 1 / 2, 1 / 6]),
     ([1, 1, 1], [1 / 3, 1 / 3, 1 / 3]), ([1, 0, -1], [1, 0, 0])],
)
def test_strategy_is_proportional_to_positive_regret(total: list[float], strategy: list[float]) -> None:
    np.testing.assert_allclose(regret_matching(np.array(total, dtype=float)), strategy)


def test_no_positive_regret_means_uniform() -> None:
    np.testing.assert_allclose(regret_matching(np.array([-1.0, -2.0, 0.0])), [1 / 3] * 3)
    np.testing.assert_allclose(regret_matching(np.array([[0.0, 0.0], [2.0, -1.0]])), [[0.5, 0.5], [1.0, 0.0]])


def test_regrets_of_one_game_follow_the_seeds_rules() -> None:
    # The seeds: we play rock and the opponent paper -> regrets scissors +2, paper +1, rock 0.
    won = ROCK_PAPER_SCISSORS[:, 1]
    np.testing.assert_array_equal(won - won[0], [0, 1, 2])
    # We play scissors against paper (a win): paper -1, rock -2.
    np.testing.assert_array_equal(won - won[2], [-2, -1, 0])


def test_segments_of_different_sizes_at_once() -> None:
    regrets = np.array([5.0, 1.0, -1.0, 0.0, 2.0, 2.0, -3.0, -1.0])
    starts = np.array([0, 1, 3, 6])
    segment_of = np.repeat(np.arange(4), [1, 2, 3, 2])
    inv = 1.0 / np.array([1, 2, 2, 3, 3, 3, 2, 2], dtype=float)
    np.testing.assert_allclose(
        segment_regret_matching(regrets, starts, segment_of, inv), [1, 1, 0, 0, 0.5, 0.5, 0.5, 0.5]
    )
    weights = np.array([2.0, 1.0, 3.0, 0.0, 0.0, 0.0, 1.0, 1.0])
    np.testing.assert_allclose(segment_normalize(weights, starts, segment_of, inv), [1, 0.25, 0.75, 1 / 3, 1 / 3, 1 / 3, 0.5, 0.5])


@pytest.mark.parametrize("sampled", [True, False])
def test_regret_matching_learns_to_play_paper_against_40_30_30(sampled: bool) -> None:
    run = learn_against_fixed(ROCK_PAPER_SCISSORS, OPPONENT, 5000, np.random.default_rng(1), sampled=sampled)
    assert run.strategy.argmax() == 1 and run.strategy[1] == 1.0
    assert run.average_strategy[1] > 0.9
    assert run.regrets[0] < 0 and run.regrets[2] < 0  # rock and scissors did worse than what was played


def test_it_learns_paper_for_most_seeds() -> None:
    paper = sum(
        learn_against_fixed(ROCK_PAPER_SCISSORS, OPPONENT, 1500, np.random.default_rng(seed)).strategy.argmax() == 1
        for seed in range(10)
    )
    assert paper >= 9


def test_the_example_prints_that_paper_wins(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), "--games", "3000", "--seed", "2"])
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(EXAMPLE), run_name="__main__")
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "final strategy:   rock 0.0%, paper 100.0%, scissors 0.0%" in out

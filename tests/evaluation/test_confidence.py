"""Confidence sequences: valid at every hand count, so stopping early keeps the error rate."""

from __future__ import annotations

import numpy as np
import pytest

from showdown.errors import ShowdownError
from showdown.evaluation.confidence import ConfidenceSequence


def kuhn_like(rng: np.random.Generator, size: int, mean: float = 0.0) -> np.ndarray:
    """Hand results in {-2, -1, 1, 2} with the given mean (Kuhn poker's chips)."""
    base = rng.choice([-2.0, -1.0, 1.0, 2.0], size=size)
    flip = rng.random(size) < abs(mean) / 2
    return np.where(flip, np.sign(mean) * 2.0, base) if mean else base


def test_equal_agents_are_wrongly_separated_at_most_5_percent_of_the_time_however_often_we_look() -> None:
    rng = np.random.default_rng(0)
    runs, wrong = 400, 0
    for _ in range(runs):
        cs = ConfidenceSequence(-2, 2)
        for _ in range(40):  # look after every batch of 250 hands, up to 10,000 hands
            cs.update(kuhn_like(rng, 250))
            if cs.excludes(0.0):
                wrong += 1
                break
    assert wrong / runs <= 0.05


def test_a_real_difference_is_found_and_the_interval_covers_it() -> None:
    rng = np.random.default_rng(1)
    cs = ConfidenceSequence(-2, 2)
    for _ in range(200):
        cs.update(kuhn_like(rng, 500, mean=0.2))
        if cs.excludes(0.0):
            break
    lo, hi = cs.interval()
    assert lo > 0 and lo <= 0.2 <= hi and cs.n < 100_000


def test_batches_or_one_by_one_give_the_same_interval() -> None:
    x = np.random.default_rng(2).uniform(-1, 1, 1000)
    a, b = ConfidenceSequence(-1, 1), ConfidenceSequence(-1, 1)
    a.update(x)
    for chunk in np.array_split(x, 37):
        b.update(chunk)
    assert a.interval() == pytest.approx(b.interval(), abs=1e-12)


def test_the_interval_shrinks_like_one_over_root_n() -> None:
    rng = np.random.default_rng(3)
    cs = ConfidenceSequence(-2, 2)
    cs.update(kuhn_like(rng, 1_000))
    w1 = cs.half_width()
    cs.update(kuhn_like(rng, 99_000))
    assert cs.half_width() < w1 / 5


def test_values_out_of_range_are_refused() -> None:
    with pytest.raises(ShowdownError):
        ConfidenceSequence(-1, 1).update([2.0])
    with pytest.raises(ShowdownError):
        ConfidenceSequence(1, 1)

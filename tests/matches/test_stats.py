"""Win-rate statistics against hand-computed examples."""

from __future__ import annotations

import math
import random

import pytest

from showdown.matches.stats import Z95, Estimate, MatchStats, Welford
from showdown.protocol.logfile import HandRecord


def test_welford_matches_the_textbook_formulas() -> None:
    rng = random.Random(1)
    xs = [rng.gauss(3, 2) for _ in range(1000)]
    w = Welford()
    for x in xs:
        w.add(x)
    mean = sum(xs) / len(xs)
    var = sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)
    assert w.n == 1000 and w.mean == pytest.approx(mean) and w.variance == pytest.approx(var)
    a, b = Welford(), Welford()
    for x in xs[:300]:
        a.add(x)
    for x in xs[300:]:
        b.add(x)
    m = a.merged(b)
    assert m.n == 1000 and m.mean == pytest.approx(mean) and m.variance == pytest.approx(var)


def test_fixed_seats_by_hand() -> None:
    # seat 0 wins 2, -1, 1, -2: mean 0, sample variance 10/3, standard error sqrt(10/3/4)
    stats = MatchStats(["a", "b"])
    for v in (2, -1, 1, -2):
        stats.add((0, 1), (v, -v))
    a = stats.agent(0)
    se = math.sqrt(10 / 3 / 4)
    assert a.hands == 4 and a.total == 0 and a.mean == 0
    assert a.se == pytest.approx(se)
    assert a.ci95 == pytest.approx((-100 * Z95 * se, 100 * Z95 * se))
    assert a.ci95 == pytest.approx((-178.919, 178.919), abs=1e-3)
    # with fixed seats the position figures are the seat figures
    assert stats.position(0).se == pytest.approx(se) and stats.position(1).mean == 0


def test_rotating_seats_stratify_the_agent_variance_by_position() -> None:
    # Hand h: seat 0 sits at position h mod 2 (2 players). Seat 0 wins 1, -1, 3, -3:
    # at position 0 it has [1, 3] (variance 2), at position 1 [-1, -3] (variance 2).
    # Stratified variance of the total: 2*2 + 2*2 = 8, so se = sqrt(8)/4; pooling all four
    # results would give sqrt(20/3/4), counting the positional edge as noise.
    stats = MatchStats(["a", "b"])
    for h, v in enumerate((1, -1, 3, -3)):
        seats = (0, 1) if h % 2 == 0 else (1, 0)  # seats by position
        values = (v, -v) if h % 2 == 0 else (-v, v)  # values by position
        stats.add(seats, values)
    a = stats.agent(0)
    assert a.mean == 0 and a.se == pytest.approx(math.sqrt(8) / 4)
    assert stats.agent(1).se == pytest.approx(math.sqrt(8) / 4)
    # position 0 saw 1, 1, 3, 3 (whoever sat there): mean 2, variance 4/3
    p0 = stats.position(0)
    assert p0.per100 == pytest.approx(200)
    assert p0.se == pytest.approx(math.sqrt(4 / 3 / 4))
    assert p0.ci95 == pytest.approx((200 - 100 * Z95 * math.sqrt(1 / 3), 200 + 100 * Z95 * math.sqrt(1 / 3)))
    assert stats.position(1).per100 == pytest.approx(-200)


def test_a_position_seen_once_falls_back_to_the_pooled_variance() -> None:
    stats = MatchStats(["a", "b"])
    stats.add((0, 1), (4, -4))
    stats.add((1, 0), (-2, 2))
    stats.add((0, 1), (0, 0))
    # seat 0: position 0 [4, 0], position 1 [2] once -> pooled [4, 2, 0]: variance 4
    assert stats.agent(0).se == pytest.approx(math.sqrt(4 / 3))


def test_mbb_per_hand_uses_the_big_blind() -> None:
    e = Estimate(hands=100, total=50.0, mean=0.5, se=0.1, big_blind=10)
    assert e.per100 == 50.0
    assert e.mbb == 50.0  # 1000 x 50 chips / (100 hands x 10)
    assert e.ci95_mbb == pytest.approx((50 - 10 * Z95, 50 + 10 * Z95))


def test_too_few_hands_have_no_interval() -> None:
    stats = MatchStats(["a", "b", "c"])
    assert stats.agent(0).ci95 is None
    stats.add((0, 1, 2), (1.5, -1, -0.5))
    assert stats.agent(0).total == 1.5 and stats.agent(0).ci95 is None and stats.position(2).ci95 is None


def test_hand_records_feed_the_statistics() -> None:
    stats = MatchStats(["x", "y"], big_blind=10)
    rec = HandRecord(hand=0, game="holdem-limit", players=("y", "x"), seats=(1, 0), hole=((), ()), board=((),),
                     betting="f", values=(-5.0, 5.0))  # fmt: skip
    stats.add_record(rec)
    assert stats.agent(0).total == 5.0 and stats.agent(1).total == -5.0
    assert stats.position(0).total == -5.0 and stats.hands == 1

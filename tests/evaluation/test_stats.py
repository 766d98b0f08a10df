"""Win-rate statistics against hand-computed examples."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from showdown.evaluation.stats import (
    Z95,
    Estimate,
    MatchStats,
    Welford,
    sample_estimate,
    stratified_estimate,
    two_sided_p,
    variance_ratio,
)
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
    assert a.se == pytest.approx(se) and a.df == 3
    t3 = 3.182446305284263  # Student's t, 3 degrees of freedom, 97.5% (a table's 3.182)
    assert a.ci95 == pytest.approx((-100 * t3 * se, 100 * t3 * se))
    assert a.ci95 == pytest.approx((-290.516, 290.516), abs=1e-3)
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
    # position 0 saw 1, 3 from seat 0 and 1, 3 from seat 1 (whoever sat there): mean 2; stratified by
    # the seat in it, sum_s n_s s_s^2 = 2*2 + 2*2 = 8, se = sqrt(8)/4 (pooling would give sqrt(4/3/4))
    p0 = stats.position(0)
    assert p0.per100 == pytest.approx(200)
    assert p0.se == pytest.approx(math.sqrt(8) / 4)
    # Welch-Satterthwaite: (4 + 4)^2 / (4^2 / 1 + 4^2 / 1) = 2 degrees of freedom, t = 4.303
    t2 = 4.302652729911275
    assert p0.df == pytest.approx(2.0)
    assert p0.ci95 == pytest.approx((200 - 100 * t2 * math.sqrt(0.5), 200 + 100 * t2 * math.sqrt(0.5)))
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


def test_a_position_stratified_by_agent_ignores_the_gap_between_agents() -> None:
    # position 0 held by a strong agent (always +3) and a weak one (always -1): no noise at all within
    # each agent; pooling would report a variance of ~4. Values known exact have a standard error of 0;
    # a sample's values that merely agree give none (no zero-wide interval: test_no_spread_is_no_interval)
    for exact, se in ((True, 0.0), (False, None)):
        stats = MatchStats(["strong", "weak"], exact=exact)
        for h in range(10):
            if h % 2 == 0:
                stats.add((0, 1), (3.0, -3.0))
            else:
                stats.add((1, 0), (-1.0, 1.0))
        p0 = stats.position(0)
        assert p0.mean == pytest.approx(1.0) and p0.se == se


def test_difference_between_agents_by_hand() -> None:
    # 3 players, fixed seats; a - b per hand: 3 - 1 = 2, 0 - (-2) = 2, -1 - 0 = -1, 2 - 0 = 2
    stats = MatchStats(["a", "b", "c"])
    for values in ((3, 1, -4), (0, -2, 2), (-1, 0, 1), (2, 0, -2)):
        stats.add((0, 1, 2), values)
    d = stats.difference(0, 1)
    diffs = [2, 2, -1, 2]
    mean = sum(diffs) / 4
    var = sum((x - mean) ** 2 for x in diffs) / 3
    assert d.a == "a" and d.b == "b" and d.estimate.hands == 4
    assert d.estimate.mean == pytest.approx(mean) and d.estimate.se == pytest.approx(math.sqrt(var / 4))
    assert d.p_value == pytest.approx(two_sided_p(mean / math.sqrt(var / 4), 3))
    assert d.p_value == pytest.approx(0.1942, abs=1e-4)  # t = 1.667 on 3 degrees of freedom (normal: 0.096)
    back = stats.difference(1, 0)
    assert back.estimate.mean == pytest.approx(-mean) and back.estimate.se == d.estimate.se
    assert [(x.a, x.b) for x in stats.differences()] == [("a", "b"), ("a", "c"), ("b", "c")]


def test_in_two_player_zero_sum_the_difference_is_twice_the_result() -> None:
    rng = np.random.default_rng(4)
    stats = MatchStats(["x", "y"])
    for h in range(500):
        v = float(rng.choice([-2, -1, 1, 2]))
        stats.add((0, 1) if h % 2 == 0 else (1, 0), (v, -v))
    d = stats.difference(0, 1).estimate
    a = stats.agent(0)
    assert d.mean == pytest.approx(2 * a.mean) and d.se == pytest.approx(2 * a.se)  # type: ignore[operator]


def test_p_values_of_the_normal_test() -> None:
    assert two_sided_p(0.0) == 1.0
    assert two_sided_p(Z95) == pytest.approx(0.05)
    assert two_sided_p(-2.5758293035489) == pytest.approx(0.01)
    assert Estimate(100, 0.0, 0.0, 0.0).p_value == 1.0
    assert Estimate(100, 5.0, 0.05, 0.0).p_value == 0.0
    assert Estimate(1, 1.0, 1.0, None).p_value is None


def test_add_many_equals_hand_by_hand() -> None:
    rng = np.random.default_rng(7)
    hands = 300
    seats = np.array([[(p + h) % 3 for p in range(3)] for h in range(hands)])
    values = rng.integers(-5, 6, size=(hands, 3)).astype(float)
    values[:, 2] = -values[:, 0] - values[:, 1]
    one, many = MatchStats(["a", "b", "c"]), MatchStats(["a", "b", "c"])
    for h in range(hands):
        one.add(tuple(seats[h]), tuple(values[h]))
    many.add_many(seats[:100], values[:100])
    many.add_many(seats[100:], values[100:])
    assert many.hands == one.hands == hands
    for x, y in zip(one.agents() + one.positions(), many.agents() + many.positions()):
        assert x.total == y.total and x.mean == pytest.approx(y.mean) and x.se == pytest.approx(y.se)
    for d1, d2 in zip(one.differences(), many.differences()):
        assert d1.estimate.mean == pytest.approx(d2.estimate.mean) and d1.estimate.se == pytest.approx(d2.estimate.se)


def test_iid_samples_and_variance_ratio() -> None:
    e = sample_estimate([1.0, 3.0, 5.0], hands_per_sample=2)
    assert e.hands == 6 and e.total == 18.0 and e.mean == 3.0 and e.se == pytest.approx(2 / math.sqrt(3))
    plain = Estimate(100, 0, 0, 0.3)
    assert variance_ratio(plain, Estimate(100, 0, 0, 0.1)) == pytest.approx(9.0)
    assert variance_ratio(plain, Estimate(100, 0, 0, 0.0)) == math.inf
    assert variance_ratio(plain, Estimate(1, 0, 0, None)) is None
    w = Welford.of(np.full(10, 0.1))
    assert w.m2 == 0.0 and w.mean == 0.1  # a constant sample has no rounding noise
    assert stratified_estimate([w, Welford.of(np.full(5, -0.3))], exact=True).se == 0.0
    assert stratified_estimate([w, Welford.of(np.full(5, -0.3))]).se is None  # a sample that agrees: no interval


@pytest.mark.parametrize("fixed", [False, True])
def test_intervals_cover_the_truth_95_percent_of_the_time(fixed: bool) -> None:
    # Simulated 2-player matches with a positional edge and different agent strengths: the true
    # per-hand means are known, and about 95% of the 95% intervals must contain them.
    rng = np.random.default_rng(2024)
    trials, hands = 600, 400
    # position 0 wins +1 w.p. p, else -1; agent "a" gets +0.2 in expectation extra at either position
    edge_a = {0: 0.35, 1: 0.15}  # a's expected result at each position
    covered = {"agent": 0, "position": 0, "difference": 0}
    for _ in range(trials):
        h = np.arange(hands)
        a_pos = np.zeros(hands, dtype=np.int64) if fixed else h % 2  # a's position
        means = np.where(a_pos == 0, edge_a[0], edge_a[1])
        outcome = np.where(rng.random(hands) < (1 + means) / 2, 1.0, -1.0) * rng.choice([1.0, 2.0], size=hands)
        # E[outcome] = means * 1.5; a's result; b gets the negative
        seats = np.stack([np.where(a_pos == 0, 0, 1), np.where(a_pos == 0, 1, 0)], axis=1)
        vals0 = np.where(a_pos == 0, outcome, -outcome)  # position 0's value
        values = np.stack([vals0, -vals0], axis=1)
        stats = MatchStats(["a", "b"])
        stats.add_many(seats, values)
        share0 = float((a_pos == 0).mean())
        true_a = 1.5 * (share0 * edge_a[0] + (1 - share0) * edge_a[1])
        true_pos0 = 1.5 * (share0 * edge_a[0] - (1 - share0) * edge_a[1])
        lo, hi = stats.agent(0).ci95  # type: ignore[misc]
        covered["agent"] += lo <= 100 * true_a <= hi
        lo, hi = stats.position(0).ci95  # type: ignore[misc]
        covered["position"] += lo <= 100 * true_pos0 <= hi
        lo, hi = stats.difference(0, 1).estimate.ci95  # type: ignore[misc]
        covered["difference"] += lo <= 200 * true_a <= hi
    for what, count in covered.items():
        rate = count / trials
        # binomial sd at 600 trials is 0.9%: 0.92..0.98 is about 3.3 sd either side
        assert 0.92 <= rate <= 0.98, (what, rate)


def test_no_spread_is_no_interval() -> None:
    """Two hands that came out alike (`showdown match kuhn bluff call --hands 2`: position 0 lost 2 chips
    in both) gave position 0 a 95% interval [-200.00, -200.00]: zero wide, a certainty two hands never give.
    Values that merely agree have no standard error to estimate (None: n/a, null); exact ones keep 0."""
    stats = MatchStats(["bluff", "call"])
    stats.add((0, 1), (-2.0, 2.0))
    stats.add((1, 0), (-2.0, 2.0))
    assert stats.position(0).ci95 is None and stats.position(0).as_json()["ci95"] is None
    assert stats.position(0).p_value is None and stats.agent(0).ci95 is not None  # the agents' results differ
    assert sample_estimate([5.0, 5.0, 5.0]).se is None and sample_estimate([5.0, 5.0, 5.0], exact=True).se == 0.0
    exact = MatchStats(["a", "b"], exact=True)
    exact.add((0, 1), (-2.0, 2.0))
    exact.add((1, 0), (-2.0, 2.0))
    assert exact.position(0).ci95 == (-200.0, -200.0)


def test_exact_values_have_no_sampling_error_however_few_the_hands() -> None:
    """`showdown match kuhn rules random --hands 2 --seed 2` (AIVAT, every strategy known: "the exact expected
    value, no sampling error") printed rules +20.83 [+12.67, +29.00]: with one hand in each position the
    strata were pooled, the gap between the positions' exact values counted as noise. Exact is exact."""
    cells = [Welford.of([0.9]), Welford.of([-0.5])]  # one hand a position, each its seating's exact value
    assert stratified_estimate(cells, exact=True).se == 0.0 and stratified_estimate(cells).se is not None
    assert sample_estimate([0.2], exact=True).se == 0.0 and sample_estimate([0.2]).se is None


def test_short_samples_intervals_cover_95_percent() -> None:
    """Normal quantiles alone made a short match's 95% intervals too narrow: chunks of one long seeded
    `showdown match kuhn equilibrium bluff` covered the exact +11.11/100 91% of the time at 10 hands and
    58-77% at 2. Student's t with the sample's degrees of freedom keeps them at 95% (here: Kuhn-like
    results, +-1 or +-2 chips, 6 hands a match with rotating seats, and 12 paired deals)."""
    rng = np.random.default_rng(7)
    outcomes = np.array([-2.0, -1.0, 1.0, 2.0])
    probs = {0: [0.2, 0.35, 0.3, 0.15], 1: [0.1, 0.3, 0.35, 0.25]}  # seat 0's results by its position
    truth = sum(float(np.dot(outcomes, p)) for p in probs.values()) / 2
    hits = runs = 0
    for _ in range(3000):
        stats = MatchStats(["a", "b"])
        for h in range(6):
            pos = h % 2
            v = float(rng.choice(outcomes, p=probs[pos]))
            stats.add((0, 1) if pos == 0 else (1, 0), (v, -v) if pos == 0 else (-v, v))
        ci = stats.agent(0).ci95
        if ci is not None:
            runs += 1
            hits += ci[0] <= 100 * truth <= ci[1]
    assert runs > 2900 and 0.94 <= hits / runs <= 0.99, hits / runs
    deals = rng.normal(0.3, 1.0, size=(3000, 12))
    covered = [(ci := sample_estimate(d).ci95) is not None and ci[0] <= 30.0 <= ci[1] for d in deals]
    assert 0.94 <= float(np.mean(covered)) <= 0.96


def test_students_t_agrees_with_scipy() -> None:
    from scipy.special import stdtr, stdtrit

    from showdown.evaluation.student import t_quantile, t_two_sided

    for df in (1.0, 1.3, 2.0, 2.5, 3.0, 7.7, 30.0, 999.5, 1000.0, 4e4):
        assert t_quantile(df) == pytest.approx(float(stdtrit(df, 0.975)), rel=1e-11)
        for t in (0.05, 1.0, 2.5, 6.0):
            assert t_two_sided(t, df) == pytest.approx(float(2 * stdtr(df, -t)), rel=1e-9)

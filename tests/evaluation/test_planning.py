"""Planning a match's length: the fixed-sample formula, the simulated anytime-valid stop, the command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from showdown.errors import ShowdownError
from showdown.evaluation.planning import fixed_sample_hands, make_plan


def test_fixed_sample_formula() -> None:
    # (1.96 + 0.8416)^2 * (1 / 0.1)^2 = 784.9
    assert fixed_sample_hands(1.0, 0.1) == 785
    assert fixed_sample_hands(2.0, 0.1) == 3140  # four times the spread squared: ceil(3139.6)
    with pytest.raises(ShowdownError):
        fixed_sample_hands(1.0, 0.0)


@pytest.mark.parametrize("delta", [float("nan"), float("inf"), -1.0])
def test_a_difference_that_is_no_positive_number_is_refused(delta: float) -> None:
    with pytest.raises(ShowdownError, match="must be a number above zero"):
        fixed_sample_hands(1.0, delta)


def test_a_difference_too_small_to_ever_detect_is_said_not_overflowed() -> None:
    assert fixed_sample_hands(1.0, 1e-8) > 10**16  # still a plan
    with pytest.raises(ShowdownError, match="too small to tell from zero .* more than 1e\\+18 hands"):
        fixed_sample_hands(1.0, 1e-300)  # (z/delta)^2 overflows a float


def test_the_plan_holds_when_the_match_is_played() -> None:
    """Matches of the planned length, drawn like the pilot with mean delta, separate about as often as promised."""
    rng = np.random.default_rng(1)
    pilot = rng.choice([-2.0, -1.0, 1.0, 2.0], size=4000)  # Kuhn-like results
    plan = make_plan(pilot, 10.0, (-2.0, 2.0), runs=30, seed=2)
    assert plan.anytime_median is not None and plan.anytime_power is not None
    assert plan.fixed_hands < plan.anytime_power  # looking all the time costs hands
    shifted = pilot - pilot.mean() + 0.1
    wins = 0
    for _ in range(300):
        sample = rng.choice(shifted, size=plan.fixed_hands)
        se = sample.std(ddof=1) / np.sqrt(sample.size)
        wins += abs(sample.mean()) > 1.959963984540054 * se
    assert 0.72 <= wins / 300 <= 0.88  # the 80% power the plan promises


def test_plan_command_from_logs(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "showdown", "match", "kuhn", "bluff", "call", "--hands", "1500", "--out", str(tmp_path)],
                   check=True, capture_output=True, timeout=120)
    log = next(tmp_path.glob("*.jsonl"))
    out = subprocess.run([sys.executable, "-m", "showdown", "plan", "--pilot", str(log), "--agent", "call", "--difference", "10",
                          "--runs", "10", "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["agent"] == "call" and doc["pilot_hands"] == 1500 and doc["fixed_sample_hands"] > 100
    bad = subprocess.run([sys.executable, "-m", "showdown", "plan", "--pilot", str(log), "--agent", "nobody", "--difference", "10"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "not in the pilot logs" in bad.stderr


def test_the_number_of_simulated_matches_follows_the_precision_asked() -> None:
    """Issue 25: 40 simulated runs left the median stop about 30% off; the plan now simulates until the
    median's distribution-free 95% interval is within the precision asked, and says it."""
    rng = np.random.default_rng(4)
    pilot = rng.choice([-2.0, -1.0, 1.0, 2.0], size=4000)
    coarse = make_plan(pilot, 20.0, (-2.0, 2.0), precision=0.25, seed=5)
    fine = make_plan(pilot, 20.0, (-2.0, 2.0), precision=0.08, seed=5)
    assert fine.runs > coarse.runs >= 40
    assert fine.median_precision is not None and fine.median_precision <= 0.08
    assert coarse.median_precision is not None and coarse.median_precision <= 0.25
    fixed = make_plan(pilot, 20.0, (-2.0, 2.0), runs=12, seed=5)
    assert fixed.runs == 12 and fixed.to_json()["anytime_valid_median_precision"] is not None


@pytest.mark.parametrize("alpha,power", [(1e-300, 0.8), (1e-17, 0.8), (0.05, 1 - 1e-13), (0.05, 0.9999999999999)])
def test_a_level_or_power_too_near_0_or_1_is_one_line_not_a_statistics_error(alpha: float, power: float) -> None:
    # 1 - 1e-300 / 2 is 1.0 in floats: NormalDist().inv_cdf(1.0) was a StatisticsError traceback
    pilot = np.random.default_rng(1).choice([-1.0, 1.0], size=100)
    with pytest.raises(ShowdownError, match=r"too near 0 or 1 to plan for: give alpha of at least 2e-12 and power of at most"):
        make_plan(pilot, 20.0, (-1.0, 1.0), alpha=alpha, power=power, runs=1, seed=1)
    assert make_plan(pilot, 20.0, (-1.0, 1.0), alpha=2e-12, power=0.999, runs=1, seed=1).fixed_hands > 0


def test_a_number_of_simulated_matches_beyond_the_limit_is_refused_before_the_work(tmp_path: Path) -> None:
    # --runs 100000000 simulated for days (each match up to --max-hands hands)
    log = tmp_path / "pilot.log"
    log.write_text("# name/game/hands/seed p kuhn 40 0\n" + "".join(
        f"STATE:{i}:cc:Ks|Qs:{s}|{-s}:a|b\n" for i, s in zip(range(40), [1, -1] * 20)))
    bad = subprocess.run([sys.executable, "-m", "showdown", "plan", "--pilot", str(log), "--difference", "10", "--runs", "100000000"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr == ("showdown plan: error: --runs 100,000,000 is more simulated matches than a plan "
                                                  "needs: give at most 10,000 (or --precision: 1,000 at most)\n")


@pytest.mark.parametrize("hands,says", [("99999999999999999999999", "from 100 to 100000000, got 99999999999999999999999"),
                                        ("1e9", "expected a whole number, got '1e9'"), ("inf", "expected a whole number, got 'inf'")])
def test_a_longest_simulated_match_beyond_the_limit_is_refused_before_the_work(tmp_path: Path, hands: str, says: str) -> None:
    # --max-hands 10^23 with a difference the pilot never separates simulated without end
    log = tmp_path / "pilot.log"
    log.write_text("# name/game/hands/seed p kuhn 40 0\n" + "".join(
        f"STATE:{i}:cc:Ks|Qs:{s}|{-s}:a|b\n" for i, s in zip(range(40), [1, -1] * 20)))
    bad = subprocess.run([sys.executable, "-m", "showdown", "plan", "--pilot", str(log), "--difference", "0.001", "--runs", "2",
                          "--max-hands", hands], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1 and "Traceback" not in bad.stderr
    assert f"argument --max-hands: expected a number of hands {says}" in bad.stderr or says in bad.stderr


def test_the_anytime_plan_is_for_the_level_match_stops_at_whatever_the_fixed_tests_alpha() -> None:
    """`plan --alpha 0.01` simulated a 99% --until-separated that `match` does not run (it stops at 95%)."""
    pilot = np.random.default_rng(4).normal(0.0, 1.0, 400)
    at_95 = make_plan(pilot, 20.0, (-4.0, 4.0), alpha=0.05, runs=20, seed=3)
    at_99 = make_plan(pilot, 20.0, (-4.0, 4.0), alpha=0.01, runs=20, seed=3)
    assert at_99.fixed_hands > at_95.fixed_hands  # the fixed test follows --alpha
    assert (at_99.anytime_median, at_99.anytime_power) == (at_95.anytime_median, at_95.anytime_power)
    assert at_99.to_json()["anytime_valid_alpha"] == 0.05


def test_a_pilot_whose_hands_all_came_out_alike_is_refused_not_planned_from_a_spread_of_0() -> None:
    """A pilot of 100 hands of bluff against a bot that folds to every bet (+1 chip each hand) planned
    'hands fixed in advance, looked at once: 2' from a standard deviation of 0.000: a spread of 0 is what
    the pilot happened to show, not what it proved. Now one line saying why no plan can be made from it."""
    with pytest.raises(ShowdownError, match=r"the pilot's 100 hands all came out alike \(\+1 chips each\): they show no spread"):
        make_plan(np.ones(100), 10.0, (-2.0, 2.0), runs=10)


def test_a_pilot_at_the_bounds_is_moved_to_the_win_rate_planned_not_below_it() -> None:
    """The pilot was moved by delta - mean and then clipped to the game's bounds, so its results at
    +2 (a quarter of Kuhn's) were cut back: a losing pilot planned for +0.5/100 simulated +0.12/100
    and the anytime plan said 96,210,000 hands where about 5,000,000 do. Now its mean is the one planned."""
    from showdown.evaluation.planning import shifted_to_mean

    rng = np.random.default_rng(3)
    losing = rng.choice([-2.0, -1.0, 1.0, 2.0], size=20_000, p=[0.3, 0.25, 0.25, 0.2])  # -0.2 a hand
    for delta in (0.005, 0.1, -0.3, 1.5):
        moved = shifted_to_mean(losing, delta, (-2.0, 2.0))
        assert moved.min() >= -2.0 and moved.max() <= 2.0 and abs(moved.mean() - delta) < 1e-9
    plan = make_plan(losing, 10.0, (-2.0, 2.0), runs=20, seed=2)
    assert plan.anytime_median is not None and plan.anytime_median < 4 * plan.fixed_hands  # (was 16 times: 31,104)

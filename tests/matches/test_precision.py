"""``matches.precision``: a duplicate match played to a precision by Stein's two-stage procedure."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.matches.config import AgentSpec
from showdown.matches.precision import Z95, deals_needed, play_to_precision, second_stage_seed
from showdown.matches.probing import OpponentResult


def _pilot(half_width: float, deals: int) -> OpponentResult:
    return OpponentResult("probe-jam", 100.0, (100.0 - half_width, 100.0 + half_width), 2 * deals, "chance", 1)


def test_the_deals_needed_grow_with_the_square_of_the_precision_asked() -> None:
    plan = deals_needed(_pilot(600.0, 1000), 150.0, 100_000)
    assert plan.pilot == 1000 and plan.total == 16_000 and not plan.capped  # (600 / 150)^2 times the pilot, in a second match
    assert plan.half_width_mbb == pytest.approx(150.0)
    assert deals_needed(_pilot(100.0, 1000), 150.0, 100_000).total == 445  # (100 / 150)^2 x 1000


def test_a_match_that_would_need_more_than_the_cap_stops_there_and_says_its_interval_is_wider() -> None:
    plan = deals_needed(_pilot(600.0, 1000), 150.0, 4000)
    assert plan.total == 4000 and plan.capped and plan.wanted == 16_000
    assert plan.half_width_mbb == pytest.approx(600.0 * math.sqrt(1000 / 4000))


def test_the_second_stage_is_played_on_other_deals_and_pooled_with_the_pilot(tmp_path: Path) -> None:
    bot = AgentSpec(name="rules")
    result, plan = play_to_precision("kuhn", bot, "random", precision_mbb=20.0, pilot_deals=100, max_deals=5000, seed=4,
                                     folder=tmp_path)
    assert plan.total > plan.pilot == 100  # kuhn against random: a pilot of 100 deals is not within 20 mbb/hand
    assert result.hands == 2 * plan.total
    lo, hi = result.ci95_mbb
    assert (hi - lo) / 2 == pytest.approx(plan.half_width_mbb) and plan.half_width_mbb <= 20.0 + 1e-9
    assert len(list(tmp_path.glob("*.opponent.json"))) == 2  # the pilot and the rest, each kept for a resume
    again, _ = play_to_precision("kuhn", bot, "random", precision_mbb=20.0, pilot_deals=100, max_deals=5000, seed=4,
                                 folder=tmp_path)
    assert again == result
    assert Z95 == pytest.approx(1.96, abs=1e-3)


def test_a_pilot_seeded_at_the_last_32_bit_seed_is_refined_on_a_seed_a_match_takes(tmp_path: Path) -> None:
    # the second stage's seed was seed + 1,000,003: past 2**32 - 1, which no match (nor the reference dealer) takes
    last = 2**32 - 1
    assert second_stage_seed(last) == 1_000_002 and second_stage_seed(4) == 1_000_007
    result, plan = play_to_precision("kuhn", AgentSpec(name="rules"), "random", precision_mbb=20.0, pilot_deals=100,
                                     max_deals=5000, seed=last, folder=tmp_path)
    assert plan.total > plan.pilot and result.hands == 2 * plan.total


def test_scorecard_refuses_a_precision_that_is_not_positive(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "showdown", "scorecard", "rules", "--game", "kuhn", "--precision", "0",
                          "--out", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "--precision must be above 0" in out.stderr and "Traceback" not in out.stderr


def _result(name: str, mbb: float, half: float) -> OpponentResult:
    return OpponentResult(name, mbb, (mbb - half, mbb + half), 2000, "chance", 1)


def test_a_pilot_decides_its_match_only_when_it_excludes_zero_and_lies_below_the_bound() -> None:
    from showdown.matches.precision import decided

    pilots = [_result("call", -3000.0, 900.0),  # the bot wins by thousands: decided
              _result("rules", 100.0, 300.0),  # a head-to-head near zero: refined
              _result("probe-tiny", 800.0, 300.0),  # the largest win: the bound itself, refined
              _result("probe-odd", 600.0, 300.0),  # could be the largest (its upper end above 500): refined
              _result("probe-jam", 300.0, 100.0)]  # wins, but surely less than the best's lower end: decided
    whys = decided(pilots)
    assert [bool(w) for w in whys] == [True, False, False, False, True]
    assert "excludes 0" in whys[0]
    # LBR's interval [1000, 1600] is the bound now: the probes whose whole interval lies below 1000 are decided
    assert [bool(w) for w in decided(pilots, [(1000.0, 1600.0)])] == [True, False, False, True, True]


def test_a_refined_match_is_its_second_stage_alone_with_steins_half_width(tmp_path: Path) -> None:
    from showdown.matches.precision import second_stage

    first = OpponentResult("random", 0.0, (-400.0, 400.0), 200, "chance", 4)  # 100 deals at +/-400
    result, plan = second_stage("kuhn", AgentSpec(name="rules"), "random", first, precision_mbb=100.0, max_deals=5000, seed=4,
                                folder=tmp_path)
    assert plan.total == 1600 and result.hands == 2 * 1600  # (400 / 100)^2 x 100 deals
    lo, hi = result.ci95_mbb
    assert (hi - lo) / 2 == pytest.approx(100.0) and lo < result.mbb < hi
    assert result.mbb != 0.0  # the second match's own figure, not pooled with the pilot's

"""``matches.precision``: a duplicate match played to a precision by Stein's two-stage procedure."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.matches.config import AgentSpec
from showdown.matches.precision import Z95, deals_needed, play_to_precision
from showdown.matches.probing import OpponentResult


def _pilot(half_width: float, deals: int) -> OpponentResult:
    return OpponentResult("probe-jam", 100.0, (100.0 - half_width, 100.0 + half_width), 2 * deals, "chance", 1)


def test_the_deals_needed_grow_with_the_square_of_the_precision_asked() -> None:
    plan = deals_needed(_pilot(600.0, 1000), 150.0, 100_000)
    assert plan.pilot == 1000 and plan.total == 16_000 and not plan.capped  # (600 / 150)^2 times the pilot
    assert plan.half_width_mbb == pytest.approx(150.0)
    assert deals_needed(_pilot(100.0, 1000), 150.0, 100_000).total == 1000  # precise enough already: no second match


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


def test_scorecard_refuses_a_precision_that_is_not_positive(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "showdown", "scorecard", "rules", "--game", "kuhn", "--precision", "0",
                          "--out", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "--precision must be above 0" in out.stderr and "Traceback" not in out.stderr

"""Matches played to the precision that decides something: Stein's two-stage procedure (Stein 1945,
"A two-sample test for a linear hypothesis whose power is independent of the variance") with a
rule for which matches need it.

Every match first plays a pilot of ``pilot`` deals. From the pilots (and LBR's sets, when it ran)
each match is then either

* **decided**: its pilot interval excludes 0 (who wins the head-to-head is settled) and it cannot
  be the exploitability bound (its upper end lies below the lower end of the largest win found):
  its figure and interval are the pilot's; or
* **refined**: a second match on other cards, of ``n`` deals fixed from the pilot's spread alone
  for a 95% half-width of ``precision`` mbb/hand, gives its figure and interval (the pilot's deals
  only chose ``n``; pooling them would let the pilot's result, which chose the match, into the
  estimate). ``n`` is fixed before the second match starts, so its interval keeps its coverage at
  the count chosen (exact for normal data with the t quantile; with hundreds of pilot deals t and
  normal quantiles agree to 1%), unlike stopping when a running interval looks narrow enough.

What ``+/-precision`` means: every match that is not decided (a head-to-head whose pilot interval
holds 0, and every match whose win could be the exploitability bound) ends with a 95% half-width of
at most ``precision`` (unless capped at ``max_deals``, which it says); a decided match keeps its
pilot's interval, wider, whose sign is what it decided. Coverage: a refined match's interval covers
with 95% whatever the pilot showed; over the whole procedure a match's reported interval misses
with probability at most 10% (its pilot's miss or its second stage's, a union bound).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from showdown.matches.config import AgentSpec
from showdown.matches.probing import OpponentResult, play_opponent, play_opponent_async
from showdown.server.event_loop import run_in_new_loop

Z95 = 1.959963984540054
SECOND_STAGE_SEED = 1_000_003
"""Added to the seed for the second match (other deals than the pilot's)."""


def second_stage_seed(seed: int) -> int:
    """The second match's seed: ``SECOND_STAGE_SEED`` on, kept to the 32 bits a match is dealt from
    (a pilot seeded near 2**32 - 1 would otherwise ask for a seed no match takes)."""
    return (seed + SECOND_STAGE_SEED) % 2**32


@dataclass(frozen=True, slots=True)
class Plan:
    """The second match's deals (``total``; ``wanted`` before the cap) after a pilot of ``pilot``, and
    the half-width expected; ``total`` 0 when the pilot decided the match."""

    pilot: int
    total: int
    half_width_mbb: float
    capped: bool
    wanted: int
    why: str = ""


def deals_needed(pilot: OpponentResult, precision_mbb: float, max_deals: int) -> Plan:
    """The deals of a second match for a 95% half-width of ``precision_mbb``, from the pilot's interval;
    a pilot without one (its deals showed no spread) asks for ``max_deals``, and the second match's own
    interval stands (``half_width_mbb`` NaN: no spread to fix it from)."""
    deals = max(1, pilot.hands // 2)  # a duplicate match's hands are its deals played in both seatings
    if pilot.ci95_mbb is None:
        total = max(2, max_deals)
        return Plan(deals, total, math.nan, capped=False, wanted=total, why="refined")
    lo, hi = pilot.ci95_mbb
    spread = (hi - lo) / 2 * math.sqrt(deals) / Z95  # the pilot's standard deviation of a deal's result
    wanted = max(2, math.ceil((Z95 * spread / precision_mbb) ** 2))
    total = min(wanted, max(2, max_deals))
    return Plan(deals, total, Z95 * spread / math.sqrt(total), capped=wanted > total, wanted=wanted, why="refined")


NO_SPREAD = "pilot only: its deals showed no spread, so no interval to plan a second match from (more --hands)"
"""Why a pilot without an interval is not refined: a second match's size comes from the pilot's spread."""


def decided(pilots: Sequence[OpponentResult], bound_intervals: Sequence[tuple[float, float]] = ()) -> list[str]:
    """Why each pilot settles its match ("" when it must be refined): its interval excludes 0 and
    lies below the lower end of the largest win found (the pilots', and ``bound_intervals``: LBR's),
    or it has no interval (``NO_SPREAD``)."""
    wins = [(r.mbb, r.ci95_mbb) for r in pilots] + [((lo + hi) / 2, (lo, hi)) for lo, hi in bound_intervals]
    top = max(wins, key=lambda w: w[0])[1] if wins else None
    best_low = max(top[0], 0.0) if top is not None else 0.0  # the bound is at least 0 (the largest win's interval unknown: 0)
    out = []
    for r in pilots:
        if r.ci95_mbb is None:
            out.append(NO_SPREAD)
            continue
        lo, hi = r.ci95_mbb
        settled = (lo > 0.0 or hi < 0.0) and hi < best_low
        out.append(f"decided by its pilot: its interval excludes 0 and lies below {best_low:+.0f}, the bound's lower end"
                   if settled else "")
    return out


def second_stage(game: str, bot: AgentSpec, opponent: str, pilot: OpponentResult, *, precision_mbb: float, max_deals: int,
                 seed: int, folder: Path, jobs: int | None = None) -> tuple[OpponentResult, Plan]:
    """The refined figure of a match (module docstring): a second match of the deals its pilot needs."""
    return run_in_new_loop(second_stage_async(game, bot, opponent, pilot, precision_mbb=precision_mbb, max_deals=max_deals,
                                               seed=seed, folder=folder, jobs=jobs))


async def second_stage_async(game: str, bot: AgentSpec, opponent: str, pilot: OpponentResult, *, precision_mbb: float,
                             max_deals: int, seed: int, folder: Path, jobs: int | None = None) -> tuple[OpponentResult, Plan]:
    """``second_stage`` in the caller's event loop (second stages played side by side: ``scorecard``)."""
    plan = deals_needed(pilot, precision_mbb, max_deals)
    rest = await play_opponent_async(game, bot, opponent, hands=plan.total, seed=second_stage_seed(seed), folder=folder,
                                     jobs=jobs)
    mean = rest.mbb
    estimator = f"{rest.estimator}, two-stage (Stein 1945) to +/-{precision_mbb:g}" + (" (capped)" if plan.capped else "")
    ci = rest.ci95_mbb if math.isnan(plan.half_width_mbb) else (mean - plan.half_width_mbb, mean + plan.half_width_mbb)
    result = replace(rest, ci95_mbb=ci, estimator=estimator)
    return result, plan


def play_to_precision(game: str, bot: AgentSpec, opponent: str, *, precision_mbb: float, pilot_deals: int, max_deals: int,
                      seed: int, folder: Path, jobs: int | None = None) -> tuple[OpponentResult, Plan]:
    """One match refined to ``precision_mbb`` whatever its pilot showed: the pilot, then ``second_stage``."""
    pilot = play_opponent(game, bot, opponent, hands=pilot_deals, seed=seed, folder=folder, jobs=jobs)
    return second_stage(game, bot, opponent, pilot, precision_mbb=precision_mbb, max_deals=max_deals, seed=seed,
                        folder=folder, jobs=jobs)


__all__ = ["NO_SPREAD", "Plan", "decided", "deals_needed", "play_to_precision", "second_stage", "second_stage_async"]

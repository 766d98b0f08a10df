"""A duplicate match played to a given precision: Stein's two-stage procedure (Stein 1945, "A
two-sample test for a linear hypothesis whose power is independent of the variance").

A pilot match of ``pilot`` deals estimates the spread of the chance-corrected per-deal result; from
it, the total number of deals ``n`` that gives a 95% half-width of ``precision`` mbb/hand is fixed
in advance of the rest; the rest (``n - pilot`` deals, other cards) is played as a second match, and
the result is the mean over all ``n`` deals with the half-width ``z s_pilot / sqrt(n)``. Because
``n`` depends only on the pilot's spread, not on the results after it, the interval keeps its
coverage (Stein's interval is exact for normal data with the t quantile; with hundreds of pilot
deals the t and normal quantiles agree to 1%), unlike stopping when a running interval looks narrow
enough, which needs an anytime-valid interval. A cap (``max_deals``) bounds the time: a match that
would need more is played to the cap and its interval is wider than asked, and says so.

Used by ``showdown scorecard --precision``: each opponent gets the deals its own spread needs (the
all-in probes many more than the baselines), instead of one count for all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

from showdown.matches.config import AgentSpec
from showdown.matches.probing import OpponentResult, play_opponent

Z95 = 1.959963984540054
SECOND_STAGE_SEED = 1_000_003
"""Added to the seed for the second match (other deals than the pilot's)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """The deals the two stages play: ``total`` in all (pilot included; ``wanted`` before the cap), and
    the half-width expected."""

    pilot: int
    total: int
    half_width_mbb: float
    capped: bool
    wanted: int


def deals_needed(pilot: OpponentResult, precision_mbb: float, max_deals: int) -> Plan:
    """The total deals for a 95% half-width of ``precision_mbb`` from the pilot's interval."""
    deals = max(1, pilot.hands // 2)  # a duplicate match's hands are its deals played in both seatings
    lo, hi = pilot.ci95_mbb
    spread = (hi - lo) / 2 * math.sqrt(deals) / Z95  # the pilot's standard deviation of a deal's result
    wanted = max(deals, math.ceil((Z95 * spread / precision_mbb) ** 2))
    total = min(wanted, max(deals, max_deals))
    return Plan(deals, total, Z95 * spread / math.sqrt(total), capped=wanted > total, wanted=wanted)


def play_to_precision(game: str, bot: AgentSpec, opponent: str, *, precision_mbb: float, pilot_deals: int, max_deals: int,
                      seed: int, folder: Path, jobs: int | None = None) -> tuple[OpponentResult, Plan]:
    """The opponent's result over the deals Stein's procedure asks for (module docstring), and its plan."""
    pilot = play_opponent(game, bot, opponent, hands=pilot_deals, seed=seed, folder=folder, jobs=jobs)
    plan = deals_needed(pilot, precision_mbb, max_deals)
    if plan.total <= plan.pilot:
        rest_deals, rest_mbb = 0, 0.0
    else:
        rest = play_opponent(game, bot, opponent, hands=plan.total - plan.pilot, seed=seed + SECOND_STAGE_SEED, folder=folder,
                             jobs=jobs)
        rest_deals, rest_mbb = rest.hands // 2, rest.mbb
    deals = plan.pilot + rest_deals
    mean = (pilot.mbb * plan.pilot + rest_mbb * rest_deals) / deals
    estimator = f"{pilot.estimator}, two-stage (Stein 1945) to +/-{precision_mbb:g}" + (" (capped)" if plan.capped else "")
    result = replace(pilot, mbb=mean, ci95_mbb=(mean - plan.half_width_mbb, mean + plan.half_width_mbb), hands=2 * deals,
                     estimator=estimator)
    return result, plan


__all__ = ["Plan", "deals_needed", "play_to_precision"]

"""One scorecard for a bot: duplicate matches against the baselines, ``cfr`` and the probe opponents,
local best response where the bot tells its policy, and the exploitability lower bound they give
(the largest of what any of them wins from the bot, and which one found it).

Every match is chance-corrected and kept in the run's folder with its result, and so is the LBR
run: a scorecard that is interrupted resumes where it stopped. Matches play their two seatings at
once and LBR spreads over ``jobs`` processes, so the cores stay busy.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from showdown.errors import ConfigError, ShowdownError
from showdown.evaluation.stats import Z95
from showdown.matches.config import AgentSpec
from showdown.matches.files import hold_folder
from showdown.matches.kept import read as read_kept
from showdown.matches.kept import write as write_kept
from showdown.matches.probing import NoFigure, NotAMeasurement, OpponentResult, check_bot, try_opponent

BASELINES = ("random", "call", "rules", "cfr")
"""Reference opponents of every scorecard (the probes come after them)."""


def _lbr_shaped(doc: dict[str, Any]) -> bool:
    """A kept LBR report has the fields the scorecard reads: its setting, each set's actions, win, hands and interval."""
    def number(x: Any) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool)

    sets = doc.get("sets")
    return isinstance(doc.get("setting"), str) and isinstance(sets, list) and bool(sets) and all(
        isinstance(s, dict) and isinstance(s.get("actions"), str) and number(s.get("lbr_mbb")) and isinstance(s.get("hands"), int)
        and (s.get("ci95_mbb") is None or isinstance(s.get("ci95_mbb"), list) and len(s["ci95_mbb"]) == 2
             and all(map(number, s["ci95_mbb"]))) for s in sets)


def _lbr(game: str, bot: AgentSpec, *, hands: int, seed: int, folder: Path, jobs: int, action_sets: Sequence[str],
         progress: Callable[[int, int, str], None] | None) -> tuple[dict[str, Any] | None, str]:
    """LBR's report against a bot built in this process, or None and why not."""
    from showdown.evaluation.lbr_runs import agent_for, run_lbr_parallel
    from showdown.games.catalog import get_game

    if bot.name is None:
        return None, "the bot is an outside program: LBR needs its policy(view) (probes and matches need nothing)"
    try:
        agent = agent_for(get_game(game), bot.name, None, dict(bot.options))
    except ConfigError as exc:
        return None, f"the bot could not be built here for LBR: {exc}"
    except Exception as exc:  # noqa: BLE001 - the bot's own __init__ (its matches said what they could)
        return None, f"the bot could not be built here for LBR: {type(exc).__name__}: {exc}"[:300]
    if not callable(getattr(agent, "policy", None)):
        return None, "the bot has no policy(view): LBR needs its action probabilities"
    kept = folder / f"lbr-{seed}-{hands}-{'+'.join(action_sets).replace('/', '_')}.json"
    doc = read_kept(kept, bot)  # only for the same bot and the same showdown (``matches.kept``)
    if doc is not None and _lbr_shaped(doc):  # (one of another shape is run again)
        return doc, ""

    def tell(done: int, total: int) -> None:
        if progress is not None:
            progress(done, total, "LBR")

    try:
        report = run_lbr_parallel(game, agent=bot.name, options=dict(bot.options), hands=hands, seed=seed, jobs=jobs,
                                  action_sets=action_sets, progress=tell)
    except ShowdownError as exc:  # a policy that is no distribution, a policy() or act() that fails: the matches stand
        return None, str(exc)
    doc = report.to_json()
    write_kept(kept, doc, bot)
    return doc, ""


def run_scorecard(
    game: str, bot: AgentSpec, *, hands: int, seed: int, folder: Path, jobs: int, opponents: Sequence[str] | None = None,
    lbr_hands: int | None = None, action_sets: Sequence[str] = ("fcpa", "wide"), lbr: bool = True,
    progress: Callable[[int, int, str], None] | None = None, precision_mbb: float | None = None, max_deals: int = 100_000,
    every_match: bool = False,
) -> dict[str, Any]:
    """The scorecard's document (see the module docstring); ``hands`` deals per match (with
    ``precision_mbb``: the pilot of each match; the matches its pilot does not decide are played
    again to that 95% half-width, at most ``max_deals`` deals: ``matches.precision``);
    ``lbr=False`` skips local best response; ``every_match``: with ``precision_mbb``, every match and LBR set
    is played to it, those their first run decided too (every interval within the precision)."""
    from showdown.agents.probes import PROBES

    names = list(opponents) if opponents is not None else [*BASELINES, *PROBES]
    for name in names[:1]:
        check_bot(game, bot, name, hands=hands, seed=seed)
    lock = hold_folder(folder, "scorecard")  # two runs there failed each other's matches (a FileNotFoundError of a half)
    try:
        steps = 2 * len(names) + 1 if precision_mbb is not None else len(names) + 1

        def tell(step: int, what: str) -> None:
            if progress is not None:
                progress(step, steps, what)

        results: list[OpponentResult] = []
        missing: list[NoFigure] = []  # a bot the dealer had to play for against some opponent: the rest stand
        for k, name in enumerate(names):
            tell(k, name + (" (pilot)" if precision_mbb is not None else ""))
            got = try_opponent(game, bot, name, hands=hands, seed=seed, folder=folder, jobs=jobs)
            if isinstance(got, NoFigure):
                missing.append(got)
            else:
                results.append(got)
        tell(len(names), "LBR")
        report, why_not = (_lbr(game, bot, hands=lbr_hands or 2 * hands, seed=seed, folder=folder, jobs=jobs,
                                action_sets=action_sets, progress=None) if lbr else (None, "not asked for (--no-lbr)"))
        plans: list[dict[str, Any]] = [{} for _ in names]
        if precision_mbb is not None:
            results, plans = _refine(game, bot, results, report, precision_mbb=precision_mbb, max_deals=max_deals, seed=seed,
                                     folder=folder, jobs=jobs, tell=lambda k, what: tell(len(names) + 1 + k, what),
                                     every=every_match)
            report = _refine_lbr(game, bot, results, report, precision_mbb=precision_mbb, max_deals=max_deals, seed=seed,
                                 folder=folder, jobs=jobs, every=every_match)
        tell(steps, "")
        if not results and report is None:
            raise ShowdownError(f"no match measured {bot.display}, and LBR did not run: {missing[0].reason}")
        doc = scorecard_document(game, bot.display, seed, results, report, why_not, missing)
        doc["precision_mbb"] = precision_mbb
        doc["every_match"] = every_match and precision_mbb is not None
        for match, plan in zip(doc["matches"], plans):
            match.update(plan)
        return doc
    finally:
        if lock is not None:
            lock.close()


def _refine(game: str, bot: AgentSpec, pilots: Sequence[OpponentResult], report: dict[str, Any] | None, *, precision_mbb: float,
            max_deals: int, seed: int, folder: Path, jobs: int, tell: Callable[[int, str], None], every: bool = False,
            ) -> tuple[list[OpponentResult], list[dict[str, Any]]]:
    """Each pilot's match, decided by it or refined by a second match (``matches.precision``), and
    how (the ``--json`` keys ``stage``, ``pilot_deals``, ``deals_needed``)."""
    from showdown.matches.precision import NO_SPREAD, deals_needed, decided, second_stage_async
    from showdown.server.event_loop import run_in_new_loop

    lbr_intervals = [(float(s["ci95_mbb"][0]), float(s["ci95_mbb"][1])) for s in report["sets"] if s["ci95_mbb"]] if report else []
    whys = [NO_SPREAD if p.ci95_mbb is None else "" for p in pilots] if every else decided(pilots, lbr_intervals)
    todo = sorted((k for k, why in enumerate(whys) if not why),  # the longest first: the last to end is a short one
                  key=lambda k: -deals_needed(pilots[k], precision_mbb, max_deals).total)

    async def refine_all() -> list[Any]:
        gate = asyncio.Semaphore(matches_at_once(jobs))

        async def refine(k: int) -> Any:
            async with gate:
                tell(k, f"{pilots[k].name} to +/-{precision_mbb:g}")
                try:
                    return await second_stage_async(game, bot, pilots[k].name, pilots[k], precision_mbb=precision_mbb,
                                                    max_deals=max_deals, seed=seed, folder=folder, jobs=jobs)
                except NotAMeasurement as exc:
                    return exc

        return await asyncio.gather(*(refine(k) for k in todo))

    second = dict(zip(todo, run_in_new_loop(refine_all()))) if todo else {}
    results, plans = [], []
    for k, (pilot, why) in enumerate(zip(pilots, whys)):
        deals = pilot.hands // 2
        got = second.get(k)
        if got is None:
            results.append(pilot)
            plans.append({"stage": why, "pilot_deals": deals})
        elif isinstance(got, NotAMeasurement):  # the pilot's figure stands, unrefined, and says why
            results.append(pilot)
            plans.append({"stage": f"pilot only: its second match measured nothing ({got})", "pilot_deals": deals})
        else:
            result, plan = got
            results.append(result)
            plans.append({"stage": "refined: a second match of the deals its pilot's spread asks for (the pilot not pooled)",
                          "pilot_deals": deals, "deals_needed": plan.wanted, "pilot_ci95_mbb": _bot_side(pilot.ci95_mbb)})
    return results, plans


def matches_at_once(jobs: int) -> int:
    """Second stages played side by side: one more than the ``jobs`` cores' worth of matches (each plays
    its two seatings at once), so that a core one match leaves idle (its seatings ending apart, its
    analysis in this process) is taken by another; one at a time with a single job."""
    return 1 if jobs < 2 else jobs // 2 + 1


def _refine_lbr(game: str, bot: AgentSpec, results: Sequence[OpponentResult], report: dict[str, Any] | None, *,
                precision_mbb: float, max_deals: int, seed: int, folder: Path, jobs: int, every: bool = False) -> dict[str, Any] | None:
    """LBR's sets that could be the exploitability bound (upper end above the largest figure's lower
    end), each run again on other deals for the hands its first run's spread asks for (Stein's
    two-stage procedure, as the matches: ``matches.precision``); the others keep their first run."""
    from showdown.matches.precision import second_stage_seed

    if report is None:
        return None
    figures = [(r.mbb, r.ci95_mbb and r.ci95_mbb[0]) for r in results] + [
        (s["lbr_mbb"], s["ci95_mbb"] and s["ci95_mbb"][0]) for s in report["sets"]]
    best_low = max(0.0, max(figures, key=lambda f: f[0])[1] or 0.0)  # (the largest figure's interval unknown: 0)
    sets = []
    for first in report["sets"]:
        if first["ci95_mbb"] is None:  # no spread to plan more hands from: the first run stands, without an interval
            sets.append({**first, "stage": "first run: its hands showed no spread, so no interval (more --lbr-hands)"})
            continue
        lo, hi = first["ci95_mbb"]
        hands = int(first["hands"])
        wanted = math.ceil(((hi - lo) / 2 / precision_mbb) ** 2 * hands)
        if (hi < best_low and not every) or wanted <= hands:
            sets.append({**first, "stage": "first run" if hi < best_low else "first run: within the precision asked"})
            continue
        total = min(wanted, max_deals)
        again, why_not = _lbr(game, bot, hands=total, seed=second_stage_seed(seed), folder=folder, jobs=jobs,
                              action_sets=[first["actions"]], progress=None)
        if again is None:
            sets.append({**first, "stage": f"first run ({why_not})"})
            continue
        second = again["sets"][0]
        half = (hi - lo) / 2 * math.sqrt(hands / total)  # Stein: the first run's spread at the hands chosen
        sets.append({**second, "ci95_mbb": [second["lbr_mbb"] - half, second["lbr_mbb"] + half], "hands_needed": wanted,
                     "stage": "refined: run again on other deals for the hands its first run's spread asks for"
                     + (" (capped)" if wanted > total else ""), "first_run_ci95_mbb": [lo, hi]})
    best = max(sets, key=lambda s: s["lbr_mbb"])
    return {**report, "sets": sets, "lbr_mbb": best["lbr_mbb"], "ci95_mbb": best["ci95_mbb"], "best_set": best["actions"],
            "ci95_method": "the best set's own, after refinement (chosen after the fact)"}


def scorecard_document(game: str, bot: str, seed: int, results: Sequence[OpponentResult], lbr: dict[str, Any] | None,
                       why_not: str, missing: Sequence[NoFigure] = ()) -> dict[str, Any]:
    """The ``--json`` document: ``matches`` (the bot's win rate against each), ``lbr``,
    ``exploitability_lower_bound_mbb`` with its interval and ``found_by``, and ``no_figure``: the
    opponents whose match measured nothing, and why."""
    from showdown.agents.probes import PROBES

    matches = [{"opponent": r.name, "kind": "probe" if r.name in PROBES else "baseline", "bot_mbb": 0.0 - r.mbb,  # (no -0.0)
                "ci95_mbb": _bot_side(r.ci95_mbb), "hands": r.hands, "estimator": r.estimator} for r in results]
    found = [(r.mbb, None if r.ci95_mbb is None else list(r.ci95_mbb), f"{'probe' if r.name in PROBES else 'match'} {r.name}")
             for r in results]
    if lbr is not None:
        found += [(s["lbr_mbb"], s["ci95_mbb"], f"LBR {s['actions']}") for s in lbr["sets"]]
    best = max(found, key=lambda f: f[0])
    # a figure without an interval leaves the largest true value unbounded: no interval then
    known = [(m, (c[0], c[1])) for m, c, _ in found if c is not None]
    ci = (list(simultaneous_max_interval(known)) if len(known) == len(found) else None) if best[0] > 0 else best[1]
    return {
        "game": game, "bot": bot, "seed": seed,
        "estimator": "chance (duplicate matches)" + (f", {lbr.get('estimator', 'chance+actions')} (LBR)" if lbr is not None else ""),
        "matches": matches, "no_figure": [m.to_json() for m in missing], "lbr": lbr, "lbr_note": why_not,
        "exploitability_lower_bound_mbb": max(0.0, best[0]), "exploitability_ci95_mbb": ci, "found_by": best[2],
        "found_mbb": best[0], "found_ci95_mbb": best[1],
        "ci95_method": ("none: a figure has no interval (its hands showed no spread)" if ci is None
                        else f"Bonferroni over the {len(found)} figures" if best[0] > 0 else "the nearest one's own"),
        "note": "the lower bound is the largest of what any opponent or LBR action set won from the bot; its interval "
                f"holds the largest true figure of all {len(found)} with 95% confidence (Bonferroni: the best one is chosen "
                "after the fact, and its own interval would be too narrow)" if best[0] > 0 else
                "no opponent or LBR action set won from the bot, so the lower bound is 0 (exploitability is never "
                "below it); found_by, found_mbb and the interval are the nearest one's, which lost",
    }


def _bot_side(ci: tuple[float, float] | None) -> list[float] | None:
    """An opponent's interval as the bot's (negated), or None."""
    return None if ci is None else [0.0 - ci[1], 0.0 - ci[0]]


def simultaneous_max_interval(figures: Sequence[tuple[float, tuple[float, float]]]) -> tuple[float, float]:
    """95% interval of the largest true value among ``k`` estimates, each (mean, its own normal 95%
    interval): every interval widened to level ``1 - 0.05 / k`` (Bonferroni), then the largest lower and
    upper ends. All ``k`` hold at once with probability at least 95%, and then so does their maximum's."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf(1 - 0.025 / len(figures)) / Z95
    lows, highs = [], []
    for mean, (lo, hi) in figures:
        lows.append(mean - z * (mean - lo))
        highs.append(mean + z * (hi - mean))
    return max(lows), max(highs)


__all__ = ["BASELINES", "matches_at_once", "run_scorecard", "scorecard_document", "simultaneous_max_interval"]

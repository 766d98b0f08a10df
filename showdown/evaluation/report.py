"""A match's results as a text table or a JSON document."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from showdown.evaluation.numbers import counted, decimals, decimals_of, interval_text, left, right, signed, width
from showdown.evaluation.stats import Estimate
from showdown.protocol.events import chosen_why

if TYPE_CHECKING:
    from showdown.evaluation.analyze import Analysis

__all__ = ["MatchReport", "format_table", "match_csv", "report_json"]


DEFAULT_MAX_REPLACED = 0.01
"""A match in which the dealer acted for a seat in more than this share of hands is degraded."""

@dataclass
class MatchReport:
    """What ``run_match`` returns: per-agent and per-position results plus where the logs are.

    ``agent_stats`` and ``position_stats`` are the figures of the estimator used
    (``analysis.estimator``); ``analysis`` also holds the plain figures, the pairwise differences,
    the variance reduction and notes. A duplicate match lists its halves in ``halves``.
    """

    game: str
    hands: int  # hands played
    hands_requested: int
    seed: int
    names: tuple[str, ...]  # seat names, seat order
    agents: tuple[str, ...]  # what plays each seat: agent name or command
    totals: tuple[float, ...]  # by seat (the dealer's score)
    agent_stats: list[Estimate]
    position_stats: list[Estimate]
    replacements: dict[str, dict[str, int]]
    log_path: Path | None
    jsonl_path: Path | None
    fixed_seats: bool = False
    show_mbb: bool = False  # the game has blinds (hold'em): mbb/hand is its usual unit
    big_blind: int = 1
    aborted: bool = False
    interrupted: bool = False
    reason: str | None = None
    elapsed: float = 0.0  # the whole match, agents' start-up included
    play_seconds: float = 0.0  # from the first deal to the end (0: not measured)
    failures: list[str] = field(default_factory=list)
    analysis: Analysis | None = None
    halves: list[dict[str, Any]] = field(default_factory=list)  # duplicate: per half, seats and logs
    replaced_hands: dict[str, int] = field(default_factory=dict)  # by seat name: hands the dealer acted for it
    max_replaced: float = DEFAULT_MAX_REPLACED  # share of hands above which the match is degraded
    resumed_at: int = 0  # a resumed match: the hands played before this run (not in hands/s)
    stop_signal: int = 0  # the signal that stopped the match early (SIGINT 2, SIGTERM 15), 0 if none
    stopping: dict[str, Any] | None = None  # --until-ci / --until-separated: the rule and where it stopped
    exact_values: dict[str, Any] | None = None  # 3+ players, every strategy known: exact per-100 values
    limits_hit: list[str] = field(default_factory=list)  # sandboxed bots stopped by a limit, one line each
    error: str | None = None  # a file the match could not write (a full disk): the exit status is 1

    @property
    def degraded(self) -> bool:
        """Some seat was played by the dealer (timeouts, absence, junk or illegal replies) in more than ``max_replaced`` of the
        hands: the figures then describe the dealer's check/fold, not that agent."""
        if self.limits_hit:
            return True
        return bool(self.hands) and any(n > self.max_replaced * self.hands for n in self.replaced_hands.values())

    def degraded_text(self) -> str | None:
        worst = [
            f"the dealer played for {name} in {n:,} of {self.hands:,} hands ({100 * n / self.hands:.1f}%; "
            f"{chosen_why(self.replacements.get(name, {}))})"
            for name, n in self.replaced_hands.items()
            if self.hands and n > self.max_replaced * self.hands
        ]
        if not worst and not self.limits_hit:
            return None
        parts = ["; ".join(worst) + f" (over {100 * self.max_replaced:g}% of the hands)"] if worst else []
        return "DEGRADED MATCH: " + "; ".join(parts + self.limits_hit) + ": these figures do not measure that agent"

    @property
    def hands_per_second(self) -> float:
        """Hands per second of play in this run (the agents' start-up is not counted when it was
        measured; nor, after a resume, the hands played before it)."""
        seconds = self.play_seconds or self.elapsed
        return (self.hands - self.resumed_at) / seconds if seconds > 0 else 0.0

    @property
    def estimator(self) -> str:
        return self.analysis.estimator if self.analysis is not None else "plain"


@dataclass(frozen=True, slots=True)
class AnytimeEstimate(Estimate):
    """An agent's estimate in a match its stopping rule ended early: the headline interval is the
    anytime-valid one (the rule's confidence sequence, of the plain chips), because a fixed-sample
    interval does not keep its coverage once the number of hands depends on the data."""

    anytime_per100: tuple[float, float] = (0.0, 0.0)

    @property
    def ci95(self) -> tuple[float, float] | None:
        return self.anytime_per100

    @property
    def ci95_mbb(self) -> tuple[float, float] | None:
        lo, hi = self.anytime_per100
        return (10.0 * lo / self.big_blind, 10.0 * hi / self.big_blind)

    @property
    def fixed_ci95(self) -> tuple[float, float] | None:
        return Estimate(self.hands, self.total, self.mean, self.se, self.big_blind, self.df).ci95


FIXED_NOT_VALID = (
    "the match stopped early by its rule: the agents' 95% intervals are the anytime-valid ones; the positions', "
    "the differences' intervals and p-values are fixed-sample figures, not valid after stopping"
)


def stopped_early(r: MatchReport) -> bool:
    """Whether a stopping rule (``--until-ci``, ``--until-separated``) ended the match and the figures
    have a sampling error (an exact estimate stays valid however the match stopped)."""
    exact = r.analysis is not None and r.analysis.exact
    return r.stopping is not None and bool(r.stopping.get("reached")) and not exact


def headline_estimates(r: MatchReport, estimates: list[Estimate]) -> list[Estimate]:
    """The agents' estimates with the anytime-valid interval as the headline after an early stop
    (the rule's agent, and in a 2-player match its opponent with the interval negated)."""
    if not stopped_early(r):
        return estimates
    assert r.stopping is not None
    lo, hi = r.stopping["interval_per100"]
    out = list(estimates)
    if r.stopping["agent"] not in r.names:
        return out
    k = r.names.index(r.stopping["agent"])
    for i, e in enumerate(estimates):
        if i == k or len(estimates) == 2:
            interval = (lo, hi) if i == k else (-hi, -lo)
            out[i] = AnytimeEstimate(e.hands, e.total, e.mean, e.se, e.big_blind, e.df, anytime_per100=interval)
    return out


def _ci(ci: tuple[float, float] | None) -> list[float] | None:
    if ci is None or not all(math.isfinite(x) for x in ci):
        return None
    return [ci[0], ci[1]]


def _gain(x: float | None) -> float | str | None:
    if x is None:
        return None
    return "exact" if math.isinf(x) else x


def report_json(r: MatchReport) -> dict[str, Any]:
    """The ``--json`` document: game, hands, seed, estimator, agents, positions, differences, logs.

    ``agents[i]`` and ``positions[p]`` carry the estimator's ``per100`` and ``ci95`` (and mbb),
    and, when the estimator is not the plain one, ``plain`` (the plain figures) and
    ``variance_reduction`` (how many times fewer hands the estimator needs; ``"exact"`` when it has
    no sampling error).
    """
    a = r.analysis
    compare = a is not None and (a.estimator != "plain" or a.paired)
    agents = []
    for i, (name, agent, total, e) in enumerate(zip(r.names, r.agents, r.totals, headline_estimates(r, list(r.agent_stats)))):
        plain, gain = (a.plain_agents[i], a.agent_reduction(i)) if a is not None else (None, None)
        item = {"name": name, "agent": agent, "total": total, **_estimate_json(e, plain, gain, compare)}
        if isinstance(e, AnytimeEstimate):
            item["ci95_method"] = "anytime-valid (the stopping rule's confidence sequence, plain chips)"
            item["fixed_sample_ci95"] = _ci(e.fixed_ci95)
            item["fixed_sample_valid"] = False
        agents.append(item)
    positions = []
    for p, e in enumerate(r.position_stats):
        plain, gain = (a.plain_positions[p], a.position_reduction(p)) if a is not None else (None, None)
        # the chips won there, as the table's total column and `analyze --json` give them
        total = a.plain_positions[p].total if a is not None else e.total
        positions.append({"position": p, "total": total, **_estimate_json(e, plain, gain, compare)})
    differences = []
    if a is not None:
        for k, d in enumerate(a.differences):
            item = d.as_json()
            if compare:
                item["variance_reduction"] = _gain(a.difference_reduction(k))
            if stopped_early(r):
                item["fixed_sample_valid"] = False
            differences.append(item)
    return {
        "game": r.game,
        "hands": r.hands,
        "seed": r.seed,
        "estimator": r.estimator,
        "exact": bool(a is not None and a.exact),
        "consistency_p": a.consistency_p if a is not None else None,
        "paired_deals": a.deals if a is not None and a.paired else None,
        "agents": agents,
        "positions": positions,
        "differences": differences,
        "replacements": r.replacements,
        "log": str(r.log_path) if r.log_path is not None else None,
        "jsonl": str(r.jsonl_path) if r.jsonl_path is not None else None,
        "halves": r.halves,
        "hands_requested": r.hands_requested,
        "fixed_seats": r.fixed_seats,
        "big_blind": r.big_blind,
        "aborted": r.aborted,
        "write_error": r.error,  # not "error": a child half's document with that key failed (parallel.take_result)
        "interrupted": r.interrupted,
        "degraded": r.degraded,
        "stopping": r.stopping,
        "intervals": (FIXED_NOT_VALID if stopped_early(r) else "fixed-sample 95% intervals"),
        "exact_values": r.exact_values,
        "replaced_hands": r.replaced_hands,
        "max_replaced": r.max_replaced,
        "reason": r.reason,
        "elapsed_s": round(r.elapsed, 3),
        "play_s": round(r.play_seconds, 3),
        "hands_per_s": round(r.hands_per_second, 1),
        "failures": r.failures,
        "limits_hit": r.limits_hit,
        "notes": list(a.notes) if a is not None else [],
    }


def _estimate_json(e: Estimate, plain: Estimate | None, gain: float | None, compare: bool) -> dict[str, Any]:
    """An estimate's ``--json`` fields; beside it the plain one and the variance reduction when the
    report compares estimators."""
    out: dict[str, Any] = {
        "hands": e.hands,
        "per100": e.per100,
        "ci95": _ci(e.ci95),
        "se100": e.se100,
        "mbb_per_hand": e.mbb,
        "ci95_mbb": _ci(e.ci95_mbb),
    }
    if compare and plain is not None:
        out["plain"] = {"per100": plain.per100, "ci95": _ci(plain.ci95)}
        out["variance_reduction"] = _gain(gain)
    return out


def _ending_line(r: MatchReport) -> str | None:
    if r.error:
        return f"ERROR: {r.error}"
    if r.aborted and r.reason:
        return f"match aborted: {r.reason}"
    return None


def format_table(r: MatchReport) -> str:
    """The human-readable results: how they were estimated, a row per agent and per position, the
    difference between agents with its p-value, and the logs."""
    seats = "fixed seats" if r.fixed_seats else "seats rotate"
    if r.halves:
        seats += f", duplicate ({len(r.halves)} halves)"
    played = counted(r.hands) if r.hands == r.hands_requested else f"{r.hands:,} of {counted(r.hands_requested)}"
    lines = [f"{r.game}: {played}, seed {r.seed}, {seats}, {r.elapsed:.1f} s ({r.hands_per_second:,.0f} hands/s of play)"]
    degraded = r.degraded_text()
    if degraded:
        lines.insert(0, degraded)
    if r.interrupted:
        lines.append("stopped early: partial results")
    lines += _stopping_lines(r)
    ending = _ending_line(r)
    if ending:
        lines.append(ending)
    lines += _result_rows(r) + _exact_lines(r) + _replacement_lines(r)
    logs = [half["log"] for half in r.halves if half.get("log")] if r.halves else [r.log_path] if r.log_path is not None else []
    return "\n".join(lines + [f"log: {log}" for log in logs])


def _stopping_lines(r: MatchReport) -> list[str]:
    """The stopping rule's verdict, with its anytime-valid interval."""
    if r.stopping is None:
        return []
    s = r.stopping
    lo, hi = s["interval_per100"]
    verdict = f"reached after {s['hands']:,} hands" if s["reached"] else f"not reached in {s['hands']:,} hands"
    return [
        f"stopping rule: {s['goal']} for {s['agent']}: {verdict}; anytime-valid 95% interval "
        f"{interval_text((lo, hi), decimals([((lo + hi) / 2, (hi - lo) / 2)]))} per 100 hands (a confidence sequence: valid however early it stopped)"
    ]


def _exact_lines(r: MatchReport) -> list[str]:
    """The exact expected values, when every strategy is known."""
    if r.exact_values is None:
        return []
    x = r.exact_values
    d = decimals((v, 0.0) for v in [*x["agents"].values(), *x["positions"]])
    agents = ", ".join(f"{name} {signed(v, d)}" for name, v in x["agents"].items())
    positions = ", ".join(f"{p} {signed(v, d)}" for p, v in enumerate(x["positions"]))
    return [f"exact expected chips/100 (every strategy known, these seat arrangements): {agents}; positions {positions}"]


def _replacement_lines(r: MatchReport) -> list[str]:
    """What the dealer played for each seat, when it played any."""
    changed = []
    for name, counts in r.replacements.items():
        shown = ", ".join(f"{k} {v}" for k, v in counts.items() if v)
        if shown:
            changed.append(f"{name}: {shown}")
    return ["dealer replacements: " + "; ".join(changed)] if changed else []


def _result_rows(r: MatchReport) -> list[str]:
    """The estimator's line and table (the agents' intervals anytime-valid after an early stop)."""
    lines = [f"note: {FIXED_NOT_VALID}"] if stopped_early(r) else []
    if r.analysis is None:
        return lines + _plain_rows(r)
    from dataclasses import replace

    from showdown.evaluation.analysis_output import estimator_line, format_rows

    shown = replace(r.analysis, agents=headline_estimates(r, list(r.analysis.agents)))
    return [estimator_line(r.analysis), *lines, *format_rows(shown, totals=r.totals), *(f"note: {n}" for n in r.analysis.notes)]


def _plain_rows(r: MatchReport) -> list[str]:
    head = ["", "total", "chips/100", "95% CI"]
    if r.show_mbb:
        head += ["mbb/hand", "95% CI (mbb)"]
    rows: list[list[str]] = [head]
    headline = headline_estimates(r, list(r.agent_stats))
    shown = [*headline, *r.position_stats]
    digits, mbb_digits = decimals_of(shown), decimals_of(shown, least=1, mbb=True)
    named = [*zip(r.names, r.totals, headline), *((f"position {p}", e.total, e) for p, e in enumerate(r.position_stats))]
    for name, total, e in named:
        row = [name, signed(total, 1 if total != int(total) else 0), signed(e.per100, digits), interval_text(e.ci95, digits)]
        if r.show_mbb:
            row += [signed(e.mbb, mbb_digits), interval_text(e.ci95_mbb, mbb_digits)]
        rows.append(row)
    widths = [max(width(row[i]) for row in rows) for i in range(len(head))]
    lines = []
    for i, row in enumerate(rows):
        cells = [left(row[0], widths[0])] + [right(c, w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
        if i == len(r.names):
            lines.append("")
    return lines


def match_csv(doc: Mapping[str, Any]) -> str:
    """CSV of a ``--json`` match document: per agent and per position, with intervals."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["what", "name", "hands", "total", "per100", "ci95_low", "ci95_high", "mbb_per_hand", "estimator"])
    for a in doc.get("agents", []):
        ci = a.get("ci95") or [None, None]
        w.writerow(["agent", a["name"], doc["hands"], a.get("total"), a["per100"], ci[0], ci[1], a.get("mbb_per_hand"), doc.get("estimator")])
    for p in doc.get("positions", []):
        ci = p.get("ci95") or [None, None]
        w.writerow(["position", p["position"], doc["hands"], p.get("total", ""), p["per100"], ci[0], ci[1], p.get("mbb_per_hand"), doc.get("estimator")])
    return out.getvalue()

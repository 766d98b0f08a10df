"""A match's results as a text table or a JSON document."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from showdown.matches.stats import Estimate

__all__ = ["MatchReport", "format_table", "report_json"]


@dataclass
class MatchReport:
    """What ``run_match`` returns: per-agent and per-position results plus where the logs are."""

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
    elapsed: float = 0.0
    failures: list[str] = field(default_factory=list)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.elapsed if self.elapsed > 0 else 0.0


def _ci(ci: tuple[float, float] | None) -> list[float] | None:
    if ci is None or not all(math.isfinite(x) for x in ci):
        return None
    return [ci[0], ci[1]]


def report_json(r: MatchReport) -> dict[str, Any]:
    """The ``--json`` document: game, hands, seed, agents, positions, replacements, log (+ extras)."""
    return {
        "game": r.game,
        "hands": r.hands,
        "seed": r.seed,
        "agents": [
            {
                "name": name,
                "agent": agent,
                "total": total,
                "per100": e.per100,
                "ci95": _ci(e.ci95),
                "mbb_per_hand": e.mbb,
                "ci95_mbb": _ci(e.ci95_mbb),
            }
            for name, agent, total, e in zip(r.names, r.agents, r.totals, r.agent_stats)
        ],
        "positions": [
            {"position": p, "per100": e.per100, "ci95": _ci(e.ci95), "mbb_per_hand": e.mbb, "ci95_mbb": _ci(e.ci95_mbb)}
            for p, e in enumerate(r.position_stats)
        ],
        "replacements": r.replacements,
        "log": str(r.log_path) if r.log_path is not None else None,
        "jsonl": str(r.jsonl_path) if r.jsonl_path is not None else None,
        "hands_requested": r.hands_requested,
        "fixed_seats": r.fixed_seats,
        "big_blind": r.big_blind,
        "aborted": r.aborted,
        "interrupted": r.interrupted,
        "reason": r.reason,
        "elapsed_s": round(r.elapsed, 3),
        "hands_per_s": round(r.hands_per_second, 1),
        "failures": r.failures,
    }


def _num(x: float, digits: int = 2) -> str:
    return f"{x:+,.{digits}f}"


def _interval(ci: tuple[float, float] | None, digits: int = 2) -> str:
    if ci is None:
        return "n/a"
    return f"[{ci[0]:+,.{digits}f}, {ci[1]:+,.{digits}f}]"


def format_table(r: MatchReport) -> str:
    """The human-readable results: one row per agent, then one per position."""
    seats = "fixed seats" if r.fixed_seats else "seats rotate"
    played = f"{r.hands:,} hands" if r.hands == r.hands_requested else f"{r.hands:,} of {r.hands_requested:,} hands"
    lines = [f"{r.game}: {played}, seed {r.seed}, {seats}, {r.elapsed:.1f} s ({r.hands_per_second:,.0f} hands/s)"]
    if r.interrupted:
        lines.append("interrupted: partial results")
    if r.aborted and r.reason:
        lines.append(f"match aborted: {r.reason}")
    head = ["", "total", "chips/100", "95% CI"]
    if r.show_mbb:
        head += ["mbb/hand", "95% CI (mbb)"]
    rows: list[list[str]] = [head]
    for name, total, e in zip(r.names, r.totals, r.agent_stats):
        row = [name, _num(total, 1 if total != int(total) else 0), _num(e.per100), _interval(e.ci95)]
        if r.show_mbb:
            row += [_num(e.mbb, 1), _interval(e.ci95_mbb, 1)]
        rows.append(row)
    for p, e in enumerate(r.position_stats):
        row = [f"position {p}", _num(e.total, 1 if e.total != int(e.total) else 0), _num(e.per100), _interval(e.ci95)]
        if r.show_mbb:
            row += [_num(e.mbb, 1), _interval(e.ci95_mbb, 1)]
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    for i, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
        if i == len(r.names):
            lines.append("")  # agents above, positions below
    changed = []
    for name, counts in r.replacements.items():
        shown = ", ".join(f"{k} {v}" for k, v in counts.items() if v)
        if shown:
            changed.append(f"{name}: {shown}")
    if changed:
        lines.append("dealer replacements: " + "; ".join(changed))
    if r.log_path is not None:
        lines.append(f"log: {r.log_path}")
    return "\n".join(lines)

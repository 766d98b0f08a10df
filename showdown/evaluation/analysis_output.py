"""An ``Analysis`` as JSON and as the text table ``showdown match`` and ``showdown analyze`` print."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from showdown.evaluation.analyze import Analysis
from showdown.evaluation.numbers import counted, decimals_of, gain_text, interval_text, left, right, signed, width
from showdown.evaluation.stats import Estimate

__all__ = ["analysis_json", "estimator_line", "format_analysis", "format_rows"]


def _pair(ci: tuple[float, float] | None) -> list[float] | None:
    if ci is None or not all(math.isfinite(x) for x in ci):
        return None
    return [ci[0], ci[1]]


def _reduction_json(x: float | None) -> float | str | None:
    if x is None:
        return None
    return "exact" if math.isinf(x) else x


def analysis_json(a: Analysis) -> dict[str, Any]:
    """``{"players": [...], "positions": [...], ...}``: each with hands, total, per100, ci95, mbb_per_hand and ci95_mbb."""

    def row(e: Estimate, plain: Estimate, reduction: float | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hands": e.hands,
            "per100": e.per100,
            "ci95": _pair(e.ci95),
            "se100": e.se100,
            # in every game, as `showdown match --json` gives them (the table shows mbb/hand in hold'em only)
            "mbb_per_hand": e.mbb,
            "ci95_mbb": _pair(e.ci95_mbb),
        }
        if a.estimator != "plain" or a.paired:
            out["plain"] = {"per100": plain.per100, "ci95": _pair(plain.ci95)}
            out["variance_reduction"] = _reduction_json(reduction)
        return out

    players = []
    for i, name in enumerate(a.names):
        players.append({"name": name, "total": a.totals[i], **row(a.agents[i], a.plain_agents[i], a.agent_reduction(i))})
    positions = []
    for p, e in enumerate(a.positions):
        # the chips won there, as the table's total column and the players' totals (not the estimator's sum)
        positions.append({"position": p, "total": a.plain_positions[p].total,
                          **row(e, a.plain_positions[p], a.position_reduction(p))})
    diffs = []
    for k, d in enumerate(a.differences):
        item = d.as_json()
        if a.estimator != "plain" or a.paired:
            item["variance_reduction"] = _reduction_json(a.difference_reduction(k))
        diffs.append(item)
    return {
        "hands": a.hands,
        "estimator": a.estimator,
        "paired": a.paired,
        "deals": a.deals if a.paired else None,
        "exact": a.exact,
        "known_strategies": list(a.known),
        "consistency_p": a.consistency_p,
        "big_blind": a.big_blind,
        "players": players,
        "positions": positions,
        "differences": diffs,
        "notes": list(a.notes),
    }


def estimator_line(a: Analysis) -> str:
    """One line saying how the figures were estimated."""
    why = f" ({a.reason})" if a.reason else ""
    if a.estimator == "plain" and not a.paired:
        return f"estimator: plain{why or ' (each hand' + chr(39) + 's chips; variance stratified by position)'}"
    parts = [f"estimator: {a.estimator}{why}"]
    if a.estimator == "aivat":
        known = ", ".join(a.known) if a.known else "none (chance corrected only)"
        parts.append(f"strategies known: {known}")
        if a.exact:
            parts.append("every strategy known: the exact expected value, no sampling error")
    if a.paired:
        parts.append(f"paired over {counted(a.deals, 'duplicate deal')}")
    return "; ".join(parts)


def format_rows(a: Analysis, totals: Sequence[float] | None = None, label: str = "") -> list[str]:
    """The table rows: one per player, a blank line, one per position, then the differences."""
    compare = a.estimator != "plain" or a.paired
    head = ["", "total", "chips/100", "95% CI"]
    if a.show_mbb:
        head += ["mbb/hand", "95% CI (mbb)"]
    if compare:
        head += ["plain chips/100", "plain 95% CI", "gain"]
    rows: list[list[str]] = [head]
    tot = list(totals) if totals is not None else a.totals
    shown = [*a.agents, *a.positions, *(d.estimate for d in a.differences)]
    digits, mbb_digits = decimals_of(shown), decimals_of(shown, least=1, mbb=True)
    plain_digits = decimals_of([*a.plain_agents, *a.plain_positions])

    def cells(name: str, total: float, e: Estimate, plain: Estimate, gain: float | None) -> list[str]:
        row = [name, signed(total, 1 if total != int(total) else 0), signed(e.per100, digits), interval_text(e.ci95, digits)]
        if a.show_mbb:
            row += [signed(e.mbb, mbb_digits), interval_text(e.ci95_mbb, mbb_digits)]
        if compare:
            row += [signed(plain.per100, plain_digits), interval_text(plain.ci95, plain_digits), gain_text(gain)]
        return row

    for i, name in enumerate(a.names):
        rows.append(cells(name, tot[i], a.agents[i], a.plain_agents[i], a.agent_reduction(i)))
    for p, e in enumerate(a.positions):
        rows.append(cells(f"position {p}", a.plain_positions[p].total, e, a.plain_positions[p], a.position_reduction(p)))
    widths = [max(width(r[i]) for r in rows) for i in range(len(head))]
    lines = []
    for i, row in enumerate(rows):
        cells_ = [left(row[0], widths[0])] + [right(c, w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells_).rstrip())
        if i == len(a.names):
            lines.append("")
    if a.differences:
        lines.append("")
        for d in a.differences:
            if not d.estimate.hands:  # (it said '+0.00/100 n/a' of two players from different matches)
                lines.append(f"{d.a} - {d.b}: no hand played together")
                continue
            pv = d.p_value
            ptext = "p n/a" if pv is None else (f"p = {pv:.3g}" if pv >= 1e-4 else "p < 0.0001")
            lines.append(f"{d.a} - {d.b}: {signed(d.estimate.per100, digits)}/100 {interval_text(d.estimate.ci95, digits)}, {ptext}")
    return lines


def format_analysis(a: Analysis, title: str = "") -> str:
    """The human-readable analysis: what was estimated how, the table, and any notes."""
    lines = []
    if title:
        lines.append(title)
    lines.append(estimator_line(a))
    lines += format_rows(a)
    lines += [f"note: {n}" for n in a.notes]
    return "\n".join(lines)

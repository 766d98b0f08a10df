"""The scorecard as one self-contained HTML page in the view's style (its stylesheet inlined, no
script, nothing fetched): the bot's win rate against each opponent, LBR per action set, and the
exploitability lower bound with the opponent or set that found it."""

from __future__ import annotations

from html import escape
from typing import Any

from showdown.view.server import static_text


def _cls(x: float) -> str:
    return "pos" if x > 0 else "neg" if x < 0 else ""


def _row(cells: list[str], value: float | None = None) -> str:
    tds = [f"<td>{escape(cells[0])}</td>"] + [
        f'<td class="{_cls(value)}">{escape(c)}</td>' if value is not None and i == 1 else f"<td>{escape(c)}</td>"
        for i, c in enumerate(cells[1:], start=1)
    ]
    return "<tr>" + "".join(tds) + "</tr>"


def _ci(ci: list[float] | None) -> str:
    return "n/a" if ci is None else f"[{ci[0]:+,.0f}, {ci[1]:+,.0f}]"


def scorecard_html(doc: dict[str, Any]) -> str:
    """The page for a ``showdown scorecard --json`` document."""
    rows = "".join(_row([m["opponent"], f"{m['bot_mbb']:+,.0f}", _ci(m["ci95_mbb"]), f"{m['hands']:,}",
                         m["kind"] + (f", {m['stage'].split(':')[0]}" if m.get("stage") else "")], m["bot_mbb"])
                   for m in doc["matches"])
    rows += "".join(_row([m["name"], "no figure", "", "", m["reason"]]) for m in doc.get("no_figure", []))
    precision = (f"<p>Every match not decided by its pilot (interval excluding 0 and below the bound), and every LBR set "
                 f"that could be the bound, played again to a 95% half-width of {doc['precision_mbb']:g} mbb/hand "
                 "(Stein's two-stage procedure; capped ones say so in --json).</p>" if doc.get("precision_mbb") else "")
    lbr = doc.get("lbr")
    if lbr is not None:
        lbr_rows = "".join(_row([s["actions"], f"{s['lbr_mbb']:+,.0f}", _ci(s["ci95_mbb"]), f"{s['hands']:,}", s.get("sizes", "")],
                                s["lbr_mbb"]) for s in lbr["sets"])
        lbr_part = (f"<p>{escape(lbr['setting'])}; estimator: chance-only corrections.</p>"
                    "<table><tr><th>action set</th><th>LBR wins (mbb/hand)</th><th>95% CI</th><th>hands</th><th>sizes</th></tr>"
                    f"{lbr_rows}</table>")
    else:
        lbr_part = f"<p>Not run: {escape(doc.get('lbr_note') or '')}</p>"
    bound = doc["exploitability_lower_bound_mbb"]
    method = f" ({escape(doc['ci95_method'])})" if "ci95_method" in doc else ""
    found = (f"95% CI {_ci(doc['exploitability_ci95_mbb'])}{method}, found by {escape(doc['found_by'])}" if doc.get("found_mbb", bound) > 0
             else f"the nearest, {escape(doc['found_by'])}, lost: {doc['found_mbb']:+,.0f} mbb/hand, 95% CI {_ci(doc['exploitability_ci95_mbb'])}")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Scorecard: {escape(doc['bot'])} in {escape(doc['game'])}</title>
<style>
{static_text("style.css")}
main {{ max-width: 960px; margin: 0 auto; padding: 18px; }}
</style></head>
<body><main>
<h1>Scorecard: {escape(doc['bot'])} in {escape(doc['game'])}</h1>
<p>Exploitability lower bound: <b>{bound:,.0f} mbb/hand</b>, {found}. {escape(doc['note'])}. Seed {doc['seed']}.</p>
<h2>Duplicate matches (chance-corrected): the bot's win rate</h2>
{precision}<table><tr><th>opponent</th><th>bot wins (mbb/hand)</th><th>95% CI</th><th>hands</th><th>kind</th></tr>{rows}</table>
<h2>Local best response (Lisy and Bowling 2017)</h2>
{lbr_part}
</main></body></html>
"""


__all__ = ["scorecard_html"]

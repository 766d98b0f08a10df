"""A duplicate match's halves in the view: which match a half belongs to, and its paired figures.

A half (``<match>.dup<k>``) played by ``showdown match --duplicate`` has its match's
``<match>.result.json`` beside it; one played by a tournament has its tournament's ``results.json``
two folders up (``<tournament>/matches/<id>/``). Either holds the paired figures the command line
printed, which the half's page shows (with the half's own chart and hands) instead of the half's
unpaired plain figures.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from showdown.protocol.logfile import is_summary_record

__all__ = ["RESULT_SUFFIX", "ends_with_summary", "half_of", "paired_figures"]

RESULT_SUFFIX = ".result.json"


def half_of(title: str) -> tuple[str, int] | None:
    """``(match, k)`` when ``title`` names half ``k`` of a duplicate match (``<match>.dup<k>``)."""
    m = re.fullmatch(r"(.+)\.dup(\d+)", title)
    return (m.group(1), int(m.group(2))) if m else None


def ends_with_summary(jsonl: Path) -> bool:
    """The JSON Lines log's last line is the summary record the dealer writes at the end."""
    try:
        with jsonl.open("rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - 65536))
            last = f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
        rec = json.loads(last)
    except (OSError, ValueError):
        return False
    return isinstance(rec, dict) and is_summary_record(rec)


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None  # unreadable: the half shows its own figures
    return doc if isinstance(doc, dict) else None


def _tournament_match(folder: Path, match: str, log_name: str) -> dict[str, Any] | None:
    """A tournament match's paired figures from its ``results.json`` (``<tournament>/matches/<id>/``)."""
    path = folder.parent.parent / "results.json"
    if not path.is_file():
        return None
    t = _read_json(path)
    if t is None:
        return None
    entry = next((m for m in t.get("matches", []) if isinstance(m, dict) and (
        m.get("id") == match or log_name in {Path(x).name for x in m.get("logs") or []})), None)
    if entry is None:
        return None
    agents = [{"name": name, "hands": r.get("hands"), "per100": r.get("per100"), "ci95": r.get("ci95")}
              for name, r in (entry.get("results") or {}).items()]
    return {
        "game": t.get("game"),
        "hands": entry.get("hands"),
        "estimator": entry.get("estimator", "plain") + (" (exact)" if entry.get("exact") else ""),
        "reason": f"paired over the halves of tournament match {entry.get('id')} (its results.json)",
        "agents": agents,
        "positions": [],
        "differences": [],
        "notes": list(entry.get("notes") or []),
    }


def paired_figures(log: Path, title: str) -> tuple[dict[str, Any], str] | None:
    """The paired document of the match whose half ``title`` wrote ``log``, and what that match is."""
    half = half_of(title)
    if half is None:
        return None
    match = half[0]
    result = log.parent / f"{match}{RESULT_SUFFIX}"
    doc = _read_json(result) if result.is_file() else None
    if doc is not None and "agents" in doc:
        doc.pop("series", None)
        return doc, f"duplicate match {match}"
    found = _tournament_match(log.parent, match, log.name)
    return (found, f"tournament match {match}") if found is not None else None

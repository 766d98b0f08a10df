"""``showdown report``: the view's pages as one self-contained HTML file.

The page, its script and its style are inlined and the data the pages would fetch is embedded as
JSON (``window.SHOWDOWN_EMBEDDED``): the index, each match's summary, its first hands with their
replays, and each tournament's results. Nothing is fetched when the file is opened.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from showdown.view.catalog import ViewError, discover
from showdown.view.data import match_summary, tournament_summary
from showdown.view.hands import hand_list, hand_replay
from showdown.view.server import _clean, static_text


def build_report(paths: list[Path], *, hands: int = 200) -> tuple[str, dict[str, int]]:
    """The HTML text and what it holds (``matches``, ``tournaments``)."""
    catalog = discover(paths)
    if not catalog.matches and not catalog.tournaments:
        raise ViewError(f"no match logs or tournaments under {', '.join(map(str, paths))}")
    data: dict[str, Any] = {"matches": {}, "hands": {}, "replays": {}, "tournaments": {}}
    listed: list[dict[str, Any]] = []
    left_out: list[str] = []
    for key, files in catalog.matches.items():
        try:
            data["matches"][key] = match_summary(files)
        except ViewError as exc:
            left_out.append(str(exc))  # a log with no hands yet, or of an unknown game: left out of the report
            continue
        listed.append({"key": key, "title": files.title, "finished": True})
        if files.jsonl is not None and hands > 0:
            got: list[dict[str, Any]] = []
            start: int | None = 0
            while start is not None and len(got) < hands:
                page = hand_list(files, start=start, limit=min(200, hands - len(got)))
                got += page["hands"]
                start = page["next"]
            data["hands"][key] = {"hands": got}
            data["replays"][key] = {str(h["offset"]): hand_replay(files, int(h["offset"])) for h in got}
    if not listed and not catalog.tournaments:  # an empty report says nothing: say why instead
        raise ViewError(f"no match with a hand to show under {', '.join(map(str, paths))}: {left_out[0]}")
    for key, folder in catalog.tournaments.items():
        data["tournaments"][key] = tournament_summary(folder, catalog)
    data["index"] = {"matches": listed, "tournaments": [{"key": k, "title": k} for k in catalog.tournaments], "play": False}
    if len(listed) == 1 and not catalog.tournaments:
        data["start"] = "#/match/" + quote(str(listed[0]["key"]), safe="")  # as the page's links: a key 'sub/m' or 'a 100%' is one part
    # every "<" as \u003c: a name holding "<!--<script>" (escaping "</" alone let it through) put
    # the HTML parser in the script's double-escaped state, which the closing tag did not end: the
    # report never left "loading…"
    embedded = json.dumps(_clean(data), allow_nan=False).replace("<", "\\u003c")
    html = static_text("index.html")
    html = html.replace('<link rel="stylesheet" href="/static/style.css">', "<style>\n" + static_text("style.css") + "</style>")
    html = html.replace('<script src="/static/app.js"></script>', "<script>\n" + static_text("app.js").replace("</", "<\\/") + "</script>")
    html = html.replace("__EMBEDDED__", embedded)
    return html, {"matches": len(listed), "tournaments": len(catalog.tournaments)}


__all__ = ["build_report"]

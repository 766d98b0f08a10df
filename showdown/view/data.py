"""What the browser view shows of a match or a tournament, as JSON-ready data: its summary.

Pure reading of the files ``showdown match`` and ``showdown tournament`` write (no web code here);
the matches found are a ``catalog.Catalog``, their hands are read by ``hands``.

* ``tournament_summary``: a tournament's ``results.json``.
* ``match_summary``: a finished match's ``<match>.result.json`` (the ``--json`` document plus its
  thinned cumulative winnings) when it is newer than the log, so a million-hand match opens at
  once; for a half of a duplicate match (``<match>.dupN``) the paired figures of its match (its
  ``result.json``, or its tournament's ``results.json``), as the command line printed them;
  otherwise a plain summary computed from the log by a ``LogFollower``, which also serves the live
  page (it reads only the lines added since its last look).

Bad input raises ``ViewError`` with one line saying what is wrong; the server turns it into a page.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from showdown.errors import ProtocolError
from showdown.evaluation.series import WinningsSeries
from showdown.evaluation.stats import Estimate, MatchStats
from showdown.games.gamedef import GameDef
from showdown.protocol import lines
from showdown.protocol.lines import lines_start, log_lines
from showdown.protocol.logfile import HandRecord, MatchSummary, jsonl_record
from showdown.view.catalog import Catalog, MatchFiles, ViewError, game_named
from showdown.view.paired import half_of, paired_figures

__all__ = ["LogFollower", "match_summary", "tournament_summary"]


# ---------------------------------------------------------------------- following a log

_BATCH = 4096  # lines of a growing log taken at a time


def _estimate_json(e: Estimate) -> dict[str, Any]:
    ci = e.ci95
    return {
        "hands": e.hands,
        "total": e.total,
        "per100": e.per100,
        "ci95": [ci[0], ci[1]] if ci is not None and all(math.isfinite(x) for x in ci) else None,
        "mbb_per_hand": e.mbb,
    }


class LogFollower:
    """Reads a JSON Lines log as it grows (complete lines only) into plain statistics and a series.

    ``poll()`` reads what was added since the last call and returns how many hands that was. The
    names come from the first hand (by seat); a match between other names is refused.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._reset()

    def _reset(self) -> None:
        """Nothing read yet."""
        self.offset = 0
        self.names: list[str] = []
        self._index: dict[str, int] = {}
        self.game_name: str | None = None
        self.game: GameDef | None = None
        self.stats: MatchStats | None = None
        self.series: WinningsSeries | None = None
        self.finished: MatchSummary | None = None  # the summary record, once the match has ended
        self.replacements: dict[str, dict[str, int]] = {}
        self.torn = False
        self._file: tuple[int, int] | None = None  # (device, inode) of the file read so far

    @property
    def hands(self) -> int:
        return self.stats.hands if self.stats is not None else 0

    def poll(self) -> int:
        """Read the complete lines added since the last call (``protocol.lines``: a line longer than
        ``MAX_LOG_LINE`` is a ``ViewError``, never held whole); how many hands they were."""
        added = 0
        batch: list[bytes] = []
        rest = b""
        try:
            with self.path.open("rb") as f:
                st = os.fstat(f.fileno())
                if self.offset and ((st.st_dev, st.st_ino) != self._file or st.st_size < self.offset):
                    self._reset()
                    # the log was written anew (match --force, a new file of the name): read from its
                    # start; a page following it kept the old figures, and never saw the new one end
                self._file = (st.st_dev, st.st_ino)
                self.offset = lines_start(f, self.offset)  # (past a byte order mark: the next poll read 3 bytes back, 'bad hand record')
                f.seek(self.offset)
                for _, raw in log_lines(f, str(self.path)):
                    if not raw.endswith(b"\n"):
                        rest = raw  # torn: still being written
                        break
                    batch.append(raw)
                    if len(batch) == _BATCH:
                        added += self._read_lines(batch)
                        batch = []
        except ProtocolError:
            raise ViewError(f"{self.path}: a line of more than {lines.MAX_LOG_LINE:,} bytes past byte {self.offset}, "
                            "where a log's lines are a few KB: not a showdown .jsonl log") from None
        except OSError as exc:
            raise ViewError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        added += self._read_lines(batch)
        self.torn = bool(rest.strip())
        return added

    def _read_lines(self, batch: list[bytes]) -> int:
        """Take the complete lines of ``batch`` (read from ``self.offset``); how many hands they were."""
        seats: list[list[int]] = []
        values: list[list[float]] = []
        for number, raw in enumerate(batch):
            try:
                record = jsonl_record(raw.decode("utf-8", "replace"))
            except ProtocolError as exc:
                raise ViewError(f"{self.path}: line {number + 1} past byte {self.offset}: {exc}: not a showdown .jsonl log") from None
            if record is None:
                continue
            if not isinstance(record, HandRecord):
                self.finished = record
                continue
            if self.finished is not None:  # (a log joined with itself was shown as one match of twice the hands)
                raise ViewError(f"{self.path}: line {number + 1} past byte {self.offset}: hand {record.hand} after the match's "
                                "summary record: two logs joined in one file? give each match's log on its own")
            self._start(record)
            seats.append(self._seats_of(record, number))
            values.append(list(record.values))
            for event in record.events:
                if 0 <= event.seat < len(self.names):
                    name = event.name if event.name in self._index else self.names[event.seat]
                    counts = self.replacements.setdefault(name, {})
                    counts[event.kind.value] = counts.get(event.kind.value, 0) + 1
        self.offset += sum(map(len, batch))
        if seats and self.stats is not None and self.series is not None:
            self.stats.add_many(seats, values)
            for s, v in zip(seats, values):
                self.series.add(s, v)
        return len(seats)

    def _seats_of(self, record: HandRecord, number: int) -> list[int]:
        """Each position's player as an index of ``names``: by name (logs of one match joined, or hands
        imported, may seat the same players otherwise: they were refused), by seat when names repeat."""
        if len(self._index) == len(self.names):
            order = [self._index.get(name, -1) for name in record.players]
            if len(order) == len(self.names) and -1 not in order and len(set(order)) == len(order):
                return order
        elif len(record.seats) == len(self.names) and all(self.names[s] == n for n, s in zip(record.players, record.seats)):
            return list(record.seats)
        # (another player's winnings were counted to the first hand's player of that seat, without a word)
        raise ViewError(f"{self.path}: line {number + 1} past byte {self.offset}: hand {record.hand}'s players "
                        f"({', '.join(record.players)[:80]}) are not the match's ({', '.join(self.names)[:80]}): "
                        f"the view follows one match's players; 'showdown analyze {self.path}' gives each player's figures")

    def _start(self, record: HandRecord) -> None:
        if self.stats is not None:
            return
        names = [""] * len(record.players)
        for name, seat in zip(record.players, record.seats):
            names[seat] = name
        self.names = names
        self._index = {name: i for i, name in enumerate(names)}
        self.game_name = record.game or None
        self.game = game_named(self.game_name, self.path.parent)
        big_blind = self.game.big_blind if self.game is not None else 1
        self.stats = MatchStats(names, big_blind, len(names))
        self.series = WinningsSeries(names)

    def summary(self) -> dict[str, Any]:
        """A plain-estimate summary in the shape of ``showdown match --json`` (its main keys)."""
        stats, series = self.stats, self.series
        agents = []
        positions = []
        if stats is not None:
            for name, e in zip(self.names, stats.agents()):
                agents.append({"name": name, "agent": name, **_estimate_json(e)})
            positions = [{"position": p, **_estimate_json(e)} for p, e in enumerate(stats.positions())]
        differences = []
        if stats is not None:
            for d in stats.differences():
                differences.append(d.as_json())
        notes = ["live: the plain estimate, updated as hands finish"] if self.finished is None else []
        if self.torn:
            notes.append("the log's last line is not complete yet (or was cut off): it is not counted")
        return {
            "game": self.game_name,
            "hands": self.hands,
            "hands_requested": self.finished.hands if self.finished is not None else None,
            "estimator": "plain",
            "reason": "computed from the log (no result file, or the match is still running)",
            "agents": agents,
            "positions": positions,
            "differences": differences,
            "replacements": self.replacements,
            "series": series.to_json() if series is not None else None,
            "finished": self.finished is not None,
            "show_mbb": bool(self.game is not None and len(set(self.game.blind)) > 1),
            "notes": notes,
        }


# ---------------------------------------------------------------------- summaries


def _paired_summary(files: MatchFiles) -> dict[str, Any] | None:
    """A duplicate half's page: the paired figures of its match (``view.paired``), this half's chart."""
    log, half = files.log_file, half_of(files.title)
    found = paired_figures(log, files.title) if log is not None and half is not None else None
    if found is None or half is None:
        return None
    (doc, what), (match, k) = found, half
    doc["notes"] = [
        f"half {k + 1} of {what}: the figures are the paired ones of all its halves (as the command line "
        "printed them); the chart and the hands are this half's", *doc.get("notes", []),
    ]
    if files.jsonl is not None:
        own = LogFollower(files.jsonl)
        own.poll()
        doc["series"] = own.series.to_json() if own.series is not None else None
    game = game_named(doc.get("game"), files.jsonl.parent if files.jsonl else None)
    doc.update(half_of=match, finished=True, key=files.key)
    doc.setdefault("show_mbb", bool(game is not None and len(set(game.blind)) > 1))
    doc.setdefault("reason", None)
    return doc


def match_summary(files: MatchFiles, follower: LogFollower | None = None) -> dict[str, Any]:
    """The match page's data: the result document when it is current, a duplicate half's paired
    figures, else the log's plain summary."""
    if files.result is None and (paired := _paired_summary(files)) is not None:
        return paired
    log = files.log_file
    if files.result is not None and (log is None or files.result.stat().st_mtime >= log.stat().st_mtime - 1e-6):
        try:
            doc = json.loads(files.result.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ViewError(f"{files.result}: not a result file ({exc})") from None
        if not isinstance(doc, dict) or "agents" not in doc:
            raise ViewError(f"{files.result}: not a result file")
        doc["finished"] = True
        doc["key"] = files.key
        game = game_named(doc.get("game"), files.result.parent)
        doc["show_mbb"] = bool(game is not None and len(set(game.blind)) > 1)
        doc.setdefault("reason", None)
        return doc
    if files.jsonl is None:
        if files.log is not None:
            return _acpc_summary(files)
        raise ViewError(f"match {files.key}: no log file")
    f = follower or LogFollower(files.jsonl)
    f.poll()
    if f.stats is None:
        raise ViewError(f"{files.jsonl}: no hands in this log yet")
    if f.game is None:
        raise ViewError(f"{files.jsonl}: unknown game {f.game_name!r}: name a catalog game or keep the .game file beside the log")
    doc = f.summary()
    doc["key"] = files.key
    return doc


def _acpc_summary(files: MatchFiles) -> dict[str, Any]:
    """A reference dealer's ``.log`` (no JSON Lines): the plain figures of ``showdown analyze``."""
    from showdown.evaluation.analysis_output import analysis_json
    from showdown.evaluation.analyze import analyze
    from showdown.evaluation.log_reading import read_logs

    assert files.log is not None
    logs = read_logs([files.log])
    if logs.table.hands == 0:
        raise ViewError(f"{files.log}: no hands in this log")
    if logs.game is None:
        raise ViewError(f"{files.log}: unknown game: the header names none this tool knows")
    g = logs.game
    a = analyze(logs.table, big_blind=g.big_blind, show_mbb=len(set(g.blind)) > 1)
    doc = analysis_json(a)
    series = WinningsSeries(logs.table.names)
    for start in range(0, logs.table.hands, _BATCH):  # (lists of every hand at once: twice the table's memory)
        rows = slice(start, start + _BATCH)
        for s, v in zip(logs.table.seats[rows].tolist(), logs.table.values[rows].tolist()):
            series.add(s, v)
    doc.update(
        key=files.key, game=g.name, hands=logs.table.hands, estimator="plain", finished=True, series=series.to_json(),
        show_mbb=len(set(g.blind)) > 1, notes=list(logs.notes) + list(doc.get("notes", [])),
    )
    doc.setdefault("agents", doc.pop("players", []))
    return doc


def tournament_summary(folder: Path, catalog: Catalog) -> dict[str, Any]:
    """``results.json`` with, per match, the key of its match page (when its logs are here)."""
    path = folder / "results.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ViewError(f"{path}: not a tournament results file ({exc})") from None
    if not isinstance(doc, dict) or "cross_table" not in doc:
        raise ViewError(f"{path}: not a tournament results file")
    # A match's logs are named by its id, unique in the tournament: find them by name under the
    # folder (the paths in results.json are relative to where the tournament was run).
    by_name: dict[str, str] = {}
    inside = folder.resolve()
    for key, files in catalog.matches.items():
        for p in (files.jsonl, files.log, files.result):
            if p is not None and inside in p.resolve().parents:
                by_name[p.name] = key
    for m in doc.get("matches", []):
        keys = []
        for log in m.get("logs") or []:
            k = by_name.get(Path(log).name)
            if k is not None and k not in keys:
                keys.append(k)
        m["pages"] = keys
    return doc

"""What the browser view shows, as JSON-ready data: matches, hands, replays and tournaments.

Pure reading of the files ``showdown match`` and ``showdown tournament`` write (no web code here):

* ``Catalog``: the matches (one per log, ``.jsonl`` preferred over its ``.log``) and tournaments
  (folders with ``results.json``) found under the paths given, each under a stable key (its path
  relative to the root it was found in, without suffix).
* ``match_summary``: a finished match's ``<match>.result.json`` (the ``--json`` document plus its
  thinned cumulative winnings) when it is newer than the log, so a million-hand match opens at
  once; for a half of a duplicate match (``<match>.dupN``) the paired figures of its match (its
  ``result.json``, or its tournament's ``results.json``), as the command line printed them;
  otherwise a plain summary computed from the log by a ``LogFollower``, which also serves the live
  page (it reads only the lines added since its last look).
* ``hand_list`` (filtered, paged) and ``hand_replay`` (every action with the pot and stacks after
  it, from the rules in ``games.state``).

Bad input raises ``ViewError`` with one line saying what is wrong; the server turns it into a page.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from showdown.errors import ShowdownError
from showdown.evaluation.series import WinningsSeries
from showdown.evaluation.stats import Estimate, MatchStats
from showdown.games.gamedef import GameDef
from showdown.protocol.logfile import finite, is_summary_record
from showdown.view.paired import RESULT_SUFFIX, ends_with_summary, half_of, paired_figures

MAX_PAGE = 200
"""Most hands one request of the hand list returns."""
MAX_SCAN_BYTES = 512 * 1024 * 1024
"""A filter scans at most this much of a log per request (then says where it stopped)."""


class ViewError(ShowdownError):
    """Something the view cannot show, said in one line."""


# ---------------------------------------------------------------------- finding matches


@dataclass
class MatchFiles:
    """The files of one match: its logs (either may be missing) and its result document."""

    key: str
    jsonl: Path | None = None
    log: Path | None = None
    result: Path | None = None

    @property
    def title(self) -> str:
        return self.key.rsplit("/", 1)[-1]

    @property
    def folder(self) -> str:
        """Where it was found (relative to the path given): same-named matches differ by it."""
        return self.key.rsplit("/", 1)[0] if "/" in self.key else ""

    @property
    def log_file(self) -> Path | None:
        return self.jsonl or self.log

    @property
    def finished(self) -> bool:
        """It ended: its result file, its paired match's, a tournament's mark, or its log's last line
        (the summary record) says so; a match still running (or stopped dead) has none of these."""
        if self.result is not None:
            return True
        log = self.log_file
        if log is None:
            return False
        half = half_of(self.title)
        if half is not None and (log.parent / f"{half[0]}{RESULT_SUFFIX}").is_file():
            return True
        if (log.parent / f"{self.title}.done.json").is_file():  # a tournament's finished half
            return True
        return self.jsonl is not None and ends_with_summary(self.jsonl)


@dataclass
class Catalog:
    """Everything found under the paths given to ``showdown view``."""

    matches: dict[str, MatchFiles] = field(default_factory=dict)
    tournaments: dict[str, Path] = field(default_factory=dict)

    def match(self, key: str) -> MatchFiles:
        found = self.matches.get(key)
        if found is None:
            raise ViewError(f"no match {key!r} here")
        return found

    def tournament(self, key: str) -> Path:
        found = self.tournaments.get(key)
        if found is None:
            raise ViewError(f"no tournament {key!r} here")
        return found


def _stem(path: Path) -> str:
    name = path.name
    for suffix in (RESULT_SUFFIX, ".jsonl", ".log"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def discover(paths: Sequence[str | Path]) -> Catalog:
    """The matches and tournaments under ``paths`` (folders are searched recursively, files taken as
    logs). With several paths, each match's key starts with the path it was found under, so that
    same-named matches of different folders stay apart."""
    catalog = Catalog()
    several = len({Path(p) for p in paths}) > 1
    for given in dict.fromkeys(Path(p) for p in paths):
        root = Path(given)
        if not root.exists():
            raise ViewError(f"no such file or folder: {root}")
        prefix = root.as_posix() if several else ""
        if root.is_file():
            _add_file(catalog, root, root.parent, root.parent.as_posix() if several else "")
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            here = Path(dirpath)
            if "results.json" in filenames:
                rel = here.relative_to(root).as_posix()
                name = rel if rel != "." else root.name or "tournament"
                catalog.tournaments[f"{prefix}/{name}" if prefix and rel != "." else prefix or name] = here
            for name in sorted(filenames):
                if name.endswith((".jsonl", ".log", RESULT_SUFFIX)):
                    _add_file(catalog, here / name, root, prefix)
    return catalog


def _add_file(catalog: Catalog, path: Path, root: Path, prefix: str = "") -> None:
    rel = path.parent.relative_to(root).as_posix() if path.parent != root else ""
    folder = "/".join(p for p in (prefix, rel if rel != "." else "") if p)
    key = f"{folder}/{_stem(path)}" if folder else _stem(path)
    files = catalog.matches.setdefault(key, MatchFiles(key))
    if path.name.endswith(RESULT_SUFFIX):
        files.result = path
    elif path.suffix == ".jsonl":
        files.jsonl = path
    else:
        files.log = path


# ---------------------------------------------------------------------- following a log


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
        self.offset = 0
        self.names: list[str] = []
        self.game_name: str | None = None
        self.game: GameDef | None = None
        self.stats: MatchStats | None = None
        self.series: WinningsSeries | None = None
        self.finished: dict[str, Any] | None = None
        self.replacements: dict[str, dict[str, int]] = {}
        self.torn = False

    @property
    def hands(self) -> int:
        return self.stats.hands if self.stats is not None else 0

    def poll(self) -> int:
        try:
            with self.path.open("rb") as f:
                f.seek(self.offset)
                chunk = f.read()
        except OSError as exc:
            raise ViewError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        end = chunk.rfind(b"\n")
        if end < 0:
            self.torn = bool(chunk.strip())
            return 0
        self.torn = bool(chunk[end + 1 :].strip())
        self.offset += end + 1
        seats: list[list[int]] = []
        values: list[list[float]] = []
        for number, raw in enumerate(chunk[: end + 1].splitlines()):
            if not raw.strip():
                continue
            try:
                rec = json.loads(raw)
            except ValueError:
                raise ViewError(f"{self.path}: line {number + 1} past byte {self.offset} is not JSON: not a showdown .jsonl log") from None
            if not isinstance(rec, dict):
                raise ViewError(f"{self.path}: not a showdown .jsonl log")
            if is_summary_record(rec):
                self.finished = rec
                continue
            self._start(rec)
            try:
                order = [int(s) for s in rec["seats"]]
                seats.append(order)
                values.append([finite(v) for v in rec["values"]])
            except (KeyError, TypeError, ValueError, OverflowError):
                raise ViewError(f"{self.path}: a hand record lacks its seats or finite values") from None
            for event in rec.get("events") or ():
                seat = event.get("seat")
                if isinstance(seat, int) and 0 <= seat < len(self.names):
                    counts = self.replacements.setdefault(self.names[seat], {})
                    kind = str(event.get("kind", "event"))
                    counts[kind] = counts.get(kind, 0) + 1
        if seats and self.stats is not None and self.series is not None:
            self.stats.add_many(seats, values)
            for s, v in zip(seats, values):
                self.series.add(s, v)
        return len(seats)

    def _start(self, rec: dict[str, Any]) -> None:
        if self.stats is not None:
            return
        players, order = rec.get("players"), rec.get("seats")
        if not isinstance(players, list) or not isinstance(order, list) or len(players) != len(order):
            raise ViewError(f"{self.path}: a hand record lacks its players")
        names = [""] * len(players)
        for name, seat in zip(players, order):
            names[int(seat)] = str(name)
        self.names = names
        self.game_name = str(rec.get("game") or "") or None
        self.game = _game(self.game_name)
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
            "hands_requested": (self.finished or {}).get("hands"),
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


def _game(name: str | None) -> GameDef | None:
    if not name:
        return None
    from showdown.games.catalog import get_game

    try:
        return get_game(name)
    except ShowdownError:
        return None


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
    game = _game(doc.get("game"))
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
        game = _game(doc.get("game"))
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
    for s, v in zip(logs.table.seats.tolist(), logs.table.values.tolist()):
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


# ---------------------------------------------------------------------- hands


def _records(path: Path, start: int = 0) -> Iterator[tuple[int, dict[str, Any]]]:
    """(byte offset, record) of every complete hand record from byte ``start`` on."""
    with path.open("rb") as f:
        f.seek(start)
        offset = start
        scanned = 0
        for raw in f:
            here = offset
            offset += len(raw)
            scanned += len(raw)
            if not raw.endswith(b"\n"):
                return
            if scanned > MAX_SCAN_BYTES:
                return
            try:
                rec = json.loads(raw)
            except ValueError:
                raise ViewError(f"{path}: byte {here} is not a JSON record: not a showdown .jsonl log") from None
            if isinstance(rec, dict) and not is_summary_record(rec):
                yield here, rec


def _won(rec: dict[str, Any]) -> float:
    """The chips that changed hands: what the winners took from the others."""
    return float(sum(v for v in rec.get("values", []) if v > 0))


def hand_list(
    files: MatchFiles,
    *,
    agent: str | None = None,
    position: int | None = None,
    showdown: bool | None = None,
    min_won: float | None = None,
    start: int = 0,
    limit: int = 50,
) -> dict[str, Any]:
    """Hands matching every filter given, from byte ``start`` of the JSON Lines log; ``next`` is
    where the next page starts (None at the end)."""
    if files.jsonl is None:
        raise ViewError(f"match {files.key}: the hand list needs the .jsonl log")
    limit = max(1, min(limit, MAX_PAGE))
    hands: list[dict[str, Any]] = []
    next_start: int | None = None
    for offset, rec in _records(files.jsonl, start):
        if len(hands) >= limit:
            next_start = offset
            break
        players = rec.get("players", [])
        if agent is not None and agent not in players:
            continue
        if position is not None and agent is not None:
            if position >= len(players) or players[position] != agent:
                continue
        at_showdown = _went_to_showdown(rec)
        if showdown is not None and at_showdown != showdown:
            continue
        if min_won is not None and _won(rec) < min_won:
            continue
        hands.append(
            {
                "hand": rec.get("hand"),
                "offset": offset,
                "players": players,
                "hole": rec.get("hole"),
                "board": rec.get("board"),
                "betting": rec.get("betting"),
                "values": rec.get("values"),
                "showdown": at_showdown,
                "won": _won(rec),
                "events": len(rec.get("events") or []),
            }
        )
    return {"hands": hands, "next": next_start}


def _went_to_showdown(rec: dict[str, Any]) -> bool:
    """At least two players were still in at the end (no fold ended the hand)."""
    return len(rec.get("values", [])) - str(rec.get("betting", "")).count("f") >= 2


def _record_at(path: Path, offset: int) -> dict[str, Any]:
    """The hand record that starts at byte ``offset`` (a line start) of a JSON Lines log."""
    missing = ViewError(f"no hand at byte {offset} of {path.name}")
    if offset < 0:
        raise missing
    with path.open("rb") as f:
        if offset > 0:
            f.seek(offset - 1)
            if f.read(1) != b"\n":
                raise missing
        raw = f.readline(1 << 20)
    if not raw.endswith(b"\n"):
        raise missing
    try:
        rec = json.loads(raw)
    except ValueError:
        raise missing from None
    if not isinstance(rec, dict) or is_summary_record(rec):
        raise missing
    return rec


def hand_replay(files: MatchFiles, offset: int) -> dict[str, Any]:
    """One hand step by step: after each action, who acted, what, the pot and every stack's spend."""
    from showdown.games.cards import parse_cards
    from showdown.games.state import State, parse_action

    if files.jsonl is None:
        raise ViewError(f"match {files.key}: the replayer needs the .jsonl log")
    rec = _record_at(files.jsonl, offset)
    game = _game(rec.get("game"))
    if game is None:
        raise ViewError(f"unknown game {rec.get('game')!r}")
    try:
        for h in rec["hole"]:
            parse_cards(h)  # checked: a hand with unreadable cards is refused whole
        board_groups = [tuple(parse_cards(g)) for g in rec.get("board", [])]
    except (KeyError, ShowdownError) as exc:
        raise ViewError(f"hand {rec.get('hand')}: bad cards ({exc})") from None
    state = State.initial(game)
    steps = [_step(state, None, None, board_groups)]
    betting = str(rec.get("betting", ""))
    try:
        for round_text in betting.split("/"):
            for token in _tokens(round_text):
                actor = state.current_player
                text = _action_text(token, state.to_call() > 0)
                state = state.apply(parse_action(token))
                steps.append(_step(state, actor, text, board_groups))
    except ShowdownError as exc:
        raise ViewError(f"hand {rec.get('hand')}: betting {betting!r} does not fit game {game.name}: {exc}") from None
    stacks = list(game.stack) if game.is_nolimit else None
    return {
        "hand": rec.get("hand"),
        "game": game.name,
        "players": rec.get("players"),
        "hole": rec.get("hole"),
        "board": rec.get("board"),
        "betting": betting,
        "values": rec.get("values"),
        "events": rec.get("events") or [],
        "stacks": stacks,
        "steps": steps,
    }


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(text):
        j = i + 1
        if text[i] == "r":
            while j < len(text) and text[j].isdigit():
                j += 1
        out.append(text[i:j])
        i = j
    return out


def _action_text(token: str, facing_bet: bool) -> str:
    if token == "f":
        return "folds"
    if token == "c":
        return "calls" if facing_bet else "checks"
    if len(token) > 1:
        return f"raises to {token[1:]}" if facing_bet else f"bets, to {token[1:]}"
    return "raises" if facing_bet else "bets"


def _step(state: Any, actor: int | None, text: str | None, board_groups: list[tuple[int, ...]]) -> dict[str, Any]:
    from showdown.games.cards import format_cards

    r = state.round
    visible = [format_cards(g) for g in board_groups[: r + 1]]
    return {
        "actor": actor,
        "text": text,
        "round": r,
        "board": visible,
        "pot": int(sum(state.spent)),
        "spent": [int(x) for x in state.spent],
        "folded": list(state.folded),
        "to_act": None if state.is_terminal else state.current_player,
    }


__all__ = [
    "Catalog",
    "LogFollower",
    "MatchFiles",
    "ViewError",
    "discover",
    "hand_list",
    "hand_replay",
    "match_summary",
    "tournament_summary",
]

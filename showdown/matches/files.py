"""A match's own files beside its logs: ``<match>.match.json`` (its settings, for ``--resume``) and
``<match>.result.json`` (its report, for ``showdown view``)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from showdown.errors import ConfigError
from showdown.evaluation.report import MatchReport
from showdown.matches.config import MatchConfig, config_from_json, config_to_json
from showdown.protocol.logfile import HandRecord, is_score_line
from showdown.server.locks import hold

__all__ = [
    "MATCH_FILE_SUFFIX", "RESULT_FILE_SUFFIX", "check_not_running", "check_other_kind", "finished_summary", "hold_folder", "load_match_file", "replay_finished_hands", "save_match_file",
    "save_result_file",
]

MATCH_FILE_SUFFIX = ".match.json"
RESULT_FILE_SUFFIX = ".result.json"


def save_match_file(config: MatchConfig, name: str) -> Path:
    """``<out>/<match>.match.json``: the settings of the match, so that ``--resume`` can restart it."""
    assert config.out is not None
    path = Path(config.out) / f"{name}{MATCH_FILE_SUFFIX}"
    doc = config_to_json(replace(config, name=name, force=False, resume=False))
    _write_atomically(path, json.dumps(doc, indent=1) + "\n")
    return path


FOLDER_LOCK = ".running.lock"
"""The file a tournament or scorecard locks in its folder while it runs (``hold_folder``)."""


def hold_folder(out: Path, what: str) -> IO[bytes]:
    """Make ``out`` if missing and take it for this run alone (an advisory lock on ``out/.running.lock``, released when the
    returned file closes or the process dies): two runs into one folder at once each failed the
    matches the other was playing ('being written by a match still running'), both ending incomplete."""
    path = out / FOLDER_LOCK
    try:
        out.mkdir(parents=True, exist_ok=True)  # (a folder that cannot be made was a FileNotFoundError traceback)
        f = open(path, "ab")
    except OSError as exc:
        raise ConfigError(f"{what}: cannot write in {out}: {exc.strerror or exc}") from None
    if not hold(f):
        f.close()
        raise ConfigError(f"{what}: another {what} is running in {out}: let it finish (or stop it: Ctrl-C), then run "
                          "this again to resume; or give this one another out folder")
    return f


def check_not_running(out: Path, name: str, players: int, resume: bool = False) -> None:
    """Refuse a match whose logs of the same name (a plain match's or a duplicate half's) another
    process is writing: a duplicate ``--force`` run so refused had already written its settings over the
    running match's ``.match.json``, whose ``--resume`` then failed ('the log of another match')."""
    for log in [out / f"{name}.log", *(out / f"{name}.dup{k}.log" for k in range(players))]:
        try:
            f = open(log, "rb")
        except OSError:
            continue
        with f:
            free = hold(f)
        if not free:
            way = "then resume" if resume else "or give this match another --name or --out"
            raise ConfigError(f"{log} is being written by a match still running: let it finish or stop it first "
                              f"(Ctrl-C, or kill its process), {way}")


def check_other_kind(out: Path, name: str, duplicate: bool) -> None:
    """Refuse a plain match where a duplicate match of the same name is (or the other way round):
    both keep their settings and report in ``<name>.match.json`` and ``<name>.result.json`` (their logs
    differ: ``<name>.log``, ``<name>.dup0.log``...), so the second overwrote the first's, and ``--resume``
    of the first then continued the second. ``--force`` replaces it, as it does logs."""
    kind, other = ("a duplicate", "a plain") if duplicate else ("a plain", "a duplicate")
    match_file = out / f"{name}{MATCH_FILE_SUFFIX}"
    try:
        doc = json.loads(match_file.read_text(encoding="utf-8"))
        theirs: bool | None = doc.get("duplicate") is True if isinstance(doc, dict) else None
    except (OSError, ValueError, RecursionError):
        theirs = None
    logs = out / (f"{name}.log" if duplicate else f"{name}.dup0.log")
    if theirs is None and logs.exists():
        theirs = not duplicate
    if theirs is not None and theirs != duplicate:
        raise ConfigError(f"{match_file if match_file.exists() else logs} is of {other} match of the same name, whose settings "
                          f"and report {kind} match would overwrite (--resume would then continue the wrong one): give this "
                          "match another --name or --out, or --force to replace them")


def load_match_file(where: str | Path) -> MatchConfig:
    """The match to resume: a ``.match.json`` file, its ``.log``, or a folder holding one unfinished
    match (killed, or stopped by Ctrl-C or SIGTERM; not one that ended as it should)."""
    p = Path(where)
    if not p.exists():
        raise ConfigError(f"--resume {where}: no such file or folder; give the --out folder of the match to continue "
                          f"(or its .match.json or .log)")
    if p.is_dir():
        candidates = _matches_in(p)
        unfinished = [c for c in candidates if not _finished(c)]
        if not candidates:
            raise ConfigError(f"--resume {where}: no match there (no {MATCH_FILE_SUFFIX} file); give the --out folder "
                              "of the match to continue")
        if not unfinished:
            logs = " ".join(str(log) for c in candidates[:3] for log in _logs_of(c))
            raise ConfigError(f"--resume {where}: {'the match' if len(candidates) == 1 else 'every match'} there finished: "
                              f"nothing to resume ('showdown analyze {logs}' gives the figures)")
        if len(unfinished) != 1:
            names = ", ".join(c.name.removesuffix(MATCH_FILE_SUFFIX) for c in unfinished) or "none"
            raise ConfigError(f"--resume {where}: {len(unfinished)} unfinished matches there ({names}); name one's .match.json")
        p = unfinished[0]
    elif p.suffix in (".log", ".jsonl"):
        p = p.with_name(p.name.removesuffix(p.suffix) + MATCH_FILE_SUFFIX)
    p = _whole_match(p)
    if _finished(p):
        raise ConfigError(f"--resume {where}: that match already finished (it was not stopped early): nothing to resume")
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise ConfigError(f"--resume {where}: cannot read the match file {p}: {exc}") from None
    try:  # the file is ours, but a user may have edited or cut it: any shape but the written one is said
        config = _from_here(config_from_json(doc), p).check(f"--resume {where}")
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise ConfigError(f"--resume {where}: the match file {p} is damaged ({type(exc).__name__}: {exc}); "
                          f"start the match again without --resume (add --force to overwrite its logs)") from None
    return replace(config, resume=True)


def _from_here(config: MatchConfig, match_file: Path) -> MatchConfig:
    """The settings as seen from this folder: the logs are where the match file is (its ``out`` may be
    relative to the folder the match started from: resumed from another, a new match began in a new
    ``./out``, the killed one left as it was), and a .game file given by a relative path is the copy the
    dealer keeps beside them."""
    config = replace(config, out=match_file.parent)
    game = Path(config.game)
    copy = match_file.parent / f"{config.name}{'.dup0' if config.duplicate else ''}.game"  # (a half's dealer keeps it)
    if game.suffix == ".game" and not game.is_absolute() and not game.is_file() and copy.is_file():
        config = replace(config, game=os.path.relpath(copy))
    return config


def save_result_file(report: MatchReport, series: dict[str, Any] | None = None, path: Path | None = None) -> Path | None:
    """``<out>/<match>.result.json`` (or ``path``): the ``--json`` document of a finished match, with
    its thinned cumulative winnings (``series``), so that ``showdown view`` opens any match at once.
    A failed write (a full disk) is an ``OSError`` for the caller to report; no half-written file is left."""
    from showdown.evaluation.report import report_json

    if path is None and report.log_path is None:
        return None
    if path is None:
        assert report.log_path is not None
        path = report.log_path.with_name(report.log_path.name.removesuffix(".log") + RESULT_FILE_SUFFIX)
    doc = report_json(report)
    doc["series"] = series
    _write_atomically(path, json.dumps(doc) + "\n")
    return path


def replay_finished_hands(jsonl: Path, hands: int, hand_done: Callable[[HandRecord], None]) -> None:
    """A resumed match's report covers every hand: the ones played before the crash come from its log."""
    with jsonl.open("r", encoding="utf-8") as f:
        for _, line in zip(range(hands), f):
            hand_done(HandRecord.from_json(line))


LAST_LINE_BYTES = 1 << 16
"""Bytes read at the end of a ``.log`` to find its last line (a SCORE line is far shorter)."""


def _matches_in(folder: Path) -> list[Path]:
    """The match files of a folder, those of a duplicate match's halves left out (they are part of it)."""
    files = sorted(folder.glob(f"*{MATCH_FILE_SUFFIX}"))
    halves = {half for f in files for half in _half_files(f)}
    return [f for f in files if f not in halves]


def _whole_match(match_file: Path) -> Path:
    """The duplicate match a half's file (``<match>.dup<k>.match.json``, or its log) belongs to; any other file as it is.
    (A half's .log, named with ``--resume``, played that half on alone as a plain match, with no paired report.)"""
    stem, dot, k = match_file.name.removesuffix(MATCH_FILE_SUFFIX).rpartition(".dup")
    whole = match_file.with_name(stem + MATCH_FILE_SUFFIX)
    return whole if dot and k.isdigit() and match_file in _half_files(whole) else match_file


def _half_files(match_file: Path) -> list[Path]:
    """The match files of a duplicate match's halves (``<match>.dup<k>.match.json``); none for a plain match.
    The duplicate runner writes its own file (``duplicate: true``) before its halves start."""
    try:
        doc = json.loads(match_file.read_text(encoding="utf-8"))
        players = len(doc["agents"]) if isinstance(doc, dict) and doc.get("duplicate") is True else 0
    except (OSError, ValueError, RecursionError, KeyError, TypeError):
        return []
    stem = match_file.name.removesuffix(MATCH_FILE_SUFFIX)
    return [match_file.with_name(f"{stem}.dup{k}{MATCH_FILE_SUFFIX}") for k in range(players)]


def _logs_of(match_file: Path) -> list[Path]:
    """The ``.log`` files of a match: its own, or its halves' for a duplicate match."""
    return [f.with_name(f.name.removesuffix(MATCH_FILE_SUFFIX) + ".log") for f in _half_files(match_file) or [match_file]]


def finished_summary(out: Path, name: str) -> dict[str, Any] | None:
    """The summary record of the match ``name`` in ``out`` when its logs say it played every hand it
    was asked for (its SCORE line written; a duplicate half that needs no resume); else None."""
    if not _scored(out / f"{name}.log"):
        return None
    try:
        with (out / f"{name}.jsonl").open("rb") as f:
            f.seek(max(0, (out / f"{name}.jsonl").stat().st_size - LAST_LINE_BYTES))
            summary = json.loads(f.read().rstrip(b"\r\n").rpartition(b"\n")[2])
        done = isinstance(summary, dict) and summary.get("summary") is True and summary["hands_played"] >= summary["hands"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    return summary if done else None


def _scored(log: Path) -> bool:
    """The ``.log`` ends with a whole SCORE line (one cut by a kill is none: --resume writes it again)."""
    try:
        with log.open("rb") as f:
            f.seek(max(0, log.stat().st_size - LAST_LINE_BYTES))
            tail = f.read()
    except OSError:
        return False
    return tail.endswith(b"\n") and is_score_line(tail.rstrip(b"\r\n").rpartition(b"\n")[2])


def _finished(match_file: Path) -> bool:
    """The match ended as it should: its log has its SCORE line, and no signal (Ctrl-C, SIGTERM)
    stopped it (its ``.result.json`` says so). A stopping rule's early end is an end. A duplicate
    match: every half ended so, and its paired ``.result.json`` was written (not stopped)."""
    stem = match_file.name.removesuffix(MATCH_FILE_SUFFIX)
    if halves := _half_files(match_file):
        try:
            result = json.loads(match_file.with_name(stem + RESULT_FILE_SUFFIX).read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            return False
        return isinstance(result, dict) and not result.get("interrupted") and all(_finished(h) for h in halves)
    if not _scored(match_file.with_name(stem + ".log")):
        return False
    try:
        result = json.loads(match_file.with_name(stem + RESULT_FILE_SUFFIX).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        # no result: the runner ended before writing it (a second Ctrl-C as the match stopped, a kill);
        # a match stopped early is one to resume, as its summary record tells
        return _all_played(match_file.with_name(stem + ".jsonl"))
    return not (isinstance(result, dict) and result.get("interrupted"))


def _all_played(jsonl: Path) -> bool:
    """The ``.jsonl``'s summary record says every hand asked for was played (or cannot be read)."""
    try:
        with jsonl.open("rb") as f:
            f.seek(max(0, jsonl.stat().st_size - LAST_LINE_BYTES))
            summary = json.loads(f.read().rstrip(b"\r\n").rpartition(b"\n")[2])
        return bool(summary["hands_played"] >= summary["hands"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return True


def _write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # one per writer: two runs may save at once
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise

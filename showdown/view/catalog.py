"""The matches and tournaments found under the paths given to ``showdown view``.

A ``Catalog`` holds the matches (one per log, ``.jsonl`` preferred over its ``.log``) and tournaments
(folders with ``results.json``), each under a stable key (its path relative to the root it was found
in, without suffix). Bad input raises ``ViewError`` with one line saying what is wrong.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from showdown.errors import ShowdownError
from showdown.games.gamedef import GameDef
from showdown.view.paired import RESULT_SUFFIX, ends_with_summary, half_of

__all__ = ["Catalog", "MatchFiles", "ViewError", "discover", "game_named"]


class ViewError(ShowdownError):
    """Something the view cannot show, said in one line."""


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
        if self.jsonl is not None:
            return ends_with_summary(self.jsonl)
        return self.log is not None and _ends_with_score(self.log)


def _ends_with_score(log: Path) -> bool:
    """An ACPC log's last line is its SCORE line, which ends a finished match: a .log alone (the
    reference dealer's, or one 'showdown import' wrote) was listed as 'running, or stopped before
    its end', its own page saying it was finished."""
    try:
        with log.open("rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - 65536))
            return f.read().rstrip().rsplit(b"\n", 1)[-1].startswith(b"SCORE:")
    except OSError:
        return False


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
            if root.suffix in (".phh", ".phhs"):  # (it was 'unexpected line '[0]'')
                raise ViewError(f"{root} is a PHH hand history, not a match log: 'showdown import {root} -o MATCH.log' makes it one")
            _add_file(catalog, root, root.parent, root.parent.as_posix() if several else "")
            continue
        if not root.is_dir():
            raise ViewError(f"{root} is not a regular file (a device or a pipe): give a match folder or its .log or .jsonl")
        inside = root.resolve()
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            here = Path(dirpath)
            if "results.json" in filenames and _within(here / "results.json", inside):
                rel = here.relative_to(root).as_posix()
                name = rel if rel != "." else root.name or "tournament"
                catalog.tournaments[f"{prefix}/{name}" if prefix and rel != "." else prefix or name] = here
            for name in sorted(filenames):
                if name.endswith((".jsonl", ".log", RESULT_SUFFIX)) and (here / name).is_file() and _within(here / name, inside):
                    _add_file(catalog, here / name, root, prefix)  # (a pipe named x.log held the view for ever)
    return catalog


def _within(path: Path, folder: Path) -> bool:
    """``path`` is in ``folder`` once symbolic links are followed: a link x.log to /etc/passwd in a
    shared folder of logs was served, the page quoting the file's first line to whoever could reach it."""
    try:
        return path.resolve().is_relative_to(folder)
    except (OSError, RuntimeError):  # a loop of links
        return False


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


def game_named(name: str | None, beside: Path | None = None) -> GameDef | None:
    """The game a log names, or None when it names none that resolves: a file of that name in the
    folder ``beside`` (the log's: an imported match's ``m.game``, which was looked for in the folder
    the view was started from, 'unknown game', though the page said to keep it beside the log), a
    catalog name, or a path."""
    if not name:
        return None
    from showdown.games.catalog import get_game

    if beside is not None and (beside / name).is_file():
        try:
            return get_game(str(beside / name))
        except ShowdownError:
            pass

    try:
        return get_game(name)
    except ShowdownError:
        return None

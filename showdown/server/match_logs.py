"""A served match's log files: opened (or resumed), one whole hand appended at a time, closed by the score.

- ``<match>.log``: the reference format: ``# name/game/hands/seed ...`` and ``#--t_*`` header lines,
  one STATE line per hand, then the SCORE line. Unlike the reference, the ``SCORE`` line is also
  written when the match is aborted or stopped (it then covers the hands played).
- ``<match>.jsonl``: one ``HandRecord`` per hand (its ``events`` list what was replaced, repaired or
  ignored), then one summary record (``protocol.logfile.MatchSummary``: ``summary`` true, then
  ``match``, ``game``, ``seed``, ``hands``, ``hands_played``, ``aborted``, ``reason``, ``names``,
  ``totals`` by seat, ``replacements`` by name with every key of ``protocol.events.COUNT_KINDS``).
  Readers of hand records skip it (``protocol.logfile.is_summary_line``).
- ``<match>.game``: only when the game's label is neither a catalog name nor a readable path, so
  that ``showdown verify-log`` can find the game next to the log.

Each file is written unbuffered, a hand at a time, so a killed dealer loses no finished hand. A
write that fails (a full disk) takes back what it wrote of that hand in either file and sets
``error``: both files keep only complete hands, and ``--resume`` continues from them.
"""

from __future__ import annotations

import errno
import os
from dataclasses import replace
from pathlib import Path
from typing import IO

from showdown.errors import GameDefError, LogExistsError, ShowdownError
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef, format_gamedef
from showdown.protocol.logfile import LogHeader, MatchSummary
from showdown.server.locks import hold
from showdown.server.outputs import HandFinished
from showdown.server.resume import ResumePoint, resume_point, truncate

__all__ = ["MatchLogs", "append_all"]


class MatchLogs:
    """The ``.log`` and ``.jsonl`` of match ``header.match`` (``header.game``: the game's label, which
    ``open`` may change to a ``<match>.game`` file it writes)."""

    def __init__(self, header: LogHeader, game: GameDef, names: tuple[str, ...]) -> None:
        self.header = header
        self.game = game
        self.names = names
        self.log_path: Path | None = None
        self.jsonl_path: Path | None = None
        self.error: str | None = None  # the write that failed (a full disk), once one has
        self._log: IO[bytes] | None = None
        self._jsonl: IO[bytes] | None = None
        self._ends: list[int] | None = None  # byte lengths of the .log and .jsonl, once writing hands

    def open(self, log_dir: Path, *, force: bool = False, resume: bool = False) -> ResumePoint | None:
        """Create the logs in ``log_dir`` (refusing to overwrite a match's logs unless ``force``), or
        with ``resume`` continue those of a killed match: then where it continues."""
        log_path = log_dir / f"{self.header.match}.log"
        jsonl_path = log_dir / f"{self.header.match}.jsonl"
        if resume and log_path.exists():
            return self._resume(log_dir, log_path, jsonl_path)
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
            for path in (log_path, jsonl_path):
                if not force and path.exists():
                    raise FileExistsError(path)
            self._ensure_game_file(log_dir)
            # one write per hand, nothing held back; an existing log (--force) is cut only once it is ours
            self._log = log = open(log_path, "ab" if force else "xb", buffering=0)
            _hold(log, log_path)
            if force:
                log.truncate(0)
                log.seek(0)
            self._jsonl = open(jsonl_path, "wb" if force else "xb", buffering=0)
            self.log_path, self.jsonl_path = log_path, jsonl_path
            append_all(log, self._header_bytes())
        except FileExistsError as exc:
            self.close()
            if exc.errno is not None:  # from mkdir: a file where a folder should be, not the logs
                raise ShowdownError(f"cannot write the match logs in {log_dir}: {exc.filename} is a file") from None
            raise LogExistsError(str(exc.args[0] if exc.args else log_path)) from None
        except OSError as exc:
            self.close()
            raise ShowdownError(f"cannot write the match logs in {log_dir}: {exc.strerror or exc}") from None
        return None

    def _resume(self, log_dir: Path, log_path: Path, jsonl_path: Path) -> ResumePoint:
        """Continue a killed match: its logs say which hands are finished (see ``server.resume``)."""
        try:
            self._log = log = open(log_path, "ab", buffering=0)
            _hold(log, log_path)  # before anything is read or cut: another dealer may still be writing them
            self._ensure_game_file(log_dir)
            point = resume_point(log_path, jsonl_path, self.header, self.names)
            truncate(log_path, point.log_size)
            log.seek(0, os.SEEK_END)
            if jsonl_path.exists():
                truncate(jsonl_path, point.jsonl_size)
            self._jsonl = open(jsonl_path, "ab", buffering=0)
            self.log_path, self.jsonl_path = log_path, jsonl_path
            if point.hands == 0 and point.log_size == 0:
                append_all(self._log, self._header_bytes())
        except ShowdownError:
            self.close()
            raise
        except OSError as exc:
            self.close()
            raise ShowdownError(f"cannot resume from the logs in {log_dir}: {exc.strerror or exc}") from None
        return point

    def _header_bytes(self) -> bytes:
        return ("\n".join(self.header.lines()) + "\n").encode()

    def _ensure_game_file(self, log_dir: Path) -> None:
        """Make the header's game resolvable: write ``<match>.game`` when the label is not."""
        label = self.header.game
        if label:
            if (log_dir / label).is_file():
                return
            try:
                if get_game(label) == self.game:
                    return
            except GameDefError:
                pass
        name = f"{self.header.match}.game"
        (log_dir / name).write_text(format_gamedef(self.game), encoding="utf-8")
        self.header = replace(self.header, game=name)

    def write_hand(self, hand: HandFinished) -> bool:
        """Append the hand to both logs (when open); False when a write fails (a full disk): what it
        wrote of that hand in either file is taken back, so both keep only complete hands."""
        if self.error is not None:
            return False
        log, jsonl = self._log, self._jsonl
        if log is None or jsonl is None:
            return True
        if self._ends is None:  # where each file ends, kept here: no seek per hand
            self._ends = [log.tell(), jsonl.tell()]
        ends = self._ends
        line = (hand.state_line + "\n").encode()
        record = (hand.json + "\n").encode()
        try:
            append_all(log, line, ends[0])
            append_all(jsonl, record, ends[1])
        except OSError as exc:
            try:
                log.truncate(ends[0])
            except OSError:
                pass
            self.failed(exc, f"cannot write hand {hand.hand} to the logs")
            return False
        ends[0] += len(line)
        ends[1] += len(record)
        return True

    def write_end(self, score_line: str, summary: MatchSummary) -> None:
        """The SCORE line and the summary record, then close (a failed write sets ``error``)."""
        try:
            if self._log is not None:
                append_all(self._log, (score_line + "\n").encode())
                self._log.close()
                self._log = None
            if self._jsonl is not None:
                append_all(self._jsonl, (summary.to_json() + "\n").encode())
                self._jsonl.close()
                self._jsonl = None
        except OSError as exc:
            self.failed(exc, "cannot write the SCORE line and the summary record after every hand")

    def failed(self, exc: OSError, what: str) -> None:
        """A write failed: say which and why in ``error`` (the first one only), and close the files."""
        where = self.log_path.parent if self.log_path is not None else "the log folder"
        why = "the disk is full" if exc.errno in (errno.ENOSPC, errno.EDQUOT) else (exc.strerror or str(exc))
        if self.error is None:
            self.error = f"{what} in {where}: {why}"
        self.close()

    def discard(self) -> None:
        """Remove the logs (a match that never dealt a hand leaves nothing that looks like one)."""
        self.close()
        for path in (self.log_path, self.jsonl_path):
            if path is not None:
                path.unlink(missing_ok=True)
        self.log_path = self.jsonl_path = None

    def close(self) -> None:
        for f in (self._log, self._jsonl):
            if f is not None:
                try:
                    f.close()
                except OSError:
                    pass
        self._log = self._jsonl = None


def _hold(log: IO[bytes], path: Path) -> None:
    """Take the match's ``.log`` for this process alone (an advisory lock, released when it closes or the
    process dies): a ``--resume`` (or ``--force``) started while the match still ran in another
    process cut the logs under it, and both wrote on: the log filled with NUL bytes, each exit 0."""
    if not hold(log):
        raise ShowdownError(f"{path} is being written by a match still running (another dealer holds it): let it "
                            "finish, or stop it first (Ctrl-C, or kill its process), then resume")


def append_all(f: IO[bytes], data: bytes, start: int | None = None) -> None:
    """Write all of ``data`` at the end of ``f`` (which is at ``start``, when known) or nothing: after
    a short write the rest is tried, so the error is the system's own (a full disk, a file-size
    limit), and what was written of ``data`` is taken back."""
    if start is None:
        start = f.tell()
    try:
        written = f.write(data) or 0
        while written < len(data):  # a short write: the next one says why (or goes on)
            more = f.write(memoryview(data)[written:])
            if not more:
                raise OSError(errno.ENOSPC, "No space left on device")
            written += more
    except OSError:
        f.truncate(start)
        raise

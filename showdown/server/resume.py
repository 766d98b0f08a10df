"""Crash resume: continue a killed match from its own logs.

The reference dealer resumes from a transaction log (``.tlog``, flags ``-a -t -T``). Ours needs no
extra file: every hand is written to both logs, whole, before any seat is told how it ended (see
``MatchServer._handle``), so the logs themselves say which hands are finished. ``resume_point``
reads them, checks that they belong to the match being restarted (same name, game, hand count,
seed, players), drops what a crash can leave at the end (a torn last line, a hand in one log and
not yet in the other) or what a stop wrote (the SCORE line and summary of a match stopped before
its last hand), and says where to continue: the first unfinished hand, with the running totals.
The dealer then deals from there with the same cards it would have dealt, so a match killed and
resumed ends with logs identical to those of a match never killed, as long as each agent's play
depends only on its seed, the hand number and what it sees in that hand (every built-in agent
draws its randomness per hand: ``showdown.agents.base.hand_rng``). Unlike the reference, no
second header is appended.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from showdown.errors import ProtocolError, ShowdownError
from showdown.protocol.lines import lines_start, log_lines
from showdown.protocol.logfile import HandRecord, LoggedHand, LogHeader, Score, read_records

__all__ = ["ResumePoint", "resume_point", "truncate"]


@dataclass
class ResumePoint:
    """Where a killed match continues: ``hands`` finished (hand numbers 0..hands-1), the chips each
    name has won, the dealer's replacement counts recorded in those hands, and the byte lengths the
    two logs keep."""

    hands: int
    totals: dict[str, float]
    counts: dict[int, dict[str, int]] = field(default_factory=dict)
    log_size: int = 0
    jsonl_size: int = 0


def resume_point(log_path: Path, jsonl_path: Path, header: LogHeader, names: tuple[str, ...]) -> ResumePoint:
    """Read the logs of a killed or stopped match and say where to continue (``ShowdownError`` if
    they are not this match's, or if it played all its hands). A match stopped early (Ctrl-C, an
    abort) ends with its SCORE line and summary record: they are cut, and it continues. Both logs
    are read a line at a time (``protocol.lines``): memory stays flat however long they are."""
    scan = _scan_log(log_path, header, names)
    if scan.hands >= header.hands and scan.scored:  # (every hand but no SCORE line: killed as it ended; it ends now)
        raise ShowdownError(f"{log_path}: this match already finished ({scan.hands} of {header.hands} hands): nothing to resume")
    if not jsonl_path.exists():  # (a reference dealer's log, or a .jsonl removed: resuming would cut every hand)
        raise ShowdownError(f"cannot resume from {log_path} alone: its {jsonl_path.name} is missing, and a match resumes "
                            "from both its logs (a reference dealer's log cannot be continued): start it under another "
                            "name, or with --force to replace it")
    finished, counts, jsonl_size = _recorded_hands(jsonl_path, scan.hands)
    # a hand in the .log but not yet in the .jsonl is played again (the usual crash: one hand); what
    # follows the last finished hand goes: a torn hand, or the SCORE line of a stopped match. Further
    # apart, the two files are not of one run (a crash leaves them one hand apart at most): nothing is cut
    if finished == scan.hands - 1 and scan.before is not None:
        scan = scan.before
    elif finished < scan.hands:
        raise ShowdownError(f"cannot resume: {jsonl_path} holds the first {finished:,} hands whole and {log_path} "
                            f"{scan.hands:,}; a crash leaves them one hand apart at most, so these are not one run's "
                            "logs, and resuming would cut hands from the .log: start the match under another name, or "
                            "with --force to replace both")
    return ResumePoint(finished, scan.totals, counts, scan.size, jsonl_size)


@dataclass
class _LogScan:
    """The first ``hands`` hands of a ``.log``: the chips each name won in them, the log's length up
    to the last one's STATE line (its header's, with none), and the same one hand earlier."""

    hands: int
    totals: dict[str, float]
    size: int
    before: _LogScan | None = None
    scored: bool = False  # a whole SCORE line follows them


def _complete_lines(f: IO[bytes], source: str, size: list[int]) -> Iterator[str]:
    """The file's lines decoded (a last line without its end, torn, is left out), ``size[0]`` the
    bytes read up to the end of the last one given, ``size[1]`` those of its leading '#' lines."""
    header = True
    start = lines_start(f)  # past a byte order mark (an editor's): the cut fell 3 bytes short, into the last hand kept
    f.seek(start)
    size[0] += start
    for _, raw in log_lines(f, source):
        if not raw.endswith(b"\n"):
            return
        size[0] += len(raw)
        header = header and raw.startswith(b"#")
        if header:
            size[1] = size[0]
        yield raw.decode("utf-8")


def _scan_log(log_path: Path, header: LogHeader, names: tuple[str, ...]) -> _LogScan:
    """The ``.log``'s hands in order, checked to be this match's; a SCORE
    line ends the reading (a stopped match's, which is cut)."""
    first: LogHeader | None = None
    size = [0, 0]
    scan = _LogScan(0, dict.fromkeys(names, 0.0), 0)
    try:
        with log_path.open("rb") as f:
            lines = _complete_lines(f, str(log_path), size)
            for _, record in read_records(lines, source=str(log_path)):
                if isinstance(record, LogHeader):
                    if first is None:
                        first = record
                        _check_header(log_path, first, header)
                        scan.size = size[1]
                elif isinstance(record, LoggedHand):
                    _check_hand(log_path, record, scan.hands, names)
                    totals = dict(scan.totals)
                    for name, value in zip(record.names, record.values):
                        totals[name] += value
                    scan = _LogScan(scan.hands + 1, totals, size[0], _LogScan(scan.hands, scan.totals, scan.size))
                else:
                    scan.scored = isinstance(record, Score)
                    break
    except (ProtocolError, UnicodeDecodeError) as exc:
        raise ShowdownError(f"{log_path}: cannot resume from a damaged log: {exc}") from None
    except OSError as exc:
        raise ShowdownError(f"cannot read {log_path}: {exc.strerror or exc}") from None
    if first is None:
        raise ShowdownError(f"{log_path}: no header line: not the log of a match, cannot resume from it")
    return scan


def _check_header(log_path: Path, got: LogHeader, header: LogHeader) -> None:
    """The log is this match's (same name, game, hands and seed)."""
    want = (header.match, header.game, header.hands, header.seed)
    if (got.match, got.game, got.hands, got.seed) != want:
        raise ShowdownError(
            f"{log_path} is the log of another match ({got.match} {got.game} {got.hands} hands seed {got.seed}); "
            f"this one is {header.match} {header.game} {header.hands} hands seed {header.seed}: "
            "resume with the same command it was started with"
        )


def _check_hand(log_path: Path, hand: LoggedHand, number: int, names: tuple[str, ...]) -> None:
    if hand.hand != number:
        raise ShowdownError(f"{log_path}: hand {hand.hand} follows hand {number - 1}: cannot resume from this log")
    if set(hand.names) != set(names):
        raise ShowdownError(f"{log_path}: hand {hand.hand} was played by {'|'.join(hand.names)}, not {'|'.join(names)}")


def _recorded_hands(jsonl_path: Path, hands: int) -> tuple[int, dict[int, dict[str, int]], int]:
    """How many whole hand records start the ``.jsonl`` (at most ``hands``, numbered from 0 with no
    gap), the dealer's replacement counts in them, and the byte length up to the last one's end. A
    summary, a damaged or an unexpected record ends them: what follows is cut."""
    finished = 0
    counts: dict[int, dict[str, int]] = {}
    size = [0, 0]
    end = 0
    try:
        with jsonl_path.open("rb") as f:
            for _, record in read_records(_complete_lines(f, str(jsonl_path), size), source=str(jsonl_path), jsonl=True):
                if finished == hands or not isinstance(record, HandRecord) or record.hand != finished:
                    break
                finished += 1
                end = size[0]
                for event in record.events:
                    if event.seat >= 0:
                        by_kind = counts.setdefault(event.seat, {})
                        by_kind[event.kind] = by_kind.get(event.kind, 0) + 1
    except (FileNotFoundError, ProtocolError, UnicodeDecodeError):
        pass
    except OSError as exc:
        raise ShowdownError(f"cannot read {jsonl_path}: {exc.strerror or exc}") from None
    return finished, counts, end


def truncate(path: Path, size: int) -> None:
    """Cut ``path`` back to ``size`` bytes (what a crash left after the last finished hand)."""
    with open(path, "r+b") as f:
        f.truncate(size)
        f.flush()
        os.fsync(f.fileno())

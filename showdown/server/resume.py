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
from itertools import accumulate
from pathlib import Path

from showdown.errors import ProtocolError, ShowdownError
from showdown.protocol.logfile import HandRecord, LoggedHand, LogHeader, read_records

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


def _complete_lines(path: Path) -> list[bytes]:
    """The file's lines with their line ends; a last line without one (torn) is left out."""
    data = path.read_bytes()
    lines = data.split(b"\n")
    lines.pop()  # b"" after a final line end, or the torn remainder
    return [line + b"\n" for line in lines]


def resume_point(log_path: Path, jsonl_path: Path, header: LogHeader, names: tuple[str, ...]) -> ResumePoint:
    """Read the logs of a killed or stopped match and say where to continue (``ShowdownError`` if
    they are not this match's, or if it played all its hands). A match stopped early (Ctrl-C, an
    abort) ends with its SCORE line and summary record: they are cut, and it continues."""
    log_lines = _complete_lines(log_path)
    logged, state_ends = _logged_hands(log_path, log_lines, header, names)
    if len(logged) >= header.hands:
        raise ShowdownError(f"{log_path}: this match already finished ({len(logged)} of {header.hands} hands): nothing to resume")
    records, record_ends = _recorded_hands(jsonl_path, len(logged))
    finished = len(records)  # a hand in the .log but not yet in the .jsonl is played again
    # what follows the last finished hand goes: a torn hand, or the SCORE line of a stopped match
    log_size = state_ends[finished - 1] if finished else _header_size(log_lines)
    totals = dict.fromkeys(names, 0.0)
    for hand in logged[:finished]:
        for name, value in zip(hand.names, hand.values):
            totals[name] += value
    counts: dict[int, dict[str, int]] = {}
    for record in records:
        for event in record.events:
            if event.seat >= 0:
                by_kind = counts.setdefault(event.seat, {})
                by_kind[event.kind] = by_kind.get(event.kind, 0) + 1
    jsonl_size = record_ends[finished - 1] if finished else 0
    return ResumePoint(finished, totals, counts, log_size, jsonl_size)


def _decoded(lines: list[bytes]) -> Iterator[str]:
    for line in lines:
        yield line.decode("utf-8")


def _logged_hands(
    log_path: Path, lines: list[bytes], header: LogHeader, names: tuple[str, ...]
) -> tuple[list[LoggedHand], list[int]]:
    """The ``.log``'s hands in order, checked to be this match's, and the byte length of the log up
    to each one's STATE line (a SCORE line ends the reading: a stopped match's, which is cut)."""
    ends = list(accumulate(len(line) for line in lines))
    hands: list[LoggedHand] = []
    hand_ends: list[int] = []
    first: LogHeader | None = None
    try:
        for number, record in read_records(_decoded(lines), source=str(log_path)):
            if isinstance(record, LogHeader):
                if first is None:
                    first = record
                    _check_header(log_path, first, header)
            elif isinstance(record, LoggedHand):
                _check_hand(log_path, record, len(hands), names)
                hands.append(record)
                hand_ends.append(ends[number - 1])
            else:
                break
    except (ProtocolError, UnicodeDecodeError) as exc:
        raise ShowdownError(f"{log_path}: cannot resume from a damaged log: {exc}") from None
    if first is None:
        raise ShowdownError(f"{log_path}: no header line: not the log of a match, cannot resume from it")
    return hands, hand_ends


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


def _recorded_hands(jsonl_path: Path, hands: int) -> tuple[list[HandRecord], list[int]]:
    """The whole hand records at the start of the ``.jsonl`` (at most ``hands``, numbered from 0 with
    no gap), and the byte length up to each one's end. A summary, a damaged or an unexpected record
    ends them: what follows is cut."""
    records: list[HandRecord] = []
    if not jsonl_path.exists():
        return records, []
    lines = _complete_lines(jsonl_path)
    ends = list(accumulate(len(line) for line in lines))
    record_ends: list[int] = []
    try:
        for number, record in read_records(_decoded(lines), source=str(jsonl_path), jsonl=True):
            if len(records) == hands or not isinstance(record, HandRecord) or record.hand != len(records):
                break
            records.append(record)
            record_ends.append(ends[number - 1])
    except (ProtocolError, UnicodeDecodeError):
        pass
    return records, record_ends


def _header_size(lines: list[bytes]) -> int:
    size = 0
    for line in lines:
        if not line.startswith(b"#"):
            break
        size += len(line)
    return size


def truncate(path: Path, size: int) -> None:
    """Cut ``path`` back to ``size`` bytes (what a crash left after the last finished hand)."""
    with open(path, "r+b") as f:
        f.truncate(size)
        f.flush()
        os.fsync(f.fileno())

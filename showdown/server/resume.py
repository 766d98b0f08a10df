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

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from showdown.errors import ProtocolError, ShowdownError
from showdown.protocol.logfile import STATE_PREFIX_BYTES, LogHeader, is_summary_record, parse_header_line, parse_state_line

__all__ = ["ResumePoint", "resume_point"]


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
    _check_header(log_path, log_lines, header)
    state_ends = _state_line_ends(log_path, log_lines, names)
    hands = len(state_ends)
    if hands >= header.hands:
        raise ShowdownError(f"{log_path}: this match already finished ({hands} of {header.hands} hands): nothing to resume")
    records, counts = _jsonl_records(jsonl_path, hands)
    finished = min(hands, len(records))  # a hand in the .log but not yet in the .jsonl is played again
    # what follows the last finished hand goes: a torn hand, or the SCORE line of a stopped match
    log_size = state_ends[finished - 1] if finished else _header_size(log_lines)
    totals = _totals(log_lines, names, finished) if finished else dict.fromkeys(names, 0.0)
    jsonl_size = records[finished - 1] if finished else 0
    return ResumePoint(finished, totals, counts, log_size, jsonl_size)


def _check_header(log_path: Path, log_lines: list[bytes], header: LogHeader) -> None:
    """The log is this match's (same name, game, hands and seed)."""
    headers = [h for h in (parse_header_line(x.decode("utf-8", "replace")) for x in log_lines if x.startswith(b"#")) if h]
    if not headers:
        raise ShowdownError(f"{log_path}: no header line: not the log of a match, cannot resume from it")
    got = headers[0]
    want = (header.match, header.game, header.hands, header.seed)
    if (got.match, got.game, got.hands, got.seed) != want:
        raise ShowdownError(
            f"{log_path} is the log of another match ({got.match} {got.game} {got.hands} hands seed {got.seed}); "
            f"this one is {header.match} {header.game} {header.hands} hands seed {header.seed}: "
            "resume with the same command it was started with"
        )


def _state_line_ends(log_path: Path, log_lines: list[bytes], names: tuple[str, ...]) -> list[int]:
    """For each hand of the ``.log`` in order, the byte length of the log up to its STATE line's end."""
    size = 0
    ends: list[int] = []
    for line in log_lines:
        size += len(line)
        if not line.startswith(STATE_PREFIX_BYTES):
            continue
        try:
            hand = parse_state_line(line.decode("utf-8").rstrip("\r\n"))
        except (ProtocolError, UnicodeDecodeError) as exc:
            raise ShowdownError(f"{log_path}: cannot resume from a damaged log: {exc}") from None
        if hand.hand != len(ends):
            raise ShowdownError(f"{log_path}: hand {hand.hand} follows hand {len(ends) - 1}: cannot resume from this log")
        if set(hand.names) != set(names):
            raise ShowdownError(f"{log_path}: hand {hand.hand} was played by {'|'.join(hand.names)}, not {'|'.join(names)}")
        ends.append(size)
    return ends


def _jsonl_records(jsonl_path: Path, hands: int) -> tuple[list[int], dict[int, dict[str, int]]]:
    """The whole hand records at the start of the ``.jsonl`` (at most ``hands``): the byte length up
    to each one's end, and the dealer's events counted by seat and kind."""
    ends: list[int] = []
    size = 0
    counts: dict[int, dict[str, int]] = {}
    if not jsonl_path.exists():
        return ends, counts
    for line in _complete_lines(jsonl_path):
        if len(ends) == hands:
            break
        try:
            record = json.loads(line)
        except ValueError:
            break
        if is_summary_record(record) or record.get("hand") != len(ends):
            break
        size += len(line)
        ends.append(size)
        for event in record.get("events") or ():
            seat, kind = event.get("seat"), event.get("kind")
            if isinstance(seat, int) and isinstance(kind, str) and seat >= 0:
                by_kind = counts.setdefault(seat, {})
                by_kind[kind] = by_kind.get(kind, 0) + 1
    return ends, counts


def _header_size(lines: list[bytes]) -> int:
    size = 0
    for line in lines:
        if not line.startswith(b"#"):
            break
        size += len(line)
    return size


def _totals(lines: list[bytes], names: tuple[str, ...], hands: int) -> dict[str, float]:
    totals = dict.fromkeys(names, 0.0)
    seen = 0
    for line in lines:
        if seen == hands:
            break
        if line.startswith(STATE_PREFIX_BYTES):
            hand = parse_state_line(line.decode("utf-8").rstrip("\r\n"))
            for name, value in zip(hand.names, hand.values):
                totals[name] += value
            seen += 1
    return totals


def truncate(path: Path, size: int) -> None:
    """Cut ``path`` back to ``size`` bytes (what a crash left after the last finished hand)."""
    with open(path, "r+b") as f:
        f.truncate(size)
        f.flush()
        os.fsync(f.fileno())

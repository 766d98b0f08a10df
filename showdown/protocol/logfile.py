"""ACPC ``.log`` lines (header, ``STATE:``, ``SCORE:``) and our JSON Lines hand records.

``STATE:<hand>:<betting>:<all hole cards by position><board groups>:<values>:<names>``, values and
names in position order; ``SCORE:<totals by seat>:<names by seat>`` (docs/protocol.md section 5). Pure:
these functions turn values into lines and back; files are opened elsewhere.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from math import isfinite as _isfinite
from typing import Any

from showdown.errors import CardError, ProtocolError
from showdown.games.cards import Card, format_cards, parse_cards
from showdown.games.state import Action, State, format_betting, parse_betting
from showdown.protocol.events import HandEvent
from showdown.protocol.matchstate import format_cards_field, parse_cards_field

_NAME = re.compile(r"[^:|\s]+")


def format_value(value: float) -> str:
    """A chip value as the reference prints it: ``%.6f`` without trailing zeros or dot."""
    if value.__class__ is float and value.is_integer():  # whole chips, nearly always: the same text
        return str(int(value))
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def score_tolerance(hands: int, scores: int = 1) -> float:
    """How far SCORE totals may be from the sum of their hands' values as logged: every value and every
    total is printed rounded to six decimals, half a millionth off at most each (two hands of a third,
    0.333333 twice, add up to 0.666666 where the SCORE line says 0.666667)."""
    return 5e-7 * (hands + scores) + 1e-9


def parse_value(text: str) -> float:
    """A chip value; ``nan`` and ``inf`` are refused (no dealer writes them, and one would poison
    every total and statistic read from the log)."""
    try:
        value = float(text)
    except ValueError:
        value = _NAN
    if not _isfinite(value) or abs(value) > MAX_VALUE:
        raise ProtocolError(f"bad value {text[:40]!r}: expected a finite number like -100 or 2.5, "
                            f"at most {MAX_VALUE:.0e} in size")
    return value


MAX_VALUE = 1e18
"""The largest chip value (a hand's or a match's total) a log may hold: a hand moves at most 10
stacks of 2^31 chips, 2e10; a value of 1e308 is finite, but every mean and interval built on it is not."""


_NAN = float("nan")
MAX_DIGITS = 18
"""Digits at most in a hand number, a hand count or a seed read from a log (no match comes near;
Python's ``int`` of a very long digit string is slow, then refused)."""


MAX_HANDS = 2**32 - 1
"""The most hands a match may have: the reference dealer reads the count as a 32-bit unsigned number,
and a log whose header asks for more could not be verified or resumed (``MAX_DIGITS``)."""


def parse_count(text: str, what: str) -> int:
    """A non-negative whole number of at most ``MAX_DIGITS`` ASCII digits (hand numbers, seeds)."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_DIGITS:
        raise ProtocolError(f"bad {what} {text[:40]!r}: expected a whole number of at most {MAX_DIGITS} digits")
    return int(text)


def finite(value: Any, what: str = "value") -> float:
    """``value`` as a float, refusing what is not a finite number (JSON allows NaN and Infinity)."""
    number = float(value)
    if not _isfinite(number) or abs(number) > MAX_VALUE:
        raise ValueError(f"{what} {value!r} is not a finite number of at most {MAX_VALUE:.0e} in size")
    return number


def check_name(name: str) -> str:
    """Player names go into ``:``/``|``-separated lines: refuse those characters and spaces."""
    if not _NAME.fullmatch(name):
        raise ProtocolError(f"bad player name {name!r}: use letters, digits, '-', '_' or '.' (no ':', '|' or spaces)")
    return name


@dataclass(frozen=True, slots=True)
class LoggedHand:
    """One ``STATE:`` line: a finished hand seen omnisciently."""

    hand: int
    betting: tuple[tuple[Action, ...], ...]
    hole: tuple[tuple[Card, ...], ...]
    board: tuple[tuple[Card, ...], ...]
    values: tuple[float, ...]
    names: tuple[str, ...]

    @property
    def betting_text(self) -> str:
        return format_betting(self.betting)

    @property
    def board_cards(self) -> tuple[Card, ...]:
        return tuple(c for g in self.board for c in g)

    @classmethod
    def from_state(cls, hand: int, state: State, names_by_position: Sequence[str]) -> LoggedHand:
        return cls(
            hand,
            state.actions,
            state.hole,
            state.board_by_round(),
            state.payoffs(),
            tuple(names_by_position),
        )


def format_state_line(h: LoggedHand) -> str:
    values = "|".join(format_value(v) for v in h.values)
    return f"STATE:{h.hand}:{h.betting_text}:{format_cards_field(h.hole, h.board)}:{values}:{'|'.join(h.names)}"


STATE_PREFIX = "STATE:"
STATE_PREFIX_BYTES = STATE_PREFIX.encode()
_SCORE_PREFIX_BYTES = b"SCORE:"


def state_line_text(hand: int, betting: str, hole_texts: Sequence[str], board_text: str, values_text: str, names: Sequence[str]) -> str:
    """The STATE line from texts the dealer already has (its per-hand fast path); equal to
    ``format_state_line`` of the same hand (tests check)."""
    return f"{STATE_PREFIX}{hand}:{betting}:{'|'.join(hole_texts)}{board_text}:{values_text}:{'|'.join(names)}"


def parse_state_line(line: str) -> LoggedHand:
    line = line.rstrip()  # (a line end, and the spaces an editor may leave: no field ends in one)
    parts = line.split(":")
    if len(parts) != 6 or parts[0] != "STATE" or not parts[1].isdigit():
        raise ProtocolError(
            f"bad log line {line[:80]!r}: expected STATE:<hand>:<betting>:<cards>:<values>:<names>"
        )
    try:
        hand = parse_count(parts[1], "hand number")
        betting = parse_betting(parts[2])
        hole, board = parse_cards_field(parts[3], len(betting))
        values = tuple(parse_value(v) for v in parts[4].split("|"))
    except (ProtocolError, CardError) as exc:
        raise ProtocolError(f"bad log line {line[:80]!r}: {exc}") from None
    names = tuple(parts[5].split("|"))
    if not (len(hole) == len(values) == len(names)):
        raise ProtocolError(f"bad log line {line[:80]!r}: cards, values and names disagree on the number of players")
    return LoggedHand(hand, betting, hole, board, values, names)


@dataclass(frozen=True, slots=True)
class Score:
    """The ``SCORE:`` line: totals and names in seat order."""

    totals: tuple[float, ...]
    names: tuple[str, ...]


SCORE_PREFIX = "SCORE:"
"""How the ``.log`` line with the match's totals starts: the last line of a finished match's log."""


def is_score_line(line: str | bytes) -> bool:
    """Whether a ``.log`` line is the SCORE line (by how it starts: no parse)."""
    if isinstance(line, str):
        return line.startswith(SCORE_PREFIX)
    return line.startswith(_SCORE_PREFIX_BYTES)


def format_score_line(score: Score) -> str:
    return f"{SCORE_PREFIX}{'|'.join(format_value(v) for v in score.totals)}:{'|'.join(score.names)}"


def parse_score_line(line: str) -> Score:
    parts = line.rstrip().split(":")
    if len(parts) != 3 or not line.startswith(SCORE_PREFIX):
        raise ProtocolError(f"bad log line {line[:80]!r}: expected SCORE:<totals>:<names>")
    totals = tuple(parse_value(v) for v in parts[1].split("|"))
    names = tuple(parts[2].split("|"))
    if len(totals) != len(names):
        raise ProtocolError(f"bad log line {line[:80]!r}: {len(totals)} totals for {len(names)} names")
    return Score(totals, names)


@dataclass(frozen=True, slots=True)
class LogHeader:
    """``# name/game/hands/seed <match> <game file> <hands> <seed>`` and the timeout lines."""

    match: str
    game: str
    hands: int
    seed: int
    t_response: int = 600000
    t_hand: int = 600000
    t_per_hand: int = 7000

    def lines(self) -> list[str]:
        return [
            f"# name/game/hands/seed {self.match} {self.game} {self.hands} {self.seed}",
            f"#--t_response {self.t_response}",
            f"#--t_hand {self.t_hand}",
            f"#--t_per_hand {self.t_per_hand}",
        ]


_TIMEOUT_KEYS = ("t_response", "t_hand", "t_per_hand")
_HEADER = re.compile(r"# name/game/hands/seed (\S+) (.+?) (\d+) (\d+)\s*", re.ASCII)
"""The header's first line: the game is all between the match's name (no spaces) and the last two
numbers, so that a game file's path may hold spaces."""


def parse_header_line(line: str) -> LogHeader | None:
    """The header's first line, or None if ``line`` is not one (``ProtocolError`` for a count or
    seed too long to be real)."""
    m = _HEADER.fullmatch(line.rstrip("\r\n"))
    if not m:
        return None
    return LogHeader(m.group(1), m.group(2), parse_count(m.group(3), "hand count"), parse_count(m.group(4), "seed"))


@dataclass(frozen=True, slots=True)
class LogFile:
    """A whole ``.log`` file: headers (a resumed match has several), hands, and the score if any."""

    headers: tuple[LogHeader, ...]
    hands: tuple[LoggedHand, ...]
    score: Score | None


def parse_log(lines: Iterable[str], source: str = "<log>") -> LogFile:
    """Read a whole reference-format log; errors name ``source`` and the line number."""
    headers: list[LogHeader] = []
    hands: list[LoggedHand] = []
    score: Score | None = None
    for _, record in read_records(lines, source=source):
        if isinstance(record, LoggedHand):
            hands.append(record)
        elif isinstance(record, Score):
            score = record
        elif isinstance(record, LogHeader):
            headers.append(record)
    return LogFile(tuple(headers), tuple(hands), score)


# ---------------------------------------------------------------------------------- JSON Lines


_COMPACT = json.JSONEncoder(separators=(",", ":"))  # made once: json.dumps with options makes one per call
_json_str = json.encoder.encode_basestring_ascii  # a JSON string literal, escaped as json.dumps does
_cards_json_memo: dict[tuple[Card, ...], str] = {}


def _cards_json(cards: tuple[Card, ...]) -> str:
    """``"AsKd"`` with its quotes; memoised (decks are small, so the memo stays small)."""
    text = _cards_json_memo.get(cards)
    if text is None:
        text = _json_str(format_cards(cards))
        if len(_cards_json_memo) < 1 << 16:
            _cards_json_memo[cards] = text
    return text


_table_json_memo: dict[tuple[str, tuple[str, ...], tuple[int, ...]], str] = {}


def _table_json(game: str, players: tuple[str, ...], seats: tuple[int, ...]) -> str:
    """``"game":...,"players":[...],"seats":[...]``: the same few texts all match long, so memoised."""
    key = (game, players, seats)
    text = _table_json_memo.get(key)
    if text is None:
        text = (f'"game":{_json_str(game)},"players":[{",".join(map(_json_str, players))}],'
                f'"seats":[{",".join(map(str, map(int, seats)))}]')  # fmt: skip
        if len(_table_json_memo) < 1 << 10:
            _table_json_memo[key] = text
    return text


def hand_json(
    hand: int,
    game: str,
    players: tuple[str, ...],
    seats: tuple[int, ...],
    hole: tuple[tuple[Card, ...], ...],
    board: tuple[tuple[Card, ...], ...],
    betting: str,
    values: tuple[float, ...],
    events: tuple[HandEvent, ...],
) -> str:
    """A hand's JSON Lines record (``HandRecord.to_json``), from its fields: written once per hand by
    the dealer, so the usual record (no events, finite float values) is put together from pieces."""
    if events or not all(type(v) is float and _isfinite(v) for v in values):
        return _COMPACT.encode(HandRecord(hand, game, players, seats, hole, board, betting, values, events).as_dict())
    return (
        f'{{"hand":{int(hand)},{_table_json(game, players, seats)},'
        f'"hole":[{",".join(map(_cards_json, hole))}],'
        f'"board":[{",".join(map(_cards_json, board))}],'
        f'"betting":{_json_str(betting)},'
        f'"values":[{",".join(map(float.__repr__, values))}],"events":[]}}'
    )


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One finished hand for the JSON Lines log: richer than the STATE line.

    ``players`` and ``seats`` are by position (the name and seat index of whoever sat there);
    ``board`` has one group per round reached; ``events`` lists what the dealer replaced or
    repaired in this hand (timeouts, disconnects, illegal actions), empty when nothing happened.
    """

    hand: int
    game: str
    players: tuple[str, ...]
    seats: tuple[int, ...]
    hole: tuple[tuple[Card, ...], ...]
    board: tuple[tuple[Card, ...], ...]
    betting: str
    values: tuple[float, ...]
    events: tuple[HandEvent, ...] = field(default=())

    def to_json(self) -> str:
        """One compact JSON object, exactly what ``json`` writes for ``as_dict()`` (tests check)."""
        return hand_json(
            self.hand, self.game, self.players, self.seats, self.hole, self.board, self.betting, self.values, self.events
        )

    def as_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data (cards as text)."""
        return {
            "hand": self.hand,
            "game": self.game,
            "players": list(self.players),
            "seats": list(self.seats),
            "hole": [format_cards(h) for h in self.hole],
            "board": [format_cards(g) for g in self.board],
            "betting": self.betting,
            "values": list(self.values),
            "events": [e.as_dict() for e in self.events],
        }

    @classmethod
    def from_json(cls, text: str) -> HandRecord:
        """A hand record, its shape checked (one ``ProtocolError`` in the reader's terms otherwise): a
        record with too few values or hole cards was read and then failed deep in an analysis."""
        try:
            d = json.loads(text)
            if not isinstance(d, dict):
                raise ValueError(f"a hand record is a JSON object, not {_JSON_TYPES.get(type(d), 'that')}")
            missing = [key for key in ("hand", "game", "players", "seats", "hole", "board", "betting", "values") if key not in d]
            if missing:
                raise ValueError(f"no {', '.join(repr(k) for k in missing)} field{'s' * (len(missing) > 1)}")
            hand = d["hand"]
            if not isinstance(hand, int) or isinstance(hand, bool) or not 0 <= hand < 10**MAX_DIGITS:
                raise ValueError(f"hand number {str(hand)[:40]} is not a whole number of at most {MAX_DIGITS} digits")
            players = _strings(d, "players")
            n = len(players)
            if n < 2:
                raise ValueError(f"{n} players: a hand has two or more")
            if sorted(d["seats"]) != list(range(n)):
                raise ValueError("seats must number each player once, from 0")
            for key in ("hole", "values"):
                if not isinstance(d[key], list) or len(d[key]) != n:
                    raise ValueError(f"{key!r} has {_entries(d[key])} for {n} players")
            if not isinstance(d["betting"], str) or not isinstance(d["game"], str):
                raise ValueError("'betting' and 'game' are strings")
            record = cls(
                hand=hand,
                game=d["game"],
                players=players,
                seats=tuple(int(s) for s in d["seats"]),
                hole=tuple(parse_cards(h) for h in _strings(d, "hole")),
                board=tuple(parse_cards(g) for g in _strings(d, "board")),
                betting=d["betting"],
                values=tuple(finite(v) for v in d["values"]),
                events=tuple(HandEvent.from_dict(e) for e in d.get("events", ())),
            )
            _check_cards_and_chips(record)
            return record
        except (ValueError, KeyError, TypeError, AttributeError, OverflowError, RecursionError, CardError,
                ProtocolError) as exc:  # RecursionError: arrays nested thousands deep
            raise ProtocolError(f"bad hand record {text[:80]!r}: {exc}") from None

    def to_logged_hand(self) -> LoggedHand:
        return LoggedHand(self.hand, parse_betting(self.betting), self.hole, self.board, self.values, self.players)


_JSON_TYPES = {type(None): "null", list: "an array", str: "a string", int: "a number", float: "a number", bool: "true or false"}


def _strings(d: dict[str, Any], key: str) -> tuple[str, ...]:
    value = d[key]
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise ValueError(f"{key!r} is a list of strings")
    return tuple(value)


def _entries(value: object) -> str:
    if not isinstance(value, list):
        return f"no list ({type(value).__name__})"
    return f"{len(value)} entr{'y' if len(value) == 1 else 'ies'}"


def _check_cards_and_chips(record: HandRecord) -> None:
    """Every player holds as many cards, no card is dealt twice, and the chips won sum to zero (every
    game here is zero-sum): what a record written by a dealer always is."""
    if len({len(h) for h in record.hole}) > 1:
        raise ValueError(f"players hold different numbers of cards ({', '.join(format_cards(h) or '-' for h in record.hole)})")
    cards = [c for group in (*record.hole, *record.board) for c in group]
    if len(set(cards)) < len(cards):
        raise ValueError("a card is dealt twice")
    if abs(math.fsum(record.values)) > 1e-6 * max(1.0, max(abs(v) for v in record.values)):
        raise ValueError(f"the values {list(record.values)} do not sum to zero")


# ---------------------------------------------------------------------- the summary record

SUMMARY_PREFIX = '{"summary":true'
"""How our dealer writes the start of a ``.jsonl`` log's summary record (hand records start ``{"hand":``)."""

_SUMMARY_START = re.compile(r'\s*\{\s*"summary"\s*:\s*true\b')
_SUMMARY_LINES = re.compile(rb'(?m)^[ \t]*\{\s*"summary"\s*:\s*true\b')


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """The record after a match's last hand in its ``.jsonl`` log: ``{"summary": true, ...}``.

    ``totals``, ``names``, ``replaced_hands`` by seat name; ``replacements`` the dealer's counts per
    seat name and kind (timeouts, disconnects, illegal actions). Readers take what is there: a field
    missing from an older log is left at its default."""

    match: str = ""
    game: str = ""
    seed: int = 0
    hands: int = 0
    hands_played: int = 0
    aborted: bool = False
    reason: str | None = None
    names: tuple[str, ...] = ()
    totals: tuple[float, ...] = ()
    replacements: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    replaced_hands: Mapping[str, int] = field(default_factory=dict)

    def to_json(self) -> str:
        """One compact JSON object, ``"summary": true`` first (how readers tell it from a hand)."""
        return _COMPACT.encode({
            "summary": True, "match": self.match, "game": self.game, "seed": self.seed, "hands": self.hands,
            "hands_played": self.hands_played, "aborted": self.aborted, "reason": self.reason,
            "names": list(self.names), "totals": list(self.totals),
            "replacements": {k: dict(v) for k, v in self.replacements.items()}, "replaced_hands": dict(self.replaced_hands),
        })  # fmt: skip

    @classmethod
    def from_json(cls, text: str) -> MatchSummary:
        try:
            d = json.loads(text)
            if not isinstance(d, dict) or not is_summary_record(d):
                raise ValueError("not a summary record")
            names, totals = d.get("names", []), d.get("totals", [])
            if not isinstance(names, list) or not isinstance(totals, list) or len(names) != len(totals):
                raise ValueError("names and totals must be lists of one length")
            return cls(
                match=str(d.get("match", "")), game=str(d.get("game", "")), seed=int(d.get("seed", 0)),
                hands=int(d.get("hands", 0)), hands_played=int(d.get("hands_played", 0)), aborted=bool(d.get("aborted", False)),
                reason=None if d.get("reason") is None else str(d["reason"]),
                names=tuple(str(n) for n in names), totals=tuple(finite(t, "total") for t in totals),
                replacements={str(k): {str(a): int(b) for a, b in v.items()} for k, v in (d.get("replacements") or {}).items()},
                replaced_hands={str(k): int(v) for k, v in (d.get("replaced_hands") or {}).items()},
            )  # fmt: skip
        except (ValueError, TypeError, AttributeError, OverflowError, RecursionError) as exc:
            raise ProtocolError(f"bad summary record {text[:80]!r}: {exc}") from None

    @property
    def score(self) -> Score | None:
        """The match's totals as a ``SCORE`` line has them (None when the record names no one)."""
        return Score(self.totals, self.names) if self.names else None


def is_summary_line(line: str | bytes) -> bool:
    """Whether a ``.jsonl`` line is the summary record, by how it starts (its first key is
    ``"summary": true``; JSON spacing allowed): no parse, and a seat named ``summary``, whose hands
    mention the word, is not mistaken for it."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    return _SUMMARY_START.match(text) is not None


def is_summary_record(record: Mapping[str, Any]) -> bool:
    """Whether a parsed ``.jsonl`` record is the summary record."""
    return record.get("summary") is True


def count_summary_lines(chunk: bytes) -> int:
    """How many lines of ``chunk`` (a piece of a ``.jsonl`` log starting at a line) are summaries."""
    return len(_SUMMARY_LINES.findall(chunk))


# ---------------------------------------------------------------------- one reader for both logs

LogRecord = LogHeader | LoggedHand | Score | HandRecord | MatchSummary
"""What a log line holds: a header (with its time limits), a hand, or the match's total."""


def read_records(lines: Iterable[str], *, source: str = "<log>", jsonl: bool = False) -> Iterator[tuple[int, LogRecord]]:
    """Every record of a ``.log`` (``jsonl`` False) or ``.jsonl`` log, one line at a time, with its
    line number: memory stays flat however long the log. Blank lines and comments are skipped; a
    header comes with the time-limit lines after it; a bad line is a ``ProtocolError`` naming
    ``source`` and its number. A byte order mark before the first line is passed over. Callers open the
    file (and leave out a torn last line)."""
    read = jsonl_record if jsonl else _log_record
    header: tuple[int, LogHeader] | None = None
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip()  # the line end, and trailing spaces (they made 'Bob ' a player of its own)
        if number == 1:
            line = line.removeprefix("\ufeff")  # a byte order mark: the log saved by an editor that writes one
        try:
            if header is not None and line.startswith("#--t_"):
                header = (header[0], _with_time_limit(header[1], line))
                continue
            got = read(line)
        except ProtocolError as exc:
            raise ProtocolError(f"{source}:{number}: {exc}") from None
        if got is None:
            continue
        if header is not None:
            yield header
            header = None
        if isinstance(got, LogHeader):
            header = (number, got)
        else:
            yield number, got
    if header is not None:
        yield header


def _log_record(line: str) -> LogRecord | None:
    if line.startswith(STATE_PREFIX):
        return parse_state_line(line)
    if line.startswith(SCORE_PREFIX):
        return parse_score_line(line)
    if line.startswith("#"):
        return parse_header_line(line)
    if line.strip():
        raise ProtocolError(f"unexpected line {line[:80]!r}")
    return None


def jsonl_record(line: str) -> HandRecord | MatchSummary | None:
    """One ``.jsonl`` line, typed: a hand record, the summary record, or None for a blank line."""
    if not line.strip():
        return None
    if is_summary_line(line):
        return MatchSummary.from_json(line)
    return HandRecord.from_json(line)


def _with_time_limit(header: LogHeader, line: str) -> LogHeader:
    key, _, value = line[3:].partition(" ")
    value = value.strip()
    if key not in _TIMEOUT_KEYS or not (value.isascii() and value.isdigit()) or len(value) > MAX_DIGITS:
        return header
    limits = {"t_response": header.t_response, "t_hand": header.t_hand, "t_per_hand": header.t_per_hand}
    limits[key] = int(value)
    return LogHeader(header.match, header.game, header.hands, header.seed, **limits)

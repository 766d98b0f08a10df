"""Audit an ACPC match log: every hand's cards, betting and values, replayed from the seed.

For each ``STATE`` line the cards must be the ones the reference dealing gives that seed and hand
number, the betting must be legal at every step through the rules engine and finish the hand, and
the values must be exactly the engine's payoffs. Names must follow the seat rotation, and the
``SCORE`` line (when present) must equal each name's total.

The log is read one line at a time and the work is bounded by its size, not by what it claims: a
hand number far ahead (or behind) of the lines before it is not dealt up to (the numbering problem
is reported instead), and a hand already checked with the same deal and text is not replayed again
(the cards, betting and values of small games repeat all match long).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TypeVar

from showdown.errors import IllegalActionError, ProtocolError, ShowdownError
from showdown.evaluation.log_reading import log_lines, not_a_log_file, phh_not_log, resolve_log_game
from showdown.games.cards import Card, cards_text
from showdown.games.dealing import CardDealer
from showdown.games.gamedef import GameDef
from showdown.games.state import State
from showdown.protocol.logfile import (
    MAX_DIGITS,
    STATE_PREFIX,
    LoggedHand,
    LogHeader,
    Score,
    format_value,
    is_score_line,
    parse_count,
    parse_header_line,
    parse_score_line,
    parse_state_line,
    score_tolerance,
)

LISTED = 5
"""Hands listed with each kind of problem; the rest are counted in one line (the wrong --game gave a
line for each of 999 hands, where one line saying so was wanted)."""
TOLERANCE = 5e-7  # values are printed with six decimals
MEMO_SIZE = 4096  # hands remembered by deal and text (cleared when full)
DEAL_SLACK = 1000  # hands the dealing may run ahead of the lines read, for gaps in a log

K = TypeVar("K")
V = TypeVar("V")


@dataclass
class VerifyReport:
    """What an audit found: ``hands`` played (logged), ``requested`` (the header's count, None when
    unknown), ``problems`` (each a line; past ``LISTED`` hands with one kind of problem, one line
    says how many more), ``found`` (the problems in all, those not listed counted), ``notes`` (a torn
    last line), ``complete`` (every requested hand is there and the SCORE line closes the log)."""

    hands: int = 0
    problems: list[str] = field(default_factory=list)
    requested: int | None = None
    complete: bool = True
    notes: list[str] = field(default_factory=list)
    found: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_log(path: str | Path, game: GameDef | None = None, seed: int | None = None, *, partial: bool = False) -> VerifyReport:
    """Replay every hand of the log at ``path``; ``game`` and ``seed`` override the header.

    Beyond each hand, the log as a whole must be the match its header announces: hand numbers from
    0 with no gap and no repeat, as many hands as the header asks for, and a SCORE line equal to the
    sum of the hands. A log that stops short (a crash, a stopped match) is a problem unless
    ``partial``; its complete hands are still checked. A last line cut mid-write is left out and noted.
    A malformed line (``nan`` for a value, a hand number of 40 digits) is a ``ProtocolError``
    naming the file and line.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ShowdownError(f"verify_log: expected a log file's path, got {type(path).__name__} {path!r:.40}")
    p = Path(path)
    if p.exists() and not p.is_file():  # a pipe no one writes to (mkfifo) held open() for ever
        raise ShowdownError(not_a_log_file(p))
    if (why := phh_not_log(p)) is not None:
        raise ShowdownError(why)
    try:
        f = open(p, "rb")  # noqa: SIM115 (closed below; the error must be one line)
    except OSError as exc:
        raise ShowdownError(f"cannot read log {p}: {exc.strerror or exc}") from None
    audit = _Audit(p, game, seed)
    try:
        with f:
            if f.peek(1) == b"":  # no header, no hand: a wrong file, not a match that stopped early
                raise ShowdownError(f"{p} is empty: not a match log (give the .log a dealer or showdown match wrote)")
            audit.read(f)
    except OSError as exc:
        raise ShowdownError(f"cannot read log {p}: {exc.strerror or exc}") from None
    return audit.finish(partial)


class _Audit:
    """One pass over a log: per line, constant work (amortised) and memory bounded by the memos."""

    def __init__(self, path: Path, game: GameDef | None, seed: int | None) -> None:
        self.path = path
        self.game = game
        self.seed = seed
        self.report = VerifyReport()
        self.header: LogHeader | None = None
        self.score: Score | None = None
        self.torn = False
        self.dealer: CardDealer | None = None
        self.dealt = 0  # hands dealt in all (restarts included): bounded by the lines read
        self.unchecked = 0  # hands whose numbers jump too far to deal them
        self.first_unchecked = -1
        self.expected = 0  # the next hand number in order
        self.numbering_done = False  # the first numbering problem is reported, the rest follow from it
        self.totals: dict[str, float] = {}
        self.memo: dict[tuple[tuple[Card, ...], str], tuple[Problem | None, tuple[float, ...]]] = {}
        self.kinds: dict[str, int] = {}  # hands with each kind of problem
        self.names_memo: dict[str, tuple[str, ...]] = {}
        # the seat rotation, as the first hand's names imply it: by hand number mod players
        self.first_names: tuple[str, ...] | None = None
        self.rotating: list[str] = []
        self.rotating_miss: int | None = None
        self.miss_names = ""  # the names logged in the hand the rotation first misses
        self.first_hand = 0
        self.fixed_miss: int | None = None

    # ------------------------------------------------------------------ lines

    def read(self, f: IO[bytes]) -> None:
        source = str(self.path)
        for number, raw in log_lines(f, source):
            if not raw.endswith(b"\n"):
                if self._whole_score(raw):  # (an editor that drops the file's last line end)
                    return
                if raw.strip():
                    self.torn = True
                    self.report.notes.append(
                        f"{source}:{number}: the last line is cut off (the writer stopped mid-line); it is not checked"
                    )
                return
            line = raw.decode("utf-8", "backslashreplace").rstrip()  # (trailing spaces made 'Bob ' a player)
            try:
                if line.startswith(STATE_PREFIX):
                    self.hand_line(line)
                elif is_score_line(line):
                    self.score = parse_score_line(line)
                elif line.startswith("#"):
                    if not line.startswith("#--t_"):
                        header = parse_header_line(line)
                        if header is not None and self.header is None:
                            self.header = header
                elif line.lstrip().startswith("{"):
                    raise ProtocolError("a JSON Lines record: verify-log checks the ACPC .log that the dealer writes "
                                        "beside each .jsonl; give that .log")
                elif line.strip():
                    raise ProtocolError(f"unexpected line {line[:80]!r}")
            except ProtocolError as exc:
                raise ProtocolError(f"{source}:{number}: {exc}") from None

    def _whole_score(self, raw: bytes) -> bool:
        """A last line without its line end that is a SCORE line naming every player seen: whole (cut
        short, it would lose its names or part of one), so it is taken as the match's score."""
        line = raw.decode("utf-8", "backslashreplace").rstrip()
        if not is_score_line(line):
            return False
        try:
            score = parse_score_line(line)
        except ProtocolError:
            return False
        if not self.totals or set(score.names) != set(self.totals):
            return False
        self.score = score
        return True

    def hand_line(self, line: str) -> None:
        head, _, rest = line[6:].partition(":")
        if len(head) <= MAX_DIGITS and head.isdigit() and head.isascii():
            hand = int(head)
        else:
            hand = parse_count(head, "hand number")  # refused, with its reason
        body, _, names_text = rest.rpartition(":")
        names = self.names_memo.get(names_text)
        if names is None:
            names = tuple(names_text.split("|"))
            _remember(self.names_memo, names_text, names)
        drawn = self.draw(hand)
        known = self.memo.get((drawn, body)) if drawn is not None else None
        if known is None or len(known[1]) != len(names):
            logged = parse_state_line(line)  # the whole line, checked (and a bad one refused) here
            problem = None
            if drawn is not None:
                hole, board = self.dealer.split(drawn)  # type: ignore[union-attr]
                problem = hand_problem(logged, self.need_game(), hole, board)
            known = (problem, logged.values)
            if drawn is not None:
                _remember(self.memo, (drawn, body), known)
        problem, values = known
        report = self.report
        report.hands += 1
        if problem:
            self.hand_problem(hand, problem)
        totals = self.totals
        for name, value in zip(names, values):
            totals[name] = totals.get(name, 0.0) + value
        if hand == self.expected:
            self.expected = hand + 1
        else:
            self.number(hand)
        self.seating(hand, names, names_text)

    def hand_problem(self, hand: int, problem: Problem) -> None:
        """List the first ``LISTED`` hands with each kind of problem, count the rest."""
        seen = self.kinds.get(problem.kind, 0)
        self.kinds[problem.kind] = seen + 1
        if seen < LISTED:
            self.report.problems.append(f"hand {hand}: {problem.text}")

    # ------------------------------------------------------------------ each hand

    def draw(self, hand: int) -> tuple[Card, ...] | None:
        """The seed's cards for ``hand`` as drawn; None (and counted) when reaching them would cost
        more dealing than the lines read so far justify."""
        dealer = self.dealer
        if dealer is None:
            dealer = self.dealer = CardDealer(self.need_game(), self.need_seed())
        dealt = dealer.hands_dealt
        if hand == dealt and self.dealt <= 2 * self.report.hands + DEAL_SLACK:  # the usual case
            self.dealt += 1
            return dealer.draw()
        restart = hand < dealt
        cost = hand + 1 if restart else hand - dealt + 1
        if self.dealt + cost > 2 * (self.report.hands + 1) + DEAL_SLACK:
            if not self.unchecked:
                self.first_unchecked = hand
            self.unchecked += 1
            return None
        if restart:
            dealer = self.dealer = CardDealer(dealer.game, dealer.seed)
        dealer.skip(hand - dealer.hands_dealt)
        self.dealt += cost
        return dealer.draw()

    def need_game(self) -> GameDef:
        if self.game is None:
            if self.header is None:
                raise ShowdownError(f"{self.path}: no '# name/game/hands/seed' header; pass --game and --seed")
            self.game = resolve_log_game(self.header.game, self.path)
        return self.game

    def need_seed(self) -> int:
        if self.seed is None:
            if self.header is None:
                raise ShowdownError(f"{self.path}: no header to take the seed from; pass --seed")
            self.seed = self.header.seed
        return self.seed

    def number(self, n: int) -> None:
        """Hand numbers from 0, no gap, no repeat: the first break is the problem."""
        expected = self.expected
        if self.numbering_done:
            self.expected = n + 1
            return
        self.numbering_done = True
        if n < expected:
            self.report.problems.append(f"hand {n} appears again (or out of order) after hand {expected - 1}")
        else:
            missing = f"hand {expected} is" if n == expected + 1 else f"hands {expected} to {n - 1} are"
            # (a log cut at its start said 'the log jumps from hand -1 to 5')
            jump = f"the log starts at hand {n}" if expected == 0 else f"the log jumps from hand {expected - 1} to {n}"
            self.report.problems.append(f"{missing} missing: {jump}")

    def seating(self, hand: int, names: tuple[str, ...], names_text: str) -> None:
        """Follow both seatings the names may keep: rotating (seat s at position (s - h) mod N) and
        fixed; which one the SCORE line's seat order needs is only known at the end."""
        first = self.first_names
        if first is None:
            n = len(names)
            self.first_names = names
            # the names of hand r (mod n) as the rotation from this first hand places them
            self.rotating = ["|".join(names[(p + r - hand) % n] for p in range(n)) for r in range(n)]
            self.first_hand = hand
            return
        if self.rotating_miss is None and names_text != self.rotating[hand % len(self.rotating)]:
            self.rotating_miss = hand
            self.miss_names = names_text
        if self.fixed_miss is None and names != first:
            self.fixed_miss = hand

    # ------------------------------------------------------------------ the log as one match

    def finish(self, partial: bool) -> VerifyReport:
        report = self.report
        summaries = [(kind, count - LISTED) for kind, count in self.kinds.items() if count > LISTED]
        report.problems += [f"... and {more:,} more hands {_MORE[kind]}" for kind, more in summaries]
        if self.unchecked:
            report.problems.append(
                f"{self.unchecked:,} hand(s) not checked against the seed, the first hand {self.first_unchecked}: "
                "their numbers jump further than the log is long"
            )
        if self.score is not None:
            self.check_score(self.score)
        requested = self.header.hands if self.header is not None else None
        report.requested = requested
        if requested is not None and report.hands > requested:
            report.problems.append(f"{report.hands:,} hands logged but the header asks for {requested:,}")
        short = requested is not None and report.hands < requested
        report.complete = not short and self.score is not None and not self.torn
        if not report.complete and not partial:
            if short:
                report.problems.append(
                    f"only {report.hands:,} of the {requested:,} hands the header asks for (--partial accepts a match that stopped early)"
                )
            elif self.score is None:
                report.problems.append("no SCORE line: the match did not finish (--partial accepts a match that stopped early)")
            else:
                report.problems.append("the last line is cut off (--partial accepts a match that stopped early)")
        report.found = len(report.problems) + sum(more - 1 for _, more in summaries)  # (each summary line stands for `more`)
        return report

    def check_score(self, score: Score) -> None:
        report = self.report
        seat_problem = self.seating_problem(score.names)
        if seat_problem:
            report.problems.append(seat_problem)
        for name, total in zip(score.names, score.totals):
            if abs(self.totals.get(name, 0.0) - total) > score_tolerance(report.hands):
                report.problems.append(
                    f"SCORE: {name} is given {format_value(total)} but the hands add up to {format_value(self.totals.get(name, 0.0))}"
                )

    def seating_problem(self, seats: tuple[str, ...]) -> str | None:
        """Names by position must follow the rotation (seat s plays position (s - h) mod N) or fixed seats."""
        first = self.first_names
        if first is None:
            return None
        n = len(seats)
        start = self.first_hand
        expected_first = tuple(seats[(p + start) % n] for p in range(n))
        rotating_miss = start if first != expected_first else self.rotating_miss
        fixed_miss = start if first != seats else self.fixed_miss
        if rotating_miss is None or fixed_miss is None:
            return None
        names = "|".join(first) if rotating_miss == start else self.miss_names
        return f"hand {rotating_miss}: players {names} do not follow the seat rotation"


def _remember(memo: dict[K, V], key: K, value: V) -> None:
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    memo[key] = value


@dataclass(frozen=True, slots=True)
class Problem:
    """What differs in one hand: its ``kind`` (a key of ``_MORE``) and the line that says it."""

    kind: str
    text: str


_MORE = {
    "players": "with another number of players than the game's: is --game right?",
    "cards": "whose cards are not what the seed deals: is --game/--seed right?",
    "betting": "whose betting the rules do not allow as logged",
    "board": "whose board does not fit the round the betting reached",
    "values": "whose values are not what the rules pay",
}
"""Each kind of hand problem, as the line counting the hands not listed ends."""


def check_hand(h: LoggedHand, game: GameDef, hole: tuple[tuple[int, ...], ...], board: tuple[int, ...]) -> str | None:
    """None if the logged hand is exactly what the seed and the rules give, else what differs."""
    problem = hand_problem(h, game, hole, board)
    return problem.text if problem is not None else None


def hand_problem(h: LoggedHand, game: GameDef, hole: tuple[tuple[int, ...], ...], board: tuple[int, ...]) -> Problem | None:
    """``check_hand``'s finding with its kind (verify-log lists a few hands of each kind, counts the rest)."""
    if len(h.hole) != game.num_players:
        return Problem("players", f"{len(h.hole)} players logged in a {game.num_players}-player game")
    if h.hole != hole:
        logged = " | ".join(cards_text(c) for c in h.hole)
        dealt = " | ".join(cards_text(c) for c in hole)
        return Problem("cards", f"hole cards {logged} are not what the seed deals ({dealt})")
    shown = h.board_cards
    if shown != board[: len(shown)]:
        return Problem("cards", f"board {cards_text(shown)} is not what the seed deals ({cards_text(board[: len(shown)])})")
    state = State.initial(game, hole, board)
    try:
        state = state.apply_betting(h.betting_text)
    except IllegalActionError as exc:
        return Problem("betting", str(exc))
    if not state.finished:
        return Problem("betting", f"betting '{h.betting_text}' leaves the hand unfinished")
    if state.betting != h.betting_text:
        return Problem("betting", f"betting '{h.betting_text}' should read '{state.betting}'")
    if len(shown) != game.board_cards_through(state.round):
        return Problem("board", f"{len(shown)} board cards shown but the hand reached round {state.round + 1}")
    values = state.payoffs()
    if any(abs(a - b) > TOLERANCE for a, b in zip(values, h.values)):
        want = "|".join(format_value(v) for v in values)
        got = "|".join(format_value(v) for v in h.values)
        return Problem("values", f"values {got} should be {want}")
    return None

"""Audit an ACPC match log: every hand's cards, betting and values, replayed from the seed.

For each ``STATE`` line the cards must be the ones the reference dealing gives that seed and hand
number, the betting must be legal at every step through the rules engine and finish the hand, and
the values must be exactly the engine's payoffs. Names must follow the seat rotation, and the
``SCORE`` line (when present) must equal each name's total.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from showdown.errors import IllegalActionError, ShowdownError
from showdown.evaluation.analyze import resolve_log_game
from showdown.games.cards import cards_text
from showdown.games.dealing import CardDealer
from showdown.games.gamedef import GameDef
from showdown.games.state import State
from showdown.protocol.logfile import LogFile, LoggedHand, format_value, parse_log

TOLERANCE = 5e-7  # values are printed with six decimals


@dataclass
class VerifyReport:
    """What an audit found: ``hands`` played (logged), ``requested`` (the header's count, None when
    unknown), ``problems`` (each a line), ``notes`` (a torn last line), ``complete`` (every requested
    hand is there and the SCORE line closes the log)."""

    hands: int = 0
    problems: list[str] = field(default_factory=list)
    requested: int | None = None
    complete: bool = True
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_log(path: str | Path, game: GameDef | None = None, seed: int | None = None, *, partial: bool = False) -> VerifyReport:
    """Replay every hand of the log at ``path``; ``game`` and ``seed`` override the header.

    Beyond each hand, the log as a whole must be the match its header announces: hand numbers from
    0 with no gap and no repeat, as many hands as the header asks for, and a SCORE line equal to the
    sum of the hands. A log that stops short (a crash, a stopped match) is a problem unless
    ``partial``; its complete hands are still checked. A last line cut mid-write is left out and noted.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ShowdownError(f"cannot read log {p}: {exc.strerror or exc}") from None
    lines = text.split("\n")
    notes: list[str] = []
    tail = lines.pop()  # "" when the file ends with a line end
    if tail.strip():
        notes.append(f"{p}:{len(lines) + 1}: the last line is cut off (the writer stopped mid-line); it is not checked")
    log = parse_log(lines, source=str(p))
    if game is None:
        if not log.headers:
            raise ShowdownError(f"{p}: no '# name/game/hands/seed' header; pass --game and --seed")
        game = resolve_log_game(log.headers[0].game, p)
    if seed is None:
        if not log.headers:
            raise ShowdownError(f"{p}: no header to take the seed from; pass --seed")
        seed = log.headers[0].seed
    report = verify_hands(log, game, seed)
    report.notes += notes
    check_match(log, report, partial, torn=bool(notes))
    return report


def check_match(log: LogFile, report: VerifyReport, partial: bool, torn: bool = False) -> None:
    """The log as one match: numbering, count against the header, the closing SCORE line."""
    numbers = [h.hand for h in log.hands]
    expected = 0
    for n in numbers:
        if n < expected:
            report.problems.append(f"hand {n} appears again (or out of order) after hand {expected - 1}")
            break
        if n > expected:
            missing = f"{expected}" if n == expected + 1 else f"{expected} to {n - 1}"
            report.problems.append(f"hands {missing} are missing: the log jumps from hand {expected - 1} to {n}")
            break
        expected = n + 1
    requested = log.headers[0].hands if log.headers else None
    report.requested = requested
    if requested is not None and report.hands > requested:
        report.problems.append(f"{report.hands:,} hands logged but the header asks for {requested:,}")
    short = requested is not None and report.hands < requested
    report.complete = not short and log.score is not None and not torn
    if not report.complete and not partial:
        if short:
            report.problems.append(
                f"only {report.hands:,} of the {requested:,} hands the header asks for (--partial accepts a match that stopped early)"
            )
        elif log.score is None:
            report.problems.append("no SCORE line: the match did not finish (--partial accepts a match that stopped early)")
        else:
            report.problems.append("the last line is cut off (--partial accepts a match that stopped early)")


def verify_hands(log: LogFile, game: GameDef, seed: int) -> VerifyReport:
    report = VerifyReport()
    dealer = CardDealer(game, seed)
    totals: dict[str, float] = {}
    for h in log.hands:
        report.hands += 1
        if h.hand < dealer.hands_dealt:
            dealer = CardDealer(game, seed)
        dealer.skip(h.hand - dealer.hands_dealt)
        hole, board = dealer.deal()
        problem = check_hand(h, game, hole, board)
        if problem:
            report.problems.append(f"hand {h.hand}: {problem}")
        for name, value in zip(h.names, h.values):
            totals[name] = totals.get(name, 0.0) + value
    if log.score is not None:
        seat_problem = check_seating(log)
        if seat_problem:
            report.problems.append(seat_problem)
        for name, total in zip(log.score.names, log.score.totals):
            if abs(totals.get(name, 0.0) - total) > TOLERANCE * max(1, report.hands):
                report.problems.append(
                    f"SCORE: {name} is given {format_value(total)} but the hands add up to {format_value(totals.get(name, 0.0))}"
                )
    return report


def check_seating(log: LogFile) -> str | None:
    """Names by position must follow the rotation (seat s plays position (s - h) mod N) or fixed seats."""
    assert log.score is not None
    seats = log.score.names
    n = len(seats)

    def first_miss(rotating: bool) -> LoggedHand | None:
        for h in log.hands:
            shift = h.hand if rotating else 0
            if h.names != tuple(seats[(p + shift) % n] for p in range(n)):
                return h
        return None

    rotating_miss = first_miss(True)
    if rotating_miss is None or first_miss(False) is None:
        return None
    return f"hand {rotating_miss.hand}: players {'|'.join(rotating_miss.names)} do not follow the seat rotation"


def check_hand(h: LoggedHand, game: GameDef, hole: tuple[tuple[int, ...], ...], board: tuple[int, ...]) -> str | None:
    """None if the logged hand is exactly what the seed and the rules give, else what differs."""
    if len(h.hole) != game.num_players:
        return f"{len(h.hole)} players logged in a {game.num_players}-player game"
    if h.hole != hole:
        logged = " | ".join(cards_text(c) for c in h.hole)
        dealt = " | ".join(cards_text(c) for c in hole)
        return f"hole cards {logged} are not what the seed deals ({dealt})"
    shown = h.board_cards
    if shown != board[: len(shown)]:
        return f"board {cards_text(shown)} is not what the seed deals ({cards_text(board[: len(shown)])})"
    state = State.initial(game, hole, board)
    try:
        state = state.apply_betting(h.betting_text)
    except IllegalActionError as exc:
        return str(exc)
    if not state.finished:
        return f"betting '{h.betting_text}' leaves the hand unfinished"
    if state.betting != h.betting_text:
        return f"betting '{h.betting_text}' should read '{state.betting}'"
    if len(shown) != game.board_cards_through(state.round):
        return f"{len(shown)} board cards shown but the hand reached round {state.round + 1}"
    values = state.payoffs()
    if any(abs(a - b) > TOLERANCE for a, b in zip(values, h.values)):
        want = "|".join(format_value(v) for v in values)
        got = "|".join(format_value(v) for v in h.values)
        return f"values {got} should be {want}"
    return None

"""Audit an ACPC match log: every hand's cards, betting and values, replayed from the seed.

For each ``STATE`` line the cards must be the ones the reference dealing gives that seed and hand
number, the betting must be legal at every step through the rules engine and finish the hand, and
the values must be exactly the engine's payoffs. Names must follow the seat rotation, and the
``SCORE`` line (when present) must equal each name's total.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from showdown.errors import GameDefError, IllegalActionError, ShowdownError
from showdown.games.cards import cards_text
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import State
from showdown.protocol.logfile import LogFile, LoggedHand, format_value, parse_log
from showdown.server.dealing import CardDealer

TOLERANCE = 5e-7  # values are printed with six decimals


@dataclass
class VerifyReport:
    hands: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def resolve_log_game(game_name: str, log_path: Path) -> GameDef:
    """The game a log header names: a path next to the log, a catalog name or a reference file name."""
    beside = log_path.parent / game_name
    if beside.is_file():
        return get_game(str(beside))
    try:
        return get_game(game_name)
    except GameDefError:
        raise GameDefError(
            f"{log_path}: the header names game {game_name!r}, which is neither a catalog game nor a file "
            f"next to the log; pass --game GAME"
        ) from None


def verify_log(path: str | Path, game: GameDef | None = None, seed: int | None = None) -> VerifyReport:
    """Replay every hand of the log at ``path``; ``game`` and ``seed`` override the header."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ShowdownError(f"cannot read log {p}: {exc.strerror or exc}") from None
    log = parse_log(text.splitlines(), source=str(p))
    if game is None:
        if not log.headers:
            raise ShowdownError(f"{p}: no '# name/game/hands/seed' header; pass --game and --seed")
        game = resolve_log_game(log.headers[0].game, p)
    if seed is None:
        if not log.headers:
            raise ShowdownError(f"{p}: no header to take the seed from; pass --seed")
        seed = log.headers[0].seed
    return verify_hands(log, game, seed)


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

"""MATCHSTATE lines, client replies and the VERSION line: parse, format, per-seat views.

``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` (docs/protocol.md section 3). Cards are the hole
cards per position separated by ``|`` (empty where hidden), then one ``/``-prefixed board group per
round reached after the first (and for the first too when it has board cards). Pure: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from showdown.errors import CardError, ProtocolError
from showdown.games.cards import Card, format_cards, parse_cards
from showdown.games.gamedef import MAX_LINE_BYTES, GameDef
from showdown.games.state import CALL, FOLD, Action, ActionKind, State, format_betting, parse_betting

PROTOCOL_VERSION = (2, 0, 0)
VERSION_LINE = "VERSION:2.0.0"
MAX_LINE = MAX_LINE_BYTES - 1  # the reference cuts lines at 4095 bytes

MATCHSTATE_PREFIX = "MATCHSTATE:"
"""How every line a seat is sent (and every reply) starts."""

# ASCII digits only, as the reference's sscanf reads them (\d would take any script's digits: '٣' as 3)
_HEAD = re.compile(r"MATCHSTATE:([0-9]+):([0-9]+):")


def position_head(position: int) -> str:
    """``MATCHSTATE:<position>:``: the start of every line a position is sent; the hand number
    follows."""
    return f"{MATCHSTATE_PREFIX}{position}:"


@dataclass(frozen=True, slots=True)
class MatchState:
    """What one seat is told: its position, the hand number, the betting and the visible cards.

    ``hole`` has one entry per position (empty where hidden); ``board`` one group per round reached.
    """

    position: int
    hand: int
    betting: tuple[tuple[Action, ...], ...]
    hole: tuple[tuple[Card, ...], ...]
    board: tuple[tuple[Card, ...], ...]

    @property
    def round(self) -> int:
        return len(self.betting) - 1

    @property
    def betting_text(self) -> str:
        return format_betting(self.betting)

    @property
    def own_cards(self) -> tuple[Card, ...]:
        return self.hole[self.position]

    @property
    def board_cards(self) -> tuple[Card, ...]:
        return tuple(c for group in self.board for c in group)

    def __str__(self) -> str:
        return format_matchstate(self)

    def to_state(self, game: GameDef) -> State:
        """Replay the betting through the rules engine (cards as far as this seat sees them)."""
        hole = self.hole if len(self.hole) == game.num_players else ()
        return State.initial(game, hole, self.board_cards).apply_betting(self.betting_text)

    def same_decision_point(self, other: MatchState) -> bool:
        """The reference's check of an echoed state: position, hand, betting, board, own cards."""
        return (
            self.position == other.position
            and self.hand == other.hand
            and self.betting == other.betting
            and self.board_cards == other.board_cards
            and self.own_cards == other.own_cards
        )


def view_of(state: State, position: int, hand: int) -> MatchState:
    """The MATCHSTATE a position is sent: own hole cards; others' only at a finished showdown
    for players who did not fold (exactly as the reference hides them)."""
    reveal = state.is_showdown
    hole = tuple(
        cards if p == position or (reveal and not state.folded[p]) else ()
        for p, cards in enumerate(state.hole)
    )
    return MatchState(position, hand, state.actions, hole, state.board_by_round())


def format_cards_field(hole: tuple[tuple[Card, ...], ...], board: tuple[tuple[Card, ...], ...]) -> str:
    """``Ks|Qs`` or ``8dJd|/As9d6s/3d``: hole cards by position, then a ``/`` group per later round.

    The first round's group is written only when it holds cards (no catalog game has any).
    """
    text = "|".join(format_cards(h) for h in hole)
    for r, group in enumerate(board):
        if r > 0 or group:
            text += "/" + format_cards(group)
    return text


def parse_cards_field(
    text: str, rounds: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]]:
    """Inverse of ``format_cards_field`` for a hand that has reached ``rounds`` rounds."""
    hole_text, *groups = text.split("/")
    hole = tuple(parse_cards(h) for h in hole_text.split("|"))
    board = tuple(parse_cards(g) for g in groups)
    if len(board) == rounds - 1:
        board = ((),) + board
    elif len(board) != rounds:
        raise ProtocolError(f"{len(groups)} board groups for {rounds} betting rounds")
    return hole, board


def format_matchstate(ms: MatchState) -> str:
    return f"MATCHSTATE:{ms.position}:{ms.hand}:{ms.betting_text}:{format_cards_field(ms.hole, ms.board)}"


def parse_matchstate(line: str, game: GameDef | None = None) -> MatchState:
    """Parse a MATCHSTATE line (no trailing action); with ``game`` the shape is checked too."""
    line = line.rstrip("\r\n")
    m = _HEAD.match(line)
    if not m:
        raise ProtocolError(f"bad state {line[:80]!r}: expected MATCHSTATE:<position>:<hand>:<betting>:<cards>")
    rest = line[m.end() :].split(":")
    if len(rest) != 2:
        raise ProtocolError(f"bad state {line[:80]!r}: expected <betting>:<cards> after the hand number")
    try:
        betting = parse_betting(rest[0])
        hole, board = parse_cards_field(rest[1], len(betting))
    except (ProtocolError, CardError) as exc:
        raise ProtocolError(f"bad state {line[:80]!r}: {exc}") from None
    ms = MatchState(int(m.group(1)), int(m.group(2)), betting, hole, board)
    if game is not None:
        _check_shape(ms, game, line)
    return ms


def _check_shape(ms: MatchState, game: GameDef, line: str) -> None:
    def fail(what: str) -> None:
        raise ProtocolError(f"bad state {line[:80]!r}: {what}")

    if not 0 <= ms.position < game.num_players:
        fail(f"position {ms.position} is not 0 to {game.num_players - 1}")
    if len(ms.hole) != game.num_players:
        fail(f"{len(ms.hole)} hole-card groups for {game.num_players} players")
    if any(len(h) not in (0, game.num_hole_cards) for h in ms.hole):
        fail(f"hole cards come {game.num_hole_cards} per player")
    if len(ms.betting) > game.num_rounds:
        fail(f"{len(ms.betting)} betting rounds in a {game.num_rounds}-round game")
    if len(ms.board) > game.num_rounds or any(
        len(g) != game.num_board_cards[r] for r, g in enumerate(ms.board)
    ):
        fail("board cards do not match the game's numBoardCards")


@dataclass(frozen=True, slots=True)
class Reply:
    """A client's reply: the echoed state and the raw action text (None when ``:action`` is missing)."""

    state: MatchState
    action_text: str | None


def parse_reply(line: str, game: GameDef | None = None) -> Reply:
    """Split ``MATCHSTATE:...:<action>`` into the echoed state and the action text."""
    line = line.rstrip("\r\n")
    m = _HEAD.match(line)
    if not m:
        raise ProtocolError(f"bad reply {line[:80]!r}: expected the state you were sent, ':' and an action")
    rest = line[m.end() :].split(":", 2)
    if len(rest) < 2:
        raise ProtocolError(f"bad reply {line[:80]!r}: expected <betting>:<cards> after the hand number")
    state = parse_matchstate(line[: m.end()] + rest[0] + ":" + rest[1], game)
    return Reply(state, rest[2] if len(rest) == 3 else None)


_ALIASES = {"f": ActionKind.FOLD, "F": ActionKind.FOLD, "c": ActionKind.CALL, "C": ActionKind.CALL,
            "k": ActionKind.CALL, "K": ActionKind.CALL, "r": ActionKind.RAISE, "R": ActionKind.RAISE,
            "b": ActionKind.RAISE, "B": ActionKind.RAISE}  # fmt: skip
_SIZE = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")  # sscanf's %d: C white space, a sign, ASCII digits


def read_action(text: str, game: GameDef) -> Action | None:
    """Read a reply's action as the reference does.

    Aliases ``b k F C R B K`` are accepted; anything after the action is ignored (``c100`` is a
    call, ``r500.7`` a raise to 500). Returns None for an unknown letter or an empty action (the
    dealer turns it into a call); raises ``ProtocolError`` for a no-limit raise with no readable
    size (``bad action format``).
    """
    kind = _ALIASES.get(text[:1])
    if kind is None:
        return None
    if kind is ActionKind.RAISE and game.is_nolimit:
        size_text = text[1:]
        if 0 < len(size_text) <= 9 and size_text.isascii() and size_text.isdecimal():  # r300, as players write it: no pattern needed
            return Action(ActionKind.RAISE, int(size_text))
        m = _SIZE.match(text, 1)
        if not m:
            raise ProtocolError(f"bad action {text[:40]!r}: a no-limit raise needs its total, like r300")
        return Action(ActionKind.RAISE, int(m.group(1)))  # (a line holds at most 4095 digits: int() takes 4300)
    return FOLD if kind is ActionKind.FOLD else CALL if kind is ActionKind.CALL else Action(ActionKind.RAISE)


def format_reply(ms: MatchState, action: Action) -> str:
    return f"{format_matchstate(ms)}:{action}"


_HTTP = re.compile(r"(GET|HEAD|POST|PUT|DELETE|OPTIONS|CONNECT|PATCH|TRACE|PRI) \S* ?HTTP/")
LATIN1_BOM = "\xef\xbb\xbf"
"""UTF-8's byte order mark as a seat's line reads it (the dealer decodes a seat's bytes as Latin-1)."""


TLS_HANDSHAKE = "\x16\x03"
"""How a TLS connection's first bytes read (a handshake record), decoded as the dealer decodes a line."""


def foreign_line(line: str) -> str:
    """What a seat's line that is no ACPC line looks like it is, for its warning ('' if nothing known):
    a TLS handshake or an HTTP request sent to a seat port, or a line after a byte order mark."""
    if line.startswith(TLS_HANDSHAKE):
        return ("that is a TLS handshake: a seat port speaks the ACPC protocol in plain text over TCP; "
                "connect without TLS")
    if _HTTP.match(line):
        return "that is an HTTP request: a seat port speaks the ACPC protocol over plain TCP, not HTTP"
    if line.startswith(LATIN1_BOM):
        return "it starts with a UTF-8 byte order mark (bytes EF BB BF): send plain ASCII lines without one"
    return ""


def quoted(line: str, most: int = 80) -> str:
    """The start of a seat's line for its warning, and what it looks like when it is no ACPC line."""
    hint = foreign_line(line)
    return f"{line[:most]!r} ({hint})" if hint else repr(line[:most])


_NUMBER = r"[ \t\n\v\f\r]*\+?([0-9]{1,9})(?![0-9])"  # sscanf's %u: C white space, a plus sign, ASCII digits
_VERSION = re.compile(r"VERSION:" + r"\.".join([_NUMBER] * 3))


def parse_version(line: str) -> tuple[int, int, int]:
    """``VERSION:2.0.0`` -> (2, 0, 0), read as the reference reads it (``sscanf`` of
    ``VERSION:%u.%u.%u``: white space or a plus sign before a number, and anything after the third,
    are accepted); raises ``ProtocolError`` otherwise."""
    m = _VERSION.match(line.strip())
    if not m:
        hint = foreign_line(line)
        raise ProtocolError(f"invalid version string {line.strip()[:40]!r}: {hint + '; ' if hint else ''}"
                            f"a client's first line must be {VERSION_LINE}")
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


TOKEN_PREFIX = " token="
"""A client proves its seat by ``VERSION:2.0.0 token=SECRET`` as its first line. The reference dealer
reads the version with ``sscanf`` and ignores the rest, so such a client works with it too."""


def format_version_line(token: str | None = None) -> str:
    """The first line a client sends, with its seat token when it has one."""
    return VERSION_LINE if not token else f"{VERSION_LINE}{TOKEN_PREFIX}{token}"


def split_token(line: str) -> tuple[str, str | None]:
    """``"VERSION:2.0.0 token=abc"`` -> (``"VERSION:2.0.0"``, ``"abc"``); no token: (line, None)."""
    head, sep, token = line.partition(TOKEN_PREFIX)
    if not sep:
        return line, None
    return head, token.strip()


def version_compatible(version: tuple[int, int, int]) -> bool:
    """Same major and minor as ours; the reference tolerates other versions with an error line."""
    return version[:2] == PROTOCOL_VERSION[:2]


def is_comment(line: str) -> bool:
    return line.startswith(("#", ";"))

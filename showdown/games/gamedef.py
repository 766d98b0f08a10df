"""ACPC game definitions: parse and format ``.game`` files exactly as the reference dealer reads them.

Rules (docs/protocol.md section 1): line based; a line that is empty, starts with ``#`` or white space, or
matches no keyword is ignored; keywords match case-insensitively as a prefix at column 0; ``=`` is
optional; parsing stops at ``END GAMEDEF``. ``firstPlayer`` is 1-based in the file and 0-based here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from showdown.errors import GameDefError

MAX_PLAYERS = 10
MAX_ROUNDS = 4
MAX_BOARD_CARDS = 7
MAX_HOLE_CARDS = 3
MAX_SUITS = 4
MAX_RANKS = 13
MAX_NUM_ACTIONS = 64
MAX_LINE_BYTES = 4096
UNLIMITED_STACK = 2**31 - 1  # the reference's INT32_MAX: stacks that never bind
UNLIMITED_RAISES = 255  # the reference's UINT8_MAX: no cap on raises


class Betting(Enum):
    LIMIT = "limit"
    NOLIMIT = "nolimit"


@dataclass(frozen=True, slots=True)
class GameDef:
    """One poker game: players, rounds, blinds, betting structure and deck.

    Per-position tuples (``stack``, ``blind``) have ``num_players`` entries; per-round tuples
    (``raise_size``, ``first_player``, ``max_raises``, ``num_board_cards``) have ``num_rounds``.
    ``first_player`` is 0-based. ``name`` is informational and not part of equality.
    """

    betting: Betting
    num_players: int
    num_rounds: int
    stack: tuple[int, ...]
    blind: tuple[int, ...]
    raise_size: tuple[int, ...]
    first_player: tuple[int, ...]
    max_raises: tuple[int, ...]
    num_suits: int
    num_ranks: int
    num_hole_cards: int
    num_board_cards: tuple[int, ...]
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        check_gamedef(self, allow_large_deck=True)

    @property
    def is_limit(self) -> bool:
        return self.betting is Betting.LIMIT

    @property
    def is_nolimit(self) -> bool:
        return self.betting is Betting.NOLIMIT

    @property
    def big_blind(self) -> int:
        """The largest blind: the unit of mbb/hand and of the no-limit minimum raise."""
        return max(self.blind)

    @property
    def deck_size(self) -> int:
        return self.num_suits * self.num_ranks

    @property
    def total_board_cards(self) -> int:
        return sum(self.num_board_cards)

    def board_cards_through(self, round_: int) -> int:
        """How many board cards are public once round ``round_`` (0-based) has started."""
        return sum(self.num_board_cards[: round_ + 1])

    @property
    def servable(self) -> bool:
        """Whether the game's cards can be written in ACPC text (at most 13 ranks)."""
        return self.num_ranks <= MAX_RANKS

    def require_servable(self) -> None:
        """Raise unless the game can be played over the ACPC protocol."""
        if not self.servable:
            raise GameDefError(
                f"game {self.name or '?'} has {self.num_ranks} ranks; ACPC card text has only 13 "
                f"(23456789TJQKA), so it exists for the solvers but cannot be served over the protocol"
            )


def check_gamedef(g: GameDef, *, allow_large_deck: bool = False, where: str = "game definition") -> None:
    """Raise ``GameDefError`` for any violation of the reference dealer's limits."""

    def fail(msg: str) -> None:
        raise GameDefError(f"{where}: {msg}")

    if not 2 <= g.num_players <= MAX_PLAYERS:
        fail(f"numPlayers = {g.num_players}: must be 2 to {MAX_PLAYERS}")
    if not 1 <= g.num_rounds <= MAX_ROUNDS:
        fail(f"numRounds = {g.num_rounds}: must be 1 to {MAX_ROUNDS}")
    per_player = {"stack": g.stack, "blind": g.blind}
    for key, values in per_player.items():
        if len(values) != g.num_players:
            fail(f"{key} has {len(values)} values but numPlayers = {g.num_players}: give one per position")
    per_round = {
        "firstPlayer": g.first_player,
        "maxRaises": g.max_raises,
        "numBoardCards": g.num_board_cards,
    }
    if g.is_limit or g.raise_size:
        per_round["raiseSize"] = g.raise_size
    for key, values in per_round.items():
        if len(values) != g.num_rounds:
            fail(f"{key} has {len(values)} values but numRounds = {g.num_rounds}: give one per round")
    if any(b < 0 for b in g.blind):
        fail("blind values must not be negative")
    if any(s <= 0 for s in g.stack):
        fail("stack values must be positive")
    if any(b > s for b, s in zip(g.blind, g.stack)):
        fail("a blind is larger than its stack")
    if g.is_limit and any(r <= 0 for r in g.raise_size):
        fail("raiseSize values must be positive in a limit game")
    if any(not 0 <= p < g.num_players for p in g.first_player):
        fail(f"firstPlayer values must be 1 to numPlayers = {g.num_players}")
    if any(m < 0 for m in g.max_raises):
        fail("maxRaises values must not be negative")
    if not 1 <= g.num_suits <= MAX_SUITS:
        fail(f"numSuits = {g.num_suits}: must be 1 to {MAX_SUITS}")
    if g.num_ranks < 1 or (g.num_ranks > MAX_RANKS and not allow_large_deck):
        fail(f"numRanks = {g.num_ranks}: must be 1 to {MAX_RANKS}")
    if not 1 <= g.num_hole_cards <= MAX_HOLE_CARDS:
        fail(f"numHoleCards = {g.num_hole_cards}: must be 1 to {MAX_HOLE_CARDS}")
    if any(b < 0 for b in g.num_board_cards) or sum(g.num_board_cards) > MAX_BOARD_CARDS:
        fail(f"numBoardCards must be non-negative and add up to at most {MAX_BOARD_CARDS}")
    needed = g.num_players * g.num_hole_cards + sum(g.num_board_cards)
    if needed > g.deck_size:
        fail(f"the deck has {g.deck_size} cards but a hand deals {needed}")


# Keywords in the order the reference tries them; each is a case-insensitive prefix at column 0.
_KEYWORDS = (
    "end gamedef",
    "gamedef",
    "stack",
    "blind",
    "raisesize",
    "limit",
    "nolimit",
    "numplayers",
    "numrounds",
    "firstplayer",
    "maxraises",
    "numsuits",
    "numranks",
    "numholecards",
    "numboardcards",
)
_INT = re.compile(r"[+-]?\d+")


def _ints(rest: str, key: str, where: str) -> list[int]:
    """The integers after a keyword: optional ``=``, then white-space separated numbers."""
    text = rest.strip()
    if text.startswith("="):
        text = text[1:]
    values: list[int] = []
    for token in text.split():
        if not _INT.fullmatch(token):
            break  # the reference's sscanf stops at the first non-number
        values.append(int(token))
    if not values:
        raise GameDefError(f"{where}: {key} needs a number, got {rest.strip()!r}")
    return values


def parse_gamedef(text: str, source: str = "<string>", name: str = "") -> GameDef:
    """Parse the text of an ACPC ``.game`` file; errors name ``source`` and the line."""
    raw: dict[str, list[int]] = {}
    lines_of: dict[str, int] = {}
    betting = Betting.LIMIT
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{source}:{number}"
        if len(line.encode()) >= MAX_LINE_BYTES:
            raise GameDefError(f"{where}: line longer than {MAX_LINE_BYTES - 1} bytes")
        if not line or line[0] in "#" or line[0].isspace():
            continue
        lower = line.lower()
        key = next((k for k in _KEYWORDS if lower.startswith(k)), None)
        if key is None or key == "gamedef":
            continue
        if key == "end gamedef":
            break
        if key == "limit":
            betting = Betting.LIMIT
            continue
        if key == "nolimit":
            betting = Betting.NOLIMIT
            continue
        raw[key] = _ints(line[len(key) :], key, where)
        lines_of[key] = number

    def where_of(key: str) -> str:
        return f"{source}:{lines_of[key]}" if key in lines_of else source

    def single(key: str, label: str) -> int:
        if key not in raw:
            raise GameDefError(f"{source}: missing required {label}")
        return raw[key][0]

    num_players = single("numplayers", "numPlayers")
    num_rounds = single("numrounds", "numRounds")
    if not 2 <= num_players <= MAX_PLAYERS:
        raise GameDefError(f"{where_of('numplayers')}: numPlayers = {num_players}: must be 2 to {MAX_PLAYERS}")
    if not 1 <= num_rounds <= MAX_ROUNDS:
        raise GameDefError(f"{where_of('numrounds')}: numRounds = {num_rounds}: must be 1 to {MAX_ROUNDS}")

    def listed(key: str, label: str, count: int, default: int | None, unit: str) -> tuple[int, ...]:
        if key not in raw:
            if default is None:
                raise GameDefError(f"{source}: missing required {label} (one value per {unit})")
            return (default,) * count
        values = raw[key]
        if len(values) != count:
            raise GameDefError(
                f"{where_of(key)}: {label} has {len(values)} value{'s' * (len(values) != 1)} "
                f"but the game has {count} {unit}s"
            )
        return tuple(values)

    if betting is not Betting.LIMIT and "stack" not in raw:
        raise GameDefError(
            f"{source}: a no-limit game needs stacks: add a line like 'stack = 20000 20000' (without one the "
            f"reference dealer gives every player 2,147,483,647 chips, and results in the billions)"
        )
    raise_default = None if betting is Betting.LIMIT else 0
    raise_size: tuple[int, ...] = ()
    if "raisesize" in raw or betting is Betting.LIMIT:
        raise_size = listed("raisesize", "raiseSize", num_rounds, raise_default, "round")
    first = listed("firstplayer", "firstPlayer", num_rounds, 1, "round")
    if any(not 1 <= p <= num_players for p in first):
        raise GameDefError(f"{where_of('firstplayer')}: firstPlayer values are 1-based: 1 to {num_players}")
    for key, label, top in (
        ("numsuits", "numSuits", MAX_SUITS),
        ("numranks", "numRanks", MAX_RANKS),
        ("numholecards", "numHoleCards", MAX_HOLE_CARDS),
    ):
        value = single(key, label)
        if not 1 <= value <= top:
            raise GameDefError(f"{where_of(key)}: {label} = {value}: must be 1 to {top}")
    try:
        return GameDef(
            betting=betting,
            num_players=num_players,
            num_rounds=num_rounds,
            stack=listed("stack", "stack", num_players, UNLIMITED_STACK, "position"),
            blind=listed("blind", "blind", num_players, None, "position"),
            raise_size=raise_size,
            first_player=tuple(p - 1 for p in first),
            max_raises=listed("maxraises", "maxRaises", num_rounds, UNLIMITED_RAISES, "round"),
            num_suits=raw["numsuits"][0],
            num_ranks=raw["numranks"][0],
            num_hole_cards=raw["numholecards"][0],
            num_board_cards=listed("numboardcards", "numBoardCards", num_rounds, None, "round"),
            name=name,
        )
    except GameDefError as exc:
        raise GameDefError(f"{source}: {str(exc).removeprefix('game definition: ')}") from None


def load_gamedef(path: str | Path) -> GameDef:
    """Read a ``.game`` file; a missing or unreadable file is a ``GameDefError`` too."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise GameDefError(f"cannot read game file {p}: {exc.strerror or exc}") from None
    return parse_gamedef(text, source=str(p), name=p.stem)


def format_gamedef(g: GameDef) -> str:
    """The ``.game`` text of ``g``, in the layout of the reference server's files."""

    def join(values: tuple[int, ...]) -> str:
        return " ".join(str(v) for v in values)

    lines = ["GAMEDEF", g.betting.value, f"numPlayers = {g.num_players}", f"numRounds = {g.num_rounds}"]
    if any(s != UNLIMITED_STACK for s in g.stack):
        lines.append(f"stack = {join(g.stack)}")
    lines.append(f"blind = {join(g.blind)}")
    if g.raise_size:
        lines.append(f"raiseSize = {join(g.raise_size)}")
    lines.append(f"firstPlayer = {join(tuple(p + 1 for p in g.first_player))}")
    if any(m != UNLIMITED_RAISES for m in g.max_raises):
        lines.append(f"maxRaises = {join(g.max_raises)}")
    lines += [
        f"numSuits = {g.num_suits}",
        f"numRanks = {g.num_ranks}",
        f"numHoleCards = {g.num_hole_cards}",
        f"numBoardCards = {join(g.num_board_cards)}",
        "END GAMEDEF",
    ]
    return "\n".join(lines) + "\n"

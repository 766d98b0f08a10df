"""ACPC game definitions: parse and format ``.game`` files exactly as the reference dealer reads them.

Rules (docs/protocol.md section 1): line based; a line that is empty, starts with ``#`` or white space, or
matches no keyword is ignored; keywords match case-insensitively as a prefix at column 0; ``=`` is
optional; parsing stops at ``END GAMEDEF``. ``firstPlayer`` is 1-based in the file and 0-based here.
"""

from __future__ import annotations

import dataclasses
import re
import stat
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from showdown.errors import GameDefError, did_you_mean

MAX_PLAYERS = 10
MAX_ROUNDS = 4
MAX_BOARD_CARDS = 7
MAX_HOLE_CARDS = 3
MAX_HAND_CARDS = 7  # hole and board cards a showdown ranks (games.hand_value); the reference ranks up to 10
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


Problem = tuple[str, str]
"""What is wrong with a game: the ``.game`` keyword whose line is at fault (as ``_KEYWORDS`` spells it;
empty when no one line is), and the words."""


def check_gamedef(g: GameDef, *, allow_large_deck: bool = False, where: str = "game definition") -> None:
    """Raise ``GameDefError`` for any violation of the reference dealer's limits; its ``key`` is the
    keyword at fault (so that a file's error names that keyword's line)."""
    problem = _sizes_problem(g) or _chips_problem(g) or _betting_problem(g) or _deck_problem(g, allow_large_deck)
    if problem is not None:
        error = GameDefError(f"{where}: {problem[1]}")
        error.key = problem[0]
        raise error


def _sizes_problem(g: GameDef) -> Problem | None:
    """Players and rounds within the limits, and one value per position or round for each list."""
    if not 2 <= g.num_players <= MAX_PLAYERS:
        return "numplayers", f"numPlayers = {g.num_players}: must be 2 to {MAX_PLAYERS}"
    if not 1 <= g.num_rounds <= MAX_ROUNDS:
        return "numrounds", f"numRounds = {g.num_rounds}: must be 1 to {MAX_ROUNDS}"
    for key, values in {"stack": g.stack, "blind": g.blind}.items():
        if len(values) != g.num_players:
            return key, f"{key} has {len(values)} values but numPlayers = {g.num_players}: give one per position"
    per_round = {"firstPlayer": g.first_player, "maxRaises": g.max_raises, "numBoardCards": g.num_board_cards}
    if g.is_limit or g.raise_size:
        per_round["raiseSize"] = g.raise_size
    for key, values in per_round.items():
        if len(values) != g.num_rounds:
            return key.lower(), f"{key} has {len(values)} values but numRounds = {g.num_rounds}: give one per round"
    return None


def _chips_problem(g: GameDef) -> Problem | None:
    if any(b < 0 for b in g.blind):
        return "blind", "blind values must not be negative"
    if any(s <= 0 for s in g.stack):
        return "stack", "stack values must be positive"
    if any(b > s for b, s in zip(g.blind, g.stack)):
        return "blind", "a blind is larger than its stack"
    if all(b == s for b, s in zip(g.blind, g.stack)):
        # nobody could ever act (the reference dealer loops for ever looking for a player who can)
        return "stack", "every stack equals its blind: every player is all in before the first action"
    return None


def _betting_problem(g: GameDef) -> Problem | None:
    if g.is_limit and any(r <= 0 for r in g.raise_size):
        return "raisesize", "raiseSize values must be positive in a limit game"
    if any(not 0 <= p < g.num_players for p in g.first_player):
        return "firstplayer", f"firstPlayer values must be 1 to numPlayers = {g.num_players}"
    if any(m < 0 for m in g.max_raises):
        return "maxraises", "maxRaises values must not be negative"
    return None


def _deck_problem(g: GameDef, allow_large_deck: bool) -> Problem | None:
    if not 1 <= g.num_suits <= MAX_SUITS:
        return "numsuits", f"numSuits = {g.num_suits}: must be 1 to {MAX_SUITS}"
    if g.num_ranks < 1 or (g.num_ranks > MAX_RANKS and not allow_large_deck):
        return "numranks", f"numRanks = {g.num_ranks}: must be 1 to {MAX_RANKS}"
    if not 1 <= g.num_hole_cards <= MAX_HOLE_CARDS:
        return "numholecards", f"numHoleCards = {g.num_hole_cards}: must be 1 to {MAX_HOLE_CARDS}"
    if any(b < 0 for b in g.num_board_cards) or sum(g.num_board_cards) > MAX_BOARD_CARDS:
        return "numboardcards", f"numBoardCards must be non-negative and add up to at most {MAX_BOARD_CARDS}"
    if g.num_hole_cards + sum(g.num_board_cards) > MAX_HAND_CARDS:
        return "numboardcards", (f"numHoleCards + numBoardCards = {g.num_hole_cards + sum(g.num_board_cards)} "
                                 f"cards a hand: at most {MAX_HAND_CARDS} (hole and board cards together) are ranked at a showdown; deal fewer")
    needed = g.num_players * g.num_hole_cards + sum(g.num_board_cards)
    if needed > g.deck_size:
        return "", f"the deck has {g.deck_size} cards but a hand deals {needed}"
    return None


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
_LABELS = ("GAMEDEF", "END GAMEDEF", "stack", "blind", "raiseSize", "limit", "nolimit", "numPlayers", "numRounds",
           "firstPlayer", "maxRaises", "numSuits", "numRanks", "numHoleCards", "numBoardCards")  # fmt: skip
_LABEL = {label.lower(): label for label in _LABELS}
_BYTE_KEYS = {"numplayers": "numPlayers", "numrounds": "numRounds", "firstplayer": "firstPlayer", "maxraises": "maxRaises",
              "numsuits": "numSuits", "numranks": "numRanks", "numholecards": "numHoleCards",
              "numboardcards": "numBoardCards"}  # fmt: skip
"""The keys the reference reads into one byte each (``%hhu``: ``maxRaises = 258`` is 2 there)."""
BYTE_MAX = 255


def _ints(rest: str, key: str, where: str) -> list[int]:
    """The integers after a keyword: optional ``=``, then white-space separated numbers."""
    text = rest.strip()
    if text.startswith("="):
        text = text[1:]
    values: list[int] = []
    for token in text.split():
        if not _INT.fullmatch(token):
            break  # the reference's sscanf stops at the first non-number
        value = int(token)
        if abs(value) > UNLIMITED_STACK:  # the reference reads 32-bit numbers; our agents draw sizes below 2^32
            raise GameDefError(f"{where}: {key} {token}: numbers in a .game file are at most {UNLIMITED_STACK:,} "
                               "(the reference dealer reads 32-bit numbers)")
        values.append(value)
    if not values:
        raise GameDefError(f"{where}: {key} needs whole numbers, got {rest.strip()!r}")
    return values


def how_games_differ(theirs: GameDef, game: GameDef) -> str:
    """For a refusal of a file made for ``theirs`` given ``game`` of the same name: the fields they differ
    in (two .game files named alike, a/leduc24.game and b/leduc24.game, were refused as 'for game
    leduc24, not leduc24', which said nothing); empty for games of different names."""
    if theirs.name != game.name:
        return ""
    diffs = [f"{f.name} {getattr(theirs, f.name)} vs {getattr(game, f.name)}" for f in dataclasses.fields(GameDef)
             if f.compare and getattr(theirs, f.name) != getattr(game, f.name)]
    return f" (a different game of the same name: {', '.join(diffs)})"


def parse_gamedef(text: str, source: str = "<string>", name: str = "") -> GameDef:
    """Parse the text of an ACPC ``.game`` file; errors name ``source`` and the line."""
    f = _read_keys(text, source)
    num_players = f.single("numplayers", "numPlayers")
    num_rounds = f.single("numrounds", "numRounds")
    if not 2 <= num_players <= MAX_PLAYERS:
        raise GameDefError(f"{f.where('numplayers')}: numPlayers = {num_players}: must be 2 to {MAX_PLAYERS}")
    if not 1 <= num_rounds <= MAX_ROUNDS:
        raise GameDefError(f"{f.where('numrounds')}: numRounds = {num_rounds}: must be 1 to {MAX_ROUNDS}")
    if f.betting is not Betting.LIMIT and "stack" not in f.raw:
        raise GameDefError(
            f"{source}: a no-limit game needs stacks: add a line like 'stack = 20000 20000' (without one the "
            f"reference dealer gives every player 2,147,483,647 chips, and results in the billions)"
        )
    raise_size: tuple[int, ...] = ()
    if "raisesize" in f.raw or f.betting is Betting.LIMIT:
        raise_size = f.listed("raisesize", "raiseSize", num_rounds, None if f.betting is Betting.LIMIT else 0, "round")
    first = f.listed("firstplayer", "firstPlayer", num_rounds, 1, "round")
    if any(not 1 <= p <= num_players for p in first):
        raise GameDefError(f"{f.where('firstplayer')}: firstPlayer values are 1-based: 1 to {num_players}")
    for key, label, top in (("numsuits", "numSuits", MAX_SUITS), ("numranks", "numRanks", MAX_RANKS),
                            ("numholecards", "numHoleCards", MAX_HOLE_CARDS)):
        value = f.single(key, label)
        if not 1 <= value <= top:
            raise GameDefError(f"{f.where(key)}: {label} = {value}: must be 1 to {top}")
    # read before the GameDef is made: their errors already name the file and line
    stack = f.listed("stack", "stack", num_players, UNLIMITED_STACK, "position")
    blind = f.listed("blind", "blind", num_players, None, "position")
    max_raises = f.listed("maxraises", "maxRaises", num_rounds, UNLIMITED_RAISES, "round")
    num_board_cards = f.listed("numboardcards", "numBoardCards", num_rounds, None, "round")
    try:
        return GameDef(
            betting=f.betting,
            num_players=num_players,
            num_rounds=num_rounds,
            stack=stack,
            blind=blind,
            raise_size=raise_size,
            first_player=tuple(p - 1 for p in first),
            max_raises=max_raises,
            num_suits=f.raw["numsuits"][0],
            num_ranks=f.raw["numranks"][0],
            num_hole_cards=f.raw["numholecards"][0],
            num_board_cards=num_board_cards,
            name=name,
        )
    except GameDefError as exc:  # (named by its key's line: 'g.game:6: a blind is larger than its stack')
        raise GameDefError(f"{f.where(exc.key)}: {str(exc).removeprefix('game definition: ')}") from None


class _Keys:
    """The numbers each keyword of a ``.game`` text gave, the line it was on, and the betting.

    A plain class: a dataclass would generate its methods at every import (1.8M instructions, a
    share of each small command's start-up) for an object only the reader uses."""

    def __init__(self, source: str, betting: Betting) -> None:
        self.source = source
        self.raw: dict[str, list[int]] = {}
        self.lines: dict[str, int] = {}
        self.betting = betting
        self.ignored: list[tuple[int, str]] = []  # lines that name no key (notes, or a key misspelt)

    def missing(self, label: str, more: str = "") -> GameDefError:
        """'missing required numHoleCards', and the line that may have meant a key ('numHoleCard = 2',
        which the reference ignores too: the error named no line and the file looked right)."""
        for known in ((label,), _LABELS):  # a line near the missing key first, else near any ('no-limit')
            for number, line in self.ignored:
                word = re.split(r"[\s=\d]", line, maxsplit=1)[0]
                hint = did_you_mean(word, known) if len(word) > 2 else ""
                if hint:
                    return GameDefError(f"{self.source}: missing required {label}{more}; line {number} "
                                        f"({line.strip()!r}) names no key: {hint.strip()}")
        return GameDefError(f"{self.source}: missing required {label}{more}")

    def where(self, key: str) -> str:
        return f"{self.source}:{self.lines[key]}" if key in self.lines else self.source

    def single(self, key: str, label: str) -> int:
        if key not in self.raw:
            raise self.missing(label)
        return self.raw[key][0]

    def listed(self, key: str, label: str, count: int, default: int | None, unit: str) -> tuple[int, ...]:
        """One value per ``unit`` (position or round); ``default`` for each when the key is absent."""
        if key not in self.raw:
            if default is None:
                raise self.missing(label, f" (one value per {unit})")
            return (default,) * count
        values = self.raw[key]
        if len(values) != count:
            raise GameDefError(
                f"{self.where(key)}: {label} has {len(values)} value{'s' * (len(values) != 1)} "
                f"but the game has {count} {unit}s"
            )
        return tuple(values)


def _read_keys(text: str, source: str) -> _Keys:
    """The keywords of a ``.game`` text, as the reference reads them (case-insensitive prefixes at
    column 0; the last of ``limit``/``nolimit`` wins; ``END GAMEDEF`` ends it)."""
    keys = _Keys(source, Betting.LIMIT)
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{source}:{number}"
        if len(line.encode()) >= MAX_LINE_BYTES:
            raise GameDefError(f"{where}: line longer than {MAX_LINE_BYTES - 1} bytes")
        if not line or line[0] in "#":
            continue
        if line[0].isspace():
            _refuse_an_indented_key(line, where)
            continue
        lower = line.lower()
        key = next((k for k in _KEYWORDS if lower.startswith(k)), None)
        if key == "end gamedef":
            break
        if key is None:
            keys.ignored.append((number, line))
        elif key in ("limit", "nolimit"):
            keys.betting = Betting.LIMIT if key == "limit" else Betting.NOLIMIT
        elif key is not None and key != "gamedef":
            keys.raw[key] = _ints(line[len(key) :], _LABEL[key], where)  # (named as written: 'numRounds', not 'numrounds')
            keys.lines[key] = number
            if key in _BYTE_KEYS and max(keys.raw[key]) > BYTE_MAX:
                big = max(keys.raw[key])
                raise GameDefError(f"{where}: {_BYTE_KEYS[key]} {big}: at most {BYTE_MAX} (the reference dealer reads it "
                                   f"in one byte, as {big % 256}){'; leave maxRaises out for no cap' * (key == 'maxraises')}")
    return keys


def _refuse_an_indented_key(line: str, where: str) -> None:
    """An indented line that would be a key at column 0 is an error: the reference dealer ignores
    it, so the game silently lost that key (``  maxRaises = 2 2``: unlimited raises; an indented
    ``numPlayers``: 'missing required numPlayers'). Other indented lines stay ignored, as there."""
    if any(line.lstrip().lower().startswith(k) for k in _KEYWORDS):
        raise GameDefError(f"{where}: {line!r} is indented; game files take keys at the start of the line "
                           "(the reference dealer ignores indented lines): remove the indent")


def load_gamedef(path: str | Path) -> GameDef:
    """Read a ``.game`` file; a missing or unreadable file is a ``GameDefError`` too."""
    p = Path(path)
    try:
        if not stat.S_ISREG(p.stat().st_mode):  # (opening a FIFO waited for ever for a writer)
            raise GameDefError(f"{p}: {_not_a_file(p)}, not a .game file: give the path of a game file")
        with p.open("rb") as f:
            raw = f.read(MAX_GAMEDEF_BYTES + 1)
    except OSError as exc:
        raise GameDefError(f"cannot read game file {p}: {exc.strerror or exc}") from None
    if len(raw) > MAX_GAMEDEF_BYTES:  # (a 12 MB file of comments took 4 s and 290 MB to say it holds no game)
        raise GameDefError(f"{p}: over {MAX_GAMEDEF_BYTES >> 10} KiB: not a .game file (one is a dozen short lines)")
    # utf-8-sig: a byte-order mark (Notepad's) would hide a first line's keyword
    return parse_gamedef(raw.decode("utf-8-sig", "replace"), source=str(p), name=p.stem)


def _not_a_file(p: Path) -> str:
    return "a folder" if p.is_dir() else "a pipe" if p.is_fifo() else "a device or socket"


MAX_GAMEDEF_BYTES = 1 << 16
"""The largest ``.game`` file read (the reference's files are a few hundred bytes)."""


def format_gamedef(g: GameDef) -> str:
    """The ``.game`` text of ``g``, in the layout of the reference server's files."""

    def join(values: tuple[int, ...]) -> str:
        return " ".join(str(v) for v in values)

    lines = ["GAMEDEF", g.betting.value, f"numPlayers = {g.num_players}", f"numRounds = {g.num_rounds}"]
    if g.is_nolimit or any(s != UNLIMITED_STACK for s in g.stack):  # (a no-limit file without stacks is refused)
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

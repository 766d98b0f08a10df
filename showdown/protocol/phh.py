"""Poker Hand History (PHH) text: our hands out as PHH tables, PHH hands back into our hands.

PHH is the hand-history format of the University of Toronto's pokerkit and of public hand-history
data sets (J. Kim, "Recording and Describing Poker Hands", 2024; the phh-std specification). A hand
is a TOML document: the variant (``NT`` no-limit, ``FT`` fixed-limit Texas hold'em), antes, blinds,
stacks, the minimum bet or the two bet sizes, and ``actions``: ``d dh p1 AsKd`` (hole cards),
``d db 8c9cTh`` (board), ``p2 f`` / ``p2 cc`` / ``p2 cbr 300`` (fold, check or call, bet or raise
*to 300 on this street*) and ``p1 sm AsKd`` (shows at the showdown). A ``.phhs`` file holds many
hands, one TOML table each (``[1]``, ``[2]``, ...).

Mapping: PHH player ``p<i>`` is our position ``i - 1``. PHH and pokerkit seat heads-up play with the
blinds reversed (``p1`` posts the second of ``blinds_or_straddles``), so a heads-up game's blinds are
written in the reverse order of the ``.game`` file's. Our no-limit raises are totals over the hand
(``r600``); PHH's are totals on the street, so the street's opening bet is subtracted. Pure: text in,
values out; files are opened by the caller. TOML is read with ``tomllib`` (never ``eval``).
"""

from __future__ import annotations

import functools
import json
import re
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii as _toml_str  # JSON string escapes are TOML basic-string escapes
from typing import Any

from showdown.errors import CardError, GameDefError, IllegalActionError, ProtocolError
from showdown.games.cards import Card, format_cards, parse_cards
from showdown.games.gamedef import MAX_PLAYERS, UNLIMITED_RAISES, Betting, GameDef
from showdown.games.hand_value import hand_value
from showdown.games.live_hand import LiveHand
from showdown.games.state import CALL, FOLD, RAISE, Action, ActionKind, split_pots
from showdown.protocol.logfile import LoggedHand, format_value

HOLDEM_BOARD = (0, 3, 1, 1)
PHH_LIMIT_RAISES = 4
"""pokerkit's fixed-limit cap: four bets or raises a street, the blinds not counted."""


@dataclass(frozen=True, slots=True)
class PhhHand:
    """One PHH hand in our terms: the game it implies, the hand, and what PHH carries beside.

    ``seats`` are 0-based seat numbers by position (None when the file gives none); ``label`` is the
    game's name as the exporter wrote it (``_game``), ``seed`` the match's dealing seed (``_seed``),
    ``match`` its name (``event``)."""

    game: GameDef
    hand: LoggedHand
    seats: tuple[int, ...] | None = None
    label: str | None = None
    seed: int | None = None
    match: str | None = None
    betting: str = ""
    """The hand's ACPC betting text (``hand.betting_text``, kept as the replay wrote it)."""


# --------------------------------------------------------------------------------- the game


def phh_variant(game: GameDef) -> str:
    """``NT`` or ``FT`` for a Texas hold'em game PHH can state, else a ``ProtocolError`` saying why."""
    where = f"game {game.name or '?'} cannot be written as PHH"
    if (game.num_rounds, game.num_board_cards, game.num_hole_cards, game.num_suits, game.num_ranks) != (4, HOLDEM_BOARD, 2, 4, 13):
        raise ProtocolError(f"{where}: PHH's hold'em variants need 52 cards, 2 hole cards and boards of 3, 1 and 1 (this is no Texas hold'em)")
    if game.first_player != pokerkit_first_players(_phh_blinds(game)):
        raise ProtocolError(f"{where}: its firstPlayer is not the usual order (after the big blind preflop, the first seat later), "
                            "the only one PHH states")  # fmt: skip
    if game.is_nolimit:
        return "NT"
    small, _, big, _ = game.raise_size
    if game.raise_size != (small, small, big, big):
        raise ProtocolError(f"{where}: PHH's fixed limit has one small bet (preflop and flop) and one big bet (turn and river)")
    if any(m > PHH_LIMIT_RAISES for m in game.max_raises):
        raise ProtocolError(f"{where}: PHH's fixed limit allows at most {PHH_LIMIT_RAISES} raises a round")
    return "FT"


def _phh_blinds(game: GameDef) -> tuple[int, ...]:
    return tuple(reversed(game.blind)) if game.num_players == 2 else game.blind


def pokerkit_first_players(phh_blinds: Sequence[int]) -> tuple[int, ...]:
    """Who opens each round (positions), as pokerkit seats a PHH hand: preflop the player after the
    largest blind (the later one on a tie; heads-up with the blinds reversed), then ``p1``."""
    n = len(phh_blinds)
    blinds = list(reversed(phh_blinds)) if n == 2 else list(phh_blinds)
    largest = max(range(n), key=lambda i: (blinds[i], i))
    return ((largest + 1) % n, 0, 0, 0)


def game_from_phh(variant: str, blinds: Sequence[int], stacks: Sequence[int], bets: Sequence[int]) -> GameDef:
    """The ``.game`` a PHH hand plays: ``bets`` is ``[min_bet]`` (NT) or ``[small_bet, big_bet]`` (FT)."""
    return _game_from_phh(variant, tuple(blinds), tuple(stacks), tuple(bets))


@functools.lru_cache(maxsize=64)  # the hands of a file nearly always share one table
def _game_from_phh(variant: str, blinds: tuple[int, ...], stacks: tuple[int, ...], bets: tuple[int, ...]) -> GameDef:
    n = len(blinds)
    acpc_blinds = tuple(reversed(blinds)) if n == 2 else tuple(blinds)
    nolimit = variant == "NT"
    return GameDef(
        betting=Betting.NOLIMIT if nolimit else Betting.LIMIT,
        num_players=n,
        num_rounds=4,
        stack=tuple(stacks),
        blind=acpc_blinds,
        raise_size=() if nolimit else (bets[0], bets[0], bets[1], bets[1]),
        first_player=pokerkit_first_players(blinds),
        max_raises=(UNLIMITED_RAISES,) * 4 if nolimit else (PHH_LIMIT_RAISES,) * 4,
        num_suits=4,
        num_ranks=13,
        num_hole_cards=2,
        num_board_cards=HOLDEM_BOARD,
    )


def _bet_fields(game: GameDef) -> list[tuple[str, int]]:
    if game.is_nolimit:
        return [("min_bet", game.big_blind)]
    return [("small_bet", game.raise_size[0]), ("big_bet", game.raise_size[2])]


def same_table(a: GameDef, b: GameDef) -> bool:
    """Whether two hold'em games agree on all PHH states (blinds, stacks, bet sizes; not the raise cap)."""
    return (a.betting, a.blind, a.stack, a.first_player, _bet_fields(a)) == (b.betting, b.blind, b.stack, b.first_player, _bet_fields(b))


# --------------------------------------------------------------------------------- out


def _ints(values: Iterable[int]) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def _strs(values: Iterable[str]) -> str:
    return "[" + ", ".join(_toml_str(v) for v in values) + "]"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


class NoPhhForm(ProtocolError):
    """A legal hand of ours that pokerkit's rules refuse (see ``_Reopening``): it has no PHH form."""


class _Reopening:
    """pokerkit's reading of the no-limit rule that an all-in raise short of a full raise does not
    reopen the betting to those who have acted (TDA rule 43; fixed limit alike): the reference dealer
    has no such rule, so a hand that breaks it has no PHH form pokerkit accepts."""

    def __init__(self) -> None:
        self.full = 0  # the largest raise increment this street
        self.acted: set[int] = set()
        self.short: list[int] = []  # increments of the all-in raises short of ``full`` in a row

    def refuses(self, hand: LiveHand, p: int, to: int) -> bool:
        """Whether pokerkit refuses position ``p``'s raise to ``to`` (chips in the hand): a covered
        player's raise, a raise no one left can answer but by calling all in, a raise when the betting
        is not reopened, or one below pokerkit's minimum (the bet plus the street's largest raise; the
        reference's minimum forgets a short all-in's raise)."""
        stack = hand.game.stack
        if stack[p] <= hand.max_spent:
            return True
        if not any(not hand.folded[q] and stack[q] > hand.max_spent for q in range(len(stack)) if q != p):
            return True
        owed = min(stack[p], hand.max_spent) - hand.spent[p]
        if owed < self.full or (bool(self.short) and sum(self.short) < self.full and p in self.acted):
            return True
        return to < stack[p] and to - hand.max_spent < self.full

    def raised(self, p: int, increment: int, all_in: bool) -> None:
        if increment >= self.full:
            self.acted = {p}
        self.full = max(self.full, increment)
        if all_in:
            self.short.append(increment)
        else:
            self.short.clear()
        if sum(self.short) >= self.full:
            self.short.clear()


_LIVE: dict[int, LiveHand] = {}


def _live_hand(game: GameDef) -> LiveHand:
    """A fresh hand of ``game`` (one ``LiveHand`` per game object, reset: a file's hands share
    their game; keyed by identity, as hashing a ``GameDef`` costs more than the hand)."""
    live = _LIVE.get(id(game))
    if live is None or live.game is not game:
        if len(_LIVE) > 64:
            _LIVE.clear()
        live = _LIVE[id(game)] = LiveHand(game)
    live.reset()
    return live


def _illegal(hand: LiveHand, p: int, action: Action) -> str | None:
    """Why ``action`` by ``p`` is not legal at ``hand`` (None when it is): the rules' checks, on the
    dealer's in-place hand (export and import replay every action, so it must be cheap)."""
    if hand.finished:
        return "the hand is over"
    if p != hand.player:
        return f"position {hand.player} is to act"
    if action.kind is ActionKind.FOLD:
        return None if hand.can_fold() else "a fold with nothing to call"
    if action.kind is ActionKind.RAISE:
        bounds = hand.raise_bounds()
        if bounds is None:
            return "no raise is allowed here"
        if action.size and not bounds[0] <= action.size <= bounds[1]:  # a no-limit size (limit raises have none)
            return f"raise to {action.size} is outside the legal range {bounds[0]} to {bounds[1]}"
    return None


def _raise_to(hand: LiveHand, action: Action) -> int:
    if action.size:
        return action.size
    bounds = hand.raise_bounds()
    return bounds[0] if bounds else hand.max_spent


def phh_actions(game: GameDef, hand: LoggedHand) -> list[str]:
    """The PHH ``actions`` of a logged hand, replayed through the rules (``IllegalActionError`` if
    its betting is not legal, ``NoPhhForm`` if pokerkit would refuse it): cards dealt, every action
    with its street size, the showdown."""
    n = game.num_players
    actions = [f"d dh p{p + 1} {format_cards(hand.hole[p])}" for p in range(n)]
    live = _live_hand(game)
    last_raiser: int | None = None
    final_round = 0
    for r, round_actions in enumerate(hand.betting):
        if not round_actions:
            continue
        if r > 0 and hand.board[r]:
            actions.append(f"d db {format_cards(hand.board[r])}")
        base = live.max_spent if r else 0  # street bets: preflop's include the blinds
        last_raiser, reopening = None, _Reopening()
        for action in round_actions:
            p = live.player
            why = "round ended" if live.round != r else _illegal(live, p, action)
            if why is not None:
                raise IllegalActionError(f"hand {hand.hand}: illegal action {action} at '{live.betting}': {why}")
            if action.kind is ActionKind.RAISE:
                to = _raise_to(live, action)
                if reopening.refuses(live, p, to):
                    raise NoPhhForm(f"hand {hand.hand}: p{p + 1} raises after an all-in short of a full raise, which PHH's "
                                    "rules (pokerkit's) forbid and the reference dealer's allow; it has no PHH form")  # fmt: skip
                before = live.max_spent
                live.apply(action)
                actions.append(f"p{p + 1} cbr {live.max_spent - base}")
                reopening.raised(p, live.max_spent - before, live.spent[p] >= game.stack[p])
                last_raiser = p
            else:
                live.apply(action)
                actions.append(f"p{p + 1} {'f' if action.kind is ActionKind.FOLD else 'cc'}")
                reopening.acted.add(p)
        final_round = r
    if not live.finished:
        raise IllegalActionError(f"hand {hand.hand}: the betting {hand.betting_text!r} does not finish the hand")
    if live.is_showdown:
        opener = last_raiser if last_raiser is not None else game.first_player[final_round]
        for k in range(n):
            p = (opener + k) % n
            if not live.folded[p]:
                actions.append(f"p{p + 1} sm {format_cards(hand.hole[p])}")
        for r in range(final_round + 1, len(hand.board)):
            if hand.board[r]:
                actions.append(f"d db {format_cards(hand.board[r])}")
    return actions


def format_phh_hand(
    game: GameDef,
    hand: LoggedHand,
    *,
    variant: str | None = None,
    seats: Sequence[int] | None = None,
    label: str | None = None,
    seed: int | None = None,
    match: str | None = None,
) -> str:
    """One hand as a ``.phhs`` table ``[<hand number>]`` (TOML); ``variant`` from ``phh_variant``
    when already known. Final stacks are the starting stacks plus the log's values."""
    variant = variant or phh_variant(game)
    stacks = game.stack
    lines = [
        f"[{hand.hand}]",
        f'variant = "{variant}"',
        f"antes = {_ints([0] * game.num_players)}",
        f"blinds_or_straddles = {_ints(_phh_blinds(game))}",
        *(f"{key} = {value}" for key, value in _bet_fields(game)),
        f"starting_stacks = {_ints(stacks)}",
        "actions = [" + ", ".join(_toml_str(a) for a in phh_actions(game, hand)) + "]",
        f"hand = {hand.hand}",
        f"players = {_strs(hand.names)}",
    ]
    if seats is not None:
        lines.append(f"seats = {_ints(s + 1 for s in seats)}")
    lines.append("finishing_stacks = [" + ", ".join(_number(s + v) for s, v in zip(stacks, hand.values)) + "]")
    if match is not None:
        lines.append(f"event = {_toml_str(match)}")
    if label is not None:
        lines.append(f"_game = {_toml_str(label)}")
    if seed is not None:
        lines.append(f"_seed = {int(seed)}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------- in

_TABLE = re.compile(r"\[\s*([^\]\[]+?)\s*\]\s*(#.*)?")


def split_phhs(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """The hands of a ``.phh`` or ``.phhs`` text, one at a time: (first line number, TOML text).

    A ``.phhs`` starts each hand with a table header at the start of a line (``[12]``); a ``.phh``
    is one hand with no header. Memory stays flat however many hands the file holds."""
    chunk: list[str] = []
    start = 1
    content = False  # whether the chunk has more than blank lines and comments
    for number, line in enumerate(lines, start=1):
        if line[:1] == "[" and _TABLE.fullmatch(line.rstrip("\r\n")):
            if content:
                yield start, "".join(chunk)
            chunk, start, content = [], number, False
        elif not content:
            bare = line.strip()
            content = bool(bare) and bare[0] != "#"
        chunk.append(line if line.endswith("\n") else line + "\n")
    if content:
        yield start, "".join(chunk)


class _Fields:
    """A hand's TOML fields, each read with a message naming the field when it is wrong."""

    def __init__(self, doc: dict[str, Any], where: str) -> None:
        self.doc = doc
        self.where = where

    def fail(self, name: str, what: str) -> ProtocolError:
        return ProtocolError(f"{self.where}: field {name!r}: {what}")

    def get(self, name: str, required: bool = True) -> Any:
        if name not in self.doc:
            if required:
                raise self.fail(name, "missing (a PHH hand needs variant, antes, blinds_or_straddles, starting_stacks, actions "
                                "and min_bet, or small_bet and big_bet)")  # fmt: skip
            return None
        return self.doc[name]

    def integer(self, name: str, low: int = 0, required: bool = True) -> int | None:
        value = self.get(name, required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value < 2**31:
            raise self.fail(name, f"{value!r} is not a whole number of chips from {low} to {2**31 - 1}")
        return value

    def integers(self, name: str, count: int | None, low: int = 0) -> list[int]:
        value = self.get(name)
        if not isinstance(value, list) or (count is not None and len(value) != count):
            want = f"{count} whole numbers" if count is not None else "a list of whole numbers"
            raise self.fail(name, f"{_short(value)} is not {want}")
        for v in value:
            if isinstance(v, bool) or not isinstance(v, int) or not low <= v < 2**31:
                raise self.fail(name, f"{v!r} is not a whole number of chips from {low} to {2**31 - 1}")
        return value

    def strings(self, name: str, count: int | None = None, required: bool = True) -> list[str] | None:
        value = self.get(name, required)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value) or (count is not None and len(value) != count):
            want = f"{count} strings" if count is not None else "a list of strings"
            raise self.fail(name, f"{_short(value)} is not {want}")
        return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_NAME_BAD = re.compile(r"[:|\s]+")


def _clean_name(name: str, p: int) -> str:
    """A PHH name as a log name: no spaces, ':' or '|' (our lines separate with them)."""
    return _NAME_BAD.sub("_", name.strip()) or f"p{p + 1}"


_SIMPLE_LINE = re.compile(r'([A-Za-z_][A-Za-z0-9_]*) = (-?(?:0|[1-9][0-9]*)|true|false|"[^"\\\x00-\x1f\x7f]*"'
                          r'|\[(?:-?(?:0|[1-9][0-9]*)(?:, -?(?:0|[1-9][0-9]*))*|"[^"\\\x00-\x1f\x7f]*"(?:, "[^"\\\x00-\x1f\x7f]*")*)?\])')
_SIMPLE_TABLE = re.compile(r"\[([A-Za-z0-9_-]+)\]")


def _simple_toml(text: str) -> dict[str, Any] | None:
    """The TOML of a hand as written by us (and by pokerkit): one ``key = value`` a line, values
    whole numbers, booleans, strings without escapes, or one-line lists of those. Such a value is
    JSON text too, read by ``json`` (tens of times faster than ``tomllib``); anything else -> None,
    and ``tomllib`` reads the hand."""
    table: str | None = None
    keys: set[str] = set()
    parts: list[str] = []
    for line in text.splitlines():
        if not line or line[0] == "#":
            continue
        m = _SIMPLE_LINE.fullmatch(line)
        if m is None:
            t = _SIMPLE_TABLE.fullmatch(line)
            if t is None or table is not None or parts:
                return None
            table = t.group(1)
            continue
        key = m.group(1)
        if key in keys:
            return None  # tomllib says what is wrong
        keys.add(key)
        parts.append(f'"{key}":{m.group(2)}')
    doc: dict[str, Any] = json.loads("{" + ",".join(parts) + "}")
    return doc if table is None else {table: doc}


def parse_phh_hand(text: str, where: str, index: int = 0) -> PhhHand:
    """One hand's TOML text (with or without its ``[table]`` header) -> ``PhhHand``; any fault is a
    ``ProtocolError`` naming ``where`` (file and line) and the field. ``index`` numbers a hand that
    has no ``hand`` field."""
    f = _read_fields(text, where)
    game = _table_game(f)
    n = game.num_players
    actions = f.strings("actions")
    assert actions is not None
    number = f.doc.get("hand", index)
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        number = index
    players = f.strings("players", n, required=False)
    names = tuple(_clean_name(players[p], p) if players else f"p{p + 1}" for p in range(n))
    seats = tuple(s - 1 for s in f.integers("seats", n, low=1)) if "seats" in f.doc else None
    hand, betting = _replay(game, actions, number, names, f)
    _check_finishing(f, game, hand)
    label, seed, match = f.doc.get("_game"), f.doc.get("_seed"), f.doc.get("event")
    return PhhHand(
        game, hand, seats,
        label if isinstance(label, str) else None,
        seed if isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0 else None,
        match if isinstance(match, str) else None,
        betting,
    )  # fmt: skip


def _read_fields(text: str, where: str) -> _Fields:
    doc = _simple_toml(text)
    if doc is None:
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ProtocolError(f"{where}: not valid PHH (TOML): {exc}") from None
    tables = [v for v in doc.values() if isinstance(v, dict)]
    if len(doc) == 1 and len(tables) == 1:
        key = next(iter(doc))
        doc, where = tables[0], f"{where} [{key}]"
    return _Fields(doc, where)


def _table_game(f: _Fields) -> GameDef:
    """The game the hand's variant, blinds, antes, stacks and bet sizes describe."""
    variant = f.get("variant")
    if variant not in ("NT", "FT"):
        raise f.fail("variant", f"{_short(variant)}: showdown reads the Texas hold'em variants 'NT' (no-limit) and 'FT' (fixed-limit)")
    blinds = f.integers("blinds_or_straddles", None)
    n = len(blinds)
    if not 2 <= n <= MAX_PLAYERS:
        raise f.fail("blinds_or_straddles", f"{n} players: showdown plays 2 to {MAX_PLAYERS}")
    if any(f.integers("antes", n)):
        raise f.fail("antes", "showdown's games have no antes (all must be 0)")
    stacks = f.integers("starting_stacks", n, low=1)
    if variant == "NT":
        bets = [f.integer("min_bet", 1)]
        if bets[0] != max(blinds):
            raise f.fail("min_bet", f"{bets[0]} differs from the big blind {max(blinds)} (our no-limit rules tie them)")
    else:
        bets = [f.integer("small_bet", 1), f.integer("big_bet", 1)]
    try:
        return game_from_phh(variant, blinds, stacks, [b for b in bets if b is not None])
    except GameDefError as exc:
        raise f.fail("blinds_or_straddles", str(exc)) from None


def _check_finishing(f: _Fields, game: GameDef, hand: LoggedHand) -> None:
    """``finishing_stacks``, when given, must be what the actions give (split pots' odd chips aside)."""
    finishing = f.doc.get("finishing_stacks")
    if finishing is None:
        return
    n = game.num_players
    if not isinstance(finishing, list) or len(finishing) != n or not all(isinstance(v, (int, float)) for v in finishing):
        raise f.fail("finishing_stacks", f"{_short(finishing)} is not {n} numbers")
    for p, (start, end, value) in enumerate(zip(game.stack, finishing, hand.values)):
        if abs(end - start - value) >= (n if value % 1 else 1):
            raise f.fail("finishing_stacks", f"p{p + 1} ends with {end}, but the actions give {format_value(start + value)}")


_PLAYERS = {f"p{p + 1}": p for p in range(MAX_PLAYERS)}
_CARDS = {format_cards((c,)): c for c in range(52)}
_HOLDINGS = {format_cards((a, b)): (a, b) for a in range(52) for b in range(52) if a != b}  # every hold'em hand's text


def _player(word: str, n: int, f: _Fields, i: int, text: str) -> int:
    p = _PLAYERS.get(word, n)
    if p >= n:
        raise f.fail("actions", f"[{i}] {text!r}: no player {word!r} (p1 to p{n})")
    return p


def _cards(text: str, f: _Fields, i: int, action: str) -> tuple[Card, ...]:
    pair = _HOLDINGS.get(text)
    if pair is not None:
        return pair
    try:
        cards = tuple(_CARDS[text[k : k + 2]] for k in range(0, len(text), 2))
        if len(text) % 2 == 0:
            return cards
    except KeyError:
        pass
    try:
        return parse_cards(text)  # the reason, in its words
    except CardError as exc:
        why = "unknown cards ('??'): our logs need every card" if "?" in text else str(exc)
        raise f.fail("actions", f"[{i}] {action!r}: {why}") from None
    raise AssertionError("unreachable: cards parse_cards takes are all in _CARDS")


def _replay(game: GameDef, actions: list[str], number: int, names: tuple[str, ...], f: _Fields) -> tuple[LoggedHand, str]:
    """Cards first (our hands are dealt up front), then the betting through the rules."""
    holes, board, betting = _deal(game, actions, f)
    live = _live_hand(game)
    rounds: list[list[Action]] = [[]]
    base = 0  # what each player still in had put in before this street (PHH's sizes are street totals)
    for i, raw, words in betting:
        p = _player(words[0], game.num_players, f, i, raw)
        if words[1] == "sm":
            if len(words) == 3 and words[2] != "-" and _cards(words[2], f, i, raw) != holes[p]:
                raise f.fail("actions", f"[{i}] {raw!r}: shows other cards than p{p + 1} was dealt")
            continue
        if live.finished:
            raise f.fail("actions", f"[{i}] {raw!r}: the betting is over")
        if live.player != p:
            raise f.fail("actions", f"[{i}] {raw!r}: p{live.player + 1} is to act")
        action = _action(game, live, base, words, f, i, raw)
        why = _illegal(live, p, action)
        if why is not None:
            raise f.fail("actions", f"[{i}] {raw!r}: {why}")
        live.apply(action)
        rounds[-1].append(action)
        while len(rounds) <= live.round:
            rounds.append([])
        if not live.finished and len(rounds) - 1 == live.round and not rounds[-1]:
            base = live.max_spent
            if len(board) <= live.round:
                raise f.fail("actions", f"[{i + 1}]: round {live.round + 1} starts before its board is dealt ('d db')")
    if not live.finished:
        raise f.fail("actions", f"the hand stops with p{live.player + 1} to act")
    if len(board) != live.round + 1:
        raise f.fail("actions", f"{len(board) - 1} boards dealt; the hand reaches {live.round}")
    strengths: list[int] = []
    if live.is_showdown:
        visible = tuple(c for g in board for c in g)
        strengths = [-1 if live.folded[p] else hand_value(holes[p] + visible) for p in range(game.num_players)]
    values = split_pots(live.spent, live.folded, strengths)
    return LoggedHand(number, tuple(map(tuple, rounds)), holes, tuple(board), values, names), live.betting


def _deal(game: GameDef, actions: list[str], f: _Fields) -> tuple[tuple[tuple[Card, ...], ...], list[tuple[Card, ...]], list[tuple[int, str, list[str]]]]:
    """The hole cards by position, the board by round, and the players' actions (index, text, words)."""
    n = game.num_players
    hole: list[tuple[Card, ...] | None] = [None] * n
    board: list[tuple[Card, ...]] = [()]
    betting: list[tuple[int, str, list[str]]] = []
    for i, raw in enumerate(actions):
        words = (raw.split("#", 1)[0] if "#" in raw else raw).split()
        if not words:
            continue
        if words[0] != "d":
            if len(words) < 2:
                raise f.fail("actions", f"[{i}] {raw!r}: not a PHH action (d dh, d db, f, cc, cbr, sm)")
            betting.append((i, raw, words))
        elif words[1:2] == ["dh"] and len(words) == 4:
            p = _player(words[2], n, f, i, raw)
            hole[p] = _cards(words[3], f, i, raw)
            if len(hole[p] or ()) != game.num_hole_cards:
                raise f.fail("actions", f"[{i}] {raw!r}: {game.num_hole_cards} hole cards expected")
        elif words[1:2] == ["db"] and len(words) == 3:
            board.append(_cards(words[2], f, i, raw))
            r = len(board) - 1
            if r >= game.num_rounds or len(board[r]) != game.num_board_cards[r]:
                raise f.fail("actions", f"[{i}] {raw!r}: the board comes as 3, 1 and 1 cards")
        else:
            raise f.fail("actions", f"[{i}] {raw!r}: not a PHH action (d dh, d db, f, cc, cbr, sm)")
    missing = [f"p{p + 1}" for p in range(n) if hole[p] is None]
    if missing:
        raise f.fail("actions", f"no hole cards dealt to {', '.join(missing)} ('d dh pN cards')")
    holes = tuple(h or () for h in hole)
    cards = [c for g in board for c in g] + [c for h in holes for c in h]
    if len(set(cards)) != len(cards):
        raise f.fail("actions", "a card is dealt twice")
    return holes, board, betting


def _action(game: GameDef, state: LiveHand, base: int, words: list[str], f: _Fields, i: int, raw: str) -> Action:
    kind = words[1]
    if kind == "f" and len(words) == 2:
        if not state.can_fold():
            raise f.fail("actions", f"[{i}] {raw!r}: a fold with nothing to call (check instead: 'pN cc')")
        return FOLD
    if kind == "cc" and len(words) == 2:
        return CALL
    if kind == "cbr" and len(words) == 3 and words[2].isdigit():
        to = base + int(words[2])
        if game.is_limit:
            bounds = state.raise_bounds()
            if bounds is None or bounds[0] != to:
                want = f"a raise to {bounds[0] - base}" if bounds else "no raise"
                raise f.fail("actions", f"[{i}] {raw!r}: the fixed limit allows {want} here")
            return RAISE
        return Action(ActionKind.RAISE, to)
    raise f.fail("actions", f"[{i}] {raw!r}: expected 'pN f', 'pN cc', 'pN cbr AMOUNT' or 'pN sm CARDS'")

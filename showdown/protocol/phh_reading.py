"""PHH hands back into our hands: ``split_phhs`` cuts a ``.phhs`` file into its tables,
``parse_phh_hand`` reads one (the game it implies, the hand replayed by our rules). The format and
the mapping between PHH's players and bets and ours: ``phh``. Pure: text in, values out; TOML is read
with ``tomllib`` (never ``eval``).
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Iterable, Iterator
from typing import Any

from showdown.errors import CardError, GameDefError, ProtocolError
from showdown.games.cards import Card, format_cards, parse_cards
from showdown.games.dealing import MAX_SEED
from showdown.games.gamedef import MAX_PLAYERS, UNLIMITED_STACK, GameDef
from showdown.games.hand_value import hand_value
from showdown.games.live_hand import LiveHand
from showdown.games.state import CALL, FOLD, RAISE, Action, ActionKind, split_pots
from showdown.protocol.logfile import MAX_HANDS, LoggedHand, format_value
from showdown.protocol.phh import TIME_LIMIT_FIELDS, PhhHand, fresh_live_hand, game_from_phh, illegal_reason

__all__ = ["log_word", "parse_phh_hand", "split_phhs"]

# --------------------------------------------------------------------------------- in

_TABLE = re.compile(r"\[\s*([^\]\[]+?)\s*\]\s*(#.*)?")


MAX_PHH_HAND = 1 << 20
"""Characters at most in one hand's text: a 10-player no-limit hand is a few KB, so a longer one (a
``.phh`` of a million lines and no table header) is refused rather than held in memory."""


def split_phhs(lines: Iterable[str], source: str = "<phh>") -> Iterator[tuple[int, str]]:
    """The hands of a ``.phh`` or ``.phhs`` text, one at a time: (first line number, TOML text).

    A ``.phhs`` starts each hand with a table header at the start of a line (``[12]``); a ``.phh``
    is one hand with no header. Memory stays flat however many hands the file holds: a hand of more
    than ``MAX_PHH_HAND`` characters is a ``ProtocolError`` naming ``source`` and its first line."""
    chunk: list[str] = []
    size = 0
    start = 1
    content = False  # whether the chunk has more than blank lines and comments
    for number, line in enumerate(lines, start=1):
        if line[:1] == "[" and _TABLE.fullmatch(line.rstrip("\r\n")):
            if content:
                yield start, "".join(chunk)
            chunk, size, start, content = [], 0, number, False
        elif not content:
            bare = line.strip()
            content = bool(bare) and bare[0] != "#"
        size += len(line)
        if size > MAX_PHH_HAND:
            raise ProtocolError(f"{source}:{start}: a hand of more than {MAX_PHH_HAND:,} characters (a PHH hand is a "
                                "few KB; a .phhs starts each hand with a table header like [1])")
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
        chips = _whole(value)
        if chips is None or not low <= chips < 2**31:
            raise self.fail(name, f"{_short(value)} is not a whole number of chips from {low} to {2**31 - 1}")
        return chips

    def integers(self, name: str, count: int | None, low: int = 0, what: str = "a whole number of chips", inf: int | None = None) -> list[int]:
        """The field's whole numbers; with ``inf``, an ``inf`` entry (PHH's unknown stack) is that number."""
        value = self.get(name)
        if not isinstance(value, list) or (count is not None and len(value) != count):
            want = f"{count} whole numbers" if count is not None else "a list of whole numbers"
            raise self.fail(name, f"{_short(value)} is not {want}")
        chips = [inf if inf is not None and v == math.inf else _whole(v) for v in value]
        for v, c in zip(value, chips):
            if c is None or not low <= c < 2**31:
                raise self.fail(name, f"{_short(v)} is not {what} from {low} to {2**31 - 1}")
        return [c for c in chips if c is not None]

    def strings(self, name: str, count: int | None = None, required: bool = True) -> list[str] | None:
        value = self.get(name, required)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value) or (count is not None and len(value) != count):
            want = f"{count} strings" if count is not None else "a list of strings"
            raise self.fail(name, f"{_short(value)} is not {want}")
        return value


def _whole(value: Any) -> int | None:
    """A chip count as an int: an int, or a float of a whole number (PHH's fields are "integers or
    floats", and pokerkit writes 20000.0 for a state of float chips: it was 'is not a whole number');
    None for anything else (True is no chip count)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_NAME_BAD = re.compile(r"[:|\s\x00-\x1f\x7f-\x9f]+")


MAX_LOG_WORD = 256
"""Characters kept of a name or an event: a hand of ten names of 100,000 characters made log lines
over the readers' 1 MiB bound, a log that analyze refused."""


def log_word(text: str) -> str:
    """``text`` as one word of a log line: spaces, ':', '|' and control characters (a terminal's
    escapes among them) as '_', at most ``MAX_LOG_WORD`` characters. Our lines separate fields with
    them, and an event with a space or a newline ('event = "a b"') made a header that analyze and
    verify-log did not read."""
    return _NAME_BAD.sub("_", text.strip()[:MAX_LOG_WORD])


def _clean_name(name: str, p: int) -> str:
    """A PHH name as a log name (``log_word``), ``p<N>`` when it has none."""
    return log_word(name) or f"p{p + 1}"


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
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number < MAX_HANDS:
        number = index  # (a log's hand numbers are those of a match: 0 to 2^32 - 2)
    players = f.strings("players", n, required=False)
    names = _names(f, players, n)
    seats = _seats(f, n) if "seats" in f.doc else None
    hand, betting = _replay(game, actions, number, names, f)
    _check_finishing(f, game, hand)
    label, seed, match = f.doc.get("_game"), f.doc.get("_seed"), f.doc.get("event")
    return PhhHand(
        game, hand, seats,
        label if isinstance(label, str) else None,
        seed if isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed <= MAX_SEED else None,
        (log_word(match) or None) if isinstance(match, str) else None,
        betting,
        _time_limits(f.doc),
    )  # fmt: skip


def _time_limits(doc: dict[str, Any]) -> tuple[int, int, int] | None:
    """The exporter's ``_t_response``, ``_t_hand`` and ``_t_per_hand`` (ms) when all three are there
    and are whole numbers a log's header takes; else None (the log gets the defaults)."""
    values = [v for v in (doc.get(key) for key in TIME_LIMIT_FIELDS) if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10**18]
    return (values[0], values[1], values[2]) if len(values) == 3 else None


def _names(f: _Fields, players: list[str] | None, n: int) -> tuple[str, ...]:
    """The players' names as our logs write them, each once: two alike (as given, or once cleaned:
    'a b' and 'a_b') made a log whose seats analyze and report refuse to tell apart."""
    names = tuple(_clean_name(players[p], p) if players else f"p{p + 1}" for p in range(n))
    twice = next((p for p in range(n) if names.index(names[p]) != p), None)
    if twice is None:
        return names
    first = names.index(names[twice])
    given = ""
    if players and players[first] != players[twice]:
        given = f" (given as {_short(players[first])} and {_short(players[twice])})"
    raise f.fail("players", f"p{first + 1} and p{twice + 1} are both {names[twice]!r} in our logs{given}: give each player "
                 "a name of its own (spaces, ':' and '|' become '_')")


def _seats(f: _Fields, n: int) -> tuple[int, ...]:
    """Our seats (0 to n - 1, by position) from PHH's seat numbers at the table: a 9-seat table's
    three players in seats 2, 5 and 9 sit in our seats 0, 1 and 2, in that order (the numbers as
    written made a log our readers refused: 'seats must number each player once, from 0')."""
    numbers = f.integers("seats", n, low=1, what="a seat number (PHH counts seats from 1)")
    if len(set(numbers)) != n:
        raise f.fail("seats", f"{_short(numbers)}: two players in one seat (each player's seat number at the table, once)")
    order = sorted(numbers)
    return tuple(order.index(s) for s in numbers)


def _read_fields(text: str, where: str) -> _Fields:
    try:
        doc = _simple_toml(text)
        if doc is None:
            doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ProtocolError(f"{where}: not valid PHH (TOML): {exc}") from None
    except RecursionError:  # tomllib reads nested arrays recursively
        raise ProtocolError(f"{where}: not valid PHH: arrays nested too deep (a hand's fields are flat lists)") from None
    except ValueError:  # int() of a number of more than 4,300 digits, in tomllib or json: Python's limit
        raise ProtocolError(f"{where}: not valid PHH: a number of more than 4,300 digits (a hand's numbers are chips, "
                            "a hand number or a seed)") from None
    tables = [v for v in doc.values() if isinstance(v, dict)]
    if len(doc) == 1 and len(tables) == 1:
        key = next(iter(doc))
        doc, where = tables[0], f"{where} [{key if len(key) <= 60 else key[:57] + '...'}]"
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
    stacks = f.integers("starting_stacks", n, low=1, inf=UNLIMITED_STACK)  # PHH's unknown stack: one that never binds
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
    if not isinstance(finishing, list) or len(finishing) != n or not all(_is_number(v) for v in finishing):
        raise f.fail("finishing_stacks", f"{_short(finishing)} is not {n} numbers")
    for p, (start, end, value) in enumerate(zip(game.stack, finishing, hand.values)):
        if end == math.inf and start == UNLIMITED_STACK:  # an unknown stack stays unknown
            continue
        if not abs(end - start - value) < (n if value % 1 else 1):  # nan is never near (it passed: 'nan < x' and 'nan >= x' are both false)
            raise f.fail("finishing_stacks", f"p{p + 1} ends with {_short(end)}, but the actions give {format_value(start + value)}")


def _is_number(value: Any) -> bool:
    """A chip count: an int or a float, not a bool (True was 'p1 ends with True')."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_PLAYERS = {f"p{p + 1}": p for p in range(MAX_PLAYERS)}
_CARDS = {format_cards((c,)): c for c in range(52)}
_HOLDINGS = {format_cards((a, b)): (a, b) for a in range(52) for b in range(52) if a != b}  # every hold'em hand's text


def _player(word: str, n: int, f: _Fields, i: int, text: str) -> int:
    p = _PLAYERS.get(word, n)
    if p >= n:
        raise f.fail("actions", f"[{i}] {_short(text)}: no player {_short(word)} (p1 to p{n})")
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
        raise f.fail("actions", f"[{i}] {_short(action)}: {why}") from None
    raise AssertionError("unreachable: cards parse_cards takes are all in _CARDS")


def _replay(game: GameDef, actions: list[str], number: int, names: tuple[str, ...], f: _Fields) -> tuple[LoggedHand, str]:
    """Cards first (our hands are dealt up front), then the betting through the rules."""
    holes, board, betting = _deal(game, actions, f)
    board_at = [-1] + [i for i, raw in enumerate(actions) if raw.split("#", 1)[0].split()[:2] == ["d", "db"]]  # where each street's board is
    live = fresh_live_hand(game)
    rounds: list[list[Action]] = [[]]
    base = 0  # what each player still in had put in before this street (PHH's sizes are street totals)
    mucked: dict[int, tuple[int, str]] = {}  # position -> where its 'pN sm' with no cards is
    for i, raw, words in betting:
        p = _player(words[0], game.num_players, f, i, raw)
        if words[1] == "sm":
            _check_shown(words, holes[p], p, f, i, raw)
            if len(words) == 2:
                mucked[p] = (i, raw)
            continue
        _check_turn(live, p, f, i, raw)
        _check_board_order(board_at, live.round, actions, f, i, raw)
        action = _action(game, live, base, words, f, i, raw)
        _apply(live, p, action, f, i, raw)
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
    values = _values(game, live, holes, board)
    if mucked and live.is_showdown and _values(game, live, holes, board, set(mucked)) != values:
        p, (i, raw) = next((p, at) for p, at in sorted(mucked.items(), key=lambda m: m[1][0]))
        raise f.fail("actions", f"[{i}] {_short(raw)}: p{p + 1} mucks a hand that wins chips at the showdown, and a muck "
                                "forfeits them (PHH); our logs compare every hand still in, so this hand has no log form")
    return LoggedHand(number, tuple(map(tuple, rounds)), holes, tuple(board), values, names), live.betting


def _check_board_order(board_at: list[int], r: int, actions: list[str], f: _Fields, i: int, raw: str) -> None:
    """Action ``i`` of round ``r`` comes after that round's board and before the next one (the cards
    were read first, wherever they stood: a flop dealt before the preflop betting passed, which
    pokerkit refuses)."""
    if r < len(board_at) and board_at[r] > i:
        raise f.fail("actions", f"[{i}] {_short(raw)}: an action of round {r + 1} before its board is dealt ('d db', [{board_at[r]}])")
    if r + 1 < len(board_at) and board_at[r + 1] < i:
        k = board_at[r + 1]
        raise f.fail("actions", f"[{k}] {_short(actions[k])}: the board of round {r + 2} is dealt before round {r + 1}'s betting "
                                f"ends ([{i}] {_short(raw)})")


def _check_shown(words: list[str], hole: tuple[Card, ...], p: int, f: _Fields, i: int, raw: str) -> None:
    """A showdown line (``pN sm CARDS``) shows the cards the player was dealt."""
    if len(words) > 3:  # ('p1 sm AsKd QhQd' passed unread)
        raise f.fail("actions", f"[{i}] {_short(raw)}: expected 'pN sm CARDS' (the cards in one word, or '-' for none)")
    if len(words) == 3 and words[2] != "-" and _cards(words[2], f, i, raw) != hole:
        raise f.fail("actions", f"[{i}] {_short(raw)}: shows other cards than p{p + 1} was dealt")


def _check_turn(live: LiveHand, p: int, f: _Fields, i: int, raw: str) -> None:
    if live.finished:
        raise f.fail("actions", f"[{i}] {_short(raw)}: the betting is over")
    if live.player != p:
        raise f.fail("actions", f"[{i}] {_short(raw)}: p{live.player + 1} is to act")


def _apply(live: LiveHand, p: int, action: Action, f: _Fields, i: int, raw: str) -> None:
    """Player ``p``'s ``action``, when the rules allow it."""
    why = illegal_reason(live, p, action)
    if why is not None:
        raise f.fail("actions", f"[{i}] {_short(raw)}: {why}")
    live.apply(action)


def _values(game: GameDef, live: LiveHand, holes: tuple[tuple[Card, ...], ...], board: list[tuple[Card, ...]],
            forfeit: set[int] | frozenset[int] = frozenset()) -> tuple[float, ...]:
    """What each position won: the pots split by the rules (hands compared when it went to showdown;
    a ``forfeit`` hand, mucked, beats none)."""
    strengths: list[int] = []
    if live.is_showdown:
        visible = tuple(c for g in board for c in g)
        strengths = [-1 if live.folded[p] or p in forfeit else hand_value(holes[p] + visible) for p in range(game.num_players)]
    return split_pots(live.spent, live.folded, strengths)


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
                raise f.fail("actions", f"[{i}] {_short(raw)}: not a PHH action (d dh, d db, f, cc, cbr, sm)")
            betting.append((i, raw, words))
        else:
            _dealer_line(game, words, hole, board, f, i, raw)
    missing = [f"p{p + 1}" for p in range(n) if hole[p] is None]
    if missing:
        raise f.fail("actions", f"no hole cards dealt to {', '.join(missing)} ('d dh pN cards')")
    holes = tuple(h or () for h in hole)
    cards = [c for g in board for c in g] + [c for h in holes for c in h]
    if len(set(cards)) != len(cards):
        raise f.fail("actions", "a card is dealt twice")
    return holes, board, betting


def _dealer_line(
    game: GameDef, words: list[str], hole: list[tuple[Card, ...] | None], board: list[tuple[Card, ...]], f: _Fields, i: int, raw: str
) -> None:
    """A ``d dh pN CARDS`` (hole cards) or ``d db CARDS`` (board) line, into ``hole`` or ``board``."""
    if words[1:2] == ["dh"] and len(words) == 4:
        p = _player(words[2], game.num_players, f, i, raw)
        if hole[p] is not None:  # (the second was taken without a word, the first dropped)
            raise f.fail("actions", f"[{i}] {_short(raw)}: p{p + 1}'s hole cards are dealt twice")
        hole[p] = _cards(words[3], f, i, raw)
        if len(hole[p] or ()) != game.num_hole_cards:
            raise f.fail("actions", f"[{i}] {_short(raw)}: {game.num_hole_cards} hole cards expected")
    elif words[1:2] == ["db"] and len(words) == 3:
        board.append(_cards(words[2], f, i, raw))
        r = len(board) - 1
        deals = [n for n in game.num_board_cards if n > 0]
        counts = ", ".join(str(n) for n in deals[:-1]) + (" and " if len(deals) > 1 else "") + (str(deals[-1]) if deals else "no")
        if r >= game.num_rounds:
            raise f.fail("actions", f"[{i}] {_short(raw)}: more board cards than the game deals ({counts} cards); a board run "
                                    "twice is not supported")
        if len(board[r]) != game.num_board_cards[r]:
            raise f.fail("actions", f"[{i}] {_short(raw)}: the board comes as {counts} cards")
    else:
        raise f.fail("actions", f"[{i}] {_short(raw)}: not a PHH action (d dh, d db, f, cc, cbr, sm)")


_AMOUNT = re.compile(r"([0-9]{1,18})(?:\.0*)?")
"""A bet's size: ASCII digits, at most 18 ('²' and '١٢٣' are digits to ``str.isdigit``, and int() of
'²' or of 5,000 digits raised a ValueError: a traceback from showdown import); a whole number
written as a float ('300.0', as pokerkit writes float chips) is that number."""


def _action(game: GameDef, state: LiveHand, base: int, words: list[str], f: _Fields, i: int, raw: str) -> Action:
    kind = words[1]
    if kind == "f" and len(words) == 2:
        if not state.can_fold():
            raise f.fail("actions", f"[{i}] {_short(raw)}: a fold with nothing to call (check instead: 'pN cc')")
        return FOLD
    if kind == "cc" and len(words) == 2:
        return CALL
    amount = _AMOUNT.fullmatch(words[2]) if kind == "cbr" and len(words) == 3 else None
    if amount is not None:
        if not int(amount.group(1)):  # (a raise to 0 chips passed as a sizeless raise: the log said 'r0')
            raise f.fail("actions", f"[{i}] {_short(raw)}: a bet or raise to 0 chips (PHH's amount is what the player's "
                                    "bet on this street comes to, more than 0)")
        to = base + int(amount.group(1))
        if game.is_limit:
            bounds = state.raise_bounds()
            if bounds is None or bounds[0] != to:
                want = f"a raise to {bounds[0] - base}" if bounds else "no raise"
                raise f.fail("actions", f"[{i}] {_short(raw)}: the fixed limit allows {want} here")
            return RAISE
        return Action(ActionKind.RAISE, to)
    raise f.fail("actions", f"[{i}] {_short(raw)}: expected 'pN f', 'pN cc', 'pN cbr AMOUNT' or 'pN sm CARDS'")

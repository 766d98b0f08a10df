"""Poker Hand History (PHH) text: the games PHH names, and our hands out as PHH tables (read back by ``phh_reading``).

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
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii

from showdown.errors import IllegalActionError, ProtocolError
from showdown.games.cards import format_cards
from showdown.games.gamedef import UNLIMITED_RAISES, Betting, GameDef
from showdown.games.live_hand import LiveHand
from showdown.games.state import Action, ActionKind
from showdown.protocol.logfile import LoggedHand, LogHeader

__all__ = ["DEFAULT_TIME_LIMITS", "HOLDEM_BOARD", "PHH_LIMIT_RAISES", "TIME_LIMIT_FIELDS", "NoPhhForm", "PhhHand", "format_phh_hand", "fresh_live_hand", "game_from_phh", "illegal_reason", "phh_actions", "phh_variant", "same_table"]

HOLDEM_BOARD = (0, 3, 1, 1)
PHH_LIMIT_RAISES = 4
"""pokerkit's fixed-limit cap: four bets or raises a street, the blinds not counted."""
TIME_LIMIT_FIELDS = ("_t_response", "_t_hand", "_t_per_hand")
"""A log's time limits as PHH fields of our own: a match's ('#--t_response 10000') came back as the
reference dealer's defaults, so the imported log was not the log exported."""
_HEADER = LogHeader("", "", 0, 0)
DEFAULT_TIME_LIMITS = (_HEADER.t_response, _HEADER.t_hand, _HEADER.t_per_hand)
"""The reference dealer's time limits (a log header's defaults): not written."""


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
    limits: tuple[int, int, int] | None = None
    """The match's time limits in ms (``_t_response``, ``_t_hand``, ``_t_per_hand``), when given."""


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


_ESCAPE = re.compile(r"\\(?:u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})|u(d[89a-f][0-9a-f]{2})|.)")


def _escape(m: re.Match[str]) -> str:
    if m.group(1):  # a surrogate pair: one character beyond U+FFFF
        high, low = int(m.group(1), 16), int(m.group(2), 16)
        return f"\\U{0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00):08x}"
    return "\\ufffd" if m.group(3) else m.group(0)  # a lone surrogate is no character


def _toml_str(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, but for a character beyond U+FFFF, which JSON
    writes as two surrogates ('\\ud83d\\ude00', not a Unicode scalar value: TOML readers refuse the
    file) and TOML as one '\\U0001f600'; a lone surrogate (no character) becomes U+FFFD."""
    quoted = encode_basestring_ascii(text)
    return _ESCAPE.sub(_escape, quoted) if "\\ud" in quoted else quoted


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


def fresh_live_hand(game: GameDef) -> LiveHand:
    """A fresh hand of ``game`` (one ``LiveHand`` per game object, reset: a file's hands share
    their game; keyed by identity, as hashing a ``GameDef`` costs more than the hand)."""
    live = _LIVE.get(id(game))
    if live is None or live.game is not game:
        if len(_LIVE) > 64:
            _LIVE.clear()
        live = _LIVE[id(game)] = LiveHand(game)
    live.reset()
    return live


def illegal_reason(hand: LiveHand, p: int, action: Action) -> str | None:
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
    live = fresh_live_hand(game)
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
            why = "round ended" if live.round != r else illegal_reason(live, p, action)
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
    limits: Sequence[int] | None = None,
) -> str:
    """One hand as a ``.phhs`` table ``[<hand number>]`` (TOML); ``variant`` from ``phh_variant``
    when already known. Final stacks are the starting stacks plus the log's values; ``limits``, the
    log's time limits (ms), are written when they are not the reference dealer's defaults."""
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
    if limits is not None and tuple(limits) != DEFAULT_TIME_LIMITS:
        lines.extend(f"{key} = {int(ms)}" for key, ms in zip(TIME_LIMIT_FIELDS, limits))
    return "\n".join(lines) + "\n"

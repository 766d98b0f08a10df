"""MATCHSTATE lines at speed, one codec per game: what the dealer sends and what a seat reads.

``format_matchstate(view_of(state, p, hand))`` and ``parse_matchstate`` are the plain reference
functions; these do the same work incrementally, as a match needs it hundreds of thousands of times:

* ``MatchStateEncoder`` (the dealer): a hand's card texts are made once when it is dealt (and kept for
  deals that come again in small games), so that a position's line is two joins of ready texts.
* ``MatchStateDecoder`` (a seat): a line is split once; its cards field is parsed once per new text,
  and its betting continues the state of the previous line by the new actions only (states are kept
  by betting across hands: the public tree of a limit game is small and hands repeat it).

Tests check both against the reference functions on random hands (``tests/protocol/test_codec.py``).
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from showdown.errors import IllegalActionError, ProtocolError, ShowdownError
from showdown.games.cards import Card, format_cards
from showdown.games.gamedef import GameDef
from showdown.games.state import State, betting_actions
from showdown.protocol.matchstate import MATCHSTATE_PREFIX, parse_cards_field, position_head

__all__ = ["MatchStateDecoder", "MatchStateEncoder"]

CACHE_SIZE = 4096
"""Deals whose texts the encoder keeps before it starts afresh, when deals repeat (small games); else
it keeps none: a memo of deals that never come again only gives the garbage collector more to scan."""


_DealTexts = tuple[list[str], list[str], list[str], list[tuple[tuple[Card, ...], ...]]]
"""A deal's texts: hole cards by position, each position's view of them, board by round reached, and
the board's groups by round reached."""


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= CACHE_SIZE:
        cache.clear()
    cache[key] = value


class MatchStateEncoder:
    """The MATCHSTATE lines of one game's hands, by position.

    After ``new_hand`` the attributes hold the hand's texts: ``heads`` (``MATCHSTATE:<p>:<hand>``
    by position), ``cards`` (the cards field each position is sent now), ``hole_text`` (hole cards
    by position), and by round reached ``board_text`` (``/As9d6s/3d``) and ``board_groups``.
    ``set_round`` shows the board of a new round; ``reveal`` the showdown's cards at a hand's end.
    ``deals_repeat``: keep the texts of many deals (small games); else only the one prepared is kept.
    """

    def __init__(self, game: GameDef, deals_repeat: bool = True) -> None:
        self._deals_repeat = deals_repeat
        self.num_players = game.num_players
        self.num_board_cards = tuple(game.num_board_cards)
        self.heads: list[str] = []
        self.cards: list[str] = []
        self.hole_text: list[str] = []
        self.board_text: list[str] = []
        self.board_groups: list[tuple[tuple[Card, ...], ...]] = []
        self.round = -1
        self._hidden: list[str] = []  # a position's view of the hole cards while the hand runs
        self._texts: dict[Any, _DealTexts] = {}
        self._prepared: tuple[Any, Any, _DealTexts] | None = None  # the last deal prepared and its texts
        self._heads = [position_head(p) for p in range(self.num_players)]

    def new_hand(self, hand: int, hole: tuple[tuple[Card, ...], ...], board: tuple[Card, ...]) -> None:
        """Start hand ``hand`` dealt ``hole`` (by position) and ``board`` (all rounds' cards)."""
        number = str(hand)
        self.heads = [head + number for head in self._heads]
        prepared = self._prepared
        if prepared is not None and prepared[0] is hole and prepared[1] is board:  # no hashing: the deal made ahead
            texts = prepared[2]
        else:
            texts = self.prepare(hole, board)
        self.hole_text, self._hidden, self.board_text, self.board_groups = texts
        self.set_round(0)

    def prepare(self, hole: tuple[tuple[Card, ...], ...], board: tuple[Card, ...]) -> _DealTexts:
        """The card texts of a deal, made now and kept for its ``new_hand`` (the dealer makes them for
        the next deal while a seat thinks)."""
        n = self.num_players
        key = (hole, board)
        texts = self._texts.get(key) if self._deals_repeat else None
        if texts is None:
            hole_text = [format_cards(h) for h in hole]
            hidden = ["|" * p + hole_text[p] + "|" * (n - 1 - p) for p in range(n)]
            suffix = []
            groups: list[tuple[tuple[Card, ...], ...]] = []
            text = ""
            start = 0
            for r, count in enumerate(self.num_board_cards):
                group = board[start : start + count]
                start += count
                if r > 0 or group:
                    text += "/" + format_cards(group)
                suffix.append(text)
                groups.append((groups[-1] if groups else ()) + (group,))
            texts = (hole_text, hidden, suffix, groups)
            if self._deals_repeat:
                _remember(self._texts, key, texts)
        self._prepared = (hole, board, texts)  # handed to ``new_hand`` without a memo
        return texts

    def set_round(self, round_: int) -> None:
        """Every position now sees the board up to ``round_``."""
        self.round = round_
        tail = self.board_text[round_]
        self.cards = [hidden + tail for hidden in self._hidden]

    def reveal(self, round_: int, folded: Sequence[bool]) -> None:
        """The hand is over in round ``round_``: at a showdown (two or more players have not
        ``folded``) every position sees the cards of the players who did not fold (as the reference
        shows them); after a fold, nothing more."""
        tail = self.board_text[round_]
        self.round = round_
        if folded.count(False) < 2:
            self.cards = [hidden + tail for hidden in self._hidden]
            return
        hole = self.hole_text
        if not any(folded):  # no one folded: every position sees every hand (one text)
            shown = "|".join(hole) + tail
            self.cards = [shown] * self.num_players
            return
        self.cards = [
            "|".join(t if q == p or not folded[q] else "" for q, t in enumerate(hole)) + tail for p in range(self.num_players)
        ]

    def line(self, position: int, betting: str) -> str:
        """The line ``position`` is sent now, the betting so far being ``betting``."""
        return self.heads[position] + ":" + betting + ":" + self.cards[position]


class MatchStateDecoder:
    """One seat's reading of the MATCHSTATE lines of a game.

    After ``read(line)``: ``position``, ``hand``, ``betting`` (text), ``state`` (the betting-only
    ``State``), ``hole`` (by position, empty where hidden), ``own`` (this seat's cards) and ``board``
    (all visible board cards); ``read`` returns True when the line starts a new hand.
    """

    STATE_CACHE = 1 << 16
    CARDS_CACHE = 1 << 12

    def __init__(self, game: GameDef) -> None:
        self.game = game
        self._initial = State.initial(game)
        self._states: dict[str, State] = {"": self._initial}
        self._parsed_cards: dict[str, tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]] = {}
        self.position_text = ""
        self.hand_text = ""
        self.position = 0
        self.hand = -1
        self.betting = ""
        self.cards = ""
        self.hole: tuple[tuple[Card, ...], ...] = ()
        self.own: tuple[Card, ...] = ()
        self.board: tuple[Card, ...] = ()
        self.state = self._initial
        self.extra = ""  # the fields after the cards of the last line that had any (not part of ACPC 2.0.0)

    def read(self, line: str) -> bool:
        """Take one MATCHSTATE line (no line end, no reply); True when it starts a new hand.
        ``ProtocolError`` for a line that is not one, or that the game's rules cannot follow."""
        parts = line.split(":")
        if len(parts) != 5 or parts[0] != "MATCHSTATE":
            if len(parts) < 5 or parts[0] != "MATCHSTATE":
                raise ProtocolError(f"unexpected line from the dealer: {line[:80]!r}")
            # fields after the cards (another dealer's extension): read as the reference's readMatchState
            # reads them, which stops after the cards; ``extra`` keeps them for a warning
            self.extra = line[len(":".join(parts[:5])) + 1 :]
            parts = parts[:5]
        _, position, hand, betting, cards = parts
        new_hand = hand != self.hand_text or position != self.position_text
        if new_hand:
            self._new_hand(position, hand)
        if cards != self.cards:
            self._read_cards(cards, betting, line)
        state = self._states.get(betting)
        if state is None:
            state = self._advance(betting, line)
        self.state = state
        self.betting = betting
        return new_hand

    def _new_hand(self, position: str, hand: str) -> None:
        try:
            self.position = int(position)
            self.hand = int(hand)
        except ValueError:
            raise ProtocolError(f"bad position or hand number in {MATCHSTATE_PREFIX}{position}:{hand}") from None
        self.position_text = position
        self.hand_text = hand
        self.betting = ""
        self.cards = ""
        self.state = self._initial

    def _read_cards(self, cards: str, betting: str, line: str) -> None:
        parsed = self._parsed_cards.get(cards)
        if parsed is None:
            try:
                hole, groups = parse_cards_field(cards, betting.count("/") + 1)
            except ShowdownError as exc:
                raise ProtocolError(f"bad cards in {line[:80]!r}: {exc}") from None
            if len(hole) != self.game.num_players:
                raise ProtocolError(
                    f"{line[:80]!r} has {len(hole)} players' cards but {self.game.name or 'the game'} "
                    f"has {self.game.num_players} players: is the game right?"
                )
            self._check_cards(hole, groups, line)
            parsed = (hole, tuple(c for g in groups for c in g))
            if len(self._parsed_cards) >= self.CARDS_CACHE:
                self._parsed_cards.clear()
            self._parsed_cards[cards] = parsed
        self.hole, self.board = parsed
        if not 0 <= self.position < len(self.hole):
            raise ProtocolError(f"position {self.position} out of range in {line[:80]!r}")
        self.own = self.hole[self.position]
        self.cards = cards

    def _check_cards(self, hole: tuple[tuple[Card, ...], ...], groups: tuple[tuple[Card, ...], ...], line: str) -> None:
        """Cards a deal could show: each seat's hole cards hidden or all there, each round's board
        its number of cards, no card twice (a dealer's impossible state reached the agents: 'card 47
        appears twice in one hand' from an evaluator, 'no information set Ks:Ks/' from a strategy)."""
        game = self.game
        if any(len(h) not in (0, game.num_hole_cards) for h in hole):
            raise ProtocolError(f"bad cards in {line[:80]!r}: a seat's hole cards are {game.num_hole_cards} (or hidden)")
        if any(len(g) != n for g, n in zip(groups, game.num_board_cards)):
            raise ProtocolError(f"bad cards in {line[:80]!r}: the board's rounds show {'/'.join(map(str, game.num_board_cards))} "
                                "cards in this game")
        shown = [c for h in hole for c in h] + [c for g in groups for c in g]
        if len(set(shown)) != len(shown):
            raise ProtocolError(f"bad cards in {line[:80]!r}: a card is shown twice")

    def _advance(self, betting: str, line: str) -> State:
        """The betting-only state after ``betting``: the last state extended by the new actions."""
        state = self.state
        old = self.betting
        if betting.startswith(old) and (len(betting) == len(old) or betting[len(old)] in "fcr/"):
            suffix = betting[len(old) :]
        else:
            state = self._initial
            suffix = betting
        try:
            for action in betting_actions(suffix):
                state = state.apply(action)
        except (ProtocolError, ValueError, IllegalActionError) as exc:
            raise ProtocolError(f"cannot follow the betting in {line[:120]!r}: {exc}") from None
        if state.betting.count("/") != betting.count("/"):
            raise ProtocolError(f"the rounds in {line[:120]!r} do not match the betting rules")
        states = self._states
        if len(states) >= self.STATE_CACHE:
            states.clear()
            states[""] = self._initial
        states[betting] = state
        return state

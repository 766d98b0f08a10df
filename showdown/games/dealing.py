"""The reference dealer's card dealing: one MT19937 stream per match, the same draws every hand.

The reference seeds Mersenne Twister with ``init_genrand(seed)`` (not Python's ``random.seed``,
which uses ``init_by_array``), builds a fresh deck each hand suit by suit with ranks low to high,
and draws each card as ``genrand_int32() % remaining``, moving the deck's last card into the hole.
All hole cards of position 0 come first, then position 1, ..., then every board card of every
round, whatever the betting (docs/protocol.md section 4). So hand h's cards depend only on the seed,
h and the game's shape.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from showdown.errors import ShowdownError
from showdown.games.cards import Card, make_deck
from showdown.games.gamedef import GameDef

_N = 624
_MASK = 0xFFFFFFFF
MAX_SEED = _MASK
"""The largest dealing seed: the reference seeds its MT19937 with 32 bits."""


class MT19937:
    """Mersenne Twister MT19937 with the reference's ``init_genrand`` seeding (Matsumoto and
    Nishimura, 1998).

    The seeding is done here; the generator itself is CPython's ``random.Random`` (the same
    MT19937) loaded with that state, whose ``getrandbits(32)`` is ``genrand_int32`` in C: ten times
    faster than tempering in Python.
    """

    __slots__ = ("_random", "getrandbits")

    def __init__(self, seed: int) -> None:
        mt = [0] * _N
        mt[0] = seed & _MASK
        for i in range(1, _N):
            mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & _MASK
        self._random = random.Random()
        self._random.setstate((3, (*mt, _N), None))
        self.getrandbits: Callable[[int], int] = self._random.getrandbits

    def next_u32(self) -> int:
        """``genrand_int32()``: the next tempered 32-bit output."""
        return self.getrandbits(32)


class CardDealer:
    """Deals hands for one match exactly as the reference dealer does."""

    def __init__(self, game: GameDef | str, seed: int) -> None:
        if not isinstance(game, GameDef):
            from showdown.games.catalog import as_game

            game = as_game(game, "CardDealer")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            # the reference seeds with 32 bits: -1 or 2**32 would deal as 2**32 - 1 or 0 without a word
            raise ShowdownError(f"CardDealer: the seed is an integer 0 to {MAX_SEED}, got {seed!r:.40}")
        self.game = game
        self.seed = seed
        self._rng = MT19937(seed)
        self._deck = make_deck(game.num_ranks, game.num_suits)
        self.hands_dealt = 0
        self._per_hand = self.cards_per_hand

    @property
    def cards_per_hand(self) -> int:
        g = self.game
        return g.num_players * g.num_hole_cards + g.total_board_cards

    def deal(self) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
        """The next hand's (hole cards by position, all board cards)."""
        return self.split(self.draw())

    def draw(self) -> tuple[Card, ...]:
        """The next hand's cards in the order drawn (hole cards by position, then the board):
        ``split`` makes them a deal; cheaper than ``deal`` where only a key is needed."""
        deck = list(self._deck)
        remaining = len(deck)
        bits = self._rng.getrandbits
        drawn: list[Card] = []
        for _ in range(self._per_hand):
            i = bits(32) % remaining
            drawn.append(deck[i])
            remaining -= 1
            deck[i] = deck[remaining]
        self.hands_dealt += 1
        return tuple(drawn)

    def split(self, drawn: Sequence[Card]) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
        """Cards as ``draw`` gives them -> (hole cards by position, all board cards)."""
        k = self.game.num_hole_cards
        n = self.game.num_players
        hole = tuple(tuple(drawn[p * k : (p + 1) * k]) for p in range(n))
        return hole, tuple(drawn[n * k :])

    def skip(self, hands: int) -> None:
        """Advance past ``hands`` hands without building them."""
        nxt = self._rng.next_u32
        for _ in range(hands * self.cards_per_hand):
            nxt()
        self.hands_dealt += hands


def deal_hands(game: GameDef, seed: int, count: int | None = None, start: int = 0) -> Iterator[
    tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]
]:
    """Hands ``start``, ``start + 1``, ... (``count`` of them, or forever) for ``seed``."""
    dealer = CardDealer(game, seed)
    dealer.skip(start)
    produced = 0
    while count is None or produced < count:
        yield dealer.deal()
        produced += 1

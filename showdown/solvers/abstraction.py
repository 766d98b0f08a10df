"""Card abstractions: every private holding's bucket on each round of a board.

A card abstraction answers two questions: for a whole board, the bucket of every holding on every
round (the solver, ``buckets``), and for one holding and the board seen so far, its bucket now (the
agent, ``bucket``). Both must agree exactly; tests check that they do.

* ``RankAbstraction``: one hole card, suits ignored (Leduc and its kin): the hole rank, then the
  (hole rank, board rank) pair. Lossless for Leduc, whose suits never matter.
* ``StrengthAbstraction``: the hole rank first, then the hand strength on the board (share of the
  opponent's holdings beaten, ties half) cut into ``n`` equal slices: lossy, to measure what an
  abstraction costs with the exact best response.
* ``HoldemAbstraction`` (``showdown.solvers.holdem_buckets``): hold'em's 169 preflop classes, then
  expected hand strength squared on flop and turn and hand strength on the river, in percentile
  buckets.
"""

from __future__ import annotations

import itertools
from typing import Any, Protocol

import numpy as np

from showdown.errors import ConfigError
from showdown.games.cards import Card, make_deck, rank_of
from showdown.games.gamedef import GameDef, format_gamedef, parse_gamedef
from showdown.solvers.holdings import RankedBoard, game_holdings


class CardAbstraction(Protocol):
    """What the solver and the agent need of a card abstraction."""

    game: GameDef
    num_buckets: tuple[int, ...]

    def sample_board(self, rng: np.random.Generator) -> tuple[Card, ...]: ...

    def all_boards(self) -> list[tuple[Card, ...]]: ...

    def buckets(self, board: tuple[Card, ...]) -> np.ndarray:
        """(rounds, holdings) bucket of every holding on each round of the full ``board``."""
        ...

    def bucket(self, hole: tuple[Card, ...], board: tuple[Card, ...], round_: int) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


class _Base:
    """Board sampling and enumeration shared by the abstractions."""

    game: GameDef
    kind: str = ""

    def sample_board(self, rng: np.random.Generator) -> tuple[Card, ...]:
        deck = make_deck(self.game.num_ranks, self.game.num_suits)
        n = self.game.total_board_cards
        picks = rng.choice(len(deck), size=n, replace=False)
        return tuple(deck[i] for i in picks)

    def all_boards(self) -> list[tuple[Card, ...]]:
        deck = make_deck(self.game.num_ranks, self.game.num_suits)
        n = self.game.total_board_cards
        if n > 2:
            raise ConfigError("enumerating every board is for small games (at most two board cards)")
        return [tuple(b) for b in itertools.permutations(deck, n)]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "game": format_gamedef(self.game), "game_name": self.game.name}


class RankAbstraction(_Base):
    """Buckets by ranks only: hole rank, then (hole rank, board card ranks) (one hole card games)."""

    kind = "rank"

    def __init__(self, game: GameDef) -> None:
        if game.num_hole_cards != 1 or game.num_players != 2:
            raise ConfigError("the rank abstraction is for two-player games of one hole card")
        self.game = game
        self.ranks = game.num_ranks
        self.low = min(rank_of(c) for c in make_deck(game.num_ranks, game.num_suits))
        self.num_buckets = tuple(self.ranks ** (1 + game.board_cards_through(r)) for r in range(game.num_rounds))
        self._h = game_holdings(game)

    def _code(self, cards: tuple[Card, ...]) -> int:
        code = 0
        for c in cards:
            code = code * self.ranks + rank_of(c) - self.low
        return code

    def buckets(self, board: tuple[Card, ...]) -> np.ndarray:
        out = np.zeros((self.game.num_rounds, self._h.size), dtype=np.int64)
        hole_ranks = (self._h.cards[:, 0] // 4) - self.low
        for r in range(self.game.num_rounds):
            seen = board[: self.game.board_cards_through(r)]
            out[r] = hole_ranks * self.ranks ** len(seen) + self._code(seen)
        return out

    def bucket(self, hole: tuple[Card, ...], board: tuple[Card, ...], round_: int) -> int:
        seen = board[: self.game.board_cards_through(round_)]
        return self._code(tuple(hole) + tuple(seen))


class StrengthAbstraction(_Base):
    """Round 0: the hole rank; later rounds: hand strength on the board in ``n`` equal slices."""

    kind = "strength"

    def __init__(self, game: GameDef, n: int) -> None:
        if game.num_hole_cards != 1 or game.num_players != 2:
            raise ConfigError("the strength abstraction is for two-player games of one hole card")
        if n < 1:
            raise ConfigError("the strength abstraction needs at least one bucket")
        self.game = game
        self.n = n
        self.low = min(rank_of(c) for c in make_deck(game.num_ranks, game.num_suits))
        self.num_buckets = (game.num_ranks,) + (n,) * (game.num_rounds - 1)
        self._h = game_holdings(game)

    def _slices(self, hs: np.ndarray) -> np.ndarray:
        return np.minimum((hs * self.n).astype(np.int64), self.n - 1)

    def buckets(self, board: tuple[Card, ...]) -> np.ndarray:
        out = np.zeros((self.game.num_rounds, self._h.size), dtype=np.int64)
        out[0] = self._h.cards[:, 0] // 4 - self.low
        for r in range(1, self.game.num_rounds):
            seen = board[: self.game.board_cards_through(r)]
            out[r] = self._slices(RankedBoard(self._h, seen).strength_share())
        return out

    def bucket(self, hole: tuple[Card, ...], board: tuple[Card, ...], round_: int) -> int:
        if round_ == 0:
            return rank_of(hole[0]) - self.low
        seen = board[: self.game.board_cards_through(round_)]
        hs = RankedBoard(self._h, seen).strength_share()
        return int(self._slices(hs)[self._h.index(hole)])

    def to_json(self) -> dict[str, Any]:
        return super().to_json() | {"n": self.n}


def abstraction_from_json(data: dict[str, Any]) -> CardAbstraction:
    """The abstraction a strategy file names (no code is evaluated: a closed set of kinds)."""
    kind = data.get("kind")
    game = parse_gamedef(str(data.get("game", "")), name=str(data.get("game_name", "")))
    if kind == "rank":
        return RankAbstraction(game)
    if kind == "strength":
        return StrengthAbstraction(game, int(data["n"]))
    if kind == "holdem":
        from showdown.solvers.holdem_buckets import HoldemAbstraction

        return HoldemAbstraction.from_json(game, data)
    raise ConfigError(f"unknown card abstraction {kind!r} (rank, strength, holdem)")

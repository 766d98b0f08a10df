"""Hands as compact columns: ``HandCollector`` gathers finished hands (from a match as the dealer
finishes them, or from logs) into a ``HandTable`` of numpy arrays, by player name (the same name in
several logs or duplicate halves is the same player), which ``analyze`` turns into figures.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from showdown.errors import ProtocolError
from showdown.protocol.events import NOT_ITS_OWN_ACTION, seats_with
from showdown.protocol.logfile import HandRecord, LoggedHand

__all__ = ["HandCollector", "HandTable"]


@dataclass
class HandTable:
    """Many hands as arrays: ``seats[h, p]`` indexes ``names`` (who sat at position p),
    ``values[h, p]`` what position p won, ``half[h]`` which duplicate half (or file) the hand came
    from, ``number[h]`` its hand number, ``replaced[h, p]`` the dealer played for position p."""

    names: tuple[str, ...]
    num_positions: int
    seats: np.ndarray
    values: np.ndarray
    number: np.ndarray
    half: np.ndarray
    replaced: np.ndarray
    codes: Any = None  # aivat.DealCodes when an encoder was given
    chance: np.ndarray | None = None  # values less the luck of the cards, when a corrector was given
    deal: np.ndarray | None = None  # a fingerprint of each hand's hole cards by position (0: not known)

    @property
    def hands(self) -> int:
        return int(self.values.shape[0])

    def totals(self) -> list[float]:
        """Chips won by each player (exact for chip values: sums of integers)."""
        out = []
        for s in range(len(self.names)):
            mask = self.seats == s
            out.append(math.fsum(self.values[mask].tolist()))
        return out


class HandCollector:
    """Collects finished hands into a ``HandTable``; memory is a few numbers per hand (about 50 bytes
    for two players: what duplicate pairing and log analysis need). A plain match's AIVAT estimate is
    accumulated in bounded memory by ``AivatAccumulator`` instead.

    ``encoder`` (an ``AivatEstimator``) also records where each hand sits in the game's tree, for
    the AIVAT estimate; a hand it cannot place raises ``AivatError``.
    """

    def __init__(
        self, names: Sequence[str] = (), num_positions: int | None = None, encoder: Any = None, corrector: Any = None
    ) -> None:
        self._index: dict[str, int] = {}
        self.names: list[str] = []
        for n in names:
            self._name(n)
        self.num_positions = num_positions
        self.encoder = encoder
        self.corrector = corrector  # an evaluation.chance.ChanceCorrector, or None
        self._chance = array("d")
        self._seats = array("i")
        self._values = array("d")
        self._number = array("q")
        self._half = array("i")
        self._replaced = array("b")
        self._deal = array("q")
        self._codes: list[array[int]] = [array("i") for _ in range(4)]

    def _name(self, name: str) -> int:
        i = self._index.get(name)
        if i is None:
            i = self._index[name] = len(self.names)
            self.names.append(name)
        return i

    def __len__(self) -> int:
        return len(self._number)

    def add(
        self,
        number: int,
        players: Sequence[str],
        values: Sequence[float],
        *,
        half: int = 0,
        hole: Sequence[Sequence[int]] = (),
        board: Sequence[Sequence[int]] = (),
        betting: str = "",
        replaced: Sequence[bool] | None = None,
    ) -> None:
        """One hand: ``players[p]`` (a name) sat at position p and won ``values[p]``."""
        n = len(players)
        if self.num_positions is None:
            self.num_positions = n
        elif n != self.num_positions:
            raise ProtocolError(f"hand {number} has {n} players where earlier hands had {self.num_positions}")
        if self.encoder is not None:
            codes = self.encoder.encode(hole, board, betting)
            for column, c in zip(self._codes, codes):
                column.append(c)
        if self.corrector is not None:
            luck = self.corrector.corrections(hole, board, betting)
            for p in range(n):
                self._chance.append(float(values[p]) - luck[p])
        for p in range(n):
            self._seats.append(self._name(players[p]))
            self._values.append(float(values[p]))
            self._replaced.append(bool(replaced[p]) if replaced is not None else False)
        self._number.append(number)
        self._half.append(half)
        cards = tuple(tuple(h) for h in hole)
        self._deal.append(hash(cards) or 1 if len(cards) == n and all(cards) else 0)

    def add_record(self, record: HandRecord, half: int = 0) -> None:
        """A JSON Lines hand record (the match runner's ``on_hand``)."""
        replaced = None
        if record.events:
            hit = seats_with(record.events, NOT_ITS_OWN_ACTION)
            replaced = [s in hit for s in record.seats]
        self.add(
            record.hand,
            record.players,
            record.values,
            half=half,
            hole=record.hole,
            board=record.board,
            betting=record.betting,
            replaced=replaced,
        )

    def add_logged(self, hand: LoggedHand, half: int = 0) -> None:
        """A STATE line of an ACPC log."""
        self.add(hand.hand, hand.names, hand.values, half=half, hole=hand.hole, board=hand.board, betting=hand.betting_text)

    def table(self) -> HandTable:
        p = self.num_positions or 0
        h = len(self._number)
        codes = None
        if self.encoder is not None:
            from showdown.evaluation.aivat import DealCodes

            cols = [np.frombuffer(c, dtype=np.int32).astype(np.int64) if len(c) else np.zeros(0, np.int64) for c in self._codes]
            codes = DealCodes(*cols)
        return HandTable(
            names=tuple(self.names),
            num_positions=p,
            seats=_np(self._seats, np.int32, np.int64).reshape(h, p),
            values=_np(self._values, np.float64, np.float64).reshape(h, p),
            number=_np(self._number, np.int64, np.int64),
            half=_np(self._half, np.int32, np.int64),
            replaced=_np(self._replaced, np.int8, np.int8).astype(bool).reshape(h, p),
            codes=codes,
            chance=_np(self._chance, np.float64, np.float64).reshape(h, p) if self.corrector is not None else None,
            deal=_np(self._deal, np.int64, np.int64),
        )


def _np(a: array[Any], src: Any, dst: Any) -> np.ndarray:
    if not len(a):
        return np.zeros(0, dtype=dst)
    return np.frombuffer(a, dtype=src).astype(dst)

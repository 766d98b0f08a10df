"""Every private holding of a game as one vector, and showdown and fold sums over it with card removal.

Public-chance-sampling CFR (Johanson et al. 2012, "Efficient Nash equilibrium approximation through
Monte Carlo counterfactual regret minimization") keeps, for one sampled board, a vector over all
private holdings of each player. Its terminal values need, for each of our holdings ``h``, the sum of
the opponent's reach over the holdings that share no card with ``h`` and are weaker (win), stronger
(loss), or any (fold). Done naively that is a holdings x holdings product per terminal; here it is
O(holdings) per terminal: a cumulative sum in strength order, minus, for each card of ``h``, the
cumulative sum over the holdings that hold that card (inclusion-exclusion; a holding shares two cards
only with itself). Holdings of one or two cards (Leduc, hold'em) are supported.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np

from showdown.errors import SolverError
from showdown.games.cards import Card, make_deck
from showdown.games.evaluate import hand_values
from showdown.games.gamedef import GameDef


@dataclass(frozen=True, slots=True)
class Holdings:
    """All ``num_hole_cards``-card holdings of a deck, in lexicographic order of card index."""

    cards: np.ndarray  # (H, k) card indices, ascending within a row
    deck: tuple[Card, ...]
    card_rows: np.ndarray  # (max card + 1, m) holdings holding each card (m = holdings per card)

    @property
    def size(self) -> int:
        return int(self.cards.shape[0])

    def index(self, hole: tuple[Card, ...] | list[Card]) -> int:
        """The position of a holding (any card order) in the vector."""
        return _index_map(self.deck, self.cards.shape[1])[tuple(sorted(hole))]

    def blocked(self, board: tuple[Card, ...] | list[Card]) -> np.ndarray:
        """Boolean mask of the holdings sharing a card with ``board``."""
        out = np.zeros(self.size, dtype=bool)
        for c in board:
            out[self.card_rows[c]] = True
        return out


@cache
def holdings_of(deck: tuple[Card, ...], k: int) -> Holdings:
    if k not in (1, 2):
        raise SolverError(f"holdings of {k} cards are not supported (1 or 2: Leduc, hold'em)")
    cards = np.array(list(itertools.combinations(sorted(deck), k)), dtype=np.int64).reshape(-1, k)
    top = max(deck) + 1
    rows: list[list[int]] = [[] for _ in range(top)]
    for i, row in enumerate(cards):
        for c in row:
            rows[int(c)].append(i)
    m = max(len(r) for r in rows)
    card_rows = np.zeros((top, m), dtype=np.int64)
    for c, r in enumerate(rows):
        if r:
            card_rows[c] = r
    return Holdings(cards, tuple(sorted(deck)), card_rows)


def game_holdings(game: GameDef) -> Holdings:
    return holdings_of(make_deck(game.num_ranks, game.num_suits), game.num_hole_cards)


@cache
def _index_map(deck: tuple[Card, ...], k: int) -> dict[tuple[int, ...], int]:
    h = holdings_of(deck, k)
    return {tuple(int(c) for c in row): i for i, row in enumerate(h.cards)}


def board_strength(holdings: Holdings, board: tuple[Card, ...] | list[Card]) -> np.ndarray:
    """Each holding's hand value with ``board`` (higher is stronger), -1 where the board blocks it."""
    blocked = holdings.blocked(board)
    h = holdings.cards
    if board:
        rows = np.concatenate([h, np.broadcast_to(np.array(board, dtype=np.int64), (len(h), len(board)))], axis=1)
        rows[blocked] = rows[~blocked][0] if (~blocked).any() else rows[blocked]
        strength = hand_values(rows).astype(np.int64)
    else:
        strength = hand_values(h).astype(np.int64)
    strength[blocked] = -1
    return strength


class RankedBoard:
    """The holdings' strengths on one full board, ready for batched win/loss/fold sums.

    Holdings blocked by the board get strength -1 and must carry zero reach.
    """

    def __init__(self, holdings: Holdings, board: tuple[Card, ...] | list[Card]) -> None:
        self.holdings = holdings
        self.blocked = holdings.blocked(board)
        h = holdings.cards
        strength = self.strength = board_strength(holdings, board)
        # global order: position of each holding's tie group (first index, one past last) in sorted order
        order = np.argsort(strength, kind="stable")
        s_sorted = strength[order]
        self.order = order
        self.lo = np.searchsorted(s_sorted, strength, side="left")  # holdings strictly weaker: sorted[:lo]
        self.hi = np.searchsorted(s_sorted, strength, side="right")  # strictly stronger: sorted[hi:]
        # per card: the holdings holding it, sorted by strength, and each holding's place in its rows
        rows_ = holdings.card_rows  # (C, m)
        rs = strength[rows_]
        corder = np.argsort(rs, axis=1, kind="stable")
        self.card_sorted = np.take_along_axis(rows_, corder, axis=1)  # (C, m)
        cs = np.take_along_axis(rs, corder, axis=1)
        k = h.shape[1]
        self.k = k
        # for holding i and its j-th card c: (lo, hi) within row c
        self.card_lo = np.empty((len(h), k), dtype=np.int64)
        self.card_hi = np.empty((len(h), k), dtype=np.int64)
        for j in range(k):
            c = h[:, j]
            srow = cs[c]  # (H, m)
            mine = strength[:, None]
            self.card_lo[:, j] = (srow < mine).sum(axis=1)
            self.card_hi[:, j] = (srow <= mine).sum(axis=1)
        self.card_flat_lo = h * (rows_.shape[1] + 1) + self.card_lo
        self.card_flat_hi = h * (rows_.shape[1] + 1) + self.card_hi

    def win_lose(self, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(win, lose): per holding, the opponent reach of disjoint weaker / stronger holdings.

        ``reach`` is (n, H): one opponent reach vector per terminal; the results have the same shape.
        """
        n, hsize = reach.shape
        cum = np.zeros((n, hsize + 1), dtype=reach.dtype)
        np.cumsum(reach[:, self.order], axis=1, out=cum[:, 1:])
        total = cum[:, -1:]
        win = cum[:, self.lo]
        lose = total - cum[:, self.hi]
        m = self.card_sorted.shape[1]
        ccum = np.zeros((n, self.card_sorted.shape[0], m + 1), dtype=reach.dtype)
        np.cumsum(reach[:, self.card_sorted], axis=2, out=ccum[:, :, 1:])
        flat = ccum.reshape(n, -1)
        ctotal = ccum[:, :, -1]
        for j in range(self.k):
            c = self.holdings.cards[:, j]
            win -= flat[:, self.card_flat_lo[:, j]]
            lose -= ctotal[:, c] - flat[:, self.card_flat_hi[:, j]]
        return win, lose

    def disjoint(self, reach: np.ndarray) -> np.ndarray:
        """Per holding, the opponent reach over holdings sharing no card with it ((n, H) -> (n, H))."""
        return disjoint_sums(self.holdings, reach)

    def strength_share(self) -> np.ndarray:
        """Hand strength per holding: share of disjoint opponent holdings beaten, ties counting half."""
        reach = (~self.blocked).astype(float)[None, :]
        win, lose = self.win_lose(reach)
        total = self.disjoint(reach)
        with np.errstate(invalid="ignore", divide="ignore"):
            hs = (win[0] + 0.5 * (total[0] - win[0] - lose[0])) / total[0]
        hs[self.blocked] = 0.0
        return np.asarray(np.nan_to_num(hs))


def disjoint_sums(holdings: Holdings, reach: np.ndarray) -> np.ndarray:
    """Per holding, the sum of ``reach`` over holdings sharing no card with it ((n, H) -> (n, H))."""
    total = reach.sum(axis=1, keepdims=True)
    per_card = reach @ _incidence(holdings).astype(reach.dtype)  # (n, C)
    out = total - per_card[:, holdings.cards].sum(axis=2)
    if holdings.cards.shape[1] == 2:
        out += reach
    return np.asarray(out)


_INCIDENCE: dict[int, np.ndarray] = {}


def _incidence(h: Holdings) -> np.ndarray:
    """(H, C) one-hot: holding i holds card c (cached per holdings object; ``holdings_of`` caches those)."""
    out = _INCIDENCE.get(id(h))
    if out is None:
        out = np.zeros((h.size, int(h.card_rows.shape[0])))
        for j in range(h.cards.shape[1]):
            out[np.arange(h.size), h.cards[:, j]] = 1.0
        _INCIDENCE[id(h)] = out
    return out

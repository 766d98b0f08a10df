"""The sequence-form payoff ``A`` as a few sparse rows instead of a dense card-vs-card block.

In the plain sequence form (Koller, Megiddo & von Stengel 1994) every terminal contributes, per
board, a block that pairs each hand of position 0 with each hand of position 1: ``A`` is dense in
cards (N-card Kuhn: 31% of its entries for N = 1,000) and so is the LP handed to HiGHS. Poker's
payoff has more structure than that: at a fold position 0 gets ``coef`` times the weight of every
opponent hand that shares no card with its own, and at a showdown ``coef`` times the weight of the
disjoint hands it beats minus those it loses to. Both are running sums over the opponent's hands in
strength order, and the card-removal condition ("shares no card") is an inclusion-exclusion over the
subsets ``S`` of one's own cards (as in public chance sampling's terminal evaluation, Johanson et al.
2012)::

    sum_{j disjoint from i, s_j < s_i} u_j = sum_{S subset of i} (-1)^|S| L_S(s_i),
    L_S(s) = sum_{j contains S, s_j < s} u_j.

``L_S`` at every strength is a chain of auxiliary variables ``P_1 .. P_K`` (``P_k``: the weight of
the hands that contain ``S`` in the ``k`` weakest strength groups), defined by the equalities
``P_{k+1} - P_k - (the group's u) = 0``; every row of ``A u`` then needs three of them per subset,
``L - G = P_k + P_{k+1} - P_K``, and a fold row one, ``P_K``. ``A u = direct u + aux P`` with
``define [u; P] = 0``: the same optimum with O(hands) nonzeros per terminal instead of O(hands^2).
The subset equal to the whole hand (only ``j = i`` contains it) is the ``direct`` term.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp  # type: ignore[import-untyped]

from showdown.solvers.tree import GameTree, NodeKind, PublicNode

__all__ = ["FactoredPayoff", "factored_payoff", "payoff_nonzeros", "payoff_product"]


@dataclass(frozen=True, slots=True)
class FactoredPayoff:
    """``A_p u = direct @ u + aux @ P`` where ``define @ [u; P] = 0`` (one row per auxiliary variable).

    ``A_p`` is the payoff to position 0 with rows for player ``rows_player``'s sequences and columns
    for the other player's: ``A`` for ``rows_player = 0``, ``A^T`` for 1.
    """

    rows_player: int
    direct: sp.csr_matrix  # (rows player's sequences, other player's sequences)
    aux: sp.csr_matrix  # (rows player's sequences, auxiliary variables)
    define: sp.csr_matrix  # (auxiliary variables, other player's sequences + auxiliary variables)

    @property
    def num_aux(self) -> int:
        return int(self.aux.shape[1])

    @property
    def nnz(self) -> int:
        return int(self.direct.nnz + self.aux.nnz + self.define.nnz)


class _Builder:
    """Triplets of the three matrices, filled chain by chain."""

    def __init__(self) -> None:
        self.direct: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.aux: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.define: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.num_aux = 0

    def chain(self, cols: np.ndarray, group: np.ndarray, num_groups: int, other_cols: int) -> int:
        """Variables ``P_1 .. P_K`` summing ``u[cols]`` by ``group`` (0 .. K-1); returns the index of ``P_1``."""
        base = self.num_aux
        k = np.arange(num_groups)
        rows = np.concatenate([base + k, base + k[1:], base + group])
        at = np.concatenate([other_cols + base + k, other_cols + base + k[1:] - 1, cols])
        vals = np.concatenate([np.ones(num_groups), -np.ones(num_groups - 1), -np.ones(len(cols))])
        self.define.append((rows, at, vals))
        self.num_aux += num_groups
        return base

    @staticmethod
    def _matrix(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]], shape: tuple[int, int]) -> sp.csr_matrix:
        if not parts:
            return sp.csr_matrix(shape)
        rows, cols, vals = (np.concatenate(x) for x in zip(*parts))
        m = sp.csr_matrix((vals, (rows, cols)), shape=shape)
        m.sum_duplicates()
        m.eliminate_zeros()
        return m

    def build(self, rows_player: int, num_rows: int, num_cols: int) -> FactoredPayoff:
        return FactoredPayoff(
            rows_player,
            self._matrix(self.direct, (num_rows, num_cols)),
            self._matrix(self.aux, (num_rows, self.num_aux)),
            self._matrix(self.define, (self.num_aux, num_cols + self.num_aux)),
        )


def _strengths(tree: GameTree, r: int) -> np.ndarray:
    """``(boards, hands)`` hand strengths in round ``r`` (0 where the hand meets the board)."""
    from showdown.games.evaluate import hand_values

    bs, hs = np.nonzero(tree.compat[r])
    out = np.zeros(tree.compat[r].shape, dtype=np.int64)
    out[bs, hs] = hand_values(np.concatenate([tree.hands[hs], tree.boards[r][bs]], axis=1))
    return out


def _subset_members(tree: GameTree) -> list[tuple[int, np.ndarray]]:
    """Each proper subset ``S`` of some hand's cards: ``(|S|, the hands containing S)``."""
    c = tree.hands.shape[1]
    members: dict[tuple[int, ...], list[int]] = {}
    for h, cards in enumerate(tree.hands.tolist()):
        for size in range(c):
            for s in itertools.combinations(sorted(cards), size):
                members.setdefault(s, []).append(h)
    return [(len(s), np.asarray(hs, dtype=np.int64)) for s, hs in members.items()]


def factored_payoff(tree: GameTree, rows_player: int) -> FactoredPayoff:
    """``A`` (``rows_player = 0``) or ``A^T`` (1) in the factored form of the module docstring."""
    q = 1 - rows_player
    subsets = _subset_members(tree)
    out = _Builder()
    # terminals that see the same opponent sequences share their chains
    by_opponent: dict[tuple[int, bytes], list[PublicNode]] = {}
    for n, lasts in tree.terminal_last_seq.items():
        by_opponent.setdefault((tree.nodes[n].round, lasts[q].tobytes()), []).append(tree.nodes[n])
    strengths: dict[int, np.ndarray] = {}
    for (r, _), nodes in by_opponent.items():
        showdown = any(node.kind is NodeKind.SHOWDOWN for node in nodes)
        if showdown and r not in strengths:
            strengths[r] = _strengths(tree, r)
        for b in range(tree.num_boards[r]):
            for size, members in subsets:
                hands = members[tree.compat[r][b, members]]
                if len(hands) == 0:
                    continue
                if showdown:  # strength groups, weakest first
                    s = strengths[r][b, hands]
                    order = np.argsort(s, kind="stable")
                    hands = hands[order]
                    group = np.unique(s[order], return_inverse=True)[1]
                else:
                    group = np.zeros(len(hands), dtype=np.int64)
                _add_chain(out, tree, nodes, rows_player, (r, b), hands, group, (-1.0) ** size)
        _add_whole_hand(out, tree, nodes, rows_player, r)
    return out.build(rows_player, tree.sequences[rows_player].num_sequences, tree.sequences[q].num_sequences)


def _add_chain(
    out: _Builder, tree: GameTree, nodes: list[PublicNode], rows_player: int, where: tuple[int, int],
    hands: np.ndarray, group: np.ndarray, sign: float,
) -> None:
    """One subset's running sums on board ``b`` of round ``r`` and the rows of the terminals that use them.

    ``hands`` (those that contain the subset) sorted by strength, ``group`` their strength group (0 ..
    K-1); ``sign`` is the subset's inclusion-exclusion sign.
    """
    r, b = where
    q = 1 - rows_player
    groups = int(group.max()) + 1
    first = out.chain(tree.terminal_last_seq[nodes[0].index][q][b, hands], group, groups, tree.sequences[q].num_sequences)
    last = np.full(len(hands), first + groups - 1)
    w = tree.chance_weight[r]
    for node in nodes:
        rows = tree.terminal_last_seq[node.index][rows_player][b, hands]
        scale = sign * node.coef * w
        if node.kind is NodeKind.FOLD:  # every hand that contains the subset: P_K
            out.aux.append((rows, last, np.full(len(rows), scale)))
            continue
        scale *= 1.0 if rows_player == 0 else -1.0  # A^T: the row's hand is position 1's
        below = group >= 1  # beaten minus beating: P_k + P_{k+1} - P_K (P_0 = 0 is no variable)
        out.aux.append((rows[below], first + group[below] - 1, np.full(int(below.sum()), scale)))
        out.aux.append((rows, first + group, np.full(len(rows), scale)))
        out.aux.append((rows, last, np.full(len(rows), -scale)))


def _add_whole_hand(out: _Builder, tree: GameTree, nodes: list[PublicNode], rows_player: int, r: int) -> None:
    """The subset that is the whole hand: only ``j = i`` contains it (at a showdown it ties: no term)."""
    c = tree.hands.shape[1]
    bs, hs = np.nonzero(tree.compat[r])
    for node in nodes:
        if node.kind is NodeKind.FOLD:
            lasts = tree.terminal_last_seq[node.index]
            rows = lasts[rows_player][bs, hs]
            scale = (-1.0) ** c * node.coef * tree.chance_weight[r]
            out.direct.append((rows, lasts[1 - rows_player][bs, hs], np.full(len(rows), scale)))


def payoff_nonzeros(tree: GameTree) -> int:
    """Nonzeros of the plain ``A`` (one per possible deal at each terminal), without building it."""
    return sum(int(np.count_nonzero(tree.terminal_matrix(tree.nodes[n]))) for n in tree.terminal_last_seq)


def payoff_product(tree: GameTree, v: np.ndarray, rows_player: int) -> np.ndarray:
    """``A @ v`` (``rows_player = 0``, ``v`` position 1's) or ``A^T @ v`` (1), terminal by terminal."""
    q = 1 - rows_player
    out = np.zeros(tree.sequences[rows_player].num_sequences)
    for n, lasts in tree.terminal_last_seq.items():
        node = tree.nodes[n]
        m = tree.terminal_matrix(node)
        u = np.where(lasts[q] >= 0, v[lasts[q]], 0.0)
        values = np.einsum("bij,bj->bi", m, u) if rows_player == 0 else np.einsum("bij,bi->bj", m, u)
        here = lasts[rows_player] >= 0
        np.add.at(out, lasts[rows_player][here], values[here])
    return out

"""The public tree flattened into each player's sequences: the passes every CFR variant shares.

``build_tree`` gives the public tree with arrays over (board, hand) per node. CFR only ever needs, for
one player at a time, quantities per *sequence* (information set and action): the realization plan
(own reach probability times the action's probability), the counterfactual value of taking the action,
and the regret. Here each player's sequences are renumbered by depth (the number of own actions before
them) so that one depth level is one contiguous slice, and every pass is a handful of numpy operations
per level, not per public node or per history:

* forward (``realization``): ``x[level] = x[parent[level]] * sigma[level]``, own levels top down;
* terminal values (``terminal_values``): per (round, fold/showdown) group of terminal nodes, one batched
  matrix product of the round's chance-weighted payoff matrix with the opponent's reach at those
  terminals, then one ``bincount`` into the player's last sequence before each terminal cell;
* backward (``backward``): levels bottom up, the information set's value is the strategy-weighted sum
  (or, for a best response, the maximum) of its sequences' values, added into the parent sequence.

Counterfactual values are those of Zinkevich et al. (2007): weighted by chance and the opponent's reach,
not by the player's own. A sampled estimate of the terminal values (``sampled_terminal_values``) feeds
the same backward pass: that is all the Monte Carlo variants change.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from showdown.solvers.regret_matching import segment_normalize, segment_regret_matching
from showdown.solvers.strategy import Profile
from showdown.solvers.tree import GameTree, NodeKind, PublicNode

DENSE_PAYOFF_ENTRIES = 20_000
"""Sequence-form payoff matrices (own sequences x opponent sequences) at most this large are always built."""
SPARSE_PAYOFF_NONZEROS = 20_000
"""Most nonzeros for which a sparse payoff matrix beats the grouped per-round products."""


class Level(NamedTuple):
    """One depth of a player's information sets: its sequences ``seqs`` and segments ``infosets`` (slices).

    ``single_parent`` is the parent sequence when every information set of the level has the same one
    (then adding the level's values into the parents is one scalar addition), else -1; ``unique_parents``
    says no two information sets share a parent (then a fancy-indexed addition is exact). The passes
    unpack a level whole (a tuple is unpacked faster than its fields are read one by one).
    """

    seqs: slice
    infosets: slice
    parent: np.ndarray  # (sequences,) parent sequence of each sequence
    starts: np.ndarray  # (segments,) first sequence of each segment, relative to the level's first
    infoset_parent: np.ndarray  # (segments,) parent sequence of each information set
    single_parent: int
    unique_parents: bool


class PlayerLayout(NamedTuple):
    """One player's sequences in depth order.

    Sequence 0 is the empty sequence; it forms a segment of its own (segment 0, one "action"), so
    per-segment operations over the whole array leave its probability at 1. Information set ``i`` is
    segment ``i + 1``. Index ``num_sequences`` of a realization plan is a dead slot (always 0) that
    impossible terminal cells point to.
    """

    player: int
    num_sequences: int
    num_infosets: int
    levels: tuple[Level, ...]  # segment numbers (ilo, ihi) and sequences of each own depth
    starts: np.ndarray  # (I + 1,) first sequence of each segment
    segment_of: np.ndarray  # (S,) segment of each sequence
    inv_size: np.ndarray  # (S,) one over the size of that segment
    last_offset: np.ndarray  # (I + 1,) size of each segment minus one
    max_actions: int
    from_tree: np.ndarray  # (tree sequences,) our number of each of the tree's sequences
    to_tree: np.ndarray  # (S,) the tree's number of each of our sequences
    node_sequences: dict[int, np.ndarray]  # decision index -> (cells, actions) our sequence numbers

    def normalize(self, weights: np.ndarray) -> np.ndarray:
        """Behavioural strategy (entry 0 = 1) from non-negative per-sequence weights (uniform where 0)."""
        return segment_normalize(weights, self.starts, self.segment_of, self.inv_size)

    def regret_matching(self, regrets: np.ndarray, nonnegative: bool = False, out: np.ndarray | None = None) -> np.ndarray:
        """Behavioural strategy (entry 0 = 1) by regret matching on per-sequence regrets (into ``out`` if given).

        ``nonnegative`` (regret matching+, whose regrets are already floored) skips the positive part.
        """
        if nonnegative:
            return segment_normalize(regrets, self.starts, self.segment_of, self.inv_size, out)
        return segment_regret_matching(regrets, self.starts, self.segment_of, self.inv_size, out)

    def realization(self, sigma: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Realization plan (own reach of every sequence) of a behavioural strategy, plus the dead slot."""
        if out is None:
            out = np.empty(self.num_sequences + 1)
            out[0] = 1.0
            out[-1] = 0.0
        for seqs, _, parent, _, _, _, _ in self.levels:
            np.multiply(out[parent], sigma[seqs], out=out[seqs])
        return out

    def backward(self, sigma: np.ndarray | None, direct: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Values of every sequence and segment from the terminal values ``direct`` (overwritten).

        ``direct[s]`` (one entry per sequence) sums the terminal values whose last own sequence is
        ``s``. With ``sigma`` the values are on-policy (an information set's value is the sum of sigma
        times its sequences' values); with None they are a best response's (the maximum). Returns
        (sequence values, segment values); sequence 0's value is the player's expected value (on
        policy) or best-response value, and its segment value is left at 0.
        """
        v = direct
        vi = np.zeros(self.num_infosets + 1)
        for seqs, infosets, _, starts, infoset_parent, single_parent, unique_parents in reversed(self.levels):
            if sigma is None:
                w = np.maximum.reduceat(v[seqs], starts)
            else:
                w = np.add.reduceat(v[seqs] * sigma[seqs], starts)
            vi[infosets] = w
            if single_parent >= 0:
                v[single_parent] += np.add.reduce(w)  # w.sum() without its Python-level wrapper
            elif unique_parents:
                v[infoset_parent] += w
            else:
                np.add.at(v, infoset_parent, w)
        return v, vi

    def instant_regrets(self, v: np.ndarray, vi: np.ndarray) -> np.ndarray:
        """Counterfactual regret of every sequence: its value minus its information set's."""
        out: np.ndarray = v - vi[self.segment_of]
        return out


class TerminalGroup(NamedTuple):
    """Terminal nodes of one round and kind: payoff ``coef[p][t] * matrix`` for position ``p``."""

    round: int
    matrix: np.ndarray  # (B, H, H) chance-weighted fold or showdown matrix of the round
    last: tuple[np.ndarray, np.ndarray]  # per position: (B, H, T) last own sequence at each cell
    coef: tuple[np.ndarray, np.ndarray]  # per position: (T,)


class SequencePayoff:
    """One position's sequence-form payoff matrix (own sequences x opponent's), chance-weighted.

    Entry (s, s') is the payoff summed over the terminal cells where the two players' last sequences are
    s and s' (Koller, Megiddo & von Stengel 1994). Every nonzero comes from one chance cell (round,
    board, hand 0, hand 1), recorded in ``cells`` so that a sampled estimate only reweights the entries.
    Kept as sorted triplets (CSR: ``indptr`` is where each row starts); a product sums each row's terms
    in order from zero (``np.bincount``), as the compiled iterations of ``showdown.solvers.sequence_kernels``
    do: the same bits, and no scipy to import.
    """

    def __init__(self, shape: tuple[int, int], rows: np.ndarray, cols: np.ndarray, values: np.ndarray, cells: np.ndarray) -> None:
        order = np.lexsort((cols, rows))
        self.rows, self.cols, self.values, self.cells = rows[order], cols[order], values[order], cells[order]
        self.shape = shape
        self.indptr = np.zeros(shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(self.rows, minlength=shape[0]), out=self.indptr[1:])

    def times(self, x: np.ndarray, ratio: np.ndarray | None = None) -> np.ndarray:
        """The payoff matrix times ``x`` (entries of ``x`` past the last column, such as a realization
        plan's dead slot, are never read); with ``ratio``, each chance cell's weight scaled by ``ratio[cell]``."""
        terms = x[self.cols]
        terms *= self.values if ratio is None else self.values * ratio[self.cells]
        out: np.ndarray = np.bincount(self.rows, terms, self.shape[0])
        return out


class FlatTree:
    """Both players' sequence layouts and the grouped terminals of one game; built once per game.

    Chance cells are (round, board of that round, hand 0, hand 1), numbered round by round
    (``cell_offset[r]`` + the flat index into the round's ``(B_r, H, H)``).
    """

    def __init__(self, tree: GameTree) -> None:
        self.tree = tree
        self.players = (_layout(tree, 0), _layout(tree, 1))
        self.groups = _groups(tree, self.players)
        rounds = tree.game.num_rounds
        h = len(tree.hands)
        sizes = [tree.num_boards[r] * h * h for r in range(rounds)]
        self.cell_offset = tuple(int(x) for x in np.concatenate([[0], np.cumsum(sizes)[:-1]]))
        self.num_cells = int(sum(sizes))
        self.deals = np.flatnonzero(tree.valid[rounds - 1])  # every possible (last board, hand 0, hand 1)
        # Possible deals through each round (the inverse of its chance weight) and board fan-out to the last.
        self.deals_through = tuple(float(round(1.0 / w)) for w in tree.chance_weight)
        self.fan_out = tuple(tree.num_boards[rounds - 1] // tree.num_boards[r] for r in range(rounds))
        self.payoff = _payoff_matrices(self)

    # ------------------------------------------------------------------ terminal values

    def terminal_values(self, player: int, x_opponent: np.ndarray, ratio: np.ndarray | None = None) -> np.ndarray:
        """Per own sequence, the sum of ``player``'s chance- and opponent-weighted terminal values.

        ``x_opponent`` is the opponent's realization plan (with its dead slot). ``ratio`` (per chance
        cell, see ``chance_ratio``) rescales each cell's chance weight: the sampled estimate. Small trees
        use the sequence-form payoff matrix (one product); larger ones the per-round matrices.
        """
        if self.payoff is not None:
            return self.payoff[player].times(x_opponent, ratio)
        opp = 1 - player
        vals = []
        idx = []
        for g in self.groups:
            m = g.matrix
            if ratio is not None:
                off = self.cell_offset[g.round]
                r = ratio[off : off + m.size].reshape(m.shape)  # cells are (board, hand 0, hand 1)
                m = m * (r if player == 0 else r.transpose(0, 2, 1))
            u = np.matmul(m, x_opponent[g.last[opp]])
            u *= g.coef[player]
            vals.append(u.ravel())
            idx.append(g.last[player].ravel())
        n = self.players[player].num_sequences
        return np.bincount(np.concatenate(idx), np.concatenate(vals), minlength=n + 1)[:n]

    def sample_deals(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` deals drawn uniformly, i.e. with their chance probability (with replacement), as
        flat indices into the last round's ``(boards, hands, hands)``."""
        return self.deals[rng.integers(len(self.deals), size=count)]

    def chance_ratio(self, deals: np.ndarray) -> np.ndarray:
        """Per chance cell, the sampled deals' frequency over the cell's chance probability.

        Weighting terminal values by it gives an unbiased estimate of the exact ones: the
        chance-sampled counterfactual values of Lanctot et al. (2009), the importance weight 1/q
        cancelling the chance probability, averaged over the sampled deals.
        """
        last = len(self.fan_out) - 1
        h2 = self.tree.valid[last].shape[1] * self.tree.valid[last].shape[2]
        counts = np.bincount(deals, minlength=self.tree.valid[last].size).astype(np.float64)
        parts = []
        for r, f in enumerate(self.fan_out):
            c = counts if f == 1 else counts.reshape(-1, f, h2).sum(axis=1).ravel()
            parts.append(c * (self.deals_through[r] / len(deals)))
        return np.concatenate(parts) if len(parts) > 1 else parts[0]

    # ------------------------------------------------------------------ evaluation

    def best_response_value(self, player: int, x_opponent: np.ndarray) -> float:
        """Expected chips per hand of ``player``'s best response to the opponent's realization plan."""
        v, _ = self.players[player].backward(None, self.terminal_values(player, x_opponent))
        return float(v[0])

    def exploitability(self, sigma: tuple[np.ndarray, np.ndarray]) -> float:
        """``(BR_0 + BR_1) / 2`` of a behavioural profile (as ``best_response.exploitability``)."""
        x0 = self.players[0].realization(sigma[0])
        x1 = self.players[1].realization(sigma[1])
        return 0.5 * (self.best_response_value(0, x1) + self.best_response_value(1, x0))

    def expected_value(self, sigma: tuple[np.ndarray, np.ndarray]) -> float:
        """Position 0's expected chips per hand under a behavioural profile."""
        x0 = self.players[0].realization(sigma[0])
        x1 = self.players[1].realization(sigma[1])
        return float(self.terminal_values(0, x1) @ x0[:-1])

    # ------------------------------------------------------------------ conversions

    def to_profile(self, sigma: tuple[np.ndarray, np.ndarray]) -> Profile:
        """Behavioural arrays ``(boards, hands, actions)`` per decision node (uniform off the infosets)."""
        tree = self.tree
        out: Profile = []
        for d in range(tree.num_decision_nodes):
            node = tree.decision(d)
            k = len(node.actions)
            arr = np.full((tree.num_boards[node.round], len(tree.hands), k), 1.0 / k)
            bs, hs = tree.cells[d]
            arr[bs, hs] = sigma[node.player][self.players[node.player].node_sequences[d]]
            out.append(arr)
        return out

    def from_profile(self, profile: Profile) -> tuple[np.ndarray, np.ndarray]:
        """Per-player behavioural sequence arrays from ``(boards, hands, actions)`` arrays."""
        tree = self.tree
        sig = [np.ones(lay.num_sequences) for lay in self.players]
        for d in range(tree.num_decision_nodes):
            p = tree.decision(d).player
            bs, hs = tree.cells[d]
            sig[p][self.players[p].node_sequences[d]] = np.asarray(profile[d])[bs, hs]
        return sig[0], sig[1]


@cache
def flat_tree(tree: GameTree) -> FlatTree:
    """The flattened form of a tree, built once per tree."""
    return FlatTree(tree)


# ---------------------------------------------------------------------- building


def _layout(tree: GameTree, player: int) -> PlayerLayout:
    ps = tree.sequences[player]
    n_inf = ps.num_infosets
    sizes = ps.num_actions.astype(np.int64)
    # Depth of each information set: 1 + depth of its parent sequence; parents come first in the
    # tree's pre-order numbering, so a few vectorised sweeps settle it.
    seq_depth = np.zeros(ps.num_sequences, dtype=np.int64)
    inf_of_tree_seq = np.repeat(np.arange(n_inf), sizes)
    depth = np.ones(n_inf, dtype=np.int64)
    for _ in range(64):
        seq_depth[1:] = depth[inf_of_tree_seq]
        new = seq_depth[ps.parent_seq] + 1
        if np.array_equal(new, depth):
            break
        depth = new
    order = np.argsort(depth, kind="stable")  # our infoset k is the tree's infoset order[k]
    new_id = np.empty(n_inf, dtype=np.int64)
    new_id[order] = np.arange(n_inf)
    new_sizes = sizes[order]
    new_first = np.ones(n_inf, dtype=np.int64)
    if n_inf:
        new_first[1:] = 1 + np.cumsum(new_sizes)[:-1]
    num_seqs = int(1 + new_sizes.sum())
    from_tree = np.zeros(ps.num_sequences, dtype=np.int64)
    offset_in_infoset = np.arange(num_seqs - 1) - np.repeat(new_first - 1, new_sizes)
    tree_seq = np.repeat(ps.first_seq[order], new_sizes) + offset_in_infoset
    our_seq = np.arange(1, num_seqs)
    from_tree[tree_seq] = our_seq
    to_tree = np.zeros(num_seqs, dtype=np.int64)
    to_tree[our_seq] = tree_seq
    inf_parent = from_tree[ps.parent_seq[order]]
    infoset_of = np.repeat(np.arange(n_inf), new_sizes)
    seq_parent = np.zeros(num_seqs, dtype=np.int64)
    seq_parent[1:] = inf_parent[infoset_of]
    inv_size = 1.0 / new_sizes[infoset_of].astype(np.float64)
    levels = []
    sorted_depth = depth[order]
    for dep in dict.fromkeys(sorted_depth.tolist()):  # distinct depths in order (np.unique would import numpy.ma)
        ilo = int(np.searchsorted(sorted_depth, dep, "left"))
        ihi = int(np.searchsorted(sorted_depth, dep, "right"))
        lo = int(new_first[ilo])
        hi = int(new_first[ihi - 1] + new_sizes[ihi - 1])
        parents = inf_parent[ilo:ihi].copy()
        single = int(parents[0]) if (parents == parents[0]).all() else -1
        unique = len(set(parents.tolist())) == len(parents)
        levels.append(Level(slice(lo, hi), slice(ilo + 1, ihi + 1), seq_parent[lo:hi].copy(), new_first[ilo:ihi] - lo, parents, single, unique))
    node_sequences = {}
    for d, nd in enumerate(tree.decision_nodes):
        node = tree.nodes[nd]
        if node.player != player:
            continue
        bs, hs = tree.cells[d]
        ids = new_id[tree.node_infosets[d][bs, hs]]
        node_sequences[d] = new_first[ids][:, None] + np.arange(len(node.actions))[None, :]
    starts = np.concatenate([[0], new_first]).astype(np.int64)
    segment_of = np.concatenate([[0], infoset_of + 1]).astype(np.int64)
    inv = np.concatenate([[1.0], inv_size])
    last_offset = np.concatenate([[0], new_sizes - 1]).astype(np.int64)
    max_actions = int(new_sizes.max()) if n_inf else 1
    return PlayerLayout(
        player, num_seqs, n_inf, tuple(levels), starts, segment_of, inv, last_offset, max_actions, from_tree, to_tree, node_sequences
    )


def _payoff_matrices(flat: FlatTree) -> tuple[SequencePayoff, SequencePayoff] | None:
    """Both positions' sequence-form payoff matrices, or None when the grouped products are cheaper."""
    groups, players = flat.groups, flat.players
    nnz = sum(int(np.count_nonzero(g.matrix)) * g.coef[0].shape[0] for g in groups)
    s0, s1 = players[0].num_sequences, players[1].num_sequences
    if s0 * s1 > DENSE_PAYOFF_ENTRIES and nnz > SPARSE_PAYOFF_NONZEROS:
        return None
    rows, cols, vals, cells = [], [], [], []
    for g in groups:
        b, i, j = np.nonzero(g.matrix)
        t = g.coef[0].shape[0]
        m = g.matrix[b, i, j]
        h = g.matrix.shape[1]
        rows.append(g.last[0][b, i].ravel())
        cols.append(g.last[1][b, j].ravel())
        vals.append((m[:, None] * g.coef[0][None, :]).ravel())
        cells.append(np.repeat(flat.cell_offset[g.round] + (b * h + i) * h + j, t))
    r, c, v, cell = (np.concatenate(x) for x in (rows, cols, vals, cells))
    keep = (r < s0) & (c < s1)  # the dead slot: only impossible cells, whose payoff is 0 anyway
    r, c, v, cell = r[keep], c[keep], v[keep], cell[keep]
    return SequencePayoff((s0, s1), r, c, v, cell), SequencePayoff((s1, s0), c, r, -v, cell)


def _terminal_last(tree: GameTree, players: tuple[PlayerLayout, PlayerLayout], n: int) -> tuple[np.ndarray, np.ndarray]:
    out = []
    for p in (0, 1):
        s = tree.terminal_last_seq[n][p]
        lay = players[p]
        out.append(np.where(s >= 0, lay.from_tree[np.maximum(s, 0)], lay.num_sequences))
    return out[0], out[1]


def _coefs(node_kind: NodeKind, coef: float) -> tuple[float, float]:
    # Fold matrices are symmetric in the two hands and showdown matrices antisymmetric, so position 1's
    # payoff matrix (indexed own hand first) is the same matrix with the sign folded into the coefficient.
    return (coef, -coef) if node_kind is NodeKind.FOLD else (coef, coef)


def _groups(tree: GameTree, players: tuple[PlayerLayout, PlayerLayout]) -> tuple[TerminalGroup, ...]:
    by_key: dict[tuple[int, int], list[int]] = {}
    for n in tree.nodes:
        if n.kind is not NodeKind.DECISION:
            by_key.setdefault((n.round, int(n.kind)), []).append(n.index)
    groups = []
    for (r, _kind), members in sorted(by_key.items()):
        lasts = [_terminal_last(tree, players, n) for n in members]
        coefs = [_coefs(tree.nodes[n].kind, tree.nodes[n].coef) for n in members]
        groups.append(
            TerminalGroup(
                r,
                _round_matrix(tree, tree.nodes[members[0]]),
                (np.stack([a for a, _ in lasts], axis=-1), np.stack([b for _, b in lasts], axis=-1)),
                (np.array([c for c, _ in coefs]), np.array([c for _, c in coefs])),
            )
        )
    return tuple(groups)


def _round_matrix(tree: GameTree, node: PublicNode) -> np.ndarray:
    """The round's chance-weighted fold or showdown matrix (without the node's coefficient)."""
    if node.kind is NodeKind.FOLD:
        return tree.fold_matrix[node.round]
    m = tree.showdown_matrix[node.round]
    assert m is not None
    return m


__all__ = ["FlatTree", "Level", "PlayerLayout", "SequencePayoff", "flat_tree"]

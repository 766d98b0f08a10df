"""The game tree of a 2-player game in the vectorised "public tree" form the exact solvers share.

The betting is walked once with the one ``State`` (no cards: only the betting matters). Chance is
enumerated apart from it: every private hand (a set of ``num_hole_cards`` cards of the deck) and every
board (the board cards visible in a round, dealt round by round). A public node is one betting
sequence; at a node of round ``r`` each player's quantities (reach probabilities, counterfactual
values, behavioural strategies) are arrays over ``(board of round r, own hand)``, so one numpy
operation treats every deal at once. Terminal nodes carry a coefficient times a per-round matrix over
``(board, hand of position 0, hand of position 1)`` that already holds the chance probability of the
deal and the card-removal mask (zero where two hands, or a hand and the board, share a card).

An information set of a player is (decision node of that player, board, own hand); its key is
``strategy.infoset_key`` of (hand, board, betting). Sequences per player (Koller, Megiddo & von Stengel
1994) are numbered here too: 0 is the empty sequence and infoset ``i`` owns sequences
``first_seq[i] .. first_seq[i] + num_actions - 1`` (one per action, in the node's action order).

Only games whose tree fits comfortably in memory are accepted (Kuhn, N-card Kuhn, Leduc and the
like): ``check_solvable`` estimates the size from the game definition before anything is built and
raises ``SolverError`` for hold'em, 3-player games and anything else too large.
"""

from __future__ import annotations

import itertools
import math
from enum import IntEnum
from functools import cache
from typing import NamedTuple

import numpy as np

from showdown.errors import SolverError
from showdown.games.cards import make_deck
from showdown.games.gamedef import GameDef
from showdown.games.hand_value import hand_value
from showdown.games.infoset import cards_key_text
from showdown.games.state import State

MAX_MATRIX_ENTRIES = 5_000_000
"""Largest (boards x hands x hands) terminal matrix accepted for one round (40 MB of float64)."""

MAX_PUBLIC_NODES = 200_000
"""Largest betting tree walked; the walk stops as soon as it passes this many nodes."""

MAX_INFOSET_CELLS = 20_000_000
"""Largest total of (board, hand) cells over all public nodes."""


class NodeKind(IntEnum):
    DECISION = 0
    FOLD = 1
    SHOWDOWN = 2


class PublicNode(NamedTuple):
    """One betting sequence of the public tree.

    ``coef`` is the chips won by position 0 per unit of the round's terminal matrix: at a fold the
    amount the folder loses (signed for position 0), at a showdown the amount at stake (the smaller
    contribution), to be multiplied by the win/lose/tie sign matrix.
    """

    index: int  # type: ignore[assignment]  # the node's number, not tuple.index
    betting: str
    round: int
    kind: NodeKind
    player: int
    actions: tuple[str, ...]
    children: tuple[int, ...]
    parent: int
    spent: tuple[int, ...]
    coef: float
    decision_index: int


class TreeSize(NamedTuple):
    """Size of the vectorised tree, computed from the game definition alone."""

    num_hands: int
    num_boards: tuple[int, ...]
    matrix_entries: int

    def describe(self) -> str:
        return (
            f"{self.num_hands} private hands per player, {self.num_boards[-1]} boards in the last round, "
            f"{self.matrix_entries:.3g} terminal-matrix entries"
        )


class PlayerSequences(NamedTuple):
    """Information sets and sequences of one player (sequence 0 is the empty sequence)."""

    player: int
    num_infosets: int
    num_sequences: int
    node: np.ndarray  # (I,) public node index of each infoset
    board: np.ndarray  # (I,) board index within the node's round
    hand: np.ndarray  # (I,) own hand index
    num_actions: np.ndarray  # (I,)
    first_seq: np.ndarray  # (I,) first sequence of the infoset
    parent_seq: np.ndarray  # (I,) the player's sequence that leads to the infoset
    keys: tuple[str, ...]  # (I,) information-set keys


class GameTree:
    """The public tree, chance enumeration, terminal matrices and sequences of one game.

    Build it with ``build_tree(game)`` (cached per game). Everything is read-only after building.

    * ``nodes``: public nodes in pre-order (parents before children); ``decision_nodes[d]`` is the
      node index of decision ``d``; ``expand[n]`` is how many boards each board of the parent's round
      becomes on the edge into node ``n`` (1 within a round; children of a board are contiguous).
    * ``hands`` ``(H, num_hole_cards)``: every private hand; ``boards[r]`` ``(B_r, cards)``: every board
      visible in round ``r``; ``compat[r]`` ``(B_r, H)``: hand and board share no card;
      ``valid[r]`` ``(B_r, H, H)``: the deal (board, hand 0, hand 1) is possible.
    * ``chance_weight[r]``: the probability of each possible deal seen through round ``r`` (all equal);
      ``fold_matrix[r] = valid * weight``; ``showdown_matrix[r] = sign(strength 0 - strength 1) * valid
      * weight``; a terminal's payoff for position 0 is ``node.coef`` times one of them.
    * ``cells[d]``: the (board, hand) cells of decision ``d`` that are information sets, in the
      order of ``keys_by_node[d]``; ``node_infosets[d]`` maps cells to the player's infoset index.
    * ``sequences[p]``: position ``p``'s information sets and sequences; ``terminal_last_seq[n]``: per
      terminal, each position's last sequence for every (board, hand) cell (-1 where impossible).
    """

    game: GameDef
    size: TreeSize
    deck: tuple[int, ...]
    nodes: tuple[PublicNode, ...]
    decision_nodes: tuple[int, ...]
    hands: np.ndarray
    hand_text: tuple[str, ...]
    boards: tuple[np.ndarray, ...]
    board_text: tuple[tuple[str, ...], ...]
    num_boards: tuple[int, ...]
    compat: tuple[np.ndarray, ...]
    valid: tuple[np.ndarray, ...]
    chance_weight: tuple[float, ...]
    fold_matrix: tuple[np.ndarray, ...]
    showdown_matrix: tuple[np.ndarray | None, ...]
    expand: tuple[int, ...]
    cells: tuple[tuple[np.ndarray, np.ndarray], ...]
    keys_by_node: tuple[tuple[str, ...], ...]
    node_infosets: tuple[np.ndarray, ...]
    sequences: tuple[PlayerSequences, PlayerSequences]
    terminal_last_seq: dict[int, tuple[np.ndarray, np.ndarray]]

    def __init__(self, game: GameDef) -> None:
        size = check_solvable(game)
        self.game = game
        self.size = size
        self._build_chance()
        self._build_nodes()
        self._build_matrices()
        self._build_sequences()
        self.key_index: dict[str, tuple[int, int, int]] = {}
        for d, keys in enumerate(self.keys_by_node):
            bs, hs = self.cells[d]
            for k, b, h in zip(keys, bs.tolist(), hs.tolist()):
                self.key_index[k] = (d, b, h)

    # ------------------------------------------------------------------ chance

    def _build_chance(self) -> None:
        g = self.game
        deck = make_deck(g.num_ranks, g.num_suits)
        self.deck = deck
        c = g.num_hole_cards
        hands = np.array(list(itertools.combinations(deck, c)), dtype=np.int64).reshape(-1, c)
        self.hands = hands
        self.hand_text = tuple(cards_key_text(h) for h in hands.tolist())
        card_pos = {card: i for i, card in enumerate(deck)}
        hand_mask = np.zeros((len(hands), len(deck)))  # float: the products below go through BLAS (exact small counts)
        for i, h in enumerate(hands.tolist()):
            for card in h:
                hand_mask[i, card_pos[card]] = 1
        hands_disjoint = (hand_mask @ hand_mask.T) == 0

        boards: list[np.ndarray] = []
        texts: list[tuple[str, ...]] = []
        weights: list[float] = []
        denominator = math.comb(len(deck), c) * math.comb(len(deck) - c, c)
        dealt = 2 * c
        prev: list[tuple[int, ...]] = [()]
        prev_groups: list[tuple[tuple[int, ...], ...]] = [()]
        for r in range(g.num_rounds):
            n = g.num_board_cards[r]
            nxt: list[tuple[int, ...]] = []
            groups: list[tuple[tuple[int, ...], ...]] = []
            for board, grp in zip(prev, prev_groups):
                rest = [card for card in deck if card not in board]
                for combo in itertools.combinations(rest, n):
                    nxt.append(board + combo)
                    groups.append(grp + (combo,))
            denominator *= math.comb(len(deck) - dealt, n)
            dealt += n
            weights.append(1.0 / denominator)
            width = sum(g.num_board_cards[: r + 1])
            boards.append(np.array(nxt, dtype=np.int64).reshape(len(nxt), width))
            texts.append(tuple("".join(cards_key_text(gr) for gr in grp) for grp in groups))
            prev, prev_groups = nxt, groups
        self.boards = tuple(boards)
        self.board_text = tuple(texts)
        self.num_boards = tuple(len(b) for b in boards)
        self.chance_weight = tuple(weights)

        compat: list[np.ndarray] = []
        valid: list[np.ndarray] = []
        for r in range(g.num_rounds):
            bmask = np.zeros((self.num_boards[r], len(deck)))
            for i, b in enumerate(boards[r].tolist()):
                for card in b:
                    bmask[i, card_pos[card]] = 1
            cm = (bmask @ hand_mask.T) == 0
            compat.append(cm)
            valid.append(cm[:, :, None] & cm[:, None, :] & hands_disjoint[None, :, :])
        self.compat = tuple(compat)
        self.valid = tuple(valid)

    # ------------------------------------------------------------------ betting

    def _build_nodes(self) -> None:
        g = self.game
        nodes: list[PublicNode] = []
        decision: list[int] = []

        # Every node holds at least one (board, hand) cell per hand: stop the walk as soon as the
        # tree is certain to be too large, long before memory fills up.
        cap = min(MAX_PUBLIC_NODES, MAX_INFOSET_CELLS // len(self.hands))

        def visit(state: State, parent: int) -> int:
            index = len(nodes)
            if index >= cap:
                raise SolverError(
                    f"game {g.name or '?'} is too large for the exact solvers: the betting tree has more than "
                    f"{cap} nodes"
                )
            nodes.append(None)  # type: ignore[arg-type]  # placeholder keeps pre-order indices
            spent = tuple(state.spent)
            if state.is_terminal:
                if state.folded[0] or state.folded[1]:
                    kind, coef = NodeKind.FOLD, float(-spent[0] if state.folded[0] else spent[1])
                else:
                    kind, coef = NodeKind.SHOWDOWN, float(min(spent))
                nodes[index] = PublicNode(index, state.betting, state.round, kind, -1, (), (), parent, spent, coef, -1)
                return index
            actions = state.legal_actions()
            d = len(decision)
            decision.append(index)
            children = tuple(visit(state.apply(a), index) for a in actions)
            nodes[index] = PublicNode(
                index,
                state.betting,
                state.round,
                NodeKind.DECISION,
                state.current_player,
                tuple(str(a) for a in actions),
                children,
                parent,
                spent,
                0.0,
                d,
            )
            return index

        visit(State.initial(g), -1)
        self.nodes = tuple(nodes)
        self.decision_nodes = tuple(decision)
        cells = sum(self.num_boards[n.round] for n in nodes) * len(self.hands)
        if cells > MAX_INFOSET_CELLS:
            raise SolverError(
                f"game {g.name or '?'} is too large for the exact solvers: {cells:.3g} (board, hand) cells "
                f"over {len(nodes)} betting nodes (limit {MAX_INFOSET_CELLS:.3g})"
            )
        # Board expansion factor on the edge into each node (chance deals between rounds).
        self.expand = tuple(
            1 if n.parent < 0 else self.num_boards[n.round] // self.num_boards[nodes[n.parent].round] for n in nodes
        )

    # ------------------------------------------------------------------ terminal matrices

    def _build_matrices(self) -> None:
        rounds = {n.round for n in self.nodes if n.kind is not NodeKind.DECISION}
        fold: list[np.ndarray] = []
        show: list[np.ndarray | None] = []
        for r in range(self.game.num_rounds):
            w = self.chance_weight[r]
            fold.append(self.valid[r] * w if r in rounds else np.zeros((0, 0, 0)))
            if any(n.kind is NodeKind.SHOWDOWN and n.round == r for n in self.nodes):
                bs, hs = np.nonzero(self.compat[r])
                cards = np.concatenate([self.hands[hs], self.boards[r][bs]], axis=1)
                strength = np.zeros(self.compat[r].shape, dtype=np.int64)
                strength[bs, hs] = _hand_strengths(cards)
                sign = np.sign(strength[:, :, None] - strength[:, None, :]).astype(np.float64)
                show.append(sign * self.valid[r] * w)
            else:
                show.append(None)
        self.fold_matrix = tuple(fold)
        self.showdown_matrix = tuple(show)

    def terminal_matrix(self, node: PublicNode) -> np.ndarray:
        """Chance-weighted payoff matrix for position 0 at a terminal: ``coef`` times the round matrix."""
        if node.kind is NodeKind.FOLD:
            return node.coef * self.fold_matrix[node.round]
        m = self.showdown_matrix[node.round]
        assert m is not None
        return node.coef * m

    # ------------------------------------------------------------------ sequences

    def _build_sequences(self) -> None:
        nodes = self.nodes
        cells: list[tuple[np.ndarray, np.ndarray]] = []
        node_infosets: list[np.ndarray] = []
        per_player: list[dict[str, list[np.ndarray]]] = [
            {"node": [], "board": [], "hand": [], "num_actions": [], "first_seq": [], "parent_seq": []} for _ in range(2)
        ]
        num_infosets = [0, 0]
        num_seqs = [1, 1]
        last: dict[int, list[np.ndarray]] = {0: [np.where(self.compat[0], 0, -1), np.where(self.compat[0], 0, -1)]}
        terminal_last: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for n in nodes:
            seqs = last.pop(n.index)
            if n.kind is not NodeKind.DECISION:
                terminal_last[n.index] = (seqs[0], seqs[1])
                continue
            p = n.player
            bs, hs = np.nonzero(self.compat[n.round])
            count = len(bs)
            ids = np.full(self.compat[n.round].shape, -1, dtype=np.int64)
            ids[bs, hs] = num_infosets[p] + np.arange(count)
            k = len(n.actions)
            first = num_seqs[p] + k * np.arange(count)
            rec = per_player[p]
            rec["node"].append(np.full(count, n.index))
            rec["board"].append(bs)
            rec["hand"].append(hs)
            rec["num_actions"].append(np.full(count, k))
            rec["first_seq"].append(first)
            rec["parent_seq"].append(seqs[p][bs, hs])
            cells.append((bs, hs))
            node_infosets.append(ids)
            first_grid = np.full(ids.shape, -1, dtype=np.int64)
            first_grid[bs, hs] = first
            num_infosets[p] += count
            num_seqs[p] += k * count
            for a, child in enumerate(n.children):
                child_seqs = list(seqs)
                child_seqs[p] = np.where(first_grid >= 0, first_grid + a, -1)
                f = self.expand[child]
                if f != 1:
                    cr = nodes[child].round
                    child_seqs = [np.where(self.compat[cr], np.repeat(s, f, axis=0), -1) for s in child_seqs]
                last[child] = child_seqs
        self.cells = tuple(cells)
        self.node_infosets = tuple(node_infosets)
        self.keys_by_node = tuple(tuple(self.node_keys(d)) for d in range(len(cells)))
        self.terminal_last_seq = terminal_last
        built = []
        for p in range(2):
            rec = per_player[p]

            def cat(name: str, rec: dict[str, list[np.ndarray]] = rec) -> np.ndarray:
                return np.concatenate(rec[name]).astype(np.int64) if rec[name] else np.zeros(0, dtype=np.int64)

            node, board, hand = cat("node"), cat("board"), cat("hand")
            keys = tuple(
                k for d, nd in enumerate(self.decision_nodes) if nodes[nd].player == p for k in self.keys_by_node[d]
            )
            built.append(
                PlayerSequences(
                    p,
                    num_infosets[p],
                    num_seqs[p],
                    node,
                    board,
                    hand,
                    cat("num_actions"),
                    cat("first_seq"),
                    cat("parent_seq"),
                    keys,
                )
            )
        self.sequences = (built[0], built[1])

    # ------------------------------------------------------------------ queries

    def node_keys(self, d: int) -> list[str]:
        """Information-set keys of decision node ``d`` (decision index), in ``cells[d]`` order."""
        n = self.nodes[self.decision_nodes[d]]
        bs, hs = self.cells[d]
        bt = self.board_text[n.round]
        ht = self.hand_text
        return [f"{ht[h]}:{bt[b]}/{n.betting}" for b, h in zip(bs.tolist(), hs.tolist())]

    @property
    def num_decision_nodes(self) -> int:
        return len(self.decision_nodes)

    def decision(self, d: int) -> PublicNode:
        return self.nodes[self.decision_nodes[d]]

    def infoset_keys(self, player: int | None = None) -> tuple[str, ...]:
        """All information-set keys (of one player, or of both: position 0's first)."""
        if player is not None:
            return self.sequences[player].keys
        return self.sequences[0].keys + self.sequences[1].keys

    def legal_actions(self, key: str) -> tuple[str, ...]:
        """Action strings at an information set; ``SolverError`` for a key the game does not have."""
        try:
            d, _, _ = self.key_index[key]
        except KeyError:
            raise SolverError(f"information set {key!r} does not exist in game {self.game.name or '?'}") from None
        return self.decision(d).actions

    def player_of(self, key: str) -> int:
        d, _, _ = self.key_index[key]
        return self.decision(d).player


# ---------------------------------------------------------------------- size checks


def estimate_size(game: GameDef) -> TreeSize:
    """Hands, boards and terminal-matrix entries of the vectorised tree, from the definition alone."""
    deck = game.num_ranks * game.num_suits
    c = game.num_hole_cards
    hands = math.comb(deck, c)
    boards = []
    b = 1
    left = deck
    for r in range(game.num_rounds):
        n = game.num_board_cards[r]
        b *= math.comb(left, n)
        left -= n
        boards.append(b)
    entries = max(boards) * hands * hands
    return TreeSize(hands, tuple(boards), entries)


def check_solvable(game: GameDef) -> TreeSize:
    """Raise ``SolverError`` at once unless the exact solvers can hold the game in memory."""
    name = game.name or "?"
    if game.num_players != 2:
        raise SolverError(
            f"game {name} has {game.num_players} players: the exact solvers handle 2-player zero-sum games only"
        )
    size = estimate_size(game)
    if size.matrix_entries > MAX_MATRIX_ENTRIES:
        raise SolverError(
            f"game {name} is too large for the exact solvers: {size.describe()} "
            f"(limit {MAX_MATRIX_ENTRIES:.3g}); use an abstraction or a sampling method"
        )
    return size



SCALAR_RANKING_ROWS = 1_000
"""Showdowns of at most this many (board, hand) cells are ranked one by one (``hand_value``): the
batch ranking (``games.evaluate``) first builds its tables: 8M instructions, 3.5 times Kuhn's whole tree."""


def _hand_strengths(cards: np.ndarray) -> np.ndarray:
    """``hand_value`` of every row of ``cards`` (the same integers either way)."""
    if len(cards) <= SCALAR_RANKING_ROWS:
        return np.array([hand_value(row) for row in cards.tolist()], dtype=np.int64)
    from showdown.games.evaluate import hand_values

    return hand_values(cards)

@cache
def build_tree(game: GameDef) -> GameTree:
    """The game's tree, built once per game definition and cached."""
    return GameTree(game)


__all__ = [
    "GameTree",
    "MAX_MATRIX_ENTRIES",
    "NodeKind",
    "PlayerSequences",
    "PublicNode",
    "TreeSize",
    "build_tree",
    "check_solvable",
    "estimate_size",
]

"""The vectorised tree of an N-player limit game (3-player Kuhn and Leduc, ...), for the exact
multiplayer solvers and evaluation (``multiplayer``) and for checking N-player strategies.

Every deal of the cards (all players' hole cards and the whole board, each deal equally likely) is
one column, every betting sequence one row; an information set is (decision node, the actor's hole
cards, the board visible in its round) and owns one row of ``(information sets, MAX_ACTIONS)``
strategy arrays. Only limit games whose (nodes x deals) table stays under ``MAX_CELLS`` are accepted
(``SolverError`` otherwise, before anything large is built).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from showdown.errors import SolverError
from showdown.games.cards import make_deck
from showdown.games.gamedef import GameDef, format_gamedef
from showdown.games.infoset import cards_key_text, infoset_key
from showdown.games.state import State

__all__ = ["MAX_ACTIONS", "MAX_CELLS", "NTree", "build_ntree", "check_multiplayer_solvable", "count_deals"]

MAX_CELLS = 40_000_000
"""Largest (betting nodes x deals) table accepted (about 320 MB per float64 table)."""

MAX_NODES = 200_000
MAX_DEALS = 2_000_000
MAX_ACTIONS = 3
"""Limit games: fold, call, raise."""


# ---------------------------------------------------------------------- the tree


def count_deals(game: GameDef) -> int:
    """How many equally likely deals (ordered hole cards per player, then the board) the game has."""
    cards = game.num_ranks * game.num_suits
    c = game.num_hole_cards
    total = 1
    for _ in range(game.num_players):
        total *= math.comb(cards, c)
        cards -= c
    for n in game.num_board_cards:
        total *= math.comb(cards, n)
        cards -= n
    return total


def check_multiplayer_solvable(game: GameDef) -> int:
    """Raise ``SolverError`` unless the multiplayer solvers accept ``game``; returns its deal count."""
    name = game.name or "this game"
    if not game.is_limit:
        raise SolverError(f"the multiplayer solvers handle limit games only; {name} is no-limit")
    deals = count_deals(game)
    if deals > MAX_DEALS:
        raise SolverError(f"game {name} is too large for the exact multiplayer solvers: {deals:,} deals")
    return deals


class NTree:
    """The vectorised tree of an N-player limit game (see the module docstring).

    Nodes are numbered breadth first: ``levels[k]`` is the node range of depth ``k`` and the children of
    a node are the contiguous range ``first_child[n] : first_child[n] + num_children[n]``.
    ``edge[n, x]`` (non-root ``n``) is the flat index ``infoset * MAX_ACTIONS + action`` of the action
    that leads from ``n``'s parent to ``n`` in deal ``x``. ``payoff[:, t, x]`` is every player's net
    chips at terminal ``terminals[t]`` in deal ``x``.
    """

    def __init__(self, game: GameDef) -> None:
        self.game = game
        self.num_players = n_players = game.num_players
        num_deals = check_multiplayer_solvable(game)
        self._deal(num_deals)
        self._walk()
        cells = len(self.betting) * self.num_deals
        if cells > MAX_CELLS:
            raise SolverError(
                f"game {game.name or '?'} is too large for the exact multiplayer solvers: "
                f"{len(self.betting):,} betting nodes x {self.num_deals:,} deals"
            )
        self._index_infosets()
        self._payoffs()
        self.players = tuple(range(n_players))
        self._level_decisions: dict[tuple[int, int], np.ndarray] = {}
        self._player_edges: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self._ancestor_cache: dict[int, np.ndarray | None] = {}
        self._own_path = self._own_paths()

    # ------------------------------------------------------------------ deals

    def _deal(self, num_deals: int) -> None:
        g = self.game
        deck = make_deck(g.num_ranks, g.num_suits)
        c = g.num_hole_cards
        hand_list = list(itertools.combinations(range(len(deck)), c))
        hand_id = {h: i for i, h in enumerate(hand_list)}
        holes: list[tuple[int, ...]] = []  # per deal, the hand index of each player
        boards: list[tuple[int, ...]] = []  # per deal, the board card positions in dealing order

        def deal_boards(used: set[int], r: int, board: tuple[int, ...], hands: tuple[int, ...]) -> None:
            if r == g.num_rounds:
                holes.append(hands)
                boards.append(board)
                return
            rest = [i for i in range(len(deck)) if i not in used]
            for combo in itertools.combinations(rest, g.num_board_cards[r]):
                deal_boards(used | set(combo), r + 1, board + combo, hands)

        def deal_holes(used: set[int], p: int, hands: tuple[int, ...]) -> None:
            if p == g.num_players:
                deal_boards(used, 0, (), hands)
                return
            rest = [i for i in range(len(deck)) if i not in used]
            for combo in itertools.combinations(rest, c):
                deal_holes(used | set(combo), p + 1, hands + (hand_id[combo],))

        deal_holes(set(), 0, ())
        assert len(holes) == num_deals
        self.deck = deck
        self.hands = tuple(tuple(deck[i] for i in h) for h in hand_list)
        self.hand_of = np.array(holes, dtype=np.int64).reshape(num_deals, g.num_players)
        width = sum(g.num_board_cards)
        board_pos = np.array(boards, dtype=np.int64).reshape(num_deals, width)
        self.board_cards = np.array(deck, dtype=np.int64)[board_pos] if width else np.zeros((num_deals, 0), np.int64)
        self.num_deals = num_deals
        # Per round, an index of the board visible in that round (the same for deals sharing it).
        self.board_of: list[np.ndarray] = []
        self.board_text: list[list[str]] = []
        for r in range(g.num_rounds):
            seen = sum(g.num_board_cards[: r + 1])
            # Within a round the order of cards does not matter to the player: sort it away.
            parts = []
            start = 0
            for k in range(r + 1):
                n = g.num_board_cards[k]
                parts.append(np.sort(self.board_cards[:, start : start + n], axis=1))
                start += n
            visible = np.concatenate(parts, axis=1) if seen else np.zeros((num_deals, 0), np.int64)
            uniq, inverse = np.unique(visible, axis=0, return_inverse=True)
            self.board_of.append(inverse.reshape(-1))
            texts = []
            for row in uniq.tolist():
                pieces, s = [], 0
                for k in range(r + 1):
                    n = g.num_board_cards[k]
                    pieces.append(cards_key_text(row[s : s + n]))
                    s += n
                texts.append("".join(pieces))
            self.board_text.append(texts)

    # ------------------------------------------------------------------ betting

    def _walk(self) -> None:
        g = self.game
        states = [State.initial(g)]
        parent = [-1]
        action_index = [-1]
        levels: list[tuple[int, int]] = []
        lo = 0
        while lo < len(states):
            hi = len(states)
            levels.append((lo, hi))
            for n in range(lo, hi):
                s = states[n]
                if s.is_terminal:
                    continue
                for a_i, a in enumerate(s.legal_actions()):
                    states.append(s.apply(a))
                    parent.append(n)
                    action_index.append(a_i)
                    if len(states) > MAX_NODES:
                        raise SolverError(
                            f"game {g.name or '?'} is too large for the exact multiplayer solvers: more than {MAX_NODES:,} betting nodes"
                        )
            lo = hi
        self.levels = tuple(levels)
        self.betting = tuple(s.betting for s in states)
        self.round = np.array([s.round for s in states], dtype=np.int64)
        self.terminal = np.array([s.is_terminal for s in states], dtype=bool)
        self.actor = np.array([-1 if s.is_terminal else s.current_player for s in states], dtype=np.int64)
        self.actions = tuple(() if s.is_terminal else tuple(str(a) for a in s.legal_actions()) for s in states)
        self.parent = np.array(parent, dtype=np.int64)
        self.action_index = np.array(action_index, dtype=np.int64)
        num_children = np.array([len(a) for a in self.actions], dtype=np.int64)
        first_child = np.zeros(len(states), dtype=np.int64)
        for child in range(len(states) - 1, 0, -1):
            first_child[parent[child]] = child
        self.num_children = num_children
        self.first_child = first_child
        self._states = states

    # ------------------------------------------------------------------ information sets

    def _index_infosets(self) -> None:
        g = self.game
        decisions = np.flatnonzero(~self.terminal)
        num_boards = [len(t) for t in self.board_text]
        iset = np.full((len(self.betting), self.num_deals), -1, dtype=np.int64)
        keys: list[str] = []
        node_of: list[int] = []
        rep_deal: list[int] = []
        for n in decisions.tolist():
            p, r = int(self.actor[n]), int(self.round[n])
            code = self.hand_of[:, p] * num_boards[r] + self.board_of[r]
            uniq, first, inverse = np.unique(code, return_index=True, return_inverse=True)
            iset[n] = len(keys) + inverse.reshape(-1)
            for u, x in zip(uniq.tolist(), first.tolist()):
                hand, board = divmod(u, num_boards[r])
                keys.append(f"{cards_key_text(self.hands[hand])}:{self.board_text[r][board]}/{self.betting[n]}")
                node_of.append(n)
                rep_deal.append(x)
        self.infoset_keys = tuple(keys)
        self.infoset_node = np.array(node_of, dtype=np.int64)
        self.infoset_deal = np.array(rep_deal, dtype=np.int64)
        self.infoset_player = self.actor[self.infoset_node]
        self.key_index = {k: i for i, k in enumerate(keys)}
        self.num_infosets = len(keys)
        legal = np.zeros((len(keys), MAX_ACTIONS), dtype=bool)
        for i, n in enumerate(node_of):
            legal[i, : len(self.actions[n])] = True
        self.legal = legal
        edge = np.zeros((len(self.betting), self.num_deals), dtype=np.int64)
        kids = np.arange(1, len(self.betting))
        edge[kids] = iset[self.parent[kids]] * MAX_ACTIONS + self.action_index[kids, None]
        self.edge = edge
        self.iset = iset
        del g

    def _own_paths(self) -> np.ndarray:
        """Per information set, the flat strategy indices of its player's own earlier actions on the way
        to it (the same in every deal of the set), padded with ``num_infosets * MAX_ACTIONS`` (a 1)."""
        pad = self.num_infosets * MAX_ACTIONS
        paths = np.full((self.num_infosets, len(self.levels)), pad, dtype=np.int64)
        for i in range(self.num_infosets):
            n, x, p = int(self.infoset_node[i]), int(self.infoset_deal[i]), int(self.infoset_player[i])
            k = 0
            while n > 0:
                par = int(self.parent[n])
                if self.actor[par] == p:
                    paths[i, k] = self.edge[n, x]
                    k += 1
                n = par
        return paths

    # ------------------------------------------------------------------ payoffs

    def _payoffs(self) -> None:
        """Every player's net chips per terminal and deal: the pot split among the best active hands."""
        from showdown.games.evaluate import hand_values

        g = self.game
        n_players = self.num_players
        terminals = np.flatnonzero(self.terminal)
        self.terminals = terminals
        strengths: dict[int, np.ndarray] = {}
        payoff = np.zeros((n_players, len(terminals), self.num_deals))
        for t, n in enumerate(terminals.tolist()):
            s = self._states[n]
            spent = np.array(s.spent, dtype=np.float64)
            active = np.array([not f for f in s.folded], dtype=bool)
            pot = spent.sum()
            if active.sum() == 1:
                share = np.where(active, pot, 0.0)[:, None]
                payoff[:, t, :] = share - spent[:, None]
                continue
            r = int(self.round[n])
            if r not in strengths:
                seen = sum(g.num_board_cards[: r + 1])
                rows = []
                for p in range(n_players):
                    hole = np.array(self.hands, dtype=np.int64)[self.hand_of[:, p]]
                    rows.append(hand_values(np.concatenate([hole, self.board_cards[:, :seen]], axis=1)))
                strengths[r] = np.stack(rows)  # (players, deals)
            st = np.where(active[:, None], strengths[r], np.iinfo(np.int64).min)
            best = st.max(axis=0)
            winners = st == best[None, :]
            share = pot / winners.sum(axis=0)
            payoff[:, t, :] = winners * share[None, :] - spent[:, None]
        self.payoff = payoff
        self._states = []  # not needed any more

    # ------------------------------------------------------------------ strategies

    def uniform(self) -> np.ndarray:
        """The uniform behavioural strategy, ``(infosets, MAX_ACTIONS)``."""
        out: np.ndarray = self.legal / self.legal.sum(axis=1, keepdims=True)
        return out

    def key_of(self, hole: Any, board: Any, betting: str) -> str:
        return infoset_key(hole, board, betting, self.game.num_board_cards)

    def legal_actions(self, key: str) -> tuple[str, ...]:
        return self.actions[int(self.infoset_node[self.key_index[key]])]

    def player_of(self, key: str) -> int:
        return int(self.infoset_player[self.key_index[key]])

    # ------------------------------------------------------------------ passes

    def edge_probs(self, sigma: np.ndarray, cols: np.ndarray | slice = slice(None)) -> np.ndarray:
        """Per node and deal, the probability of the action leading into the node (1 at the root)."""
        prob: np.ndarray = sigma.reshape(-1)[self.edge[:, cols]]
        prob[0] = 1.0
        return prob

    def others_reach(self, prob: np.ndarray, player: int) -> np.ndarray:
        """Per node and deal, the product of every other player's reach (chance excluded: it is uniform)."""
        ancestors = self._ancestors(player)
        if ancestors is not None:  # small trees: one gather of every node's path, one product
            padded = np.concatenate([prob, np.ones((1, prob.shape[1]))])
            out: np.ndarray = padded[ancestors].prod(axis=1)
            return out
        reach = np.empty_like(prob)
        reach[0] = 1.0
        for lo, hi in self.levels[1:]:
            par = self.parent[lo:hi]
            theirs = (self.actor[par] != player)[:, None]
            reach[lo:hi] = reach[par] * np.where(theirs, prob[lo:hi], 1.0)
        return reach

    def _ancestors(self, player: int) -> np.ndarray | None:
        """Per node, the nodes on its path whose incoming edge is another player's action, padded with
        the index one past the last node (a row of ones); None when the gather would be large."""
        if player in self._ancestor_cache:
            return self._ancestor_cache[player]
        depth = len(self.levels)
        table: np.ndarray | None = None
        if len(self.betting) * depth * self.num_deals <= 2_000_000:
            pad = len(self.betting)
            table = np.full((len(self.betting), depth), pad, dtype=np.int64)
            for n in range(1, len(self.betting)):
                k, m = 0, n
                while m > 0:
                    if self.actor[self.parent[m]] != player:
                        table[n, k] = m
                        k += 1
                    m = int(self.parent[m])
        self._ancestor_cache[player] = table
        return table

    def values(self, prob: np.ndarray, player: int, cols: np.ndarray | slice = slice(None)) -> np.ndarray:
        """``player``'s expected net chips from each node on, per deal: ``(nodes, deals)``."""
        value = np.empty_like(prob)
        value[self.terminals] = self.payoff[player][:, cols]
        for lo, hi in reversed(self.levels[:-1]):
            dec = self._decisions_at(lo, hi)
            if len(dec):
                value[dec] = self._sum_children(value, prob, dec)
        return value

    def _decisions_at(self, lo: int, hi: int) -> np.ndarray:
        key = (lo, hi)
        dec = self._level_decisions.get(key)
        if dec is None:
            dec = self._level_decisions[key] = lo + np.flatnonzero(~self.terminal[lo:hi])
        return dec

    def _sum_children(self, value: np.ndarray, prob: np.ndarray, dec: np.ndarray) -> np.ndarray:
        """Per node of ``dec`` (consecutive decision nodes of one level), the probability-weighted sum of its children."""
        start = int(self.first_child[dec[0]])
        stop = int(self.first_child[dec[-1]] + self.num_children[dec[-1]])
        out: np.ndarray = np.add.reduceat(value[start:stop] * prob[start:stop], self.first_child[dec] - start, axis=0)
        return out

    def player_edges(self, player: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The decision nodes of ``player``, all their children, and each child's parent position in the first."""
        got = self._player_edges.get(player)
        if got is None:
            dec = np.flatnonzero(self.actor == player)
            kids = np.concatenate([np.arange(f, f + k) for f, k in zip(self.first_child[dec], self.num_children[dec])])
            pos = np.repeat(np.arange(len(dec)), self.num_children[dec])
            got = self._player_edges[player] = (dec, kids, pos)
        return got


_TREES: dict[str, NTree] = {}


def build_ntree(game: GameDef) -> NTree:
    """The (cached per game definition) ``NTree`` of ``game``."""
    key = format_gamedef(game)
    tree = _TREES.get(key)
    if tree is None:
        tree = NTree(game)
        _TREES.clear()  # keep one: trees of large games are big
        _TREES[key] = tree
    return tree

"""Re-solving the next-to-last betting round (the turn in hold'em) to the end of the hand.

The subgame is the rest of the turn from the real state (``Subgame`` rows, with the real pot and the
opponent's actual bet), and wherever the turn's betting ends without a fold, a chance node dealing
the last card (46 to 48 river cards in hold'em) with, below each card, the river's betting
(``SubgameSizing``, usually coarser than the turn's). Every node carries one vector over the
holdings; the last card blocks the holdings that hold it (``BoardTables.masks``) and is weighted by
one over the cards a pair of holdings leaves (44 in hold'em).

All rivers at once cost 48 river trees per iteration. ``TurnSolver`` instead samples a few cards per
iteration (public chance sampling, Johanson et al. 2012: each sampled card's subtree is updated with
the chance weight scaled up by the share sampled, so the turn's values stay unbiased), going through
the cards in a shuffled cycle so each is visited equally often. The turn's strategy is what play
uses; the river is re-solved when it comes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from showdown.errors import SolverError
from showdown.games.evaluate import hand_values, values_on_boards
from showdown.games.state import Action, State
from showdown.solvers.betting import DECISION, FOLD_END, SHOWDOWN, BettingTree
from showdown.solvers.holdings import Holdings
from showdown.solvers.subgame import BoardTables, FlatTree, Subgame, SubgameSizing, SubgameSolver, decisions_up, public_rows
from showdown.solvers.subgame_kernels import CHANCE

Strategies = list[np.ndarray | None]
"""Per node of a tree, the acting player's probabilities ((actions, H)), None off decisions."""


def turn_rows(root: State, sizing: SubgameSizing) -> tuple[Subgame, list[State]]:
    """The rest of ``root``'s round (the next-to-last) as a ``Subgame`` whose ends without a fold are
    CHANCE nodes without children, and the state at each of them (in node order)."""
    if root.is_terminal or root.round != root.game.num_rounds - 2:
        raise SolverError("a turn subgame starts in the next-to-last betting round")
    rows, ends = public_rows(root, sizing, CHANCE)
    return Subgame.of_rows(rows), ends


def river_boards(holdings: Holdings, board: tuple[int, ...], deck: tuple[int, ...]) -> tuple[tuple[int, ...], BoardTables]:
    """The cards that can come last on ``board`` and, per card, the holdings' order by strength on the
    full board, tie-group ends and which holdings it leaves possible; all boards' strengths in one batch."""
    cards = tuple(c for c in deck if c not in board)
    h = holdings.cards
    hh, k = h.shape
    last = np.array(cards, dtype=np.int64)
    on_board = np.asarray(np.isin(h, board).any(axis=1))
    blocked = on_board[None, :] | (h[None, :, :] == last[:, None, None]).any(axis=2)
    full = np.concatenate([np.broadcast_to(np.array(board, dtype=np.int64), (len(cards), len(board))), last[:, None]], axis=1)
    if full.shape[1] + k >= 5:  # values_on_boards ranks five to seven cards
        strength = values_on_boards(full, h).astype(np.int64)  # one lookup a hand (meaningless where blocked)
    else:  # small games (Leduc): hand by hand
        rows = np.concatenate([np.broadcast_to(h[None], (len(cards), hh, k)), np.broadcast_to(full[:, None], (len(cards), hh, full.shape[1]))], axis=2)
        rows = np.where(blocked[:, :, None], rows[np.arange(len(cards)), np.argmax(~blocked, axis=1)][:, None, :], rows)
        strength = hand_values(rows.reshape(-1, rows.shape[2])).reshape(len(cards), hh)
    strength[blocked] = -1
    order = np.argsort(strength, axis=1, kind="stable")
    ranked = np.take_along_axis(strength, order, axis=1)
    # a tie group ends where the next strength differs: the smallest boundary at or after each place
    boundary = np.where(np.diff(ranked, axis=1, append=np.iinfo(np.int64).max) != 0, np.arange(1, hh + 1), hh)
    group_end = np.minimum.accumulate(boundary[:, ::-1], axis=1)[:, ::-1]
    return cards, BoardTables(h, h[order], order, group_end.astype(np.int64), (~blocked).astype(np.float32))


@dataclass(frozen=True, slots=True)
class TurnSubgame:
    """The turn subgame: ``game`` the turn's rows (what play follows), ``ends`` the state at each CHANCE
    row, ``rivers`` the river's betting below each end (one tree for every card), ``cards`` the last
    cards and ``tables`` their boards."""

    game: Subgame
    ends: tuple[State, ...]
    rivers: tuple[Subgame | None, ...]
    cards: tuple[int, ...]
    tables: BoardTables

    @classmethod
    def of_state(
        cls, root: State, holdings: Holdings, board: tuple[int, ...], deck: tuple[int, ...],
        turn: SubgameSizing, river: SubgameSizing,
    ) -> TurnSubgame:
        game, ends = turn_rows(root, turn)
        rivers = tuple(None if s.is_terminal else Subgame.of_state(s, river) for s in ends)
        cards, tables = river_boards(holdings, board, deck)
        return cls(game, tuple(ends), rivers, cards, tables)

    def weight(self) -> float:
        """One over the last cards a pair of holdings leaves."""
        k = int(self.tables.cards.shape[1])
        return 1.0 / (len(self.cards) - 2 * k)


def tree_turn(
    tree: BettingTree, node: int, cards: tuple[int, ...], tables: BoardTables,
) -> tuple[TurnSubgame, np.ndarray, tuple[np.ndarray, ...]]:
    """The blueprint's own subtree below ``node`` (an abstract decision of the next-to-last round) as a
    ``TurnSubgame`` on the last cards ``cards`` (``river_boards``): its turn nodes, each end (a river
    decision, or a showdown after an all-in) a chance node with the abstract river subtree below; and
    the abstract node of each turn node and, per end, of each river node (an all-in end: none)."""
    last = tree.game.num_rounds - 1
    if tree.kind[node] != DECISION or int(tree.round[node]) != last - 1:
        raise SolverError("a blueprint's turn subtree starts at a decision of the next-to-last round")
    order = [node]
    rows: list[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[Action, ...]]] = []
    ends: list[int] = []
    head = 0
    while head < len(order):
        n = order[head]
        head += 1
        kind, spent = int(tree.kind[n]), tuple(int(x) for x in tree.spent[n])
        if kind == DECISION and int(tree.round[n]) == last - 1:
            kids = []
            for c in tree.children[n]:
                if c >= 0:
                    kids.append(len(order))
                    order.append(int(c))
            rows.append((DECISION, int(tree.player[n]), spent, tuple(kids), tree.actions[n]))
        elif kind == FOLD_END:
            rows.append((FOLD_END, int(tree.player[n]), spent, (), ()))
        else:  # the turn's betting is over: the last card comes (a river to bet, or all in)
            rows.append((CHANCE, -1, spent, (), ()))
            ends.append(n)
    rivers = [Subgame.of_tree(tree, n) if tree.kind[n] == DECISION else None for n in ends]
    river_nodes = tuple(r[1] if r is not None else np.zeros(0, dtype=np.int64) for r in rivers)
    game = Subgame.of_rows(rows)
    return TurnSubgame(game, (), tuple(r[0] if r is not None else None for r in rivers), cards, tables), np.array(order), river_nodes


def strategy_values(
    turn: TurnSubgame, turn_strategies: Strategies, river_tables: list[np.ndarray | None], river_buckets: np.ndarray,
    root_reach: np.ndarray, player: int, *, best_response: bool = False, chunk: int = 8, threads: int = 2,
) -> np.ndarray:
    """``player``'s counterfactual values ((turn nodes, H), whole-hand chips as ``SubgameSolver``'s) at
    the turn's nodes when both play a bucketed strategy over every last card (with ``best_response``,
    ``player`` best-responds to the other's): ``turn_strategies`` per turn node; per end, the river's
    strategy rows by bucket (``river_tables[e]``, (buckets, rows): its decisions' actions in node
    order; None where all are in) and ``river_buckets`` (cards, H) each holding's bucket under each
    last card. Exact: every last card in the compiled evaluation pass, ``chunk`` cards a pass (a
    pass's memory holds ``chunk`` rivers per end), the chunks over ``threads`` threads."""
    from concurrent.futures import ThreadPoolExecutor

    ncards = len(turn.cards)
    k = max(d for d in range(1, min(chunk, ncards) + 1) if ncards % d == 0)  # every card once, in equal chunks
    layout = _Layout(turn, k)
    flat = layout.flat
    nodes = turn.game.num_nodes
    turn_rows = int(max((flat.row[n] + flat.count[n] for n in range(nodes) if flat.kind[n] == DECISION), default=0))
    river_rows = [int(p) for p in layout.per_card[:-1]]
    offset = np.cumsum([0, *river_rows])[:-1] * k + turn_rows
    sigma = np.zeros((turn_rows + k * sum(river_rows), root_reach.shape[1]), dtype=np.float32)
    for n, s in enumerate(turn_strategies[:nodes]):
        if s is not None:
            sigma[flat.row[n] : flat.row[n] + s.shape[0]] = s
    decisions = layout.decisions
    entry = layout.entry[decisions]
    flat.row[decisions] = offset[entry] + layout.slot[decisions] * layout.per_card[entry] + layout.rel[decisions]
    tables = [None if t is None or not river_rows[e] else np.ascontiguousarray(t.T, dtype=np.float32) for e, t in enumerate(river_tables)]
    pass_ = _EvaluationPass(layout, turn.tables, sigma, tables, offset, root_reach[1 - player], player, best_response)
    starts = list(range(0, ncards, k))
    workers = max(1, min(threads, len(starts)))
    with ThreadPoolExecutor(workers) as pool:
        parts = list(pool.map(lambda i: pass_.run(starts[i::workers], river_buckets), range(workers)))
    ends = np.flatnonzero(turn.game.kind == CHANCE)
    # the turn's own nodes from the ends' values over every card (a best response chooses on their sum)
    out = parts[0][1].astype(float)
    out[ends] = sum(p[0] for p in parts) * (k / ncards)
    decisions_up(turn.game, player, turn_strategies, out, best_response=best_response)
    return out


class _EvaluationPass:
    """One thread's share of ``strategy_values``: its own arrays, the chunks of cards it is given."""

    def __init__(
        self, layout: _Layout, tables: BoardTables, sigma: np.ndarray, river_tables: list[np.ndarray | None], offset: np.ndarray,
        other: np.ndarray, player: int, best_response: bool,
    ) -> None:
        self.layout, self.tables, self.sigma, self.river_tables, self.offset = layout, tables, sigma, river_tables, offset
        self.other = np.asarray(other, dtype=np.float32)
        self.player, self.best_response = player, best_response

    def run(self, starts: list[int], river_buckets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The ends' values summed over the chunks from ``starts``, and the turn's nodes' of the last."""
        from showdown.solvers.subgame_kernels import bucket_rows, strategy_pass

        lay, b = self.layout, self.tables
        f = lay.flat
        nodes = f.kind.shape[0]
        hh = self.sigma.shape[1]
        sigma, board = self.sigma.copy(), f.board.copy()
        values = np.zeros((nodes, hh), dtype=np.float32)
        reach = np.zeros((nodes, hh), dtype=np.float32)
        ends = np.flatnonzero(f.kind[: lay.turn_nodes] == CHANCE)
        total = np.zeros((len(ends), hh))
        for start in starts:
            board[lay.slotted] = start + lay.slot[lay.slotted]
            for e, table in enumerate(self.river_tables):
                if table is not None:
                    bucket_rows(sigma, int(self.offset[e]), table, river_buckets[start : start + lay.k])
            strategy_pass(
                f.kind, f.player, f.first, f.count, f.row, board, f.spent, f.weight, b.cards, b.sorted_cards, b.order,
                b.group_end, b.masks, sigma, reach, values, self.other, self.player, self.best_response,
            )
            total += values[ends]
        return total, values[: lay.turn_nodes]


class TurnSolver(SubgameSolver):
    """CFR+ on a ``TurnSubgame`` sampling ``per_iteration`` last cards at every end each iteration (the
    regrets of every card's river are kept); ``root_reach`` and ``alternatives`` as in ``SubgameSolver``."""

    def __init__(
        self, turn: TurnSubgame, root_reach: np.ndarray, opponent: int, alternatives: np.ndarray | None = None,
        *, per_iteration: int = 4, seed: int = 0,
    ) -> None:
        self.turn = turn
        k = min(per_iteration, len(turn.cards))
        self.layout = _Layout(turn, k)
        valid = turn.tables.masks.max(axis=0) > 0
        super().__init__(
            turn.game, _RootBoard(~valid), root_reach, opponent, alternatives,  # type: ignore[arg-type]
            flat=self.layout.flat, tables=turn.tables, rows=self.layout.rows,
        )
        self._cycle = np.random.default_rng(seed).permutation(len(turn.cards))
        self._next = 0

    def _prepare(self) -> None:
        """Deal this iteration's cards: the next ``k`` of the shuffled cycle into the card slots."""
        k = self.layout.k
        picks = self._cycle[(self._next + np.arange(k)) % len(self._cycle)]
        self._next = (self._next + k) % len(self._cycle)
        self.layout.deal(picks)

    def turn_strategy(self) -> list[np.ndarray | None]:
        """The average strategy at the turn's nodes (None where no decision)."""
        return self.average_strategy()[: self.turn.game.num_nodes]


class _RootBoard:
    """What ``SubgameSolver`` reads of a ranked board: the holdings the root's board blocks."""

    def __init__(self, blocked: np.ndarray) -> None:
        self.blocked = blocked



def _decision_rows(kind: list[int], count: list[int]) -> tuple[list[int], int]:
    """Each node's first strategy row (-1 off decisions), and the rows in all."""
    row, rows = [], 0
    for kk, n in zip(kind, count, strict=True):
        row.append(rows if kk == DECISION else -1)
        rows += n if kk == DECISION else 0
    return row, rows


@dataclass(slots=True)
class _Columns:
    """A flat tree being laid out, one list per column (``FlatTree``'s, and each node's card slot, turn
    end and strategy row within its river)."""

    kind: list[int]
    player: list[int]
    spent: list[tuple[int, ...]]
    count: list[int]
    first: list[int] = field(default_factory=list)
    row: list[int] = field(default_factory=list)
    slot: list[int] = field(default_factory=list)
    entry: list[int] = field(default_factory=list)
    rel: list[int] = field(default_factory=list)
    weight: list[float] = field(default_factory=list)
    children: list[tuple[int, ...]] = field(default_factory=list)  # a river's, to copy below each card slot

    def add_slots(self, river: _Columns, river_rows: list[int], end: int, k: int) -> None:
        """Below turn end ``end`` (its CHANCE node's children start here): ``k`` card slots' roots,
        then for each slot the rest of the river's nodes."""
        roots = len(self.kind)
        body = len(river.kind) - 1
        bases = [roots + k + s * body for s in range(k)]
        grow = k + k * body
        for column in (self.kind, self.player, self.first, self.count, self.row, self.slot, self.entry, self.rel):
            column.extend([-1] * grow)
        self.spent.extend([(0, 0)] * grow)
        self.weight.extend([0.0] * grow)
        for s in range(k):
            for i in range(len(river.kind)):
                at = roots + s if i == 0 else bases[s] + i - 1
                kids = river.children[i]
                self.kind[at], self.player[at], self.spent[at] = river.kind[i], river.player[i], river.spent[i]
                self.first[at] = bases[s] + kids[0] - 1 if kids else -1
                self.count[at] = len(kids)
                self.slot[at], self.entry[at], self.rel[at] = s, end, river_rows[i]


def _river_columns(river: Subgame | None, spent_at_end: tuple[int, ...]) -> _Columns:
    """The river's tree below one turn end as columns (one showdown when nobody can bet: all in)."""
    if river is None:
        return _Columns([SHOWDOWN], [-1], [spent_at_end], [0], children=[()])
    return _Columns([int(x) for x in river.kind], [int(x) for x in river.player],
                    [tuple(int(v) for v in x) for x in river.spent], [len(x) for x in river.children],
                    children=list(river.children))


class _Layout:
    """The flat tree of one iteration: the turn's nodes, then at each end ``k`` card slots (consecutive
    children of its CHANCE node) and below each slot the river's nodes; ``deal`` points the slots at
    this iteration's cards (their boards, and their rows among every card's strategy rows)."""

    def __init__(self, turn: TurnSubgame, k: int) -> None:
        game = turn.game
        self.k = k
        self.turn_nodes = game.num_nodes
        c = _Columns([int(x) for x in game.kind], [int(x) for x in game.player],
                     [tuple(int(v) for v in x) for x in game.spent], [len(x) for x in game.children])
        c.first = [x[0] if x else -1 for x in game.children]
        c.row, rows = _decision_rows(c.kind, c.count)
        c.slot, c.entry, c.rel, c.weight = [-1] * len(c.kind), [-1] * len(c.kind), [-1] * len(c.kind), [0.0] * len(c.kind)
        base: list[int] = []
        per_card: list[int] = []
        ends = [n for n in range(game.num_nodes) if c.kind[n] == CHANCE]
        for e, n in enumerate(ends):
            river = _river_columns(turn.rivers[e], c.spent[n])
            r_rel, r_rows = _decision_rows(river.kind, river.count)
            base.append(rows)
            per_card.append(r_rows)
            rows += r_rows * len(turn.cards)
            c.first[n], c.count[n] = len(c.kind), k
            c.weight[n] = turn.weight() * len(turn.cards) / k
            c.add_slots(river, r_rel, e, k)
        kind, player, first, count, row, slot, entry, rel = c.kind, c.player, c.first, c.count, c.row, c.slot, c.entry, c.rel
        spent, weight = c.spent, c.weight
        self.rows = rows
        self.slot = np.array(slot, dtype=np.int64)
        self.entry = np.array(entry, dtype=np.int64)
        self.rel = np.array(rel, dtype=np.int64)
        self.base = np.array(base + [0], dtype=np.int64)
        self.per_card = np.array(per_card + [0], dtype=np.int64)
        self.flat = FlatTree(
            np.array(kind, dtype=np.int64), np.array(player, dtype=np.int64), np.array(first, dtype=np.int64),
            np.array(count, dtype=np.int64), np.array(row, dtype=np.int64), np.zeros(len(kind), dtype=np.int64),
            np.array(spent, dtype=np.float64), np.array(weight), rows,
        )
        self.slotted = self.slot >= 0
        self.decisions = self.slotted & (self.rel >= 0)

    def deal(self, picks: np.ndarray) -> None:
        """Point the card slots at ``picks`` (indices of the last cards)."""
        card = picks[np.maximum(self.slot, 0)]
        self.flat.board[self.slotted] = card[self.slotted]
        d = self.decisions
        self.flat.row[d] = self.base[self.entry[d]] + card[d] * self.per_card[self.entry[d]] + self.rel[d]


__all__ = ["TurnSolver", "TurnSubgame", "river_boards", "strategy_values", "tree_turn", "turn_rows"]

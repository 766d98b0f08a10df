"""Safe re-solving of a last-round subgame at decision time, with one vector over all holdings per node.

At a decision in the last betting round (the river in hold'em, the second round in Leduc) the cards
still hidden are the two players' holdings only, so the rest of the hand is a small public tree whose
every node carries a vector over holdings (1,326 in hold'em), each player's range known from the
blueprint by Bayes' rule. ``Subgame.of_state`` builds that tree from the real state, with the real
pot and the opponent's actual bet in it; ``SubgameSolver`` runs CFR+ (Tammelin 2014) on it, the
showdown and fold sums with card removal in O(holdings) per terminal (``holdings.RankedBoard``).

Safety comes from the re-solving gadget of Burch, Johanson and Bowling 2014 ("Solving imperfect
information games using decomposition"), as used for nested solving by Brown and Sandholm 2017
("Safe and nested subgame solving for imperfect-information games"): before entering, each opponent
holding chooses between the subgame and an alternative worth what it could get against the blueprint
(``best_response_values`` of the blueprint's own subtree, ``Subgame.of_tree``). A re-solved strategy
then gives no opponent holding more than its alternative (up to the solver's convergence), so it is
no more exploitable than the blueprint; where the blueprint had holes the opponent found, it is less.

Values are counterfactual: for holding ``h`` of player ``i``, the sum over the other player's holdings
``h'`` that share no card with ``h`` (and the board) of their reach times ``i``'s chips won in the hand.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from showdown.errors import SolverError
from showdown.games.state import FOLD, Action, ActionKind, State
from showdown.solvers.betting import DECISION, FOLD_END, SHOWDOWN, BettingTree, pot_raise_to
from showdown.solvers.holdings import Holdings, RankedBoard


@dataclass(frozen=True, slots=True)
class SubgameSizing:
    """No-limit raise sizes of a re-solved subgame: fractions of the pot after calling, all-in always,
    at most ``max_raises`` raises after the root (the opponent's actual bet is in the root's state)."""

    fractions: tuple[float, ...] = (0.5, 1.0)
    max_raises: int = 2


@dataclass(frozen=True, slots=True)
class Subgame:
    """A public tree of one last betting round, nodes in breadth-first order (children after parents).

    Per node: ``kind`` (DECISION, FOLD_END, SHOWDOWN), ``player`` acting (or folding, at FOLD_END),
    ``spent`` (chips each position has put into the hand), ``children`` and ``actions`` (empty at
    terminals).
    """

    kind: np.ndarray
    player: np.ndarray
    spent: np.ndarray
    children: tuple[tuple[int, ...], ...]
    actions: tuple[tuple[Action, ...], ...]

    @property
    def num_nodes(self) -> int:
        return int(self.kind.shape[0])

    @classmethod
    def of_state(cls, root: State, sizing: SubgameSizing | None = None) -> Subgame:
        """The rest of ``root``'s round (which must be the last) with ``sizing``'s raises (no-limit;
        limit games keep every action)."""
        if root.is_terminal:
            raise SolverError("no subgame at the end of a hand")
        if root.round != root.game.num_rounds - 1:
            raise SolverError("subgames are re-solved in the last betting round only")
        rows, _ = public_rows(root, sizing or SubgameSizing(), None)
        return cls.of_rows(rows)

    @classmethod
    def of_tree(cls, tree: BettingTree, node: int) -> tuple[Subgame, np.ndarray]:
        """The blueprint's own subtree below ``node`` of an abstract tree (in its last round), and the
        abstract node of each subgame node."""
        order = [node]
        rows: list[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[Action, ...]]] = []
        head = 0
        while head < len(order):
            n = order[head]
            head += 1
            kind = int(tree.kind[n])
            if kind == DECISION and int(tree.round[n]) != tree.game.num_rounds - 1:
                raise SolverError("subgames are re-solved in the last betting round only")
            kids = []
            if kind == DECISION:
                for c in tree.children[n]:
                    if c >= 0:
                        kids.append(len(order))
                        order.append(int(c))
            spent = tuple(int(x) for x in tree.spent[n])
            rows.append((kind, int(tree.player[n]), spent, tuple(kids), tree.actions[n] if kind == DECISION else ()))
        return cls.of_rows(rows), np.array(order, dtype=np.int64)

    @classmethod
    def of_rows(cls, rows: list[Row]) -> Subgame:
        """The subgame of ``rows`` (kind, player, spent, children, actions per node), breadth-first."""
        for row in rows:  # breadth-first: a node's children are consecutive (the sweeps slice them)
            assert row[3] == tuple(range(row[3][0], row[3][0] + len(row[3]))) if row[3] else True
        return cls(
            np.array([r[0] for r in rows], dtype=np.int8),
            np.array([r[1] for r in rows], dtype=np.int8),
            np.array([r[2] for r in rows], dtype=np.int64),
            tuple(r[3] for r in rows),
            tuple(r[4] for r in rows),
        )


Row = tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[Action, ...]]


def public_rows(root: State, sizing: SubgameSizing, round_end: int | None) -> tuple[list[Row], list[State]]:
    """The public tree from ``root`` breadth-first, one row per node (kind, player acting or folding,
    spent, children, actions). With ``round_end`` (a node kind), a node where ``root``'s round is over
    without a fold gets that kind and no children, and its state is listed; else the tree runs to the
    end of the hand."""
    states: list[tuple[State, int]] = [(root, 0)]
    rows: list[Row] = []
    ends: list[State] = []
    head = 0
    while head < len(states):
        state, raises = states[head]
        head += 1
        folded = [p for p in range(2) if state.folded[p]]
        if round_end is not None and not folded and (state.is_terminal or state.round > root.round):
            rows.append((round_end, -1, tuple(state.spent), (), ()))
            ends.append(state)
        elif state.is_terminal:
            rows.append((FOLD_END if folded else SHOWDOWN, folded[0] if folded else -1, tuple(state.spent), (), ()))
        else:
            actions = _subgame_actions(state, sizing, raises)
            kids = []
            for a in actions:
                kids.append(len(states))
                states.append((state.apply(a), raises + (a.kind is ActionKind.RAISE)))
            rows.append((DECISION, state.current_player, tuple(state.spent), tuple(kids), actions))
    return rows, ends


def _subgame_actions(state: State, sizing: SubgameSizing, raises: int) -> tuple[Action, ...]:
    if state.game.is_limit:
        return state.legal_actions()
    out: list[Action] = [FOLD] if state.can_fold() else []
    out.append(Action(ActionKind.CALL))
    bounds = state.raise_bounds()
    if bounds is not None:
        lo, hi = bounds
        sizes = {hi}
        if raises < sizing.max_raises:
            sizes.update(min(max(pot_raise_to(state, f), lo), hi) for f in sizing.fractions)
        out.extend(Action(ActionKind.RAISE, s) for s in sorted(sizes))
    return tuple(out)


# ---------------------------------------------------------------------- values


def terminal_values(game: Subgame, ranked: RankedBoard, player: int, nodes: np.ndarray, other_reach: np.ndarray) -> np.ndarray:
    """Counterfactual values of ``player``'s holdings at terminal ``nodes`` given the other player's
    reach there ((n, H) -> (n, H))."""
    out = np.empty_like(other_reach)
    spent = game.spent[nodes].astype(other_reach.dtype)
    folds = game.kind[nodes] == FOLD_END
    if folds.any():
        folder = game.player[nodes[folds]]
        gain = np.where(folder == player, -spent[folds, player], spent[folds, 1 - player])
        out[folds] = disjoint_reach(ranked.holdings, other_reach[folds]) * gain[:, None]
    shows = ~folds
    if shows.any():
        win, lose = ranked.win_lose(other_reach[shows])
        out[shows] = win * spent[shows, 1 - player][:, None] - lose * spent[shows, player][:, None]
    return out


def disjoint_reach(holdings: Holdings, reach: np.ndarray) -> np.ndarray:
    """Per holding, the sum of ``reach`` over the holdings sharing no card with it ((n, H) -> (n, H)), by
    gathering each card's holdings: for the few rows of a subgame this beats ``holdings.disjoint_sums``'
    matrix product, whose BLAS threads wake slowly on a loaded machine (130 ms against 0.2 ms)."""
    total = reach.sum(axis=1, keepdims=True)
    per_card = reach[:, holdings.card_rows].sum(axis=2)  # (n, cards): rows of cards outside the deck are unused
    out = total - per_card[:, holdings.cards].sum(axis=2)
    if holdings.cards.shape[1] == 2:
        out += reach
    return np.asarray(out)


def reaches(game: Subgame, strategies: list[np.ndarray | None], root_reach: np.ndarray) -> np.ndarray:
    """Each player's reach at every node ((nodes, 2, H)) from the root's and the strategies (per decision
    node an (actions, H) array of the acting player's probabilities)."""
    out = np.empty((game.num_nodes, 2, root_reach.shape[-1]), dtype=root_reach.dtype)
    out[0] = root_reach
    for n in range(game.num_nodes):
        kids = game.children[n]
        if not kids:
            continue
        actor = int(game.player[n])
        sigma = strategies[n]
        assert sigma is not None
        first = kids[0]  # children are consecutive in breadth-first order
        out[first : first + len(kids)] = out[n]
        out[first : first + len(kids), actor] *= sigma
    return out


def counterfactual_values(
    game: Subgame, ranked: RankedBoard, player: int, strategies: list[np.ndarray | None], root_reach: np.ndarray,
    *, best_response: bool = False,
) -> np.ndarray:
    """Counterfactual values (nodes, H) of ``player``'s holdings: playing ``strategies`` too, or, with
    ``best_response``, the best response to the other player's (per holding, the best action at each
    of ``player``'s nodes: the tree is public, so a node and a holding make an information set)."""
    reach = reaches(game, strategies, root_reach)
    values = np.zeros((game.num_nodes, root_reach.shape[-1]), dtype=root_reach.dtype)
    terminals = np.flatnonzero(game.kind != DECISION)
    values[terminals] = terminal_values(game, ranked, player, terminals, reach[terminals, 1 - player])
    decisions_up(game, player, strategies, values, best_response=best_response)
    return values


def decisions_up(game: Subgame, player: int, strategies: list[np.ndarray | None], values: np.ndarray, *, best_response: bool = False) -> None:
    """``values`` (nodes, H) at every node with children, from its children's, deepest first: summed at
    the other player's decisions, at ``player``'s the strategy's average or (``best_response``) the best."""
    for n in range(game.num_nodes - 1, -1, -1):
        kids = game.children[n]
        if not kids:
            continue
        kv = values[kids[0] : kids[0] + len(kids)]
        if int(game.player[n]) != player:
            values[n] = kv.sum(axis=0)
        elif best_response:
            values[n] = kv.max(axis=0)
        else:
            sigma = strategies[n]
            assert sigma is not None
            values[n] = (sigma * kv).sum(axis=0)


def best_response_values(
    game: Subgame, ranked: RankedBoard, responder: int, strategies: list[np.ndarray | None], root_reach: np.ndarray
) -> np.ndarray:
    """The responder's best-response counterfactual values at the root, per holding ((H,))."""
    return np.asarray(counterfactual_values(game, ranked, responder, strategies, root_reach, best_response=True)[0])


# ---------------------------------------------------------------------- solving


def regret_matching(regret: np.ndarray) -> np.ndarray:
    """Per holding (column), probabilities proportional to positive regret, uniform where none is."""
    pos = np.maximum(regret, 0.0)
    total = pos.sum(axis=0, keepdims=True)
    return np.where(total > 0, pos / np.where(total > 0, total, 1.0), np.asarray(1.0 / regret.shape[0], dtype=regret.dtype))


def _matched(regret: np.ndarray) -> np.ndarray:
    """``regret_matching`` of CFR+ regrets, which are never negative (so no clipping)."""
    total = regret.sum(axis=0)
    safe = np.where(total > 0, total, 1.0).astype(regret.dtype)
    out = regret / safe
    out[:, total <= 0] = 1.0 / regret.shape[0]
    return np.asarray(out)


@dataclass(frozen=True, slots=True)
class FlatTree:
    """A public tree as the compiled pass reads it (``subgame_kernels``): per node its kind, the player
    acting (or folding), its first child and number of children (consecutive), its first row in the
    strategy arrays (decisions), the board it is on (showdowns; a chance node's children), the chips
    each position has spent and, at a chance node, each card's weight; ``rows`` strategy rows in all."""

    kind: np.ndarray
    player: np.ndarray
    first: np.ndarray
    count: np.ndarray
    row: np.ndarray
    board: np.ndarray
    spent: np.ndarray
    weight: np.ndarray
    rows: int

    @classmethod
    def of(cls, game: Subgame, board: np.ndarray | None = None, weight: np.ndarray | None = None) -> FlatTree:
        """The flat form of ``game``; ``board`` and ``weight`` per node for trees with chance nodes."""
        n = game.num_nodes
        count = np.array([len(k) for k in game.children], dtype=np.int64)
        first = np.array([k[0] if k else -1 for k in game.children], dtype=np.int64)
        decision = np.asarray(game.kind) == DECISION
        row = np.where(decision, np.cumsum(np.where(decision, count, 0)) - count, -1).astype(np.int64)
        return cls(
            np.asarray(game.kind, dtype=np.int64), np.asarray(game.player, dtype=np.int64), first, count, row,
            np.zeros(n, dtype=np.int64) if board is None else board, np.asarray(game.spent, dtype=np.float64),
            np.zeros(n) if weight is None else weight, int(count[decision].sum()),
        )


@dataclass(frozen=True, slots=True)
class BoardTables:
    """The boards a flat tree's showdowns are on, as the compiled pass reads them: per board the
    holdings in increasing strength, each place's tie-group end, and which holdings it leaves possible."""

    cards: np.ndarray
    sorted_cards: np.ndarray
    order: np.ndarray
    group_end: np.ndarray
    masks: np.ndarray

    @classmethod
    def of(cls, ranked: list[RankedBoard], dtype: type = np.float32) -> BoardTables:
        cards = ranked[0].holdings.cards
        return cls(
            cards,
            np.stack([cards[r.order] for r in ranked]),
            np.stack([r.order for r in ranked]).astype(np.int64),
            np.stack([r.hi[r.order] for r in ranked]).astype(np.int64),
            np.stack([~r.blocked for r in ranked]).astype(dtype),
        )


class SubgameSolver:
    """CFR+ on a subgame for both players, with the re-solving gadget for ``opponent`` when
    ``alternatives`` (its holdings' values of not entering, counterfactual as the subgame's) are given.

    ``root_reach`` (2, H): each player's range at the root (zero on holdings the board blocks). The
    iterations run compiled (``subgame_kernels.cfr_pass``) in single precision (half the memory
    traffic of double; play needs no more). ``flat`` and ``tables`` give a tree with chance nodes
    (``turn_subgame.TurnSubgame``), ``rows`` its strategy rows; by default they come from ``game`` and
    ``ranked``.
    """

    DTYPE = np.float32

    def __init__(
        self, game: Subgame, ranked: RankedBoard, root_reach: np.ndarray, opponent: int, alternatives: np.ndarray | None = None,
        *, flat: FlatTree | None = None, tables: BoardTables | None = None, rows: int | None = None, penalty: float = 0.0,
    ) -> None:
        if game.kind[0] != DECISION:
            raise SolverError("a subgame is solved from a decision")
        dt = self.DTYPE
        valid = (~ranked.blocked).astype(dt)
        self.game = game
        self.ranked = ranked
        self.flat = flat or FlatTree.of(game)
        self.tables = tables or BoardTables.of([ranked], dt)
        self.root_reach = np.asarray(root_reach, dtype=dt) * valid
        self.opponent = opponent
        self.alternatives = None if alternatives is None else np.asarray(alternatives, dtype=dt)
        if penalty < 0:
            raise SolverError("the gadget's penalty must be >= 0")
        self.penalty = dt(penalty)
        hh = valid.shape[0]
        nodes, rows = self.flat.kind.shape[0], rows or self.flat.rows
        self.regret = np.zeros((rows, hh), dtype=dt)
        self.average = np.zeros((rows, hh), dtype=dt)
        self._sigma = np.zeros((rows, hh), dtype=dt)
        self._reach = np.zeros((nodes, 2, hh), dtype=dt)
        self.values = np.zeros((nodes, hh), dtype=dt)
        self.gadget_regret = np.zeros((2, hh), dtype=dt)  # rows: take the alternative, enter
        self.gadget_average = np.zeros((2, hh), dtype=dt)
        self.leaves = np.zeros((1, 1, 1), dtype=dt)  # a depth-limited subgame's pair values at its leaves
        self.iterations = 0

    def _enter(self) -> np.ndarray:
        """The opponent's weight into the subgame per holding: its probability of entering (the resolve
        gadget), or with a ``penalty`` 1 plus the penalty times its probability of counting as over."""
        if self.alternatives is None:
            return np.ones(self.root_reach.shape[1], dtype=self.DTYPE)
        if self.penalty > 0:
            return np.asarray(1.0 + self.penalty * self._over(), dtype=self.DTYPE)
        return np.asarray(_matched(self.gadget_regret)[1])

    def _over(self) -> np.ndarray:
        """With a penalty: per holding, the probability the gadget counts it as over its alternative
        (regret matching; no regret yet: not over, so that an unbinding gadget is no gadget at all)."""
        total = self.gadget_regret.sum(axis=0)
        return np.asarray(np.where(total > 0, self.gadget_regret[1] / np.where(total > 0, total, 1.0), 0.0), dtype=self.DTYPE)

    def _gadget_values(self, root_values: np.ndarray) -> np.ndarray:
        """The opponent's values of the gadget's two rows per holding. Resolve (Burch et al. 2014): take
        the alternative, or enter. With a ``penalty`` M (an exact penalty for the constraints "no holding
        gets more than its alternative", in the Lagrangian way): enter plainly (value v), or enter
        counted 1 + M times less M times the alternative, (1 + M) v - M alt, better for the opponent
        exactly where v is above alt. Our best response then minimises the opponent's value over its
        real range plus M times every holding's excess over its alternative: the whole range stays in
        the optimisation (a resolve gadget drops the holdings that opt out), and a large M is safe."""
        assert self.alternatives is not None
        if self.penalty > 0:
            return np.stack([root_values, (1.0 + self.penalty) * root_values - self.penalty * self.alternatives])
        return np.stack([self.alternatives, root_values])

    def _prepare(self) -> None:
        """Before an iteration: nothing here (a sampling solver deals its cards)."""

    def _pass(self, p: int, t: float, root: np.ndarray, best_response: bool = False) -> np.ndarray:
        from showdown.solvers.subgame_kernels import cfr_pass

        f, b = self.flat, self.tables
        cfr_pass(
            f.kind, f.player, f.first, f.count, f.row, f.board, f.spent, f.weight, b.cards, b.sorted_cards, b.order, b.group_end, b.masks,
            self.regret, self.average, self._sigma, self._reach, self.values, root, p, t, best_response, self.leaves,
        )
        return np.asarray(self.values[0])

    def iterate(self) -> None:
        """One CFR+ iteration: a pass for the opponent (and its gadget), then one for us, each on the
        current strategies, regrets floored at zero and the average weighted by the iteration number."""
        self.iterations += 1
        t = float(self.iterations)
        self._prepare()
        for p in (self.opponent, 1 - self.opponent):
            root = self.root_reach.copy()
            root[self.opponent] *= self._enter()
            root_values = self._pass(p, t, root)
            if p == self.opponent and self.alternatives is not None:
                sigma = np.stack([1.0 - self._over(), self._over()]) if self.penalty > 0 else _matched(self.gadget_regret)
                gv = self._gadget_values(root_values)
                v = (sigma * gv).sum(axis=0)
                np.maximum(self.gadget_regret + gv - v, 0.0, out=self.gadget_regret)
                self.gadget_average += self.DTYPE(t) * self.root_reach[self.opponent] * sigma

    def run(self, iterations: int, deadline: float | None = None, *, target: float = 0.0, every: int = 10) -> int:
        """Iterate up to ``iterations`` times or until ``deadline`` (``time.perf_counter()``), or, with a
        ``target``, until the average strategy's ``exploitability`` (checked every ``every`` iterations)
        is at most ``target`` times the pot at the root; the count done."""
        done = 0
        pot = float(self.flat.spent[0].sum())
        while done < iterations and (deadline is None or time.perf_counter() < deadline):
            self.iterate()
            done += 1
            if target > 0 and done % every == 0 and self.exploitability() <= target * pot:
                break
        return done

    def exploitability(self) -> float:
        """How far the average strategies are from an equilibrium of the subgame with the root's ranges
        (the gadget aside): the sum of each player's best-response value against the other's, in chips
        per pair of holdings reaching the root (what a player who knew the strategy would win more, over
        both seats: zero at an equilibrium). Costs about one iteration."""
        from showdown.solvers.subgame_kernels import cfr_pass

        root = self.root_reach
        total = 0.0
        scratch = np.zeros_like(self.average)
        f, b = self.flat, self.tables
        for p in (0, 1):
            # the average's regret matching is the average strategy: pass it where the regrets go
            cfr_pass(
                f.kind, f.player, f.first, f.count, f.row, f.board, f.spent, f.weight, b.cards, b.sorted_cards, b.order, b.group_end,
                b.masks, self.average, scratch, self._sigma, self._reach, self.values, root, p, 0.0, True, self.leaves,
            )
            total += float(root[p].astype(float) @ self.values[0])
        mass = float(root[0].astype(float) @ disjoint_reach(self.ranked.holdings, root[1][None, :].astype(float))[0])
        return total / mass if mass > 0 else 0.0

    def average_strategy(self) -> list[np.ndarray | None]:
        """The average strategy per decision node ((actions, H); uniform where a holding never played)."""
        f = self.flat
        return [
            regret_matching(self.average[f.row[n] : f.row[n] + f.count[n]]) if f.kind[n] == DECISION else None
            for n in range(f.kind.shape[0])
        ]

    def entering(self) -> np.ndarray:
        """Per opponent holding, the average probability of entering the subgame (1 without a gadget;
        with a penalty, of being counted as over its alternative)."""
        if self.alternatives is None:
            return np.ones(self.root_reach.shape[1])
        return np.asarray(regret_matching(self.gadget_average)[1])


__all__ = [
    "BoardTables",
    "FlatTree",
    "Subgame",
    "SubgameSizing",
    "SubgameSolver",
    "best_response_values",
    "counterfactual_values",
    "decisions_up",
    "disjoint_reach",
    "public_rows",
    "reaches",
    "regret_matching",
    "terminal_values",
]

"""Search at decision time for the hold'em ``cfr`` agent: re-solving the turn and the river.

At a river decision the agent builds the rest of the round from the real state (the real pot, the
opponent's actual bet) as a ``solvers.subgame.Subgame``, gives both players their ranges from the
blueprint by Bayes' rule over the hand's actions (an opponent's off-tree bet through the translation's
probabilities; our own searched actions through the strategy we played), and solves it with CFR+ for
a time budget; the round's later decisions play on from that solution while the hand stays on its
tree (an opponent's raise of another size is re-solved, nested). The re-solving gadget (Burch et al.
2014; Brown and Sandholm 2017) lets each opponent holding take instead an alternative value: by
default what it gets against the blueprint there when both play the blueprint (``gadget=blueprint``;
Libratus's choice), or its best response to it (``best-response``: a looser bound, which let the
search lose to the blueprint head to head), scaled from the abstract pot to the real one; ``reach``
adds the holding's gift at the opponent's action just before (reach subgame solving, Brown and
Sandholm 2017), and ``gadget_penalty`` swaps resolve for the solver's penalty gadget. The gadget
sits at our decision after an opponent action the blueprint has (its range after it is exact), at
the opponent's decision before an off-tree one. Where the blueprint's tree has no node for the hand
any more, the subgame is solved without the gadget.

At a turn decision (``turn``; by default in no-limit once the opponent has left the blueprint's
tree, ``turn_off_tree``: against an opponent on the tree the blueprint plays the turn at its speed, and
the exact measurement of ``search_edge`` covers what the river search then gains) the subgame runs to the end of the hand
(``solvers.turn_subgame``): the turn from the real state, every river card, and the river's betting
below each, solved by CFR+ sampling two river cards an iteration, with the resolve gadget placed as
on the river: each opponent holding's alternative is its value when both play the blueprint from the
abstract turn node to the end of the hand, over every river card (``turn_subgame.strategy_values``,
the compiled evaluation pass: Brown and Sandholm 2017's safe nested solving). Without it an opponent
that bets other hands than the blueprint would (LBR, any bot) found the turn's re-solve, whose
ranges come from the blueprint, more exploitable than the blueprint. In a game of two rounds (Leduc)
the first is the "turn". At a turn solve's first decision facing a bet no holding folds more often
than the blueprint does facing that action, averaged over its translation (``cap_folds``): cut off
by its budget, the turn's solve is far from converged, and folded most made hands to small bets the
blueprint calls.
``off_tree_only`` (``search=off-tree``) searches only once an opponent's action has left the
blueprint's tree. Earlier streets play the blueprint.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from showdown.agents.time_bank import TimeBank
from showdown.games.state import FOLD, Action, State
from showdown.solvers.betting import DECISION, FOLD_SLOT, translation_probabilities
from showdown.solvers.holdings import Holdings, RankedBoard, game_holdings
from showdown.solvers.subgame import Subgame, SubgameSizing, SubgameSolver, counterfactual_values, disjoint_reach

MIN_ITERATIONS = 8
"""Fewer CFR+ iterations than this within the budget and the agent plays the blueprint instead."""

MIN_DECISION_MS = 150.0
"""Below this cap on a decision (the dealer's clock: ``clock.DealerClock.decision_ms``) nothing is
searched: the ranges and the gadget's values alone may take it."""

MIN_TURN_DECISION_MS = 1000.0
"""Below this cap the turn is not searched: its gadget's exact values (50 to 400 ms) cannot be cut short."""

ON_TREE = 0.98
"""An opponent's action the translation maps to one abstract action with at least this probability is
the blueprint's own (a bet of the same pot fraction, rounded to whole chips)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One action of the hand as the agent followed it: the real and abstract states before it, the
    abstract node there (-1 off the tree) and the action."""

    real: State
    abstract: State
    node: int
    action: Action


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """``budget_ms`` bounds the thinking per river decision and ``turn_budget_ms`` a turn's solve (the
    turn gadget's exact values, 50 to 400 ms, come before it), ``iterations`` the CFR+ iterations
    (whichever comes first); a river solve also stops once its exploitability is at most ``target`` times the
    pot (0: never); ``sizing`` is the re-solved subgame's no-limit raise sizes; ``gadget_margin``
    lowers the gadget's alternatives by that fraction of the pot (a re-solved strategy may then give
    an opponent holding up to that much more than the blueprint did: safety traded for gain);
    ``gadget_penalty`` M > 0 keeps the opponent's whole range in the solve and charges M times each
    holding's excess over its alternative (``SubgameSolver``'s penalty gadget; 0: the resolve gadget);
    on the blueprint's tree a pot under ``min_pot_bb`` big blinds is left to the blueprint; ``hand_ms``
    is the mean solve time per hand over the match that the time bank keeps to (``time_bank``; 0: none);
    ``decision_ms`` caps a decision's whole search, the gadget's values included (the dealer's clock; None: none)."""

    budget_ms: float = 300.0
    iterations: int = 150
    sizing: SubgameSizing = SubgameSizing()
    gadget: str = "blueprint"
    turn: bool = True
    turn_budget_ms: float = 300.0
    off_tree_only: bool = False
    turn_sizing: SubgameSizing = SubgameSizing((0.5, 1.0), 1)
    turn_river_sizing: SubgameSizing = SubgameSizing((1.0,), 1)
    rivers_per_iteration: int = 2
    target: float = 0.0
    turn_off_tree: bool = False
    gadget_margin: float = 0.0
    min_pot_bb: float = 0.0
    gadget_penalty: float = 0.0
    defend: bool = True
    hand_ms: float = 450.0
    decision_ms: float | None = None


@dataclass(frozen=True, slots=True)
class Solved:
    """A re-solved subgame: its tree from ``root`` (the real state it was solved at), every holding's
    average strategy at each decision node ((actions, H)), the iterations run and whether the gadget
    was used. Later decisions of the round play on from it while the hand stays on its tree."""

    root: State
    game: Subgame
    strategies: list[np.ndarray | None]
    iterations: int
    safe: bool

    def node_of(self, real: State) -> int | None:
        """The subgame node of ``real`` (the root's hand played on), or None if an action left the tree."""
        before = [a for rnd in self.root.history for _, a in rnd]
        after = [a for rnd in real.history for _, a in rnd]
        if after[: len(before)] != before:
            return None
        node = 0
        for action in after[len(before) :]:
            actions = self.game.actions[node]
            if action not in actions:
                return None
            node = self.game.children[node][actions.index(action)]
        return node

    def letters(self, node: int, columns: np.ndarray, sized: bool = False) -> dict[str, np.ndarray]:
        """Probabilities by action letter (fold, call, raise: sizes together) of the holdings ``columns``;
        ``sized``: each raise size too, by its text (``r600``)."""
        strategy = self.strategies[node]
        assert strategy is not None
        out: dict[str, np.ndarray] = {}
        for action, row in zip(self.game.actions[node], strategy):
            text = str(action)
            for key in (text[:1], text) if sized and text[0] == "r" and text != "r" else (text[:1],):
                out[key] = out[key] + row[columns] if key in out else row[columns]
        return out


class Search:
    """Re-solves river decisions for an ``AbstractCFRAgent`` (its strategy and bucket cache)."""

    def __init__(self, strategy: Any, boards: Any, settings: SearchSettings) -> None:
        self.strategy = strategy
        self.tree = strategy.tree
        self.boards = boards
        self.settings = settings
        self.holdings: Holdings = game_holdings(strategy.game)
        self._ranked: tuple[tuple[int, ...], RankedBoard] | None = None
        self.bank = TimeBank(settings.hand_ms)
        """The match's clock: each hand's budgets scaled so that the mean solve time stays at ``hand_ms``."""
        # numba's compiled pass and the hand-rank tables load in the background (most of a second of
        # CPU): the agent connects to the dealer meanwhile, and the first search waits for them
        self._ready = threading.Thread(target=self._warm_up, name="search-warm-up", daemon=True)
        self._ready.start()
        # a process forked meanwhile (evaluators' workers) would inherit the import locks the loading
        # holds, and its first search would wait for them for ever: finish loading before any fork
        ready = weakref.ref(self._ready)
        os.register_at_fork(before=lambda: _join(ready))

    def _warm_up(self) -> None:
        from showdown.solvers.subgame_kernels import warm_up

        warm_up()
        if self.settings.turn and self.strategy.game.num_rounds >= 3:
            from showdown.solvers.turn_subgame import river_boards

            river_boards(self.holdings, self.holdings.deck[:4], self.holdings.deck)

    def applies(self, real: State) -> bool:
        """The river always; the turn (the next-to-last round) with ``turn`` on."""
        if real.is_terminal:
            return False
        last = real.game.num_rounds - 1
        return real.round == last or (self.settings.turn and real.round == last - 1)

    def wanted(self, real: State, steps: list[Step], me: int) -> bool:
        """Whether to search at ``real`` (ours to act): ``applies``, and with ``off_tree_only`` (or on the
        turn with ``turn_off_tree``, or on the river in a pot under ``min_pot_bb`` big blinds) only
        once an opponent's action has left the blueprint's tree."""
        if not self.applies(real):
            return False
        turn = real.round < real.game.num_rounds - 1
        if self.settings.off_tree_only or (turn and self.settings.turn_off_tree):
            return self.left_tree(steps, me)
        if not turn and self.settings.min_pot_bb > 0 and real.pot() < self.settings.min_pot_bb * real.game.big_blind:
            return self.left_tree(steps, me)  # a small pot on the tree: the blueprint, at its speed
        return True

    def solve(
        self, steps: list[Step], played: dict[int, np.ndarray], real: State, node: int, position: int, board: tuple[int, ...],
        timed: bool = True,
    ) -> Solved | None:
        """Re-solve at ``real`` (our turn; ``node`` where the blueprint's walk is) for every holding of
        ours at once, or None when the budget runs out first; ``timed``: within the time bank's budget,
        debited what it took (else the configured budget)."""
        began = time.perf_counter()
        cap = self.settings.decision_ms
        try:
            return self._solve(steps, played, real, node, position, board, timed, began + cap / 1000.0 if cap is not None else float("inf"))
        finally:
            if timed:
                self.bank.spend(time.perf_counter() - began)

    def _solve(
        self, steps: list[Step], played: dict[int, np.ndarray], real: State, node: int, position: int, board: tuple[int, ...],
        timed: bool, hard: float,
    ) -> Solved | None:
        """``solve``'s work; ``hard``: the time the whole decision must be over by (the dealer's clock)."""
        if self.settings.budget_ms <= 0:
            return None  # no thinking: the blueprint
        turn = real.round < real.game.num_rounds - 1
        cap = self.settings.decision_ms
        if cap is not None and cap < (MIN_TURN_DECISION_MS if turn else MIN_DECISION_MS):
            return None  # too short a clock to search here: the blueprint
        budget = (self.settings.turn_budget_ms if turn else self.settings.budget_ms) / 1000.0
        budget = self.bank.budget(budget) if timed else budget
        budget = min(budget, hard - time.perf_counter())
        if budget <= 0:
            return None
        deadline = time.perf_counter() + budget
        self._ready.join(budget)
        if self._ready.is_alive():
            return None  # still loading: the blueprint this time
        if turn:
            return self._solve_turn(steps, played, real, node, position, board, deadline, hard)
        me, opp = position, 1 - position
        ranked = self._ranked_board(board)
        k = self._gadget_step(steps, real, opp)
        reach = _floored(self.ranges(steps[:k], played, board, ranked.blocked), me, ranked.blocked)
        before = None
        if k < len(steps):
            gadget_real, gadget_node = steps[k].real, steps[k].node
        else:
            gadget_real, gadget_node = real, node
            last = steps[-1] if steps else None
            if last is not None and last.real.round == real.round and last.real.current_player == opp and self._on_tree(last):
                before = last  # the opponent's action that led here: its gift counts with gadget=reach
        alternatives = (
            None if self.settings.gadget == "off" else self._alternatives(gadget_real, gadget_node, opp, me, reach, board, ranked, before)
        )
        if time.perf_counter() >= deadline:
            return None
        game = Subgame.of_state(real, self.settings.sizing)
        solver = SubgameSolver(game, ranked, reach, opp, alternatives, penalty=self.settings.gadget_penalty)
        done = solver.run(self.settings.iterations, deadline, target=self.settings.target)
        if done < MIN_ITERATIONS:
            return None
        strategies = [None if a is None else _normalised(a) for a in solver.average_strategy()]
        return Solved(real, game, strategies, done, alternatives is not None)

    def _gadget_step(self, steps: list[Step], real: State, opp: int) -> int:
        """How many of ``steps`` the gadget's ranges follow: all of them, or all but the opponent's last
        action when it left the tree this round (the gadget then sits at its decision, its range before it)."""
        k = len(steps)
        if k and steps[-1].real.round == real.round and steps[-1].real.current_player == opp and not self._on_tree(steps[-1]):
            k -= 1
        return k

    def _solve_turn(
        self, steps: list[Step], played: dict[int, np.ndarray], real: State, node: int, me: int, board: tuple[int, ...],
        deadline: float, hard: float,
    ) -> Solved | None:
        """The turn re-solved to the end of the hand (``turn_subgame``), sampling river cards, with the
        resolve gadget at the last decision on the blueprint's tree: each opponent holding may take
        instead its value there when both play the blueprint to the end of the hand, every river card
        (``turn_subgame.strategy_values``; Brown and Sandholm 2017's safe nested solving). Where the
        blueprint's tree has no node for the hand, without a gadget from both ranges after every action."""
        from showdown.solvers.turn_subgame import TurnSolver, TurnSubgame

        opp = 1 - me
        turn = TurnSubgame.of_state(real, self.holdings, board, self.holdings.deck, self.settings.turn_sizing, self.settings.turn_river_sizing)
        blocked = turn.tables.masks.max(axis=0) == 0
        k = self._gadget_step(steps, real, opp)
        alternatives = None
        if self.settings.gadget != "off":
            reach = _floored(self.ranges(steps[:k], played, board, blocked), me, blocked)
            at_real, at_node = (steps[k].real, steps[k].node) if k < len(steps) else (real, node)
            began = time.perf_counter()
            alternatives = self._turn_alternatives(at_real, at_node, opp, me, reach, board, turn)
            deadline = min(deadline + time.perf_counter() - began, hard)  # the gadget's values on top of the budget, not the clock
        if alternatives is None:
            reach = _floored(self.ranges(steps, played, board, blocked), me, blocked)
        if time.perf_counter() >= deadline:
            return None
        seed = int(sum(board) + 53 * len(steps))  # reproducible: the cards dealt to the solver follow the hand
        solver = TurnSolver(turn, reach, opp, alternatives, per_iteration=self.settings.rivers_per_iteration, seed=seed)
        if time.perf_counter() >= deadline:
            return None
        done = solver.run(self.settings.iterations, deadline)
        if done < MIN_ITERATIONS:
            return None
        strategies = [None if a is None else _normalised(a) for a in solver.turn_strategy()]
        return self.cap_folds(Solved(real, turn.game, strategies, done, alternatives is not None), steps, board)

    def _turn_alternatives(
        self, real: State, node: int, opp: int, me: int, reach: np.ndarray, board: tuple[int, ...], turn: Any,
    ) -> np.ndarray | None:
        """Per opponent holding, its value against the blueprint from the turn's ``node`` (the abstract
        twin of ``real``) to the end of the hand over every river card (its best response with
        ``gadget=best-response``), in the real pot's chips, less the margin; None off the tree."""
        from showdown.solvers.turn_subgame import strategy_values, tree_turn

        if not self._twin(real, node):
            return None
        sub, order, river_nodes = tree_turn(self.tree, node, turn.cards, turn.tables)
        every = self.boards.every_bucket(tuple(board), real.round)
        turn_strategies: list[np.ndarray | None] = [
            self.strategy.rows(int(order[i]), every)[:, : len(sub.game.children[i])].T if sub.game.kind[i] == DECISION else None
            for i in range(sub.game.num_nodes)
        ]
        river_tables: list[np.ndarray | None] = []
        for river, nodes in zip(sub.rivers, river_nodes):
            decisions = [] if river is None else [i for i in range(river.num_nodes) if river.kind[i] == DECISION]
            river_tables.append(
                np.concatenate([self.strategy.node_table(int(nodes[i]))[:, : len(river.children[i])] for i in decisions], axis=1)  # type: ignore[union-attr]
                if decisions else None
            )
        buckets = np.stack([self.boards.every_bucket((*board, card), real.round + 1) for card in turn.cards])
        values = strategy_values(sub, turn_strategies, river_tables, buckets, reach, opp, best_response=self.settings.gadget == "best-response")
        ours = disjoint_reach(self.holdings, reach[me][None, :])[0]
        return np.asarray(self._rebased(values[0], real, node, opp, me, reach) - self.settings.gadget_margin * real.pot() * ours)

    def cap_folds(self, solved: Solved, steps: list[Step], board: tuple[int, ...]) -> Solved:
        """``solved`` with no holding folding at its root more often than the blueprint does facing the
        opponent's last action (the excess calls), for the turn: its solve stopped by its budget (25 to
        30 CFR+ iterations in the 400 ms it had before the gadget) is far from converged, and folded most made hands to a quarter-pot
        bet that the blueprint calls (issue 26's cousins of the probes; the river's, 150 iterations of a
        smaller tree, is left as solved). The blueprint's fold is averaged
        over its translation of the action (mapped to a check, or to a call that ends the round, it
        calls); nothing changes where the hand had left its tree before that action."""
        root = solved.strategies[0]
        step = steps[-1] if steps else None
        if root is None or solved.game.actions[0][:1] != (FOLD,) or step is None or step.node < 0 or self.tree.kind[step.node] != DECISION:
            return solved
        options = self.tree.actions[step.node]
        weights = translation_probabilities(step.real, step.action, step.abstract, options)
        every = self.boards.every_bucket(board, solved.root.round)
        folds = np.zeros(root.shape[1])
        for slot in np.flatnonzero(weights > 0):
            child = int(self.tree.children[step.node, slot])
            if self.tree.kind[child] == DECISION and int(self.tree.round[child]) == solved.root.round and self.tree.actions[child][FOLD_SLOT] == FOLD:
                folds += weights[slot] * self.strategy.node_table(child)[:, FOLD_SLOT][every]
        kept = np.minimum(root[0], folds.astype(root.dtype))
        root[1] += root[0] - kept
        root[0] = kept
        return solved

    def left_tree(self, steps: list[Step], me: int) -> bool:
        """Whether an opponent's action this hand was not one of the blueprint's own."""
        return any(step.real.current_player != me and not self._on_tree(step) for step in steps)

    def _on_tree(self, step: Step) -> bool:
        """Whether ``step``'s real action is one of the blueprint's own there (up to the chips' rounding),
        so that the range after it and the values of the node it leads to are the blueprint's."""
        n = step.node
        if n < 0 or self.tree.kind[n] != DECISION:
            return False
        weights = translation_probabilities(step.real, step.action, step.abstract, self.tree.actions[n])
        return bool(weights.max() >= ON_TREE)

    # ------------------------------------------------------------------ ranges and alternatives

    def ranges(self, steps: list[Step], played: dict[int, np.ndarray], board: tuple[int, ...], blocked: np.ndarray) -> np.ndarray:
        """Both players' ranges (2, H) after ``steps`` by Bayes' rule: the blueprint's probability of
        each action (mixed over the translation's two neighbours), or, for our searched actions, the
        probability we played it with. Off the tree a step tells nothing. A range the blueprint says
        is impossible starts over uniform."""
        valid = (~blocked).astype(float)
        reach = np.stack([valid, valid])
        for i, step in enumerate(steps):
            actor = step.real.current_player
            if i in played:
                reach[actor] *= played[i]
                continue
            n = step.node
            if n < 0 or self.tree.kind[n] != DECISION:
                continue
            r = step.real.round
            shown = board[: sum(self.strategy.game.num_board_cards[: r + 1])]
            every = self.boards.every_bucket(tuple(shown), r)
            options = self.tree.actions[n]
            weights = translation_probabilities(step.real, step.action, step.abstract, options)
            reach[actor] *= (self.strategy.rows(n, every)[:, : len(options)] * weights).sum(axis=1)
        for p in (0, 1):
            if reach[p].sum() <= 0:
                reach[p] = valid
        return reach

    def _alternatives(
        self, real: State, node: int, opp: int, me: int, reach: np.ndarray, board: tuple[int, ...], ranked: RankedBoard,
        before: Step | None = None,
    ) -> np.ndarray | None:
        """Per opponent holding, its value against the blueprint from ``node`` (the abstract twin of
        ``real``; its best response with ``gadget=best-response``), in the real pot's chips, less the
        margin; None off the tree. With ``gadget=reach`` and ``before`` the opponent's on-tree action
        that led here in this round, raised by its gift there: how much more its best action at that
        decision would have got against the blueprint than the one it took (reach subgame solving,
        Brown and Sandholm 2017: giving a holding up to that much more here leaves it no better off
        than its best alternative before)."""
        values = self._blueprint_values(real, node, opp, me, reach, board, ranked)
        if values is None:
            return None
        ours = disjoint_reach(self.holdings, reach[me][None, :])[0]
        alternatives = values[0] - self.settings.gadget_margin * real.pot() * ours
        if self.settings.gadget == "reach" and before is not None:
            earlier = self._blueprint_values(before.real, before.node, opp, me, reach, board, ranked)
            if earlier is not None:
                options = self.tree.actions[before.node]
                taken = int(np.argmax(translation_probabilities(before.real, before.action, before.abstract, options)))
                gift = earlier[1:].max(axis=0) - earlier[1 + taken]
                alternatives = alternatives + np.maximum(gift, 0.0)
        return np.asarray(alternatives)

    def _blueprint_values(
        self, real: State, node: int, opp: int, me: int, reach: np.ndarray, board: tuple[int, ...], ranked: RankedBoard,
    ) -> np.ndarray | None:
        """The opponent's counterfactual values against the blueprint at ``node`` and after each of its
        actions there ((1 + actions, H), whole-hand chips rebased from the abstract pot to the real
        one); None off the tree."""
        tree = self.tree
        if not self._twin(real, node):
            return None
        sub, order = Subgame.of_tree(tree, node)
        every = self.boards.every_bucket(tuple(board), real.round)
        strategies: list[np.ndarray | None] = [
            self.strategy.rows(int(order[i]), every)[:, : len(sub.children[i])].T if sub.kind[i] == DECISION else None
            for i in range(sub.num_nodes)
        ]
        values = counterfactual_values(sub, ranked, opp, strategies, reach, best_response=self.settings.gadget == "best-response")
        return self._rebased(values[[0, *sub.children[0]]], real, node, opp, me, reach)

    def _twin(self, real: State, node: int) -> bool:
        """Whether the abstract ``node`` is a decision of ``real``'s round and player (its values stand for ``real``'s)."""
        tree = self.tree
        return bool(
            node >= 0 and tree.kind[node] == DECISION and int(tree.round[node]) == real.round
            and int(tree.player[node]) == real.current_player
        )

    def _rebased(self, values: np.ndarray, real: State, node: int, opp: int, me: int, reach: np.ndarray) -> np.ndarray:
        """The opponent's counterfactual values at the abstract ``node`` (whole-hand chips) in the real
        pot's: rebased from the abstract pot there to the real one."""
        spent_abstract = self.tree.spent[node]
        scale = real.pot() / max(float(spent_abstract.sum()), 1.0)
        ours = disjoint_reach(self.holdings, reach[me][None, :])[0]
        return np.asarray(scale * (values + spent_abstract[opp] * ours) - real.spent[opp] * ours)

    def _ranked_board(self, board: tuple[int, ...]) -> RankedBoard:
        if self._ranked is None or self._ranked[0] != board:
            self._ranked = (board, RankedBoard(self.holdings, board))
        return self._ranked[1]


def _join(ref: weakref.ref[threading.Thread]) -> None:
    """Wait for a search's background loading, if the search still exists."""
    thread = ref()
    if thread is not None and thread.is_alive() and thread is not threading.current_thread():
        thread.join()


def _floored(reach: np.ndarray, me: int, blocked: np.ndarray) -> np.ndarray:
    """``reach`` with a trace of weight on the holdings our range says we never hold here, so that
    they too get a strategy (the board's blocked holdings stay at zero)."""
    valid = reach[me] > 0
    floor = 1e-4 * float(reach[me][valid].mean()) if valid.any() else 1.0
    reach[me] = np.where(blocked, 0.0, np.maximum(reach[me], floor))
    return reach


def _normalised(strategy: np.ndarray) -> np.ndarray:
    """A single-precision strategy in double, each holding's probabilities summing to 1 to double precision."""
    out = np.asarray(strategy, dtype=float)
    return np.asarray(out / out.sum(axis=0, keepdims=True))


__all__ = ["Search", "SearchSettings", "Solved", "Step"]

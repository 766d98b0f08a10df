"""What the river search gains over its blueprint, measured exactly at each situation (no card luck).

Head to head, the opponent IS the blueprint: at our first river decision its range (Bayes over the
hand) and its strategy for the rest of the river are known exactly. ``river_edge`` evaluates, over
every pair of holdings at once (vectors over the 1,326, card removal included, no sampling):

- ``searched``: our expected chips when we play the re-solved strategy (``Search.solve``, the agent's
  own code path) and the opponent plays the blueprint: it follows our bets through its translation
  (each pseudo-harmonic draw a chance branch) and realises its abstract actions in the real pot;
- ``blueprint``: the same when we play the blueprint too;
- ``exploit_searched`` and ``exploit_blueprint``: the opponent's best response within the subgame to
  each (its total counterfactual value, chips), how much each leaves to a player who knew it.

An opponent action the re-solved tree lacks (its raise count differs) is answered by the re-solved
strategy at the nearest action of the same kind (counted in ``unmatched``; the agent would re-solve).
Averaged over situations sampled by blueprint-against-blueprint play, ``searched - blueprint`` is the
river search's expected edge per hand reaching it, with the small standard error of a per-situation
exact value instead of the thousands of deals a match needs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from showdown.agents.search import Search, Solved, Step
from showdown.games.dealing import deal_hands
from showdown.games.state import Action, ActionKind, State
from showdown.solvers.betting import DECISION, realize, translation_probabilities
from showdown.solvers.holdings import RankedBoard
from showdown.solvers.subgame import Subgame, best_response_values, disjoint_reach


@dataclass(frozen=True, slots=True)
class Edge:
    """One situation's exact values (chips of the whole hand, each divided by the probability mass of
    the pairs of holdings that reach it: the expectation given the public state), the iterations the
    search ran, the opponent's actions it lacked and the pot (chips) at the decision."""

    searched: float
    blueprint: float
    exploit_searched: float
    exploit_blueprint: float
    iterations: int
    unmatched: int
    pot: int = 0

    @property
    def gain(self) -> float:
        return self.searched - self.blueprint


@dataclass(slots=True)
class _Walk:
    """A player's place in its own strategy: the blueprint's (abstract state and node) or a re-solved
    subgame's node."""

    abstract: State | None = None
    node: int = -1


class _Evaluator:
    """Expected chips of a strategy pair over the rest of the river, by recursion over the real tree."""

    def __init__(
        self, search: Search, board: tuple[int, ...], me: int, solved: Solved | None, ranked: RankedBoard | None = None,
        round_: int | None = None,
    ) -> None:
        self.search = search
        self.tree = search.tree
        self.ranked: RankedBoard = ranked if ranked is not None else search._ranked_board(board)
        last = len(search.strategy.game.num_board_cards) - 1
        self.every = search.boards.every_bucket(board, last if round_ is None else round_)
        self.me = me
        self.solved = solved
        self.unmatched = 0

    # ------------------------------------------------------------------ one player's strategy here

    def _blueprint_moves(self, walk: _Walk, real: State) -> list[tuple[Action, np.ndarray, _Walk]]:
        n = walk.node
        assert walk.abstract is not None
        if n < 0 or self.tree.kind[n] != DECISION or int(self.tree.round[n]) != real.round:
            return [(Action(ActionKind.CALL), np.ones(self.ranked.blocked.shape[0]), walk)]
        options = self.tree.actions[n]
        rows = self.search.strategy.rows(n, self.every)[:, : len(options)]
        moves: dict[Action, tuple[np.ndarray, _Walk]] = {}
        for slot, abstract_action in enumerate(options):
            action = realize(abstract_action, walk.abstract, real)
            nxt = _Walk(walk.abstract.apply(abstract_action), int(self.tree.children[n, slot]))
            if action in moves:  # two abstract actions realised alike (rounding): the first's walk
                moves[action] = (moves[action][0] + rows[:, slot], moves[action][1])
            else:
                moves[action] = (np.array(rows[:, slot], dtype=float), nxt)
        return [(a, p, w) for a, (p, w) in moves.items()]

    def _solved_moves(self, walk: _Walk, real: State) -> list[tuple[Action, np.ndarray, _Walk]]:
        assert self.solved is not None
        game = self.solved.game
        strategy = self.solved.strategies[walk.node]
        assert strategy is not None
        return [(a, strategy[i], _Walk(None, game.children[walk.node][i])) for i, a in enumerate(game.actions[walk.node])]

    def _blueprint_sees(self, walk: _Walk, real: State, action: Action) -> list[tuple[float, _Walk]]:
        """The opponent's walk after our ``action``: its translation's draws as chance branches."""
        n = walk.node
        assert walk.abstract is not None
        if n < 0 or self.tree.kind[n] != DECISION or int(self.tree.round[n]) != real.round:
            return [(1.0, walk)]
        options = self.tree.actions[n]
        weights = translation_probabilities(real, action, walk.abstract, options)
        return [
            (float(w), _Walk(walk.abstract.apply(options[s]), int(self.tree.children[n, s])))
            for s, w in enumerate(weights) if w > 0
        ]

    def _solved_sees(self, walk: _Walk, action: Action) -> _Walk:
        """Our re-solved walk after the opponent's ``action``: its node, or the nearest of the same kind."""
        assert self.solved is not None
        actions = self.solved.game.actions[walk.node]
        if action in actions:
            return _Walk(None, self.solved.game.children[walk.node][actions.index(action)])
        self.unmatched += 1
        same = [i for i, a in enumerate(actions) if a.kind is action.kind] or [len(actions) - 1]
        best = min(same, key=lambda i: abs((actions[i].size or 0) - (action.size or 0)))
        return _Walk(None, self.solved.game.children[walk.node][best])

    # ------------------------------------------------------------------ the recursion

    def value(self, real: State, ours: _Walk, ours_bp: _Walk | None, theirs: _Walk, reach: np.ndarray) -> float:
        """Our expected chips (summed over pairs of holdings, weighted by ``reach`` (2, H)) from ``real``:
        ``ours`` our node in the re-solved subgame (unused without one), ``ours_bp`` our blueprint walk
        (None with a re-solved subgame whose blueprint walk is not needed), ``theirs`` the opponent's."""
        if self._ended(real):
            return self._end(real, ours_bp, theirs, reach)
        me, opp = self.me, 1 - self.me
        solved = self.solved is not None
        total = 0.0
        if real.current_player == me:
            assert solved or ours_bp is not None
            moves = self._solved_moves(ours, real) if solved else self._blueprint_moves(ours_bp, real)  # type: ignore[arg-type]
            for action, probs, after in moves:
                r = reach.copy()
                r[me] *= probs
                if not r[me].any():
                    continue
                walks: list[tuple[float, _Walk | None]] = [(1.0, None if solved else after)]
                if solved and ours_bp is not None:
                    walks = list(self._blueprint_sees(ours_bp, real, action))
                for w_ours, bp in walks:
                    for w, seen in self._blueprint_sees(theirs, real, action):
                        total += w_ours * w * self.value(real.apply(action), after, bp, seen, r)
        else:
            for action, probs, after in self._blueprint_moves(theirs, real):
                r = reach.copy()
                r[opp] *= probs
                if not r[opp].any():
                    continue
                node = self._solved_sees(ours, action) if solved else ours
                seen_by: list[tuple[float, _Walk | None]] = [(1.0, None)]
                if ours_bp is not None:
                    seen_by = list(self._blueprint_sees(ours_bp, real, action))
                for w, bp in seen_by:
                    total += w * self.value(real.apply(action), node, bp, after, r)
        return total

    def _ended(self, real: State) -> bool:
        return real.is_terminal

    def _end(self, real: State, ours_bp: _Walk | None, theirs: _Walk, reach: np.ndarray) -> float:
        return self._terminal(real, reach)

    def _terminal(self, real: State, reach: np.ndarray) -> float:
        me, opp = self.me, 1 - self.me
        spent = real.spent
        if real.folded[me] or real.folded[opp]:
            gain = -spent[me] if real.folded[me] else spent[opp]
            return float(gain * (reach[me] @ disjoint_reach(self.ranked.holdings, reach[opp][None, :])[0]))
        win, lose = self.ranked.win_lose(reach[opp][None, :])
        return float(reach[me] @ (win[0] * spent[opp] - lose[0] * spent[me]))


class _TurnEvaluator(_Evaluator):
    """Expected chips from a turn decision to the end of the hand: the turn played by ``solved`` (or
    the blueprint), every last card dealt (a chance branch, the holdings holding it out), the river
    played blueprint against blueprint, each player's blueprint walk having followed our turn
    actions through its own translation (what the agent does after a searched turn without a river
    search; the river search's own edge is ``river_edge``'s)."""

    def __init__(self, search: Search, board: tuple[int, ...], me: int, solved: Solved | None, rivers: dict[int, RankedBoard]) -> None:
        turn = len(search.strategy.game.num_board_cards) - 2
        blocked = search.holdings.blocked(board)
        super().__init__(search, board, me, solved, _Unranked(search.holdings, blocked), turn)  # type: ignore[arg-type]
        self.board = board
        self.rivers = rivers
        self._river_evaluators: dict[int, _Evaluator] = {}

    def _ended(self, real: State) -> bool:
        return real.is_terminal or real.round > self.search.strategy.game.num_rounds - 2

    def _end(self, real: State, ours_bp: _Walk | None, theirs: _Walk, reach: np.ndarray) -> float:
        assert ours_bp is not None
        return self._last_card(real, ours_bp, theirs, reach)

    def _last_card(self, real: State, ours_bp: _Walk, theirs: _Walk, reach: np.ndarray) -> float:
        me, opp = self.me, 1 - self.me
        if real.folded[me] or real.folded[opp]:
            return self._terminal(real, reach)
        holdings = self.search.holdings
        cards = holdings.cards
        total = 0.0
        for card, ranked in self.rivers.items():
            r = reach * (cards != card).all(axis=1)[None, :]
            evaluator = self._river_evaluators.get(card)
            if evaluator is None:
                evaluator = self._river_evaluators[card] = _Evaluator(self.search, (*self.board, card), me, None, ranked)
            total += evaluator.value(real, ours_bp, ours_bp, theirs, r)  # the real state's own cards are never read
        left = len(self.rivers) - 2 * int(cards.shape[1])  # the last cards a pair of holdings leaves
        return float(total / left)


class _Unranked:
    """What the turn's fold sums read of a ranked board: the holdings, and which the board blocks."""

    def __init__(self, holdings: Any, blocked: np.ndarray) -> None:
        self.holdings = holdings
        self.blocked = blocked


def turn_edge(
    search: Search, steps: list[Step], real: State, node: int, me: int, board: tuple[int, ...], abstract: State,
) -> Edge | None:
    """The exact values, to the end of the hand, of the re-solved turn (``Search.solve`` at our turn
    decision ``real``, the river left to the blueprint) and of the blueprint's turn against the
    blueprint, over every pair of holdings and every last card; None when the search does not solve
    here. The exploitability fields are not computed (0)."""
    solved = search.solve(steps, {}, real, node, me, board, timed=False)
    if solved is None:
        return None
    blocked = search.holdings.blocked(board)
    reach = search.ranges(steps, {}, board, blocked)
    mass = float(reach[me] @ disjoint_reach(search.holdings, reach[1 - me][None, :])[0])
    if mass <= 0:
        return None
    deck = search.holdings.deck
    rivers = {c: RankedBoard(search.holdings, (*board, c)) for c in deck if c not in board}
    start = _Walk(abstract, node)
    on_search = _TurnEvaluator(search, board, me, solved, rivers)
    searched = on_search.value(real, _Walk(None, 0), start, start, reach)
    blueprint = _TurnEvaluator(search, board, me, None, rivers).value(real, start, start, start, reach)
    return Edge(searched / mass, blueprint / mass, 0.0, 0.0, solved.iterations, on_search.unmatched, real.pot())


def river_edge(
    search: Search, steps: list[Step], real: State, node: int, me: int, board: tuple[int, ...], abstract: State,
) -> Edge | None:
    """The exact values of the re-solved and the blueprint's strategies at our river decision ``real``
    (``node`` and ``abstract`` the blueprint's walk there, ``steps`` the hand's actions so far, all
    played by the blueprint) against the blueprint; None when the search does not solve here."""
    solved = search.solve(steps, {}, real, node, me, board, timed=False)
    if solved is None:
        return None
    ranked = search._ranked_board(board)
    reach = search.ranges(steps, {}, board, ranked.blocked)
    mass = float(reach[me] @ disjoint_reach(ranked.holdings, reach[1 - me][None, :])[0])
    if mass <= 0:
        return None
    # the opponent's walk is ours (both followed the same on-tree hand); the search picks up at the root
    start = _Walk(abstract, node)
    on_search = _Evaluator(search, board, me, solved)
    searched = on_search.value(real, _Walk(None, 0), None, start, reach)
    blueprint = _Evaluator(search, board, me, None).value(real, start, start, start, reach)
    exploit_s = float(reach[1 - me] @ best_response_values(solved.game, ranked, 1 - me, solved.strategies, reach))
    sub, order = Subgame.of_tree(search.tree, node)
    every = search.boards.every_bucket(board, real.round)
    bp_strategies: list[np.ndarray | None] = [
        search.strategy.rows(int(order[i]), every)[:, : len(sub.children[i])].T if sub.kind[i] == DECISION else None
        for i in range(sub.num_nodes)
    ]
    # the blueprint's subtree counts the abstract pot: rebase to the real one as the gadget does
    exploit_b = _rebased(best_response_values(sub, ranked, 1 - me, bp_strategies, reach), search, node, real, reach, me, ranked)
    return Edge(
        searched / mass, blueprint / mass, float(exploit_s) / mass, exploit_b / mass, solved.iterations, on_search.unmatched,
        real.pot(),
    )


def _rebased(values: np.ndarray, search: Search, node: int, real: State, reach: np.ndarray, me: int, ranked: RankedBoard) -> float:
    """The opponent's total value from counterfactual ``values`` of the blueprint's abstract subtree,
    rebased from the abstract pot to the real one (as the gadget's alternatives are)."""
    opp = 1 - me
    spent_abstract = search.tree.spent[node]
    scale = real.pot() / max(float(spent_abstract.sum()), 1.0)
    ours = disjoint_reach(ranked.holdings, reach[me][None, :])[0]
    per_holding = scale * (values + spent_abstract[opp] * ours) - real.spent[opp] * ours
    return float(reach[opp] @ per_holding)


def sample_edges(
    game: Any, hands: int, seed: int, variants: dict[str, dict[str, Any]], *, strategy: str | None = None, progress: Any = None,
    street: str = "river",
) -> dict[str, list[Edge]]:
    """Plays ``hands`` seeded deals blueprint against blueprint and measures ``river_edge`` (or, with
    ``street="turn"``, ``turn_edge``) of every search variant (agent options by label) at the same
    situations: the searching seat's first decision of that street (seats alternating) while both
    are on the blueprint's tree."""
    from showdown.agents.abstract_cfr import AbstractCFRAgent, search_settings
    from showdown.agents.base import View
    from showdown.agents.registry import make_agent

    common = {} if strategy is None else {"strategy": strategy}
    agent = make_agent("cfr", game, {**common, "seed": 1, "turn": "off"})
    opponent = make_agent("cfr", game, {**common, "seed": 2, "search": "off"})
    assert isinstance(agent, AbstractCFRAgent) and agent.search is not None
    turn = street == "turn"
    searches = {
        label: Search(agent.strategy, agent._boards, replace(search_settings({**options, "turn": "on" if turn else "off"}, game),
                                                             turn=turn, turn_off_tree=False))
        for label, options in variants.items()
    }
    measure = turn_edge if turn else river_edge
    target = game.num_rounds - (2 if turn else 1)
    edges: dict[str, list[Edge]] = {label: [] for label in variants}
    for hand, (holes, board) in enumerate(deal_hands(game, seed, hands)):
        state = State.initial(game, holes, board)
        me = hand % 2
        while not state.is_terminal:
            view = View.of(state, state.current_player, hand)
            if state.current_player == me:
                agent._follow(view)  # with search on: the hand's steps are kept
                if state.round == target:
                    if agent._on_tree(view) and not agent.search.left_tree(agent._steps, me):
                        for label, search in searches.items():
                            edge = measure(search, list(agent._steps), agent._real, agent._node, me, tuple(view.board), agent._abstract)
                            if edge is not None:
                                edges[label].append(edge)
                    break
                action = _blueprint_act(agent, view)
            else:
                action = opponent.act(view)
            state = state.apply(action)
        if progress is not None:
            progress(hand + 1, edges)
    return edges


def _blueprint_act(agent: Any, view: Any) -> Action:
    """The searching agent's blueprint action (as ``act`` with search off; its walk already followed)."""
    search, agent.search = agent.search, None
    try:
        return agent.act(view)  # type: ignore[no-any-return]
    finally:
        agent.search = search


__all__ = ["Edge", "river_edge", "sample_edges", "turn_edge"]

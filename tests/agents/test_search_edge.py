"""The exact measurement of the river search's edge, checked against brute force over every deal of Leduc."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from showdown.agents.base import View
from showdown.agents.registry import make_agent
from showdown.agents.search_edge import river_edge, sample_edges, turn_edge
from showdown.games.catalog import get_game
from showdown.games.state import State
from showdown.solvers.abstraction import StrengthAbstraction
from showdown.solvers.holdings import game_holdings
from showdown.solvers.pcs import PCSSolver
from showdown.solvers.subgame import disjoint_reach

LEDUC = get_game("leduc")


@pytest.fixture(scope="module")
def leduc_strategy(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A coarse Leduc blueprint (two strength buckets): the search has something to take back."""
    solver = PCSSolver(LEDUC, StrengthAbstraction(LEDUC, 2), exhaustive=True)
    solver.iterate(40)
    return str(solver.strategy().save(tmp_path_factory.mktemp("edge") / "leduc.pcs.npz"))


def _agents(path: str):
    searching = make_agent("cfr", LEDUC, {"strategy": path, "budget_ms": 60_000, "search_iterations": 60, "seed": 1})
    blueprint = make_agent("cfr", LEDUC, {"strategy": path, "search": "off"})
    return searching, blueprint


def _history_probability(agent, state: State, holes, hand: int) -> float:
    """Brute force: the probability that the blueprint plays ``state``'s betting with these hole cards."""
    replay = State.initial(LEDUC, holes, state.board)
    p = 1.0
    for rnd in state.history:
        for _, action in rnd:
            policy = agent.policy(View.of(replay, replay.current_player, hand))
            p *= policy.get(str(action)[:1], 0.0)
            replay = replay.apply(action)
    return p


def _play_out(ours, theirs, state: State, me: int, hand: int) -> float:
    """Brute force: our expected chips from ``state`` with both policies, over their actions."""
    if state.is_terminal:
        return float(state.payoffs()[me])
    agent = ours if state.current_player == me else theirs
    policy = agent.policy(View.of(state, state.current_player, hand))
    total = 0.0
    for action in state.legal_actions():
        p = policy.get(str(action)[:1], 0.0)
        if p > 0:
            total += p * _play_out(ours, theirs, state.apply(action), me, hand)
    return total


@pytest.mark.parametrize("betting", ["rc/", "rrc/r", "cc/"])
def test_ranges_and_values_agree_with_brute_force_over_every_deal(leduc_strategy, betting):
    """Bayes' rule over the hand's actions (``Search.ranges``) gives the same posterior over holdings as
    counting every deal by the blueprint's probability of the betting; the exact values of the
    re-solved and the blueprint's strategies against the blueprint equal playing out every deal."""
    searching, blueprint = _agents(leduc_strategy)
    holdings = game_holdings(LEDUC)
    cards = [tuple(int(c) for c in row) for row in holdings.cards]
    board = (cards[-1][0],)
    state = State.initial(LEDUC, (cards[0], cards[1]), board).apply_betting(betting)
    me = state.current_player
    view = View.of(state, me, 0)
    searching._follow(view)
    search = searching.search
    blocked = holdings.blocked(board)
    reach = search.ranges(searching._steps, {}, board, blocked)
    edge = river_edge(search, searching._steps, searching._real, searching._node, me, board, searching._abstract)
    brute = np.zeros((2, len(cards)))
    values: dict[str, float] = {"searched": 0.0, "blueprint": 0.0}
    mass = 0.0
    for i, j in itertools.permutations(range(len(cards)), 2):
        holes = [None, None]
        holes[me], holes[1 - me] = cards[i], cards[j]
        if set(cards[i]) & set(cards[j]) or blocked[i] or blocked[j]:
            continue
        w = _history_probability(blueprint, state, tuple(holes), 1)
        brute[me, i] += w
        brute[1 - me, j] += w
        if w > 0:
            dealt = State.initial(LEDUC, tuple(holes), board).apply_betting(betting)
            mass += w
            values["blueprint"] += w * _play_out(blueprint, blueprint, dealt, me, 2)
            values["searched"] += w * _play_out(searching, blueprint, dealt, me, 3)
    for p in (0, 1):
        bayes = reach[p] * disjoint_reach(holdings, reach[1 - p][None, :])[0]
        assert np.allclose(bayes / bayes.sum(), brute[p] / brute[p].sum(), atol=1e-9)
    assert edge is not None and edge.unmatched == 0
    assert edge.blueprint == pytest.approx(values["blueprint"] / mass, abs=1e-6)
    assert edge.searched == pytest.approx(values["searched"] / mass, abs=1e-4)


class _SolvedFirstRound:
    """Brute force's policy for the searched turn: the re-solved strategy in the next-to-last round (in
    Leduc the first), the blueprint after it."""

    def __init__(self, solved, search, blueprint) -> None:
        self.solved, self.search, self.blueprint = solved, search, blueprint

    def policy(self, view: View) -> dict[str, float]:
        if view.round > 0:
            return self.blueprint.policy(view)
        state = State.initial(LEDUC).apply_betting(view.betting)
        node = self.solved.node_of(state)
        column = np.array([self.search.holdings.index(tuple(view.hole))])
        return {k: float(v[0]) for k, v in self.solved.letters(node, column).items()}


@pytest.mark.parametrize("betting", ["", "r", "rr"])
def test_turn_values_agree_with_brute_force_over_every_deal_and_last_card(leduc_strategy, betting):
    """``turn_edge`` from a decision of the next-to-last round (Leduc's first): the re-solved round
    then the blueprint, and the blueprint throughout, against the blueprint, over every pair of
    holdings and every last card, equal playing out every deal."""
    searching = make_agent("cfr", LEDUC, {"strategy": leduc_strategy, "budget_ms": 60_000, "turn_budget_ms": 60_000,
                                          "search_iterations": 40, "seed": 1, "turn": "on"})
    blueprint = make_agent("cfr", LEDUC, {"strategy": leduc_strategy, "search": "off"})
    holdings = game_holdings(LEDUC)
    cards = [tuple(int(c) for c in row) for row in holdings.cards]
    state = State.initial(LEDUC, (cards[0], cards[1]), (cards[2][0],)).apply_betting(betting)
    me = state.current_player
    searching._follow(View.of(state, me, 0))
    search = searching.search
    edge = turn_edge(search, searching._steps, searching._real, searching._node, me, (), searching._abstract)
    assert edge is not None and edge.unmatched == 0
    solved = search.solve(searching._steps, {}, searching._real, searching._node, me, ())
    ours = _SolvedFirstRound(solved, search, blueprint)
    values = {"searched": 0.0, "blueprint": 0.0}
    mass = 0.0
    for i, j in itertools.permutations(range(len(cards)), 2):
        if set(cards[i]) & set(cards[j]):
            continue
        holes = [None, None]
        holes[me], holes[1 - me] = cards[i], cards[j]
        w = _history_probability(blueprint, State.initial(LEDUC, tuple(holes), ()).apply_betting(betting), tuple(holes), 1)
        if w <= 0:
            continue
        mass += w
        lasts = [c for c in holdings.deck if c not in cards[i] + cards[j]]
        for last in lasts:
            dealt = State.initial(LEDUC, tuple(holes), (last,)).apply_betting(betting)
            values["blueprint"] += w / len(lasts) * _play_out(blueprint, blueprint, dealt, me, 2)
            values["searched"] += w / len(lasts) * _play_out(ours, blueprint, dealt, me, 3)
    assert edge.blueprint == pytest.approx(values["blueprint"] / mass, abs=1e-6)
    assert edge.searched == pytest.approx(values["searched"] / mass, abs=1e-4)
    if betting != "rr":  # facing the re-raise, with its folds capped at the blueprint's, the re-solve is worth what the blueprint is
        assert edge.searched != pytest.approx(edge.blueprint, abs=1e-3)  # the re-solve plays otherwise: a real check


def test_no_search_no_edge(leduc_strategy):
    """Zero budget is no search: ``river_edge`` then has nothing to measure."""
    zero = make_agent("cfr", LEDUC, {"strategy": leduc_strategy, "budget_ms": 0, "seed": 1})
    state = State.initial(LEDUC, ((42,), (46,)), (50,)).apply_betting("rc/")
    zero._follow(View.of(state, state.current_player, 0))
    assert river_edge(zero.search, zero._steps, zero._real, zero._node, state.current_player, (50,), zero._abstract) is None


def test_sampled_edges_are_reproducible_and_mostly_not_worse(leduc_strategy):
    """Sampled situations of blueprint-against-blueprint play: the same seed gives the same values;
    re-solving with the gadget is no more exploitable within the subgame than the blueprint."""
    options = {"budget_ms": 60_000, "search_iterations": 80}
    edges = sample_edges(LEDUC, 40, 7, {"a": options}, strategy=leduc_strategy)["a"]
    again = sample_edges(LEDUC, 40, 7, {"b": options, "off": {**options, "gadget": "off"}}, strategy=leduc_strategy)
    assert len(edges) >= 10 and len(again["off"]) == len(edges)
    assert [e.gain for e in edges] == [e.gain for e in again["b"]]
    exploit_s = np.mean([e.exploit_searched for e in edges])
    exploit_b = np.mean([e.exploit_blueprint for e in edges])
    assert exploit_s <= exploit_b + 0.01


def test_a_gadget_margin_lowers_every_alternative_by_that_share_of_the_pot(leduc_strategy):
    """``gadget_margin``: each opponent holding's alternative drops by the margin times the real pot
    (counterfactual: times our reach over the holdings it does not block); so the re-solved strategy
    may give it up to that much more than the blueprint did."""
    state = State.initial(LEDUC, ((42,), (46,)), (50,)).apply_betting("rc/")
    me = state.current_player
    out = []
    for margin in (0.0, 0.1):
        agent = make_agent("cfr", LEDUC, {"strategy": leduc_strategy, "gadget_margin": margin, "seed": 1})
        agent._follow(View.of(state, me, 0))
        search = agent.search
        ranked = search._ranked_board((50,))
        reach = search.ranges(agent._steps, {}, (50,), ranked.blocked)
        out.append((search._alternatives(agent._real, agent._node, 1 - me, me, reach, (50,), ranked), reach))
    (plain, reach), (lowered, _) = out
    ours = disjoint_reach(game_holdings(LEDUC), reach[me][None, :])[0]
    assert np.allclose(plain - lowered, 0.1 * state.pot() * ours)


def test_the_reach_gadget_adds_the_opponent_s_gift_at_its_last_decision(leduc_strategy):
    """``gadget=reach``: after an opponent's on-tree action this round, each holding's alternative is
    its blueprint value plus what its best action there would have got more than the one it took
    (never negative, positive for some holding of a coarse blueprint); without that action, the
    blueprint's value alone."""
    state = State.initial(LEDUC, ((42,), (46,)), (50,)).apply_betting("rc/r")
    me = state.current_player
    found = {}
    for gadget in ("blueprint", "reach"):
        agent = make_agent("cfr", LEDUC, {"strategy": leduc_strategy, "gadget": gadget, "seed": 1})
        agent._follow(View.of(state, me, 0))
        search, last = agent.search, agent._steps[-1]
        ranked = search._ranked_board((50,))
        reach = search.ranges(agent._steps, {}, (50,), ranked.blocked)
        found[gadget] = search._alternatives(agent._real, agent._node, 1 - me, me, reach, (50,), ranked, last)
        if gadget == "reach":
            earlier = search._blueprint_values(last.real, last.node, 1 - me, me, reach, (50,), ranked)
            assert search._alternatives(agent._real, agent._node, 1 - me, me, reach, (50,), ranked) == pytest.approx(found["blueprint"])
    live = reach[1 - me] > 0
    gift = earlier[1:].max(axis=0) - earlier[1 + 1]  # the opponent raised: the second action of Leduc's check, raise
    assert np.allclose(found["reach"] - found["blueprint"], np.maximum(gift, 0.0), atol=1e-9)
    assert (found["reach"][live] >= found["blueprint"][live] - 1e-9).all() and (found["reach"][live] > found["blueprint"][live] + 1e-6).any()

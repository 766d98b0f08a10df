"""Agents that play a solved tree (cfr, equilibrium) on a custom no-limit game meet opponents' sizes
the tree lacks (it raises only the minimum or all-in): they play on, at the tree's nearest state."""

from __future__ import annotations

import random

import pytest

from showdown.agents.base import View
from showdown.agents.cfr import CFRAgent
from showdown.agents.equilibrium import EquilibriumAgent
from showdown.agents.tree_betting import played_action, tree_state
from showdown.games.cards import parse_cards
from showdown.games.catalog import get_game
from showdown.games.gamedef import parse_gamedef
from showdown.games.state import Action, ActionKind, State
from tests.agents.test_policy_matches_act import random_decisions

SMALL_NOLIMIT = parse_gamedef(
    "GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 2\nstack = 20 20\nblind = 1 2\nfirstPlayer = 1 1\n"
    "numSuits = 2\nnumRanks = 3\nnumHoleCards = 1\nnumBoardCards = 0 1\nEND GAMEDEF\n", name="small-nolimit")


@pytest.fixture(scope="module")
def agents() -> list[object]:
    return [CFRAgent(SMALL_NOLIMIT, iterations=60, cache=False, seed=3), EquilibriumAgent.create(SMALL_NOLIMIT, seed=3)]


def _view(betting: str) -> View:
    hole, board = parse_cards("Kh"), parse_cards("Qh")
    state = State.initial(SMALL_NOLIMIT, [hole, parse_cards("Ks")], board).apply_betting(betting)
    return View.of(state, state.current_player)


def test_every_decision_after_any_size_is_a_legal_action_and_policy_agrees(agents: list[object]) -> None:
    # the cfr agent exited at the first size off its tree ("the strategy has no information set 'Kh:Qh/cc/cr17'")
    views = random_decisions(SMALL_NOLIMIT, random.Random(5), 200)
    assert any(tree_state(v) is not None and tree_state(v).betting != v.betting for v in views)  # off-tree ones met
    for agent in agents:
        for view in views:
            action = agent.act(view)  # type: ignore[attr-defined]
            assert view.public.why_illegal(action) is None, (agent, view.betting, action)
            policy = agent.policy(view)  # type: ignore[attr-defined]
            assert abs(sum(policy.values()) - 1) < 1e-9
            legal = {"fcr"[a.kind] for a in view.legal_actions()}
            assert {k for k, p in policy.items() if p > 0} <= legal, (agent, view.betting, policy)


def test_on_the_tree_nothing_changes_and_sizes_map_to_their_neighbours() -> None:
    for betting in ("", "c", "cr4", "cr20", "cc/", "cc/r4", "r4r6"):  # only minimum raises and all-ins
        view = _view(betting)
        tree = tree_state(view)
        assert tree is not None and tree.betting == view.betting
    assert tree_state(_view("cr5")).betting == "cr4"  # just above the minimum: the minimum
    assert tree_state(_view("cr19")).betting == "cr20"  # just below all-in: all-in
    assert tree_state(_view("cc/r17")).betting == "cc/r20"


def test_the_trees_answer_is_played_on_the_real_state() -> None:
    view = _view("cc/r17")  # the tree sees an all-in; the real raise leaves 3 chips behind
    tree = tree_state(view)
    assert tree is not None
    assert played_action(view, tree, Action(ActionKind.CALL)) == Action(ActionKind.CALL)
    assert played_action(view, tree, Action(ActionKind.FOLD)) == Action(ActionKind.FOLD)
    raised = played_action(_view("cr5"), tree_state(_view("cr5")), Action(ActionKind.RAISE, 20))  # type: ignore[arg-type]
    assert raised == Action(ActionKind.RAISE, 20)  # the tree's all-in is the real all-in


def test_limit_games_keep_their_own_state() -> None:
    state = State.initial(get_game("leduc"), [parse_cards("Kh"), parse_cards("Qs")], parse_cards("Jh"))
    view = View.of(state.apply_betting("rr"), 0)
    assert tree_state(view) is view.public

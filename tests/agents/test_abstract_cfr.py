"""The ``cfr`` agent in hold'em: a shipped abstract strategy, legal actions everywhere, translation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.agents.abstract_cfr import AbstractCFRAgent
from showdown.agents.base import View
from showdown.agents.registry import make_agent
from showdown.errors import ConfigError
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import Action, ActionKind, State
from showdown.solvers.abstraction import RankAbstraction
from showdown.solvers.pcs import PCSSolver

LIMIT = get_game("holdem-limit")
NOLIMIT = get_game("holdem-nolimit")


@pytest.fixture(scope="module")
def agents() -> dict[str, AbstractCFRAgent]:
    return {g.name: make_agent("cfr", g, {"seed": 1}) for g in (LIMIT, NOLIMIT)}  # type: ignore[misc]


def _wild(state: State, rng: np.random.Generator) -> Action:
    """A random legal action; no-limit raises of any size (mostly off the abstract tree)."""
    options = state.legal_actions()
    a = options[rng.integers(len(options))]
    if a.kind is ActionKind.RAISE and state.game.is_nolimit:
        lo, hi = state.raise_bounds()  # type: ignore[misc]
        return Action(ActionKind.RAISE, int(rng.integers(lo, hi + 1)))
    return a


@pytest.mark.parametrize("game", [LIMIT, NOLIMIT], ids=["limit", "nolimit"])
def test_plays_legal_actions_against_wild_bets(agents, game):
    agent = agents[game.name]
    rng = np.random.default_rng(5)
    deck = list(range(52))
    for hand in range(60):
        cards = [deck[i] for i in rng.permutation(52)]
        me = hand % 2
        state = State.initial(game, (tuple(cards[0:2]), tuple(cards[2:4])), tuple(cards[4:9]))
        while not state.is_terminal:
            p = state.current_player
            if p == me:
                action = agent.act(View.of(state, p, hand))
                assert state.why_illegal(action) is None, (state.betting, action)
            else:
                action = _wild(state, rng)
            state = state.apply(action)


def _wild_state(data: st.DataObject) -> tuple[GameDef, int, np.random.Generator, State]:
    """A hand state reached by wild bets from a random deal (it may be terminal)."""
    game = data.draw(st.sampled_from([LIMIT, NOLIMIT]))
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    cards = [int(c) for c in rng.permutation(52)]
    state = State.initial(game, (tuple(cards[0:2]), tuple(cards[2:4])), tuple(cards[4:9]))
    for _ in range(data.draw(st.integers(0, 10))):
        if state.is_terminal:
            break
        state = state.apply(_wild(state, rng))
    return game, seed, rng, state


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_reachable_state_gets_a_legal_action_and_a_policy(agents, data):
    game, seed, rng, state = _wild_state(data)
    if state.is_terminal:
        return
    agent = agents[game.name]
    view = View.of(state, state.current_player, 10_000 + seed)
    policy = agent.policy(view)
    assert abs(sum(policy.values()) - 1) < 1e-6
    assert state.why_illegal(agent.act(view)) is None


def test_the_shipped_strategies_are_small_and_named():
    data = Path(__file__).resolve().parents[2] / "showdown" / "solvers" / "data"
    assert {"holdem-limit.pcs.npz", "holdem-nolimit.pcs.npz", "holdem-flop-ehs2.npz"} <= {f.name for f in data.iterdir()}
    assert sum(f.stat().st_size for f in data.iterdir()) < 20e6  # every shipped data file: the budget is 20 MB


def test_blueprint_v1_plays_the_nolimit_strategy_shipped_before_issue_32():
    current = make_agent("cfr", NOLIMIT, {"search": "off"})
    v1 = make_agent("cfr", NOLIMIT, {"search": "off", "blueprint": "v1"})
    assert isinstance(current, AbstractCFRAgent) and isinstance(v1, AbstractCFRAgent)
    assert v1.strategy.meta["iterations"] == 1467  # issue 25's probe figures were measured on it
    assert current.strategy.layout.num_infosets > 3 * v1.strategy.layout.num_infosets  # the wider tree (1/4 pot, a third sized raise)
    with pytest.raises(ConfigError, match="no shipped blueprint 'v9'.*have: current, v1"):
        make_agent("cfr", NOLIMIT, {"blueprint": "v9"})
    with pytest.raises(ConfigError, match="not both"):
        make_agent("cfr", NOLIMIT, {"blueprint": "v1", "strategy": "x.pcs.npz"})
    with pytest.raises(ConfigError, match="blueprint is for the abstract hold'em strategy"):
        make_agent("cfr", get_game("kuhn"), {"blueprint": "v1"})


def test_strategy_file_option_and_bad_options(tmp_path):
    leduc = get_game("leduc")
    solver = PCSSolver(leduc, RankAbstraction(leduc), exhaustive=True)
    solver.iterate(20)
    path = solver.strategy().save(tmp_path / "leduc.pcs.npz")
    agent = make_agent("cfr", leduc, {"strategy": str(path), "seed": 3})
    assert isinstance(agent, AbstractCFRAgent)
    with pytest.raises(ConfigError, match="not holdem-limit|strategy is for"):
        make_agent("cfr", LIMIT, {"strategy": str(path)})
    with pytest.raises(ConfigError, match="do not apply"):
        make_agent("cfr", LIMIT, {"iterations": 5})
    with pytest.raises(ConfigError, match="cannot read|strategy"):
        make_agent("cfr", LIMIT, {"strategy": str(tmp_path / "missing.pcs.npz")})


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_range_policy_is_policy_for_every_holding_at_once(agents, data):
    """The batched ask LBR uses answers exactly what ``policy`` answers holding by holding."""
    game, seed, rng, state = _wild_state(data)
    if state.is_terminal:
        return
    agent = agents[game.name]
    view = View.of(state, state.current_player, 20_000 + seed)
    free = [c for c in range(52) if c not in view.board]
    hands = np.array([sorted(rng.choice(free, 2, replace=False).tolist()) for _ in range(12)])
    batch = agent.range_policy(view, hands)
    for k, hole in enumerate(hands):
        one = agent.policy(View(game, view.position, view.hand, view.public, tuple(int(c) for c in hole), view.board, view.betting))
        assert set(one) == {key for key in batch if len(key) == 1}
        for letter, p in one.items():
            assert abs(batch[letter][k] - p) < 1e-12, (letter, hole, view.betting)
    sized = [key for key in batch if len(key) > 1]
    assert all(key[0] == "r" for key in sized) and (not sized or game.is_nolimit)
    if sized:  # each raise size's probability, summing to the raise's
        assert np.allclose(sum(batch[key] for key in sized), batch["r"], atol=1e-12)


def test_an_evaluator_looking_ahead_and_back_finds_the_walk_it_left() -> None:
    """LBR asks about a raise it might make, then about the real state again: the agent keeps the walk
    it made up to there (its random translation of off-tree bets is not drawn again), and the range
    table of a walk is computed once."""
    agent = make_agent("cfr", NOLIMIT, {"search": "off", "seed": 5})
    hands = np.array([[0, 5], [1, 9], [12, 40]])
    for hand in range(40):
        here = State.initial(NOLIMIT).apply_betting("r250r1000")  # both off the tree: translated at random
        view = View(NOLIMIT, here.current_player, hand, here, (0, 5), (), here.betting)
        first = agent.range_policy(view, hands)
        walk = agent._abstract.betting
        ahead = here.apply(Action(ActionKind.RAISE, 2500))
        agent.range_policy(View(NOLIMIT, ahead.current_player, hand, ahead, (2, 7), (), ahead.betting), hands)
        assert agent.range_policy(view, hands) is first and agent._abstract.betting == walk


def test_a_custom_holdem_game_without_a_strategy_is_told_the_solve_command_that_takes_it(tmp_path: Path) -> None:
    # the hint said 'showdown solve cfr lim_odd', an unknown game there: the file's name is what solve takes
    shipped = Path(__file__).parents[2] / "showdown/games/data/holdem.limit.2p.reverse_blinds.game"
    game_file = tmp_path / "lim_odd.game"
    game_file.write_text(shipped.read_text().replace("blind = 10 5", "blind = 7 3"))
    with pytest.raises(ConfigError, match=r"'showdown solve cfr lim_odd\.game -o FILE\.pcs\.npz'"):
        make_agent("cfr", get_game(str(game_file)), {})

"""Agents in 3-player games: cfr (trained, cached or shipped), equilibrium (the published family)."""

from __future__ import annotations

import pytest

from showdown.agents.cfr import CFRAgent, shipped_strategy
from showdown.agents.registry import make_agent
from showdown.errors import ConfigError
from showdown.games.catalog import get_game
from showdown.solvers.multiplayer import build_ntree, evaluate
from showdown.solvers.strategy import Strategy, ntree_sigma, ntree_strategy


def test_cfr_plays_kuhn3p_near_equilibrium(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SHOWDOWN_CACHE", str(tmp_path))
    game = get_game("kuhn3p")
    agent = make_agent("cfr", game, {"iterations": 400})
    assert isinstance(agent, CFRAgent)
    tree = build_ntree(game)
    assert evaluate(tree, ntree_sigma(tree, agent.strategy)).nash_conv < 1e-3


def test_leduc3p_default_is_the_shipped_strategy() -> None:
    game = get_game("leduc3p")
    shipped = shipped_strategy(game)
    assert shipped is not None
    tree = build_ntree(game)
    assert set(shipped.table) == set(tree.infoset_keys)
    assert evaluate(tree, ntree_sigma(tree, shipped)).nash_conv < 0.005
    agent = make_agent("cfr", game, {})
    assert isinstance(agent, CFRAgent) and agent.strategy.table == shipped.table


def test_cfr_refuses_a_strategy_missing_positions() -> None:
    game = get_game("kuhn3p")
    tree = build_ntree(game)
    partial = ntree_strategy(tree, tree.uniform(), players=(0, 1))
    with pytest.raises(ConfigError, match="every position"):
        CFRAgent(game, strategy=partial)


def test_equilibrium_on_kuhn3p_is_a_family_member() -> None:
    game = get_game("kuhn3p")
    agent = make_agent("equilibrium", game, {"b11": 0.1, "b21": 0.2, "b32": 0.3, "c33": 0.4})
    tree = build_ntree(game)
    strategy = Strategy(game, agent.strategy_table(game))
    ev = evaluate(tree, ntree_sigma(tree, strategy))
    assert ev.nash_conv < 1e-12 and ev.values[0] < -1 / 48 - 1e-3
    with pytest.raises(ConfigError, match="b32"):
        make_agent("equilibrium", game, {"b32": 0.9})
    with pytest.raises(ConfigError, match="kuhn3p only"):
        make_agent("equilibrium", get_game("kuhn"), {"c11": 0.1})

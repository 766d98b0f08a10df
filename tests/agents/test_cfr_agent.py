"""The ``cfr`` agent: plays a strategy file or a cached CFR+ solution, with its own seeded generator."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from showdown.agents.base import View
from showdown.agents.registry import make_agent
from showdown.errors import ConfigError
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import State
from showdown.solvers.best_response import exploitability
from showdown.solvers.cfr import cfr_plus
from showdown.solvers.strategy import Strategy, save_strategy
from showdown.solvers.tree import build_tree


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SHOWDOWN_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _play(game: GameDef, agents: list, hands: int, seed: int) -> list[State]:
    """Deal ``hands`` hands with a seeded shuffle and let the agents act through their views."""
    rng = np.random.default_rng(seed)
    deck = list(build_tree(game).deck)
    done = []
    for h in range(hands):
        cards = [deck[i] for i in rng.permutation(len(deck))]
        hole = tuple(tuple(cards[p * game.num_hole_cards : (p + 1) * game.num_hole_cards]) for p in range(2))
        board = tuple(cards[2 * game.num_hole_cards : 2 * game.num_hole_cards + game.total_board_cards])
        state = State.initial(game, hole, board)
        while not state.is_terminal:
            p = state.current_player
            action = agents[p].act(View.of(state, p, h))
            assert action in state.legal_actions()
            state = state.apply(action)
        done.append(state)
    return done


@pytest.mark.parametrize("game_name", ["kuhn", "kuhn-13", "leduc"])
def test_trains_caches_and_plays_legal_actions(game_name: str, cache: Path) -> None:
    game = get_game(game_name)
    agent = make_agent("cfr", game, {"seed": 1})
    assert exploitability(game, agent.strategy) <= 1e-4  # type: ignore[attr-defined]
    cached = list((cache / "strategies").glob("*.strategy.json"))
    assert len(cached) == 1 and "cfr+" in cached[0].name
    again = make_agent("cfr", game, {"seed": 1})  # from the cache now
    assert again.strategy.table == agent.strategy.table  # type: ignore[attr-defined]
    _play(game, [agent, again], 30, seed=3)


def test_the_cache_is_keyed_by_algorithm_and_budget(cache: Path) -> None:
    game = get_game("kuhn")
    make_agent("cfr", game, {"iterations": "50"})
    make_agent("cfr", game, {"iterations": 60, "algorithm": "dcfr"})
    names = sorted(p.name for p in (cache / "strategies").glob("*.json"))
    assert len(names) == 2 and any("cfr+-it50" in n for n in names) and any("dcfr-it60" in n for n in names)


def test_plays_a_strategy_file(tmp_path: Path) -> None:
    game = get_game("leduc")
    strategy = cfr_plus(game, 100).average_strategy()
    path = save_strategy(strategy, tmp_path / "leduc.json")
    agent = make_agent("cfr", game, {"strategy": str(path), "seed": 2})
    assert agent.strategy.table == strategy.table  # type: ignore[attr-defined]
    assert agent.strategy_table() == strategy.table
    _play(game, [agent, agent], 20, seed=1)


def test_the_same_seed_plays_the_same_actions(tmp_path: Path) -> None:
    game = get_game("kuhn")
    path = save_strategy(cfr_plus(game, 30).average_strategy(), tmp_path / "k.json")

    def history(seed: int) -> list[str]:
        a = make_agent("cfr", game, {"strategy": str(path), "seed": seed})
        b = make_agent("cfr", game, {"strategy": str(path), "seed": seed + 100})
        return [s.betting for s in _play(game, [a, b], 60, seed=0)]

    assert history(5) == history(5)
    assert history(5) != history(6)


def test_samples_with_the_strategy_probabilities(tmp_path: Path) -> None:
    game = get_game("kuhn")
    tree = build_tree(game)
    table = {k: {a: 1.0 / len(tree.legal_actions(k)) for a in tree.legal_actions(k)} for k in tree.infoset_keys()}
    table["Ks:/"] = {"c": 0.25, "r": 0.75}
    path = save_strategy(Strategy(game, table), tmp_path / "k.json")
    agent = make_agent("cfr", game, {"strategy": str(path), "seed": 9})
    state = State.initial(game, ((game_card("Ks"),), (game_card("Qs"),)), ())
    raises = sum(agent.act(View.of(state, 0)).is_raise for _ in range(4000))
    assert 2850 < raises < 3150


def game_card(text: str) -> int:
    from showdown.games.cards import parse_card

    return parse_card(text)


def test_three_player_holdem_is_refused_at_start() -> None:
    # heads-up hold'em is played through an abstraction (tests/agents/test_abstract_cfr.py)
    with pytest.raises(ConfigError, match="agent 'cfr' cannot play holdem-limit-3p: .*too large"):
        make_agent("cfr", get_game("holdem-limit-3p"), {})


def test_bad_options_and_files_are_config_errors(tmp_path: Path) -> None:
    game = get_game("kuhn")
    with pytest.raises(ConfigError, match="algorithm 'cfr\\+\\+'"):
        make_agent("cfr", game, {"algorithm": "cfr++"})
    with pytest.raises(ConfigError, match="has no option 'target'"):
        make_agent("cfr", game, {"target": 1})
    with pytest.raises(ConfigError, match="cannot read strategy file"):
        make_agent("cfr", game, {"strategy": str(tmp_path / "missing.json")})
    leduc = save_strategy(cfr_plus(get_game("leduc"), 2).average_strategy(), tmp_path / "leduc.json")
    with pytest.raises(ConfigError, match="not kuhn"):
        make_agent("cfr", game, {"strategy": str(leduc)})
    half = cfr_plus(game, 5).average_strategy().for_player(0)
    with pytest.raises(ConfigError, match="lacks 6 of 12 information sets"):
        make_agent("cfr", game, {"strategy": str(save_strategy(half, tmp_path / "half.json"))})


def test_a_damaged_cache_entry_is_retrained(cache: Path) -> None:
    game = get_game("kuhn")
    make_agent("cfr", game, {"iterations": 20})
    (entry,) = (cache / "strategies").glob("*.json")
    entry.write_text("{broken", encoding="utf-8")
    agent = make_agent("cfr", game, {"iterations": 20})
    assert len(agent.strategy) == 12  # type: ignore[attr-defined]
    assert json.loads(entry.read_text(encoding="utf-8"))["format"] == "showdown-strategy"

"""The agent registry and the ``agent`` command line."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from showdown.agents import Agent, View, agent_names, make_agent, register_agent
from showdown.agents.registry import BUILTIN_AGENTS, check_options, is_known_agent, take_options
from showdown.cli.agent import main as agent_main
from showdown.cli.agent import parse_option
from showdown.errors import ConfigError
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, Action
from tests.agents.fake_dealer import FakeDealer


def test_the_baselines_are_registered() -> None:
    assert {"random", "call", "bluff", "rules"} <= set(agent_names())
    for name in ("random", "call", "bluff", "rules"):
        agent = make_agent(name, get_game("kuhn"), {"seed": 1})
        assert agent.name == name and agent.game is get_game("kuhn")


def test_an_unknown_agent_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown agent 'nobody': known agents are .*random.*rules"):
        make_agent("nobody", get_game("kuhn"))
    assert not is_known_agent("nobody")


def test_options_are_checked_and_converted() -> None:
    agent = make_agent("random", get_game("holdem-nolimit"), {"seed": "7", "sizing": "pot"})
    assert agent.seed == 7 and agent.sizing == "pot"  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match=r"agent 'call' has no option 'speed' \(its options: seed\)"):
        make_agent("call", get_game("kuhn"), {"speed": 3})
    with pytest.raises(ConfigError, match="must be int"):
        take_options("x", {"seed": "seven"}, {"seed": int})
    assert take_options("x", {"on": "yes", "n": 2.0}, {"on": bool, "n": int}) == {"on": True, "n": 2}


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", float("nan"), float("inf")])
def test_a_float_option_that_is_no_finite_number_is_refused(value: object) -> None:
    # budget_ms=nan passed the agent's '< 0' checks and the match was played; seconds=inf trained for ever
    with pytest.raises(ConfigError, match="agent 'cfr': option 'budget_ms' must be a finite number"):
        check_options("cfr", {"budget_ms": value})
    assert take_options("cfr", {"budget_ms": "40", "seconds": 2}) == {"budget_ms": 40.0, "seconds": 2.0}


class Folder(Agent):
    name = "folder"

    def act(self, view: View) -> Action:
        return view.legal_actions()[0]


def test_other_modules_can_register_agents() -> None:
    def factory(game: GameDef, options: dict[str, Any]) -> Agent:
        return Folder(game)

    register_agent("test-folder", factory, "folds when it can")
    assert "test-folder" in agent_names()
    assert isinstance(make_agent("test-folder", get_game("kuhn")), Folder)


def test_a_module_path_loads_any_agent_class() -> None:
    agent = make_agent("tests.agents.test_registry:Folder", get_game("kuhn"), {"seed": 3})  # seed dropped
    assert isinstance(agent, Folder)
    with pytest.raises(ConfigError, match="cannot load"):
        make_agent("tests.agents.test_registry:Nothing", get_game("kuhn"))


def test_parse_option() -> None:
    assert parse_option("sizing=pot") == ("sizing", "pot")
    assert parse_option("n=3") == ("n", 3)
    assert parse_option("x=0.5") == ("x", 0.5)
    assert parse_option("flag=true") == ("flag", True)
    with pytest.raises(ConfigError, match="KEY=VALUE"):
        parse_option("oops")


def test_agent_command_plays_a_match() -> None:
    game = get_game("kuhn")
    dealer = FakeDealer(game, 50, seed=1).start()
    threads = [
        threading.Thread(target=agent_main, args=(["rules", "--game", "kuhn", "127.0.0.1", str(dealer.ports[0])],)),
        threading.Thread(
            target=agent_main, args=(["random", "--game", "kuhn", "--seed", "3", "-o", "sizing=pot", "127.0.0.1", str(dealer.ports[1])],)
        ),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    dealer.join()
    assert all(len(r) > 0 for r in dealer.received)


def test_agent_command_errors_are_one_line_and_status_2() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "showdown.cli.agent", "nobody", "--game", "kuhn", "127.0.0.1", "9"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 2
    assert run.stderr.startswith("showdown agent: error: unknown agent 'nobody'")
    assert len(run.stderr.strip().splitlines()) == 1
    run = subprocess.run(
        [sys.executable, "-m", "showdown.cli.agent", "call", "--game", "nogame", "127.0.0.1", "9"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 2 and "unknown game 'nogame'" in run.stderr


def test_a_custom_agent_needs_only_act() -> None:
    class Caller(Agent):
        def act(self, view: View) -> Action:
            return CALL

    game = get_game("leduc")
    dealer = FakeDealer(game, 20).start()
    from showdown.agents import play

    results: list[Any] = []
    t = threading.Thread(target=lambda: results.append(play(Caller(), "127.0.0.1", dealer.ports[0], game)))
    t.start()
    play(make_agent("call", game), "127.0.0.1", dealer.ports[1], game)
    t.join(30)
    dealer.join()
    assert results[0].hands == 20 and results[0].total is None


def test_every_built_in_agent_declares_its_options_and_they_are_checked_without_building_it(tmp_path) -> None:
    game = get_game("kuhn")
    for name, entry in BUILTIN_AGENTS.items():
        assert "seed" in entry.options, name  # the runner always passes one
        check_options(name, {"seed": "3"})
        with pytest.raises(ConfigError, match=f"agent {name!r} has no option 'speed'"):
            check_options(name, {"speed": 1})
        with pytest.raises(ConfigError, match=f"agent {name!r} has no option 'speed'"):
            make_agent(name, game, {"speed": 1})  # the factory takes the same table
    with pytest.raises(ConfigError, match="option 'iterations' must be int"):
        check_options("cfr", {"iterations": "many"})
    with pytest.raises(ConfigError, match="strategy file .*missing.json does not exist"):
        check_options("equilibrium", {"strategy": str(tmp_path / "missing.json")})
    (tmp_path / "there.json").write_text("{}")
    check_options("exploiter", {"opponent_strategy": str(tmp_path / "there.json")})


def test_a_misspelt_agent_is_given_the_nearest_name() -> None:
    for typo, near in (("equilibrum", "equilibrium"), ("Rules", "rules"), ("never_bluff", "never-bluff"), ("cfrr", "cfr")):
        with pytest.raises(ConfigError, match=rf"unknown agent '{typo}': did you mean '{near}'\? known agents are"):
            make_agent(typo, get_game("kuhn"))


def test_a_bot_passing_its_kwargs_on_to_agent_is_made_with_the_runners_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # def __init__(self, *args, **kwargs): super().__init__(*args, **kwargs) -- check-bot and match passed
    # seed=0 on to Agent.__init__: "bad options {'seed': 0}", the bot never started (LBR, which passes none, played it)
    from showdown.agents.registry import make_agent_here

    (tmp_path / "kw_bot.py").write_text(
        "from showdown.agents import CALL, Agent\n"
        "class KwBot(Agent):\n"
        "    def __init__(self, *args, **kwargs):\n        super().__init__(*args, **kwargs)\n        self.ready = True\n"
        "    def act(self, view):\n        return CALL\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = make_agent_here("kw_bot:KwBot", get_game("kuhn"), {"seed": 0})
    assert bot.ready
    with pytest.raises(ConfigError, match=r"^agent 'kw_bot:KwBot': bad options \{'depth': 3\}: .*'depth'"):
        make_agent_here("kw_bot:KwBot", get_game("kuhn"), {"seed": 0, "depth": 3})

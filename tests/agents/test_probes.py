"""The probe opponents: each plays the line its name promises, is an ordinary built-in agent, and
``showdown exploit --probes`` plays them all against any bot (a bot file here) in duplicate."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.agents.base import View
from showdown.agents.probes import PROBES, raises_this_round
from showdown.agents.registry import BUILTIN_AGENTS, make_agent
from showdown.games.cards import parse_cards
from showdown.games.catalog import get_game
from showdown.games.state import Action, ActionKind, State

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


BOARD = "Ah9s4c5d6h"


def _flop(hero: str, other: str = "KsKd") -> tuple[State, list[list[int]]]:
    """Heads-up no-limit after a raise to 200 called: the flop with ``hero`` first to act, and the holes."""
    game = get_game("holdem-nolimit")
    holes = [list(parse_cards(hero)), list(parse_cards(other))]
    if game.first_player[1] != 0:
        holes.reverse()
    state = State.initial(game, holes, list(parse_cards(BOARD)))
    return state.apply(Action(ActionKind.RAISE, 200)).apply(Action(ActionKind.CALL)), holes


def test_every_probe_is_a_built_in_agent_of_every_two_player_game() -> None:
    assert set(PROBES) <= set(BUILTIN_AGENTS)
    for game_name in ("kuhn", "leduc", "holdem-limit", "holdem-nolimit"):
        for name in PROBES:
            assert make_agent(name, get_game(game_name), {"seed": 1}).name == name


def test_the_third_raise_probe_min_raises_first_and_third_and_calls_the_second() -> None:
    game = get_game("holdem-nolimit")
    agent = make_agent("probe-third-raise", game, {})
    state, holes = _flop("AsAd")
    view = View.of(state, state.current_player)
    assert raises_this_round(view) == 0
    lo = state.raise_bounds()
    assert lo is not None and agent.act(view) == Action(ActionKind.RAISE, lo[0])
    state = state.apply(Action(ActionKind.RAISE, lo[0]))  # the probe's first raise
    state = state.apply(Action(ActionKind.RAISE, 800))  # raised by the other seat: the second
    view = View.of(state, state.current_player)
    assert raises_this_round(view) == 2
    bounds = state.raise_bounds()
    assert bounds is not None and agent.act(view) == Action(ActionKind.RAISE, bounds[0])  # the third: a min-raise
    second = State.initial(game, holes, list(parse_cards(BOARD))).apply(Action(ActionKind.RAISE, 200))
    second = second.apply(Action(ActionKind.CALL)).apply(Action(ActionKind.CALL)).apply(Action(ActionKind.RAISE, 500))
    assert agent.act(View.of(second, second.current_player)).kind is ActionKind.CALL  # facing the first raise: calls


@pytest.mark.parametrize("name, low, high", [("probe-tiny", 0.1, 1 / 3), ("probe-odd", 0.3, 3.5), ("probe-jam", None, None)])
def test_sized_probes_bet_their_sizes(name: str, low: float | None, high: float | None) -> None:
    game = get_game("holdem-nolimit")
    agent = make_agent(name, game, {"seed": 3})
    state, _ = _flop("AsAd", "7c2d")
    view = View.of(state, state.current_player)
    pot = state.pot()
    seen = set()
    for _ in range(60):
        action = agent.act(view)
        assert action.kind is ActionKind.RAISE
        if low is None:
            assert action.size == game.stack[0]
            continue
        fraction = (action.size - state.max_spent) / pot
        assert low - 0.01 <= fraction <= high + 0.01
        seen.add(round(fraction, 2))
    if name == "probe-odd":
        assert seen == {0.3, 1.7, 3.5}


def test_the_check_raiser_checks_then_raises_when_bet_into() -> None:
    game = get_game("holdem-nolimit")
    agent = make_agent("probe-checkraise", game, {})
    state, _ = _flop("AsAd", "7c2d")
    assert agent.act(View.of(state, state.current_player)).kind is ActionKind.CALL  # checks
    state = state.apply(Action(ActionKind.CALL)).apply(Action(ActionKind.RAISE, 400))
    action = agent.act(View.of(state, state.current_player))
    assert action.kind is ActionKind.RAISE and action.size == 400 + 200 + 400 + 200  # a pot-size raise


def test_exploit_probes_plays_an_outside_bot_file_and_resumes(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "showdown", "exploit", "--probes", "--agent", str(EXAMPLES / "my_bot.py"), "--game", "leduc",
               "--hands", "40", "--seed", "2", "--out", str(tmp_path), "--json"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert [p["name"] for p in doc["probes"]] == list(PROBES)
    assert doc["best"]["mbb"] == max(p["mbb"] for p in doc["probes"])
    for p in doc["probes"]:
        assert p["ci95_mbb"][0] <= p["mbb"] <= p["ci95_mbb"][1] and p["hands"] == 80
    again = subprocess.run(command, capture_output=True, text=True, timeout=120)  # every match kept: nothing replayed
    assert again.returncode == 0 and json.loads(again.stdout)["probes"] == doc["probes"]
    bad = subprocess.run([sys.executable, "-m", "showdown", "exploit", "--probes", "--game", "leduc"], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "--agent" in bad.stderr and "Traceback" not in bad.stderr


def test_the_any_cards_third_raise_probe_min_raises_first_and_third_with_any_hand_and_never_folds() -> None:
    """Issue 25's bot: the third-raise line with every hand, calling the rest (what exploited the
    blueprint's old translation of a third min-raise as all-in)."""
    game = get_game("holdem-nolimit")
    agent = make_agent("probe-third-raise-any", game, {})
    state, holes = _flop("7c2d")
    lo = state.raise_bounds()
    assert lo is not None and agent.act(View.of(state, state.current_player)) == Action(ActionKind.RAISE, lo[0])
    state = state.apply(Action(ActionKind.RAISE, lo[0])).apply(Action(ActionKind.RAISE, 800))
    bounds = state.raise_bounds()
    assert bounds is not None and agent.act(View.of(state, state.current_player)) == Action(ActionKind.RAISE, bounds[0])
    second = State.initial(game, holes, list(parse_cards(BOARD))).apply(Action(ActionKind.RAISE, 200))
    second = second.apply(Action(ActionKind.CALL)).apply(Action(ActionKind.CALL)).apply(Action(ActionKind.RAISE, 5000))
    assert agent.act(View.of(second, second.current_player)).kind is ActionKind.CALL  # a big second raise: called, not folded

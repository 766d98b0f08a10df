"""The dealer's clock as agents learn it (``SHOWDOWN_TIME_LIMITS``), and the ``cfr`` search keeping to it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.agents.clock import CLOCK_ENV, DealerClock, clock_text, dealer_clock
from showdown.agents.registry import make_agent
from showdown.errors import ConfigError
from showdown.games.catalog import get_game
from showdown.matches.agent_process import agent_environment
from showdown.server.timing import DealerSettings
from tests.agents.test_search import _clicker, _play

NOLIMIT = get_game("holdem-nolimit")
ROOT = Path(__file__).resolve().parents[2]


def test_the_limits_read_from_the_environment() -> None:
    assert dealer_clock({}) == DealerClock()
    assert dealer_clock({CLOCK_ENV: clock_text(300, 60_000, 7_000)}) == DealerClock(300.0, 60_000.0, 7_000.0)
    # what cannot be read is unknown, not an error: the variable is for any bot, set by hand or not
    assert dealer_clock({CLOCK_ENV: "response_ms=abc,hand_ms=-5,per_hand_ms=nan,colour=red,response_ms"}) == DealerClock()
    assert DealerClock().decision_ms() is None and DealerClock().mean_hand_ms() is None
    assert DealerClock(response_ms=1000).decision_ms() == 450.0  # half of it, less the reserve
    assert DealerClock(response_ms=10_000, hand_ms=2_000).decision_ms() == 200.0  # a quarter of half a hand's
    assert DealerClock(response_ms=50).decision_ms() == 0.0 and DealerClock(per_hand_ms=7_000).mean_hand_ms() == 3_500


def test_a_match_hands_its_limits_to_every_agent_process() -> None:
    env = agent_environment("kuhn", DealerSettings(t_response_ms=300, t_hand_ms=5_000, t_per_hand_ms=900))
    assert dealer_clock(env) == DealerClock(300.0, 5_000.0, 900.0)
    assert CLOCK_ENV not in agent_environment("kuhn")


def test_the_search_takes_its_cap_from_the_environment_or_the_option(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CLOCK_ENV, clock_text(2_000, 60_000, 400))
    agent = make_agent("cfr", NOLIMIT, {"seed": 1})
    assert agent.search.settings.decision_ms == 950.0 and agent.search.settings.hand_ms == 200.0  # half the mean a hand
    assert make_agent("cfr", NOLIMIT, {"seed": 1, "response_ms": 0}).search.settings.decision_ms == 7_450.0  # t_hand's share
    monkeypatch.delenv(CLOCK_ENV)
    assert make_agent("cfr", NOLIMIT, {"seed": 1}).search.settings.decision_ms is None
    with pytest.raises(ConfigError, match="response_ms"):
        make_agent("cfr", NOLIMIT, {"seed": 1, "response_ms": -1})


def test_a_short_clock_plays_the_blueprint_exactly() -> None:
    """Under 400 ms a decision there is no time to search: the agent plays its blueprint at once."""
    off = make_agent("cfr", NOLIMIT, {"seed": 7, "search": "off"})
    short = make_agent("cfr", NOLIMIT, {"seed": 7, "response_ms": 300, "defend": "off", "turn": "on", "search_min_pot": 0})
    seen: list[tuple[str, str]] = []
    _play(off, _clicker, 12, 3, on_decision=lambda s, a, t: seen.append((s.betting, str(a))))
    again: list[tuple[str, str, float]] = []
    _play(short, _clicker, 12, 3, on_decision=lambda s, a, t: again.append((s.betting, str(a), t)))
    assert seen == [(b, a) for b, a, _ in again] and short.last_decision is None
    assert max(t for *_, t in again) < 0.3


def test_every_decision_keeps_under_the_dealers_time_per_decision() -> None:
    """Budgets of 5 s a decision, a dealer giving 1.2 s: each river search is cut to its share, and the
    turn (whose gadget cannot be cut short) is left to the blueprint. Before, decisions took the 5 s."""
    agent = make_agent("cfr", NOLIMIT, {"seed": 2, "response_ms": 1_200, "budget_ms": 5_000, "turn_budget_ms": 5_000,
                                        "turn": "on", "search_min_pot": 0, "hand_ms": 0})
    seconds: list[float] = []
    searched = []

    def note(state, action, took):
        seconds.append(took)
        if state.round == 3 and agent.last_decision is not None:
            searched.append(agent.last_decision)
        agent.last_decision = None

    _play(agent, _clicker, 10, 6, on_decision=note)
    assert searched and max(seconds) < 1.2


def test_a_match_with_a_short_clock_is_not_played_by_the_dealer(tmp_path: Path) -> None:
    """``--t-response 300``: the searching agent was out of time in 4 of 40 hands (the dealer folded
    for it, 'DEGRADED MATCH'), as the protocol never told it the limit."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "showdown", "match", "holdem-nolimit", "cfr", "probe-tiny", "--hands", "40",
                          "--seed", "3", "--t-response", "300", "--no-log", "--json", "--no-progress"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["replaced_hands"]["cfr"] == 0, run.stderr


def test_a_game_solved_whole_takes_the_clock_and_plays_at_once() -> None:
    """A runner gives every in-memory ``cfr`` the dealer's time per decision: in Leduc, which it plays as an
    equilibrium of the whole game, the option was refused as a search option and stopped the match."""
    agent = make_agent("cfr", get_game("kuhn"), {"seed": 1, "response_ms": 10_000})
    assert agent.game is not None

"""Built-in agents seated in memory (``in_memory``): the same dealer, logs and figures as over TCP."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from showdown.agents import registry
from showdown.agents.base import Agent
from showdown.evaluation.verify import verify_log
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, Action
from showdown.matches.config import AgentSpec, DealerSettings, MatchConfig
from showdown.matches.memory_seat import agent_options, plays_in_memory
from showdown.matches.runner import run_match

ROOT = Path(__file__).resolve().parents[2]


def _config(game: str, agents: tuple[str | AgentSpec, ...], hands: int, out: Path, **kw: Any) -> MatchConfig:
    specs = tuple(a if isinstance(a, AgentSpec) else AgentSpec(name=a) for a in agents)
    return MatchConfig(game=game, agents=specs, hands=hands, seed=21, out=out, **kw)


def _records(path: Path) -> list[dict[str, Any]]:
    """The JSON Lines records without what a clock decides (times), which two runs never share."""
    out = []
    for line in path.read_text().splitlines():
        doc = json.loads(line)
        out.append({k: v for k, v in doc.items() if "time" not in k and "seconds" not in k and not k.endswith("_ms")})
    return out


@pytest.mark.parametrize(
    "game,agents,hands",
    [
        ("kuhn", ("random", "rules"), 300),
        ("leduc", ("rules", "bluff"), 200),
        ("holdem-limit", ("rules", "random"), 150),
        ("holdem-nolimit", ("rules", "probe-minraise"), 150),
        ("holdem-nolimit", ("random", AgentSpec(name="probe-tiny", seed=5)), 150),
        ("kuhn3p", ("random", "rules", "bluff"), 150),
    ],
)
def test_a_match_in_memory_writes_the_logs_of_the_same_match_over_tcp(
    tmp_path: Path, game: str, agents: tuple[str | AgentSpec, ...], hands: int
) -> None:
    tcp = run_match(_config(game, agents, hands, tmp_path / "tcp"), progress=False)
    memory = run_match(_config(game, agents, hands, tmp_path / "memory", in_memory=True), progress=False)
    assert memory.hands == tcp.hands == hands and not memory.failures and not memory.aborted
    assert memory.totals == tcp.totals
    assert memory.log_path is not None and tcp.log_path is not None
    assert memory.log_path.read_bytes() == tcp.log_path.read_bytes()
    assert _records(memory.jsonl_path) == _records(tcp.jsonl_path)  # type: ignore[arg-type]
    assert verify_log(memory.log_path).ok


def test_a_bot_of_the_users_still_plays_as_a_process_beside_a_built_in_in_memory(tmp_path: Path) -> None:
    bot = AgentSpec(command=f"{sys.executable} {ROOT / 'examples' / 'my_bot.py'}", label="my_bot")
    report = run_match(_config("leduc", (bot, "rules"), 120, tmp_path, in_memory=True), progress=False)
    assert report.hands == 120 and not report.failures
    assert all(sum(c.values()) == 0 for c in report.replacements.values())
    assert (tmp_path / f"{report.log_path.stem}.my_bot.stderr").exists()  # type: ignore[union-attr] # its own process
    assert not (tmp_path / f"{report.log_path.stem}.rules.stderr").exists()  # type: ignore[union-attr] # none: in memory


def test_which_seats_play_in_memory() -> None:
    assert plays_in_memory("cfr", None, False)
    assert not plays_in_memory("cfr", None, True)  # sandboxed: a process, inside its limits
    assert not plays_in_memory(None, "./bot", False)
    assert not plays_in_memory("my_bot.py", None, False)
    assert not plays_in_memory("mypkg.bots:Bot", None, False)


def test_options_reach_the_agent_as_the_command_line_gives_them() -> None:
    assert agent_options({"search": False, "budget_ms": "250", "sizing": "pot", "c": 0.5, "x": "TRUE"}) == {
        "search": False, "budget_ms": 250, "sizing": "pot", "c": 0.5, "x": True}


class _Crashes(Agent):
    """Calls for three decisions, then raises."""

    name = "crashes"

    def __init__(self, game: GameDef) -> None:
        super().__init__(game)
        self.left = 3

    def act(self, view: Any) -> Action:
        self.left -= 1
        if self.left < 0:
            raise RuntimeError("lost my model")
        return CALL


class _Slow(Agent):
    """Thinks longer than the dealer's time limit on its second decision."""

    name = "slow"

    def __init__(self, game: GameDef) -> None:
        super().__init__(game)
        self.decisions = 0

    def act(self, view: Any) -> Action:
        self.decisions += 1
        if self.decisions == 2:
            time.sleep(0.4)
        return CALL


def _seat_two_as(monkeypatch: pytest.MonkeyPatch, cls: type[Agent]) -> None:
    real = registry.make_agent_here

    def make(name: str, game: GameDef, options: Any = None) -> Agent:
        return cls(game) if name == "call" else real(name, game, options)

    monkeypatch.setattr(registry, "make_agent_here", make)


def test_an_agent_that_raises_in_memory_is_dropped_and_the_match_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _seat_two_as(monkeypatch, _Crashes)
    notes: list[str] = []
    cfg = _config("kuhn", ("random", "call"), 60, tmp_path, in_memory=True, dealer=DealerSettings(reconnect_ms=2_000))
    report = run_match(cfg, progress=False, notify=notes.append)
    assert "its connection closed" not in capsys.readouterr().err  # the crash is the news, in one line
    assert report.hands == 60 and not report.aborted
    assert any("agent call (seat 2) crashed: " in n and "RuntimeError: lost my model; the dealer plays check/fold for it" in n
               for n in notes), notes
    assert report.replaced_hands["call"] >= 55 and report.degraded
    assert verify_log(report.log_path).ok  # type: ignore[arg-type]


def test_the_time_limit_holds_for_an_agent_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _seat_two_as(monkeypatch, _Slow)
    cfg = _config("kuhn", ("call", "call"), 6, tmp_path, in_memory=True, fixed_seats=True,
                  dealer=DealerSettings(t_response_ms=150))
    report = run_match(cfg, progress=False, notify=lambda _t: None)
    assert report.hands == 6
    # both seats are slow ones (the patch makes every `call`): each is played for on its second decision, though
    # its reply is on the event loop before the dealer's timer is (it thought inside the loop)
    assert report.replacements["call-1"]["timeout"] == 1 and report.replacements["call-2"]["timeout"] == 1


def test_the_flag_and_the_tournament_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from showdown.cli.main import main

    assert main(["match", "kuhn", "rules", "random", "--hands", "50", "--seed", "3", "--in-memory", "--out",
                 str(tmp_path / "m"), "--no-progress", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["hands"] == 50
    settings = json.loads(next((tmp_path / "m").glob("*.match.json")).read_text())
    assert settings["in_memory"] is True  # a resumed match plays the same way
    t = tmp_path / "t.yaml"
    t.write_text(f"game: kuhn\nhands: 40\nin_memory: true\nout: {tmp_path / 't'}\nagents: [rules, random, call]\n")
    assert main(["tournament", str(t), "--no-progress"]) == 0

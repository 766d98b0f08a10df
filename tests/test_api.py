"""The Python API: a match and a tournament from a script and from inside a running event loop."""

from __future__ import annotations

import asyncio
import csv
import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import showdown
from showdown.agents import Agent
from showdown.api import MatchResult
from showdown.errors import LogExistsError

ROOT = Path(__file__).resolve().parents[1]


def test_run_match_from_a_script_returns_figures_json_and_csv(tmp_path):
    result = showdown.run_match("kuhn", ["equilibrium", "rules"], hands=300, seed=2, out=tmp_path)
    assert isinstance(result, MatchResult)
    doc = result.to_json()
    assert doc["hands"] == 300 and [a["name"] for a in doc["agents"]] == ["equilibrium", "rules"]
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    assert [r["name"] for r in rows] == ["equilibrium", "rules", "0", "1"]
    assert float(rows[0]["per100"]) == doc["agents"][0]["per100"]
    assert "equilibrium" in str(result)
    assert (tmp_path / "kuhn.equilibrium-rules.seed2.log").exists()


def test_the_sync_api_works_inside_a_running_event_loop(tmp_path):
    async def notebook_cell() -> MatchResult:
        return showdown.run_match("kuhn", ["random", "call"], hands=100, seed=4, out=tmp_path)

    result = asyncio.run(notebook_cell())
    assert result.to_json()["hands"] == 100


def test_run_match_async_is_awaitable(tmp_path):
    result = asyncio.run(showdown.run_match_async("kuhn", ["rules", "call"], hands=100, seed=5, out=tmp_path))
    assert result.report.hands == 100


def test_run_tournament_from_a_mapping_gives_a_cross_table_csv(tmp_path):
    table = showdown.run_tournament(
        {"game": "kuhn", "hands": 200, "seed": 1, "out": str(tmp_path / "t"), "agents": ["rules", "call", "bluff"]},
        jobs=2,
    )
    doc = table.to_json()
    assert doc["complete"] and len(doc["matches"]) == 3
    rows = list(csv.DictReader(io.StringIO(table.to_csv())))
    assert len(rows) == 6 and {r["agent"] for r in rows} == {"rules", "call", "bluff"}
    assert (tmp_path / "t" / "results.json").exists()


def test_an_agent_object_plays_in_process_over_tcp(tmp_path):
    from showdown.agents import CALL, Agent

    class Caller(Agent):
        def __init__(self) -> None:
            super().__init__()
            self.decisions = 0

        def act(self, view):
            self.decisions += 1
            return CALL

    me = Caller()
    result = showdown.run_match("leduc", [me, "rules"], hands=200, seed=3, out=tmp_path)
    doc = result.to_json()
    assert doc["hands"] == 200 and doc["agents"][0]["name"] == "Caller"
    assert me.decisions >= 200  # it really played, in this process
    assert sum(sum(c.values()) for c in result.report.replacements.values()) == 0


@pytest.mark.parametrize("duplicate", [False, True], ids=["plain", "duplicate"])
def test_a_cell_run_again_says_how_to_overwrite_and_force_or_no_logs_do(tmp_path, monkeypatch, duplicate):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "logs"
    showdown.run_match("kuhn", ["rules", "call"], hands=50, out=out, duplicate=duplicate)
    before = sorted(p.name for p in out.iterdir())
    with pytest.raises(LogExistsError, match=r"already exists: .*run_match\(\.\.\., force=True\).*logs=False") as caught:
        showdown.run_match("kuhn", ["rules", "call"], hands=80, out=out, duplicate=duplicate)
    assert "--force" not in str(caught.value)
    assert sorted(p.name for p in out.iterdir()) == before  # nothing started, nothing written
    again = showdown.run_match("kuhn", ["rules", "call"], hands=80, out=out, duplicate=duplicate, force=True)
    assert again.report.hands == 80 * (2 if duplicate else 1)
    quiet = showdown.run_match("kuhn", ["rules", "call"], hands=60, duplicate=duplicate, logs=False)
    assert quiet.report.hands == 60 * (2 if duplicate else 1) and quiet.to_json()["log"] is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["logs"]  # logs=False: no out/ either


def test_a_script_beside_the_clone_imports_the_package_not_the_clone_folder(tmp_path):
    """The folder holding a clone named showdown has a showdown/ folder without __init__.py: Python
    would import it as an empty namespace package, unless the checkout is on sys.path (make's venv)."""
    (tmp_path / "showdown").symlink_to(ROOT, target_is_directory=True)
    (tmp_path / "script.py").write_text("import showdown\nprint(showdown.run_match.__module__)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "script.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 0 and r.stdout.strip() == "showdown.api", r.stderr


@pytest.mark.parametrize(("call", "says"), [
    (lambda: showdown.run_match("kuhn", "rules", hands=2, logs=False), r"agents: expected a list with one agent per seat"),
    (lambda: showdown.run_match(5, ["rules", "call"], hands=2, logs=False), r"game: expected a catalog name or a .game file, got int"),
    (lambda: showdown.run_tournament(42), r"run_tournament: expected a YAML file's path or a mapping"),
    (lambda: showdown.run_tournament(["kuhn"]), r"run_tournament: expected a YAML file's path or a mapping"),
    (lambda: showdown.run_match("kuhn", ["rules", "call"], hands=2, logs="no"), r"logs: expected True or False, got 'no'"),
    (lambda: showdown.run_match("kuhn", ["rules", Agent], hands=2, logs=False),
     r"agent 2: Agent is an Agent class: give an object of it, Agent\(\)"),  # was: "... or an Agent object, not type"
    (lambda: showdown.run_match("kuhn", [Agent(), "call"], hands=2, logs=False, duplicate=True),
     r"^Agent objects play plain matches only: for duplicate=True name the class"),  # was: "for --duplicate", no such flag here
    (lambda: showdown.run_tournament({}, jobs=0), r"run_tournament: jobs: expected an integer >= 1, got 0"),  # was: the default
    (lambda: showdown.run_tournament({}, jobs="2"), r"jobs: expected an integer >= 1, got '2'"),  # was: a TypeError after the check
    (lambda: showdown.run_tournament({}, progress="no"), r"run_tournament: progress: expected true or false"),
])
def test_arguments_of_the_wrong_kind_say_what_was_expected(call, says):
    from showdown.errors import ConfigError

    with pytest.raises(ConfigError, match=says):  # was: "5 agents were given" (the string's letters), a TypeError
        call()


def test_a_tournament_mapping_takes_a_path_and_refuses_an_agent_object_in_one_line(tmp_path):
    from showdown.agents import CALL, Agent
    from showdown.errors import ConfigError

    class Caller(Agent):
        def act(self, view):
            return CALL

    keys = {"game": "kuhn", "hands": 20, "seed": 1, "agents": ["rules", "call"]}
    table = showdown.run_tournament({**keys, "out": tmp_path / "t"}, jobs=1)  # was: a TypeError, PosixPath not JSON serializable
    assert table.to_json()["complete"] and (tmp_path / "t" / "results.json").exists()
    with pytest.raises(ConfigError, match=r"agent Caller: an Agent object plays only in run_match"):
        showdown.run_tournament({**keys, "out": str(tmp_path / "u"), "agents": ["rules", Caller()]})
    with pytest.raises(ConfigError, match=r"expected the plain values of a YAML file, got object"):
        showdown.run_tournament({**keys, "out": str(tmp_path / "v"), "seed": object()})


@pytest.mark.parametrize("call", [
    lambda out: showdown.run_match("kuhn", ["rules", "__main__:MyBot"], hands=5, logs=False),
    lambda out: showdown.run_tournament({"game": "kuhn", "hands": 5, "out": str(out), "agents": ["rules", "__main__:MyBot"]}),
], ids=["match", "tournament"])
def test_a_notebook_class_named_as_main_says_to_pass_the_object_or_use_a_module(tmp_path, call):
    from showdown.errors import ConfigError

    # was: "cannot start: <frozen importlib.util>:114: ValueError: __main__.__spec__ is None", or "no module '__main__'"
    with pytest.raises(ConfigError, match=r"__main__ is the running script or notebook, which an agent process cannot "
                                          r"import: give run_match the object itself \(MyBot\(\), played in this process\)"):
        call(tmp_path / "t")


def _seconds_to_interrupt(call: Callable[[], object], after: float) -> float:
    """Seconds ``call`` takes to give back a Jupyter kernel interrupt sent ``after`` seconds into it: a
    KeyboardInterrupt in the main thread, which runs an event loop (the call runs in a worker thread)."""
    import signal
    import threading
    import time

    async def cell() -> float:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as the kernel runs a cell
        threading.Timer(after, os.kill, (os.getpid(), signal.SIGINT)).start()  # a real signal: it wakes the wait
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.monotonic() - started

    before = signal.getsignal(signal.SIGINT)
    try:
        return asyncio.run(cell())
    finally:
        signal.signal(signal.SIGINT, before)


def test_an_interrupt_inside_a_running_event_loop_stops_the_match_at_once(tmp_path):
    """The match in the worker thread went on to its last hand (50 s here) before the cell gave the
    interrupt back."""
    import threading

    assert _seconds_to_interrupt(lambda: showdown.run_match("leduc", ["rules", "call"], hands=100_000, seed=1, out=tmp_path), 1.5) < 15
    assert threading.active_count() == 1  # the worker thread is gone, its agents with it


def test_an_interrupt_inside_a_running_event_loop_stops_the_tournament_at_once(tmp_path):
    """As the match above: the tournament in the worker thread played every match to its last hand
    (two minutes here) before the cell gave the interrupt back."""
    import threading

    keys = {"game": "leduc", "hands": 100_000, "seed": 1, "out": str(tmp_path), "agents": ["rules", "call", "random"]}
    assert _seconds_to_interrupt(lambda: showdown.run_tournament(keys, jobs=1), 4) < 25
    assert threading.active_count() == 1  # the worker thread and the figures' thread are gone


def test_a_bot_file_is_an_agent_as_on_the_command_line(tmp_path):
    bot = ROOT / "examples" / "my_bot.py"  # was: "unknown agent '.../my_bot.py'", though the README gives agents as on the command line
    for given in (str(bot), bot):
        result = showdown.run_match("kuhn", [given, "call"], hands=20, seed=1, logs=False)
        assert result.to_json()["agents"][0]["name"] == "my_bot"


def test_an_agent_object_that_raises_is_named_with_its_error_as_a_crash():
    class Broken(Agent):
        def act(self, view):
            raise RuntimeError("oops in act")

    # was: no failure, and asyncio's "Task exception was never retrieved" traceback at exit
    result = showdown.run_match("kuhn", [Broken(), "rules"], hands=5, seed=1, logs=False)
    assert any(f.startswith("agent Broken (seat 1) crashed: ") and "RuntimeError: oops in act" in f for f in result.report.failures)


def test_an_out_folder_under_home_is_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    result = showdown.run_match("kuhn", ["rules", "call"], hands=5, seed=1, out="~/logs")
    assert Path(result.report.log_path).parent == tmp_path / "home" / "logs"
    assert not (tmp_path / "~").exists()  # was: a folder named '~' in the current folder

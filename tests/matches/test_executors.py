"""Executors: the local pool and a real two-node Ray cluster give the same tournament."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.errors import ConfigError
from showdown.matches.config import AgentSpec, MatchConfig, config_to_json
from showdown.matches.executors import LocalExecutor, make_executor, play_job_here

HERE = Path(__file__).resolve().parent


def test_make_executor_names_the_choices_and_needs_ray_for_an_address():
    assert isinstance(make_executor(None), LocalExecutor)
    assert isinstance(make_executor("local"), LocalExecutor)
    with pytest.raises(ConfigError, match="choose one of local, ray"):
        make_executor("slurm")
    with pytest.raises(ConfigError, match=r"an address \(--address, or address: in a file\) names a Ray cluster: it needs executor ray"):
        make_executor("local", "127.0.0.1:6379")


def test_a_job_played_in_a_private_folder_returns_its_logs_and_result(tmp_path):
    config = MatchConfig(
        game="kuhn",
        agents=(AgentSpec("random"), AgentSpec("rules")),
        hands=50,
        seed=3,
        out=str(tmp_path / "unused"),
        name="kuhn.job",
    )
    doc = play_job_here(config_to_json(config))
    assert doc["error"] is None, doc
    assert doc["result"]["hands"] == 50
    assert {"kuhn.job.log", "kuhn.job.jsonl"} <= set(doc["files"])
    assert doc["files"]["kuhn.job.log"].startswith(b"# name/game/hands/seed")
    assert not Path(doc["folder"]).exists()  # the private folder is gone
    assert not (tmp_path / "unused").exists()


def _ray_cluster_runs_here() -> str | None:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "needs unshare and ip (util-linux, iproute2)"
    if os.geteuid() != 0:
        return "needs root to make a private network namespace for the cluster"
    try:
        import ray  # noqa: F401
    except ImportError:
        return "needs the cluster extra: pip install 'showdown-poker[cluster]'"
    return None


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return home


def _cluster(tmp_path: Path, scenario: str) -> dict[str, object]:
    reason = _ray_cluster_runs_here()
    if reason is not None:
        pytest.skip(reason)
    proc = subprocess.run(
        ["unshare", "--net", "--", sys.executable, str(HERE / "ray_cluster.py"), str(tmp_path), scenario],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        # a home of its own: Ray keeps state there (an auth token another Ray run may have left)
        env={**os.environ, "PYTHONPATH": str(HERE.parents[1]), "HOME": str(_home(tmp_path))},
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and lines, proc.stdout[-2000:] + proc.stderr[-2000:]
    return json.loads(lines[-1])


def test_a_tournament_on_ray_survives_a_killed_node_with_the_same_logs_and_results(tmp_path):
    report = _cluster(tmp_path, "kill")
    assert report["nodes"] == 2
    assert report["killed"], "the second node was never killed"
    assert report["alive_nodes"] == 1
    assert report["complete"]
    assert report["log_files"] == 24  # 6 pairs x 2 duplicate halves x (.log, .jsonl)
    assert report["same_logs"], report["different_logs"]
    assert report["same_results"]
    assert report["duplicate_same_logs"]  # showdown match --duplicate --executor ray


@pytest.mark.slow
def test_on_a_two_cpu_ray_cluster_tournaments_finish_with_local_logs_and_signals_stop_them(tmp_path):
    report = _cluster(tmp_path, "laptop")
    assert report["two_local"] == 0 and report["three_local"] == 0
    for key in ("two", "three"):
        assert report[f"{key}_ray"] == 0, report
        assert report[f"{key}_same_logs"], key
    assert "reserves 2 CPUs, not 4" in report["three_note"][0]  # three agents and the dealer on a 2-CPU node
    assert report["yaml_ray"] == 0, report["yaml_err"]  # no --address: Ray on this machine
    assert report["yaml_same_logs"]
    for sig, stop in report["stops"].items():
        assert stop["returncode"] == 128 + int(sig), stop
        assert stop["seconds"] < 20 and not stop["traceback"] and stop["stderr_lines"] <= 4, stop


def test_a_job_fits_its_cpu_reservation_to_the_largest_node():
    from showdown.errors import ConfigError
    from showdown.matches.executors import cluster_note, fit_reservation

    assert fit_reservation(2, [8.0, 4.0]) == 3.0
    assert fit_reservation(3, [2.0]) == 2.0
    assert fit_reservation(2, [2.0, 1.0]) == 2.0
    note = cluster_note([3, 3, 3], [2.0], "this machine")
    assert "about 1 at a time" in note and "reserves 2 CPUs, not 4" in note
    assert "reserves" not in cluster_note([2] * 6, [3.0, 3.0], "x")
    with pytest.raises(ConfigError, match="no node with a CPU"):
        cluster_note([2], [], "127.0.0.1:6379")


@pytest.mark.slow
def test_a_tournament_on_ray_gives_byte_identical_logs(tmp_path):
    report = _cluster(tmp_path, "same")
    assert report["nodes"] == 2 and report["alive_nodes"] == 2
    assert report["same_logs"], report["different_logs"]
    assert report["same_results"]


def test_a_job_carries_its_bots_files_and_runs_them_from_its_own_folder(tmp_path):
    from showdown.matches.executors import bot_files

    bot = tmp_path / "my_bot.py"
    bot.write_text((HERE.parents[1] / "examples" / "my_bot.py").read_text())
    config = MatchConfig(
        game="kuhn",
        agents=(AgentSpec(command=f"{sys.executable} {bot}", label="mine"), AgentSpec("call")),
        hands=50, seed=1, out=str(tmp_path / "o"), name="kuhn.bot",
    )
    files = bot_files(config)
    assert list(files) == [str(bot)]  # the interpreter is not shipped, the bot is
    bot.unlink()  # as on another node: only the shipped copy exists
    doc = play_job_here(config_to_json(config), files)
    assert doc["error"] is None, doc
    assert doc["result"]["agents"][0]["name"] == "mine"


def test_without_ray_the_executor_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ConfigError, match=r"pip install 'showdown-poker\[cluster\]'"):
        make_executor("ray")

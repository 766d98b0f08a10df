"""Local batches of matches: long-lived workers play job after job, and a worker that dies is replaced."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import signal
from collections.abc import Sequence
from pathlib import Path

from showdown.matches.config import AgentSpec, MatchConfig
from showdown.matches.parallel import Job, JobState, _Batch


def _jobs(tmp_path: Path, n: int, hands: int = 40, first_hands: int | None = None) -> list[Job]:
    jobs = []
    for k in range(n):
        h = first_hands if k == 0 and first_hands is not None else hands
        config = MatchConfig(game="kuhn", agents=(AgentSpec("random"), AgentSpec("call")), hands=h, seed=k + 1,
                             out=str(tmp_path / f"m{k}"), name=f"m{k}")
        jobs.append(Job(config, tmp_path / f"m{k}" / f"m{k}.result.json", label=f"m{k}"))
    return jobs


def test_one_worker_plays_every_job_of_a_batch_one_after_another(tmp_path: Path) -> None:
    batch = _Batch(_jobs(tmp_path, 3), 1, on_done=None, on_line=None, on_interrupt=None)
    states = asyncio.run(batch.run(None, install_signals=False))
    assert len(batch.workers) == 1  # one Python start for the three matches
    for k, state in enumerate(states):
        assert state.error is None and state.returncode == 0, state.error
        assert state.result is not None and state.result.hands == 40 and state.hands == 40
        assert Path(state.result.jsonl or "").name == f"m{k}.jsonl"
    assert all(w.returncode == 0 for w in batch.workers)  # told to stop when the batch ended, and gone


def test_two_workers_share_the_jobs_and_all_exit(tmp_path: Path) -> None:
    batch = _Batch(_jobs(tmp_path, 4), 2, on_done=None, on_line=None, on_interrupt=None)
    states = asyncio.run(batch.run(None, install_signals=False))
    assert len(batch.workers) == 2
    assert [s.result.hands if s.result else None for s in states] == [40, 40, 40, 40]
    assert all(w.returncode == 0 for w in batch.workers)


def test_a_worker_killed_in_a_match_fails_that_job_only_and_a_new_worker_plays_on(tmp_path: Path) -> None:
    killed: list[int] = []
    # the first job is long: its worker is killed once it has dealt hands; the next two are short
    batch = _Batch(_jobs(tmp_path, 3, first_hands=1_000_000), 1, on_done=None, on_line=None, on_interrupt=None)

    def on_tick(states: Sequence[JobState]) -> None:
        if not killed and states[0].hands > 0 and 0 in batch.running:
            killed.append(batch.running[0].pid)
            os.kill(batch.running[0].pid, signal.SIGKILL)

    states = asyncio.run(batch.run(on_tick, install_signals=False))
    assert killed and states[0].result is None and states[0].returncode == -signal.SIGKILL and states[0].error
    assert [s.result.hands if s.result else None for s in states[1:]] == [40, 40]
    assert len(batch.workers) == 2 and all(w.returncode is not None for w in batch.workers)


def test_a_job_whose_figures_come_from_its_logs_is_played_with_plain_figures_only(tmp_path: Path) -> None:
    jobs = _jobs(tmp_path, 2)
    jobs[1] = dataclasses.replace(jobs[1], plain_figures=True)
    states = asyncio.run(_Batch(jobs, 1, on_done=None, on_line=None, on_interrupt=None).run(None, install_signals=False))
    docs = [s.result.doc if s.result else {} for s in states]
    assert docs[0]["estimator"] != "plain" and docs[1]["estimator"] == "plain"
    assert docs[1]["hands"] == 40 and Path(docs[1]["jsonl"]).is_file()  # the logs the caller reads are there


def test_halves_whose_runner_is_killed_stop_after_their_hand_and_can_be_resumed(tmp_path: Path) -> None:
    """A --duplicate match's runner killed -9 left its halves playing on, orphans (a --resume of a half
    then found it still running); and a half stopped by a signal raised BrokenPipeError saying so on
    the dead runner's stderr, so the stop was never made. Each half now gets a SIGTERM when its runner
    dies and stops after its hand as at a Ctrl-C: its logs whole, its result 'interrupted', resumable."""
    import json
    import subprocess
    import sys
    import time

    from showdown.evaluation.verify import verify_log
    from showdown.matches.files import load_match_file

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    runner = subprocess.Popen(
        [sys.executable, "-m", "showdown", "match", "kuhn", "random", "call", "--hands", "100000", "--duplicate",
         "--out", "out"], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    logs = [tmp_path / "out" / f"kuhn.random-call.seed0.dup{k}.log" for k in range(2)]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not all(p.exists() and p.read_bytes().count(b"STATE:") > 50 for p in logs):
        time.sleep(0.02)
    runner.kill()  # the runner alone, as kill -9 PID
    runner.communicate(timeout=30)
    results = [p.with_name(p.name.replace(".log", ".result.json")) for p in logs]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not all(r.exists() for r in results):
        time.sleep(0.05)
    assert all(json.loads(r.read_text())["interrupted"] for r in results)  # stopped, not played to the end
    for log in logs:
        assert 0 < verify_log(log, partial=True).hands < 100000 and verify_log(log, partial=True).ok
        assert load_match_file(log).resume  # a half to resume, not one 'already finished'

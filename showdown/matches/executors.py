"""Where matches are played: the local process pool (default) or a Ray cluster.

An executor plays a list of ``parallel.Job`` (one match, or one half of a duplicate match) and
reports each one through the same callbacks as ``parallel.run_jobs``, so the tournament and
duplicate runners do not know which one they use.

``RayExecutor`` (the optional extra ``showdown-poker[cluster]``) sends each job to the cluster as
one Ray task that reserves one CPU per seat plus one for the dealer. The task plays the match on
one node over loopback exactly as a local child does (``python -m showdown.matches.parallel``, the
dealer and the agents on that node), in a private folder, and returns the result document and
the bytes of every file the match wrote. The driver writes them into the job's output folder
atomically (a temporary name, then ``os.replace``), so what a tournament leaves on disk, and how
it resumes, is the same as with the local pool; the logs are byte-identical because the dealing,
the seeds and the agents are. A task whose node dies is retried by Ray (``max_retries``) and
plays the match again from its first hand; since only the driver writes results, and only once
per job, a match is never counted twice.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from showdown.errors import ConfigError
from showdown.matches.config import EXECUTORS, config_from_json, config_to_json
from showdown.matches.parallel import TICK, ChildResult, Job, JobState, run_jobs

__all__ = ["EXECUTORS", "Executor", "LocalExecutor", "RayExecutor", "make_executor", "play_job_here"]


Callback = Callable[..., None]


class Executor(Protocol):
    """Plays jobs and reports them through ``parallel.run_jobs``'s callbacks."""

    name: str

    async def run(
        self,
        jobs: Sequence[Job],
        parallel: int,
        *,
        on_tick: Callable[[Sequence[JobState]], None] | None = None,
        on_done: Callable[[JobState], None] | None = None,
        on_line: Callable[[JobState, str], None] | None = None,
        on_interrupt: Callable[[int], None] | None = None,
        install_signals: bool = False,
    ) -> list[JobState]: ...


class LocalExecutor:
    """Child processes on this machine, at most ``parallel`` at once (``parallel.run_jobs``)."""

    name = "local"

    async def run(self, jobs: Sequence[Job], parallel: int, **callbacks: Any) -> list[JobState]:
        return await run_jobs(jobs, parallel, **callbacks)


def make_executor(name: str | None, address: str | None = None) -> Executor:
    """The executor called ``name`` (``local`` when None); ``address`` is the Ray cluster's."""
    if name in (None, "local"):
        if address is not None:
            raise ConfigError("--address needs --executor ray")
        return LocalExecutor()
    if name == "ray":
        return RayExecutor(address)
    raise ConfigError(f"unknown executor {name!r}: choose one of {', '.join(EXECUTORS)}")


# ---------------------------------------------------------------------- one job, on any node


def bot_files(config: Any) -> dict[str, tuple[bytes, int]]:
    """The files outside bots' commands name (absolute paths after a YAML file's folder is applied):
    path -> (bytes, mode), sent with a cluster job so that the bots run on any node."""
    files: dict[str, tuple[bytes, int]] = {}
    for spec in config.agents:
        if spec.command is None:
            continue
        try:
            words = shlex.split(spec.command)
        except ValueError:
            continue
        for w in words:
            p = Path(w)
            if p.is_absolute() and p.is_file() and not str(p).startswith(sys.prefix) and p.stat().st_size < MAX_BOT_FILE:
                files[w] = (p.read_bytes(), p.stat().st_mode & 0o777)
    return files


MAX_BOT_FILE = 64 << 20
"""Bigger files (model weights) must be on the nodes already."""


def _place_bot_files(config_doc: dict[str, Any], files: dict[str, tuple[bytes, int]], folder: Path) -> None:
    """Write the bots' files into ``folder`` and point the commands at them."""
    moved: dict[str, str] = {}
    for k, (path, (data, mode)) in enumerate(sorted(files.items())):
        target = folder / f"{k}_{Path(path).name}"
        target.write_bytes(data)
        target.chmod(mode)
        moved[path] = str(target)
    for agent in config_doc["agents"]:
        if agent.get("command"):
            words = shlex.split(agent["command"])
            agent["command"] = shlex.join(moved.get(w, w) for w in words)


def play_job_here(config_doc: dict[str, Any], files: dict[str, tuple[bytes, int]] | None = None) -> dict[str, Any]:
    """Play one job's match in a private folder on this node; return its result and files.

    ``files`` are the outside bots' files (``bot_files``), written beside the match and used there.

    The returned document: ``result`` (the match's ``report_json`` document, or None),
    ``error`` (one line, or None), ``files`` (name -> bytes of every file the match wrote),
    ``folder`` (the private folder's path, so the driver can rewrite paths in ``result``),
    ``returncode``, ``seconds``.
    """
    folder = Path(tempfile.mkdtemp(prefix="showdown-job-"))
    try:
        config = config_from_json(config_doc)
        name = config.name
        doc = dict(config_to_json(config))
        doc["out"] = str(folder / "out")
        (folder / "out").mkdir()
        if files:
            (folder / "bots").mkdir()
            _place_bot_files(doc, files, folder / "bots")
        run_file = folder / "run.json"
        result_file = folder / "result.json"
        run_file.write_text(json.dumps({"config": doc, "result": str(result_file)}), encoding="utf-8")
        env = dict(os.environ)
        package_root = str(Path(__file__).resolve().parents[2])  # this node's copy of the package
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
        started = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "showdown.matches.parallel", str(run_file)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
            check=False,
        )
        seconds = time.monotonic() - started
        result: dict[str, Any] | None = None
        error: str | None = None
        try:
            result = json.loads(result_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            error = tail[-1] if tail else f"the match process exited with status {proc.returncode}"
        if result is not None and "error" in result:
            error, result = str(result["error"]), None
        written = {p.name: p.read_bytes() for p in sorted((folder / "out").iterdir()) if p.is_file()}
        return {
            "name": name,
            "result": result,
            "error": error,
            "files": written,
            "folder": str(folder / "out"),
            "returncode": proc.returncode,
            "seconds": seconds,
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _rewrite_paths(value: Any, old: str, new: str) -> Any:
    """``value`` with every string path under ``old`` moved under ``new``."""
    if isinstance(value, str):
        return new + value[len(old):] if value.startswith(old) else value
    if isinstance(value, list):
        return [_rewrite_paths(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _rewrite_paths(v, old, new) for k, v in value.items()}
    return value


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary name, so a reader never sees half a file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def store_job_output(job: Job, state: JobState, doc: dict[str, Any]) -> None:
    """Put a finished job's files where a local child would have written them, and its result."""
    out = Path(job.config.out) if job.config.out is not None else job.result_path.parent
    out.mkdir(parents=True, exist_ok=True)
    for name, data in doc["files"].items():
        write_atomically(out / name, data)
    state.returncode = int(doc["returncode"])
    result = doc["result"]
    if result is not None:
        result = _rewrite_paths(result, doc["folder"], str(out))
        job.result_path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(job.result_path, json.dumps(result, indent=1).encode("utf-8"))
    state.error = doc["error"] if result is None else None
    state.result = ChildResult.from_json(result) if result is not None else None
    if state.result is not None:
        state.hands = state.result.hands


# ---------------------------------------------------------------------- Ray


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ConfigError(
            "the ray executor needs Ray, which is not installed: pip install 'showdown-poker[cluster]'"
        ) from None
    return ray


class RayExecutor:
    """Each job a Ray task on the cluster at ``address`` (``None``: start Ray on this machine)."""

    name = "ray"

    def __init__(self, address: str | None = None, *, max_retries: int = 3) -> None:
        self.ray = _import_ray()
        self.address = address
        self.max_retries = max_retries

    def _connect(self) -> None:
        ray = self.ray
        if ray.is_initialized():
            return
        package_root = str(Path(__file__).resolve().parents[2])
        kwargs: dict[str, Any] = {
            "address": self.address,
            "log_to_driver": False,
            "logging_level": "ERROR",
            "include_dashboard": False,
        }
        if self.address is not None:
            # the cluster's nodes get this very package, whatever they have installed
            kwargs["runtime_env"] = {"py_modules": [str(Path(package_root) / "showdown")]}
        try:
            ray.init(**{k: v for k, v in kwargs.items() if v is not None or k == "address"})
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = self.address or "a local Ray instance"
            raise ConfigError(f"cannot connect to the Ray cluster at {where}: {exc}") from None

    async def run(
        self,
        jobs: Sequence[Job],
        parallel: int,
        *,
        on_tick: Callable[[Sequence[JobState]], None] | None = None,
        on_done: Callable[[JobState], None] | None = None,
        on_line: Callable[[JobState, str], None] | None = None,
        on_interrupt: Callable[[int], None] | None = None,
        install_signals: bool = False,
    ) -> list[JobState]:
        """Submit every job at once (Ray queues them by their CPU reservations) and collect them
        as they finish. ``parallel`` is not used: the cluster's CPUs bound the concurrency."""
        del parallel, install_signals, on_interrupt
        ray = self.ray
        await asyncio.to_thread(self._connect)
        remote = ray.remote(play_job_here)
        states = [JobState(j) for j in jobs]
        pending: dict[Any, int] = {}
        for i, job in enumerate(jobs):
            seats = len(job.config.agents)
            ref = remote.options(num_cpus=seats + 1, max_retries=self.max_retries, retry_exceptions=False).remote(
                config_to_json(job.config), bot_files(job.config)
            )
            pending[ref] = i
            states[i].started = time.monotonic()
        try:
            while pending:
                ready, _ = await asyncio.to_thread(ray.wait, list(pending), num_returns=1, timeout=TICK)
                for ref in ready:
                    i = pending.pop(ref)
                    state = states[i]
                    try:
                        doc = await asyncio.to_thread(ray.get, ref)
                    except ray.exceptions.RayError as exc:  # a task that failed for good (retries spent)
                        state.error = f"the cluster could not play this match: {type(exc).__name__}: {exc}".splitlines()[0]
                    else:
                        store_job_output(state.job, state, doc)
                    state.finished = time.monotonic()
                    if state.error and on_line is not None:
                        on_line(state, state.error)
                    if on_done is not None:
                        on_done(state)
                if on_tick is not None:
                    on_tick(states)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
        return states

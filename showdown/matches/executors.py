"""Where matches are played: the local process pool (default) or a Ray cluster.

An executor plays a list of ``parallel.Job`` (one match, or one half of a duplicate match) and
reports each one through the same callbacks as ``parallel.run_jobs``, so the tournament and
duplicate runners do not know which one they use.

``RayExecutor`` (the optional extra ``showdown-poker[cluster]``) sends each job to the cluster as
one Ray task that reserves one CPU per seat plus one for the dealer, or as many as the largest node
has when that is fewer (a laptop's local Ray has 2: a task that reserved 3 would wait for ever), and
says so in one line. The task plays the match on one node over loopback exactly as a local child
does (``python -m showdown.matches.parallel``, the dealer and the agents on that node), in a private
folder, and returns the result document and the bytes of every file the match wrote. The driver writes them into the job's output folder
atomically (a temporary name, then ``os.replace``), so what a tournament leaves on disk, and how
it resumes, is the same as with the local pool; the logs are byte-identical because the dealing,
the seeds and the agents are. A task whose node dies is retried by Ray (``max_retries``) and
plays the match again from its first hand; since only the driver writes results, and only once
per job, a match is never counted twice. Ctrl-C or SIGTERM cancels the jobs (each running match is
stopped, its process and its agents too; a tournament plays them again when run again).
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import signal
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
        on_interrupt: Callable[[int, int], None] | None = None,
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
            raise ConfigError("an address (--address, or address: in a file) names a Ray cluster: it needs executor ray (--executor ray, or executor: ray)")
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
        returncode, stderr = _play_child(run_file, env, folder / "stderr")
        seconds = time.monotonic() - started
        result: dict[str, Any] | None = None
        error: str | None = None
        try:
            result = json.loads(result_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tail = stderr.strip().splitlines()
            error = tail[-1] if tail else f"the match process exited with status {returncode}"
        if result is not None and "error" in result:
            error, result = str(result["error"]), None
        written = {p.name: p.read_bytes() for p in sorted((folder / "out").iterdir()) if p.is_file()}
        return {
            "name": name,
            "result": result,
            "error": error,
            "files": written,
            "folder": str(folder / "out"),
            "returncode": returncode,
            "seconds": seconds,
        }
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _play_child(run_file: Path, env: dict[str, str], stderr_path: Path) -> tuple[int, str]:
    """Run the match child to its end; its exit status and stderr. Cancelled (Ray raises
    KeyboardInterrupt in the task), the child is stopped as Ctrl-C stops a match, then killed."""
    with stderr_path.open("wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "showdown.matches.parallel", str(run_file)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env,
        )  # fmt: skip
        try:
            while proc.poll() is None:
                time.sleep(0.05)
        except BaseException:
            proc.send_signal(signal.SIGINT)  # the child unblocks the signals Ray's worker blocks
            try:
                proc.wait(CHILD_STOP_GRACE)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            raise
    return proc.returncode, stderr_path.read_text(encoding="utf-8", errors="replace")


CHILD_STOP_GRACE = 10.0
"""Seconds a cancelled job's match gets to stop (it stops within ``plain.STOP_GRACE`` plus its agents' exit)."""


def fit_reservation(seats: int, node_cpus: Sequence[float]) -> float:
    """CPUs a job of ``seats`` agents reserves: one per process (the agents and the dealer), but no
    more than the largest node has, so that no job waits for a node that does not exist."""
    largest = max(node_cpus, default=0.0)
    return float(min(seats + 1, largest))


def cluster_note(seat_counts: Sequence[int], node_cpus: Sequence[float], where: str) -> str:
    """One line on how the jobs fit the cluster (nodes' CPUs ``node_cpus``)."""
    if not node_cpus or max(node_cpus) <= 0:
        raise ConfigError(f"the Ray cluster at {where} has no node with a CPU: start one (ray start --num-cpus N)")
    widest = max(seat_counts, default=2)
    need = fit_reservation(widest, node_cpus)
    at_once = sum(int(c // need) for c in node_cpus)
    line = (f"ray: {len(seat_counts)} matches on {len(node_cpus)} node{'s' if len(node_cpus) != 1 else ''} "
            f"({sum(node_cpus):g} CPUs), about {at_once} at a time")
    if need < widest + 1:
        line += (f"; each reserves {need:g} CPUs, not {widest + 1} (one per agent and the dealer): the largest node has "
                 f"{max(node_cpus):g}, so its processes share them (for full speed: nodes of {widest + 1} CPUs)")
    return line


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

    def _node_cpus(self) -> list[float]:
        return [float(n.get("Resources", {}).get("CPU", 0.0)) for n in self.ray.nodes() if n.get("Alive")]

    async def run(
        self,
        jobs: Sequence[Job],
        parallel: int,
        *,
        on_tick: Callable[[Sequence[JobState]], None] | None = None,
        on_done: Callable[[JobState], None] | None = None,
        on_line: Callable[[JobState, str], None] | None = None,
        on_interrupt: Callable[[int, int], None] | None = None,
        install_signals: bool = False,
    ) -> list[JobState]:
        """Submit every job at once (Ray queues them by their CPU reservations, fitted to the
        largest node) and collect them as they finish. ``parallel`` is not used: the cluster's CPUs
        bound the concurrency. Ctrl-C or SIGTERM (with ``install_signals``) cancels what is left."""
        del parallel
        ray = self.ray
        await asyncio.to_thread(self._connect)
        node_cpus = await asyncio.to_thread(self._node_cpus)
        print(f"showdown: {cluster_note([len(j.config.agents) for j in jobs], node_cpus, self.address or 'this machine')}",
              file=sys.stderr, flush=True)
        remote = ray.remote(play_job_here)
        states = [JobState(j) for j in jobs]
        pending: dict[Any, int] = {}
        for i, job in enumerate(jobs):
            cpus = fit_reservation(len(job.config.agents), node_cpus)
            ref = remote.options(num_cpus=cpus, max_retries=self.max_retries, retry_exceptions=False).remote(
                config_to_json(job.config), bot_files(job.config)
            )
            pending[ref] = i
        running = _RunningGuess(states, sum(int(c // fit_reservation(len(jobs[0].config.agents), node_cpus))
                                            for c in node_cpus) if jobs else 0)
        stop = _Stop(on_interrupt)
        installed = install_signals and stop.install(asyncio.get_running_loop())
        try:
            while pending and not stop.signal:
                ready, _ = await asyncio.to_thread(ray.wait, list(pending), num_returns=1, timeout=TICK)
                for ref in ready:
                    state = states[pending.pop(ref)]
                    await self._collect(ref, state)
                    running.done(state)
                    if state.error and on_line is not None:
                        on_line(state, state.error)
                    if on_done is not None:
                        on_done(state)
                if on_tick is not None:
                    on_tick(states)
        finally:
            if installed:
                stop.uninstall(asyncio.get_running_loop())
            for ref in pending:
                ray.cancel(ref)  # a running match is stopped as Ctrl-C stops it (``_play_child``)
        return states

    async def _collect(self, ref: Any, state: JobState) -> None:
        try:
            doc = await asyncio.to_thread(self.ray.get, ref)
        except self.ray.exceptions.RayError as exc:  # a task that failed for good (retries spent)
            state.error = f"the cluster could not play this match: {type(exc).__name__}: {exc}".splitlines()[0]
        else:
            store_job_output(state.job, state, doc)
        state.finished = time.monotonic()


class _RunningGuess:
    """Which queued jobs are probably running (Ray starts them in order, ``at_once`` at a time), for
    the progress line's count; the cluster does not say without its dashboard."""

    def __init__(self, states: Sequence[JobState], at_once: int) -> None:
        self.waiting = list(states)
        for _ in range(max(1, at_once)):
            self._start_next()

    def _start_next(self) -> None:
        if self.waiting:
            self.waiting.pop(0).started = time.monotonic()

    def done(self, state: JobState) -> None:
        if any(s is state for s in self.waiting):  # finished before its guessed turn
            self.waiting = [s for s in self.waiting if s is not state]
            state.started = state.finished
        else:
            self._start_next()


class _Stop:
    """Ctrl-C and SIGTERM while jobs run on a cluster: the signal, and the caller told (n, signal)."""

    def __init__(self, on_interrupt: Callable[[int, int], None] | None) -> None:
        self.on_interrupt = on_interrupt
        self.signal = 0
        self.count = 0

    def __call__(self, sig: int) -> None:
        self.count += 1
        self.signal = self.signal or sig
        if self.on_interrupt is not None:
            self.on_interrupt(self.count, sig)

    def install(self, loop: asyncio.AbstractEventLoop) -> bool:
        try:
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, self, sig)
        except (NotImplementedError, RuntimeError, ValueError):
            return False
        return True

    def uninstall(self, loop: asyncio.AbstractEventLoop) -> None:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)

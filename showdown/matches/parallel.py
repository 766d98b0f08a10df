"""Several matches at once, each ``run_match`` in a child process (the dealer is CPU-bound
Python: threads would share one core).

``run_jobs(jobs, parallel)`` keeps at most ``parallel`` children, each a worker (``python -m
showdown.matches.parallel --worker TOKEN``) that plays one job after another: it reads the path of
a job's run file on its stdin, plays its ``MatchConfig``, writes the match's ``report_json``
document to the job's result file (atomically, so a result file always means a finished match) and
says so on stderr with a line ``TOKEN STATUS``. A worker lives as long as the batch, so a match
costs no Python start and no imports (about 0.13 s of CPU a match, measured on a loaded 2-core
machine). ``python -m
showdown.matches.parallel RUN.json`` plays a single job (the Ray executor's way). Progress comes from the children's JSON Lines logs, counted as they grow. Ctrl-C
or SIGTERM to the parent is passed on to every running child (as a Ctrl-C), which stops after its current hand and
still writes its logs and result (``interrupted`` in the result); a second Ctrl-C stops them at
once. No new child starts after an interrupt.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import secrets
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from showdown.evaluation.estimators import Estimator
from showdown.matches.agent_process import package_environment, send_signal
from showdown.matches.config import MatchConfig, config_from_json, config_to_json
from showdown.protocol.logfile import count_summary_lines

__all__ = ["ChildResult", "Job", "JobState", "run_jobs", "run_jobs_blocking", "default_parallel"]

TICK = 0.5  # seconds between progress callbacks
WORKER_EXIT_WAIT = 10.0  # seconds a worker told to stop (stdin closed) may take before it is killed


def default_parallel() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


@dataclass
class Job:
    """One match to play in a child: its config (``out`` and ``name`` set, so the log paths are
    known), where the result document goes, and a short label for messages."""

    config: MatchConfig
    result_path: Path
    label: str = ""
    plain_figures: bool = False
    """The caller works the match's figures out from its logs (a tournament): the child keeps only
    the plain ones as it plays (measured: 3.7 against 26 us a Kuhn hand for AIVAT's running figures)."""
    chance_corrections: bool = False
    """The caller will take the cards' luck out of the match's log (a duplicate half, chance-corrected):
    the child works out every hand's correction once it has played, while its neighbours still play,
    and leaves them beside the log (``chance_file``), so the caller's analysis only looks them up."""

    @property
    def chance_file(self) -> Path | None:
        jsonl = self.jsonl_path
        return None if jsonl is None else jsonl.with_suffix(".chance.json")

    @property
    def jsonl_path(self) -> Path | None:
        c = self.config
        if c.out is None or c.name is None:
            return None
        return Path(c.out) / f"{c.name}.jsonl"


@dataclass(frozen=True)
class ChildResult:
    """What a child process says of the match it played: the fields of its ``--json`` document
    (``report_json``) that the parent uses, typed, and the document itself (``doc``)."""

    hands: int = 0
    log: str | None = None
    jsonl: str | None = None
    aborted: bool = False
    interrupted: bool = False
    reason: str | None = None
    elapsed_s: float | None = None
    replaced_hands: dict[str, int] = field(default_factory=dict)
    replacements: dict[str, dict[str, int]] = field(default_factory=dict)
    failures: tuple[str, ...] = ()
    doc: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> ChildResult:
        """From a child's document (``ValueError`` when it is not one)."""
        try:
            return cls(
                hands=int(doc.get("hands") or 0),
                log=None if doc.get("log") is None else str(doc["log"]),
                jsonl=None if doc.get("jsonl") is None else str(doc["jsonl"]),
                aborted=bool(doc.get("aborted")),
                interrupted=bool(doc.get("interrupted")),
                reason=None if doc.get("reason") is None else str(doc["reason"]),
                elapsed_s=None if doc.get("elapsed_s") is None else float(doc["elapsed_s"]),
                replaced_hands={str(k): int(v) for k, v in (doc.get("replaced_hands") or {}).items()},
                replacements={str(k): {str(a): int(b) for a, b in v.items()} for k, v in (doc.get("replacements") or {}).items()},
                failures=tuple(str(f) for f in doc.get("failures") or ()),
                doc=dict(doc),
            )
        except (TypeError, AttributeError) as exc:
            raise ValueError(f"not a match result: {exc}") from None

    def to_json(self) -> dict[str, Any]:
        """The child's whole document (what ``from_json`` read, fields as typed here)."""
        return {
            **self.doc, "hands": self.hands, "log": self.log, "jsonl": self.jsonl, "aborted": self.aborted,
            "interrupted": self.interrupted, "reason": self.reason, "elapsed_s": self.elapsed_s,
            "replaced_hands": self.replaced_hands, "replacements": self.replacements, "failures": list(self.failures),
        }  # fmt: skip


@dataclass
class JobState:
    """What is known about a job while the batch runs."""

    job: Job
    started: float | None = None
    finished: float | None = None
    hands: int = 0  # hands finished so far (from its log)
    result: ChildResult | None = None
    returncode: int | None = None
    error: str | None = None
    _offset: int = 0
    _lines: list[str] = field(default_factory=list)

    def count_hands(self) -> None:
        """Update ``hands`` from the bytes added to the job's JSON Lines log since the last call."""
        path = self.job.jsonl_path
        if path is None:
            return
        try:
            with path.open("rb") as f:
                f.seek(self._offset)
                chunk = f.read()
        except OSError:
            return
        if not chunk:
            return
        last = chunk.rfind(b"\n")
        if last < 0:
            return
        whole = chunk[: last + 1]
        self._offset += last + 1
        self.hands += whole.count(b"\n") - count_summary_lines(whole)

    def read_result(self, path: Path, tail: Sequence[str]) -> None:
        """Take the finished child's result document, or say why there is none."""
        try:
            self.take_result(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            self.result = None
        if self.result is None and self.error is None:
            self.error = tail[-1] if tail else f"the match process exited with status {self.returncode}"

    def take_result(self, doc: Any) -> None:
        """A child's document: its result, or the error it reports (``ValueError``: neither)."""
        if not isinstance(doc, dict):
            raise ValueError("not a match result")
        if "error" in doc:
            self.error, self.result = str(doc["error"]), None
        else:
            self.result = ChildResult.from_json(doc)


async def run_jobs(
    jobs: Sequence[Job],
    parallel: int,
    *,
    on_tick: Callable[[Sequence[JobState]], None] | None = None,
    on_done: Callable[[JobState], None] | None = None,
    on_line: Callable[[JobState, str], None] | None = None,
    on_interrupt: Callable[[int, int], None] | None = None,
    install_signals: bool = False,
) -> list[JobState]:
    """Play every job, at most ``parallel`` at once; returns their states in job order.

    ``on_interrupt(n, signal)`` is told of the n-th Ctrl-C or SIGTERM (after it has been passed on
    to the children as a Ctrl-C).
    """
    batch = _Batch(jobs, parallel, on_done=on_done, on_line=on_line, on_interrupt=on_interrupt)
    return await batch.run(on_tick, install_signals)


class _Batch:
    """The jobs of one ``run_jobs`` call: a queue, the children running, Ctrl-C passed on to them."""

    def __init__(
        self,
        jobs: Sequence[Job],
        parallel: int,
        *,
        on_done: Callable[[JobState], None] | None,
        on_line: Callable[[JobState, str], None] | None,
        on_interrupt: Callable[[int, int], None] | None,
    ) -> None:
        self.states = [JobState(j) for j in jobs]
        self.parallel = parallel
        self.on_done = on_done
        self.on_line = on_line
        self.on_interrupt = on_interrupt
        self.running: dict[int, asyncio.subprocess.Process] = {}  # by job: the worker playing it
        self.idle: list[asyncio.subprocess.Process] = []  # workers waiting for a job
        self.workers: list[asyncio.subprocess.Process] = []  # every worker started
        self.token = secrets.token_hex(8)  # a worker's "job done" line starts with it
        self.interrupts = 0
        self.stop_signal = 0
        self.env = package_environment()

    def on_signal(self, sig: int) -> None:
        self.interrupts += 1
        self.stop_signal = self.stop_signal or sig
        for proc in self.running.values():
            send_signal(proc, signal.SIGINT)
        if self.on_interrupt is not None:
            self.on_interrupt(self.interrupts, sig)

    async def run(self, on_tick: Callable[[Sequence[JobState]], None] | None, install_signals: bool) -> list[JobState]:
        loop = asyncio.get_running_loop()
        installed = install_signals and _add_stop_signals(loop, self.on_signal)
        queue = list(range(len(self.states)))
        tasks: set[asyncio.Task[None]] = set()
        try:
            while queue or tasks:
                while queue and len(tasks) < self.parallel and not self.interrupts:
                    tasks.add(asyncio.ensure_future(self.play(queue.pop(0))))
                if self.interrupts and not tasks:
                    break
                done, _ = await asyncio.wait(tasks, timeout=TICK)
                for t in done:
                    tasks.discard(t)
                    t.result()
                for i in self.running:
                    self.states[i].count_hands()
                if on_tick is not None:
                    on_tick(self.states)
        finally:
            if installed:
                for sig in STOP_SIGNALS:
                    loop.remove_signal_handler(sig)
            for proc in self.running.values():
                send_signal(proc, signal.SIGTERM)
            if tasks:
                await asyncio.wait(tasks, timeout=10)
            await self._stop_workers()
        return self.states

    async def _stop_workers(self) -> None:
        """Close every worker's stdin (it exits when idle), and kill those that do not exit in time."""
        for proc in self.workers:
            if proc.stdin is not None and not proc.stdin.is_closing():
                proc.stdin.close()
        waits = [asyncio.ensure_future(proc.wait()) for proc in self.workers]
        if waits:
            _, late = await asyncio.wait(waits, timeout=WORKER_EXIT_WAIT)
            for proc in self.workers:
                if proc.returncode is None:
                    send_signal(proc, signal.SIGKILL)
            if late:
                await asyncio.wait(late, timeout=WORKER_EXIT_WAIT)

    async def _worker(self) -> asyncio.subprocess.Process:
        """An idle worker, or a new one."""
        if self.idle:
            return self.idle.pop()
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "showdown.matches.parallel",
            "--worker",
            self.token,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            env=self.env,
            start_new_session=True,  # Ctrl-C reaches the parent, which passes it on
        )
        self.workers.append(proc)
        return proc

    def _prepared(self, job: Job) -> tuple[Job, Path]:
        """The job as its child plays it, and the file that tells the child what to play."""
        if self.parallel > 1:  # dealers that busy-wait would take the cores their neighbours' agents need
            quiet = dataclasses.replace(job.config.dealer, spin_us=0)
            job = dataclasses.replace(job, config=dataclasses.replace(job.config, dealer=quiet))
        if job.plain_figures:
            job = dataclasses.replace(job, config=dataclasses.replace(job.config, estimator=Estimator.PLAIN))
        job.result_path.parent.mkdir(parents=True, exist_ok=True)
        if job.config.out is not None:
            Path(job.config.out).mkdir(parents=True, exist_ok=True)
        run_file = job.result_path.with_name(job.result_path.name + ".run.json")
        run_file.write_text(json.dumps({"config": config_to_json(job.config), "result": str(job.result_path),
                                        "chance": str(job.chance_file) if job.chance_corrections else None}))
        job.result_path.unlink(missing_ok=True)
        return job, run_file

    async def play(self, i: int) -> None:
        state = self.states[i]
        job, run_file = self._prepared(state.job)
        state.started = time.monotonic()
        proc = await self._worker()
        self.running[i] = proc
        if self.interrupts:
            send_signal(proc, signal.SIGINT)
        assert proc.stdin is not None
        status: int | None = None
        try:
            proc.stdin.write(f"{run_file}\n".encode())
            await proc.stdin.drain()
        except (ConnectionError, RuntimeError):  # the worker is gone: its exit status says why
            tail: list[str] = []
        else:
            tail, status = await self._read_lines(state, proc)
        if status is None:  # the worker ended before it finished the job
            status = await proc.wait()
        elif not self.interrupts:
            self.idle.append(proc)
        state.returncode = status
        self.running.pop(i, None)
        run_file.unlink(missing_ok=True)
        state.finished = time.monotonic()
        state.count_hands()
        state.read_result(job.result_path, tail)
        if self.on_done is not None:
            self.on_done(state)

    async def _read_lines(self, state: JobState, proc: asyncio.subprocess.Process) -> tuple[list[str], int | None]:
        """Pass the worker's lines on until it says the job is done; its last few lines, and the
        job's exit status (None: the worker ended first)."""
        assert proc.stderr is not None
        tail: list[str] = []
        done = self.token + " "
        while raw := await proc.stderr.readline():
            text = raw.decode("utf-8", "replace").rstrip()
            if not text:
                continue
            if text.startswith(done):
                return tail, int(text[len(done) :])
            tail = (tail + [text])[-5:]
            if self.on_line is not None and not self.interrupts:  # after Ctrl-C the children's farewells are noise
                self.on_line(state, text)
        return tail, None


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _add_stop_signals(loop: asyncio.AbstractEventLoop, handler: Callable[[int], None]) -> bool:
    try:
        for sig in STOP_SIGNALS:
            loop.add_signal_handler(sig, handler, sig)
    except (NotImplementedError, RuntimeError, ValueError):
        return False
    return True


def run_jobs_blocking(jobs: Sequence[Job], parallel: int, **kw: Any) -> list[JobState]:
    """``run_jobs`` in a fresh event loop; signals are installed on the main thread only."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        kw["install_signals"] = False
    return asyncio.run(run_jobs(jobs, parallel, **kw))


# ---------------------------------------------------------------------- the child


def _child(run_file: str) -> int:
    from showdown.errors import ShowdownError
    from showdown.evaluation.report import report_json
    from showdown.matches.plain import run_plain

    spec = json.loads(Path(run_file).read_text(encoding="utf-8"))
    result = Path(spec["result"])
    config = config_from_json(spec["config"])
    try:
        report = run_plain(config, progress=False)
        doc: dict[str, Any] = report_json(report)
        status = 130 if report.interrupted else (1 if report.aborted else 0)
    except ShowdownError as exc:
        doc = {"error": str(exc)}
        status = 2
    if spec.get("chance") and status == 0 and report.jsonl_path is not None:
        _save_corrections(report.jsonl_path, config, Path(spec["chance"]))
    tmp = result.with_name(result.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    os.replace(tmp, result)
    return status


def _save_corrections(jsonl: Path, config: MatchConfig, path: Path) -> None:
    """The chance corrections of the log the child wrote (``Job.chance_corrections``); nothing when
    they cannot be had (the parent then works them out itself, as it always could)."""
    from showdown.evaluation.log_reading import log_corrections
    from showdown.games.catalog import get_game

    try:
        doc = log_corrections(jsonl, get_game(config.game), config.chance_boards)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(doc), encoding="utf-8")
        os.replace(tmp, path)
    except Exception:  # noqa: BLE001 - only a shortcut: the parent's analysis does without it
        path.unlink(missing_ok=True)


def _end_with_parent() -> None:
    """A SIGTERM for this worker when its parent dies (Linux): the runner killed -9 left its workers
    playing on, orphans whose match a ``--resume`` then found still running; a SIGTERM stops the match
    after its current hand, as at a Ctrl-C, and it resumes."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent was gone before the request took
        os.kill(os.getpid(), signal.SIGTERM)


def _worker(token: str) -> int:
    """Play the jobs whose run files come on stdin, one a line, saying ``TOKEN STATUS`` on stderr
    after each; exit at the end of stdin."""
    _end_with_parent()
    for line in sys.stdin:
        run_file = line.rstrip("\n")
        if run_file:
            status = _child(run_file)
            try:
                print(f"{token} {status}", file=sys.stderr, flush=True)
            except OSError:  # the parent is gone: no one to play for
                return 0
    return 0


if __name__ == "__main__":
    # a child started by a Ray worker inherits its blocked SIGINT: unblock, so that Ctrl-C stops it
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    try:
        sys.exit(_worker(sys.argv[2]) if sys.argv[1] == "--worker" else _child(sys.argv[1]))
    except KeyboardInterrupt:  # stopped before the match could install its own handler
        sys.exit(130)

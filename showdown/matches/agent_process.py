"""One agent's OS process in a match: its command line, its start, its output (the last lines kept
for messages, everything copied beside the logs), its exit, and the reaping of what is left."""

from __future__ import annotations

import asyncio
import errno
import os
import shlex
import signal
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from showdown.matches.bot_errors import traceback_line
from showdown.matches.config import AgentSpec
from showdown.matches.sandbox import Jail

if TYPE_CHECKING:
    from showdown.server.timing import DealerSettings

__all__ = [
    "AGENT_EXIT_GRACE", "HOST", "AgentProcess", "agent_command", "agent_environment", "exit_text", "package_environment", "reap",
    "send_signal",
]

HOST = "127.0.0.1"
AGENT_EXIT_GRACE = 5.0  # seconds agents get to exit after the dealer closes their connection
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
_LINE_KEPT = 300  # characters of each output line kept for messages
_EXIT_POLL = 0.1  # seconds between looks at whether a process whose pipes are still open has ended
_READ_LIMIT = 1 << 16  # bytes of one output line read as a line (asyncio's default)
OUTPUT_CAP = 16 << 20  # bytes of a bot's output copied beside the logs; the rest is read and dropped


def agent_command(spec: AgentSpec, game_arg: str, seed: int, host: str, port: int) -> list[str]:
    """The command line that starts ``spec`` against ``host:port``: a command's ``{host}`` and ``{port}``
    filled in, else both appended (check-bot's ``"CMD {host} {port}"`` given to scorecard, probes or a
    match started ``CMD {host} {port} 127.0.0.1 PORT``: the bot's "invalid port {port}")."""
    if spec.command is not None:
        if "{host}" in spec.command or "{port}" in spec.command:
            return shlex.split(spec.command.replace("{host}", host).replace("{port}", str(port)))
        return [*shlex.split(spec.command), host, str(port)]
    assert spec.name is not None
    # a built-in agent's process does not put the current folder first on its path (-P): a user's
    # random.py or json.py there would be imported instead of the standard library's and break it;
    # a bot of the user's own (module:Class, a file) is looked for there, as it always was
    own = ":" in spec.name or spec.name.endswith(".py")
    args = [sys.executable, *(() if own else ("-P",)), "-m", "showdown", "agent", spec.name, "--game", game_arg, "--seed", str(seed)]
    for key, value in spec.options.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        args += ["-o", f"{key}={value}"]
    return [*args, host, str(port)]


def start_error(exc: OSError) -> str:
    """Why a program could not be started, with the fix where it is known: a script with no ``#!`` line
    is 'Exec format error' (uvloop's spawn runs it with /bin/sh, asyncio's does not: check-bot refused
    a bot a match had played)."""
    text = exc.strerror or str(exc)
    if exc.errno == errno.ENOEXEC:
        text += " (a script must name its interpreter on its first line, like #!/bin/sh or #!/usr/bin/env python3)"
    return text


def package_environment() -> dict[str, str]:
    """Our environment, with this package importable by a child ``python -m showdown...``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH", "")) if p)
    return env


def agent_environment(game_arg: str, limits: DealerSettings | None = None) -> dict[str, str]:
    """The environment of every agent process: ours, the game named, this package importable, and the
    dealer's time limits (``limits``: its ``t_response_ms``, ``t_hand_ms`` and ``t_per_hand_ms``), which
    the protocol never sends (``agents.clock``)."""
    from showdown.agents.clock import CLOCK_ENV, clock_text

    env = {**package_environment(), "SHOWDOWN_GAME": game_arg}
    env.pop(CLOCK_ENV, None)  # (a runner started by a match of its own passes on no clock but its dealer's)
    if limits is not None:
        env[CLOCK_ENV] = clock_text(limits.t_response_ms, limits.t_hand_ms, limits.t_per_hand_ms)
    return env


@dataclass
class AgentProcess:
    """The process of the agent in ``seat``; ``env`` is added to the common environment."""

    seat: int
    label: str
    args: list[str]
    output_path: Path | None = None  # where its stdout and stderr are copied (beside the logs; None: nowhere)
    env: dict[str, str] = field(default_factory=dict)
    proc: asyncio.subprocess.Process | None = None
    stderr_tail: deque[str] = field(default_factory=lambda: deque(maxlen=20))  # a traceback's end
    reader: asyncio.Task[None] | None = None
    watcher: asyncio.Task[None] | None = None
    killed: bool = False
    jail: Jail | None = None  # its sandbox (None: it runs as we do)
    pipe: asyncio.ReadTransport | None = None  # our end of its output's pipe

    def release(self) -> None:
        """Close our end of its output's pipe, which a child it left may hold open for ever."""
        if self.pipe is not None:
            self.pipe.close()

    async def start(self, common_env: dict[str, str]) -> None:
        """Start the process (``OSError`` when it cannot be) and begin reading its output."""
        env = {**common_env, **self.env}
        jail = self.jail
        if jail is not None:
            paths = os.pathsep.join((_PACKAGE_ROOT, *jail.keep_paths))
            env = jail.environment({**{k: env[k] for k in ("SHOWDOWN_GAME", "SHOWDOWN_TIME_LIMITS") if k in env}, **self.env, "PYTHONPATH": paths})
        # its output through a pipe of our own, read by a transport we hold (asyncio's own pipes
        # would be closed only through the process's private transport, and would make its exit
        # wait for a child the bot left holding them)
        read_fd, write_fd = os.pipe()
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.args,
                stdin=asyncio.subprocess.DEVNULL,
                # its stdout and stderr in one stream: read for messages (a shell script says why it
                # stopped on stdout as often as not), copied beside the logs when there are logs
                stdout=write_fd,
                stderr=write_fd,
                env=env,
                start_new_session=True,  # the terminal's Ctrl-C is for the runner only
                preexec_fn=None if jail is None else jail.preexec,
                cwd=None if jail is None else jail.workdir,
            )
        except BaseException:
            os.close(read_fd)
            raise
        finally:
            os.close(write_fd)
        stream = asyncio.StreamReader(limit=_READ_LIMIT)
        self.pipe, _ = await asyncio.get_running_loop().connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(stream), os.fdopen(read_fd, "rb", buffering=0))
        self.reader = asyncio.ensure_future(self._read_output(stream))

    async def _read_output(self, stream: asyncio.StreamReader) -> None:
        """Keep the last lines for messages and copy the first ``OUTPUT_CAP`` bytes to the seat's
        output file, then one line saying the rest was not kept; read to the end all the same (a bot
        must never block on a full pipe)."""
        sink = None
        if self.output_path is not None:
            try:
                sink = open(self.output_path, "wb")
            except OSError:
                sink = None
        kept = 0
        continued = False
        try:
            while raw := await _read_line(stream):
                if sink is not None:
                    try:
                        if kept + len(raw) > OUTPUT_CAP:
                            sink.write(_cap_line(raw[: OUTPUT_CAP - kept]))
                            sink.close()
                            sink = None
                        else:
                            sink.write(raw)
                            sink.flush()
                            kept += len(raw)
                    except OSError:
                        sink = None
                text = raw.decode("utf-8", "replace").rstrip()
                if text and not continued:  # a line read in pieces (over 64 KiB) is kept once, by its start
                    cut = len(text) > _LINE_KEPT or not raw.endswith(b"\n")
                    self.stderr_tail.append(text[:_LINE_KEPT] + (" [...]" if cut else ""))
                continued = not raw.endswith(b"\n")
        finally:
            if sink is not None:
                sink.close()

    async def exit_status(self) -> int:
        """Wait for the process to end (and its last output to be read); its return code."""
        assert self.proc is not None
        await wait_exit(self.proc)
        rc = self.proc.returncode
        assert rc is not None
        if self.reader is not None:
            try:
                await asyncio.wait_for(self.reader, 1.0)
            except (TimeoutError, asyncio.CancelledError):
                pass
        return rc

    @property
    def last_line(self) -> str:
        """Its Python traceback in one line (``file:line: Error: message``), else its last line."""
        return traceback_line(self.stderr_tail) or (self.stderr_tail[-1] if self.stderr_tail else "")

    def last_words(self, lines: int = 3) -> str:
        """Its traceback in one line or its last output lines, for a message; where the rest is."""
        said = traceback_line(self.stderr_tail) or "; ".join(list(self.stderr_tail)[-lines:]) or "it printed nothing"
        return said + (f" (its output: {self.output_path})" if self.output_path is not None else "")


async def _read_line(stream: asyncio.StreamReader) -> bytes:
    """The next line, or the next piece of a line over the reader's limit (``readline`` threw away all
    it held of such a line: the copy of the output lost it, and messages quoted scattered pieces)."""
    try:
        return await stream.readuntil(b"\n")
    except asyncio.IncompleteReadError as exc:  # the output's end, with no line end
        return exc.partial
    except asyncio.LimitOverrunError as exc:  # left in the reader: taken piece by piece
        return await stream.read(max(1, min(exc.consumed, 1 << 16)))


def _cap_line(start: bytes) -> bytes:
    """What ends an output file at its cap: the start of the line that reached it, then the marker."""
    return start + (b"" if not start or start.endswith(b"\n") else b"\n") + (
        f"[showdown: the bot's output past {OUTPUT_CAP >> 20} MiB was not kept]\n".encode())


def left_processes(proc: asyncio.subprocess.Process | None) -> bool:
    """Whether processes ``proc`` started are still running after it ended: its process group (its
    own session, started with it) has members. A launcher does this: a script that starts the bot in
    the background and exits 0 while the bot connects."""
    if proc is None:
        return False
    try:
        os.killpg(proc.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # members running as another user (a sandbox's): still there
        return True
    return True


def end_group(proc: asyncio.subprocess.Process | None) -> bool:
    """Kill what ``proc`` left running in its process group (``left_processes``); whether there was any."""
    if not left_processes(proc):
        return False
    assert proc is not None
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    return True


def exit_text(rc: int) -> str:
    """How a process ended, in words."""
    if rc > 0:
        return f"exited with status {rc}"
    return f"was killed by signal {-rc}" if rc < 0 else "exited"


async def reap(agents: Sequence[AgentProcess]) -> None:
    """Let agents exit on their own (they saw EOF), then terminate and kill what is left."""
    procs = [a for a in agents if a.proc is not None]
    deadline = time.monotonic() + AGENT_EXIT_GRACE
    for a in procs:
        assert a.proc is not None
        if a.proc.returncode is None:
            if not await wait_exit(a.proc, max(0.05, deadline - time.monotonic())):
                a.killed = True
                send_signal(a.proc, signal.SIGTERM)
    for a in procs:
        assert a.proc is not None
        if a.proc.returncode is None and not await wait_exit(a.proc, 2.0):
            send_signal(a.proc, signal.SIGKILL)
            await wait_exit(a.proc)
    # what a launcher left running (its bot) has the same grace, then the match is over for it too
    left = [a.proc for a in procs if left_processes(a.proc)]
    while left and time.monotonic() < deadline:
        await asyncio.sleep(_EXIT_POLL)
        left = [proc for proc in left if left_processes(proc)]
    for proc in left:
        end_group(proc)
    tasks = [t for a in procs for t in (a.watcher, a.reader) if t is not None]
    if tasks:
        await asyncio.wait(tasks, timeout=2.0)
    for t in tasks:
        t.cancel()
    for a in procs:
        a.release()


async def wait_exit(proc: asyncio.subprocess.Process, within: float | None = None) -> bool:
    """Whether ``proc`` ended within ``within`` s (None: wait for it). Its exit, not its pipes:
    ``proc.wait()`` also waits until its output is closed, which a child it left behind may hold
    open for ever (the bot had ended, and was reported as still running)."""
    deadline = None if within is None else time.monotonic() + within
    waiter = asyncio.ensure_future(proc.wait())  # the usual case: its pipes close as it ends
    try:
        while proc.returncode is None:
            left = _EXIT_POLL if deadline is None else min(_EXIT_POLL, deadline - time.monotonic())
            if left <= 0:
                return False
            await asyncio.wait([waiter], timeout=left)
        return True
    finally:
        waiter.cancel()


def send_signal(proc: asyncio.subprocess.Process, sig: int) -> None:
    """Signal ``proc`` if it is still there."""
    try:
        proc.send_signal(sig)
    except ProcessLookupError:
        pass

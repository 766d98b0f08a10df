"""A sandbox for agent processes you did not write: resource limits, a private folder, a scrubbed
environment, and no network but the dealer's port.

Each sandboxed seat gets a ``Jail``: the child process, between its fork and its exec
(``Jail.preexec``), joins a network namespace of its own (where the dealer already listens on the
seat's port, ``network_namespace``), drops root for a user id of its own where it can, sets the ``setrlimit`` limits and starts
in a private working folder with only the environment a bot needs. The process limit is a pids
control group where one can be made (``Jail.cgroup``), else ``RLIMIT_NPROC`` for a bot that runs
under a user id of its own (root runs bots as one when their program is readable by everyone:
Linux never applies ``RLIMIT_NPROC`` to root). The per-hand CPU limit is
watched from the dealer's side (``watch_cpu``): ``RLIMIT_CPU`` can only bound the whole match.

A bot that hits a limit dies (the kernel's SIGXCPU, SIGXFSZ, a failed allocation) or is killed by
``watch_cpu``; ``limit_hit`` names the limit from how it ended, and the match goes on with the
dealer playing for it, like any crashed bot. A fork bomb is blocked (its forks fail). What the
machine does not allow (no root: the process and network limits) is said in ``Jail.notes``.
"""

from __future__ import annotations

import asyncio
import ctypes
import errno
import fcntl
import os
import resource
import shutil
import signal
import socket
import struct
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from showdown.matches.limits import Limits

__all__ = [
    "Jail", "Limits", "MatchJails", "confine", "is_sandboxed", "limit_hit", "make_jails", "network_namespace", "watch_cpu",
]

_CLONE_NEWNET = 0x40000000
_UID_BASE = 1_500_000_000  # far above real accounts; one id per (dealer process, jail slot)
_SLOTS = 64  # user ids per dealer process
_slots_in_use: set[int] = set()  # the slots of this process's open jails
_CPU_POLL_S = 0.2


# --------------------------------------------------------------------------- the network


_LIBC: Any = None


def _libc() -> Any:
    """The C library, loaded once (``preexec`` runs between fork and exec: no loading there)."""
    global _LIBC
    if _LIBC is None:
        _LIBC = ctypes.CDLL(None, use_errno=True)
    return _LIBC


def _bring_up_loopback() -> None:
    """Set the namespace's ``lo`` up (a new namespace starts with it down): SIOCGIFFLAGS, SIOCSIFFLAGS."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        ifreq = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(s, 0x8913, ifreq))[1]
        fcntl.ioctl(s, 0x8914, struct.pack("16sH14x", b"lo", flags | 0x1))  # IFF_UP


def network_namespace(host: str) -> tuple[int, socket.socket] | str:
    """A fresh network namespace with only loopback, and a listening socket on ``host`` inside it:
    (the namespace's descriptor, the socket); or why the machine does not allow it.

    A helper thread leaves our namespace (``unshare`` acts on the calling thread only), so the dealer
    keeps its own; a socket belongs to the namespace it was made in, so the dealer's end of the seat
    lives where the bot is, and nothing else does: no forwarding, no cost per message."""
    out: list[tuple[int, socket.socket] | str] = []

    def make() -> None:
        try:
            if _libc().unshare(_CLONE_NEWNET) != 0:
                err = ctypes.get_errno()
                out.append(f"unshare(CLONE_NEWNET) failed: {os.strerror(err)}")
                return
            _bring_up_loopback()
            fd = os.open("/proc/thread-self/ns/net", os.O_RDONLY | os.O_CLOEXEC)
            listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((host, 0))
            listener.listen(8)
            out.append((fd, listener))
        except OSError as exc:
            out.append(f"no network namespace: {exc.strerror or exc}")

    t = threading.Thread(target=make, name="showdown-netns")
    t.start()
    t.join()
    return out[0] if out else "no network namespace"


# --------------------------------------------------------------------------- processes


def _pids_cgroup(name: str, limit: int) -> Path | None:
    """A new pids control group allowing ``limit`` tasks (cgroup v1's pids hierarchy, or v2 where the
    pids controller is enabled at the root), or None where we may not make one."""
    candidates = [Path("/sys/fs/cgroup/pids")]
    try:
        if "pids" in Path("/sys/fs/cgroup/cgroup.subtree_control").read_text().split():
            candidates.append(Path("/sys/fs/cgroup"))
    except OSError:
        pass
    for base in candidates:
        _remove_stale_groups(base)
        group = base / name
        try:
            group.mkdir()
        except OSError:
            continue
        try:
            (group / "pids.max").write_text(str(limit))
            return group
        except OSError:
            group.rmdir()
    return None


def _remove_stale_groups(base: Path) -> None:
    """Remove the empty groups of dealers that are gone (killed before they could clean up)."""
    try:
        stale = [g for g in base.glob("showdown-*-*") if not Path(f"/proc/{g.name.split('-')[1]}").exists()]
    except OSError:
        return
    for group in stale:
        try:
            group.rmdir()  # refused while a process is still in it
        except OSError:
            pass


def _empty_cgroup(group: Path) -> None:
    """Forbid new tasks in ``group``, then kill its tasks until none is left."""
    try:
        (group / "pids.max").write_text("0")
    except OSError:
        pass
    for _ in range(100):
        try:
            pids = [int(x) for x in (group / "cgroup.procs").read_text().split()]
        except OSError:
            return
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.01)


def _not_public(args: list[str]) -> str | None:
    """The first file of a command line (its program, resolved on PATH, and every path argument)
    that a user other than its owner cannot read, or None when all can."""
    paths = [shutil.which(args[0]) or args[0]] if args else []
    paths += [a for a in args[1:] if os.path.isabs(a) and os.path.exists(a)]
    for p in paths:
        real = Path(os.path.realpath(p))
        for folder in real.parents:
            if not os.stat(folder).st_mode & 0o001:
                return str(folder)
        if os.path.exists(real) and not os.stat(real).st_mode & 0o004:
            return str(real)
    return None


# --------------------------------------------------------------------------- one seat


class Jail:
    """Everything that confines one bot: made before its process starts, ``close``d after it ended.

    ``listener`` is the socket the dealer serves the seat on (inside the bot's namespace), None
    when the network is not isolated; ``notes`` say which limits do not apply on this machine."""

    def __init__(self, seat: int, limits: Limits, host: str, keep_paths: tuple[str, ...] = (), program: list[str] | None = None) -> None:
        self.limits = limits
        self.notes: list[str] = []
        self.is_root = os.geteuid() == 0
        self.workdir = Path(tempfile.mkdtemp(prefix=f"showdown-seat{seat + 1}-"))
        self.keep_paths = keep_paths
        self.uid: int | None = None
        # a slot of its own among this process's open jails, not its seat: check-bot runs two jails for
        # seat 0 at once, and closing one killed the other's bot (the same user id and control group)
        self._slot = next((i for i in range(_SLOTS) if i not in _slots_in_use), None)
        if self._slot is not None:
            _slots_in_use.add(self._slot)
        if self.is_root:
            hidden = _not_public(program or [])
            if hidden is None and self._slot is not None:
                self.uid = _UID_BASE + (os.getpid() % 100_000) * _SLOTS + self._slot
                os.chown(self.workdir, self.uid, self.uid)
            elif hidden is None:
                self.notes.append(f"user: runs as root (more than {_SLOTS} sandboxed bots at once)")
            else:
                self.notes.append(f"user: runs as root ({hidden} is not readable by other users)")
        group = f"showdown-{os.getpid()}-{self._slot if self._slot is not None else f'x{id(self)}'}"
        self.cgroup = _pids_cgroup(group, limits.processes)
        if self.cgroup is None and self.uid is None:
            self.notes.append("processes: not limited (no pids control group, and the bot runs under our own user id)")
        self.netns_fd: int | None = None
        self.listener: socket.socket | None = None
        if not limits.network:
            made = network_namespace(host) if self.is_root else "a network namespace needs root"
            if isinstance(made, str):
                self.notes.append(f"network: not blocked ({made})")
            else:
                self.netns_fd, self.listener = made
        self.stopped_for: str | None = None  # the limit watch_cpu killed it for
        self._setns = _libc().setns if self.netns_fd is not None else None

    def environment(self, keep: Mapping[str, str]) -> dict[str, str]:
        """The bot's whole environment: what it needs (``keep``), nothing inherited but PATH and the
        locale; its home and temporary folder are the private folder."""
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "TZ")}
        env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
        env.update(HOME=str(self.workdir), TMPDIR=str(self.workdir), PYTHONDONTWRITEBYTECODE="1")
        env.update(keep)
        return env

    def preexec(self) -> None:
        """Runs in the child between fork and exec: namespace, user, limits (in that order: the
        namespace needs root, the limits must bind the new user)."""
        if self._setns is not None and self._setns(self.netns_fd, _CLONE_NEWNET) != 0:
            os._exit(126)
        lim = self.limits
        if self.cgroup is not None:
            (self.cgroup / "cgroup.procs").write_text(str(os.getpid()))
        if self.uid is not None:
            os.setgroups([])
            os.setgid(self.uid)
            os.setuid(self.uid)
        mb = 1 << 20
        for which, soft, hard in (
            (resource.RLIMIT_AS, lim.memory_mb * mb, lim.memory_mb * mb),
            (resource.RLIMIT_CPU, lim.cpu_s, lim.cpu_s + 1),  # SIGXCPU at the soft limit names it
            (resource.RLIMIT_NOFILE, lim.open_files, lim.open_files),
            (resource.RLIMIT_FSIZE, lim.file_mb * mb, lim.file_mb * mb),
            (resource.RLIMIT_CORE, 0, 0),
        ):
            resource.setrlimit(which, (soft, hard))
        if self.uid is not None and self.cgroup is None:
            resource.setrlimit(resource.RLIMIT_NPROC, (lim.processes, lim.processes))

    def kill_all(self) -> None:
        """Kill every process the bot left (children that left its process group too): those of its
        control group, and those under its user id, from a short-lived child that takes that id
        (``kill(-1)`` reaches exactly those)."""
        if self.cgroup is not None:
            _empty_cgroup(self.cgroup)
        if self.uid is None:
            return
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            try:
                os.setgid(self.uid)
                os.setuid(self.uid)
                for _ in range(3):  # a fork bomb may make more while we kill
                    os.kill(-1, signal.SIGKILL)
            except OSError:
                pass
            os._exit(0)
        os.waitpid(pid, 0)

    def close(self) -> None:
        """Kill what is left, remove the private folder, leave the namespace."""
        self.kill_all()
        if self._slot is not None:  # its user id may now go to another jail: never kill by it again
            _slots_in_use.discard(self._slot)
            self._slot = None
            self.uid = None
        if self.cgroup is not None:
            try:
                self.cgroup.rmdir()
            except OSError:
                pass
            self.cgroup = None
        shutil.rmtree(self.workdir, ignore_errors=True)
        if self.listener is not None:
            self.listener.close()
        if self.netns_fd is not None:
            os.close(self.netns_fd)
            self.netns_fd = None

    def describe(self) -> str:
        lim = self.limits
        net = "allowed" if lim.network else ("dealer's port only" if self.listener is not None else "not blocked")
        return (f"memory {lim.memory_mb} MB, CPU {lim.cpu_s_per_hand:g} s a hand and {lim.cpu_s} s in all, "
                f"{lim.processes} processes, {lim.open_files} open files, files up to {lim.file_mb} MB, network: {net}")


def is_sandboxed(spec: Any, sandbox: bool) -> bool:
    """Whether the seat ``spec`` (an ``AgentSpec``) runs sandboxed: it has its own ``limits``, or the
    match asks for the sandbox and the bot is not built in (a file, a command, or ``module:Class``)."""
    return spec.limits is not None or (sandbox and (spec.command is not None or ":" in (spec.name or "")))


def make_jails(specs: Any, sandbox: bool, host: str, commands: list[list[str]]) -> list[Jail | None]:
    """One ``Jail`` per sandboxed seat of ``specs`` (None for the others), ``commands`` their command
    lines; ``module:Class`` bots keep the current folder importable."""
    here = (os.getcwd(),)
    return [
        Jail(seat, spec.limits or Limits(), host, here if spec.name else (), commands[seat])
        if is_sandboxed(spec, sandbox) else None
        for seat, spec in enumerate(specs)
    ]


SANDBOX_ENDS_LEFTOVERS = ("; in the sandbox what a program leaves running ends with it: start the bot in the foreground "
                          "(exec it from a launcher script) or run it unsandboxed")
"""Said of a launcher (a program that exits 0 and leaves its bot running) that exited in the sandbox."""


class MatchJails:
    """The jails of one match's seats (None where a seat is not sandboxed), from start to clean-up:
    what ``MatchRun`` asks of the sandbox."""

    def __init__(self, specs: Any, sandbox: bool, host: str, commands: list[list[str]], say: Callable[[str], None],
                 labels: list[str]) -> None:
        self.jails = make_jails(specs, sandbox, host, commands)
        self.watchers: list[asyncio.Future[None]] = []
        self.hit: list[str] = []  # one line per bot stopped by a limit
        for jail, label in zip(self.jails, labels):
            if jail is not None:
                say(f"agent {label} runs sandboxed: {jail.describe()}")
                for note in jail.notes:
                    say(f"agent {label}: sandbox {note}")

    def listeners(self) -> tuple[socket.socket | None, ...] | None:
        """Per seat, the socket the dealer serves it on (None: its own on the host), or None for all."""
        own = tuple(j.listener if j is not None else None for j in self.jails)
        return own if any(own) else None

    def watch(self, proc: Any, seat: int, hands_done: Callable[[], int]) -> None:
        """Watch the CPU per hand of the sandboxed process started for ``seat``."""
        jail = self.jails[seat]
        if jail is not None:
            self.watchers.append(asyncio.ensure_future(confine(proc, jail, hands_done)))

    def ended(self, seat: int, proc: Any, rc: int, last_words: str, killed: bool) -> str | None:
        """The seat's process ``proc`` ended with ``rc``: kill what it left; the limit it hit, if one."""
        jail = self.jails[seat]
        if jail is None:
            return None
        try:  # what it left (children holding its connection open) ends with it: its process group, then
            os.killpg(proc.pid, signal.SIGKILL)  # those that left the group, by control group or user id
        except OSError:
            pass
        jail.kill_all()
        return None if killed else limit_hit(rc, last_words, jail)

    def close(self) -> None:
        for task in self.watchers:
            task.cancel()
        for jail in self.jails:
            if jail is not None:
                jail.close()


async def confine(proc: Any, jail: Jail, hands_done: Callable[[], int]) -> None:
    """Watch a started bot's CPU per hand; killed over the limit (its process group and user)."""

    def kill() -> None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        jail.kill_all()

    await watch_cpu(proc.pid, jail, hands_done, kill)


# --------------------------------------------------------------------------- watching and naming


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU of ``pid`` and its waited-for children, from /proc (None once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    parts = data[data.rfind(b")") + 2 :].split()
    return sum(int(x) for x in parts[11:15]) / os.sysconf("SC_CLK_TCK")


async def watch_cpu(pid: int, jail: Jail, hands_done: Callable[[], int], kill: Callable[[], None]) -> None:
    """Kill the bot (``kill``) once it spends more than ``cpu_s_per_hand`` CPU seconds since the last
    hand ended; sets ``jail.stopped_for``. Ends with the process."""
    allowed = jail.limits.cpu_s_per_hand
    hand, since = hands_done(), _cpu_seconds(pid)
    while since is not None:
        await asyncio.sleep(_CPU_POLL_S)
        now = _cpu_seconds(pid)
        if now is None:
            return
        if hands_done() != hand:
            hand, since = hands_done(), now
        elif now - since > allowed:
            jail.stopped_for = f"cpu_s_per_hand ({now - since:.1f} CPU s in one hand, the limit is {allowed:g})"
            kill()
            return


_MEMORY_WORDS = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory", "OutOfMemory",
                 "Could not reserve enough space", "Could not allocate compressed class space")  # (the JVM's at start)


def limit_hit(rc: int, last_words: str, jail: Jail) -> str | None:
    """The limit a bot that ended with status ``rc`` (and said ``last_words``) ran into, or None."""
    if jail.stopped_for is not None:
        return jail.stopped_for
    lim = jail.limits
    if rc == -signal.SIGXCPU:
        return f"cpu_s ({lim.cpu_s} CPU s in all)"
    if rc == -signal.SIGXFSZ or rc != 0 and ("File too large" in last_words or "EFBIG" in last_words):
        return f"file_mb (files up to {lim.file_mb} MB)"
    if rc != 0 and any(w in last_words for w in _MEMORY_WORDS):
        return f"memory_mb ({lim.memory_mb} MB of address space)"
    if rc != 0 and ("Resource temporarily unavailable" in last_words or errno.errorcode[errno.EAGAIN] in last_words):
        return f"processes ({lim.processes} processes and threads)"
    if rc != 0 and ("Too many open files" in last_words or "EMFILE" in last_words):
        return f"open_files ({lim.open_files})"
    return None


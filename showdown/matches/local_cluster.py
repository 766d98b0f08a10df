"""A Ray cluster of several nodes on this machine: for trying the ray executor and for its tests.

``LocalCluster(nodes=2, cpus=3)`` starts a head and ``nodes - 1`` more nodes with ``ray start``, all
keeping their files under one private temporary folder; ``stop()`` kills exactly those processes
(``ray stop`` would stop every Ray instance on the machine). Ray advertises the machine's own
address unless loopback is all there is, so a test that must stay on loopback runs this inside a
private network namespace (``unshare --net``), as ``tests/matches/test_executors.py`` does.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from showdown.errors import ShowdownError

__all__ = ["LocalCluster"]


class LocalCluster:
    """``nodes`` Ray nodes of ``cpus`` logical CPUs each, on this machine, at ``127.0.0.1:port``."""

    def __init__(self, nodes: int = 2, cpus: int = 3, port: int = 6391) -> None:
        self.nodes = nodes
        self.cpus = cpus
        self.port = port
        # short: Ray's socket paths under it must fit in 107 bytes
        self.temp = Path(tempfile.mkdtemp(prefix="sdr-", dir="/tmp"))
        self.address = f"127.0.0.1:{port}"

    def _ray(self, *args: str) -> None:
        ray = Path(sys.executable).parent / "ray"
        proc = subprocess.run([str(ray), *args], capture_output=True, text=True, check=False, timeout=180)
        if proc.returncode != 0:
            raise ShowdownError(f"ray {args[0]} failed: {proc.stderr.strip()[-300:]}")

    def start(self) -> LocalCluster:
        common = [f"--num-cpus={self.cpus}", "--disable-usage-stats", f"--temp-dir={self.temp}"]
        self._ray("start", "--head", f"--port={self.port}", "--include-dashboard=false", *common)
        for _ in range(self.nodes - 1):
            self._ray("start", f"--address={self.address}", *common)
        return self

    def processes(self) -> dict[int, str]:
        """PID -> command line of every process of this cluster."""
        mark = str(self.temp)
        found: dict[int, str] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            except OSError:
                continue
            if mark in cmdline:
                found[int(entry.name)] = cmdline
        return found

    def worker_raylet(self) -> int | None:
        """The PID of the raylet of a node that is not the head (to kill one node)."""
        for pid, cmdline in self.processes().items():
            if "/raylet/raylet " in cmdline and " --head " not in cmdline + " ":
                return pid
        return None

    def stop(self) -> None:
        for pid in self.processes():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        shutil.rmtree(self.temp, ignore_errors=True)

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

"""What a sandboxed bot may use: its own module so that reading a match's settings (``config``, every
command's parser) does not load the sandbox and asyncio with it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limits"]


@dataclass(frozen=True, slots=True)
class Limits:
    """What one sandboxed bot may use (YAML ``limits:`` of an agent; every key optional; checked as
    ``settings.LIMIT_SETTINGS`` declares)."""

    memory_mb: int = 2048  # address space of each of its processes
    cpu_s_per_hand: float = 7.0  # CPU seconds between two hands' ends (checked five times a second)
    cpu_s: int = 3600  # CPU seconds of its main process in the whole match (the kernel's RLIMIT_CPU)
    processes: int = 64  # processes and threads it may have at once (the kernel's RLIMIT_NPROC)
    open_files: int = 256  # file descriptors
    file_mb: int = 1024  # the largest file it may write
    network: bool = False  # true: keep the machine's network (no namespace of its own)

"""Worker processes of a pool (LBR's chunks, the equity table's boards, the buckets' tables)."""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
import signal
from collections.abc import Iterator

__all__ = ["forking_quietly", "ignore_interrupts", "quiet_pool", "terminate_as_exit"]


def ignore_interrupts() -> None:
    """A pool's initializer: Ctrl-C reaches the whole process group, but only the parent acts on it
    (it stops the pool and says one line); each worker printed its own KeyboardInterrupt traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # (blocked by forking_quietly)


@contextlib.contextmanager
def forking_quietly() -> Iterator[None]:
    """Around the creation of a pool: Ctrl-C is held back (blocked, not lost) while the workers are
    forked, so none is born able to take it before ``ignore_interrupts``; the parent then takes a
    Ctrl-C that came meanwhile as it would have."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def quiet_pool(method: str, processes: int) -> multiprocessing.pool.Pool:
    """A ``multiprocessing`` pool of ``processes`` workers started by ``method`` ("fork", "spawn")
    that leave Ctrl-C to the parent (``forking_quietly``, ``ignore_interrupts``)."""
    with forking_quietly():
        return multiprocessing.get_context(method).Pool(processes, ignore_interrupts)


@contextlib.contextmanager
def terminate_as_exit() -> Iterator[None]:
    """Around a pool's life: a SIGTERM raises ``errors.Terminated`` (a ``SystemExit``) so that the pool is
    shut down on the way out; by default the parent died at once and its workers, holding the task
    queue's own pipe, waited for work for ever (orphans, and the caller's pipes never closed)."""
    import threading

    from showdown.errors import Terminated

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_term(signum: int, frame: object) -> None:
        raise Terminated(128 + signum)

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)

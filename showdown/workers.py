"""Worker processes of a pool (LBR's chunks, the equity table's boards, the buckets' tables)."""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.pool
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator

__all__ = ["die_with", "forking_quietly", "ignore_interrupts", "quiet_pool", "running_pool", "stop_pool", "terminate_as_exit"]

STOP_WAIT = 5.0
"""Seconds an interrupted pool's own shutdown may take before the caller goes on without it."""


def ignore_interrupts(parent: int = 0) -> None:
    """A pool's initializer: Ctrl-C reaches the whole process group, but only the parent acts on it
    (it stops the pool and says one line); each worker printed its own KeyboardInterrupt traceback.
    SIGTERM ends a worker at once (a forked worker inherited the parent's ``terminate_as_exit``
    handler and unwound its Python code instead, in the middle of sending a result). With ``parent``
    (its pid) the worker dies with it (``die_with``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # (blocked by forking_quietly)
    if parent:
        die_with(parent)


def die_with(parent: int) -> None:
    """End this process when ``parent`` dies (Linux's ``PR_SET_PDEATHSIG``; elsewhere nothing). A parent
    killed at once (``kill -9``, a test's watchdog) left its forked workers waiting for work for ever,
    holding the pipes it shared with its own caller: a CI run's test runner waited on them until its
    time ran out."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the call: no signal will come
        os._exit(1)


_PR_SET_PDEATHSIG = 1


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
        return multiprocessing.get_context(method).Pool(processes, ignore_interrupts, (os.getpid(),))


def stop_pool(pool: multiprocessing.pool.Pool) -> None:
    """Stop an interrupted pool without waiting on it for ever: the pool's own ``terminate`` runs for
    at most ``STOP_WAIT`` seconds, then every worker still there is killed and reaped. ``terminate``
    alone could hang: a worker it kills while that worker holds the result queue's lock (sending a
    result) leaves the pool's task handler waiting for that lock, and ``terminate`` waiting for the
    task handler, for ever (seen in CI: an interrupted equity build hung until the test's watchdog)."""
    stopper = threading.Thread(target=pool.terminate, name="pool-stop", daemon=True)  # (a daemon: never holds up the exit)
    stopper.start()
    stopper.join(STOP_WAIT)
    deadline = time.monotonic() + STOP_WAIT
    while True:  # (a slow terminate's worker handler may start a worker after a sweep: sweep until it is done)
        for proc in list(getattr(pool, "_pool", ())):
            with contextlib.suppress(OSError, ValueError, AssertionError):
                proc.kill()
                proc.join(STOP_WAIT)  # reaped: no zombie left behind
        if not stopper.is_alive() or time.monotonic() > deadline:
            return
        stopper.join(0.1)


@contextlib.contextmanager
def running_pool(method: str, processes: int) -> Iterator[multiprocessing.pool.Pool]:
    """A ``quiet_pool`` for a ``with`` block: closed and joined when the block ends normally, stopped
    by ``stop_pool`` (never waited on for ever) when it ends with an exception (Ctrl-C, SIGTERM under
    ``terminate_as_exit``, a failed task)."""
    pool = quiet_pool(method, processes)
    try:
        yield pool
    except BaseException:
        stop_pool(pool)
        raise
    pool.close()
    pool.join()


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

"""Worker pools stop in bounded time, whatever state an interrupt finds them in."""

from __future__ import annotations

import multiprocessing
import time

import pytest

from showdown.workers import STOP_WAIT, running_pool


def _square(x: int) -> int:
    return x * x


def test_a_pool_whose_result_lock_is_held_still_stops_when_interrupted() -> None:
    """A worker killed while it sends a result never releases the result queue's lock; the pool's own
    terminate() then waited for its task handler, stuck on that lock, for ever (an interrupted equity
    build hung in CI until the watchdog). Here the lock is taken and never given back, as that worker's."""
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt), running_pool("fork", 2) as pool:
        assert list(pool.imap_unordered(_square, range(10))) != []
        workers = list(pool._pool)  # type: ignore[attr-defined]
        assert pool._outqueue._wlock.acquire(timeout=5)  # type: ignore[attr-defined]  # as a worker dead in the middle of a send
        raise KeyboardInterrupt
    assert time.monotonic() - started < STOP_WAIT + 10
    assert all(not w.is_alive() for w in workers) and multiprocessing.active_children() == []


def test_a_pool_that_ends_normally_is_closed_and_joined() -> None:
    with running_pool("fork", 2) as pool:
        assert sorted(pool.imap_unordered(_square, range(5))) == [0, 1, 4, 9, 16]
        workers = list(pool._pool)  # type: ignore[attr-defined]
    assert all(not w.is_alive() for w in workers)

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


def test_the_workers_die_with_a_parent_killed_at_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A parent killed with SIGKILL (or ended by the tests' watchdog) left its forked workers waiting for
    work for ever, holding the pipes it shared with its caller: CI's test runner waited on them until
    its 90 minutes ran out."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "parent.py"
    script.write_text(
        "import os, sys, time\n"
        "from showdown.workers import running_pool\n"
        "with running_pool('fork', 2) as pool:\n"
        "    pool._outqueue._wlock.acquire()\n"  # as a worker killed in the middle of a send: the others wait
        "    pool.map_async(abs, range(4))\n"  # for it in their put, where no end of a pipe ends their wait
        "    time.sleep(1)\n"
        "    print(' '.join(str(p.pid) for p in pool._pool), flush=True)\n"
        "    time.sleep(60)\n"
    )
    root = Path(__file__).resolve().parents[1]
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(root)})
    assert parent.stdout is not None
    pids = [int(p) for p in parent.stdout.readline().split()]
    assert len(pids) == 2
    parent.send_signal(signal.SIGKILL)
    parent.wait(10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.05)
    left = [p for p in pids if _alive(p)]
    for pid in left:  # (a failed run leaves none behind)
        os.kill(pid, signal.SIGKILL)
    assert left == []


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped by init, counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False

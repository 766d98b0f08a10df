"""The compiled hand-ranking kernels, loaded once a process has spent in numpy what loading them costs.

A hold'em agent's turn bucket is E[HS^2] of its holding over the 46 rivers (``holdem_buckets.
holding_turn_ehs2``): about 6 ms in numpy, a fraction of a millisecond compiled
(``hand_kernels.holding_counts``), while loading numba takes about half a second of CPU. An agent that
plays a few hands must not pay that, one that plays thousands (a scorecard's or a probe's match, where
this was most of the agent's time in hands that reach the turn) should. So the numpy time is counted
(``spent``), and once it passes ``LOAD_AFTER_SECONDS`` the kernels load in a background thread while
the agent goes on deciding with numpy; ``evaluate.prefer_compiled`` is turned on when they are ready.
The numbers are the same bit for bit (``tests/solvers/test_hand_kernels.py``), so when the switch
comes changes nothing a match records.
"""

from __future__ import annotations

import os
import threading
import weakref

from showdown.games.evaluate import compiled_preferred, prefer_compiled

__all__ = ["LOAD_AFTER_SECONDS", "loading", "spent"]

LOAD_AFTER_SECONDS = 0.5
"""Numpy seconds of hand ranking after which the compiled kernels are loaded (about their loading's cost)."""

_spent = [0.0]
_loader: list[threading.Thread] = []


def spent(seconds: float) -> None:
    """Count ``seconds`` of numpy hand ranking; start loading the kernels once they pass the threshold."""
    _spent[0] += seconds
    if _spent[0] >= LOAD_AFTER_SECONDS and not _loader and not compiled_preferred():
        thread = threading.Thread(target=_load, name="hand-kernels", daemon=True)
        _loader.append(thread)
        thread.start()
        # a process forked meanwhile would inherit the import locks the loading holds: finish first
        ref = weakref.ref(thread)
        os.register_at_fork(before=lambda: _join(ref))


def loading() -> threading.Thread | None:
    """The loader thread, once started (tests join it)."""
    return _loader[0] if _loader else None


def _load() -> None:
    try:
        from showdown.solvers.hand_kernels import warm_up

        warm_up()
    except Exception:  # noqa: BLE001 (no compiler, a damaged cache: numpy keeps the work, as before)
        return
    prefer_compiled(True)


def _join(ref: weakref.ref[threading.Thread]) -> None:
    thread = ref()
    if thread is not None and thread.is_alive() and thread is not threading.current_thread():
        thread.join()

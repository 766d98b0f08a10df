"""The event loop every match runs in: uvloop's when the ``fast`` extra is installed, else asyncio's."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def new_event_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop when installed (the ``fast`` extra), else asyncio's."""
    try:
        uvloop = importlib.import_module("uvloop")
    except ImportError:
        return asyncio.new_event_loop()
    loop: asyncio.AbstractEventLoop = uvloop.new_event_loop()
    return loop


def run_in_new_loop(work: Coroutine[Any, Any, T]) -> T:
    """``work`` to its end in a fresh event loop of ``new_event_loop``'s (``asyncio.Runner``: Ctrl-C
    cancels it, the loop is closed after)."""
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        return runner.run(work)


__all__ = ["new_event_loop", "run_in_new_loop"]

"""The event loop every match runs in: uvloop's when the ``fast`` extra is installed, else asyncio's."""

from __future__ import annotations

import asyncio
import importlib


def new_event_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop when installed (the ``fast`` extra), else asyncio's."""
    try:
        uvloop = importlib.import_module("uvloop")
    except ImportError:
        return asyncio.new_event_loop()
    loop: asyncio.AbstractEventLoop = uvloop.new_event_loop()
    return loop


__all__ = ["new_event_loop"]

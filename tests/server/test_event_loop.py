"""``server.event_loop``: uvloop's loop when installed, asyncio's otherwise."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from showdown.server import event_loop


def test_event_loop_falls_back_to_asyncio_without_uvloop(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def no_uvloop(name: str, *args: Any) -> Any:
        if name == "uvloop":
            raise ImportError("no uvloop")
        return real(name, *args)

    monkeypatch.setattr(event_loop.importlib, "import_module", no_uvloop)
    loop = event_loop.new_event_loop()
    try:
        assert type(loop).__module__.startswith("asyncio")
    finally:
        loop.close()

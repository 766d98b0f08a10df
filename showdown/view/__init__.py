"""The browser view: match and tournament pages, a hand replayer, live watching and a human seat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from showdown._lazy import lazy_exports

if TYPE_CHECKING:
    from showdown.view.report import build_report
    from showdown.view.server import ViewApp, start_view_thread

__all__ = ["ViewApp", "build_report", "start_view_thread"]

__getattr__, __dir__ = lazy_exports(__name__, __file__)

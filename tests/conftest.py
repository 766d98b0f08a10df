"""Shared test helpers: where the reference test vectors live."""

from __future__ import annotations

import faulthandler
from collections.abc import Iterator
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
REFERENCE_GAMES = sorted((DATA / "games").glob("*.game"))  # the reference server's .game files
REFERENCE_LOGS = sorted(DATA.glob("*.log"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Long checks (``slow``: benchmarks, soak tests) run without the suite's per-test time limit."""
    for item in items:
        if item.get_closest_marker("slow") and not item.get_closest_marker("timeout"):
            item.add_marker(pytest.mark.timeout(0))


# seconds past a test's own time limit before the hard stop below ends its process
HARD_STOP_MARGIN = 120


def _time_limit(request: pytest.FixtureRequest) -> float:
    marker = request.node.get_closest_marker("timeout")
    if marker is not None and marker.args:
        return float(marker.args[0] or 0)
    return float(request.config.getini("timeout") or 0)


def _terminal_fd(config: pytest.Config) -> int:
    """The test process's own stderr, not the file pytest captures it into while a test runs."""
    capture = config.pluginmanager.getplugin("capturemanager")
    saved = getattr(getattr(getattr(capture, "_global_capturing", None), "err", None), "targetfd_save", None)
    return saved if isinstance(saved, int) else 2


@pytest.fixture(autouse=True)
def _hard_stop(request: pytest.FixtureRequest) -> Iterator[None]:
    """End a test's process if it outlives its time limit by ``HARD_STOP_MARGIN``, stacks printed.

    pytest-timeout interrupts a test with a signal, and an exception raised there can be swallowed
    (by an event loop's callback, or C code that never returns): the run then stalls until CI's cap
    and says nothing. faulthandler's watchdog is a C thread that needs neither: it prints every
    thread's stack to the terminal and exits, and xdist reports the test as crashed and goes on.
    """
    limit = _time_limit(request)
    if limit > 0:
        faulthandler.dump_traceback_later(limit + HARD_STOP_MARGIN, exit=True, file=_terminal_fd(request.config))
    yield
    if limit > 0:
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def data_dir() -> Path:
    return DATA

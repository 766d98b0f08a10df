"""Shared test helpers: where the reference test vectors live."""

from __future__ import annotations

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


@pytest.fixture
def data_dir() -> Path:
    return DATA

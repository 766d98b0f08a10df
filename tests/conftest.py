"""Shared test helpers: where the reference test vectors live."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
REFERENCE_GAMES = sorted((DATA / "games").glob("*.game"))  # the reference server's .game files
REFERENCE_LOGS = sorted(DATA.glob("*.log"))


@pytest.fixture
def data_dir() -> Path:
    return DATA

"""Shared test helpers: where the reference test vectors live."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"
SHARED_GAMES = Path(__file__).resolve().parents[2] / "shared" / "acpc" / "games"
REFERENCE_LOGS = sorted(DATA.glob("*.log"))


@pytest.fixture
def data_dir() -> Path:
    return DATA

"""The house's rooms stay small (issue 29): no module of the package over 600 lines. (Function
complexity is held by ruff's C901 in CI.)"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "showdown"
MAX_LINES = 600


def test_no_module_is_over_600_lines() -> None:
    sizes = {str(p.relative_to(PACKAGE)): len(p.read_text(encoding="utf-8").splitlines()) for p in PACKAGE.rglob("*.py")}
    too_big = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not too_big, f"split these by job: {too_big}"

"""Where computed artefacts (solved strategies, equity tables) are cached between runs."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir(*parts: str) -> Path:
    """``$SHOWDOWN_CACHE`` or ``$XDG_CACHE_HOME/showdown`` (default ``~/.cache/showdown``), created on use."""
    root = os.environ.get("SHOWDOWN_CACHE")
    if root:
        base = Path(root)
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "showdown"
    path = base.joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path

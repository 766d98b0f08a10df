"""Where computed artefacts (solved strategies, equity tables) are cached between runs."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir(*parts: str) -> Path:
    """``$SHOWDOWN_CACHE`` or ``$XDG_CACHE_HOME/showdown`` (default ``~/.cache/showdown``), created on use.

    ``ConfigError`` (one line: the folder, where it was taken from, why, and the way out) when it
    cannot be created (a file in the way, a read-only place), instead of the OSError's traceback."""
    root = os.environ.get("SHOWDOWN_CACHE")
    if root:
        base, source = Path(root), "$SHOWDOWN_CACHE"
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = Path(xdg or Path.home() / ".cache") / "showdown"
        source = "$XDG_CACHE_HOME" if xdg else "the default, ~/.cache/showdown"
    path = base.joinpath(*parts)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        from showdown.errors import ConfigError

        raise ConfigError(f"cannot make the cache folder {path} (from {source}): {exc.strerror or exc}; "
                          "set SHOWDOWN_CACHE to a folder you may write in") from None
    return path


def check_writable(path: Path) -> None:
    """``ConfigError`` unless a file ``path`` can be written in its (cache) folder: said before the
    work whose result it keeps, not after it."""
    if not os.access(path.parent, os.W_OK):
        from showdown.errors import ConfigError

        raise ConfigError(f"cannot write in the cache folder {path.parent}: permission denied; "
                          "set SHOWDOWN_CACHE to a folder you may write in")

"""An advisory lock that a second process on the same files is told about, not made to wait for."""

from __future__ import annotations

from typing import IO

try:
    import fcntl
except ImportError:  # (Windows: no advisory locks; nothing is guarded)
    fcntl = None  # type: ignore[assignment]

__all__ = ["hold"]


def hold(f: IO[bytes]) -> bool:
    """Lock ``f`` for this process alone, without waiting (released when it closes or the process dies):
    False when another process holds it; True when held, or where the system has no such locks
    (Windows; ENOLCK on some network file systems: the work goes on unguarded)."""
    if fcntl is None:
        return True
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:
        return True
    return True

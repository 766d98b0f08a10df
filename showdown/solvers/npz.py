"""What reading a ``.npz`` file a user gave may raise besides our own checks: a missing or unreadable
file, an empty or cut-off one (``EOFError``), one that is no zip archive or whose members are damaged
(``BadZipFile``, ``zlib.error``), a missing array (``KeyError``) or a bad one (``ValueError``).
Every loader catches these (``except read_errors() as exc``) and says in one line which file is not
what it should be."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from numpy.lib.npyio import NpzFile

DEFLATE_RATIO = 1100
"""Deflate's largest expansion is 1032 to 1: an array claiming more bytes than that times its compressed
size (the zip's own figure, at most the file's) is a crafted or damaged archive, refused unread."""


def load_npz(path: str | Path, expansion: float = 1.0) -> NpzFile:
    """``numpy.load`` of a ``.npz`` without pickles, every array's declared size checked before any is read:
    no object arrays, none claiming more than its compressed bytes can hold (a zip bomb), and all together,
    times ``expansion`` (what the caller makes of each byte), within the memory this process may use.
    Raises ``ValueError`` (one of ``read_errors``) for a file refused."""
    import numpy as np

    data = np.load(path, allow_pickle=False)
    archive = getattr(data, "zip", None)
    if archive is None:  # a plain .npy: np.load read it already (allow_pickle=False, so no objects)
        raise ValueError("it is not a .npz archive")
    try:
        size, total = os.path.getsize(path), 0
        for info in archive.infolist():
            if not info.filename.endswith(".npy"):
                continue
            name = info.filename[:-4]
            with archive.open(info) as fh:
                version = np.lib.format.read_magic(fh)
                read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
                shape, _, dtype = read_header(fh)
            if dtype.hasobject:
                raise ValueError(f"array {name!r} holds Python objects, which are never read")
            nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize
            if nbytes > DEFLATE_RATIO * min(info.compress_size, size) + 4096:
                raise ValueError(f"array {name!r} claims shape {shape} of {dtype} ({_gb(nbytes)}), more than its "
                                 f"{min(info.compress_size, size):,} compressed bytes can hold (a crafted or damaged archive)")
            total += nbytes
        if total * expansion > memory_limit():
            raise ValueError(f"its arrays need {_gb(total * expansion)} of memory, more than the "
                             f"{_gb(memory_limit())} available")
    except BaseException:
        data.close()
        raise
    result: NpzFile = data
    return result


def memory_limit() -> int:
    """Bytes this process may still allocate: the system's available memory, or the address-space limit
    (``ulimit -v``) when that is lower."""
    limit = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            limit = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("MemAvailable:"))
    except (OSError, StopIteration, ValueError, IndexError):
        pass
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft != resource.RLIM_INFINITY:
            limit = min(limit, soft)
    except (ImportError, OSError, ValueError):
        pass
    return limit


def _gb(nbytes: float) -> str:
    return f"{nbytes / 2**30:,.1f} GB" if nbytes >= 2**30 else f"{nbytes / 2**20:,.1f} MB"


def read_errors() -> tuple[type[BaseException], ...]:
    """The exceptions of a damaged ``.npz``. A function, not a constant: an ``except`` clause
    evaluates it only when something was raised, so a solve that reads a good file never imports
    zipfile's dependencies (shutil, bz2, lzma) for it."""
    import zipfile
    import zlib

    return (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile, zlib.error)


def read_error_text(exc: BaseException) -> str:
    """What was wrong with a file ``numpy.load`` refused, in words: a file that is no ``.npz`` at all
    (a JSON file, a device, junk) made numpy speak of 'pickled (object) data' and ``allow_pickle``."""
    if isinstance(exc, ValueError) and "pickled" in str(exc):
        return "it is not a .npz archive"
    return str(exc)


RESTORE_ERRORS: tuple[type[BaseException], ...] = (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError)
"""What restoring a solver raises when a checkpoint that reads well does not fit it: an array of
another length (``IndexError``), a field missing or of another type (``KeyError``, ``ValueError``,
``TypeError``), a random generator's state that is no state."""


def unfit_checkpoint(path: object, exc: BaseException) -> str:
    """The one line for a checkpoint that reads but does not fit (``RESTORE_ERRORS``), and what to do."""
    why = f"no {exc}" if isinstance(exc, KeyError) else str(exc) or type(exc).__name__
    return (f"{path}: the checkpoint is damaged or not this solver's ({why}): delete it, or give another "
            "checkpoint file, to start afresh")


def counts(meta: dict[str, object]) -> tuple[int, float]:
    """A checkpoint's iterations and seconds of solving, both at least 0 (``ValueError`` otherwise)."""
    iterations, seconds = int(meta["iterations"]), float(meta["seconds"])  # type: ignore[call-overload, arg-type]
    if iterations < 0 or not 0 <= seconds < float("inf"):
        raise ValueError(f"iterations {iterations}, seconds {seconds}")
    return iterations, seconds


__all__ = ["DEFLATE_RATIO", "RESTORE_ERRORS", "counts", "load_npz", "memory_limit", "read_error_text", "read_errors", "unfit_checkpoint"]

"""What reading a ``.npz`` file a user gave may raise besides our own checks: a missing or unreadable
file, an empty or cut-off one (``EOFError``), one that is no zip archive or whose members are damaged
(``BadZipFile``, ``zlib.error``), a missing array (``KeyError``) or a bad one (``ValueError``).
Every loader catches these (``except read_errors() as exc``) and says in one line which file is not
what it should be."""

from __future__ import annotations


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


__all__ = ["RESTORE_ERRORS", "counts", "read_error_text", "read_errors", "unfit_checkpoint"]

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


__all__ = ["read_error_text", "read_errors"]

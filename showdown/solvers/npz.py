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


__all__ = ["read_errors"]

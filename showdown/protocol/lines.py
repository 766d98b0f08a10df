"""The bounded line reader every log reader shares: a file's lines 64 KiB at a time, none longer
than ``MAX_LOG_LINE`` held (a 1 GB line with no line end is one error, not a GB of memory)."""

from __future__ import annotations

from collections.abc import Iterator
from io import BytesIO
from itertools import chain
from typing import IO

from showdown.errors import ProtocolError

__all__ = ["BOM", "MAX_LOG_LINE", "lines_start", "log_lines"]

MAX_LOG_LINE = 1 << 20
"""Bytes at most in one line of a log: a hand's line or record is a few KB, so a longer line is no
match log's, and is refused before it is held in memory (a 1 GB line with no line end would be)."""


BOM = b"\xef\xbb\xbf"
"""UTF-8's byte order mark, which some editors write before a file's first line."""


def lines_start(f: IO[bytes], offset: int = 0) -> int:
    """Where a file's lines start from byte ``offset``: past a byte order mark at its very start (which
    ``log_lines`` passes over, so readers that count bytes must too: the view's offsets were 3 short)."""
    if offset == 0:
        f.seek(0)
        if f.read(len(BOM)) == BOM:
            return len(BOM)
    return offset


def log_lines(f: IO[bytes], source: str) -> Iterator[tuple[int, bytes]]:
    """The lines of a log opened in binary, with their numbers from 1 (as ``enumerate(f, 1)`` gives
    them, as fast), read 64 KiB at a time: a line still without its end after ``MAX_LOG_LINE`` bytes
    is a ``ProtocolError`` naming ``source`` and the line, never held whole."""
    return enumerate(chain.from_iterable(_line_blocks(f, source)), start=1)


def _line_blocks(f: IO[bytes], source: str) -> Iterator[list[bytes]]:
    """The lines of each 64 KiB read (split by ``BytesIO``, in C: a generator per line would cost half
    a microsecond each, a fifth of verify-log's time; a small block keeps the list of its lines small)."""
    rest = b""
    count = 0
    block = f.read(1 << 16).removeprefix(BOM)  # a byte order mark (an editor that writes one): not a line's
    while block:
        lines = BytesIO(rest + block if rest else block).readlines()
        rest = b"" if lines[-1].endswith(b"\n") else lines.pop()
        count += len(lines)
        if len(rest) > MAX_LOG_LINE:
            raise ProtocolError(f"{source}:{count + 1}: a line of more than {MAX_LOG_LINE:,} bytes, where a log's or a "
                                "hand history's lines are a few KB: a wrong or damaged file")
        yield lines
        block = f.read(1 << 16)
    if rest:
        yield [rest]

"""Bytes from a socket -> lines, cut the way the reference dealer's ``fgets`` cuts them."""

from __future__ import annotations

from showdown.protocol.matchstate import MAX_LINE

__all__ = ["LineSplitter"]


class LineSplitter:
    """Bytes from a socket -> lines, read the way the reference's ``fgets`` reads them.

    A line is cut after ``limit`` bytes (4095); the rest of a longer line becomes the next line(s),
    exactly as the reference treats it (edge case e14). Line ends (``\\n``, optional ``\\r``) are
    removed; bytes are decoded as Latin-1, which never fails and keeps every byte.
    """

    __slots__ = ("limit", "_buf")

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self._buf = b""

    @property
    def pending(self) -> int:
        """Bytes held back waiting for a line end."""
        return len(self._buf)

    def held(self, most: int = 80) -> str:
        """The start of the bytes held back (a line with no end yet), as the lines are decoded."""
        return self._buf[:most].decode("latin-1")

    def feed(self, data: bytes) -> list[str]:
        last = len(data) - 1
        if last >= 0 and not self._buf and data.find(b"\n") == last and last < self.limit:
            # the usual case, one whole line: no loop (the same cut as below)
            return [data[: -2 if data[-2:-1] == b"\r" else -1].decode("latin-1")]
        buf = self._buf + data if self._buf else data
        limit = self.limit
        lines: list[str] = []
        start = 0
        size = len(buf)
        while start < size:
            nl = buf.find(b"\n", start, start + limit)
            if nl >= 0:
                end = nl - 1 if nl > start and buf[nl - 1] == 13 else nl
                lines.append(buf[start:end].decode("latin-1"))
                start = nl + 1
            elif size - start >= limit:
                lines.append(buf[start : start + limit].decode("latin-1"))
                start += limit
            else:
                break
        self._buf = buf[start:]
        return lines

"""One progress line on a stream: rewritten in place on a terminal, a line at a time elsewhere."""

from __future__ import annotations

import sys
from typing import TextIO


class StatusLine:
    """The shared part of the match and tournament progress displays."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.shown = False

    def show(self, text: str) -> None:
        """The status now (cut to 200 characters on a terminal)."""
        if self.tty:
            self.stream.write("\r" + text[:200] + "\x1b[K")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self.shown = True

    def line(self, text: str) -> None:
        """A message of its own, printed above the status line."""
        self.finish()
        self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self) -> None:
        """Clear the status line on a terminal (elsewhere the lines stay)."""
        if self.tty and self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

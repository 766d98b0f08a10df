"""Bots that misbehave on purpose, as real processes for ``showdown match`` (issue 31's attack).

    python hostile_bot.py MODE HOST PORT

Every mode connects with its seat token and answers decisions (or not) its own way:

- ``junk``: each decision answered with as many lines of garbage as the dealer takes before it plays for
  the seat (``MAX_IGNORED_LINES``), never an action;
- ``endless``: one line without a line end, forever (until the dealer closes the socket);
- ``huge-once``: a 16 MB line on its first decision, then plays call like a normal bot;
- ``malformed``: each decision answered with its state and no action at all (the state alone);
- ``call``: a well-behaved bot that always calls (the control).
"""

from __future__ import annotations

import os
import socket
import sys

from showdown.server.dealer import MAX_IGNORED_LINES


def main() -> None:
    mode, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    s = socket.create_connection((host, port))
    s.sendall(f"VERSION:2.0.0 token={os.environ.get('SHOWDOWN_SEAT_TOKEN', '')}\r\n".encode())
    if mode == "endless":
        chunk = b"x" * 65536
        try:
            while True:
                s.sendall(chunk)
        except OSError:
            return
    huge_sent = False
    f = s.makefile("rb")
    for raw in f:
        line = raw.rstrip(b"\r\n").decode()
        if not line.startswith("MATCHSTATE:"):
            continue
        position = int(line.split(":")[1])
        if not _my_turn(line, position):
            continue
        try:
            if mode == "junk":
                s.sendall(b"".join(b"garbage %d\r\n" % i for i in range(MAX_IGNORED_LINES)))
            elif mode == "malformed":
                s.sendall((line + "\r\n").encode())
            elif mode == "huge-once" and not huge_sent:
                huge_sent = True
                s.sendall(b"y" * (16 << 20) + b"\r\n")
            else:
                s.sendall((line + ":c\r\n").encode())
        except OSError:
            return


def _my_turn(line: str, position: int) -> bool:
    """Whether ``position`` is to act in a 2-player Kuhn state (enough for these bots)."""
    betting = line.split(":")[3]
    if betting in ("cc", "rc", "crc", "rf", "crf"):  # the hand is over
        return False
    return len(betting) % 2 == position


if __name__ == "__main__":
    main()

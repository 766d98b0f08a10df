"""``showdown dealer``'s ports before the dealer is loaded: bind, print, then import the rest.

Whoever starts a dealer waits for its first stdout line (the ports) before starting the players,
so that line is the start-up a user feels. Loading the dealer (asyncio, the rules, the logs, the
settings table) takes about ten times Python's own start, so for the usual command line
(loopback host, no tokens, every option one this module knows) the listening sockets are bound
and the ports printed with nothing but ``socket`` loaded; ``MatchServer`` then serves on those
very sockets (``DealerOptions.bound``), and a client that connects in between waits in the
listen backlog. Any other command line (``--help``, tokens, another host, an option not listed
here or a value it does not take, a port that cannot be had, a match or player name the dealer refuses, a name given twice,
a game this module cannot count the seats of or one whose seats are not the names given) takes the
ordinary path, which reports its errors before any port is printed. An error the full parser or the game file finds afterwards is still one line
and exit 2, after the ports line. A SIGINT or SIGTERM in between is kept and acted on once the
dealer runs (stop after the current hand), as it is later.

``tests/cli/test_dealer_ports.py`` holds ``VALUE_OPTIONS`` and ``FLAG_OPTIONS`` to the real parser
and the import set before the ports line to this list: ``sys``, ``os``, and the built-in ``_socket``
and ``_signal`` (not their Python wrappers ``socket`` and ``signal``, which import ``enum``,
``selectors`` and more: a third of what this module added to Python's start); ``take_bound`` wraps
the sockets as ``socket.socket`` once the dealer loads.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # signal.py without its enum (no stub for the C part)
import _socket
import os

TYPE_CHECKING = False  # nothing more at start-up (see showdown/__init__.py)
if TYPE_CHECKING:
    import socket
    from collections.abc import Sequence
    from types import FrameType

__all__ = ["FLAG_OPTIONS", "VALUE_OPTIONS", "bind_and_print", "main", "take_bound", "take_signals"]

VALUE_OPTIONS = frozenset({
    "-p", "--host", "--t-response", "--t_response", "--t-hand", "--t_hand", "--t-per-hand", "--t_per_hand",
    "--start-timeout", "--start_timeout", "--reconnect-ms", "--reconnect_ms", "--on-timeout", "--on_timeout",
    "--spin-us", "--spin_us",
})  # fmt: skip
"""The dealer's options that take a value and leave the fast path open (``--tokens-file``: not)."""

FLAG_OPTIONS = frozenset({"-f", "-l", "-L", "--force", "-q", "--resume", "-a", "-t", "-T"})
"""The dealer's options without a value that leave the fast path open (``--help``, tokens: not)."""

POSITIONALS = 4  # match, game, hands, seed; then one name per seat (two or more: every game has two seats or more)
BACKLOG = 100  # as asyncio's create_server
BUILTIN_SEATS = {"kuhn": 2, "kuhn3p": 3, "leduc": 2, "leduc3p": 3, "holdem-limit": 2, "holdem-nolimit": 2,
                 "holdem-limit-3p": 3, "holdem-nolimit-3p": 3}  # fmt: skip
"""Seats of the catalog's games (``showdown.games.catalog``, which loads the whole parser; held to it
by ``tests/cli/test_dealer_ports.py``); ``kuhn-N`` has two."""
GAME_FILE_BYTES = 1 << 16  # a .game file is a dozen short lines: a larger one is left to the parser

_bound: list[_socket.socket] | None = None
_signals: list[int] = []


def _seats_and_options(argv: Sequence[str]) -> tuple[int, dict[str, str]] | None:
    """The number of seats and the values of the options that matter here, or None (not the fast path)."""
    positionals: list[str] = []
    values: dict[str, str] = {}
    words = iter(argv)
    for word in words:
        if not word.startswith("-") or word == "-":
            positionals.append(word)
            continue
        name, eq, value = word.partition("=")
        if name in VALUE_OPTIONS:
            if not eq:
                value = next(words, "")
            if not value or value.startswith("-") or not _value_taken(name, value):
                return None
            values[name] = value
        elif name not in FLAG_OPTIONS or eq:
            return None
    seats = len(positionals) - POSITIONALS
    # hands and seed: whole numbers the full parser will take (a 32-bit count and seed, as the reference's; hands not 0)
    if seats < 2 or not all(p.isascii() and p.isdigit() and len(p) <= 10 and int(p) <= 0xFFFFFFFF
                            for p in positionals[2:POSITIONALS]) or int(positionals[2]) == 0:
        return None
    # a match name and player names the dealer will take (else its error comes before any ports line)
    names = positionals[POSITIONALS:]
    if not _plain(positionals[0], "/") or not all(_plain(name, ":|") for name in names) or len(set(names)) < len(names):
        return None
    if _game_seats(positionals[1]) != seats:  # (three names for a two-seat game printed three ports, then exit 2)
        return None
    return seats, values


def _game_seats(game: str) -> int | None:
    """The seats of ``game``: a catalog name's, or the ``numPlayers`` of a ``.game`` file (keys read as
    the parser reads them: case-insensitive prefixes at column 0, up to ``END GAMEDEF``); None when
    not known here (the full parser then says what is wrong before any port is printed)."""
    if not os.path.isfile(game):
        kuhn_n = game.startswith("kuhn-") and game[5:].isascii() and game[5:].isdigit()
        return 2 if kuhn_n else BUILTIN_SEATS.get(game)
    try:
        with open(game, "rb") as f:
            raw = f.read(GAME_FILE_BYTES + 1)
    except OSError:
        return None
    if len(raw) > GAME_FILE_BYTES:
        return None
    seats = None
    for line in raw.decode("utf-8-sig", "replace").splitlines():
        lower = line.lower()
        if lower.startswith("end gamedef"):
            break
        if lower.startswith("numplayers"):
            words = lower[len("numplayers") :].replace("=", " ", 1).split()
            seats = int(words[0]) if words and words[0].isascii() and words[0].isdigit() else None
    return seats


_CHOICES = {"--on-timeout": ("fold", "call", "abort"), "--on_timeout": ("fold", "call", "abort")}


def _value_taken(name: str, value: str) -> bool:
    """Whether the full parser takes ``value`` for ``name`` (a time limit: a whole number; a policy:
    one of its words), so that its error ('--t_response nan') comes before any ports line."""
    if name in ("-p", "--host"):
        return True  # checked where they are used
    if name in _CHOICES:
        return value in _CHOICES[name]
    return value.isascii() and value.isdigit()


def _plain(word: str, refused: str) -> bool:
    """Not empty, no white space, none of ``refused`` (the dealer's rules for match and player names)."""
    return bool(word) and not any(c.isspace() or c in refused for c in word)


def _loopback_ipv4(host: str) -> bool:
    try:
        _socket.inet_pton(_socket.AF_INET, host)
    except OSError:
        return False
    return host.startswith("127.")


def _ports(text: str | None, seats: int) -> list[int] | None:
    if text is None:
        return [0] * seats
    parts = text.split(",")
    if len(parts) != seats or not all(p.isdigit() and int(p) <= 65535 for p in parts):
        return None
    ports = [int(p) for p in parts]
    taken = [p for p in ports if p]
    return ports if len(set(taken)) == len(taken) else None


def _listen(host: str, ports: list[int]) -> list[_socket.socket] | None:
    """One listening socket per seat, as ``MatchServer`` binds them; None if any cannot be had."""
    socks: list[_socket.socket] = []
    try:
        for port in ports:
            sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
            socks.append(sock)
            sock.setsockopt(_socket.SOL_SOCKET, _socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
            sock.listen(BACKLOG)
    except OSError:
        for sock in socks:
            sock.close()
        return None
    return socks


def _keep_signal(signum: int, frame: FrameType | None) -> None:
    _signals.append(signum)


def bind_and_print(argv: Sequence[str]) -> bool:
    """For a ``showdown dealer`` command line (``argv`` after ``dealer``) on the fast path: bind one
    listener per seat, print the ports line, keep the sockets for ``take_bound``; True if done."""
    global _bound
    parsed = _seats_and_options(argv)
    if parsed is None:
        return False
    seats, values = parsed
    host = values.get("--host", "127.0.0.1")
    ports = _ports(values.get("-p"), seats)
    if ports is None or not _loopback_ipv4(host):
        return False
    socks = _listen(host, ports)
    if socks is None:
        return False
    for signum in (_signal.SIGINT, _signal.SIGTERM):
        _signal.signal(signum, _keep_signal)
    _bound = socks
    print(" ".join(str(s.getsockname()[1]) for s in socks), flush=True)
    return True


def take_bound() -> list[socket.socket] | None:
    """The sockets ``bind_and_print`` bound and printed (handed over once, as ``socket.socket``:
    what asyncio serves on); None if it did not."""
    global _bound
    socks, _bound = _bound, None
    if socks is None:
        return None
    import socket

    return [socket.socket(fileno=raw.detach()) for raw in socks]  # family and type read from the socket


def take_signals() -> list[int]:
    """The signals kept since the ports were printed; the usual handlers are back from now on."""
    _signal.signal(_signal.SIGINT, _signal.default_int_handler)
    _signal.signal(_signal.SIGTERM, _signal.SIG_DFL)
    kept = list(_signals)
    _signals.clear()
    return kept


def main(argv: Sequence[str]) -> int:
    """``showdown dealer ...``: the ports first when possible, then the dealer command."""
    bind_and_print(argv)
    from showdown.cli.main import main as run

    return run(["dealer", *argv])

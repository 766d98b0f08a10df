"""How a match is served (``DealerOptions``) and what it came to (``MatchResult``)."""

from __future__ import annotations

import socket
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from showdown.errors import ShowdownError
from showdown.server.timing import REFERENCE_T_HAND_MS, REFERENCE_T_RESPONSE_MS, DealerSettings

__all__ = ["DealerOptions", "MatchResult", "seat_ports", "seat_tokens"]


@dataclass(frozen=True)
class DealerOptions(DealerSettings):
    """How the match is served: the dealer's settings (by default the reference's: 600 s per decision
    and per hand, no start timeout), and where, to whom, and with what logs."""

    t_response_ms: int = REFERENCE_T_RESPONSE_MS
    t_hand_ms: int = REFERENCE_T_HAND_MS
    start_timeout_ms: int | None = None
    host: str = "127.0.0.1"
    ports: Sequence[int] | None = None  # None or 0 entries: free ports
    fixed_seats: bool = False
    log_dir: Path | None = None  # where <match>.log and <match>.jsonl go (None: no files)
    trace: bool = False  # reference-style TO/FROM trace on stderr
    game_label: str | None = None  # the game as the log header names it (default: game.name)
    max_queue: int = 1000  # lines queued per seat while it is not its turn
    force: bool = False  # overwrite existing logs of the same match (otherwise refused)
    resume: bool = False  # continue a killed match from its logs (start it when there are none)
    tokens: tuple[str | None, ...] | None = None  # per seat: the secret its client must send (None: none)
    first_line_ms: int | None = None  # a new connection must send its VERSION line within this time (None: t_response_ms)
    max_pending: int = 16  # connections per port that have not yet proved their seat
    listeners: tuple[socket.socket | None, ...] | None = None  # per seat: a listening socket to serve it on (a sandbox's)
    bound: tuple[socket.socket, ...] | None = None  # per seat: a socket already listening (its port printed before the
    # dealer loaded: cli.dealer_ports), served first and then closed like one the dealer bound itself

    @classmethod
    def serving(cls, settings: DealerSettings, **how: Any) -> DealerOptions:
        """Options from a match's dealer ``settings`` and ``how`` to serve it (host, tokens, logs...)."""
        return cls(**{f.name: getattr(settings, f.name) for f in fields(DealerSettings)}, **how)


@dataclass
class MatchResult:
    """What a served match came to; ``totals`` by seat, ``replacements`` by seat name."""

    names: tuple[str, ...]
    totals: tuple[float, ...]
    hands_played: int
    aborted: bool
    replacements: dict[str, dict[str, int]]
    log_path: Path | None
    jsonl_path: Path | None
    reason: str | None = None  # why an aborted match ended early
    hands: int = 0  # hands the match was meant to have
    seed: int = 0
    play_seconds: float = 0.0  # from the first deal to the end (the seats' start-up not counted)
    error: str | None = None  # a log write that failed (a full disk), and what the logs hold


def seat_ports(options: DealerOptions, seats: int) -> list[int]:
    """The port each seat listens on (0: any free one)."""
    ports = list(options.ports) if options.ports else [0] * seats
    if len(ports) != seats:
        example = ",".join(str(18791 + s) for s in range(seats))
        raise ShowdownError(f"{len(ports)} ports given for {seats} seats: give one per seat, like -p {example} (0: a free one)")
    taken = [p for p in ports if p]
    if len(set(taken)) != len(taken):
        raise ShowdownError(f"the same port is given to two seats ({','.join(map(str, ports))}): give each seat its own")
    return ports


def seat_tokens(options: DealerOptions, seats: int) -> tuple[str | None, ...]:
    """The secret each seat's client must send (None: any client may take the seat)."""
    tokens = tuple(options.tokens) if options.tokens is not None else (None,) * seats
    if len(tokens) != seats:
        raise ShowdownError(f"{len(tokens)} seat tokens given for {seats} seats")
    return tokens

"""Who sits where: the seats' states, the rotation of positions, and the names a match accepts.

Seat s plays position (s - h) mod N in hand h, or position s with fixed seats (as the reference).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum, StrEnum

from showdown.errors import ShowdownError
from showdown.games.gamedef import GameDef
from showdown.protocol.logfile import MAX_HANDS, check_name

__all__ = ["ON_TIMEOUT", "OnTimeout", "SeatStatus", "check_match", "seatings"]


class SeatStatus(Enum):
    WAITING = "waiting"  # never connected yet
    CONNECTING = "connecting"  # connected, VERSION line not yet received
    ACTIVE = "active"  # playing
    AWAY = "away"  # connection lost or rejected: may come back, its turns are waited for
    GONE = "gone"  # given up on: played check/fold without waiting until the match ends


class OnTimeout(StrEnum):
    """What the dealer plays for a seat that is late or gone: check or fold, call, or end the match
    (the reference's behaviour)."""

    FOLD = "fold"
    CALL = "call"
    ABORT = "abort"


ON_TIMEOUT = tuple(OnTimeout)


def check_match(game: GameDef, names: Sequence[str], hands: int, on_timeout: str) -> None:
    """A match the engine can serve, or ``ShowdownError`` saying why not."""
    game.require_servable()
    if len(names) != game.num_players:
        raise ShowdownError(f"game {game.name or '?'} needs {game.num_players} players, got {len(names)} names")
    for name in names:
        check_name(name)
    if len(set(names)) != len(names):
        raise ShowdownError(
            f"player names must all differ (logs tell the seats apart by name): {' '.join(names)}; "
            f"add a suffix, like random-1 random-2"
        )
    if not 0 <= hands <= MAX_HANDS:
        raise ShowdownError(f"number of hands must be 0 to {MAX_HANDS}, got {hands}")
    if on_timeout not in ON_TIMEOUT:
        raise ShowdownError(f"on_timeout must be one of {', '.join(ON_TIMEOUT)}, got {on_timeout!r}")


def seatings(names: Sequence[str]) -> list[tuple[list[int], list[int], tuple[str, ...]]]:
    """Per rotation (hand number mod seats): the seat at each position, the position of each seat,
    and the names by position."""
    n = len(names)
    return [
        (
            [(p + shift) % n for p in range(n)],
            [(s - shift) % n for s in range(n)],
            tuple(names[(p + shift) % n] for p in range(n)),
        )
        for shift in range(n)
    ]

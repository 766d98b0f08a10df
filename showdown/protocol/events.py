"""What the dealer did to a seat in one hand: typed events, the one place their kinds are spelled.

A hand record (``logfile.HandRecord``) lists every action the dealer played or repaired for a seat
and every line it ignored, as ``HandEvent`` values: frozen, with an enum ``kind``, the way h11 types
its protocol events and pokerkit its operations, so that readers (the view, resume, analysis) never
read an event by string key. In a ``.jsonl`` log an event is one JSON object whose keys keep this
order (``kind``, ``seat``, ``name``, ``message``, then the optional ones that are set): the files
stay byte for byte what the dealer has always written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from showdown.errors import ProtocolError

__all__ = [
    "CHOSEN_WHY",
    "COUNT_KINDS",
    "DEALER_CHOSE",
    "NOT_ITS_OWN_ACTION",
    "EventKind",
    "HandEvent",
    "chosen_why",
    "seats_with",
]


class EventKind(StrEnum):
    """Why an event was recorded. The first nine are also the dealer's per-seat counters."""

    TIMEOUT = "timeout"  # action played because the seat ran out of time
    DISCONNECT = "disconnect"  # action played because the seat was not connected
    INVALID = "invalid"  # illegal action (or unknown letter) changed to call
    BAD_ACTION = "bad_action"  # missing or malformed action changed to call
    RESIZED = "resized"  # no-limit raise size clamped into the legal range
    IGNORED = "ignored"  # line ignored: unparsable, or not the current decision point
    DROPPED = "dropped"  # line dropped because the seat's queue was full
    CONNECTION_LOST = "connection_lost"  # the seat's connection dropped (or was closed by us)
    REJECTED = "rejected"  # connection refused: bad VERSION line
    GONE = "gone"  # the seat was given up on: played check/fold until the match ends
    RECONNECTED = "reconnected"  # the seat came back and was sent the current state
    MORE = "more"  # the last event of a hand that had more than the dealer keeps: how many


COUNT_KINDS: tuple[EventKind, ...] = tuple(EventKind)[:9]
"""The dealer's per-seat counters, in the order summaries list them (every one always present)."""

CHOSEN_WHY: Mapping[EventKind, str] = {
    EventKind.TIMEOUT: "out of time",
    EventKind.DISCONNECT: "not connected",
    EventKind.INVALID: "invalid or no reply",
    EventKind.BAD_ACTION: "malformed action",
}
"""Each count kind in which the dealer chose the seat's action, and how a summary says it."""

DEALER_CHOSE = frozenset(CHOSEN_WHY)
"""Kinds in which the dealer chose the seat's action: it ran out of time, was not there, or its
reply (or 8 lines answering nothing) named no legal action. A hand with one of these for a seat was
not played by that seat's agent, and counts toward ``--max-replaced``. (A resized no-limit raise
is the seat's own raise, clamped: counted, but not as chosen by the dealer.)"""

NOT_ITS_OWN_ACTION = DEALER_CHOSE | {EventKind.RESIZED}
"""Kinds after which the action played is not exactly the one the seat's agent chose (AIVAT leaves
such hands uncorrected)."""


def chosen_why(counts: Mapping[str, int]) -> str:
    """Why the dealer chose a seat's actions, from its counts: ``invalid or no reply: 1,990 actions``."""
    parts = [f"{CHOSEN_WHY[kind]}: {counts[kind]:,} action{'s' if counts[kind] != 1 else ''}"
             for kind in CHOSEN_WHY if counts.get(kind)]  # fmt: skip
    return "; ".join(parts) or "no reason counted"


@dataclass(frozen=True, slots=True)
class HandEvent:
    """One thing the dealer did about ``seat`` (named ``name``) in a hand; ``message`` says it.

    ``played`` and ``at``: the action the dealer played for the seat and the betting before it
    (timeouts, disconnects); ``line``: what the seat sent (its first 120 characters); ``count``: for
    ``MORE`` (seat -1), how many events of the hand were left out.
    """

    kind: EventKind
    seat: int
    name: str
    message: str
    played: str | None = None
    at: str | None = None
    line: str | None = None
    count: int | None = None

    @property
    def dealer_chose(self) -> bool:
        """Whether the dealer, not the seat's agent, chose the action played."""
        return self.kind in DEALER_CHOSE

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, keys in the order the dealer writes them (unset optional ones left out)."""
        d: dict[str, Any] = {"kind": self.kind.value, "seat": self.seat, "name": self.name, "message": self.message}
        if self.played is not None:
            d["played"] = self.played
        if self.at is not None:
            d["at"] = self.at
        if self.line is not None:
            d["line"] = self.line
        if self.count is not None:
            d["count"] = self.count
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> HandEvent:
        """An event read from a log (``ProtocolError`` naming what is wrong; unknown keys are ignored)."""
        try:
            kind = EventKind(d["kind"])
        except (KeyError, ValueError, TypeError):
            known = ", ".join(k.value for k in EventKind)
            raise ProtocolError(f"bad event {str(dict(d))[:80]}: its kind must be one of {known}") from None
        seat, count = d.get("seat", -1), d.get("count")
        if not isinstance(seat, int) or isinstance(seat, bool) or (count is not None and not isinstance(count, int)):
            raise ProtocolError(f"bad event {str(dict(d))[:80]}: seat and count must be whole numbers")
        return cls(kind, seat, str(d.get("name", "")), str(d.get("message", "")),
                   _text(d.get("played")), _text(d.get("at")), _text(d.get("line")), count)  # fmt: skip


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def seats_with(events: Iterable[HandEvent], kinds: frozenset[EventKind]) -> set[int]:
    """The seats (0-based) that had an event of one of ``kinds`` in a hand: a hand counts once per seat."""
    return {e.seat for e in events if e.kind in kinds and e.seat >= 0}

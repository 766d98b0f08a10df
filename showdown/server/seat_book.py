"""The dealer's book of what it did to each seat: counts for the match, events and warnings per hand.

Bounded by design: a client looping on bad lines must not grow a hand's record or stderr without
bound. A hand keeps its first ``MAX_EVENTS_PER_HAND`` events and counts the rest in one last
``more`` event; each seat's first event in which the dealer chose its action is always kept (readers
count such hands from the record, at most one more event per seat); each seat's warnings are
reported up to ``max_warnings`` a hand, then once more to say the rest are not shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from showdown.protocol.events import COUNT_KINDS, DEALER_CHOSE, EventKind, HandEvent
from showdown.server.outputs import Output, SeatWarning

__all__ = ["MAX_EVENTS_PER_HAND", "SeatBook"]

MAX_EVENTS_PER_HAND = 32
"""Events kept in one hand's record; the rest are counted in one last ``more`` event."""


class SeatBook:
    """Per-seat counters (``counts``: every kind of ``COUNT_KINDS``, always present, plain-string keys)
    and the current hand's events."""

    def __init__(self, names: Sequence[str], max_warnings: int) -> None:
        self.names = tuple(names)
        self.max_warnings = max_warnings
        n = len(names)
        self.counts: list[dict[str, int]] = [dict.fromkeys((k.value for k in COUNT_KINDS), 0) for _ in range(n)]
        self._events: list[HandEvent] = []
        self._left_out = 0  # events of this hand past the cap
        self._warnings = [0] * n  # warnings of this hand, by seat
        self._chosen = [False] * n  # the dealer chose an action for the seat in this hand
        self.quiet = True  # nothing recorded or warned in this hand (then new_hand and hand_events need no call)

    def new_hand(self) -> None:
        if not self.quiet:
            self._events = []
            self._left_out = 0
            n = len(self.names)
            self._warnings = [0] * n
            self._chosen = [False] * n
            self.quiet = True

    def hand_events(self) -> tuple[HandEvent, ...]:
        """The hand's events so far, with the count of those left out last."""
        if not self._left_out:
            return tuple(self._events)
        more = HandEvent(EventKind.MORE, -1, "", "more events in this hand", count=self._left_out)
        return (*self._events, more)

    def count(self, seat: int, kind: EventKind) -> None:
        self.counts[seat][kind] += 1

    def carry_on(self, counts: Mapping[int, Mapping[str, int]]) -> None:
        """Add the counts of a resumed match's earlier hands (kinds not counted are ignored)."""
        for seat, by_kind in counts.items():
            for kind, n in by_kind.items():
                if kind in self.counts[seat]:
                    self.counts[seat][kind] += n

    def record(self, seat: int, kind: EventKind, message: str, *, played: str | None = None,
               at: str | None = None, line: str | None = None) -> None:  # fmt: skip
        """Record what happened to ``seat`` in this hand (past the cap, only counted)."""
        self.quiet = False
        chosen = kind in DEALER_CHOSE
        first_chosen = chosen and not self._chosen[seat]
        if len(self._events) >= MAX_EVENTS_PER_HAND and not first_chosen:
            self._left_out += 1
            return
        if first_chosen:
            self._chosen[seat] = True
        self._events.append(HandEvent(kind, seat, self.names[seat], message, played, at, line))

    def warn(self, out: list[Output], seat: int, kind: EventKind, text: str, line: str, detail: str = "") -> None:
        """Count, record (the first ``max_warnings`` per seat and hand) and report a repair in ``out``."""
        self.count(seat, kind)
        self.quiet = False
        shown = self._warnings[seat]
        self._warnings[seat] = shown + 1
        if shown < self.max_warnings or (kind in DEALER_CHOSE and not self._chosen[seat]):
            self.record(seat, kind, text, line=line[:120])
            out.append(SeatWarning(seat, text, detail, kind))
        elif shown == self.max_warnings:
            out.append(SeatWarning(seat, "more warnings for this seat in this hand are not shown"))

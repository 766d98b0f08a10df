"""Time limits for a match, still without I/O: the clock is an input (``now``, in seconds).

``TimedMatch`` wraps a ``MatchEngine`` and turns the reference dealer's time limits into engine
inputs: a seat that does not answer within its limit gets ``timeout`` (its action is played for
it), a seat that lost its connection and does not come back within ``reconnect_ms`` gets
``abandon``, and ``start_timeout_ms`` starts the match without the seats still missing.

The limits are the reference's (docs/protocol.md section 3): ``t_response`` per decision, ``t_hand`` per
seat and hand, and ``t_per_hand`` x hands per seat and match. A seat's time on a decision runs
from the moment the decision becomes its own until its answer is read (or replaced). The reference
checks the hand and match budgets only after an answer arrives and then aborts; here the decision's
deadline is the tightest of the three, so an over-budget answer is never waited for.

Drivers call ``tick(now)`` when ``next_deadline()`` has passed and ``advance(now)`` while
``needs_advance``; every other input mirrors the engine's.
"""

from __future__ import annotations

from dataclasses import dataclass

from showdown.errors import ShowdownError
from showdown.server.dealer import MatchEngine, OnTimeout, SeatStatus
from showdown.server.outputs import Output

REFERENCE_T_RESPONSE_MS = 600_000
REFERENCE_T_HAND_MS = 600_000
"""The reference dealer's defaults: ten minutes per decision and per hand (``showdown dealer``'s)."""

MATCH_T_RESPONSE_MS = 10_000
MATCH_T_HAND_MS = 60_000
"""``showdown match`` and tournaments, where the bots run on this machine: a silent or confused bot
costs seconds per decision, not the reference's ten minutes (a match file's ``dealer:`` changes them)."""


@dataclass(frozen=True, slots=True)
class TimeLimits:
    """Limits in milliseconds, as on the reference dealer's command line."""

    t_response_ms: int = REFERENCE_T_RESPONSE_MS
    t_hand_ms: int = REFERENCE_T_HAND_MS
    t_per_hand_ms: int = 7_000
    start_timeout_ms: int | None = None
    reconnect_ms: int = 2_000

    def __post_init__(self) -> None:
        for name in ("t_response_ms", "t_hand_ms", "t_per_hand_ms", "reconnect_ms"):
            if getattr(self, name) < 0:
                raise ShowdownError(f"{name} must be at least 0, got {getattr(self, name)}")
        if self.start_timeout_ms is not None and self.start_timeout_ms < 0:
            raise ShowdownError(f"start_timeout_ms must be at least 0, got {self.start_timeout_ms}")


@dataclass(frozen=True)
class DealerSettings:
    """The dealer's time limits (milliseconds, as the reference's flags) and policies: one type for
    ``showdown dealer``'s flags, a match file's ``dealer:`` section and the server's options
    (``tcp.DealerOptions`` extends it with where and how to serve). The defaults are a local match's;
    ``showdown dealer`` and ``DealerOptions`` keep the reference's."""

    t_response_ms: int = MATCH_T_RESPONSE_MS
    t_hand_ms: int = MATCH_T_HAND_MS
    t_per_hand_ms: int = 7_000
    start_timeout_ms: int | None = 15_000
    reconnect_ms: int = 2_000
    on_timeout: OnTimeout = OnTimeout.FOLD
    spin_us: int = 200  # busy-wait for a fast agent's reply (microseconds; 0: never; see server.tcp.BusyWait)

    def limits(self) -> TimeLimits:
        return TimeLimits(
            t_response_ms=self.t_response_ms,
            t_hand_ms=self.t_hand_ms,
            t_per_hand_ms=self.t_per_hand_ms,
            start_timeout_ms=self.start_timeout_ms,
            reconnect_ms=self.reconnect_ms,
        )



_NOT_PLAYING = (SeatStatus.WAITING, SeatStatus.CONNECTING, SeatStatus.AWAY)


class TimedMatch:
    """A ``MatchEngine`` plus deadlines: per decision, per hand, per match, reconnects, start."""

    def __init__(self, engine: MatchEngine, limits: TimeLimits, now: float) -> None:
        self.engine = engine
        self.limits = limits
        n = engine.game.num_players
        self._t_response = limits.t_response_ms / 1000
        self._t_hand = limits.t_hand_ms / 1000
        self._t_match = limits.t_per_hand_ms * engine.hands / 1000
        self._reconnect = limits.reconnect_ms / 1000
        self.start_deadline = None if limits.start_timeout_ms is None else now + limits.start_timeout_ms / 1000
        self.hand_used = [0.0] * n  # seconds used by each seat in the current hand
        self.match_used = [0.0] * n  # seconds used by each seat in the match
        self._decision = engine.decision_count
        self._hand = engine.hand
        self._clock_seat: int | None = None
        self._clock_start = 0.0
        self._action_deadline = 0.0
        self._reconnect_deadlines: dict[int, float] = {}
        self._status_changes = -1

    # ----------------------------------------------------------------- queries

    @property
    def needs_advance(self) -> bool:
        return self.engine.needs_advance

    def next_deadline(self) -> float | None:
        """The earliest time at which ``tick`` has something to do (None: nothing pending)."""
        e = self.engine
        if e.finished:
            return None
        best: float | None = None
        if not e.started:
            best = self.start_deadline
        if self._clock_seat is not None:
            best = self._action_deadline if best is None else min(best, self._action_deadline)
        if self._reconnect_deadlines:
            first = min(self._reconnect_deadlines.values())
            best = first if best is None else min(best, first)
        return best

    def action_deadline(self) -> tuple[int, float] | None:
        """(seat, deadline) of the decision being waited for, if any."""
        if self._clock_seat is None:
            return None
        return self._clock_seat, self._action_deadline

    # ----------------------------------------------------------------- inputs

    def connected(self, seat: int, now: float) -> list[Output]:
        return self._sync(self.engine.connected(seat), now)

    def receive(self, seat: int, line: str, now: float) -> list[Output]:
        return self._sync(self.engine.receive(seat, line), now)

    def disconnected(self, seat: int, now: float) -> list[Output]:
        return self._sync(self.engine.disconnected(seat), now)

    def advance(self, now: float) -> list[Output]:
        return self._sync(self.engine.advance(), now)

    def request_stop(self, now: float) -> list[Output]:
        return self._sync(self.engine.request_stop(), now)

    def stop_now(self, now: float) -> list[Output]:
        return self._sync(self.engine.stop_now(), now)

    def tick(self, now: float) -> list[Output]:
        """Act on every deadline that has passed by ``now`` (at most one hand's worth per call)."""
        e = self.engine
        out: list[Output] = []
        hands_at_entry = e.hands_played
        while not e.finished:
            if not e.started:
                if self.start_deadline is not None and now >= self.start_deadline:
                    out += self._sync(e.start(), now)
                    continue
                return out
            expired = [s for s, t in self._reconnect_deadlines.items() if now >= t]
            if expired:
                for seat in expired:
                    self._reconnect_deadlines.pop(seat, None)
                    out += self._sync(e.abandon(seat), now)
                continue
            if self._clock_seat is not None and now >= self._action_deadline:
                out += self._sync(e.timeout(self._clock_seat), now)
                if e.hands_played > hands_at_entry:
                    return out
                continue
            return out
        return out

    # ----------------------------------------------------------------- bookkeeping

    def _sync(self, out: list[Output], now: float) -> list[Output]:
        self.follow(now)
        return out

    def follow(self, now: float) -> None:
        """Follow the engine: charge the decision that ended, time the one that began (the inputs
        above do it; a driver that fed the engine directly calls it, e.g. once its lines are out)."""
        e = self.engine
        if e.decision_count != self._decision:
            self._decision = e.decision_count
            seat = self._clock_seat
            if seat is not None:
                used = now - self._clock_start
                self.hand_used[seat] += used
                self.match_used[seat] += used
            if e.hand != self._hand:
                self._hand = e.hand
                self.hand_used = [0.0] * len(self.hand_used)
            seat = e.acting_seat  # ``e.waiting_for``, inline while no seat is gone: once per action
            self._clock_seat = seat = e.waiting_for if e.any_gone else seat
            if seat is not None:
                self._clock_start = now
                budget = min(
                    self._t_response,
                    self._t_hand - self.hand_used[seat],
                    self._t_match - self.match_used[seat],
                )
                self._action_deadline = now + max(0.0, budget)
        elif self._clock_seat is not None and e.waiting_for is None:
            self._clock_seat = None  # the match ended or the seat is gone
        if e.status_changes != self._status_changes:
            self._status_changes = e.status_changes
            self._follow_reconnects(now)

    def _follow_reconnects(self, now: float) -> None:
        """A seat away during the match has ``reconnect_ms`` from when it left to come back."""
        e = self.engine
        if not e.started or e.finished:
            return
        deadlines = self._reconnect_deadlines
        for seat in range(len(self.hand_used)):
            if e.status(seat) in _NOT_PLAYING:
                deadlines.setdefault(seat, now + self._reconnect)
            else:
                deadlines.pop(seat, None)

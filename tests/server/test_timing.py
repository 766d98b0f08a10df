"""TimedMatch: the reference's time limits as deadlines, with the clock as an input."""

from __future__ import annotations

import pytest

from showdown.errors import ShowdownError
from showdown.games.catalog import get_game
from showdown.server.dealer import MatchEngine, SeatStatus
from showdown.server.timing import TimedMatch, TimeLimits
from tests.server.helpers import Collected


def timed(hands: int = 4, game: str = "kuhn", **limits: int | None) -> tuple[MatchEngine, TimedMatch, Collected]:
    engine = MatchEngine(get_game(game), ["a", "b"], hands, 3)
    tm = TimedMatch(engine, TimeLimits(**limits), 0.0)  # type: ignore[arg-type]
    c = Collected()
    for seat in range(2):
        c.take(tm.connected(seat, 0.0))
        c.take(tm.receive(seat, "VERSION:2.0.0", 0.0))
    return engine, tm, c


def deadline_is(tm: TimedMatch, seat: int, when: float) -> bool:
    got = tm.action_deadline()
    return got is not None and got[0] == seat and got[1] == pytest.approx(when)


def answer(engine: MatchEngine, tm: TimedMatch, c: Collected, now: float, action: str = "c") -> None:
    seat = engine.waiting_for
    assert seat is not None
    c.take(tm.receive(seat, f"{c.sent[seat][-1]}:{action}", now))


def test_response_deadline_starts_when_the_decision_does() -> None:
    engine, tm, c = timed(t_response_ms=300)
    assert deadline_is(tm, 0, 0.3)
    answer(engine, tm, c, 0.1)
    assert deadline_is(tm, 1, 0.4)
    assert tm.tick(0.39) == [] and engine.counts[1]["timeout"] == 0
    c.take(tm.tick(0.4))
    assert engine.counts[1]["timeout"] == 1


def test_hand_budget_shrinks_within_a_hand_and_resets_for_the_next() -> None:
    engine, tm, c = timed(game="holdem.limit.2p.reverse_blinds.game", t_hand_ms=500)
    now = 0.0
    # hand 0: seat 2 (position 1) acts first pre-flop, then seat 1, who also opens the flop
    for _ in range(3):
        now += 0.2
        answer(engine, tm, c, now)
    assert tm.hand_used == [pytest.approx(0.4), pytest.approx(0.2)]
    assert deadline_is(tm, 1, now + 0.3)  # seat 2 has 0.3 s left this hand
    now += 0.2
    answer(engine, tm, c, now)
    assert deadline_is(tm, 0, now + 0.1)  # seat 1 has 0.1 s left
    while engine.hand == 0:
        answer(engine, tm, c, now)
    assert tm.hand_used == [0.0, 0.0]


def test_match_budget_is_t_per_hand_times_hands() -> None:
    engine, tm, c = timed(hands=4, t_per_hand_ms=50)  # 0.2 s per seat for the match
    answer(engine, tm, c, 0.15)
    assert tm.match_used[0] == pytest.approx(0.15)
    # seat 0's next decision has 0.05 s left
    while engine.waiting_for != 0:
        answer(engine, tm, c, 0.15)
    seat, deadline = tm.action_deadline()  # type: ignore[misc]
    assert seat == 0 and deadline == pytest.approx(0.2)


def test_spent_budget_means_an_immediate_replacement() -> None:
    engine, tm, c = timed(hands=2, t_per_hand_ms=10)  # 0.02 s per seat for the match
    c.take(tm.tick(0.02))  # seat 0's first decision times out: its budget is spent
    while engine.waiting_for != 0:
        answer(engine, tm, c, 0.03)
    assert deadline_is(tm, 0, 0.03)  # due at once


def test_reconnect_window_starts_at_disconnect_and_ends_on_version() -> None:
    engine, tm, c = timed(reconnect_ms=1000)
    c.take(tm.disconnected(1, 0.5))
    assert tm.next_deadline() == pytest.approx(1.5)
    c.take(tm.connected(1, 0.8))
    assert tm.next_deadline() == pytest.approx(1.5)  # connected, but no VERSION yet
    c.take(tm.receive(1, "VERSION:2.0.0", 0.9))
    assert tm.next_deadline() == pytest.approx(28.0)  # only seat 0's deadline: 7 s x 4 hands
    assert engine.status(1) is SeatStatus.ACTIVE


def test_reconnect_window_expiry_gives_the_seat_up() -> None:
    engine, tm, c = timed(reconnect_ms=1000)
    c.take(tm.disconnected(1, 0.5))
    c.take(tm.tick(1.5))
    assert engine.status(1) is SeatStatus.GONE


def test_start_timeout_starts_without_the_missing_seats() -> None:
    engine = MatchEngine(get_game("kuhn"), ["a", "b"], 3, 3)
    tm = TimedMatch(engine, TimeLimits(start_timeout_ms=200), 0.0)
    tm.connected(0, 0.0)
    tm.receive(0, "VERSION:2.0.0", 0.0)
    assert tm.next_deadline() == pytest.approx(0.2)
    assert tm.tick(0.1) == [] and not engine.started
    tm.tick(0.2)
    assert engine.started and engine.status(1) is SeatStatus.GONE


def test_without_start_timeout_nothing_is_pending_before_the_start() -> None:
    engine = MatchEngine(get_game("kuhn"), ["a", "b"], 3, 3)
    tm = TimedMatch(engine, TimeLimits(), 0.0)
    assert tm.next_deadline() is None and tm.tick(1e9) == []


def test_tick_plays_at_most_one_hand_of_timeouts() -> None:
    engine, tm, c = timed(hands=5, t_per_hand_ms=0)  # no time at all: every decision times out
    c.take(tm.tick(0.0))
    assert len(c.hands) == 1
    while not engine.finished:
        c.take(tm.tick(0.0))
    assert len(c.hands) == 5


@pytest.mark.parametrize("field", ["t_response_ms", "t_hand_ms", "t_per_hand_ms", "reconnect_ms", "start_timeout_ms"])
def test_negative_limits_are_refused(field: str) -> None:
    with pytest.raises(ShowdownError, match=field):
        TimeLimits(**{field: -1})

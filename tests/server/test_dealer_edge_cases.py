"""The reference dealer's 17 kinds of odd client input (tests/data/edge_cases.txt), without sockets.

Each test feeds the client lines the reference read (its FROM lines) to ``MatchEngine`` and checks
the same outcome: the same FROM/WARNING sequence and the same log. Where the reference ends the match
(timeouts e10, a closed socket e11, a bad VERSION e12d, the resume of e16) or waits for ever (e7c),
the test shows our deliberate improvement instead and says so.
"""

from __future__ import annotations

import json

import pytest

from showdown.games.catalog import get_game
from showdown.server.dealer import BAD_STATE, UNREQUESTED, VERSION_WARNING, MatchEngine, SeatStatus
from showdown.server.framing import LineSplitter
from showdown.server.outputs import Reject
from showdown.server.timing import TimedMatch, TimeLimits
from tests.server.helpers import Collected, EdgeCase, connect_all, drive, feed, load_edge_cases, simulate

CASES = load_edge_cases()
SEED = 3  # edge_cases.txt: "seed 3, names P1/P2"


def engine_for(case: EdgeCase, game: str, *, names: tuple[str, str] = ("P1", "P2"), **kw: object) -> MatchEngine:
    hands = sum(1 for line in case.log if line.startswith("STATE:"))
    return MatchEngine(get_game(game), names, hands, SEED, **kw)  # type: ignore[arg-type]


def replay(case: EdgeCase, engine: MatchEngine, *, line_end: str = "\r\n", versions: tuple[str, ...] = ()) -> Collected:
    """Connect both seats, then feed every FROM line of the case, in order, as raw bytes."""
    c = Collected()
    for seat in range(2):
        drive(engine, c, engine.connected(seat))
        version = versions[seat] if seat < len(versions) else "VERSION:2.0.0"
        drive(engine, c, engine.receive(seat, version))
    splitters = [LineSplitter(), LineSplitter()]
    for seat, line in case.replies():
        c.trace.append(f"FROM {seat + 1} {line}")
        for piece in splitters[seat].feed((line + line_end).encode("latin-1")):
            drive(engine, c, engine.receive(seat, piece))
    return c


# ------------------------------------------------------------------ same outcome as the reference

SAME = [
    ("e1_fold_when_check", "kuhn"),  # fold when check is possible -> call, "invalid action" warning
    ("e2_badchar", "kuhn"),  # unknown letter -> call
    ("e3_reraise", "kuhn"),  # raise past maxRaises -> call
    ("e4_alias", "kuhn"),  # b B R -> raise, k K C -> call, F -> fold; no warnings
    ("e6_comment", "kuhn"),  # a '#' line is ignored silently
    ("e7_wrongstate", "kuhn"),  # wrong hand number: "ignoring un-requested response", keep waiting
    ("e7b_wrongcard", "kuhn"),  # wrong own card: the same
    ("e8_garbage", "kuhn"),  # "hello": "bad state format in response", keep waiting
    ("e8b_noaction", "kuhn"),  # no ":action": "bad action format in response, changed to call"
    ("e8c_emptyaction", "kuhn"),  # empty action: "invalid action, changed to call"
    ("e9_nolimit_sizes", "holdem.nolimit.2p.reverse_blinds.game"),  # sizes clamped, r-less raise -> call
    ("e17_limit_rsize", "kuhn"),  # r50 in limit: a plain raise, no warning
]


@pytest.mark.parametrize(("name", "game"), SAME)
def test_same_lines_warnings_and_log_as_reference(name: str, game: str) -> None:
    case = CASES[name]
    engine = engine_for(case, game)
    c = replay(case, engine)
    assert c.trace == case.trace()
    assert c.log_body() == case.log
    assert c.finished is not None and not c.finished.aborted


def test_e5_lf_only_line_ends_are_accepted() -> None:
    case = CASES["e5_lf"]
    c = replay(case, engine_for(case, "kuhn"), line_end="\n")
    assert c.trace == case.trace()
    assert c.log_body() == case.log


def test_e9_counts_every_repair_per_seat() -> None:
    case = CASES["e9_nolimit_sizes"]
    engine = engine_for(case, "holdem.nolimit.2p.reverse_blinds.game")
    replay(case, engine)
    # P2: 'r' without size (bad_action), r999999 (resized), r-5 (resized); P1: r1, r150 (resized).
    assert engine.counts[0]["resized"] == 2 and engine.counts[0]["bad_action"] == 0
    assert engine.counts[1]["resized"] == 2 and engine.counts[1]["bad_action"] == 1


def test_e15_fixed_seats() -> None:
    case = CASES["e15_fixed"]
    engine = engine_for(case, "kuhn", names=("Player1", "Player2"), fixed_seats=True)
    c = replay(case, engine)
    assert c.trace == case.trace()
    assert c.log_body() == case.log


@pytest.mark.parametrize("name", ["e12a_v1", "e12b_v21", "e12c_v209"])
def test_e12_other_parsable_versions_are_tolerated(name: str) -> None:
    case = CASES[name]
    version = {"e12a_v1": "VERSION:1.0.0", "e12b_v21": "VERSION:2.1.0", "e12c_v209": "VERSION:2.0.9"}[name]
    c = replay(case, engine_for(case, "kuhn"), versions=(version,))
    # The reference prints "ERROR: this server is currently using version 2.0.0" and plays on.
    reference_notes = [line.removeprefix("ERROR: ") for line in case.err if line.startswith("ERROR: ")]
    assert [text for _, text in c.warnings] == reference_notes
    assert reference_notes == ([] if name == "e12c_v209" else [VERSION_WARNING])
    assert [line for line in c.trace if line.startswith("FROM")] == case.trace()
    assert c.log_body() == case.log


def test_e13_lines_of_a_seat_wait_until_it_is_to_act() -> None:
    """Seat 1 also answers states when it is not its turn: those lines stay queued and are read
    (and ignored) only when seat 1 is next to act, exactly where the reference reads them."""
    case = CASES["e13_always"]
    engine = engine_for(case, "kuhn")
    c = Collected()
    connect_all(engine, c)
    feed(engine, c, 0, "MATCHSTATE:0:0::Ks|:c")  # hand 0, its turn
    assert engine.receive(0, "MATCHSTATE:0:0:c:Ks|:c") == []  # seat 2 to act: queued, not read
    feed(engine, c, 1, "MATCHSTATE:1:0:c:|Qs:c")  # hand 0 ends; in hand 1 seat 2 acts first
    assert engine.receive(0, "MATCHSTATE:1:1::|As:c") == []  # still not its turn: queued
    assert c.warnings == [] and engine.counts[0]["ignored"] == 0
    # Seat 2 acts; now seat 1 is to act and its two queued lines are read: both un-requested.
    out = engine.receive(1, "MATCHSTATE:0:1::Ks|:c")
    c.take(out)
    assert c.warnings == [(0, UNREQUESTED), (0, UNREQUESTED)]
    assert engine.acting_seat == 0  # still waiting for its real answer
    for seat, line in case.replies()[-3:]:
        feed(engine, c, seat, line)
    assert case.trace()[2:7] == [
        "FROM 2 MATCHSTATE:0:1::Ks|:c",
        "FROM 1 MATCHSTATE:0:0:c:Ks|:c",
        f"WARNING: {UNREQUESTED}",
        "FROM 1 MATCHSTATE:1:1::|As:c",
        f"WARNING: {UNREQUESTED}",
    ]
    assert engine.counts[0]["ignored"] == 2
    assert c.log_body() == case.log


def test_e14_long_line_is_cut_at_4095_bytes_and_the_rest_read_at_the_next_turn() -> None:
    case = CASES["e14_long"]
    engine = engine_for(case, "kuhn")
    c = Collected()
    connect_all(engine, c)
    long_reply = "MATCHSTATE:0:0::Ks|:r" + "x" * 5000 + "\r\n"
    pieces = LineSplitter().feed(long_reply.encode())
    assert [len(p) for p in pieces] == [4095, 5021 - 4095]
    feed(engine, c, 0, pieces[0])  # read as a raise ("rxxx..." in limit: the rest is ignored)
    assert engine.receive(0, pieces[1]) == []  # the remainder waits: seat 2 is to act
    feed(engine, c, 1, "MATCHSTATE:1:0:r:|Qs:c")
    out = engine.receive(1, "MATCHSTATE:0:1::Ks|:c")  # seat 1 acts in hand 1: the remainder is read
    c.take(out)
    assert c.warnings == [(0, BAD_STATE)]
    feed(engine, c, 0, "MATCHSTATE:1:1:c:|As:c")
    reference = case.replies()  # long lines are cut in the file, so compare as prefixes
    assert pieces[0].startswith(reference[0][1]) and pieces[1].startswith(reference[3][1])
    assert case.trace()[4] == f"WARNING: {BAD_STATE}"
    assert c.log_body() == case.log


# ------------------------------------------------------------------ improvements over the reference


def test_e7c_wrong_echo_is_ignored_and_the_time_limit_ends_the_wait() -> None:
    """Reference: warning, then waits until killed. Ours: the same warning, then after t_response
    the action is played for the seat (check) and the match completes."""
    case = CASES["e7c_nocards"]
    engine = MatchEngine(get_game("kuhn"), ("P1", "P2"), 1, SEED)
    tm = TimedMatch(engine, TimeLimits(t_response_ms=300), 0.0)
    c = Collected()
    for seat in range(2):
        c.take(tm.connected(seat, 0.0))
        c.take(tm.receive(seat, "VERSION:2.0.0", 0.0))
    c.trace.append("FROM 1 MATCHSTATE:0:0::|:r")
    c.take(tm.receive(0, "MATCHSTATE:0:0::|:r", 0.01))
    assert c.trace == case.trace()
    assert engine.waiting_for == 0 and tm.next_deadline() == pytest.approx(0.3)
    c.take(tm.tick(0.3))
    assert engine.counts[0]["timeout"] == 1
    c.take(tm.receive(1, "MATCHSTATE:1:0:c:|Qs:c", 0.31))
    assert c.log_body() == ["STATE:0:cc:Ks|Qs:1|-1:P1|P2", "SCORE:1|-1:P1|P2"]


def test_e10a_response_timeout_plays_check_or_fold_and_the_match_goes_on() -> None:
    """Reference: "could not get action from seat 1", match aborted, no SCORE. Ours: seat 1's late
    decisions are played for it (check when possible, else fold) and all hands are played."""
    case = CASES["e10a_tresp"]
    engine = MatchEngine(get_game("kuhn"), ("P1", "P2"), 4, SEED)
    c, _ = simulate(engine, TimeLimits(t_response_ms=300), {0: 0.001, 1: 0.001}, silent_from={0: 1})
    assert c.log_body()[0] == case.log[0]  # hand 0 as in the reference
    assert len(c.hands) == 4 and c.finished is not None and not c.finished.aborted
    assert engine.counts[0]["timeout"] == 3  # one decision per later hand (seat 2 only checks)
    assert all(h.record.events[0].kind == "timeout" for h in c.hands[1:])


def test_e10a_abort_mode_ends_like_the_reference_but_still_scores() -> None:
    """on_timeout="abort": the reference's behaviour (match ends at the first timeout with the same
    log), and unlike the reference the SCORE of the hands played is written."""
    case = CASES["e10a_tresp"]
    engine = MatchEngine(get_game("kuhn"), ("P1", "P2"), 4, SEED, on_timeout="abort")
    c, _ = simulate(engine, TimeLimits(t_response_ms=300), {0: 0.001, 1: 0.001}, silent_from={0: 1})
    assert c.finished is not None and c.finished.aborted
    assert c.log_body() == case.log + ["SCORE:1|-1:P1|P2"]


def test_e10b_hand_budget_limits_the_decision_that_would_exceed_it() -> None:
    """t_response 300, t_hand 500, seat 1 takes 0.2 s per decision. Reference: the third answer
    (0.6 s into the hand) is refused and the match aborted. Ours: that decision's deadline is the
    remaining 0.1 s, the check is played for seat 1 at once, its late answer is ignored later."""
    case = CASES["e10b_thand"]
    engine = MatchEngine(get_game("holdem.limit.2p.reverse_blinds.game"), ("P1", "P2"), 2, SEED)
    c, tm = simulate(engine, TimeLimits(t_response_ms=300, t_hand_ms=500), {0: 0.2, 1: 0.0})
    reference_from = [t for t in case.trace() if t.startswith("FROM")]
    ours = [t for t in c.trace if t.startswith("FROM")]
    assert ours[:4] == reference_from[:4]
    assert reference_from[4].startswith("FROM 1") and ours[4].startswith("FROM 2")  # seat 1 was played for
    assert engine.counts[0]["timeout"] >= 1 and engine.counts[0]["ignored"] >= 1
    first = c.hands[0].record
    assert first.events[0].kind == "timeout" and first.events[0].at == "cc/cc/"
    assert len(c.hands) == 2 and not c.finished.aborted  # type: ignore[union-attr]


def test_e10c_match_budget_once_spent_plays_every_later_decision() -> None:
    """t_per_hand 50 over 4 hands = 0.2 s per seat. Reference: aborts after seat 1's answer in hand 1.
    Ours: that answer's deadline is what is left of the budget; after that seat 1 is played for at
    once (no more waiting) and the match completes."""
    case = CASES["e10c_tperhand"]
    engine = MatchEngine(get_game("kuhn"), ("P1", "P2"), 4, SEED)
    c, tm = simulate(engine, TimeLimits(t_per_hand_ms=50), {0: 0.101, 1: 0.0})
    assert c.log_body()[0] == case.log[0]
    assert tm.match_used[0] == pytest.approx(0.2)
    assert engine.counts[0]["timeout"] == 3  # hands 1, 2 and 3
    assert len(c.hands) == 4 and not c.finished.aborted  # type: ignore[union-attr]


def test_e11_closed_socket_waits_for_reconnect_then_plays_check_fold() -> None:
    """Reference: "could not get action from seat 1", aborted after 2 hands. Ours: the seat is waited
    for reconnect_ms on its turn, then given up on and played check/fold until the end."""
    case = CASES["e11_close"]
    engine = MatchEngine(get_game("kuhn"), ("P1", "P2"), 4, SEED)
    tm = TimedMatch(engine, TimeLimits(reconnect_ms=2000), 0.0)
    c = Collected()
    for seat in range(2):
        c.take(tm.connected(seat, 0.0))
        c.take(tm.receive(seat, "VERSION:2.0.0", 0.0))
    for seat, line in case.replies():
        c.take(tm.receive(seat, line, 0.1))
    c.take(tm.disconnected(0, 0.2))  # seat 1 closes its socket after its answer in hand 1
    assert engine.waiting_for == 0 and tm.next_deadline() == pytest.approx(2.2)
    c.take(tm.tick(2.2))
    assert engine.status(0) is SeatStatus.GONE
    while not engine.finished:
        while tm.needs_advance:
            c.take(tm.advance(2.3))
        if engine.waiting_for == 1:
            c.take(tm.receive(1, c.sent[1][-1] + ":r", 2.3))  # seat 2 raises, seat 1 is played f
    assert c.log_body()[:2] == case.log
    assert len(c.hands) == 4 and c.finished is not None and not c.finished.aborted
    assert engine.counts[0]["connection_lost"] == 1 and engine.counts[0]["disconnect"] == 3
    assert [h.state_line.split(":")[2] for h in c.hands[2:]] == ["crf", "rf"]  # check, fold; fold


def test_e12d_unparsable_version_rejects_only_that_client() -> None:
    """Reference: "invalid version string HELLO" ends the match before it starts. Ours: that client
    gets an error line and is disconnected; the seat is then like one that never connected (it may
    connect again; after start_timeout it is played check/fold) and the match is played."""
    engine = MatchEngine(get_game("kuhn"), ("P1", "P2"), 2, SEED)
    tm = TimedMatch(engine, TimeLimits(start_timeout_ms=1000), 0.0)
    tm.connected(0, 0.0)
    out = tm.receive(0, "HELLO", 0.0)
    assert any(isinstance(o, Reject) and o.seat == 0 and "invalid version string" in o.line for o in out)
    assert engine.status(0) is SeatStatus.AWAY and engine.counts[0]["rejected"] == 1
    tm.connected(1, 0.0)
    tm.receive(1, "VERSION:2.0.0", 0.0)
    assert not engine.started
    c = Collected()
    c.take(tm.tick(1.0))  # start timeout: seat 1 is given up on
    assert engine.started and engine.status(0) is SeatStatus.GONE
    while not engine.finished:
        while tm.needs_advance:
            c.take(tm.advance(1.0))
        if engine.waiting_for == 1:
            c.take(tm.receive(1, c.sent[1][-1] + ":c", 1.0))
    assert len(c.hands) == 2 and engine.counts[0]["disconnect"] == 2


def test_e12d_rejected_client_may_connect_again_with_a_good_version() -> None:
    case = CASES["e12c_v209"]
    engine = MatchEngine(get_game("kuhn"), ("P1", "P2"), 1, SEED)
    c = Collected()
    engine.connected(0)
    c.take(engine.receive(0, "HELLO"))
    connect_all(engine, c)
    for seat, line in case.replies():
        feed(engine, c, seat, line)
    assert c.log_body() == case.log


def test_e16_disconnected_seat_reconnects_and_resumes_instead_of_a_restart() -> None:
    """Reference: seat 1 drops in hand 4, the match aborts and is rerun with -T -a from its
    transaction file. Ours: no transaction file is needed: seat 1 reconnects within reconnect_ms,
    sends VERSION again, is sent the current state and the match goes on; same final log."""
    case = CASES["e16_tlog"]
    engine = MatchEngine(get_game("kuhn"), ("P1", "P2"), 8, SEED)
    tm = TimedMatch(engine, TimeLimits(reconnect_ms=2000), 0.0)
    c = Collected()
    for seat in range(2):
        c.take(tm.connected(seat, 0.0))
        c.take(tm.receive(seat, "VERSION:2.0.0", 0.0))
    while engine.hand < 4:  # hands 0-3, everybody checks
        acting = engine.waiting_for
        assert acting is not None
        c.take(tm.receive(acting, c.sent[acting][-1] + ":c", 0.1))
    assert engine.waiting_for == 0 and c.sent[0][-1] == "MATCHSTATE:0:4::Ks|"
    c.take(tm.disconnected(0, 0.2))
    c.take(tm.connected(0, 1.0))
    resumed = tm.receive(0, "VERSION:2.0.0", 1.0)
    c.take(resumed)
    assert c.sent[0][-1] == "MATCHSTATE:0:4::Ks|"  # the current state again
    for seat, line in case.replies():  # the rest as the reference's resumed run read it
        c.take(tm.receive(seat, line, 1.1))
    assert c.log_body() == case.log
    assert engine.counts[0]["connection_lost"] == 1
    assert [e.kind for e in c.hands[4].record.events] == ["connection_lost", "reconnected"]
    assert c.hands[4].json == c.hands[4].record.to_json() == json.dumps(c.hands[4].record.as_dict(), separators=(",", ":"))


def test_every_case_in_the_file_is_covered() -> None:
    covered = {name for name, _ in SAME} | {
        "e5_lf", "e7c_nocards", "e10a_tresp", "e10b_thand", "e10c_tperhand", "e11_close", "e12a_v1",
        "e12b_v21", "e12c_v209", "e12d_hello", "e13_always", "e14_long", "e15_fixed", "e16_tlog",
    }  # fmt: skip
    assert covered == set(CASES)

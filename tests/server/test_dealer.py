"""MatchEngine (sans-io) and LineSplitter: the rules of the wire, without sockets."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.games.catalog import CATALOG, get_game
from showdown.games.dealing import CardDealer
from showdown.games.state import Action, ActionKind, State
from showdown.protocol.events import COUNT_KINDS
from showdown.protocol.logfile import LoggedHand, format_state_line
from showdown.protocol.matchstate import format_matchstate, view_of
from showdown.server import betting_tree
from showdown.server.dealer import BAD_STATE, MAX_IGNORED_LINES, MatchEngine, SeatStatus
from showdown.server.framing import LineSplitter
from showdown.server.outputs import MatchFinished, Reject, SeatWarning, Send
from showdown.server.seat_book import MAX_EVENTS_PER_HAND
from tests.server.helpers import Collected, connect_all, drive, feed, load_transcript, replay_transcript


def random_action(state: State, rng: random.Random) -> Action:
    legal = list(state.legal_actions())
    bounds = state.raise_bounds()
    if state.game.is_nolimit and bounds is not None:
        legal.append(Action(ActionKind.RAISE, rng.randint(*bounds)))
    return rng.choice(legal)


def play_randomly(game_name: str, seed: int, hands: int, *, fixed: bool = False) -> tuple[MatchEngine, Collected]:
    """Every seat answers every turn with a random legal action; checks every line against view_of."""
    game = get_game(game_name)
    names = [f"p{i}" for i in range(game.num_players)]
    engine = MatchEngine(game, names, hands, seed, fixed_seats=fixed)
    c = Collected()
    connect_all(engine, c)
    rng = random.Random(seed)
    checked = 0
    while not engine.finished:
        seat = engine.waiting_for
        assert seat is not None
        state = engine.state
        assert state is not None
        position = engine.position_of(seat)
        assert c.sent[seat][-1] == format_matchstate(view_of(state, position, engine.hand))
        action = random_action(state, rng)
        hand = engine.hand
        before = len(c.hands)
        feed(engine, c, seat, f"{c.sent[seat][-1]}:{action}")
        if len(c.hands) > before:  # the hand ended: check the final views and the log line
            final = state.apply(action)
            for s in range(game.num_players):
                p = (s - hand) % game.num_players if not fixed else s
                final_line = format_matchstate(view_of(final, p, hand))
                assert final_line in c.sent[s]
            done = c.hands[-1]
            by_position = done.record.players
            assert done.state_line == format_state_line(LoggedHand.from_state(hand, final, by_position))
            assert done.record.betting == final.betting and done.record.values == final.payoffs()
            assert done.json == done.record.to_json() == json.dumps(done.record.as_dict(), separators=(",", ":"))
            checked += 1
    assert checked == hands and not c.warnings
    return engine, c


@pytest.mark.parametrize("game_name", [e.name for e in CATALOG])
def test_lines_and_log_agree_with_view_of_and_format_state_line(game_name: str) -> None:
    play_randomly(game_name, seed=11, hands=60)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), fixed=st.booleans())
def test_random_matches_in_every_catalog_game(seed: int, fixed: bool) -> None:
    name = CATALOG[seed % len(CATALOG)].name
    engine, c = play_randomly(name, seed, hands=6, fixed=fixed)
    assert c.finished is not None and c.finished.hands_played == 6
    assert sum(engine.totals) == pytest.approx(0)


def test_betting_tree_is_bounded_and_starting_afresh_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shared tree (limit games) is capped: a tiny cap makes the engine start it afresh every few actions."""
    _, whole = play_randomly("holdem-limit", seed=3, hands=40)
    monkeypatch.setattr(betting_tree, "MAX_TREE_NODES", 5)
    engine, capped = play_randomly("holdem-limit", seed=3, hands=40)
    assert [h.state_line for h in capped.hands] == [h.state_line for h in whole.hands]
    assert capped.sent == whole.sent
    assert engine._tree.size <= 5


@pytest.mark.parametrize("game", ["leduc", "holdem-nolimit"])
def test_dealing_ahead_changes_nothing(game: str) -> None:
    """``prepare`` deals the next hand early, a step per call; cards, lines and logs stay the same
    however many steps were done before the deal (none, some, all, and calls past the last)."""
    plain_engine, plain = play_randomly(game, seed=9, hands=30)
    engine = MatchEngine(get_game(game), ["p0", "p1"], 30, 9)
    c = Collected()
    connect_all(engine, c)
    rng = random.Random(9)
    steps = random.Random(1)
    while not engine.finished:
        for _ in range(steps.choice([0, 1, 2, 3, 5])):
            engine.prepare()
        seat = engine.waiting_for
        assert seat is not None
        feed(engine, c, seat, f"{c.sent[seat][-1]}:{random_action(engine.state, rng)}")
    assert [h.state_line for h in c.hands] == [h.state_line for h in plain.hands]
    assert c.sent == plain.sent


def test_repeated_replies_are_repaired_the_same_way_every_time() -> None:
    """Reply outcomes are memoised per betting node; warnings and counts still come every time."""
    engine, c = kuhn_engine(hands=4)
    for _ in range(4):  # fold with nothing to call: the reference calls instead, and warns each time
        seat = engine.waiting_for
        assert seat is not None
        feed(engine, c, seat, f"{c.sent[seat][-1]}:f")
        seat = engine.waiting_for
        assert seat is not None
        feed(engine, c, seat, f"{c.sent[seat][-1]}:c")
    assert engine.hands_played == 4
    assert sum(counts["invalid"] for counts in engine.counts) == 4
    assert all(h.record.betting == "cc" for h in c.hands)


def test_cards_match_the_reference_dealing() -> None:
    engine, c = play_randomly("leduc", seed=5, hands=20)
    dealer = CardDealer(get_game("leduc"), 5)
    for h in c.hands:
        hole, _ = dealer.deal()
        assert h.record.hole == hole


def test_transcript_replay_matches_every_byte() -> None:
    t = load_transcript("holdem.nolimit.2p")
    c = replay_transcript(t, MatchEngine(t.game, t.names, t.hands, t.seed, game_label=t.game_file))
    assert c.log_body() == t.log_lines[4:]


def test_seats_rotate_every_hand_unless_fixed() -> None:
    _, rotating = play_randomly("kuhn3p", seed=1, hands=3)
    assert [h.record.seats for h in rotating.hands] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    _, fixed = play_randomly("kuhn3p", seed=1, hands=3, fixed=True)
    assert [h.record.seats for h in fixed.hands] == [(0, 1, 2)] * 3


def kuhn_engine(hands: int = 2, **kw: object) -> tuple[MatchEngine, Collected]:
    engine = MatchEngine(get_game("kuhn"), ["a", "b"], hands, 3, **kw)  # type: ignore[arg-type]
    c = Collected()
    connect_all(engine, c)
    return engine, c


def test_match_starts_only_when_every_seat_said_version() -> None:
    engine = MatchEngine(get_game("kuhn"), ["a", "b"], 1, 3)
    assert engine.connected(0) == [] and engine.receive(0, "VERSION:2.0.0") == []
    assert not engine.started
    engine.connected(1)
    out = engine.receive(1, "VERSION:2.0.0")
    assert engine.started and [o.line for o in out if isinstance(o, Send)] == ["MATCHSTATE:0:0::Ks|", "MATCHSTATE:1:0::|Qs"]


def test_comment_lines_are_ignored_silently() -> None:
    engine, c = kuhn_engine()
    feed(engine, c, 0, "# thinking")
    feed(engine, c, 0, "; also a comment")
    assert c.warnings == [] and engine.counts[0]["ignored"] == 0 and engine.acting_seat == 0


def test_queue_is_bounded_and_overflow_is_counted() -> None:
    engine, c = kuhn_engine(max_queue=10)
    for i in range(25):
        c.take(engine.receive(1, f"MATCHSTATE:1:0::|Qs:c{i}"))  # seat 2 is not to act: queued
    assert engine.counts[1]["dropped"] == 15
    assert [w for w in c.warnings if w[0] == 1] == [(1, "more than 10 lines queued, dropping lines")]


def test_warnings_per_hand_are_capped_but_all_counted() -> None:
    engine, c = kuhn_engine(max_warnings=3)
    for _ in range(MAX_IGNORED_LINES - 1):
        feed(engine, c, 0, "junk")
    assert engine.counts[0]["ignored"] == MAX_IGNORED_LINES - 1
    assert len(c.warnings) == 4 and c.warnings[-1][1].startswith("more warnings")
    feed(engine, c, 0, "MATCHSTATE:0:0::Ks|:c")
    feed(engine, c, 1, "MATCHSTATE:1:0:c:|Qs:c")
    events = c.hands[0].record.events
    assert len(events) == 3 and all(e.kind == "ignored" and e.message == BAD_STATE for e in events)


def test_timeout_plays_check_when_possible_else_fold_or_call_by_policy() -> None:
    engine, c = kuhn_engine()
    drive(engine, c, engine.timeout(0))  # check possible: check
    feed(engine, c, 1, "MATCHSTATE:1:0:c:|Qs:r")
    drive(engine, c, engine.timeout(0))  # facing a bet: fold
    assert c.hands[0].record.betting == "crf"
    engine, c = kuhn_engine(on_timeout="call")
    feed(engine, c, 0, "MATCHSTATE:0:0::Ks|:r")
    drive(engine, c, engine.timeout(1))
    assert c.hands[0].record.betting == "rc" and engine.counts[1]["timeout"] == 1


def test_timeout_for_a_seat_not_to_act_does_nothing() -> None:
    engine, _ = kuhn_engine()
    assert engine.timeout(1) == [] and engine.counts[1]["timeout"] == 0


def test_gone_seats_are_played_one_hand_per_advance() -> None:
    engine, c = kuhn_engine(hands=5)
    c.take(engine.disconnected(0))
    c.take(engine.abandon(0))
    assert engine.status(0) is SeatStatus.GONE
    hands_before = len(c.hands)
    while not engine.finished:
        if engine.needs_advance:
            c.take(engine.advance())
            assert len(c.hands) - hands_before <= 1
            hands_before = len(c.hands)
        else:
            feed(engine, c, 1, c.sent[1][-1] + ":c")
    assert len(c.hands) == 5 and engine.counts[0]["disconnect"] > 0


def test_stop_after_current_hand_and_stop_now() -> None:
    engine, c = kuhn_engine(hands=10)
    c.take(engine.request_stop())
    assert not engine.finished
    feed(engine, c, 0, "MATCHSTATE:0:0::Ks|:c")
    feed(engine, c, 1, "MATCHSTATE:1:0:c:|Qs:c")
    assert c.finished is not None and c.finished.aborted and c.finished.hands_played == 1
    engine, c = kuhn_engine(hands=10)
    c.take(engine.stop_now())
    assert c.finished is not None and c.finished.hands_played == 0 and c.log_body() == ["SCORE:0|0:a|b"]


def test_zero_hands_finishes_at_once() -> None:
    engine, c = kuhn_engine(hands=0)
    assert c.finished == MatchFinished(engine.score(), 0, False, None)


def test_abandon_before_start_starts_with_the_others() -> None:
    engine = MatchEngine(get_game("kuhn"), ["a", "b"], 1, 3)
    engine.connected(1)
    engine.receive(1, "VERSION:2.0.0")
    engine.connected(0)  # connected but silent
    out = engine.start()
    assert isinstance(out[0], Reject) and out[0].seat == 0
    assert engine.started and engine.status(0) is SeatStatus.GONE
    assert engine.counts[0]["disconnect"] == 1 and engine.waiting_for == 1  # its check was played


def test_reconnect_resends_the_current_state_and_reads_the_new_connection() -> None:
    engine, c = kuhn_engine()
    c.take(engine.disconnected(0))
    # said when it happens (a bot that half-closes or resets its socket was named only by the time limit
    # or the summary), once: a seat away is not lost again
    assert c.warnings == [(0, "its connection closed; until it connects again, the dealer plays check/fold for it")]
    c.take(engine.disconnected(0))
    assert len(c.warnings) == 1
    assert engine.waiting_for == 0  # its turn is waited for
    c.take(engine.connected(0))
    c.take(engine.receive(0, "VERSION:2.0.0"))
    assert c.sent[0][-1] == "MATCHSTATE:0:0::Ks|"
    feed(engine, c, 0, "MATCHSTATE:0:0::Ks|:c")
    assert engine.acting_seat == 1


def test_counts_have_every_kind() -> None:
    engine, _ = kuhn_engine()
    assert all(list(counts) == list(COUNT_KINDS) for counts in engine.counts)


# ------------------------------------------------------------------ LineSplitter


def test_splitter_handles_partial_lines_and_both_line_ends() -> None:
    s = LineSplitter()
    assert s.feed(b"MATCHSTATE:0:0::Ks|") == []
    assert s.feed(b":c\r\nVERSION:2.0.0\nab") == ["MATCHSTATE:0:0::Ks|:c", "VERSION:2.0.0"]
    assert s.pending == 2
    assert s.feed(b"c\r\n\n") == ["abc", ""]


def test_splitter_cuts_like_fgets_with_a_4096_byte_buffer() -> None:
    assert LineSplitter().feed(b"x" * 4094 + b"\n") == ["x" * 4094]  # fits with its newline
    assert LineSplitter().feed(b"x" * 4095 + b"\n") == ["x" * 4095, ""]  # newline left for next read
    s = LineSplitter()
    assert s.feed(b"y" * 5000) == ["y" * 4095]
    assert s.feed(b"\r\n") == ["y" * 905]


_LINE_CHUNKS = st.tuples(st.binary(max_size=40), st.sampled_from([b"\n", b"\r\n", b"\r\r\n"])).map(
    lambda parts: parts[0].replace(b"\n", b"") + parts[1]
)  # one whole line per chunk, as agents mostly send them (the splitter's quick path)


@given(st.lists(st.one_of(st.binary(max_size=50), _LINE_CHUNKS), max_size=20), st.integers(2, 30))
def test_splitter_is_independent_of_how_bytes_arrive(chunks: list[bytes], limit: int) -> None:
    data = b"".join(chunks)
    whole = LineSplitter(limit).feed(data)
    pieces = LineSplitter(limit)
    got = [line for chunk in chunks for line in pieces.feed(chunk)]
    assert got == whole


def test_a_seat_sending_only_lines_that_answer_nothing_has_its_turn_played_after_a_bound() -> None:
    engine, c = kuhn_engine()
    for _ in range(MAX_IGNORED_LINES):
        feed(engine, c, 0, "MATCHSTATE:0:9::Ks|:c")  # a state that was never sent (a later hand's)
    assert engine.counts[0]["ignored"] == MAX_IGNORED_LINES and engine.counts[0]["invalid"] == 1
    feed(engine, c, 1, "MATCHSTATE:1:0:c:|Qs:c")  # the garbage counted as a call (check): seat 2 acts
    assert c.hands[0].record.betting == "cc"


def test_a_hand_record_keeps_a_bounded_number_of_events() -> None:
    engine, c = kuhn_engine()
    for _ in range(50):  # a disconnected seat trying bad VERSION lines over and over
        drive(engine, c, engine.receive(1, "VERSION:bad"))
        drive(engine, c, engine.connected(1))
    feed(engine, c, 1, "VERSION:2.0.0")
    events = c.hands[0].record.events if c.hands else ()
    assert len(events) <= MAX_EVENTS_PER_HAND + 1


def test_the_hand_the_dealer_chose_for_a_seat_is_in_its_record_even_past_the_event_bound() -> None:
    """Events that fill the hand's record first (a seat trying bad VERSION lines) do not hide the
    action the dealer chose for the other seat: readers count dealer-played hands from the record."""
    engine, c = kuhn_engine()
    drive(engine, c, engine.disconnected(1))
    for _ in range(50):
        drive(engine, c, engine.connected(1))
        drive(engine, c, engine.receive(1, "VERSION:bad"))
    assert len(engine._book.hand_events()) > MAX_EVENTS_PER_HAND
    for _ in range(MAX_IGNORED_LINES):  # seat 1's turn: junk, so the dealer chooses its action
        feed(engine, c, 0, "junk")
    assert engine.counts[0]["invalid"] == 1
    drive(engine, c, engine.connected(1))
    feed(engine, c, 1, "VERSION:2.0.0")
    feed(engine, c, 1, f"{c.sent[1][-1]}:c")
    events = c.hands[0].record.events
    assert len(events) <= MAX_EVENTS_PER_HAND + 2
    assert any(e.kind == "invalid" and e.seat == 0 for e in events)


def test_debug_lines_blank_lines_and_answers_to_earlier_states_never_play_for_the_seat() -> None:
    """Ten debug lines before a bot's answer (or ten blank ones), or a bot answering every state it is
    sent, as the reference allows, had the dealer play call for it after eight lines; its real answer
    then counted against its next decision, hand after hand. Only lines that are no state line at all
    count, ``MAX_IGNORED_LINES`` of them in a row."""
    engine, c = kuhn_engine()
    for line in ["debug: thinking"] * 10 + [""] * 10:
        feed(engine, c, 0, line)
    assert engine.counts[0].get("invalid", 0) == 0 and engine.acting_seat == 0
    feed(engine, c, 0, "MATCHSTATE:0:0::Ks|:r")
    assert engine.counts[0]["ignored"] == 10  # said, the blank lines not even that
    for _ in range(MAX_IGNORED_LINES):
        feed(engine, c, 1, "junk")
        feed(engine, c, 1, "MATCHSTATE:1:0::|Qs:c")  # an answer to the state before: not counted, ends the row
    assert engine.counts[1].get("invalid", 0) == 0
    for _ in range(MAX_IGNORED_LINES):
        feed(engine, c, 1, "junk")  # the MAX_IGNORED_LINES-th line in a row that is no state line: played call
    assert engine.counts[1]["invalid"] == 1
    assert c.hands[0].record.betting == "rc"


@pytest.mark.parametrize("after", [" :r", "\x00:r", "  r", ";c", "x:c", "\t", "\r:r"])
def test_a_reply_with_something_else_where_the_colon_goes_is_a_bad_action_played_at_once(after: str) -> None:
    # as the reference: its state reads, then no ':' follows: "bad action format in response, changed
    # to call"; it was taken for a line that is no state and the dealer waited out the time limit
    engine, c = kuhn_engine()
    out = engine.receive(0, "MATCHSTATE:0:0::Ks|" + after)
    drive(engine, c, out)
    assert engine.counts[0]["bad_action"] == 1 and engine.counts[0]["ignored"] == 0 and engine.acting_seat == 1
    warning = next(o for o in out if isinstance(o, SeatWarning))
    assert warning.detail.endswith(f"the state it was sent, then {after[0]!r} came where ':' and the action go"
                                          + (" (the state's line end, echoed: strip '\\r\\n' from the state first)"
                                             if after[0] == "\r" else ""))
    feed(engine, c, 1, "MATCHSTATE:1:0:c:|Qs:c")
    assert c.hands[0].record.betting == "cc"


def test_a_reply_that_adds_cards_to_the_state_it_was_sent_still_answers_it() -> None:
    engine, c = kuhn_engine()
    feed(engine, c, 0, "MATCHSTATE:0:0::Ks|Qs:r")  # it names the card it guesses the other seat holds
    assert engine.counts[0]["bad_action"] == 0 and engine.acting_seat == 1


def test_debug_lines_sent_with_answers_to_earlier_states_do_not_count_against_the_next_decision() -> None:
    """A bot that writes 20 debug lines before every answer, and answers every state (as the reference
    allows), was played call by the dealer: the lines it sent about the state before, queued while it
    was not to act, counted with those before its real answer, past ``MAX_IGNORED_LINES``."""
    engine, c = kuhn_engine()
    debug = ["debug: thinking"] * 20
    for line in [*debug, f"{c.sent[1][-1]}:c"]:  # seat 2 is not to act: queued
        feed(engine, c, 1, line)
    feed(engine, c, 0, f"{c.sent[0][-1]}:c")
    for line in [*debug, f"{c.sent[1][-1]}:r"]:
        feed(engine, c, 1, line)
    assert engine.counts[1].get("invalid", 0) == 0
    assert engine.counts[1]["ignored"] == 41
    feed(engine, c, 0, f"{c.sent[0][-1]}:c")
    assert c.hands[0].record.betting == "crc"
    for _ in range(MAX_IGNORED_LINES):  # lines sent while it is to act still count: a bound per decision
        feed(engine, c, 1, "junk")
    assert engine.counts[1]["invalid"] == 1

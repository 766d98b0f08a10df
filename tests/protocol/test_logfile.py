from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.errors import ProtocolError
from showdown.games.catalog import get_game
from showdown.games.dealing import CardDealer
from showdown.games.state import State
from showdown.protocol.events import EventKind, HandEvent
from showdown.protocol.logfile import (
    HandRecord,
    LoggedHand,
    LogHeader,
    MatchSummary,
    Score,
    format_score_line,
    format_state_line,
    format_value,
    parse_header_line,
    parse_log,
    parse_score_line,
    parse_state_line,
)
from tests.conftest import REFERENCE_LOGS


@pytest.mark.parametrize(("value", "text"), [(-100, "-100"), (0, "0"), (-0.0, "0"), (2.5, "2.5"), (542.5, "542.5"), (1 / 3, "0.333333")])
def test_values_are_formatted_like_the_reference(value: float, text: str) -> None:
    assert format_value(value) == text


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.floats(allow_nan=False), st.integers(-(10**20), 10**20), st.integers(-10**6, 10**6).map(float)))
def test_whole_values_take_a_shortcut_to_the_same_text(value: float) -> None:
    printed = f"{value:.6f}".rstrip("0").rstrip(".")
    assert format_value(value) == ("0" if printed in ("-0", "") else printed)


@pytest.mark.parametrize("path", REFERENCE_LOGS, ids=lambda p: p.name)
def test_reference_log_lines_round_trip_byte_for_byte(path) -> None:
    for line in path.read_text().splitlines():
        if line.startswith("STATE:"):
            assert format_state_line(parse_state_line(line)) == line
        elif line.startswith("SCORE:"):
            assert format_score_line(parse_score_line(line)) == line
        elif line.startswith("# name/game"):
            header = parse_header_line(line)
            assert header is not None and header.lines()[0] == line


def test_header_and_timeouts_are_read() -> None:
    log = parse_log(REFERENCE_LOGS[0].read_text().splitlines())
    assert log.headers[0].t_per_hand == 7000 and log.headers[0].hands == 1000
    assert LogHeader("m", "kuhn.limit.2p.game", 8, 7).lines() == [
        "# name/game/hands/seed m kuhn.limit.2p.game 8 7",
        "#--t_response 600000",
        "#--t_hand 600000",
        "#--t_per_hand 7000",
    ]


def test_resumed_log_has_two_headers_and_a_score(data_dir) -> None:
    log = parse_log((data_dir / "kuhn.limit.2p.resumed_with_tlog.log").read_text().splitlines())
    assert len(log.headers) == 2 and len(log.hands) == 8
    assert log.score == Score((6.0, -6.0), ("P1", "P2"))


@pytest.mark.parametrize(
    "line",
    ["STATE:x:cc:Ks|Qs:1|-1:A|B", "STATE:0:cc:Ks|Qs:1|-1", "STATE:0:cq:Ks|Qs:1|-1:A|B", "STATE:0:cc:Ks|Qs:1|x:A|B", "STATE:0:cc:Ks:1|-1:A|B"],
)
def test_malformed_state_lines_raise(line: str) -> None:
    with pytest.raises(ProtocolError, match="bad"):
        parse_state_line(line)


def test_parse_log_names_the_line_of_an_error() -> None:
    with pytest.raises(ProtocolError, match=r"x.log:2: "):
        parse_log(["# comment", "garbage"], source="x.log")


@given(st.integers(0, 2**32 - 1), st.integers(0, 10**6), st.sampled_from(["kuhn", "leduc", "holdem-limit", "holdem-nolimit-3p"]), st.randoms(use_true_random=False))
def test_state_lines_and_records_round_trip(seed: int, hand: int, name: str, rnd) -> None:
    game = get_game(name)
    hole, board = CardDealer(game, seed).deal()
    s = State.initial(game, hole, board)
    while not s.finished:
        s = s.apply(rnd.choice(s.legal_actions()))
    names = tuple(f"p{i}" for i in range(game.num_players))
    logged = LoggedHand.from_state(hand, s, names)
    assert parse_state_line(format_state_line(logged)) == logged
    record = HandRecord(hand, name, names, tuple(range(game.num_players)), s.hole, s.board_by_round(), s.betting, s.payoffs(), (HandEvent(EventKind.TIMEOUT, 0, "p0", "timeout: played f", played="f", at=""),))
    assert HandRecord.from_json(record.to_json()) == record
    assert record.to_logged_hand() == logged
    plain = dataclasses.replace(record, events=())  # the dealer's usual record: the quick path
    assert plain.to_json() == json.dumps(plain.as_dict(), separators=(",", ":"))
    assert HandRecord.from_json(plain.to_json()) == plain


@given(
    st.text(max_size=12),
    st.lists(st.text(max_size=8), min_size=2, max_size=3),
    st.lists(st.floats(allow_nan=True, allow_infinity=True) | st.integers(-10**6, 10**6), min_size=2, max_size=3),
)
def test_record_json_is_what_json_writes_for_any_names_and_values(game: str, players: list[str], values: list[float]) -> None:
    record = HandRecord(7, game, tuple(players), (0, 1), ((0, 1), (2,)), ((), (5,)), "cr/c", tuple(values))
    assert record.to_json() == json.dumps(record.as_dict(), separators=(",", ":"))


def test_bad_hand_record_is_a_protocol_error() -> None:
    with pytest.raises(ProtocolError, match="bad hand record"):
        HandRecord.from_json('{"hand": 1}')


def test_a_seat_named_summary_is_not_the_summary_record(tmp_path) -> None:
    from showdown.matches.config import MatchConfig
    from showdown.matches.parallel import Job, JobState
    from showdown.protocol.logfile import HandRecord, MatchSummary, count_summary_lines, is_summary_line

    record = HandRecord(0, "kuhn", ("summary", "call"), (0, 1), ((44,), (40,)), ((),), "cc", (1.0, -1.0))
    hand = record.to_json()
    assert '"summary"' in hand and not is_summary_line(hand) and not is_summary_line(hand.encode())
    end = MatchSummary(match="m", names=("summary", "call"), totals=(1.0, -1.0)).to_json()
    assert is_summary_line(end) and json.loads(end)["summary"] is True
    assert is_summary_line('{"summary": true, "names": ["a", "b"]}') and not is_summary_line('{"hand": 0, "summary": 1}')
    text = (hand + "\n") * 3 + end + "\n"
    assert count_summary_lines(text.encode()) == 1
    (tmp_path / "m.jsonl").write_text(text)
    config = MatchConfig(game="kuhn", agents=(), out=tmp_path, name="m")
    state = JobState(Job(config, tmp_path / "m.result.json"))
    state.count_hands()
    assert state.hands == 3


def test_the_summary_record_round_trips_and_reads_older_logs() -> None:
    from showdown.protocol.logfile import MatchSummary, Score

    summary = MatchSummary(
        match="m", game="kuhn", seed=3, hands=10, hands_played=9, aborted=True, reason="stopped", names=("a", "b"),
        totals=(2.0, -2.0), replacements={"a": {"timeout": 1}}, replaced_hands={"a": 1, "b": 0},
    )
    text = summary.to_json()
    assert text.startswith('{"summary":true,') and MatchSummary.from_json(text) == summary
    assert summary.score == Score((2.0, -2.0), ("a", "b"))
    older = MatchSummary.from_json('{"summary": true, "names": ["a", "b"], "totals": [1, -1]}')
    assert older.score == Score((1.0, -1.0), ("a", "b")) and older.match == ""
    for bad in ('{"summary": true, "names": ["a"], "totals": [1, 2]}', '{"hand": 0}', "[1]"):
        with pytest.raises(ProtocolError, match="bad summary record"):
            MatchSummary.from_json(bad)


def test_one_reader_streams_both_logs() -> None:
    from showdown.protocol.logfile import LoggedHand, LogHeader, MatchSummary, Score, read_records

    log = [
        "# name/game/hands/seed m kuhn.limit.2p.game 2 7\n", "#--t_response 500\n", "#--t_hand 9000\n",
        "STATE:0:cc:Ks|Qs:1|-1:a|b\n", "\n", "# a comment\n", "STATE:1:rf:Js|Ks:1|-1:b|a\n", "SCORE:2|-2:a|b\n",
    ]
    got = list(read_records(iter(log), source="m.log"))
    assert [n for n, _ in got] == [1, 4, 7, 8]
    header = got[0][1]
    assert isinstance(header, LogHeader) and (header.t_response, header.t_hand, header.t_per_hand) == (500, 9000, 7000)
    assert [type(r) for _, r in got[1:]] == [LoggedHand, LoggedHand, Score]
    with pytest.raises(ProtocolError, match="m.log:2: unexpected line"):
        list(read_records(iter(["STATE:0:cc:Ks|Qs:1|-1:a|b\n", "MATCHSTATE:0:0::K|\n"]), source="m.log"))
    record = HandRecord(0, "kuhn", ("a", "b"), (0, 1), ((44,), (40,)), ((),), "cc", (1.0, -1.0))
    jsonl = [record.to_json() + "\n", "\n", MatchSummary(names=("a", "b"), totals=(1.0, -1.0)).to_json() + "\n"]
    got = list(read_records(iter(jsonl), jsonl=True))
    assert [n for n, _ in got] == [1, 3] and got[0][1] == record and isinstance(got[1][1], MatchSummary)
    with pytest.raises(ProtocolError, match="x.jsonl:1: bad hand record"):
        list(read_records(iter(['{"hand": 1}']), source="x.jsonl", jsonl=True))


@pytest.mark.parametrize("reader", [HandRecord.from_json, MatchSummary.from_json])
@pytest.mark.parametrize("line", ["[" * 100_000 + "]" * 100_000, '{"hand": 0, "x": ' + "[" * 100_000 + "]" * 100_000 + "}"])
def test_a_jsonl_line_nested_thousands_deep_is_a_bad_record_not_a_recursion_error(reader: Any, line: str) -> None:
    """json.loads raised RecursionError, which analyze and export let through as a traceback."""
    with pytest.raises(ProtocolError, match=r"bad (hand|summary) record .*maximum recursion depth"):
        reader(line)


def test_a_byte_order_mark_before_the_first_line_is_passed_over(tmp_path) -> None:
    """A log saved by an editor that writes a byte order mark (Windows' Notepad) was refused: 'unexpected
    line '\\ufeff# name/game/...'' from analyze and verify-log; the mark is not part of the first line."""
    from showdown.evaluation.verify import verify_log

    source = REFERENCE_LOGS[0]
    text = source.read_text()
    marked = tmp_path / "marked.log"
    marked.write_bytes(b"\xef\xbb\xbf" + source.read_bytes())
    assert parse_log(marked.read_text(encoding="utf-8").splitlines(True)) == parse_log(text.splitlines(True))
    assert verify_log(marked).hands == verify_log(source).hands


def test_a_header_whose_game_path_holds_spaces_is_read_whole() -> None:
    # the dealer wrote '# name/game/hands/seed dsp sp ace/k.game 10 0' and verify-log said there was no header
    from showdown.protocol.logfile import LogHeader, parse_header_line

    header = LogHeader("dsp", "sp ace/k 12 34.game", 10, 0)
    assert parse_header_line(header.lines()[0]) == header
    assert parse_header_line("# name/game/hands/seed m kuhn 10 0  \r\n") == LogHeader("m", "kuhn", 10, 0)
    assert parse_header_line("# name/game/hands/seed m kuhn 10") is None


GOOD_RECORD = ('{"hand":4,"game":"leduc","players":["a","b"],"seats":[0,1],"hole":["Ks","Qs"],"board":["","Ah"],'
               '"betting":"cc/cc","values":[1.5,-1.5],"events":[]}')


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ('"values":[1.5,-1.5]', '"values":[1]', "'values' has 1 entry for 2 players"),
        ('"values":[1.5,-1.5]', '"values":[1,-1,0]', "'values' has 3 entries for 2 players"),
        ('"values":[1.5,-1.5]', '"values":[5,-1]', "do not sum to zero"),
        ('"hole":["Ks","Qs"]', '"hole":["Ks"]', "'hole' has 1 entry for 2 players"),
        ('"hole":["Ks","Qs"]', '"hole":["Ks","Qs","As"]', "'hole' has 3 entries for 2 players"),
        ('"hole":["Ks","Qs"]', '"hole":["Ks","Ks"]', "a card is dealt twice"),
        ('"hole":["Ks","Qs"]', '"hole":["Ah","Qs"]', "a card is dealt twice"),  # also on the board
        ('"hole":["Ks","Qs"]', '"hole":["KsQh","Qs"]', "different numbers of cards"),
        ('"players":["a","b"]', '"players":[1,2]', "'players' is a list of strings"),
        ('"betting":"cc/cc"', '"betting":null', "'betting' and 'game' are strings"),
        ('"hand":4,', "", "no 'hand' field"),
    ],
)
def test_a_hand_record_of_the_wrong_shape_is_one_error_in_the_readers_terms(old: str, new: str, says: str) -> None:
    # a record with too few values or hole cards was read, then failed deep inside an analysis (a traceback)
    from showdown.protocol.logfile import HandRecord

    assert HandRecord.from_json(GOOD_RECORD).values == (1.5, -1.5)
    assert old in GOOD_RECORD
    with pytest.raises(ProtocolError, match=re.escape(says)):
        HandRecord.from_json(GOOD_RECORD.replace(old, new))


@pytest.mark.parametrize(("line", "says"), [("null", "not null"), ("[1, 2, 3]", "not an array"), ("{}", "no 'hand', 'game'")])
def test_a_line_that_is_no_hand_record_says_what_it_is(line: str, says: str) -> None:
    from showdown.protocol.logfile import HandRecord

    with pytest.raises(ProtocolError, match=re.escape(says)):
        HandRecord.from_json(line)

from __future__ import annotations

import ast
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.errors import ProtocolError
from showdown.games.cards import parse_cards
from showdown.games.catalog import get_game
from showdown.games.dealing import CardDealer
from showdown.games.state import CALL, FOLD, RAISE, Action, ActionKind, State
from showdown.protocol.matchstate import (
    format_cards_field,
    format_matchstate,
    parse_cards_field,
    parse_matchstate,
    parse_reply,
    parse_version,
    quoted,
    read_action,
    version_compatible,
    view_of,
)
from tests.conftest import DATA

TRANSCRIPTS = ["kuhn.limit.2p", "leduc.limit.2p", "holdem.limit.2p", "holdem.nolimit.2p"]
GAME_OF = {
    "kuhn.limit.2p": "kuhn",
    "leduc.limit.2p": "leduc",
    "holdem.limit.2p": "holdem-limit",
    "holdem.nolimit.2p": "holdem-nolimit",
}


def part_b_lines(name: str) -> list[tuple[str, str]]:
    """(direction, line) of every byte-exact line in the transcript's part B."""
    out = []
    for line in (DATA / f"{name}.txt").read_text().splitlines():
        m = re.match(r"(D->P|P->D) (b'.*')$", line)
        if m and m.group(2) != "b'<connection closed>'":
            out.append((m.group(1), ast.literal_eval(m.group(2)).decode()))
    return out


@pytest.mark.parametrize("name", TRANSCRIPTS)
def test_every_dealer_line_parses_and_reformats_byte_for_byte(name: str) -> None:
    game = get_game(GAME_OF[name])
    lines = [text for direction, text in part_b_lines(name) if direction == "D->P"]
    assert len(lines) > 20
    for text in lines:
        assert text.endswith("\r\n")
        ms = parse_matchstate(text, game)
        assert format_matchstate(ms) + "\r\n" == text


@pytest.mark.parametrize("name", TRANSCRIPTS)
def test_every_client_reply_parses(name: str) -> None:
    game = get_game(GAME_OF[name])
    for direction, text in part_b_lines(name):
        if direction == "P->D" and text.startswith("MATCHSTATE"):
            reply = parse_reply(text, game)
            assert reply.action_text is not None
            assert format_matchstate(reply.state) + ":" + reply.action_text == text.rstrip("\r\n")


def test_views_hide_cards_as_the_reference_does() -> None:
    game = get_game("kuhn")
    hole, board = CardDealer(game, 7).deal()
    s = State.initial(game, hole, board)
    assert format_matchstate(view_of(s, 0, 0)) == "MATCHSTATE:0:0::Qs|"
    assert format_matchstate(view_of(s, 1, 0)) == "MATCHSTATE:1:0::|As"
    folded = s.apply(CALL).apply(RAISE).apply(FOLD)
    assert format_matchstate(view_of(folded, 1, 0)) == "MATCHSTATE:1:0:crf:|As"  # no showdown: stay hidden
    shown = s.apply(CALL).apply(RAISE).apply(CALL)
    assert format_matchstate(view_of(shown, 0, 0)) == "MATCHSTATE:0:0:crc:Qs|As"


def test_all_in_view_shows_empty_rounds_and_full_board() -> None:
    game = get_game("holdem-nolimit")
    hole, board = CardDealer(game, 3).deal()
    s = State.initial(game, hole, board).apply(Action(ActionKind.RAISE, 20000)).apply(CALL)
    text = format_matchstate(view_of(s, 0, 2))
    assert text.startswith("MATCHSTATE:0:2:r20000c///:") and text.count("/") == 6
    assert parse_matchstate(text, game) == view_of(s, 0, 2)


@pytest.mark.parametrize(
    "line",
    ["hello", "MATCHSTATE:0:0", "MATCHSTATE:x:0::Ks|", "MATCHSTATE:0:\u0663::Ks|", "MATCHSTATE:\uff10:0::Ks|", "MATCHSTATE:0:0:q:Ks|", "MATCHSTATE:0:0::Zz|", "MATCHSTATE:0:0::Ks|/As/Kh/Qh/Jh/Th"],
)
def test_malformed_states_raise_protocol_error(line: str) -> None:
    with pytest.raises(ProtocolError, match="bad state"):
        parse_matchstate(line, get_game("kuhn"))


def test_reply_without_action_has_no_action_text() -> None:
    assert parse_reply("MATCHSTATE:0:0::Ks|").action_text is None
    assert parse_reply("MATCHSTATE:0:0::Ks|:").action_text == ""


@pytest.mark.parametrize(
    ("text", "expected"),
    [("b", RAISE), ("B", RAISE), ("R", RAISE), ("k", CALL), ("K", CALL), ("C", CALL), ("F", FOLD),
     ("c100", CALL), ("r50", RAISE), ("x", None), ("", None)],
)  # fmt: skip
def test_limit_action_aliases(text: str, expected: Action | None) -> None:
    # edge_cases.txt e2, e4, e8c, e17: aliases accepted, unknown letters invalid, sizes ignored in limit.
    assert read_action(text, get_game("kuhn")) == expected


@pytest.mark.parametrize(
    ("text", "size"), [("r1", 1), ("r999999", 999999), ("r 500", 500), ("r500.7", 500), ("r-5", -5), ("r+20", 20),
                       ("r0020", 20), ("r\t\v300", 300), ("r1e3", 1), ("r" + "9" * 30, 10**30 - 1)]
)
def test_nolimit_sizes_are_read_like_scanf(text: str, size: int) -> None:
    # edge_cases.txt e9: how the reference reads no-limit raise sizes (a size past any stack is kept as
    # sent, for the warning to show it: the repair takes it down to the stack)
    assert read_action(text, get_game("holdem-nolimit")) == Action(ActionKind.RAISE, size)


@pytest.mark.parametrize("text", ["r", "rx", "r\uff10\uff12\uff10", "r\u0663\u0660\u0660", "r\u00a0300", "r\u00b2"])
def test_nolimit_raise_without_an_ascii_size_is_bad_format(text: str) -> None:
    # sscanf's %d reads ASCII digits after C white space: other scripts' digits and a no-break space are no size
    with pytest.raises(ProtocolError, match="needs its total"):
        read_action(text, get_game("holdem-nolimit"))


def test_version_line() -> None:
    assert parse_version("VERSION:2.0.0\r\n") == (2, 0, 0)
    for line in ("VERSION:\u0662.0.0", "VERSION:2.\uff10.0", "VERSION:2.0.0" + "0" * 5000, "version:2.0.0"):
        with pytest.raises(ProtocolError, match="invalid version string"):  # ASCII digits only, as sscanf's %u
            parse_version(line)
    assert version_compatible((2, 0, 9)) and not version_compatible((1, 0, 0)) and not version_compatible((2, 1, 0))
    # what the reference's sscanf("VERSION:%u.%u.%u") reads: they were refused, so a bot that plays
    # under the reference dealer could not connect to ours
    for line in ("VERSION:2.0.0junk", "VERSION: 2.0.0", "VERSION:+2.0.0", "VERSION:2.\t0.+0 extra", "VERSION:2.0.0/linux"):
        assert parse_version(line) == (2, 0, 0), line
    for line in ("VERSION :2.0.0", "VERSION:2 .0.0", "VERSION:2.0", "VERSION:-2.0.0", "VERSION:2.0.x"):
        with pytest.raises(ProtocolError, match="invalid version string"):
            parse_version(line)
    with pytest.raises(ProtocolError, match="invalid version string 'HELLO'"):
        parse_version("HELLO")


@pytest.mark.parametrize(("first", "says"), [
    ("GET / HTTP/1.1", "that is an HTTP request"),
    ("\x16\x03\x01\x00\xc4\x01", "that is a TLS handshake"),
    ("\xef\xbb\xbfVERSION:2.0.0", "it starts with a UTF-8 byte order mark"),
])
def test_a_first_line_from_another_protocol_is_named_in_its_refusal(first: str, says: str) -> None:
    # a browser, a TLS client or a BOM-writing editor's bot was told only 'invalid version string' and a mojibake quote
    with pytest.raises(ProtocolError, match=f"invalid version string .*: {says}.*; a client's first line must be VERSION:2.0.0"):
        parse_version(first)
    assert says in quoted(first + ":c") and quoted("HELLO") == "'HELLO'"


@given(data=st.data())
@settings(max_examples=150, deadline=None)
def test_views_round_trip_through_text(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(["kuhn", "kuhn3p", "leduc", "holdem-limit", "holdem-nolimit", "holdem-nolimit-3p"]))
    game = get_game(name)
    hole, board = CardDealer(game, data.draw(st.integers(0, 2**32 - 1))).deal()
    s = State.initial(game, hole, board)
    hand = data.draw(st.integers(0, 10**6))
    while True:
        for p in range(game.num_players):
            view = view_of(s, p, hand)
            assert parse_matchstate(format_matchstate(view), game) == view
        if s.finished:
            break
        action = data.draw(st.sampled_from(s.legal_actions()))
        s = s.apply(action)


def test_a_first_round_board_is_written_as_docs_protocol_says() -> None:
    """docs/protocol.md section 3: a board group in the first round is '/'-prefixed, where the
    reference writes 'JhJs|AsQs' and its own reader takes the board for the hidden opponent's cards."""
    hole, board = (parse_cards("JhJs"), ()), (parse_cards("AsQs"), parse_cards("2c"))
    assert format_cards_field(hole, board) == "JhJs|/AsQs/2c"
    assert parse_cards_field("JhJs|/AsQs/2c", 2) == (hole, board)
    assert "`JhJs|/AsQs`" in (DATA.parents[1] / "docs" / "protocol.md").read_text()

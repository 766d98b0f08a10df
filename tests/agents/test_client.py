"""The client: turn detection, exact replies, hooks, and whole matches over real sockets."""

from __future__ import annotations

import ast
import asyncio
import threading
from pathlib import Path

import pytest

from showdown.agents import CALL, Agent, ClientSession, View, make_agent, play, play_async
from showdown.agents.baseline import RandomAgent
from showdown.agents.client import resolve_game, run_bot
from showdown.errors import ConfigError, IllegalActionError, ProtocolError
from showdown.games.catalog import get_game
from showdown.games.state import FOLD, Action, parse_action
from showdown.protocol.matchstate import read_action
from tests.agents.fake_dealer import FakeDealer, one_shot_dealer, play_by
from tests.conftest import DATA


def seat_stream(transcript: Path, seat: int) -> list[tuple[str, str]]:
    """Part B of a reference transcript: (direction, line) for one seat, line ends removed."""
    out = []
    inside = False
    for line in transcript.read_text().splitlines():
        if line.startswith("## Part B: seat"):
            inside = line.startswith(f"## Part B: seat{seat} ")
            continue
        if line.startswith("## "):
            inside = False
        if inside and line[:4] in ("P->D", "D->P") and "connection closed" not in line:
            out.append((line[:4], ast.literal_eval(line[5:]).decode().rstrip("\r\n")))
    return out


class Scripted(Agent):
    """Plays the given actions in order and records every hook call."""

    name = "scripted"

    def __init__(self, actions: list[Action]) -> None:
        super().__init__()
        self.actions = list(actions)
        self.views: list[View] = []
        self.starts: list[int] = []
        self.ends: list[View] = []

    def act(self, view: View) -> Action:
        self.views.append(view)
        return self.actions.pop(0)

    def hand_start(self, view: View) -> None:
        self.starts.append(view.hand)

    def hand_end(self, view: View) -> None:
        self.ends.append(view)


TRANSCRIPTS = [
    ("kuhn.limit.2p.txt", "kuhn"),
    ("leduc.limit.2p.txt", "leduc"),
    ("holdem.limit.2p.txt", "holdem-limit"),
    ("holdem.nolimit.2p.txt", "holdem-nolimit"),
]


@pytest.mark.parametrize("seat", [1, 2])
@pytest.mark.parametrize("transcript,game_name", TRANSCRIPTS, ids=[t[1] for t in TRANSCRIPTS])
def test_replies_exactly_where_and_what_the_reference_player_sent(transcript: str, game_name: str, seat: int) -> None:
    # The reference example player's own stream: our session must reply at the same lines with
    # the same bytes when its agent picks the same actions.
    stream = seat_stream(DATA / transcript, seat)
    assert stream[0] == ("P->D", "VERSION:2.0.0")
    sent = [line for d, line in stream[1:] if d == "P->D"]
    agent = Scripted([parse_action(line.rsplit(":", 1)[1]) for line in sent])
    game = get_game(game_name)
    session = ClientSession(agent, game, strict=True, track=True)
    replies = []
    for d, line in stream[1:]:
        if d == "D->P":
            reply = session.handle(line)
            if reply is not None:
                replies.append(reply)
    assert replies == sent
    hands = len({line.split(":")[2] for d, line in stream if d == "D->P"})
    assert session.hands == hands
    assert agent.starts == list(range(hands))
    assert [v.hand for v in agent.ends] == list(range(hands))
    assert all(v.finished and v.value() is not None for v in agent.ends)


def test_comments_and_blank_lines_are_skipped() -> None:
    session = ClientSession(make_agent("call", get_game("kuhn")), get_game("kuhn"))
    assert session.handle("# hello") is None
    assert session.handle(";ERROR something") is None
    assert session.handle("") is None
    assert session.handle("MATCHSTATE:0:0::Ks|") == "MATCHSTATE:0:0::Ks|:c"


def test_only_our_turn_gets_a_reply_and_final_states_none() -> None:
    game = get_game("kuhn")
    session = ClientSession(make_agent("call", game), game)
    assert session.handle("MATCHSTATE:1:0::|Ks") is None  # position 0 acts first
    assert session.handle("MATCHSTATE:1:0:r:|Ks") == "MATCHSTATE:1:0:r:|Ks:c"
    assert session.handle("MATCHSTATE:1:0:rc:As|Ks") is None  # the hand is over
    assert session.hands == 1


def test_hand_end_sees_the_opponents_cards_at_a_showdown_and_the_result() -> None:
    game = get_game("kuhn")
    agent = Scripted([CALL])
    session = ClientSession(agent, game)
    session.handle("MATCHSTATE:1:0::|Ks")
    session.handle("MATCHSTATE:1:0:r:|Ks")
    session.handle("MATCHSTATE:1:0:rc:As|Ks")
    (end,) = agent.ends
    assert end.shown_cards() == {0: (get_card("As"),)}
    assert end.payoffs() == (2.0, -2.0) and end.value() == -2.0
    assert end.infoset_key == "Ks:/rc"


def get_card(text: str) -> int:
    from showdown.games.cards import parse_card

    return parse_card(text)


def test_three_players_with_a_fold_skip_the_folded_player() -> None:
    game = get_game("kuhn3p")
    agent = Scripted([CALL, CALL])
    session = ClientSession(agent, game)
    assert session.handle("MATCHSTATE:2:0::||Ks") is None
    assert session.handle("MATCHSTATE:2:0:r:||Ks") is None
    assert session.handle("MATCHSTATE:2:0:rf:||Ks") == "MATCHSTATE:2:0:rf:||Ks:c"
    assert session.hands == 0
    assert session.handle("MATCHSTATE:2:0:rfc:As||Ks") is None
    assert session.hands == 1


def test_new_rounds_bring_the_board_into_the_view() -> None:
    game = get_game("leduc")
    agent = Scripted([CALL, CALL])
    session = ClientSession(agent, game)
    session.handle("MATCHSTATE:0:3::Qh|")
    session.handle("MATCHSTATE:0:3:c:Qh|")
    assert session.handle("MATCHSTATE:0:3:cc/:Qh|/Ks") == "MATCHSTATE:0:3:cc/:Qh|/Ks:c"
    first, second = agent.views
    assert first.board == () and first.infoset_key == "Qh:/"
    assert second.board == (get_card("Ks"),) and second.infoset_key == "Qh:Ks/cc/"
    assert second.state.visible_board() == (get_card("Ks"),)


def test_no_limit_sizes_are_followed_and_sent() -> None:
    game = get_game("holdem-nolimit")

    class MinRaise(Agent):
        def act(self, view: View) -> Action:
            return view.raise_to()

    session = ClientSession(MinRaise(), game, strict=True)
    # position 1 is the small blind and acts first with reverse blinds
    assert session.handle("MATCHSTATE:1:0::|AsKd") == "MATCHSTATE:1:0::|AsKd:r200"
    assert session.handle("MATCHSTATE:1:0:r200r600:|AsKd") == "MATCHSTATE:1:0:r200r600:|AsKd:r1000"


def test_a_stream_that_breaks_the_rules_is_a_protocol_error() -> None:
    game = get_game("kuhn")
    session = ClientSession(make_agent("call", game), game)
    with pytest.raises(ProtocolError):
        session.handle("HELLO")
    with pytest.raises(ProtocolError):
        session.handle("MATCHSTATE:0:0:ff:Ks|")  # a second fold is impossible
    with pytest.raises(ProtocolError):
        session.handle("MATCHSTATE:0:1::Ks|Qs|As")  # three players in a two-player game


def test_drivers_skip_a_broken_line_with_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    game = get_game("kuhn")
    session = ClientSession(make_agent("call", game), game)
    assert session.feed("HELLO") is None and session.warnings == 1
    assert "showdown client: warning: unexpected line from the dealer: 'HELLO'" in capsys.readouterr().err
    assert session.feed("MATCHSTATE:0:0::Ks|") == "MATCHSTATE:0:0::Ks|:c"
    with pytest.raises(ProtocolError):
        ClientSession(make_agent("call", game), game, strict=True).feed("HELLO")


def test_fields_after_the_cards_are_read_past_with_one_warning(capsys: pytest.CaptureFixture[str]) -> None:
    # another dealer's extra fields: 'unexpected line from the dealer' on every line, and no reply ever (the seat timed out)
    game = get_game("kuhn")
    session = ClientSession(make_agent("call", game), game)
    assert session.feed("MATCHSTATE:0:0::Ks|:t=12") == "MATCHSTATE:0:0::Ks|:t=12:c"
    assert session.feed("MATCHSTATE:0:0:cr:Ks|:t=13") == "MATCHSTATE:0:0:cr:Ks|:t=13:c"
    assert session.feed("MATCHSTATE:1:1:c:|Qs:t=14:x") == "MATCHSTATE:1:1:c:|Qs:t=14:x:c"
    err = capsys.readouterr().err
    assert session.warnings == 1 and err.count("\n") == 1
    assert "carry fields after the cards ('t=12' in 'MATCHSTATE:0:0::Ks|:t=12'), which ACPC 2.0.0 does not have" in err


@pytest.mark.parametrize("game_name, line", [("kuhn", "MATCHSTATE:0:0::|"), ("leduc", "MATCHSTATE:1:3:r:|"),
                                             ("holdem-limit", "MATCHSTATE:1:0::|")])
def test_a_state_on_our_turn_without_our_cards_is_a_warning_not_an_agent_crash(
    game_name: str, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # the rules agent read its cards from an empty tuple: an IndexError traceback ended showdown agent
    game = get_game(game_name)
    session = ClientSession(make_agent("rules", game), game)
    assert session.feed(line) is None and session.warnings == 1
    assert f"showdown client: warning: no hole cards of this seat's in {line!r}" in capsys.readouterr().err


@pytest.mark.parametrize(("answer", "sent"), [(None, "None"), (3, "3"), ("r200", "'r200'"), (("c",), "('c',)"), (False, "?False")])
def test_an_act_that_returns_no_action_is_said_and_sent_as_no_action(answer: object, sent: str, capsys: pytest.CaptureFixture[str]) -> None:
    # answered with a call, the dealer saw a legal call: a bot returning None all match went unseen
    game = get_game("kuhn")
    session = ClientSession(Scripted([answer]), game)  # type: ignore[list-item]
    assert session.feed("MATCHSTATE:0:0::Ks|") == f"MATCHSTATE:0:0::Ks|:{sent}" and session.warnings == 1
    assert read_action(sent, game) is None  # the dealer plays a call and counts an invalid action
    err = capsys.readouterr().err
    assert "act() returned" in err and type(answer).__name__ in err and "not an Action" in err and "counts as an invalid action" in err
    with pytest.raises(IllegalActionError, match="not an Action"):
        ClientSession(Scripted([answer]), game, strict=True).feed("MATCHSTATE:0:0::Ks|")  # type: ignore[list-item]


def test_strict_mode_catches_an_illegal_agent_action() -> None:
    game = get_game("kuhn")
    session = ClientSession(Scripted([FOLD]), game, strict=True)
    with pytest.raises(IllegalActionError, match="fold when a check is possible"):
        session.handle("MATCHSTATE:0:0::Ks|")


def test_resolve_game_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHOWDOWN_GAME", "leduc")
    assert resolve_game(None) is get_game("leduc")
    monkeypatch.delenv("SHOWDOWN_GAME")
    with pytest.raises(ConfigError, match="--game"):
        resolve_game(None)


# ----------------------------------------------------------------------------- over sockets

GAMES = ["kuhn", "kuhn3p", "leduc", "holdem-limit", "holdem-nolimit", "holdem-limit-3p", "holdem-nolimit-3p"]


@pytest.mark.parametrize("game_name", GAMES)
def test_every_baseline_plays_every_game_and_agrees_with_the_dealer(game_name: str) -> None:
    game = get_game(game_name)
    names = ["random", "rules", "bluff", "call"][: game.num_players]
    if game.num_players == 2:
        names = ["random", "rules"]
    dealer = FakeDealer(game, 60, seed=3).start()
    results: list = [None] * game.num_players

    def run(seat: int) -> None:
        agent = make_agent(names[seat], game, {"seed": seat})
        results[seat] = play(agent, "127.0.0.1", dealer.ports[seat], game, strict=True, track=True)

    threads = [threading.Thread(target=run, args=(s,)) for s in range(game.num_players)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    totals = dealer.join()
    assert dealer.versions == ["VERSION:2.0.0"] * game.num_players
    assert [r.hands for r in results] == [60] * game.num_players
    assert [r.total for r in results] == pytest.approx(totals)
    for seat in range(game.num_players):  # every reply was accepted as the current decision
        assert all(line.startswith("MATCHSTATE:") for line in dealer.received[seat])


def test_bluff_and_call_in_no_limit_over_the_asyncio_client() -> None:
    game = get_game("holdem-nolimit")
    dealer = FakeDealer(game, 40, seed=5, extra=lambda seat: ["# a comment before the hand"]).start()

    async def both() -> list:
        return list(
            await asyncio.gather(
                play_async(make_agent("bluff", game, {"size": "pot"}), "127.0.0.1", dealer.ports[0], game, strict=True, track=True),
                play_async(make_agent("call", game), "127.0.0.1", dealer.ports[1], game, strict=True, track=True),
            )
        )

    results = asyncio.run(both())
    totals = dealer.join()
    assert [r.hands for r in results] == [40, 40]
    assert [r.total for r in results] == pytest.approx(totals)


def test_latest_keeps_the_last_state_and_what_follows_it() -> None:
    game = get_game("kuhn")
    session = ClientSession(RandomAgent(game, seed=1), game)
    batch = ["MATCHSTATE:0:0:cc:Ks|Qh", "MATCHSTATE:1:1::|Jd", "MATCHSTATE:1:1:r:|Jd", "# a comment"]
    assert session.latest(batch) == batch[2:]
    assert session.hands == 1  # hand 0 ended in a dropped line
    assert session.feed(batch[2]) is not None and session.feed(batch[3]) is None
    hooked = ClientSession(Scripted([]), game)
    assert hooked.latest(batch) == batch  # hooks see every line


@pytest.mark.parametrize("game_name", ["kuhn", "holdem-nolimit-3p"])
def test_lines_read_together_are_answered_once_and_every_hand_is_counted(game_name: str) -> None:
    """Our dealer sends a seat its lines in batches; agents without hooks answer only the latest
    state (``ClientSession.latest``) and still count every hand; a hooked agent reads them all."""
    from showdown.server.tcp import DealerOptions, run_match

    game = get_game(game_name)
    hands = 150
    hooked = {0}
    results: list = [None] * game.num_players
    threads: list[threading.Thread] = []

    class Counting(RandomAgent):
        ended = 0

        def hand_end(self, view: View) -> None:
            self.ended += 1

    def run(seat: int, port: int) -> None:
        agent = (Counting if seat in hooked else RandomAgent)(game, seed=seat)
        results[seat] = (play(agent, "127.0.0.1", port, game), agent)

    def on_ports(ports: list[int]) -> None:
        threads.extend(threading.Thread(target=run, args=(s, p)) for s, p in enumerate(ports))
        for t in threads:
            t.start()

    names = [f"p{s}" for s in range(game.num_players)]
    result = run_match(game, "batched", hands, 4, names, DealerOptions(), on_ports=on_ports)
    for t in threads:
        t.join(30)
    assert result.hands_played == hands
    assert all(not any(counts.values()) for counts in result.replacements.values())  # every reply was the one awaited
    assert [r.hands for r, _ in results] == [hands] * game.num_players
    assert results[0][1].ended == hands


def test_connection_refused_is_one_clear_error() -> None:
    import socket

    from showdown.errors import ShowdownError

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with pytest.raises(ShowdownError, match="cannot connect to the dealer"):
        play(make_agent("call", get_game("kuhn")), "127.0.0.1", port, "kuhn")


@pytest.mark.parametrize(("argv", "says"), [
    (["--game", "kuhn", "127.0.0.1", "99999"], "argument port: expected a port from 0 to 65535, got 99999"),
    (["--game", "kuhn", "127.0.0.1", "abc"], "argument port: expected a whole number, got 'abc'"),
    (["--game", "kuhn", "127.0.0.1"], "the following arguments are required: port"),
])
def test_a_bots_command_line_errors_are_one_line(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        run_bot(RandomAgent, argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err, err


def test_a_raise_size_that_is_not_whole_chips_is_rounded_and_said_once(capsys: pytest.CaptureFixture[str]) -> None:
    # Action(RAISE, 250.5) went out as 'r250.5' and the dealer kept 'r250' without a word
    game = get_game("holdem-nolimit")
    raise_ = Action(parse_action("r").kind, 250.5)  # type: ignore[arg-type]
    session = ClientSession(Scripted([raise_, raise_]), game)
    assert session.feed("MATCHSTATE:1:0::|AsKd") == "MATCHSTATE:1:0::|AsKd:r250"
    assert session.feed("MATCHSTATE:1:1::|AsKd") == "MATCHSTATE:1:1::|AsKd:r250"
    err = capsys.readouterr().err
    assert err.count("warning") == 1 and "'250.5', not a whole number of chips: sent r250" in err
    with pytest.raises(IllegalActionError, match="not a whole number"):
        ClientSession(Scripted([raise_]), game, strict=True).feed("MATCHSTATE:1:0::|AsKd")


@pytest.mark.parametrize("size", [float("nan"), float("inf"), "300"])
def test_a_raise_size_that_is_no_number_is_sent_as_no_action(size: object, capsys: pytest.CaptureFixture[str]) -> None:
    """It was sent as a call: a legal action to the dealer, so a bot raising nan all match went unseen
    (exit 0); now, as an act() returning None, a reply the dealer plays as a call and counts as invalid."""
    game = get_game("holdem-nolimit")
    session = ClientSession(Scripted([Action(parse_action("r").kind, size)]), game)  # type: ignore[arg-type]
    reply = session.feed("MATCHSTATE:1:0::|AsKd")
    assert reply == f"MATCHSTATE:1:0::|AsKd:{ascii(f'r{size}')}" and session.warnings == 1
    assert read_action(reply.rsplit(":", 1)[1], game) is None  # the dealer's reader: no action (a call, counted)
    assert "not a whole number of chips: sent as no action" in capsys.readouterr().err


def test_a_whole_float_or_numpy_raise_size_is_sent_as_an_integer(capsys: pytest.CaptureFixture[str]) -> None:
    import numpy as np

    game = get_game("holdem-nolimit")
    kind = parse_action("r").kind
    session = ClientSession(Scripted([Action(kind, 300.0), Action(kind, np.int64(300))]), game)  # type: ignore[arg-type]
    assert session.feed("MATCHSTATE:1:0::|AsKd") == "MATCHSTATE:1:0::|AsKd:r300"
    assert session.feed("MATCHSTATE:1:1::|AsKd") == "MATCHSTATE:1:1::|AsKd:r300"
    assert session.warnings == 0 and not capsys.readouterr().err


@pytest.mark.parametrize("driver", ["play", "play_async"])
def test_a_connection_closed_in_the_middle_of_a_line_is_said_as_such(driver: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The dealer's stream ends on 'MATCHSTATE:0:0::As' (no newline): one warning that it was cut short,
    not 'has 1 players' cards but holdem-nolimit has 2 players'; a whole last state is still read."""
    for tail, hands in ((b"MATCHSTATE:1:0::|Ks\r\nMATCHSTATE:0:0::As", 0), (b"MATCHSTATE:0:0:cc:Ks|Qd", 1)):
        port, thread = one_shot_dealer(tail)
        result = play_by(driver, make_agent("call", get_game("kuhn")), port)
        thread.join()
        err = capsys.readouterr().err
        if hands:
            assert err == "" and result.hands == 1
        else:
            assert err == "showdown client: warning: the dealer closed the connection in the middle of a line: " \
                          "'MATCHSTATE:0:0::As' is not read\n" \
                          f"showdown client: warning: the dealer at 127.0.0.1:{port} closed the connection in the middle " \
                          "of hand 0 (0 hands finished): the match was cut short\n"


@pytest.mark.parametrize("driver", ["play", "play_async"])
@pytest.mark.parametrize(("stream", "says"), [
    (b"", "closed the connection without sending a state (it refused this seat, or it is no ACPC dealer)"),
    (b"# ERROR: wrong seat token\r\n", "closed the connection without sending a state; it said '# ERROR: wrong seat token'"),
    (b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n", "it said 'HTTP/1.1 400 Bad Request'"),
    (b"MATCHSTATE:0:0::As", "it said 'MATCHSTATE:0:0::As', cut short"),
])
def test_a_stream_without_any_state_is_an_error_that_quotes_the_dealer(driver: str, stream: bytes, says: str) -> None:
    """A dealer refusing the seat ('# ERROR: wrong seat token'), a port that is no dealer: the agent exited 0
    as if it had played the match; now one ``ShowdownError`` says why."""
    from showdown.errors import ShowdownError

    port, thread = one_shot_dealer(stream)
    with pytest.raises(ShowdownError) as caught:
        play_by(driver, make_agent("call", get_game("kuhn")), port)
    thread.join()
    assert says in str(caught.value) and str(caught.value).count("game right?") <= 1


def test_a_reason_the_dealer_gives_in_the_match_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    port, thread = one_shot_dealer(b"MATCHSTATE:1:0::|Ks\r\n# ERROR: your seat was taken over by a new connection\r\n")
    result = play(make_agent("call", get_game("kuhn")), "127.0.0.1", port, "kuhn")
    thread.join()
    assert result.hands == 0
    assert capsys.readouterr().err == \
        "showdown client: warning: the dealer says '# ERROR: your seat was taken over by a new connection'\n" \
        f"showdown client: warning: the dealer at 127.0.0.1:{port} closed the connection in the middle of hand 0 " \
        "(0 hands finished): the match was cut short\n"


@pytest.mark.parametrize("driver", ["play", "play_async"])
def test_a_match_cut_short_in_a_hand_is_said_at_the_end(driver: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The reference dealer aborting a match ('could not get action from seat 2') closes every seat in the middle
    of a hand: the agent ended with status 0 and not a word; a hand's final state before the end says nothing."""
    for stream, says in ((b"MATCHSTATE:0:0:cc:Ks|Qs\r\nMATCHSTATE:1:1::|Ks\r\n", "in the middle of hand 1 (1 hand finished)"),
                         (b"MATCHSTATE:0:0:cc:Ks|Qs\r\n", "")):
        port, thread = one_shot_dealer(stream)
        result = play_by(driver, make_agent("call", get_game("kuhn")), port)
        thread.join()
        err = capsys.readouterr().err
        assert result.hands == 1
        assert err == (f"showdown client: warning: the dealer at 127.0.0.1:{port} closed the connection {says}: the match "
                       "was cut short\n" if says else "")


def test_state_lines_of_another_game_are_summed_up_at_the_end_with_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    """A Kuhn dealer's states to a Leduc agent: the first reads, the next break Leduc's rounds; the warnings
    ('the rounds in ... do not match the betting rules') never named the game, and the agent exited as if fine."""
    game = get_game("leduc")
    session = ClientSession(make_agent("call", game), game)
    for line in ("MATCHSTATE:0:0::Ks|", "MATCHSTATE:0:0:cc:Ks|As", "MATCHSTATE:1:1::|Qs", "MATCHSTATE:1:1:rc:As|Qs"):
        session.feed(line)
    session.check_end("h:1")
    last = capsys.readouterr().err.splitlines()[-1]
    assert last == "showdown client: warning: 2 state lines from the dealer broke leduc's rules and were skipped: is the game right?"


@pytest.mark.parametrize("driver", ["play", "play_async"])
def test_a_byte_over_127_in_a_state_line_is_echoed_as_it_came(driver: str) -> None:
    """Read as ASCII with replacement, a dealer's byte over 127 in the fields after the cards came back as
    U+FFFD, which the reply could not encode: a UnicodeEncodeError traceback ended the agent."""
    got: list[bytes] = []
    port, thread = one_shot_dealer(b"MATCHSTATE:0:0::Ks|:t\xe9\r\n", got=got)
    play_by(driver, make_agent("call", get_game("kuhn")), port)
    thread.join()
    assert got == [b"MATCHSTATE:0:0::Ks|:t\xe9:c\r\n"]

"""The dealer's fast path, held to what its docstrings promise (``server.dealer``, ``server.tcp``).

Each test counts the work done on the hot path (parses, repairs, states built, socket writes) with
the real engine and, for the writes, real sockets and clients: no timing, so they hold on a slow,
loaded machine.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from showdown.games.catalog import get_game
from showdown.games.state import State
from showdown.protocol.matchstate import parse_matchstate
from showdown.server import dealer, replies
from showdown.server.connection import SeatConnection
from showdown.server.dealer import MatchEngine
from showdown.server.options import DealerOptions
from showdown.server.tcp import MatchServer
from showdown.server.timing import TimedMatch
from tests.server.clients import Client, Policy, call_policy, raise_policy
from tests.server.helpers import Collected, connect_all, drive, feed

LIMIT = 20.0  # seconds: no test should come near this


def play_calls(engine: MatchEngine, c: Collected, rng: random.Random) -> None:
    """Every seat echoes its last line with a call or a (limit) raise, as a well-behaved bot does."""
    while not engine.finished:
        seat = engine.waiting_for
        assert seat is not None
        feed(engine, c, seat, f"{c.sent[seat][-1]}:{rng.choice('cr')}")


def test_a_well_formed_reply_is_never_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The echo of the line last sent plus ``:action`` is read by a prefix check, not the parser."""

    def no_parse(*_: object) -> None:
        raise AssertionError("a well-formed reply went through the parser")

    monkeypatch.setattr(dealer, "parse_reply", no_parse)
    engine = MatchEngine(get_game("leduc"), ["a", "b"], 200, 5)
    c = Collected()
    connect_all(engine, c)
    play_calls(engine, c, random.Random(5))
    assert c.finished is not None and c.finished.hands_played == 200  # raises past the cap are repaired, unparsed too


def test_a_limit_reply_is_repaired_once_per_betting_point_and_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """Limit betting nodes remember what each reply text became: the repairs run once per node and text."""
    calls: list[tuple[str, str]] = []
    repair = replies.ReplyRepairs.repair

    def counted(self: replies.ReplyRepairs, betting: object, text: str) -> replies.Outcome:
        calls.append((betting.betting, text))  # type: ignore[attr-defined]
        return repair(self, betting, text)  # type: ignore[arg-type]

    monkeypatch.setattr(replies.ReplyRepairs, "repair", counted)
    engine = MatchEngine(get_game("leduc"), ["a", "b"], 300, 7)
    c = Collected()
    connect_all(engine, c)
    play_calls(engine, c, random.Random(7))
    assert engine.decision_count > 1000
    assert len(calls) == len(set(calls))


def test_limit_hands_walk_one_shared_tree_instead_of_building_states(monkeypatch: pytest.MonkeyPatch) -> None:
    """An action in a limit game costs a dict lookup once its node is known: a ``State`` is built only
    for a betting sequence met for the first time in the match."""
    built = 0
    apply_legal = State.apply_legal

    def counted(self: State, action: object) -> State:
        nonlocal built
        built += 1
        return apply_legal(self, action)  # type: ignore[arg-type]

    monkeypatch.setattr(State, "apply_legal", counted)
    engine = MatchEngine(get_game("kuhn"), ["a", "b"], 500, 3)
    c = Collected()
    connect_all(engine, c)
    play_calls(engine, c, random.Random(3))
    assert engine.decision_count > 1000
    assert built == engine._tree.size - 1 <= 8  # Kuhn has 9 betting sequences, the root included


def test_a_limit_reply_seen_before_at_its_node_costs_no_call_and_a_quiet_hand_no_bookkeeping(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Per action, a remembered reply is read from its betting node inline; per hand, a hand with
    nothing to record calls neither ``SeatBook.new_hand`` nor ``hand_events``, and a small game's
    remembered result is read inline (``HandPayoffs.payoff`` runs once per deal and betting)."""
    from showdown.server.payoffs import HandPayoffs
    from showdown.server.seat_book import SeatBook

    calls = {"outcome": 0, "book": 0, "payoff": 0}

    def counting(name: str, method: Callable[..., object]) -> Callable[..., object]:
        def counted(*args: object, **kwargs: object) -> object:
            calls[name] += 1
            return method(*args, **kwargs)

        return counted

    monkeypatch.setattr(replies.ReplyRepairs, "outcome", counting("outcome", replies.ReplyRepairs.outcome))
    monkeypatch.setattr(SeatBook, "new_hand", counting("book", SeatBook.new_hand))
    monkeypatch.setattr(SeatBook, "hand_events", counting("book", SeatBook.hand_events))
    monkeypatch.setattr(HandPayoffs, "payoff", counting("payoff", HandPayoffs.payoff))
    engine = MatchEngine(get_game("kuhn"), ["a", "b"], 2000, 3)
    c = Collected()
    connect_all(engine, c)
    rng = random.Random(3)
    while not engine.finished:  # legal replies only (Kuhn: one bet a hand), so that nothing is recorded
        seat = engine.waiting_for
        assert seat is not None
        line = c.sent[seat][-1]
        feed(engine, c, seat, f"{line}:{'c' if 'r' in line.split(':')[3] else rng.choice('cr')}")
    assert engine.hands_played == 2000 and engine.decision_count > 4000
    assert calls["outcome"] <= 2 * 8  # once per betting node and reply text (c or r)
    assert calls["book"] == 0
    assert calls["payoff"] <= 6 * 5  # once per deal (6 in Kuhn) and betting that ends a hand (5)
    assert engine.totals[0] == -engine.totals[1] != 0


@pytest.mark.asyncio
@pytest.mark.parametrize("policy", [call_policy, raise_policy])
async def test_one_write_per_seat_and_input_and_every_hand_logged_before_its_end_is_sent(
    policy: Policy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What one input (a reply, a timer) makes the dealer send a seat goes out in one
    ``transport.write``, lines for seats not to act are coalesced, and a hand's STATE line is in the
    ``.log`` before any seat is sent how that hand ended."""
    game = get_game("kuhn")
    hands = 40
    server = MatchServer(game, "m", hands, 9, ["a", "b"], DealerOptions(log_dir=tmp_path, spin_us=0))
    writes: list[tuple[int, bytes]] = []
    in_this_call: list[int] = []  # seats written to by the current call of the server
    write = SeatConnection.write

    def watched_write(conn: SeatConnection, data: bytes) -> None:
        assert conn.seat not in in_this_call, f"seat {conn.seat + 1} written to twice for one input"
        in_this_call.append(conn.seat)
        writes.append((conn.seat, data))
        log = (tmp_path / "m.log").read_text()
        for line in data.decode().splitlines():
            if parse_matchstate(line, game).to_state(game).finished:
                hand = line.split(":")[2]
                assert f"STATE:{hand}:" in log, f"seat {conn.seat + 1} was sent the end of hand {hand} before its log line"
        write(conn, data)

    def one_call(method: Callable[..., None]) -> Callable[..., None]:
        def bracketed(*args: object, **kwargs: object) -> None:
            outer = list(in_this_call)
            in_this_call.clear()
            try:
                method(*args, **kwargs)
            finally:
                in_this_call[:] = outer
        return bracketed

    monkeypatch.setattr(SeatConnection, "write", watched_write)
    monkeypatch.setattr(server, "_handle", one_call(server._handle))
    monkeypatch.setattr(server, "_write_observers", one_call(server._write_observers))
    ports = await server.start()
    clients = [Client(game, port, policy) for port in ports]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    result = await asyncio.wait_for(server.run(), LIMIT)
    await asyncio.wait_for(asyncio.gather(*tasks), LIMIT)
    assert result.hands_played == hands
    lines_sent = sum(len(data.splitlines()) for _, data in writes)
    assert lines_sent == sum(sum(1 for x in c.received if x.startswith("MATCHSTATE:")) for c in clients)
    assert len(writes) < lines_sent  # coalesced: some writes carry several lines


@pytest.mark.parametrize("game_name", ["kuhn", "holdem-limit"])
def test_an_action_costs_at_most_twenty_python_calls_in_the_engine_and_its_clocks(game_name: str) -> None:
    """Per reply (the engine's ``receive``, the clocks' ``follow``, the next deal's ``prepare``, as the
    server runs them), Python function calls counted with ``sys.setprofile`` (C calls not counted):
    the hands' ends, deals and showdowns included, an action averages at most 20 (main b509447: 25.4
    in Kuhn, 22.5 in limit hold'em; now 17.3 and 16.6)."""
    engine = MatchEngine(get_game(game_name), ["a", "b"], 400, 3)
    timed = TimedMatch(engine, DealerOptions().limits(), 0.0)
    c = Collected()
    connect_all(engine, c)
    rng = random.Random(3)
    calls = actions = 0

    def count(_frame: object, event: str, _arg: object) -> None:
        nonlocal calls
        calls += event == "call"

    while not engine.finished:
        seat = engine.waiting_for
        assert seat is not None
        line = c.sent[seat][-1]
        reply = f"{line}:{'c' if 'r' in line.split(':')[3] else rng.choice('cr')}"
        sys.setprofile(count)
        try:
            out = engine.receive(seat, reply)
            timed.follow(1.0)
            engine.prepare()
        finally:
            sys.setprofile(None)
        actions += 1
        drive(engine, c, out)
    assert engine.hands_played == 400 and actions > 800
    assert calls / actions <= 20

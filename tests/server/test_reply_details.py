"""What a seat's warning says about a reply whose action has no action letter (a space, a tab, nothing)."""

from __future__ import annotations

import pytest

from showdown.games.catalog import get_game
from showdown.server.dealer import INVALID_ACTION, MatchEngine
from showdown.server.outputs import SeatWarning
from showdown.server.replies import unknown_action
from tests.server.helpers import Collected, connect_all


@pytest.mark.parametrize("game", ["kuhn", "holdem-nolimit"])
@pytest.mark.parametrize(("action", "says"), [
    ("\tr  ", "it sent '\\tr  ' after the state's ':'"),
    (" c", "it sent ' c' after the state's ':'"),
    ("", "it sent nothing after the state's ':'"),
])
def test_an_action_with_no_letter_first_says_what_was_sent(game: str, action: str, says: str) -> None:
    # was 'invalid action, changed to call' alone: the reference's words, which do not say that the tab is why
    engine = MatchEngine(get_game(game), ("a", "b"), 2, 3)
    c = Collected()
    connect_all(engine, c)
    seat = engine.acting_seat
    out = engine.receive(seat, f"{c.sent[seat][-1]}:{action}")
    warnings = [o for o in out if isinstance(o, SeatWarning)]
    assert [(w.seat, w.text) for w in warnings] == [(seat, INVALID_ACTION)]
    assert warnings[0].detail == f"{says}; an action is the letter f, c or r (rSIZE in no-limit) right after it, with no space before"


def test_an_action_letter_first_adds_nothing() -> None:
    assert unknown_action("f") == unknown_action("R") == unknown_action("c100") == unknown_action("r 300") == ""

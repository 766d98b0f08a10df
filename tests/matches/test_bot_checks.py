"""The checks of ``showdown check-bot`` without processes: the judge of a bot's lines and which
checks each game gets."""

from __future__ import annotations

from showdown.games.catalog import get_game
from showdown.games.dealing import CardDealer
from showdown.games.state import CALL, Action, ActionKind, State
from showdown.matches.bot_checks import checks_for, describe_legal, judge_reply
from showdown.protocol.matchstate import format_matchstate, view_of


def _at(game_name: str, betting: str) -> State:
    game = get_game(game_name)
    state = State.initial(game, *CardDealer(game, 0).deal())
    return state.apply_betting(betting) if betting else state


def test_judge_accepts_the_echo_and_a_legal_action() -> None:
    state = _at("holdem-nolimit", "")
    line = format_matchstate(view_of(state, state.current_player, 4))
    judged = judge_reply(line + ":r300", state, state.current_player, 4, set())
    assert judged.action == Action(ActionKind.RAISE, 300) and not judged.problems


def test_judge_names_a_raise_below_the_minimum_and_what_was_legal() -> None:
    state = _at("holdem-nolimit", "r300")
    me = state.current_player
    line = format_matchstate(view_of(state, me, 0))
    judged = judge_reply(line + ":r400", state, me, 0, set())
    assert judged.problems[0].kind == "illegal"
    assert judged.problems[0].legal == "f, c, r500..r20000" == describe_legal(state)
    assert judged.action == Action(ActionKind.RAISE, 500)  # the dealer's repair: clamped into range


def test_judge_tells_an_answer_out_of_turn_from_a_wrong_echo() -> None:
    state = _at("holdem-nolimit", "")
    me = state.current_player
    old = format_matchstate(view_of(_at("holdem-nolimit", "c"), me, 0))
    line = format_matchstate(view_of(state, me, 1))
    assert judge_reply(old + ":c", state, me, 1, {old}).problems[0].kind == "out-of-turn"
    assert judge_reply(old + ":c", state, me, 1, {old}).action is None  # keep waiting for the real reply
    assert judge_reply(line.replace(f"MATCHSTATE:{me}:1:", f"MATCHSTATE:{me}:7:") + ":c", state, me, 1, {old}).problems[0].kind == "wrong-echo"
    assert judge_reply("# a comment", state, me, 1, set()).action is None
    assert judge_reply(line + ":x", state, me, 1, set()).action == CALL


def test_limit_and_no_limit_games_get_their_own_checks() -> None:
    limit = {c.name for c in checks_for(get_game("holdem-limit"))}
    nolimit = {c.name for c in checks_for(get_game("holdem-nolimit"))}
    assert "raise-cap" in limit and "raise-cap" not in nolimit
    assert {"min-raise", "min-raise-plus-1", "short-all-in", "all-in-river"} <= nolimit - limit
    assert {"fold-preflop", "fold-flop", "fold-turn", "fold-river", "split-packets", "states-in-one-packet"} <= limit & nolimit


def test_a_checks_description_names_a_round_in_words() -> None:
    """check-bot said 'a hand ends in a fold on the round1' in games without hold'em's street names."""
    said = {c.name: c.what for c in checks_for(get_game("leduc"))}
    assert said["fold-round1"] == "a hand ends in a fold in round 1"
    assert {c.name: c.what for c in checks_for(get_game("holdem-nolimit"))}["all-in-flop"] == "the opponent goes all-in on the flop"

"""``probe-bet``: the parametrised probe raises the sizes, on the raises, streets and hands its options
say, answers bets as told, and refuses a bad option in one line before a match starts."""

from __future__ import annotations

import subprocess
import sys

import pytest

from showdown.agents.base import View
from showdown.agents.bet_probe import BetPlan, BetProbe, parse_plan
from showdown.agents.registry import make_agent
from showdown.errors import ConfigError
from showdown.games.cards import parse_cards
from showdown.games.catalog import get_game
from showdown.games.state import Action, ActionKind, State

GAME = get_game("holdem-nolimit")
BOARD = "Ah9s4c5d6h"
STRONG, WEAK = "AsAd", "7c2d"
FIRST = GAME.first_player[0]  # the small blind, first to act before the flop


def _preflop(probe: str, first: bool = True) -> State:
    """Before the flop, the probe holding ``probe`` in the small blind (``first``) or the big blind."""
    seat = FIRST if first else 1 - FIRST
    holes = [list(parse_cards("KsKd")), list(parse_cards("KsKd"))]
    holes[seat] = list(parse_cards(probe))
    return State.initial(GAME, holes, list(parse_cards(BOARD)))


def _flop(probe: str) -> State:
    """After a raise to 200 called: the flop, the probe (the big blind) first to act, pot 400."""
    holes = [list(parse_cards("KsKd")), list(parse_cards("KsKd"))]
    holes[GAME.first_player[1]] = list(parse_cards(probe))
    holes[1 - GAME.first_player[1]] = list(parse_cards("QsQd"))
    state = State.initial(GAME, holes, list(parse_cards(BOARD)))
    return state.apply(Action(ActionKind.RAISE, 200)).apply(Action(ActionKind.CALL))


def _act(options: dict[str, str], state: State) -> Action:
    agent = make_agent("probe-bet", GAME, {"seed": 5, **options})
    return state.repair(agent.act(View.of(state, state.current_player)))[0]


@pytest.mark.parametrize("sizes, total", [("0.25", 300), ("2", 1000), ("min", 300), ("allin", 20000), ("3x", 600)])
def test_it_bets_the_size_it_is_given(sizes: str, total: int) -> None:
    """Pot 400 on the flop, 200 each in: a quarter pot is 100 more, two pots 800, min a big blind, 3x of 200 600."""
    assert _act({"sizes": sizes}, _flop(WEAK)) == Action(ActionKind.RAISE, total)


def test_several_sizes_are_drawn_uniformly_and_reproducibly() -> None:
    state = _flop(WEAK)
    agent = make_agent("probe-bet", GAME, {"seed": 5, "sizes": "0.25/1/allin"})
    views = [View.of(state, state.current_player, hand=h) for h in range(300)]
    totals = [agent.act(v).size for v in views]
    assert {t: totals.count(t) for t in set(totals)}.keys() == {300, 600, 20000}
    assert all(60 <= totals.count(t) <= 140 for t in (300, 600, 20000))  # 100 expected each: 4.9 sigma
    again = make_agent("probe-bet", GAME, {"seed": 5, "sizes": "0.25/1/allin"})
    assert [again.act(v).size for v in views] == totals


def test_a_three_x_three_bet_is_three_times_the_open() -> None:
    opened = _preflop(WEAK, first=False).apply(Action(ActionKind.RAISE, 250))  # the small blind opens, the probe 3-bets
    assert _act({"sizes": "3x", "raises": "second", "streets": "preflop"}, opened) == Action(ActionKind.RAISE, 750)
    opening = _preflop(WEAK)
    assert _act({"sizes": "3x", "raises": "second", "streets": "preflop"}, opening).kind is ActionKind.CALL  # limps
    assert _act({"sizes": "3x", "raises": "first/second"}, opening) == Action(ActionKind.RAISE, 300)


def test_it_raises_only_on_its_streets_and_raise_counts() -> None:
    flop = _flop(WEAK)
    assert _act({"streets": "turn/river"}, flop).kind is ActionKind.CALL  # checks the flop
    assert _act({"streets": "preflop"}, _preflop(WEAK)).kind is ActionKind.RAISE
    assert _act({"streets": "flop/turn/river"}, _preflop(WEAK)).kind is ActionKind.CALL  # limps
    bet_into = flop.apply(Action(ActionKind.CALL)).apply(Action(ActionKind.RAISE, 400))
    assert _act({"raises": "first"}, bet_into).kind is ActionKind.CALL  # its first raise would be the second
    assert _act({"raises": "second"}, bet_into).kind is ActionKind.RAISE
    reraised = flop.apply(Action(ActionKind.RAISE, 300)).apply(Action(ActionKind.RAISE, 600))
    assert _act({"raises": "third", "sizes": "min"}, reraised) == Action(ActionKind.RAISE, 900)
    assert _act({"raises": "first/second"}, reraised).kind is ActionKind.CALL


@pytest.mark.parametrize("facing, weak, strong", [
    ("call", ActionKind.CALL, ActionKind.CALL), ("fold", ActionKind.FOLD, ActionKind.FOLD),
    ("fold-weak", ActionKind.FOLD, ActionKind.CALL), ("raise", ActionKind.RAISE, ActionKind.RAISE)])
def test_it_answers_a_bet_as_told(facing: str, weak: ActionKind, strong: ActionKind) -> None:
    """Bet into on the flop by a probe that only bets first (so its raise rule does not fire)."""
    for cards, kind in ((WEAK, weak), (STRONG, strong)):
        state = _flop(cards).apply(Action(ActionKind.CALL)).apply(Action(ActionKind.RAISE, 400))
        assert _act({"raises": "first", "facing": facing}, state).kind is kind, (cards, facing)
    checked_to = _flop(WEAK)
    assert _act({"streets": "river", "facing": "fold"}, checked_to).kind is ActionKind.CALL  # a check, never a fold


def test_value_hands_only_raise_with_medium_or_better_cards() -> None:
    assert _act({"hands": "value"}, _flop(WEAK)).kind is ActionKind.CALL
    assert _act({"hands": "value"}, _flop(STRONG)).kind is ActionKind.RAISE
    weak_facing = _flop(WEAK).apply(Action(ActionKind.CALL)).apply(Action(ActionKind.RAISE, 400))
    assert _act({"hands": "value", "facing": "raise"}, weak_facing).kind is ActionKind.CALL


def test_a_plan_that_never_reads_the_cards_is_cards_blind() -> None:
    assert make_agent("probe-bet", GAME, {"sizes": "0.25"}).cards_blind
    assert make_agent("probe-bet", GAME, {"facing": "raise"}).cards_blind
    assert not make_agent("probe-bet", GAME, {"hands": "value"}).cards_blind
    assert not make_agent("probe-bet", GAME, {"facing": "fold-weak"}).cards_blind
    assert all(isinstance(make_agent("probe-bet", GAME, o), BetProbe) for o in ({}, {"hands": "value"}))
    assert make_agent("probe-bet", GAME, {}).raise_sizes_blind


def test_the_default_plan_and_the_parsed_words() -> None:
    assert parse_plan({}) == BetPlan()
    plan = parse_plan({"sizes": "min/0.25/3x/allin", "raises": "third/first", "streets": "river/flop", "hands": "VALUE", "facing": "fold-weak"})
    assert plan == BetPlan(("min", 0.25, "3x", "allin"), frozenset({0, 2}), frozenset({1, 3}), True, "fold-weak")


@pytest.mark.parametrize("options, words", [
    ({"sizes": "big"}, "size 'big'"), ({"sizes": "0"}, "size '0'"), ({"sizes": "1x"}, "size '1x'"),
    ({"raises": "fourth"}, "'fourth'"), ({"streets": "showdown"}, "'showdown'"), ({"hands": "all"}, "hands='all'"),
    ({"facing": "check"}, "facing='check'"), ({"size": "1"}, "no option 'size'")])
def test_a_bad_option_is_refused_with_what_is_wrong(options: dict[str, str], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        make_agent("probe-bet", GAME, options)


def test_a_bad_option_fails_a_match_in_one_line_before_it_starts() -> None:
    out = subprocess.run([sys.executable, "-m", "showdown", "match", "holdem-nolimit", "cfr", "probe-bet", "-o", "2:sizes=0.25/huge",
                          "--hands", "2", "--no-log"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip().count("\n") == 0 and "'huge'" in out.stderr


def test_the_pool_s_cousins_are_fixed_plans_of_probe_bet() -> None:
    """``probe-cbet`` bets 2/3 pot first in a round and calls a raise; ``probe-betfold`` bets half pot
    first and folds to a raise; neither takes plan options."""
    flop = _flop(WEAK)
    cbet, betfold = make_agent("probe-cbet", GAME, {"seed": 1}), make_agent("probe-betfold", GAME, {"seed": 1})
    assert cbet.act(View.of(flop, flop.current_player)) == Action(ActionKind.RAISE, 200 + round(0.67 * 400))
    assert betfold.act(View.of(flop, flop.current_player)) == Action(ActionKind.RAISE, 400)
    raised = flop.apply(Action(ActionKind.RAISE, 400)).apply(Action(ActionKind.RAISE, 1200))
    assert cbet.act(View.of(raised, raised.current_player)).kind is ActionKind.CALL
    assert betfold.act(View.of(raised, raised.current_player)).kind is ActionKind.FOLD
    assert cbet.cards_blind and betfold.cards_blind
    with pytest.raises(ConfigError, match="no option 'sizes'"):
        make_agent("probe-cbet", GAME, {"sizes": "1"})

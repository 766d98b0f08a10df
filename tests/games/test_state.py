from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.cli import main
from showdown.errors import IllegalActionError, ProtocolError
from showdown.games.cards import parse_cards
from showdown.games.catalog import CATALOG, get_game
from showdown.games.dealing import CardDealer
from showdown.games.gamedef import Betting, GameDef
from showdown.games.state import (
    CALL,
    FOLD,
    RAISE,
    Action,
    ActionKind,
    State,
    betting_actions,
    format_betting,
    parse_action,
    parse_betting,
    side_pots,
    split_pots,
)

KUHN = get_game("kuhn")
NOLIMIT = get_game("holdem-nolimit")


def raise_to(n: int) -> Action:
    return Action(ActionKind.RAISE, n)


def kuhn(hole0: str, hole1: str) -> State:
    return State.initial(KUHN, (parse_cards(hole0), parse_cards(hole1)))


def test_actions_have_acpc_text() -> None:
    assert [str(a) for a in (FOLD, CALL, RAISE, raise_to(300))] == ["f", "c", "r", "r300"]
    assert parse_action("r300") == raise_to(300)
    assert parse_betting("cr200c/r400") == ((CALL, raise_to(200), CALL), (raise_to(400),))


_ACTIONS = st.one_of(st.sampled_from([FOLD, CALL, RAISE]), st.integers(0, 10**12).map(raise_to))


@given(st.lists(st.lists(_ACTIONS, max_size=6), min_size=1, max_size=5))
def test_betting_text_round_trips_through_the_one_tokenizer(rounds: list[list[Action]]) -> None:
    text = format_betting(rounds)
    assert parse_betting(text) == tuple(tuple(r) for r in rounds)
    assert betting_actions(text) == tuple(a for r in rounds for a in r)
    for action in (a for r in rounds for a in r):
        assert parse_action(str(action)) == action


@pytest.mark.parametrize("text", ["x", "cc/k", "f12", "c-1", "r-5", "r 5", "r\u0665", "cR"])
def test_betting_text_other_than_f_c_r_and_sizes_is_refused(text: str) -> None:
    with pytest.raises(ProtocolError, match="bad betting"):
        parse_betting(text)
    with pytest.raises(ProtocolError, match="bad betting"):
        betting_actions(text)


@pytest.mark.parametrize("text", ["r" + "9" * 5000, "cr200c/r" + "1" * 19, "r" + "0" * 4301 + "5"])
def test_a_raise_size_of_more_digits_than_any_stack_is_bad_betting(text: str) -> None:
    """int() of more than 4,300 digits is a ValueError ('Exceeds the limit ... for integer string
    conversion'): a log holding such a raise was a traceback from analyze, verify-log, export and report."""
    for parse in (parse_betting, betting_actions):
        with pytest.raises(ProtocolError, match=r"bad betting .*: a raise size of [0-9,]+ digits"):
            parse(text)
    with pytest.raises(ProtocolError, match="bad action"):
        parse_action(text)
    assert parse_betting("r" + "9" * 18) == ((raise_to(10**18 - 1),),)  # up to 18 digits: the rules judge the size


def test_analyze_of_a_log_with_a_raise_of_thousands_of_digits_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "m.log"
    log.write_text(f"# name/game/hands/seed m holdem-nolimit 1 0\nSTATE:0:r{'9' * 5000}f:AcKd|2c2d:-100|100:a|b\n")
    for command in (["analyze", str(log)], ["verify-log", str(log)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "a raise size of 5,000 digits" in err and err.count("\n") == 1 and len(err) < 400


@pytest.mark.parametrize("text", ["", "cc", "r5c", "x", "f1", "r-1"])
def test_parse_action_takes_exactly_one_action(text: str) -> None:
    with pytest.raises(ProtocolError, match="bad action"):
        parse_action(text)


def test_kuhn_check_check_goes_to_showdown() -> None:
    s = kuhn("Ks", "Qs").apply(CALL).apply(CALL)
    assert s.finished and s.is_showdown
    assert s.payoffs() == (1.0, -1.0)


def test_kuhn_bet_fold_wins_the_antes() -> None:
    s = kuhn("Qs", "As").apply(RAISE).apply(FOLD)
    assert s.finished and not s.is_showdown
    assert s.payoffs() == (1.0, -1.0)


def test_fold_when_check_is_possible_is_illegal_and_repairs_to_call() -> None:
    s = kuhn("Ks", "Qs")
    assert not s.can_fold()
    with pytest.raises(IllegalActionError, match="fold when a check is possible"):
        s.apply(FOLD)
    assert s.repair(FOLD) == (CALL, "invalid action, changed to call")


def test_raise_cap_makes_reraise_illegal() -> None:
    s = kuhn("Ks", "Qs").apply(RAISE)
    assert s.raise_bounds() is None
    assert s.legal_actions() == (FOLD, CALL)
    assert s.repair(RAISE) == (CALL, "invalid action, changed to call")


def test_reverse_blinds_small_blind_acts_first_preflop_and_big_blind_after() -> None:
    g = get_game("holdem-limit")
    s = State.initial(g)
    assert s.current_player == 1 and s.spent == (10, 5)
    s = s.apply(CALL).apply(CALL)
    assert s.round == 1 and s.current_player == 0 and s.betting == "cc/"


def test_limit_raise_goes_up_by_the_round_size() -> None:
    s = State.initial(get_game("holdem-limit")).apply(RAISE)
    assert s.max_spent == 20 and s.raise_bounds() == (30, 30)


def test_nolimit_minimum_raise_follows_the_reference() -> None:
    s = State.initial(NOLIMIT)
    assert s.raise_bounds() == (200, 20000)  # twice the big blind
    s = s.apply(raise_to(300))  # raise from 100 to 300: next minimum 2*300-100 = 500
    assert s.raise_bounds() == (500, 20000)
    s = s.apply(CALL)
    assert s.round == 1 and s.raise_bounds() == (400, 20000)  # current bet + big blind


def test_nolimit_sizes_are_clamped_with_the_reference_warnings() -> None:
    s = State.initial(NOLIMIT)
    assert s.repair(raise_to(1)) == (raise_to(200), "raise of 1 increased to 200")
    assert s.repair(raise_to(-5)) == (raise_to(200), "raise of -5 increased to 200")
    assert s.repair(raise_to(999999)) == (raise_to(20000), "raise of 999999 decreased to 20000")
    assert s.repair(raise_to(99999999999999)) == (raise_to(20000), "raise of 99999999999999 decreased to 20000")  # as sent
    assert s.repair(raise_to(10**4000))[1] == "raise of 100000000000... (4001 digits) decreased to 20000"
    assert s.repair(raise_to(500)) == (raise_to(500), None)
    with pytest.raises(IllegalActionError, match="outside the legal range 200 to 20000"):
        s.apply(raise_to(150))


def test_all_in_runs_out_the_board() -> None:
    s = State.initial(NOLIMIT).apply(raise_to(20000)).apply(CALL)
    assert s.finished and s.betting == "r20000c///" and s.round == 3


def test_only_all_in_left_when_stack_below_minimum() -> None:
    s = State.initial(NOLIMIT).apply(raise_to(19950))
    # minimum would be 2*19950-100 > stack: the only raise is all-in
    assert s.raise_bounds() == (20000, 20000)


def test_apply_betting_rejects_misplaced_round_separator() -> None:
    s = State.initial(get_game("leduc"))
    with pytest.raises(IllegalActionError):
        s.apply_betting("c/c")
    assert s.apply_betting("cc/c").betting == "cc/c"


def three_player_nolimit(stacks: tuple[int, int, int]) -> GameDef:
    return GameDef(
        betting=Betting.NOLIMIT, num_players=3, num_rounds=1, stack=stacks, blind=(1, 2, 0),
        raise_size=(), first_player=(2,), max_raises=(255,), num_suits=4, num_ranks=13,
        num_hole_cards=2, num_board_cards=(5,),
    )  # fmt: skip


def test_side_pots_go_to_the_best_hand_at_each_level() -> None:
    g = three_player_nolimit((100, 200, 300))
    # position 0 has the best hand but is all-in for 100; position 1 second best, all-in for 200.
    hole = (parse_cards("AsAd"), parse_cards("KsKd"), parse_cards("2c7h"))
    board = parse_cards("Ac8d9hJs3c")
    s = State.initial(g, hole, board)
    assert s.current_player == 2
    s = s.apply(raise_to(300)).apply(CALL).apply(CALL)
    assert s.finished
    # main pot 3*100 -> p0; side pot 2*100 -> p1; p2's uncalled 100 comes back.
    assert s.payoffs() == (200.0, 0.0, -200.0)


def test_split_pot_is_shared_evenly_and_suits_never_break_ties() -> None:
    # Leduc Ah|As/Ks is a split (docs/protocol.md section 2).
    s = State.initial(get_game("leduc"), (parse_cards("Ah"), parse_cards("As")), parse_cards("Ks"))
    s = s.apply_betting("cc/cc")
    assert s.payoffs() == (0.0, 0.0)


def test_three_way_split_gives_fractions() -> None:
    g = three_player_nolimit((20000, 20000, 20000))
    hole = (parse_cards("2c3d"), parse_cards("2d3c"), parse_cards("4c5d"))
    board = parse_cards("AsKsQsJsTs")  # royal flush on board: everyone splits
    s = State.initial(g, hole, board).apply(CALL).apply(FOLD).apply(CALL)
    # p2 calls 2, p0 folds its 1, p1 checks: pot 5 shared by p1 and p2 (2.5 each)
    assert s.payoffs() == (-1.0, 0.5, 0.5)


def random_hand(game: GameDef, data: st.DataObject) -> State:
    dealer = CardDealer(game, data.draw(st.integers(0, 2**32 - 1), label="seed"))
    hole, board = dealer.deal()
    s = State.initial(game, hole, board)
    while not s.finished:
        legal = s.legal_actions()
        action = data.draw(st.sampled_from(legal), label="action")
        if action.is_raise and game.is_nolimit:
            lo, hi = s.raise_bounds()  # type: ignore[misc]
            action = raise_to(data.draw(st.integers(lo, hi), label="size"))
        assert s.why_illegal(action) is None
        s = s.apply(action)
    return s


@pytest.mark.parametrize("name", [e.name for e in CATALOG])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_random_legal_play_conserves_chips_and_stays_legal(name: str, data: st.DataObject) -> None:
    game = get_game(name)
    s = random_hand(game, data)
    values = s.payoffs()
    assert abs(sum(values)) < 1e-9
    assert all(-s.spent[p] - 1e-9 <= values[p] for p in range(game.num_players))
    assert all(spent <= stack for spent, stack in zip(s.spent, game.stack))
    # replaying the betting string gives the same hand
    replay = State.initial(game, s.hole, s.board).apply_betting(s.betting)
    assert replay.payoffs() == values and replay.betting == s.betting


@given(data=st.data())
@settings(max_examples=100, deadline=None)
def test_repair_always_yields_a_legal_action(data: st.DataObject) -> None:
    game = get_game(data.draw(st.sampled_from(["kuhn", "leduc", "holdem-limit", "holdem-nolimit", "holdem-nolimit-3p"])))
    s = State.initial(game)
    for _ in range(data.draw(st.integers(0, 12))):
        if s.finished:
            break
        kind = data.draw(st.sampled_from(list(ActionKind)))
        size = data.draw(st.integers(-10, 30000)) if kind is ActionKind.RAISE and game.is_nolimit else 0
        repaired, _ = s.repair(Action(kind, size))
        assert s.why_illegal(repaired) is None
        s = s.apply(repaired)


@settings(max_examples=500, deadline=None)
@given(
    spent=st.lists(st.integers(0, 400), min_size=2, max_size=2),
    folded=st.lists(st.booleans(), min_size=2, max_size=2),
    strength=st.lists(st.integers(0, 3), min_size=2, max_size=2),
)
def test_heads_up_payoffs_are_the_side_pot_rule(spent: list[int], folded: list[bool], strength: list[int]) -> None:
    """The two-player shortcut gives the general rule's floats exactly (no -0.0 where it has 0.0)."""
    quick = split_pots(spent, folded, strength)
    general = side_pots(spent, folded, strength) if folded.count(False) != 1 else tuple(
        float(sum(spent) - spent[p]) if not folded[p] else float(-spent[p]) for p in range(2)
    )
    assert list(map(repr, quick)) == list(map(repr, general))


def test_initial_takes_the_game_s_name_and_names_itself_for_anything_else() -> None:
    from showdown.errors import GameDefError

    leduc = get_game("leduc")
    hole, board = CardDealer(leduc, 1).deal()
    assert State.initial("leduc", hole, board).spent == State.initial(leduc, hole, board).spent  # type: ignore[arg-type]
    with pytest.raises(GameDefError, match=r"^State.initial: expected a game"):  # was: 'int' object has no attribute 'blind'
        State.initial(7, hole, board)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [300.5, float("nan"), float("inf")])
def test_a_raise_to_a_fraction_of_a_chip_is_illegal(size: float) -> None:
    """State.apply(Action(RAISE, 300.5)) was played with 300.5 chips in (betting 'r300.5')."""
    state = State.initial(get_game("holdem-nolimit"))
    assert "not a whole number of chips" in (state.why_illegal(Action(ActionKind.RAISE, size)) or "")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        state.apply(Action(ActionKind.RAISE, size))  # type: ignore[arg-type]
    assert state.apply(Action(ActionKind.RAISE, 300.0)).betting == "r300"  # type: ignore[arg-type]  # a whole float: that many chips

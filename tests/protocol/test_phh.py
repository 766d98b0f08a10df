"""PHH out and in, checked by pokerkit itself: every exported hand replayed by pokerkit ends with the
stacks our log's values say, and reading a hand back gives the hand we wrote."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from showdown.errors import ProtocolError
from showdown.games.catalog import get_game
from showdown.games.gamedef import UNLIMITED_STACK, GameDef
from showdown.protocol.logfile import LoggedHand, parse_log
from showdown.protocol.phh import NoPhhForm, format_phh_hand, phh_variant, same_table
from showdown.protocol.phh_reading import parse_phh_hand, split_phhs
from tests.phh_support import pokerkit_payoffs, random_hands, uneven_game

pytest.importorskip("pokerkit")

DATA = Path(__file__).resolve().parents[1] / "data"


def _agrees(ours: tuple[float, ...], theirs: tuple[int, ...]) -> bool:
    """Equal, chip for chip; where a split pot left a fraction (ours are exact, pokerkit gives whole
    odd chips) within a chip a pot."""
    if all(float(v).is_integer() for v in ours):
        return tuple(int(v) for v in ours) == theirs
    return all(abs(a - b) < len(ours) for a, b in zip(ours, theirs))


def _exported(game: GameDef, hands: list[LoggedHand]) -> tuple[list[LoggedHand], str]:
    kept, texts = [], []
    for h in hands:
        try:
            texts.append(format_phh_hand(game, h))
        except NoPhhForm:
            continue
        kept.append(h)
    return kept, "\n".join(texts)


def _check_with_pokerkit(game: GameDef, hands: list[LoggedHand]) -> list[LoggedHand]:
    kept, text = _exported(game, hands)
    theirs = pokerkit_payoffs(text)
    assert len(theirs) == len(kept)
    wrong = [(h.hand, h.values, t) for h, t in zip(kept, theirs) if not _agrees(h.values, t)]
    assert not wrong, wrong[:3]
    back = [parse_phh_hand(chunk, f"x:{line}").hand for line, chunk in split_phhs(text.splitlines(keepends=True))]
    assert back == kept
    return kept


REFERENCE_LOGS = [
    ("holdem.nolimit.2p.reverse_blinds.1000h.seed0.log", "holdem-nolimit"),
    ("holdem.limit.2p.reverse_blinds.1000h.seed0.log", "holdem-limit"),
]


@pytest.mark.parametrize("log, game", REFERENCE_LOGS)
def test_pokerkit_replays_the_reference_dealers_hands_to_our_values(log: str, game: str) -> None:
    hands = list(parse_log((DATA / log).read_text().splitlines(), source=log).hands)[:150]
    assert len(_check_with_pokerkit(get_game(game), hands)) == 150


@pytest.mark.slow
@pytest.mark.parametrize("log, game", REFERENCE_LOGS)
def test_pokerkit_replays_every_hand_of_the_reference_dealers_logs(log: str, game: str) -> None:
    hands = list(parse_log((DATA / log).read_text().splitlines(), source=log).hands)
    assert len(_check_with_pokerkit(get_game(game), hands)) == 1000


@pytest.mark.parametrize("game", [
    get_game("holdem-nolimit-3p"),
    get_game("holdem-limit-3p"),
    uneven_game("nolimit", (3000, 20000, 9000)),
    uneven_game("nolimit", (5000, 20000)),
    uneven_game("limit", (700, 3000, 1500)),
], ids=lambda g: g.name)
def test_pokerkit_agrees_on_all_ins_and_side_pots(game: GameDef) -> None:
    hands = list(random_hands(game, 300, seed=5))
    kept = _check_with_pokerkit(game, hands)
    assert len(kept) >= 0.9 * len(hands)
    if max(game.stack) < UNLIMITED_STACK:
        lost_all = [h for h in kept if any(-v == game.stack[p] for p, v in enumerate(h.values))]
        assert lost_all, "the sample should have all-ins"
    if len(set(game.stack)) > 1 and game.num_players > 2:
        side_pots = [h for h in kept if sum(v > 0 for v in h.values) > 1 or len({-v for v in h.values if v < 0}) > 1]
        assert side_pots


def test_ten_players_with_uneven_stacks() -> None:
    game = uneven_game("nolimit", (4000, 1000, 9000, 200, 5000, 7000, 3000, 2500, 8000, 6000))
    _check_with_pokerkit(game, list(random_hands(game, 120, seed=2)))


def test_a_hand_pokerkit_would_refuse_is_said_to_have_no_phh_form() -> None:
    # 3 players, uneven stacks: p3 raises to 1000, p1 calls, p2's all-in raise to 1300 is short of a
    # full raise, so pokerkit does not let p3, who has acted, raise again; the reference dealer does.
    game = uneven_game("nolimit", (20000, 1300, 20000))
    from showdown.games.state import parse_betting

    hand = LoggedHand(0, parse_betting("r1000cr1300r3000f///"), ((0, 1), (2, 3), (4, 5)),
                       ((), (6, 7, 8), (9,), (10,)), (0.0, 0.0, 0.0), ("a", "b", "c"))
    with pytest.raises(NoPhhForm, match="hand 0: p3 raises after an all-in short of a full raise"):
        format_phh_hand(game, hand)


@pytest.mark.parametrize("game", ["kuhn", "leduc", "kuhn3p"])
def test_games_phh_cannot_state_are_refused_in_one_sentence(game: str) -> None:
    with pytest.raises(ProtocolError, match="cannot be written as PHH: .*Texas hold'em"):
        phh_variant(get_game(game))


GOOD = """[7]
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [20000, 20000]
actions = ["d dh p1 Ah8s", "d dh p2 2h4c", "p2 cbr 300", "p1 cc", "d db Qd7h6c", "p1 cc", "p2 cbr 400", "p1 f"]
players = ["Alice", "Bob"]
finishing_stacks = [19700, 20300]
"""


def test_a_hand_from_elsewhere_reads_into_our_log_terms() -> None:
    got = parse_phh_hand(GOOD, "f.phhs:1")
    assert got.hand.betting_text == "r300c/cr700f"  # PHH's street sizes are our hand totals less the street's start
    assert got.hand.names == ("Alice", "Bob")
    assert got.hand.values == (-300.0, 300.0)
    assert got.game == get_game("holdem-nolimit")


@pytest.mark.parametrize("change, field", [
    (('variant = "NT"', 'variant = "FO/8"'), "variant"),
    (("antes = [0, 0]", "antes = [5, 5]"), "antes"),
    (("min_bet = 100\n", ""), "min_bet"),
    (("min_bet = 100", "min_bet = 7"), "min_bet"),
    (("starting_stacks = [20000, 20000]", "starting_stacks = [20000]"), "starting_stacks"),
    (('"d dh p2 2h4c"', '"d dh p2 ????"'), "actions"),
    (('"p2 cbr 300"', '"p1 cbr 300"'), "actions"),
    ((', "p1 f"]', "]"), "actions"),
    (("finishing_stacks = [19700, 20300]", "finishing_stacks = [20000, 20000]"), "finishing_stacks"),
    (('"p2 cbr 400"', '"p2 cbr lots"'), "actions"),
    (('"d dh p2 2h4c"', '"d dh p2 2h4c", "d dh p2 3h5c"'), "actions"),  # dealt twice: the second was taken silently
    ((', "p1 f"]', ', "p1 f", "p2 sm 2h4c Ah8s"]'), "actions"),  # words past the cards passed unread
])
def test_bad_phh_names_the_file_and_the_field(change: tuple[str, str], field: str) -> None:
    with pytest.raises(ProtocolError, match=rf"^f\.phhs:3 \[7\]: field '{field}': "):
        parse_phh_hand(GOOD.replace(*change), "f.phhs:3")


@pytest.mark.parametrize("field, value", [("hand", "99999999999999999999999"), ("hand", "4294967295"), ("_seed", "4294967296")])
def test_a_hand_number_or_seed_no_match_has_is_not_carried_into_the_log(field: str, value: str) -> None:
    """They were written into the imported log, which verify-log and analyze then refused ('bad hand
    number ...: expected a whole number of at most 18 digits'); now they count as absent, like -1."""
    got = parse_phh_hand(GOOD + f"{field} = {value}\n", "f.phhs:1", index=3)
    assert got.hand.hand == 3 and got.seed is None


@pytest.mark.parametrize(("seats", "ours"), [("[1, 2]", (0, 1)), ("[2, 1]", (1, 0)), ("[4, 9]", (0, 1)), ("[9, 4]", (1, 0))])
def test_seat_numbers_of_a_larger_table_read_as_our_seats_in_their_order(
    tmp_path: Path, seats: str, ours: tuple[int, ...]
) -> None:
    """PHH numbers a player's seat at the table (seat_count = 9, seats = [4, 9]): written as they were,
    the imported .jsonl was refused by analyze, report and export ('seats must number each player once, from 0')."""
    from showdown.evaluation.log_reading import read_logs
    from showdown.interchange.phh_files import import_phh

    assert parse_phh_hand(GOOD + f"seat_count = 9\nseats = {seats}\n", "f.phh:1").seats == ours
    (tmp_path / "h.phh").write_text(GOOD + f"seat_count = 9\nseats = {seats}\n")
    import_phh([tmp_path / "h.phh"], tmp_path / "m.jsonl")
    from showdown.protocol.logfile import HandRecord

    assert HandRecord.from_json((tmp_path / "m.jsonl").read_text().splitlines()[0]).seats == ours
    assert read_logs([tmp_path / "m.jsonl"]).game is not None  # analyze's reader takes it


def test_two_players_in_one_seat_is_one_error_naming_the_field() -> None:
    with pytest.raises(ProtocolError, match=r"^f\.phh:1 \[7\]: field 'seats': \[3, 3\]: two players in one seat"):
        parse_phh_hand(GOOD + "seats = [3, 3]\n", "f.phh:1")


@pytest.mark.parametrize("line", ["hand = {d}", "hand = 1_{d}", "_extra = [{d}]", "x = {{ y = {d} }}"])
def test_a_number_of_thousands_of_digits_is_one_protocol_error(line: str) -> None:
    """Python's int() refuses more than 4,300 digits with a ValueError, from tomllib and json alike: a
    traceback from showdown import."""
    with pytest.raises(ProtocolError, match=r"^f\.phh:1: not valid PHH: a number of more than 4,300 digits"):
        parse_phh_hand(GOOD + line.format(d="9" * 5000) + "\n", "f.phh:1")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_damage_to_a_phh_hand_is_one_protocol_error_never_a_crash(data: st.DataObject) -> None:
    lines = GOOD.splitlines(keepends=True)
    k = data.draw(st.integers(0, len(lines) - 1))
    kind = data.draw(st.sampled_from(["drop", "text", "value"]))
    if kind == "drop":
        del lines[k]
    elif kind == "text":
        lines[k] = data.draw(st.text(max_size=40)) + "\n"
    else:
        key = lines[k].split("=", 1)[0]
        value = data.draw(st.sampled_from(["-1", "1e400", "true", '"x"', "[]", "[1, 2, 3]", '["p9 cc"]', "{a = 1}", "[[1]]"]))
        lines[k] = f"{key}= {value}\n"
    try:
        parse_phh_hand("".join(lines), "f.phh:1")
    except ProtocolError as exc:
        assert str(exc).startswith("f.phh:1") and "\n" not in str(exc)


def test_a_phhs_file_splits_at_its_table_headers_one_hand_at_a_time() -> None:
    text = "# hands\n[1]\nvariant = 'NT'\n\n[2]\nvariant = 'FT'\n"
    assert [(line, chunk.split("\n")[0]) for line, chunk in split_phhs(text.splitlines(keepends=True))] == [(2, "[1]"), (5, "[2]")]


def test_a_hand_pokerkit_wrote_reads_with_pokerkits_result() -> None:
    from pokerkit import Automation, HandHistory, NoLimitTexasHoldem

    automations = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING, Automation.CARD_BURNING,
                   Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
    game = NoLimitTexasHoldem(automations, False, 0, (1, 2), 2)
    state = game((200, 300, 100), 3)
    for cards in ("AsKs", "2c2d", "7h8h"):
        state.deal_hole(cards)
    state.complete_bet_or_raise_to(100)  # p3 all in
    state.complete_bet_or_raise_to(200)  # p1 all in
    state.check_or_call()
    for cards in ("Jc3d5c", "4h", "Qs"):
        state.deal_board(cards)
    text = HandHistory.from_game_state(game, state).dumps()  # pokerkit's own layout: single quotes, its key order
    got = parse_phh_hand(text, "pokerkit.phh")
    assert got.hand.values == tuple(float(end - start) for end, start in zip(state.stacks, (200, 300, 100)))
    assert got.hand.betting_text == "r100r200c///"


RUN_TWICE = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [20000, 20000]
actions = ["d dh p1 AsKs", "d dh p2 QhQd", "p2 cbr 300", "p1 cbr 20000", "p2 cc", "d db 2c3d4h", "d db 5s", "d db 9c",
           "d db 7c8c9d", "d db Th", "d db Jh"]
"""


def test_a_board_run_twice_is_refused_as_such() -> None:
    """It was 'the board comes as 3, 1 and 1 cards', which says nothing of the cause (and is hold'em's
    count in any game)."""
    with pytest.raises(ProtocolError, match=r"\[8\] 'd db 7c8c9d': more board cards than the game deals \(3, 1 and 1 cards\); "
                                            r"a board run twice is not supported"):
        parse_phh_hand(RUN_TWICE, "f.phh")
    with pytest.raises(ProtocolError, match=r"'d db 5s6s': the board comes as 3, 1 and 1 cards$"):
        parse_phh_hand(RUN_TWICE.replace('"d db 5s"', '"d db 5s6s"'), "f.phh")


@pytest.mark.parametrize("size", ["²", "١٢٣", "9" * 5000])
def test_a_bet_size_of_other_digits_or_thousands_of_them_is_one_short_error(size: str) -> None:
    """str.isdigit takes '²' and '١٢٣', and int() refused '²' and 5,000 digits with a ValueError: a
    traceback from showdown import (and '١٢٣' was read as 123)."""
    with pytest.raises(ProtocolError, match=r"field 'actions': \[6\] 'p2 cbr .*: expected 'pN f'") as err:
        parse_phh_hand(GOOD.replace('"p2 cbr 400"', f'"p2 cbr {size}"'), "f.phh")
    assert len(str(err.value)) < 200  # the action quoted in part, not 5,000 digits


@pytest.mark.parametrize(("players", "says"), [
    ('["a", "a"]', "p1 and p2 are both 'a' in our logs: give"),
    ('["a b", "a_b"]', "p1 and p2 are both 'a_b' in our logs (given as 'a b' and 'a_b')"),
    ('["", "p1"]', "p1 and p2 are both 'p1'"),
])  # fmt: skip
def test_two_players_of_one_log_name_are_refused_naming_the_field(players: str, says: str) -> None:
    """They were imported, and analyze and report then refused the log ('names 'a' at two positions')."""
    with pytest.raises(ProtocolError, match=r"^f\.phh:1 \[7\]: field 'players': " + re.escape(says)):
        parse_phh_hand(GOOD.replace('["Alice", "Bob"]', players), "f.phh:1")


def test_names_and_events_are_one_word_of_a_log_line() -> None:
    got = parse_phh_hand(GOOD.replace('["Alice", "Bob"]', '["\\u001b[2Jx y", "' + "b" * 5000 + '"]') + 'event = "a b\\nc"\n', "f")
    assert got.hand.names == ("_[2Jx_y", "b" * 256)  # a terminal's escape is no escape, a name no longer than 256
    assert got.match == "a_b_c"


@pytest.mark.parametrize("stacks", ["[nan, 20300]", "[19700, inf]", "[true, 20300]"])
def test_finishing_stacks_that_are_no_chip_counts_are_refused(stacks: str) -> None:
    """nan passed the check ('nan >= 1' is false) and True was taken as 1 chip."""
    with pytest.raises(ProtocolError, match="field 'finishing_stacks'"):
        parse_phh_hand(GOOD.replace("[19700, 20300]", stacks), "f.phh:1")


_WORD = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zs", "Zl", "Zp"), exclude_characters=":|\x85\x1c\x1d\x1e\x1f"),
                min_size=1, max_size=12).filter(lambda w: w == w.strip() and w.split() == [w])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(["holdem-limit", "holdem-nolimit", "holdem-limit-3p", "holdem-nolimit-3p"]), seed=st.integers(0, 2**32 - 1),
       data=st.data())
def test_every_field_phh_holds_comes_back_from_a_random_hand_of_every_holdem_game(game: str, seed: int, data: st.DataObject) -> None:
    """log -> PHH -> our reader: the hand (number, betting, cards, values, names of any script) and
    what PHH carries beside it (seats, the game's name, the seed, the match's name)."""
    g = get_game(game)
    hand = next(random_hands(g, 1, seed=seed % 1000))
    names = tuple(data.draw(st.lists(_WORD, min_size=g.num_players, max_size=g.num_players, unique=True)))
    hand = LoggedHand(data.draw(st.integers(0, 2**32 - 2)), hand.betting, hand.hole, hand.board, hand.values, names)
    seats = tuple(data.draw(st.permutations(range(g.num_players))))
    match = data.draw(_WORD)
    try:
        text = format_phh_hand(g, hand, seats=seats, label=game, seed=seed, match=match)
    except NoPhhForm:
        return
    got = parse_phh_hand(text, "x.phhs:1")
    assert (got.hand, got.seats, got.label, got.seed, got.match) == (hand, seats, game, seed, match)
    assert same_table(got.game, g)  # (PHH states no raise cap: the importer takes the catalog game the label names)


@pytest.mark.parametrize("where", ['"p2 cbr 300"', '"p2 cbr 400"'])
def test_a_bet_or_raise_to_no_chips_is_refused_not_logged_as_r0(where: str) -> None:
    """'p2 cbr 0' preflop was taken as a raise with no size: the imported log said 'r0f'."""
    with pytest.raises(ProtocolError, match=r"field 'actions': \[\d\] 'p2 cbr 0': a bet or raise to 0 chips"):
        parse_phh_hand(GOOD.replace(where, '"p2 cbr 0"'), "f.phh")


def test_a_hand_pokerkit_wrote_with_float_chips_reads_when_they_are_whole() -> None:
    """PHH's chip fields are integers or floats, and pokerkit writes a state of float chips as '20000.0'
    and 'p2 cbr 300.0': such a hand was refused ('20000.0 is not a whole number of chips')."""
    from pokerkit import Automation, HandHistory, NoLimitTexasHoldem

    automations = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING, Automation.CARD_BURNING,
                   Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
    game = NoLimitTexasHoldem(automations, True, 0, (50.0, 100.0), 100.0)
    state = game((20000.0, 20000.0), 2)
    for cards in ("AcKd", "7h7s"):
        state.deal_hole(cards)
    state.complete_bet_or_raise_to(300.0)
    state.check_or_call()
    state.deal_board("AhKs2h")
    state.check_or_call()
    state.complete_bet_or_raise_to(400.0)
    state.fold()
    text = HandHistory.from_game_state(game, state).dumps()
    assert "starting_stacks = [20000.0, 20000.0]" in text and "p2 cbr 300.0" in text
    got = parse_phh_hand(text, "pokerkit.phh")
    assert got.game == get_game("holdem-nolimit")
    assert got.hand.betting_text == "r300c/cr700f" and got.hand.values == (-300.0, 300.0)
    with pytest.raises(ProtocolError, match=r"field 'starting_stacks': 20000.5 is not a whole number of chips"):
        parse_phh_hand(text.replace("20000.0,", "20000.5,"), "pokerkit.phh")
    with pytest.raises(ProtocolError, match=r"'p2 cbr 300.5': expected 'pN f'"):
        parse_phh_hand(text.replace("300.0", "300.5"), "pokerkit.phh")


def test_a_seat_numbered_from_0_is_said_to_be_a_seat_not_chips() -> None:
    """PHH numbers seats from 1: 'seats = [0, 1]' was '0 is not a whole number of chips from 1'."""
    with pytest.raises(ProtocolError, match=r"field 'seats': 0 is not a seat number \(PHH counts seats from 1\) from 1 to"):
        parse_phh_hand(GOOD + "seats = [0, 1]\n", "f.phh:1")


SHOWDOWN = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [20000, 20000]
actions = ["d dh p1 AcKd", "d dh p2 7h7s", "p2 cbr 300", "p1 cc", "d db AhKs2h", "p1 cc", "p2 cc", "d db 3c", "p1 cc", "p2 cc",
           "d db 9d", "p1 cc", "p2 cc", "p1 sm AcKd", "p2 sm"]
"""


def test_a_muck_forfeits_as_phh_says_or_the_hand_is_refused() -> None:
    """PHH's 'pN sm' with no cards is a muck, which forfeits the pot (pokerkit plays it so). A winner's
    muck was ignored: the import gave it the pot by its cards, the other way from pokerkit."""
    assert pokerkit_payoffs("[1]\n" + SHOWDOWN) == [(300, -300)]  # the loser mucks: the same either way
    assert parse_phh_hand(SHOWDOWN, "f.phh").hand.values == (300.0, -300.0)
    winner_mucks = SHOWDOWN.replace('"p1 sm AcKd", "p2 sm"', '"p2 sm 7h7s", "p1 sm"')
    assert pokerkit_payoffs("[1]\n" + winner_mucks) == [(-300, 300)]
    with pytest.raises(ProtocolError, match=r"field 'actions': \[14\] 'p1 sm': p1 mucks a hand that wins chips at the showdown"):
        parse_phh_hand(winner_mucks, "f.phh")


def test_unknown_stacks_written_inf_read_as_stacks_that_never_bind() -> None:
    """PHH writes an unknown stack as inf, and pokerkit a state of math.inf stacks so (its fixed-limit
    examples use them): such a hand was refused ('inf is not a whole number of chips')."""
    import math

    from pokerkit import Automation, FixedLimitTexasHoldem, HandHistory

    automations = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING, Automation.CARD_BURNING,
                   Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
    game = FixedLimitTexasHoldem(automations, True, 0, (5, 10), 10, 20)
    state = game(math.inf, 2)
    for cards in ("AcKd", "7h7s"):
        state.deal_hole(cards)
    state.complete_bet_or_raise_to()
    state.fold()
    history = HandHistory.from_game_state(game, state)
    text = history.dumps()
    assert "starting_stacks = [inf, inf]" in text
    got = parse_phh_hand(text, "pokerkit.phh")
    assert same_table(got.game, get_game("holdem-limit")) and got.hand.values == (-10.0, 10.0)
    assert parse_phh_hand(text.rstrip() + "\nfinishing_stacks = [inf, inf]\n", "pokerkit.phh").hand.values == (-10.0, 10.0)


@pytest.mark.parametrize(("change", "says"), [
    (('"p2 cbr 300", "p1 cc", "d db Qd7h6c"', '"d db Qd7h6c", "p2 cbr 300", "p1 cc"'),
     r"\[2\] 'd db Qd7h6c': the board of round 2 is dealt before round 1's betting ends"),
    (('"d db Qd7h6c", "p1 cc"', '"p1 cc", "d db Qd7h6c"'), r"\[4\] 'p1 cc': an action of round 2 before its board is dealt"),
])  # fmt: skip
def test_a_board_dealt_out_of_its_place_is_refused_as_pokerkit_refuses_it(change: tuple[str, str], says: str) -> None:
    """The cards were read first wherever they stood, so a flop dealt before the preflop betting (or
    after the flop's first action) was imported as if in its place; pokerkit refuses such a hand."""
    with pytest.raises(ProtocolError, match=r"field 'actions': " + says):
        parse_phh_hand(GOOD.replace(*change), "f.phh")

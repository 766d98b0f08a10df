from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import showdown.games
from showdown.errors import GameDefError
from showdown.games.catalog import CATALOG, get_game
from showdown.games.gamedef import Betting, GameDef, format_gamedef, load_gamedef, parse_gamedef
from tests.conftest import REFERENCE_GAMES

KUHN = """GAMEDEF
limit
numPlayers = 2
numRounds = 1
blind = 1 1
raiseSize = 1
firstPlayer = 1
maxRaises = 1
numSuits = 1
numRanks = 3
numHoleCards = 1
numBoardCards = 0
END GAMEDEF
"""


def test_the_reference_game_files_are_in_the_repository() -> None:
    """A fresh clone runs the round trip below: nothing is read from beside the checkout."""
    assert len(REFERENCE_GAMES) == 7


@pytest.mark.parametrize("path", REFERENCE_GAMES, ids=lambda p: p.name)
def test_every_reference_game_file_parses_and_round_trips(path) -> None:
    game = load_gamedef(path)
    assert parse_gamedef(format_gamedef(game)) == game


@pytest.mark.parametrize("entry", CATALOG, ids=lambda e: e.name)
def test_catalog_games_round_trip(entry) -> None:
    game = get_game(entry.name)
    assert parse_gamedef(format_gamedef(game)) == game


def test_reverse_blinds_holdem_is_parsed_with_zero_based_first_player() -> None:
    g = get_game("holdem-limit")
    assert g.betting is Betting.LIMIT
    assert g.blind == (10, 5)
    assert g.first_player == (1, 0, 0, 0)
    assert g.raise_size == (10, 10, 20, 20)
    assert g.max_raises == (3, 4, 4, 4)
    assert g.num_board_cards == (0, 3, 1, 1)
    assert g.big_blind == 10


def test_nolimit_stacks_and_unlimited_defaults() -> None:
    g = get_game("holdem-nolimit")
    assert g.is_nolimit and g.stack == (20000, 20000) and g.raise_size == ()
    k = get_game("kuhn")
    assert k.stack == (2**31 - 1,) * 2


def test_keywords_are_case_insensitive_prefixes_with_optional_equals() -> None:
    text = KUHN.replace("blind = 1 1", "BLIND 1 1").replace("numRanks = 3", "NUMRANKS=3")
    text = "# a comment\n  indented line is ignored\nunknown line\n" + text
    assert parse_gamedef(text) == parse_gamedef(KUHN)


def test_parsing_stops_at_end_gamedef() -> None:
    assert parse_gamedef(KUHN + "numPlayers = 5\n") == parse_gamedef(KUHN)


def test_first_player_defaults_to_one() -> None:
    text = KUHN.replace("firstPlayer = 1\n", "")
    assert parse_gamedef(text).first_player == (0,)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("numRounds = 1\n", ""), "missing required numRounds"),
        (lambda t: t.replace("numPlayers = 2\n", ""), "missing required numPlayers"),
        (lambda t: t.replace("blind = 1 1", "blind = 1 1 1"), r"file.game:5: blind has 3 values but the game has 2 positions"),
        (lambda t: t.replace("numRanks = 3", "numRanks = 14"), r"file.game:10: numRanks = 14: must be 1 to 13"),
        (lambda t: t.replace("numPlayers = 2", "numPlayers = 11"), "numPlayers = 11"),
        (lambda t: t.replace("numRounds = 1", "numRounds = 5"), "numRounds = 5"),
        (lambda t: t.replace("raiseSize = 1\n", ""), "missing required raiseSize"),
        (lambda t: t.replace("firstPlayer = 1", "firstPlayer = 3"), "1-based"),
        (lambda t: t.replace("numHoleCards = 1", "numHoleCards = 2"), "deck has 3 cards but a hand deals 4"),
        (lambda t: t.replace("blind = 1 1", "blind = x"), "blind needs whole numbers"),
        # the key as the files spell it (was 'numrounds needs a number, got '= 2.5'')
        (lambda t: t.replace("numRounds = 1", "numRounds = 1.5"), r"file.game:4: numRounds needs whole numbers, got '= 1.5'"),
        (lambda t: t.replace("firstPlayer = 1", "firstPlayer=1,"), r"file.game:7: firstPlayer needs whole numbers"),
        # the reference reads these keys into one byte: 'maxRaises = 258' capped raises at 2 there, none here
        (lambda t: t.replace("maxRaises = 1", "maxRaises = 258"), r"file.game:8: maxRaises 258: at most 255 .* as 2\)"),
        (lambda t: t.replace("numBoardCards = 0", "numBoardCards = 256"), r"file.game:12: numBoardCards 256: at most 255"),
        # every player all in by the blinds: the dealer waited for position -1 (every seat 'ran out of
        # time'); the reference dealer loops for ever looking for a player who can act
        (lambda t: t.replace("blind = 1 1", "blind = 1 1\nstack = 1 1"), "every stack equals its blind"),
        # a stack beyond 32 bits: the reference cannot read it, and the random agent crashed drawing a size
        (lambda t: t.replace("blind = 1 1", "blind = 1 1\nstack = 99999999999 20"),
         r"file.game:6: stack 99999999999: numbers in a .game file are at most 2,147,483,647"),
        # 3 hole cards and 7 on the board: the first showdown was an IndexError traceback from the evaluator
        (lambda t: t.replace("numHoleCards = 1", "numHoleCards = 3").replace("numRanks = 3", "numRanks = 13")
         .replace("numSuits = 1", "numSuits = 4").replace("numBoardCards = 0", "numBoardCards = 7"),
         r"file.game:12: numHoleCards \+ numBoardCards = 10 cards a hand: at most 7"),
    ],
)
def test_bad_files_name_the_file_line_and_problem(edit, message) -> None:
    with pytest.raises(GameDefError, match=message):
        parse_gamedef(edit(KUHN), source="file.game")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("blind = 1 1", "blind = 1 1\nstack = 5 0"), "file.game:6: stack values must be positive"),
        (lambda t: t.replace("blind = 1 1", "blind = 1 -1"), "file.game:5: blind values must not be negative"),
        (lambda t: t.replace("blind = 1 1", "blind = 1 9\nstack = 5 5"), "file.game:5: a blind is larger than its stack"),
        (lambda t: t.replace("blind = 1 1", "blind = 1 1\nstack = 1 1"), "file.game:6: every stack equals its blind"),
        (lambda t: t.replace("raiseSize = 1", "raiseSize = 0"), "file.game:6: raiseSize values must be positive"),
        (lambda t: t.replace("maxRaises = 1", "maxRaises = -1"), "file.game:8: maxRaises values must not be negative"),
        (lambda t: t.replace("numBoardCards = 0", "numBoardCards = -1"), "file.game:12: numBoardCards must be non-negative"),
        (lambda t: t.replace("numHoleCards = 1", "numHoleCards = 2"), "file.game: the deck has 3 cards"),  # no one line
    ],
)
def test_a_value_the_rules_refuse_names_its_line(edit, message) -> None:
    """These said only 'file.game: a blind is larger than its stack', whatever the file's length."""
    with pytest.raises(GameDefError) as caught:
        parse_gamedef(edit(KUHN), source="file.game")
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("numHoleCards = 1", "numHoleCard = 1"),
         "file.game: missing required numHoleCards; line 11 ('numHoleCard = 1') names no key: did you mean 'numHoleCards'?"),
        (lambda t: t.replace("numRounds = 1", "Players: two\nnum_rounds = 1"),
         "file.game: missing required numRounds; line 5 ('num_rounds = 1') names no key: did you mean 'numRounds'?"),
        (lambda t: t.replace("limit", "no-limit"),
         "file.game: missing required raiseSize (one value per round); line 2 ('no-limit') names no key: did you mean 'nolimit'?"),
        (lambda t: t.replace("numBoardCards = 0\n", "a note\n"), "file.game: missing required numBoardCards (one value per round)$"),
    ],
)
def test_a_missing_key_names_the_line_that_misspelt_it(edit, message) -> None:
    """'numHoleCard = 2' is no key (the reference ignores it too), so the file said only 'missing
    required numHoleCards', naming no line, where the key looked written."""
    text = edit(KUHN.replace("raiseSize = 1\n", "")) if "raiseSize" in message else edit(KUHN)
    with pytest.raises(GameDefError) as caught:
        parse_gamedef(text, source="file.game")
    assert re.fullmatch(re.escape(message.rstrip("$")), str(caught.value)), str(caught.value)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("blind = 1 1", "blind = 1 1 1"), "file.game:5: blind has 3 values but the game has 2 positions"),
        (lambda t: t.replace("maxRaises = 1", "maxRaises = 1 1"), "file.game:8: maxRaises has 2 values but the game has 1 rounds"),
        (lambda t: t.replace("numBoardCards = 0", "numBoardCards = 0 0"), "file.game:12: numBoardCards has 2 values"),
        (lambda t: t.replace("blind = 1 1", "blind = 1 1\nstack = 5"), "file.game:6: stack has 1 value but"),
    ],
)
def test_a_list_of_the_wrong_length_names_the_file_once(edit, message) -> None:
    """These were 'file.game: file.game:5: blind has ...' (the file named twice)."""
    with pytest.raises(GameDefError) as caught:
        parse_gamedef(edit(KUHN), source="file.game")
    assert str(caught.value).startswith(message)


def test_a_file_far_too_large_for_a_game_is_refused_unread(tmp_path) -> None:
    """A 12 MB file of comments was read and parsed whole (4 s, 290 MB) to say it names no game."""
    path = tmp_path / "huge.game"
    path.write_text(KUHN + "# a comment\n" * 10_000)
    with pytest.raises(GameDefError, match=r"huge.game: over 64 KiB: not a .game file"):
        load_gamedef(path)


def test_unreadable_file_is_a_gamedef_error(tmp_path) -> None:
    with pytest.raises(GameDefError, match="cannot read game file"):
        load_gamedef(tmp_path / "missing.game")


@st.composite
def gamedefs(draw) -> GameDef:
    players = draw(st.integers(2, 10))
    rounds = draw(st.integers(1, 4))
    nolimit = draw(st.booleans())
    suits = draw(st.integers(1, 4))
    ranks = draw(st.integers(1, 13))
    hole = draw(st.integers(1, 3))
    board = tuple(draw(st.integers(0, 3)) for _ in range(rounds))
    if players * hole + sum(board) > suits * ranks or hole + sum(board) > 7:
        suits, ranks, hole, board = 4, 13, 1, (0,) * rounds
    blind = tuple(draw(st.integers(0, 50)) for _ in range(players))
    stack = tuple(draw(st.integers(100, 10**6)) for _ in range(players)) if nolimit or draw(st.booleans()) else (2**31 - 1,) * players
    return GameDef(
        betting=Betting.NOLIMIT if nolimit else Betting.LIMIT,
        num_players=players,
        num_rounds=rounds,
        stack=stack,
        blind=blind,
        raise_size=() if nolimit else tuple(draw(st.integers(1, 100)) for _ in range(rounds)),
        first_player=tuple(draw(st.integers(0, players - 1)) for _ in range(rounds)),
        max_raises=tuple(draw(st.integers(0, 255)) for _ in range(rounds)),
        num_suits=suits,
        num_ranks=ranks,
        num_hole_cards=hole,
        num_board_cards=board,
    )


@given(gamedefs())
def test_format_then_parse_is_identity(game: GameDef) -> None:
    assert parse_gamedef(format_gamedef(game)) == game


def test_name_is_not_part_of_equality() -> None:
    g = get_game("kuhn")
    assert dataclasses.replace(g, name="other") == g


@pytest.mark.parametrize("path", REFERENCE_GAMES, ids=lambda p: p.name)
def test_the_shipped_game_files_say_what_the_reference_files_say(path) -> None:
    """Ours carry a comment first; every other line (the stack lines included, where the reference
    has them: the 3-player Kuhn file has none, its stacks are unlimited) is the reference's."""
    ours = Path(showdown.games.__file__).parent / "data" / path.name

    def lines(p: Path) -> list[str]:
        return [line.strip() for line in p.read_text().splitlines() if line.strip() and not line.startswith("#")]

    assert lines(ours) == lines(path)


def test_a_nolimit_game_with_the_reference_default_stacks_written_out_reads_back(tmp_path) -> None:
    """'stack = 2147483647 ...' in a no-limit file was left out of the file written next to the logs,
    which then said 'a no-limit game needs stacks' to verify-log, view and analyze."""
    text = KUHN.replace("limit\n", "nolimit\nstack = 2147483647 2147483647\n", 1).replace("raiseSize = 1\n", "")
    game = parse_gamedef(text)
    assert parse_gamedef(format_gamedef(game)) == game


@pytest.mark.parametrize("kind", ["folder", "pipe"])
def test_a_game_path_that_is_a_folder_or_a_pipe_is_one_line_at_once(tmp_path, kind) -> None:
    """A FIFO named as a .game waited for ever for a writer; a folder was 'unknown game ... or a path'."""
    path = tmp_path / "x.game"
    path.mkdir() if kind == "folder" else os.mkfifo(path)
    for read in (load_gamedef, get_game):
        with pytest.raises(GameDefError, match=rf"x.game: a {kind}, not a .game file"):
            read(str(path))


def test_a_byte_order_mark_does_not_hide_the_first_key(tmp_path) -> None:
    path = tmp_path / "bom.game"
    path.write_bytes(b"\xef\xbb\xbf" + KUHN.removeprefix("GAMEDEF\n").encode())
    assert load_gamedef(path) == get_game("kuhn")


@pytest.mark.parametrize(("old", "line"), [("maxRaises", 8), ("numPlayers", 3), ("END GAMEDEF", 13), ("limit", 2)])
def test_an_indented_key_is_refused_with_its_line(old: str, line: int) -> None:
    """The reference ignores an indented line, and so did we: '  maxRaises = 1' made raises unlimited
    without a word, and an indented numPlayers was 'missing required numPlayers'."""
    text = KUHN.replace(old, "  " + old, 1)
    indented = text.splitlines()[line - 1]
    with pytest.raises(GameDefError) as caught:
        parse_gamedef(text, source="file.game")
    assert str(caught.value) == (f"file.game:{line}: {indented!r} is indented; game files take keys at the start of "
                                 "the line (the reference dealer ignores indented lines): remove the indent")


@given(gamedefs(), st.data())
def test_indenting_any_key_line_is_refused_and_indented_notes_are_not(game: GameDef, data: st.DataObject) -> None:
    lines = format_gamedef(game).splitlines()
    number = data.draw(st.integers(1, len(lines)), label="line")
    indent = data.draw(st.text(" \t", min_size=1, max_size=4), label="indent")
    indented = [*lines[: number - 1], indent + lines[number - 1], *lines[number:]]
    with pytest.raises(GameDefError, match=rf"^<string>:{number}: .* is indented"):
        parse_gamedef("\n".join(indented))
    notes = [f"{indent}# a comment", indent, f"{indent}a note that names no key"]
    assert parse_gamedef("\n".join([*notes, *lines])) == game

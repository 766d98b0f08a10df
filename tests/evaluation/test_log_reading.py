"""``evaluation.log_reading``: a game given for logs must be the game they name."""

from __future__ import annotations

import pytest

from showdown.errors import ShowdownError
from showdown.evaluation.log_reading import read_logs
from showdown.games.catalog import get_game
from tests.conftest import DATA

KUHN_LOG = DATA / "kuhn.limit.2p.1000h.seed0.log"


@pytest.mark.parametrize("wrong", ["leduc", "holdem-nolimit", "kuhn-4"])
def test_a_game_other_than_the_logs_is_refused(wrong: str) -> None:
    # Kuhn's hands read as another game's gave figures that meant nothing, exit 0
    with pytest.raises(ShowdownError, match=f"is a log of 'kuhn', not {wrong}: drop --game"):
        read_logs([KUHN_LOG], game=get_game(wrong))


def test_the_logs_own_game_given_again_is_read() -> None:
    assert read_logs([KUHN_LOG], game=get_game("kuhn")).table.hands == 1000


def test_the_same_match_read_twice_is_refused(tmp_path) -> None:
    """A log joined with itself, or a copy given beside it, counted every hand twice (2,000 hands
    of kuhn, the intervals too narrow by 1.4), exit 0."""
    text = KUHN_LOG.read_text()
    joined = tmp_path / "joined.log"
    joined.write_text(text + text)
    with pytest.raises(ShowdownError, match=r"joined.log:\d+: hands 0 to 31 are those at .*joined.log:\d+ again: the same match read twice"):
        read_logs([joined])
    copy = tmp_path / "copy.log"
    copy.write_text(text)
    with pytest.raises(ShowdownError, match=r"copy.log:\d+: hands 0 to 31 are those at .*kuhn.limit.2p.1000h.seed0.log:\d+ again"):
        read_logs([KUHN_LOG, copy])
    tail = tmp_path / "tail.log"  # its first five hands written again at the end
    lines = text.splitlines(keepends=True)
    tail.write_text("".join(lines + [line for line in lines if line.startswith("STATE:")][:5]))
    with pytest.raises(ShowdownError, match="hands 0 to 4 are those at"):
        read_logs([tail])


def test_two_matches_joined_or_given_together_are_read(tmp_path) -> None:
    """Two matches of the same game (another seed: some hands alike, as Kuhn has six deals) are pooled."""
    other = DATA / "kuhn.limit.2p.fixed_seats.log"
    assert read_logs([KUHN_LOG, other]).table.hands == 1000 + read_logs([other]).table.hands
    joined = tmp_path / "joined.log"
    joined.write_text(KUHN_LOG.read_text() + other.read_text())
    assert read_logs([joined]).table.hands == 1000 + read_logs([other]).table.hands


def test_two_names_that_are_not_utf8_in_different_ways_stay_two_players(tmp_path) -> None:
    """Both names were decoded to 'A\ufffd' and analyze pooled two players' hands as one."""
    lines = KUHN_LOG.read_bytes().splitlines(keepends=True)
    first, second = tmp_path / "a.log", tmp_path / "b.log"
    first.write_bytes(b"".join(lines[:104]).replace(b"Alice", b"A\xff"))
    second.write_bytes(b"".join(lines[:4] + lines[204:304]).replace(b"Alice", b"A\xfe"))
    assert sorted(read_logs([first, second]).table.names) == ["A\\xfe", "A\\xff", "Bob"]


def test_a_reference_log_moved_with_its_game_file_finds_the_game_beside_it(tmp_path) -> None:
    """The reference dealer's header holds the game's path where the match was played
    ('/home/them/games/short.game'): the log copied elsewhere with that file beside it was refused
    ('neither a catalog game nor a file next to the log'), though the file was next to it."""
    from showdown.games.gamedef import format_gamedef
    from showdown.interchange.phh_files import export_phh

    game = get_game(str(DATA / "holdem.nolimit.3p.short_stacks.game"))
    (tmp_path / "short.game").write_text(format_gamedef(game))
    log = tmp_path / "m.log"
    log.write_text("# name/game/hands/seed m /home/them/games/short.game 1 0\n"
                     "STATE:0:fcc/cc/cc/cc:2c3c|4c5c|6c7c/8c9cTh/Jd/Qh:0|0|0:a|b|c\n")  # fmt: skip
    assert read_logs([log], game=None).game == game
    assert export_phh(log, tmp_path).hands == 1 and (tmp_path / "m.phhs").exists()


def test_a_tournaments_results_file_is_passed_over_not_read_as_a_bad_hand(tmp_path) -> None:
    """`analyze out/results.json` said "bad hand record '{'" (a tournament's results are no log)."""
    for name in ("results.json", "results.txt", "report.html"):
        (tmp_path / name).write_text('{\n "agents": []\n}\n')
        with pytest.raises(ShowdownError, match=r"no log files among .*: results, settings and bot output are passed over"):
            read_logs([str(tmp_path / name)])

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

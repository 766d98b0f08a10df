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

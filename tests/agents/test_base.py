"""The agent interface's values: what a ``View`` refuses."""

from __future__ import annotations

import pytest

from showdown.agents.base import View
from showdown.errors import ShowdownError
from showdown.games.catalog import get_game
from showdown.games.dealing import CardDealer
from showdown.games.state import State


@pytest.mark.parametrize("position", [2, -1, True, "0"])
def test_a_view_of_a_position_the_game_has_not_is_refused(position: object) -> None:
    leduc = get_game("leduc")
    state = State.initial(leduc, *CardDealer(leduc, 1).deal())
    # position 2 of a 2-player game gave a View with no cards; -1 the last player's
    with pytest.raises(ShowdownError, match=r"^View.of: position is 0 to 1 in leduc"):
        View.of(state, position, 0)  # type: ignore[arg-type]


def test_a_bot_without_act_says_which_method_to_define() -> None:
    from showdown.agents import Agent

    class Misnamed(Agent):
        def action(self, view: object) -> None:  # the newcomer's typo: not act
            return None

    with pytest.raises(NotImplementedError, match=r"Misnamed has no act\(self, view\) method"):
        Misnamed().act(None)  # type: ignore[arg-type]

"""The environments' action indices: what ``ActionMap`` refuses."""

from __future__ import annotations

import math

import numpy as np
import pytest

from showdown.env.encoding import ActionMap
from showdown.games.catalog import get_game


@pytest.mark.parametrize("fractions", [("x",), (-1.0,), (0.0,), (math.nan,), (math.inf,), (True,), [0.5, 1.0]])
def test_raise_fractions_that_are_no_pot_fractions_are_refused_at_once(fractions: object) -> None:
    # "x" failed at the first raise ('x' * pot), -1 and 0 made a raise index never legal, nan failed mid-episode
    with pytest.raises(ValueError, match=r"^fractions: expected pot fractions above 0"):
        ActionMap(get_game("holdem-nolimit"), fractions)  # type: ignore[arg-type]


def test_numpy_fractions_are_pot_fractions() -> None:
    actions = ActionMap(get_game("holdem-nolimit"), tuple(np.array([0.5, 1.0])))
    assert actions.names() == ["fold", "call", "raise 0.5 pot", "raise 1 pot", "all in"]

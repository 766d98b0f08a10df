"""An exact raise size given to ``step`` is a whole number of chips (both environments)."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402

import showdown.env  # noqa: E402
from showdown.errors import IllegalActionError  # noqa: E402
from showdown.games.state import Action, ActionKind  # noqa: E402


@pytest.mark.parametrize("size", [300.5, float("nan"), True, "300"])
def test_a_raise_to_a_fraction_of_a_chip_is_refused_not_played(size: object) -> None:
    raw = showdown.env.raw_env("holdem-nolimit")
    raw.reset(seed=0)
    with pytest.raises(IllegalActionError, match="whole number of chips"):
        raw.step(Action(ActionKind.RAISE, size))  # type: ignore[arg-type]
    assert raw.state is not None and raw.state.betting == ""  # (it was played: 'r300.5', 300.5 chips in)
    wrapped = showdown.env.env("holdem-nolimit")
    wrapped.reset(seed=0)
    wrapped.step(Action(ActionKind.RAISE, size))  # type: ignore[arg-type]
    assert wrapped.rewards == {"player_0": 0.0, "player_1": -1.0}  # an illegal action's penalty
    solo = showdown.env.SingleAgentEnv("holdem-nolimit", opponents=["call"], position=1)
    solo.reset(seed=0)
    with pytest.raises(IllegalActionError, match="whole number of chips"):
        solo.step(Action(ActionKind.RAISE, size))  # type: ignore[arg-type]


def test_a_whole_size_as_a_float_or_numpy_integer_is_that_many_chips() -> None:
    raw = showdown.env.raw_env("holdem-nolimit")
    raw.reset(seed=0)
    raw.step(Action(ActionKind.RAISE, 300.0))  # type: ignore[arg-type]
    raw.step(Action(ActionKind.RAISE, np.int64(900)))  # type: ignore[arg-type]
    assert raw.state is not None and raw.state.betting == "r300r900"
    assert all(type(s) is int for s in raw.state.spent)

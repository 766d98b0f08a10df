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


def test_a_seed_that_fits_deals_as_the_dealer_and_a_larger_one_is_digested_to_32_bits() -> None:
    from showdown.env.encoding import dealing_seed
    from showdown.games.dealing import MAX_SEED

    assert [dealing_seed(s) for s in (0, 7, MAX_SEED)] == [0, 7, MAX_SEED]  # the dealer's own seed
    big = [dealing_seed(s) for s in (MAX_SEED + 1, 2**40, 2**127 + 5, np.uint64(2**63))]
    assert all(0 <= s <= MAX_SEED for s in big) and len(set(big)) == 4  # not masked: 2**32 does not deal as 0
    assert dealing_seed(2**40) == dealing_seed(2**40)
    for bad in (-1, 1.5, "3", True):
        with pytest.raises(ValueError, match=r"^reset\(seed=\.\.\.\): expected a non-negative integer"):
            dealing_seed(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [2**32, 2**40, 2**127])
def test_both_environments_take_the_large_seeds_gymnasium_allows_and_replay_them(seed: int) -> None:
    from showdown.env.aec import raw_env
    from showdown.env.single import SingleAgentEnv

    single = SingleAgentEnv("leduc", opponents=["random"])
    first = single.reset(seed=seed)[0]["observation"]
    assert np.array_equal(single.reset(seed=seed)[0]["observation"], first)  # the same hand again, opponents reseeded too
    aec = raw_env("leduc")
    aec.reset(seed=seed)
    deal = (aec.state.hole, aec.state.board)  # type: ignore[union-attr]
    aec.reset(seed=seed)
    assert (aec.state.hole, aec.state.board) == deal  # type: ignore[union-attr]

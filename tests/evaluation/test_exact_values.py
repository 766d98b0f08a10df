"""Exact values of a multiplayer match from its seat arrangements."""

from __future__ import annotations

import pytest

from showdown.evaluation.exact_values import exact_values
from showdown.games.catalog import get_game
from showdown.solvers.kuhn3p_family import kuhn3p_equilibrium
from showdown.solvers.multiplayer import build_ntree, expected_values
from showdown.solvers.strategy import ntree_sigma, uniform_strategy


def test_one_arrangement_is_the_profile_value() -> None:
    game = get_game("kuhn3p")
    eq = kuhn3p_equilibrium()
    got = exact_values(game, [eq, eq, eq], {(0, 1, 2): 7})
    assert got.hands == 7
    assert got.positions == pytest.approx((-1 / 48, -1 / 48, 1 / 24))
    assert got.seats == pytest.approx(got.positions)


def test_arrangements_are_weighted_by_their_hands() -> None:
    game = get_game("kuhn3p")
    tree = build_ntree(game)
    eq, uni = kuhn3p_equilibrium(), uniform_strategy(game)
    # seat 0 plays uniform, seats 1 and 2 the equilibrium; two rotations, 1 and 3 hands
    got = exact_values(game, [uni, eq, eq], {(0, 1, 2): 1, (2, 0, 1): 3})
    first = ntree_sigma(tree, eq)
    rows0 = tree.infoset_player == 0
    first[rows0] = ntree_sigma(tree, uni)[rows0]
    second = ntree_sigma(tree, eq)
    rows1 = tree.infoset_player == 1
    second[rows1] = ntree_sigma(tree, uni)[rows1]
    a, b = expected_values(tree, first), expected_values(tree, second)
    assert got.seats[0] == pytest.approx((a[0] + 3 * b[1]) / 4)
    assert got.positions[2] == pytest.approx((a[2] + 3 * b[2]) / 4)
    assert sum(got.seats) == pytest.approx(0.0, abs=1e-12)

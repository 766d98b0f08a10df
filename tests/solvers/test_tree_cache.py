"""The hold'em betting trees kept on disk: read back equal to the built ones, rebuilt when damaged."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from showdown.games.catalog import get_game
from showdown.solvers.betting import BetSizing, BettingTree, build_tree, default_sizing
from showdown.solvers.tree_cache import betting_tree, tree_file

FIELDS = ("kind", "player", "round", "depth", "spent", "children")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SHOWDOWN_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def assert_same(a: BettingTree, b: BettingTree) -> None:
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert a.actions == b.actions and a.bettings == b.bettings
    assert a.levels == b.levels and a.by_betting == b.by_betting
    assert a.game == b.game and a.sizing == b.sizing


@pytest.mark.parametrize("game_name", ["holdem-nolimit", "holdem-limit"])
def test_a_tree_read_back_is_the_built_tree_in_every_field(cache: Path, game_name: str) -> None:
    game = get_game(game_name)
    built = build_tree(game)
    first = betting_tree(game)  # built and kept
    path = tree_file(game, None)
    assert path is not None and path.is_file() and path.parent == cache / "trees"
    again = betting_tree(game)  # read back
    assert_same(built, first)
    assert_same(built, again)
    assert list((cache / "trees").iterdir()) == [path]  # no temporary file left behind


def test_the_key_follows_the_game_and_the_sizes(cache: Path) -> None:
    nolimit, limit = get_game("holdem-nolimit"), get_game("holdem-limit")
    other = BetSizing(((0.5, 1.0),), 2)
    names = {tree_file(nolimit, None), tree_file(nolimit, other), tree_file(limit, None)}
    assert len(names) == 3
    assert tree_file(nolimit, default_sizing()) == tree_file(nolimit, None)  # build_tree's default
    assert tree_file(limit, other) == tree_file(limit, None)  # sizes mean nothing in limit


def test_a_damaged_file_is_rebuilt_and_replaced(cache: Path) -> None:
    game = get_game("holdem-limit")
    built = betting_tree(game)
    path = tree_file(game, None)
    assert path is not None
    good = path.read_bytes()
    for junk in (b"", b"not a tree", good[: len(good) // 2]):
        path.write_bytes(junk)
        assert_same(built, betting_tree(game))
        assert path.read_bytes() == good


def test_small_trees_are_not_kept_and_an_unusable_cache_only_costs_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHOWDOWN_CACHE", str(tmp_path / "cache"))
    leduc = get_game("leduc")
    assert_same(build_tree(leduc), betting_tree(leduc))
    assert not (tmp_path / "cache" / "trees").exists() or not any((tmp_path / "cache" / "trees").iterdir())
    blocker = tmp_path / "a file"
    blocker.write_text("")
    monkeypatch.setenv("SHOWDOWN_CACHE", str(blocker))  # the cache folder cannot be made
    game = get_game("holdem-limit")
    assert tree_file(game, None) is None
    assert_same(build_tree(game), betting_tree(game))


def test_only_the_newest_trees_are_kept(cache: Path) -> None:
    import os

    from showdown.solvers.tree_cache import KEPT_FILES

    folder = cache / "trees"
    folder.mkdir(parents=True)
    for i in range(KEPT_FILES + 3):
        stale = folder / f"stale{i}.npz"
        stale.write_bytes(b"x")
        os.utime(stale, (1_000_000 + i, 1_000_000 + i))
    game = get_game("holdem-limit")
    betting_tree(game)
    left = sorted(p.name for p in folder.iterdir())
    assert len(left) == KEPT_FILES and tree_file(game, None).name in left  # type: ignore[union-attr]
    assert "stale0.npz" not in left and f"stale{KEPT_FILES + 2}.npz" in left

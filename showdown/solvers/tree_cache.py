"""Hold'em's abstract betting trees, kept on disk between runs.

``betting.build_tree`` walks the rules engine node by node: the shipped no-limit tree (94,566 nodes)
takes about 2 s, paid by every process that loads a hold'em strategy (each ``cfr`` agent of each
match, LBR's workers, the scorecard's and the probes' matches). Read back from its arrays it takes a
few hundredths of that. The file's key covers all the tree depends on: the game definition, the
raise sizes, and the source of the modules that build it; a damaged or unreadable file is rebuilt
and replaced, and a cache that cannot be written is passed over (the tree is built every time, as
before). Small trees (Leduc's, Kuhn's) are built: that is quicker than a file.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from showdown.errors import ConfigError
from showdown.games.gamedef import GameDef, format_gamedef
from showdown.games.state import CALL, FOLD, RAISE, Action, ActionKind
from showdown.solvers.betting import BetSizing, BettingTree, build_tree, default_sizing, tree_of

__all__ = ["CACHED_FROM_NODES", "betting_tree", "tree_file"]

CACHED_FROM_NODES = 10_000
"""Trees of at least this many nodes are kept on disk (hold'em's); smaller ones build faster than they load."""

KEPT_FILES = 8
"""Trees kept at most (the newest): each change of the code that builds them keys new files."""

FORMAT = 1
_ARRAYS = ("kind", "player", "round", "depth", "spent", "children", "action_kind", "action_size", "bettings")
_SOURCES = ("betting.py", "../games/state.py", "../games/gamedef.py")
_COMMON = {(a.kind, a.size): a for a in (FOLD, CALL, RAISE)}


def betting_tree(game: GameDef, sizing: BetSizing | None = None) -> BettingTree:
    """``build_tree(game, sizing)``, read from the cache when an earlier run kept it."""
    sizing = _sizing(game, sizing)
    path = tree_file(game, sizing)
    if path is not None and path.is_file():
        tree = _read(path, game, sizing)
        if tree is not None:
            return tree
    tree = build_tree(game, sizing)
    if path is not None and tree.num_nodes >= CACHED_FROM_NODES:
        _write(path, tree)
    return tree


def tree_file(game: GameDef, sizing: BetSizing | None) -> Path | None:
    """The cache file of this tree, or None when there is no usable cache folder."""
    from showdown.cache import cache_dir

    key = hashlib.sha256()
    key.update(f"{FORMAT}\n{format_gamedef(game)}\n".encode())
    sizing = _sizing(game, sizing)
    key.update(json.dumps(sizing.to_json() if sizing is not None else None, sort_keys=True).encode())
    here = Path(__file__).resolve().parent
    for name in _SOURCES:
        try:
            key.update((here / name).read_bytes())
        except OSError:  # installed without sources: the package's version stands in
            from showdown import __version__

            key.update(__version__.encode())
    try:
        return cache_dir("trees") / f"{key.hexdigest()[:24]}.npz"
    except (OSError, ConfigError):  # no cache folder to be had: the tree is built, as without a cache
        return None


def _sizing(game: GameDef, sizing: BetSizing | None) -> BetSizing | None:
    """The sizes the tree is built with: ``build_tree``'s default in no-limit, none in limit."""
    if not game.is_nolimit:
        return None
    return default_sizing() if sizing is None else sizing


def _write(path: Path, tree: BettingTree) -> None:
    n, width = tree.children.shape
    action_kind = np.full((n, width), -1, dtype=np.int8)
    action_size = np.zeros((n, width), dtype=np.int64)
    for i, acts in enumerate(tree.actions):
        for j, a in enumerate(acts):
            action_kind[i, j] = int(a.kind)
            action_size[i, j] = a.size
    bettings = np.frombuffer("\n".join(tree.bettings).encode(), dtype=np.uint8)
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    try:
        np.savez(tmp, kind=tree.kind, player=tree.player, round=tree.round, depth=tree.depth, spent=tree.spent,
                 children=tree.children, action_kind=action_kind, action_size=action_size, bettings=bettings)
        tmp.replace(path)  # whole or not at all: another process may be reading it
        kept = sorted(path.parent.glob("*.npz"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[KEPT_FILES:]:
            old.unlink(missing_ok=True)
    except OSError:
        tmp.unlink(missing_ok=True)


def _read(path: Path, game: GameDef, sizing: BetSizing | None) -> BettingTree | None:
    from showdown.solvers.npz import load_npz, read_errors

    try:
        with load_npz(path) as data:
            arrays = {k: data[k] for k in _ARRAYS}
        bettings = arrays["bettings"].tobytes().decode().split("\n")
        kinds, sizes, children = arrays["action_kind"], arrays["action_size"], arrays["children"]
        n = len(arrays["kind"])
        if not (len(bettings) == n == len(kinds) == len(sizes) == len(children) == len(arrays["spent"])):
            return None
        actions = _actions(kinds, sizes)
    except read_errors():  # (a UnicodeDecodeError is a ValueError)
        return None
    return tree_of(game, sizing, arrays["kind"], arrays["player"], arrays["round"],
                   arrays["depth"], arrays["spent"], children, actions, bettings)


def _actions(kinds: np.ndarray, sizes: np.ndarray) -> list[tuple[Action, ...]]:
    """Each node's actions from their kinds (-1: no action) and sizes; nodes with the same actions
    share one tuple (a tree has a few thousand distinct rows among its nodes)."""
    table = np.ascontiguousarray(np.concatenate([kinds.astype(np.int64), sizes], axis=1))
    width = kinds.shape[1]
    keys = table.view(np.dtype((np.void, table.dtype.itemsize * table.shape[1]))).reshape(-1)
    _, first, which = np.unique(keys, return_index=True, return_inverse=True)
    made: list[tuple[Action, ...]] = []
    for row in table[first].tolist():
        acts = []
        for k, size in zip(row[:width], row[width:], strict=True):
            if k < 0:
                break
            kind = ActionKind(k)
            acts.append(_COMMON.get((kind, size)) or Action(kind, size))
        made.append(tuple(acts))
    return [made[i] for i in which.reshape(-1).tolist()]

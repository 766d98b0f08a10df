"""Strategies: information-set key -> probabilities of the legal actions; the strategy file format.

The information-set key (``showdown.games.infoset``, re-exported here) is what solvers, strategy
files and agents agree on, e.g. ``"Ks:/cr"`` (Kuhn) or ``"Qh:Kh/rrc/r"`` (Leduc).

A ``Strategy`` maps keys to ``{action: probability}`` over the legal actions there (``"f"``, ``"c"``,
``"r"``; no-limit raises as ``"r<total>"``); a profile is one ``Strategy`` holding both players'
information sets. Files, version 1:

* JSON (``.json``, small games)::

      {"format": "showdown-strategy", "version": 1, "game": "kuhn", "gamedef": "<.game text>",
       "infosets": {"Ks:/": {"c": 1.0, "r": 0.0}, ...}}

* compressed numpy (``.npz``, large games): ``meta`` (the JSON above without ``infosets``, as a
  string), ``keys`` (str, one per information set), ``offsets`` (int64, keys + 1; the actions of key i
  are entries ``offsets[i]:offsets[i+1]``), ``actions`` (str) and ``probs`` (float64).

Both round-trip exactly (floats are written with full precision). Loading validates: the format
and version, every key against the game's tree (unknown keys and illegal actions are errors),
probabilities finite, non-negative and summing to 1 within ``ROUNDING_TOLERANCE``; a ``StrategyError``
names the offending key. A set that sums to 1 only within that rounding (probabilities written to three
decimals by hand, or float32 output of another tool: 0.333, 0.333, 0.333) is rescaled to sum to 1, so
that values and best responses computed from it are those of a distribution.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np

from showdown.errors import GameDefError, SolverError
from showdown.games.gamedef import GameDef, format_gamedef, how_games_differ, parse_gamedef
from showdown.games.infoset import card_key_text, cards_key_text, infoset_key, state_infoset_key
from showdown.games.state import Action, parse_action
from showdown.solvers.npz import load_npz, read_error_text, read_errors

if TYPE_CHECKING:
    from showdown.solvers.ntree import NTree
    from showdown.solvers.tree import GameTree

FORMAT_NAME = "showdown-strategy"
FORMAT_VERSION = 1
PROB_TOLERANCE = 1e-9
"""Sums within this of 1 are kept as they are (a solver's own output)."""
ROUNDING_TOLERANCE = 2e-3
"""Sums within this of 1 are accepted and rescaled (probabilities rounded to three decimals)."""

Profile = list[np.ndarray]
"""Behavioural strategies as arrays: one ``(boards, hands, actions)`` array per decision node of the tree."""


class StrategyError(SolverError):
    """A strategy or strategy file is malformed; the message names the information set."""


class Uniform(Protocol):
    """What sampling an action needs: ``random()``, a float uniform in [0, 1) (a numpy
    ``Generator``, or the agents' per-hand ``HandRandom``)."""

    def random(self) -> float: ...


# ---------------------------------------------------------------------- the strategy


class Strategy:
    """Action probabilities per information set of one game (one player's, or a whole profile).

    ``table[key]`` is a dict action-string -> probability in the node's legal-action order. The
    tables are owned by the strategy: treat them as read-only.
    """

    __slots__ = ("game", "table")

    def __init__(self, game: GameDef, table: Mapping[str, Mapping[str, float]], *, validate: bool = True) -> None:
        self.game = game
        self.table: dict[str, dict[str, float]] = {k: {a: float(p) for a, p in v.items()} for k, v in table.items()}
        if validate:
            for key in validate_strategy(self):
                probs = self.table[key]
                total = math.fsum(probs.values())
                self.table[key] = {a: p / total for a, p in probs.items()}

    def __len__(self) -> int:
        return len(self.table)

    def __contains__(self, key: object) -> bool:
        return key in self.table

    def __iter__(self) -> Iterator[str]:
        return iter(self.table)

    def __getitem__(self, key: str) -> dict[str, float]:
        return self.probabilities(key)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Strategy):
            return NotImplemented
        return self.game == other.game and self.table == other.table

    def __repr__(self) -> str:
        return f"Strategy({self.game.name or '?'}, {len(self.table)} information sets)"

    def keys(self) -> list[str]:
        return list(self.table)

    def probabilities(self, key: str) -> dict[str, float]:
        """``{action: probability}`` at ``key``; ``StrategyError`` when the key is missing."""
        try:
            return self.table[key]
        except KeyError:
            raise StrategyError(f"the strategy has no information set {key!r}") from None

    def sample(self, key: str, rng: Uniform) -> str:
        """Draw an action string at ``key`` with the given generator (one uniform draw)."""
        probs = self.probabilities(key)
        u = rng.random()
        total = 0.0
        chosen = ""
        for action, p in probs.items():
            if p > 0.0:
                chosen = action
                total += p
                if u < total:
                    return action
        return chosen  # rounding left u just above the total: the last action with mass

    def sample_action(self, key: str, rng: Uniform) -> Action:
        """``sample`` as an ``Action`` for ``State.apply``."""
        return parse_action(self.sample(key, rng))

    def merged(self, other: Strategy) -> Strategy:
        """This strategy with ``other``'s information sets added (e.g. two players into a profile)."""
        if other.game != self.game:
            raise StrategyError("cannot merge strategies of different games")
        table = dict(self.table)
        table.update(other.table)
        return Strategy(self.game, table, validate=False)

    def for_player(self, player: int) -> Strategy:
        """Only ``player``'s information sets (needs the game's tree)."""
        from showdown.solvers.tree import build_tree

        tree = build_tree(self.game)
        return Strategy(
            self.game, {k: v for k, v in self.table.items() if tree.player_of(k) == player}, validate=False
        )


def validate_strategy(strategy: Strategy, tree: GameTree | None = None) -> list[str]:
    """Raise ``StrategyError`` naming the key for bad probabilities, unknown keys or illegal actions.

    Keys and actions are checked against the game's tree when the tree can be built (games too large
    for the exact solvers get the probability checks only). Returns the keys whose probabilities sum
    to 1 only within ``ROUNDING_TOLERANCE`` (the ones to rescale).
    """
    checker: Any = tree
    if checker is None:
        from showdown.solvers.tree import build_tree

        try:
            if strategy.game.num_players > 2:
                from showdown.solvers.ntree import build_ntree

                checker = build_ntree(strategy.game)
            else:
                checker = build_tree(strategy.game)
        except SolverError:
            checker = None
    tree = checker
    rounded: list[str] = []
    for key, probs in strategy.table.items():
        if tree is not None:
            if key not in tree.key_index:
                raise StrategyError(f"unknown information set {key!r} for game {strategy.game.name or '?'}")
            legal = tree.legal_actions(key)
            for a in probs:
                if a not in legal:
                    raise StrategyError(f"information set {key!r}: action {a!r} is not legal (legal: {', '.join(legal)})")
        if not probs:
            raise StrategyError(f"information set {key!r} has no actions")
        total = 0.0
        for a, p in probs.items():
            if not math.isfinite(p):
                raise StrategyError(f"information set {key!r}: probability of {a!r} is {p}")
            if p < 0.0:
                raise StrategyError(f"information set {key!r}: negative probability {p!r} for {a!r}")
            total += p
        if abs(total - 1.0) > PROB_TOLERANCE:
            if abs(total - 1.0) > ROUNDING_TOLERANCE:
                raise StrategyError(
                    f"information set {key!r}: probabilities sum to {total!r}, not 1 (within {ROUNDING_TOLERANCE:g})"
                )
            rounded.append(key)
    return rounded


def ntree_strategy(tree: NTree, sigma: np.ndarray, players: tuple[int, ...] | None = None) -> Strategy:
    """A ``Strategy`` (keys ``hole:board/betting``) of the given players' information sets of an
    N-player tree (``solvers.ntree``) from its ``(infosets, MAX_ACTIONS)`` array ``sigma``."""
    keep = tree.players if players is None else players
    table: dict[str, dict[str, float]] = {}
    rows = sigma.tolist()
    for i, key in enumerate(tree.infoset_keys):
        if int(tree.infoset_player[i]) in keep:
            acts = tree.actions[int(tree.infoset_node[i])]
            table[key] = dict(zip(acts, rows[i][: len(acts)]))
    return Strategy(tree.game, table, validate=False)


def ntree_sigma(tree: NTree, strategy: Strategy, missing: str = "error") -> np.ndarray:
    """The ``(infosets, MAX_ACTIONS)`` array of ``strategy`` on an N-player tree; information sets it
    lacks are an error (``missing="error"``) or uniform."""
    sigma = tree.uniform()
    table = strategy.table
    for i, key in enumerate(tree.infoset_keys):
        probs = table.get(key)
        if probs is None:
            if missing == "error":
                raise SolverError(f"the strategy has no information set {key!r}")
            continue
        acts = tree.actions[int(tree.infoset_node[i])]
        sigma[i, : len(acts)] = [probs.get(a, 0.0) for a in acts]
    return sigma


def uniform_strategy(game: GameDef) -> Strategy:
    """Every legal action equally likely at every information set of every player."""
    from showdown.solvers.tree import build_tree

    if game.num_players > 2:
        from showdown.solvers.ntree import build_ntree

        ntree = build_ntree(game)
        return ntree_strategy(ntree, ntree.uniform())

    tree = build_tree(game)
    table = {}
    for d in range(tree.num_decision_nodes):
        actions = tree.decision(d).actions
        p = 1.0 / len(actions)
        row = {a: p for a in actions}
        for key in tree.keys_by_node[d]:
            table[key] = dict(row)
    return Strategy(game, table, validate=False)


# ---------------------------------------------------------------------- arrays


def strategy_to_arrays(
    tree: GameTree, strategy: Strategy, *, players: Sequence[int] = (0, 1), missing: Literal["error", "uniform"] = "error"
) -> Profile:
    """Behavioural arrays ``(boards, hands, actions)`` per decision node, from a strategy.

    Nodes of players not in ``players``, and cells no deal can reach (a hand sharing a card with the
    board), are uniform. A missing information set is an error unless ``missing="uniform"``.
    """
    table = strategy.table
    out: Profile = []
    for d in range(tree.num_decision_nodes):
        node = tree.decision(d)
        k = len(node.actions)
        arr = np.full((tree.num_boards[node.round], len(tree.hands), k), 1.0 / k)
        if node.player in players:
            keys = tree.keys_by_node[d]
            uniform = {a: 1.0 / k for a in node.actions}
            rows = []
            for key in keys:
                probs = table.get(key)
                if probs is None:
                    if missing == "error":
                        raise StrategyError(f"the strategy has no information set {key!r}")
                    probs = uniform
                rows.append([probs.get(a, 0.0) for a in node.actions])
            bs, hs = tree.cells[d]
            if rows:
                arr[bs, hs] = rows
        out.append(arr)
    return out


def arrays_to_strategy(tree: GameTree, arrays: Profile, players: Sequence[int] = (0, 1)) -> Strategy:
    """The ``Strategy`` of the given players' decision nodes in ``arrays`` (inverse of ``strategy_to_arrays``)."""
    table: dict[str, dict[str, float]] = {}
    for d in range(tree.num_decision_nodes):
        node = tree.decision(d)
        if node.player not in players:
            continue
        bs, hs = tree.cells[d]
        values = np.asarray(arrays[d])[bs, hs].tolist()
        for key, row in zip(tree.keys_by_node[d], values):
            table[key] = dict(zip(node.actions, row))
    return Strategy(tree.game, table, validate=False)


# ---------------------------------------------------------------------- files


def _meta(strategy: Strategy) -> dict[str, object]:
    from showdown.games.catalog import catalog_name

    name = strategy.game.name or catalog_name(strategy.game) or "custom"
    return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "game": name, "gamedef": format_gamedef(strategy.game)}


def save_strategy(strategy: Strategy, path: str | Path, fmt: Literal["json", "npz"] | None = None) -> Path:
    """Write a strategy file: JSON, or compressed numpy when ``fmt="npz"`` or the name ends in ``.npz``."""
    p = Path(path)
    fmt = fmt or ("npz" if p.suffix == ".npz" else "json")
    meta = _meta(strategy)
    if fmt == "json":
        doc = dict(meta)
        doc["infosets"] = strategy.table
        p.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        return p
    keys = list(strategy.table)
    counts = [len(strategy.table[k]) for k in keys]
    offsets = np.zeros(len(keys) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    actions = [a for k in keys for a in strategy.table[k]]
    probs = np.array([v for k in keys for v in strategy.table[k].values()], dtype=np.float64)
    with p.open("wb") as fh:
        np.savez_compressed(
            fh,
            meta=np.array(json.dumps(meta)),
            keys=np.array(keys, dtype=str),
            offsets=offsets,
            actions=np.array(actions, dtype=str),
            probs=probs,
        )
    return p


def load_strategy(path: str | Path, game: GameDef | None = None) -> Strategy:
    """Read and validate a strategy file (JSON or ``.npz``).

    The game is the one recorded in the file unless ``game`` is given, which must then match it.
    """
    p = Path(path)
    try:
        if p.exists() and not p.is_file() and not p.is_dir():  # /dev/zero, a pipe: read_bytes would never end
            raise StrategyError(f"{p}: not a regular file; a strategy file is a .json or .npz file")
        raw = p.read_bytes()
    except OSError as exc:
        raise StrategyError(f"cannot read strategy file {p}: {exc.strerror or exc}") from None
    meta, table = _read_npz(p) if raw[:2] == b"PK" else _read_json(raw, p)
    if meta.get("format") != FORMAT_NAME:
        raise StrategyError(f"{p}: format is {meta.get('format')!r}, expected {FORMAT_NAME!r}")
    if meta.get("version") != FORMAT_VERSION:
        raise StrategyError(f"{p}: version {meta.get('version')!r} is not supported (this reader knows {FORMAT_VERSION})")
    file_game = _game_of(meta, p)
    if game is None:
        game = file_game
    elif file_game is not None and file_game != game:
        raise StrategyError(f"{p}: the strategy is for game {meta.get('game')!r}, not {game.name or 'the given game'}"
                            + how_games_differ(file_game, game))
    if game is None:
        raise StrategyError(f"{p}: unknown game {meta.get('game')!r}; pass the game definition")
    try:
        return Strategy(game, table)
    except StrategyError as exc:
        raise StrategyError(f"{p}: {exc}") from None


def _read_json(raw: bytes, p: Path) -> tuple[dict[str, object], dict[str, dict[str, float]]]:
    """A JSON strategy file's fields and its table (information set -> action -> probability)."""
    try:
        doc = json.loads(raw.decode("utf-8-sig"), object_pairs_hook=_unique_keys)  # utf-8-sig: Notepad's byte-order mark
    except (UnicodeDecodeError, RecursionError) as exc:  # (arrays nested thousands deep)
        raise StrategyError(f"{p}: not a JSON strategy file ({exc})") from None
    except ValueError as exc:  # json's errors, and int()'s of a number of more than 4,300 digits (Python's limit)
        why = "a number of more than 4,300 digits" if "integer string conversion" in str(exc) else exc
        raise StrategyError(f"{p}: not a JSON strategy file ({why})") from None
    if not isinstance(doc, dict):
        raise StrategyError(f"{p}: a strategy file is a JSON object")
    infosets = doc.get("infosets")
    if not isinstance(infosets, dict) or not all(isinstance(v, dict) for v in infosets.values()):
        raise StrategyError(f"{p}: 'infosets' must map keys to {{action: probability}} objects")
    for key, probs in infosets.items():
        for a, v in probs.items():
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                raise StrategyError(f"{p}: information set {key!r}: probability of {a!r} is not a number")
    return doc, infosets


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object whose keys are each given once: json keeps the last of two silently, another reader the first."""
    doc = dict(pairs)
    if len(doc) < len(pairs):
        raise ValueError(f"{_repeated([k for k, _ in pairs])!r} is given twice in one object")
    return doc


def _repeated(items: Sequence[object]) -> object:
    """The first item of ``items`` that came before (None if none did)."""
    seen: set[object] = set()
    for item in items:
        if item in seen:
            return item
        seen.add(item)
    return None


def _game_of(meta: Mapping[str, object], p: Path) -> GameDef | None:
    name = str(meta.get("game") or "")
    text = meta.get("gamedef")
    from showdown.games.catalog import get_game
    from showdown.games.gamedef import format_gamedef

    if isinstance(text, str):
        try:  # catalog games first: kuhn-N past 13 ranks has no parsable .game text
            known = get_game(name)
            if format_gamedef(known) == text:
                return known
        except GameDefError:
            pass
        try:
            return parse_gamedef(text, source=str(p), name=name)
        except GameDefError as exc:
            raise StrategyError(f"{p}: bad game definition in the file: {exc}") from None
    try:
        return get_game(name)
    except GameDefError:
        return None


def _read_npz(p: Path) -> tuple[dict[str, object], dict[str, dict[str, float]]]:
    try:
        with load_npz(p, expansion=40) as data:  # each float64 becomes a Python float in a dict, ~40 times its bytes
            meta = json.loads(str(data["meta"]))
            keys = data["keys"].tolist()
            offsets = data["offsets"].tolist()
            actions = data["actions"].tolist()
            probs = data["probs"].astype(np.float64).tolist()
    except read_errors() as exc:
        raise StrategyError(f"{p}: not a strategy .npz file ({read_error_text(exc)})") from None
    if not isinstance(meta, dict) or len(offsets) != len(keys) + 1 or offsets[-1] != len(actions) or len(probs) != len(actions):
        raise StrategyError(f"{p}: inconsistent array lengths in the strategy .npz file")
    table = {k: dict(zip(actions[offsets[i] : offsets[i + 1]], probs[offsets[i] : offsets[i + 1]])) for i, k in enumerate(keys)}
    if len(table) < len(keys):
        raise StrategyError(f"{p}: information set {_repeated(keys)!r} is given twice in the strategy .npz file")
    for i, k in enumerate(keys):
        if len(table[k]) < offsets[i + 1] - offsets[i]:
            raise StrategyError(f"{p}: information set {k!r}: action {_repeated(actions[offsets[i] : offsets[i + 1]])!r} "
                                "is given twice in the strategy .npz file")
    return meta, table


__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "PROB_TOLERANCE",
    "ROUNDING_TOLERANCE",
    "Profile",
    "Strategy",
    "StrategyError",
    "arrays_to_strategy",
    "card_key_text",
    "cards_key_text",
    "infoset_key",
    "load_strategy",
    "ntree_sigma",
    "ntree_strategy",
    "save_strategy",
    "state_infoset_key",
    "strategy_to_arrays",
    "uniform_strategy",
    "validate_strategy",
]

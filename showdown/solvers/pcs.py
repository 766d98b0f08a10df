"""Public-chance-sampling CFR+ on an abstract game (Johanson et al. 2012).

One iteration samples a board (all public cards), maps every private holding to its bucket on each
round of that board (the card abstraction), and runs one CFR+ pass per player over the abstract
betting tree, with one vector over all holdings per node: a handful of numpy operations per tree
level, not per history. Information sets are (betting node, bucket of the current round): the card
abstraction may forget earlier rounds' buckets (imperfect recall, as in Waugh et al. 2009, "A
practical use of imperfect recall"). Regrets are floored at zero after each pass (CFR+, Tammelin
2014) and the average strategy is weighted linearly by iteration. With ``exhaustive=True`` every board
is visited each iteration (small games), which makes the run deterministic CFR+ on the abstract game.

The solver's state saves to one ``.npz`` (no pickle) with a JSON header; the agent plays the average
strategy of such a file (``AbstractStrategy``).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from showdown.errors import SolverError
from showdown.games.gamedef import GameDef, format_gamedef, parse_gamedef
from showdown.solvers.abstraction import CardAbstraction, abstraction_from_json
from showdown.solvers.betting import BetSizing, BettingTree
from showdown.solvers.cfr_rules import needs_abstraction
from showdown.solvers.holdings import Holdings, board_strength, game_holdings
from showdown.solvers.npz import RESTORE_ERRORS, counts, load_npz, read_errors, unfit_checkpoint
from showdown.solvers.tree_cache import betting_tree

if TYPE_CHECKING:
    from showdown.solvers.kernels import Board

FORMAT = "showdown-pcs"
VERSION = 1
PreparedBoard = tuple[tuple[int, ...], np.ndarray, "Board"]
"""A sampled board, its buckets (rounds, holdings), and the compiled pass's layout of it."""
__all__ = ["AbstractStrategy", "InfosetLayout", "PCSSolver", "needs_abstraction", "real_strategy", "regret_matching", "run"]


@dataclass(frozen=True, slots=True)
class InfosetLayout:
    """Where each decision node's information sets live: rows ``base[node] + bucket``."""

    base: np.ndarray  # (num_nodes,) first row of each decision node (-1 elsewhere)
    num_infosets: int
    legal: np.ndarray  # (num_infosets, max_actions) bool

    @classmethod
    def of(cls, tree: BettingTree, num_buckets: tuple[int, ...]) -> InfosetLayout:
        base = np.full(tree.num_nodes, -1, dtype=np.int64)
        sizes = np.zeros(tree.num_nodes, dtype=np.int64)
        dec = tree.decision_nodes()
        sizes[dec] = np.array(num_buckets, dtype=np.int64)[tree.round[dec]]
        offsets = np.concatenate([[0], np.cumsum(sizes[dec])])
        base[dec] = offsets[:-1]
        legal = np.repeat(tree.children[dec] >= 0, sizes[dec], axis=0)
        return cls(base, int(offsets[-1]), legal)


def regret_matching(regret: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Strategy proportional to positive regret over the legal actions, uniform where none is positive."""
    out: np.ndarray = np.maximum(regret, 0.0)
    total = out[..., 0].copy()
    for a in range(1, out.shape[-1]):  # column by column: numpy's sum over a short last axis is slower
        total += out[..., a]
    some = total > 0
    out[some] /= total[some, None]
    none = ~some
    out[none] = legal[none] / legal[none].sum(axis=-1, keepdims=True)
    return out


class PCSSolver:
    """CFR+ with public chance sampling over a betting tree x card abstraction."""

    def __init__(
        self,
        game: GameDef,
        abstraction: CardAbstraction,
        sizing: BetSizing | None = None,
        *,
        seed: int = 0,
        exhaustive: bool = False,
    ) -> None:
        if game.num_players != 2:
            raise SolverError("public chance sampling CFR here is for two-player games")
        self.game = game
        self.abstraction = abstraction
        self.tree = betting_tree(game, sizing)
        self.sizing = self.tree.sizing
        self.holdings: Holdings = game_holdings(game)
        self.layout = InfosetLayout.of(self.tree, abstraction.num_buckets)
        n, a = self.layout.num_infosets, self.tree.max_actions
        self.regret = np.zeros((n, a))
        self.average = np.zeros((n, a))
        self.iterations = 0
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.exhaustive = exhaustive
        self.seconds = 0.0
        self._board_cache: dict[tuple[int, ...], PreparedBoard] = {}
        t = self.tree
        self._tree_arrays = (t.children, t.kind, t.player, t.round.astype(np.int64), t.spent, self.layout.base, np.array(abstraction.num_buckets, dtype=np.int64))
        self._cards = np.ascontiguousarray(self.holdings.cards)
        self._depth = int(t.depth.max())

    # ------------------------------------------------------------------ iterations

    def iterate(self, iterations: int = 1) -> None:
        for _ in range(iterations):
            t0 = time.perf_counter()
            self.iterations += 1
            boards = self.abstraction.all_boards() if self.exhaustive else [self.abstraction.sample_board(self.rng)]
            prepared = [self._prepare(b) for b in boards]
            for p in (0, 1):
                if len(prepared) == 1:  # one board: the pass updates the regrets in place
                    self._pass(p, prepared[0], None)
                    continue
                delta = np.zeros_like(self.regret)
                for board in prepared:
                    self._pass(p, board, delta)
                np.maximum(self.regret + delta, 0.0, out=self.regret)
            self.seconds += time.perf_counter() - t0

    def _prepare(self, board: tuple[int, ...]) -> PreparedBoard:
        if self.exhaustive and board in self._board_cache:
            return self._board_cache[board]
        from showdown.solvers.kernels import prepare_board  # numba loads here, not where strategies are only played

        buckets = self.abstraction.buckets(board)
        prepared = (board, buckets, prepare_board(self._cards, board_strength(self.holdings, board), buckets))
        if self.exhaustive:
            self._board_cache[board] = prepared
        return prepared

    def _pass(self, p: int, prepared: PreparedBoard, delta: np.ndarray | None) -> None:
        """One CFR pass for player ``p`` on one board (``showdown.solvers.kernels.pcs_pass``, compiled): regrets
        into ``delta``, or, without one, straight into the regrets, floored at zero (CFR+)."""
        from showdown.solvers.kernels import pcs_pass

        solver = (self.regret, self.layout.legal, self.regret if delta is None else delta, self.average)
        pcs_pass(p, self._tree_arrays, prepared[2], solver, float(self.iterations), self._depth, floor=delta is None)

    def _current_strategy(self) -> np.ndarray:
        return regret_matching(self.regret, self.layout.legal)

    # ------------------------------------------------------------------ results

    def average_strategy(self) -> np.ndarray:
        """The average strategy, one row per information set (uniform where never reached)."""
        return regret_matching(self.average, self.layout.legal)

    def strategy(self) -> AbstractStrategy:
        return AbstractStrategy(self.game, self.abstraction, self.tree, self.layout, self.average_strategy(), self.meta())

    def meta(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": format_gamedef(self.game),
            "game_name": self.game.name,
            "abstraction": self.abstraction.to_json(),
            "sizing": self.sizing.to_json() if self.sizing else None,
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
            "seed": self.seed,
            "exhaustive": self.exhaustive,
        }

    def save_checkpoint(self, path: Path) -> None:
        meta = self.meta() | {"rng": self.rng.bit_generator.state}
        _save(path, meta, regret=self.regret, average=self.average)

    @classmethod
    def load_checkpoint(cls, path: Path) -> PCSSolver:
        meta, arrays = _load(path)
        try:
            solver = cls(
                parse_gamedef(meta["game"], name=meta.get("game_name", "")),
                abstraction_from_json(meta["abstraction"]),
                BetSizing.from_json(meta["sizing"]) if meta.get("sizing") else None,
                seed=int(meta["seed"]),
                exhaustive=bool(meta["exhaustive"]),
            )
            if "regret" not in arrays or arrays["regret"].shape != solver.regret.shape:
                raise SolverError(f"{path}: not a checkpoint of this abstraction (save with --checkpoint)")
            if arrays["average"].shape != solver.average.shape:
                raise ValueError(f"average holds {arrays['average'].shape} values, the abstraction {solver.average.shape}")
            solver.regret = arrays["regret"]
            solver.average = arrays["average"]
            solver.iterations, solver.seconds = counts(meta)
            solver.rng.bit_generator.state = meta["rng"]
            return solver
        except RESTORE_ERRORS as exc:
            raise SolverError(unfit_checkpoint(path, exc)) from None


class AbstractStrategy:
    """The average strategy of a PCS run: action probabilities per (betting node, bucket)."""

    def __init__(
        self,
        game: GameDef,
        abstraction: CardAbstraction,
        tree: BettingTree,
        layout: InfosetLayout,
        probabilities: np.ndarray,
        meta: dict[str, Any],
    ) -> None:
        self.game = game
        self.abstraction = abstraction
        self.tree = tree
        self.layout = layout
        self.probabilities = probabilities
        self.meta = meta
        self._nodes: dict[int, np.ndarray] = {}  # node_table's, by node

    def at(self, node: int, bucket: int) -> np.ndarray:
        """Probabilities of the node's action slots for a holding in ``bucket``."""
        row = self.probabilities[self.layout.base[node] + bucket]
        legal = self.layout.legal[self.layout.base[node] + bucket]
        total = float(row[legal].sum())
        if total <= 0:
            return np.asarray(legal / legal.sum())
        return np.asarray(np.where(legal, row, 0.0) / total)

    def rows(self, node: int, buckets: np.ndarray) -> np.ndarray:
        """``at(node, b)`` for every bucket ``b`` in ``buckets`` at once: an (n, slots) array."""
        rows: np.ndarray = self.node_table(node)[np.asarray(buckets, dtype=np.int64)]
        return rows

    MAX_NODE_TABLES = 4096

    def node_table(self, node: int) -> np.ndarray:
        """``at(node, b)`` for every bucket of the node's round, as a (buckets, slots) array: worked
        out once per node (the same numbers row by row as ``at``), then read by bucket. An evaluator
        asks for a thousand holdings at a node of 50 or 169 buckets."""
        table = self._nodes.get(node)
        if table is None:
            first = int(self.layout.base[node])
            at = np.arange(first, first + self.abstraction.num_buckets[int(self.tree.round[node])])
            legal = self.layout.legal[at]
            row = np.where(legal, self.probabilities[at], 0.0)
            total = row.sum(axis=1, keepdims=True)
            uniform = legal / legal.sum(axis=1, keepdims=True)
            table = np.where(total > 0, row / np.where(total > 0, total, 1.0), uniform)
            table.flags.writeable = False  # shared by every caller
            if len(self._nodes) >= self.MAX_NODE_TABLES:
                self._nodes.clear()
            self._nodes[node] = table
        return table

    def save(self, path: Path) -> Path:
        """Probabilities as 16-bit fixed point (compact: a few MB for hold'em)."""
        q = np.round(self.probabilities * 65535).astype(np.uint16)
        _save(path, self.meta, probabilities=q)
        return path

    @classmethod
    def load(cls, path: Path, game: GameDef | None = None) -> AbstractStrategy:
        """The strategy in ``path``; a file this process has read already (the same size and time)
        is not read again: a worker of a scorecard seats the blueprint in match after match, and
        the strategy is never written to once loaded (its arrays are read-only)."""
        try:
            stat = path.stat()
            key: tuple[Any, ...] | None = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, game)
        except OSError:
            key = None
        kept = _LOADED.get(key) if key is not None else None
        if kept is not None:
            return kept
        strategy = cls._read(path, game)
        if key is not None:
            _LOADED.clear()  # (one file kept: the blueprint of the match being played)
            _LOADED[key] = strategy
        return strategy

    @classmethod
    def _read(cls, path: Path, game: GameDef | None) -> AbstractStrategy:
        meta, arrays = _load(path)
        file_game = parse_gamedef(meta["game"], name=meta.get("game_name", ""))
        if game is not None and file_game != game:
            raise SolverError(f"{path}: the strategy is for game {file_game.name or '?'}, not {game.name or 'this game'}")
        abstraction = abstraction_from_json(meta["abstraction"])
        tree = betting_tree(file_game, BetSizing.from_json(meta["sizing"]) if meta.get("sizing") else None)
        layout = InfosetLayout.of(tree, abstraction.num_buckets)
        if "probabilities" in arrays:
            probs = arrays["probabilities"].astype(float) / 65535
        elif "average" in arrays:
            probs = regret_matching(arrays["average"], layout.legal)
        else:
            raise SolverError(f"{path}: no strategy in the file")
        if probs.shape != layout.legal.shape:
            raise SolverError(f"{path}: the strategy does not fit its abstraction (damaged file?)")
        probs.setflags(write=False)
        return cls(file_game, abstraction, tree, layout, probs, meta)


_LOADED: dict[tuple[Any, ...], AbstractStrategy] = {}
"""The strategy file read last, by path, modification time, size and game (``AbstractStrategy.load``)."""


def _save(path: Path, meta: dict[str, Any], **arrays: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    header = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npz")  # one per writer: two runs may save at once
    np.savez_compressed(tmp, header=header, **arrays)  # type: ignore[arg-type]
    tmp.replace(path)


def _load(path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    try:
        with load_npz(path) as data:
            arrays = {k: data[k] for k in data.files}
    except read_errors() as exc:
        raise SolverError(f"{path}: cannot read a strategy file ({exc})") from None
    try:
        meta = json.loads(arrays.pop("header").tobytes().decode())
    except (KeyError, ValueError):
        raise SolverError(f"{path}: not a showdown abstract strategy (no header)") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise SolverError(f"{path}: not a showdown abstract strategy (format {meta.get('format') if isinstance(meta, dict) else None!r})")
    return meta, arrays


ProgressFn = Callable[[PCSSolver], None]


def run(
    solver: PCSSolver,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    progress: ProgressFn | None = None,
    every: float = 10.0,
    checkpoint: Path | None = None,
) -> PCSSolver:
    """Iterate until a budget is met, calling ``progress`` (and checkpointing) every ``every`` seconds."""
    start = time.perf_counter()
    last = start
    while True:
        if iterations is not None and solver.iterations >= iterations:
            break
        if seconds is not None and time.perf_counter() - start >= seconds:
            break
        solver.iterate()
        now = time.perf_counter()
        if now - last >= every:
            last = now
            if progress:
                progress(solver)
            if checkpoint:
                solver.save_checkpoint(checkpoint)
    if progress:
        progress(solver)
    if checkpoint:
        solver.save_checkpoint(checkpoint)
    return solver


def real_strategy(strategy: AbstractStrategy) -> Any:
    """The abstract strategy as a ``Strategy`` of the real game (small limit games: for exact evaluation)."""
    from showdown.games.cards import parse_cards
    from showdown.solvers.strategy import Strategy, uniform_strategy

    game = strategy.game
    if not game.is_limit:
        raise SolverError("real strategies are written for limit games, whose abstract tree is the real one")
    table: dict[str, dict[str, float]] = {}
    for key in uniform_strategy(game):
        hole_text, rest = key.split(":", 1)
        board_text, betting = rest.split("/", 1)
        node = strategy.tree.node_of_betting(betting)
        if node is None:
            raise SolverError(f"no abstract node for betting {betting!r}")
        hole = parse_cards(hole_text)
        board = parse_cards(board_text) if board_text else ()
        r = int(strategy.tree.round[node])
        probs = strategy.at(node, strategy.abstraction.bucket(hole, board, r))
        table[key] = {str(a): float(probs[i]) for i, a in enumerate(strategy.tree.actions[node])}
    return Strategy(game, table)

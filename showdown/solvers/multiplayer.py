"""Exact CFR and exact evaluation for games of any number of players (3-player Kuhn and Leduc, ...).

The heads-up core (``cfr_core``) works on sequence-form plans of two players; here the game is laid
out for N players in the simplest vectorised form that is still fast on the small multiplayer games:
every deal of the cards (all players' hole cards and the whole board, each deal equally likely) is
one column, every betting sequence one row, and each pass over the tree is a handful of numpy
operations per depth level on ``(nodes of the level, deals)`` arrays (exact CFR's updates run as one
compiled loop over the same arrays: ``showdown.solvers.kernels.exact_cfr_iterations``). An information set is (decision
node, the actor's hole cards, the board visible in its round); it owns one row of the
``(information sets, MAX_ACTIONS)`` regret, strategy and average arrays.

* ``NTree``: the deals, the betting tree (breadth first, a node's children contiguous), the terminal
  payoffs of every player per deal, and the information-set index of every (node, deal).
* ``evaluate``: expected values per player, each player's best-response value against the others'
  fixed strategies (perfect recall makes a backward pass choosing, per information set, the action of
  highest counterfactual value exact), and NashConv = the sum of the players' gains from deviating
  alone (Johanson et al. 2011 call the heads-up half of it exploitability). Compiled
  (``kernels.ntree_evaluation``, ``kernels.ntree_best_response``) once numba is loaded, as it is by exact
  CFR; numpy before that (``numpy_evaluate``, ``numpy_best_response``: also the tests' oracle).
* ``MultiCFRSolver``: CFR (Zinkevich et al. 2007), CFR+ (Tammelin 2014), linear and discounted CFR
  (Brown & Sandholm 2019) and external-sampling Monte Carlo CFR (Lanctot et al. 2009: sampled deals,
  the other players' actions sampled once per information set per update), the same ``Rule`` objects
  as the heads-up ``CFRSolver``, with ``.npz`` checkpoints. In games of more than two players CFR has
  no convergence guarantee to a Nash equilibrium; NashConv measures how close the average gets.

Only limit games whose (nodes x deals) table stays under ``MAX_CELLS`` are accepted (``SolverError``
otherwise, before anything large is built).
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import numpy as np

from showdown.errors import GameDefError, SolverError
from showdown.games.gamedef import GameDef, format_gamedef, how_games_differ, parse_gamedef
from showdown.solvers.cfr_rules import NUMBA_IMPORT_SECONDS
from showdown.solvers.npz import RESTORE_ERRORS, counts, load_npz, read_error_text, read_errors, unfit_checkpoint
from showdown.solvers.ntree import MAX_ACTIONS, NTree, build_ntree, check_multiplayer_solvable, count_deals
from showdown.solvers.strategy import Strategy, ntree_strategy

CHECKPOINT_FORMAT = "showdown-cfr-checkpoint-nplayer"
CHECKPOINT_VERSION = 1
NUMPY_ITERATION_SECONDS = (170e-6, 78e-9)
"""What an exact numpy iteration costs: a fixed part and a part per (node, deal) cell (measured: 3-player Kuhn
178 us, 3-player Leduc 146 ms)."""


def numpy_iterations_before_compiled(tree: NTree) -> int:
    """Exact iterations run in numpy before the compiled update takes over: as many as cost numba's import
    (ski rental, as ``CFRSolver``: at most twice the better start; 3-player Kuhn's default 1,000 never load
    numba). Estimated from the tree's size, not timed, so that where the switch falls depends on the game
    alone: the two updates agree to rounding only, and a run and its resumption must take the same path."""
    fixed, per_cell = NUMPY_ITERATION_SECONDS
    return int(NUMBA_IMPORT_SECONDS / (fixed + per_cell * tree.edge.size))


# ---------------------------------------------------------------------- exact evaluation


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Exact values of a profile: per player the expected chips per hand, the best-response value
    against the others, and the gain from deviating; NashConv is the sum of the gains."""

    values: tuple[float, ...]
    best_response: tuple[float, ...]

    @property
    def gains(self) -> tuple[float, ...]:
        return tuple(max(0.0, b - v) for b, v in zip(self.best_response, self.values))

    @property
    def nash_conv(self) -> float:
        return float(sum(self.gains))


def _compiled() -> bool:
    """Evaluate with ``showdown.solvers.kernels`` once numba is loaded (exact CFR loads it); until then numpy,
    as a fresh process evaluating one profile would spend longer importing numba than evaluating."""
    return "numba" in sys.modules


@cache
def kernel_tree(tree: NTree) -> Any:
    """The tree's arrays as ``showdown.solvers.kernels`` reads them (``NTreeArrays``), built once per tree."""
    terminal_index = np.full(len(tree.betting), -1, dtype=np.int64)
    terminal_index[tree.terminals] = np.arange(len(tree.terminals))
    return (
        tree.parent, tree.actor, tree.first_child, tree.num_children, tree.edge, np.ascontiguousarray(tree.payoff, dtype=np.float64),
        terminal_index, tree._own_path, tree.legal, np.ascontiguousarray(tree.infoset_player, dtype=np.int64),
    )


def expected_values(tree: NTree, sigma: np.ndarray) -> tuple[float, ...]:
    """Each player's expected net chips per hand when all play ``sigma``."""
    prob = tree.edge_probs(sigma)
    return tuple(float(tree.values(prob, p)[0].mean()) for p in tree.players)


def best_response(tree: NTree, sigma: np.ndarray, player: int) -> tuple[float, np.ndarray]:
    """``player``'s best-response value (chips per hand) against the others' ``sigma``, and that
    best response as a pure strategy (a copy of ``sigma`` with ``player``'s rows one-hot).

    Backward: at the player's nodes each information set takes the action whose children's values,
    weighted by the others' reach, sum highest (ties: the first legal action); compiled
    (``kernels.ntree_best_response``) once numba is loaded.
    """
    if _compiled():
        from showdown.solvers.kernels import ntree_best_response

        choice = np.array(sigma, dtype=np.float64)
        return float(ntree_best_response(player, kernel_tree(tree), np.ascontiguousarray(sigma, dtype=np.float64), choice)), choice
    return numpy_best_response(tree, sigma, player)


def numpy_best_response(tree: NTree, sigma: np.ndarray, player: int) -> tuple[float, np.ndarray]:
    """``best_response`` in numpy, level by level: before numba is loaded, and the tests' oracle of the compiled one."""
    prob = tree.edge_probs(sigma)
    opp = tree.others_reach(prob, player)
    value = np.empty_like(prob)
    value[tree.terminals] = tree.payoff[player]
    choice = sigma.copy()
    width = tree.num_infosets * MAX_ACTIONS
    for lo, hi in reversed(tree.levels[:-1]):
        dec = tree._decisions_at(lo, hi)
        if not len(dec):
            continue
        own = dec[tree.actor[dec] == player]
        if len(own):
            kids = np.concatenate([np.arange(f, f + k) for f, k in zip(tree.first_child[own], tree.num_children[own])])
            q = value[kids] * opp[kids]
            totals = np.bincount(tree.edge[kids].ravel(), weights=q.ravel(), minlength=width).reshape(-1, MAX_ACTIONS)
            rows = np.flatnonzero(np.bincount(tree.iset[own].ravel()))  # distinct, sorted (np.unique would import numpy.ma)
            best = np.where(tree.legal[rows], totals[rows], -np.inf).argmax(axis=1)
            choice[rows] = 0.0
            choice[rows, best] = 1.0
            prob[kids] = choice.reshape(-1)[tree.edge[kids]]
        value[dec] = tree._sum_children(value, prob, dec)
    return float(value[0].mean()), choice


def evaluate(tree: NTree, sigma: np.ndarray) -> Evaluation:
    """Values, best-response values and NashConv of the profile ``sigma``."""
    if _compiled():
        from showdown.solvers.kernels import ntree_evaluation

        values, best = np.zeros(len(tree.players)), np.zeros(len(tree.players))
        ntree_evaluation(kernel_tree(tree), np.ascontiguousarray(sigma, dtype=np.float64), values, best)
        return Evaluation(tuple(values.tolist()), tuple(best.tolist()))
    return numpy_evaluate(tree, sigma)


def numpy_evaluate(tree: NTree, sigma: np.ndarray) -> Evaluation:
    """``evaluate`` in numpy: before numba is loaded, and the tests' oracle of the compiled one."""
    values = expected_values(tree, sigma)
    br = tuple(numpy_best_response(tree, sigma, p)[0] for p in tree.players)
    return Evaluation(values, br)


def nash_conv(tree: NTree, sigma: np.ndarray) -> float:
    """The sum over players of what each gains by best-responding alone (0 exactly at a Nash equilibrium)."""
    return evaluate(tree, sigma).nash_conv


# ---------------------------------------------------------------------- CFR


def regret_matching(regrets: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Strategy proportional to positive regrets; uniform over the legal actions where none is positive."""
    pos = np.where(legal, np.maximum(regrets, 0.0), 0.0)
    total = pos.sum(axis=1, keepdims=True)
    uniform = legal / legal.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: np.ndarray = np.where(total > 0.0, pos / np.where(total > 0.0, total, 1.0), uniform)
    return out


class MultiCFRSolver:
    """One CFR run on an N-player game; the same interface as the heads-up ``CFRSolver``.

    ``iterate(n)`` runs ``n`` iterations; with alternating updates each iteration updates the players
    one after the other, each against the others' newest strategies. The answer is the average
    strategy; ``exploitability()`` is its NashConv (chips per hand).
    """

    def __init__(self, game: GameDef | NTree, rule: Any, *, seed: int | None = 0, batch: int | None = None) -> None:
        self.tree = game if isinstance(game, NTree) else NTree(game)
        self.game: GameDef = self.tree.game
        self.rule = rule
        self.batch = batch if batch is not None else (16 if rule.sampling != "none" else 1)
        if self.batch < 1:
            raise SolverError(f"batch must be at least 1 (got {self.batch})")
        if rule.sampling == "chance":
            raise SolverError("chance-sampling CFR ('cs') is heads-up only; use 'es' for sampling in multiplayer games")
        self.seed = seed
        self.iterations = 0
        self.seconds = 0.0
        shape = (self.tree.num_infosets, MAX_ACTIONS)
        self.regrets = np.zeros(shape)
        self.average_sums = np.zeros(shape)
        self._sigma = regret_matching(self.regrets, self.tree.legal)
        self._row_cache: dict[tuple[int, ...], np.ndarray] = {}
        self.numpy_until = numpy_iterations_before_compiled(self.tree)
        """Exact iterations up to this count run in numpy, later ones compiled (0: compiled from the first)."""

    @cached_property
    def rng(self) -> np.random.Generator:
        """The sampled variants' random stream, made on first use: exact runs never draw, and do not import numpy.random."""
        return np.random.Generator(np.random.PCG64(self.seed))

    @property
    def num_players(self) -> int:
        return self.tree.num_players

    def iterate(self, n: int = 1) -> None:
        start = time.perf_counter()
        if self.rule.sampling == "none":  # exact: numpy, then the compiled update (showdown.solvers.kernels)
            in_numpy = min(n, max(0, self.numpy_until - self.iterations))
            self._numpy_iterations(in_numpy)
            if n > in_numpy:
                self._exact_iterations(n - in_numpy)
                self.iterations += n - in_numpy
        else:
            self._numpy_iterations(n)
        self.seconds += time.perf_counter() - start

    def _numpy_iterations(self, n: int) -> None:
        """Iterations by ``_step`` (numpy): the sampled variants, small exact solves, and the tests' oracle of the
        compiled ones."""
        for _ in range(n):
            self.iterations += 1
            if self.rule.alternating:
                for p in self.tree.players:
                    self._step((p,))
            else:
                self._step(self.tree.players)

    def _exact_iterations(self, n: int) -> None:
        from showdown.solvers.cfr_rules import kernel_rule
        from showdown.solvers.kernels import exact_cfr_iterations  # numba loads here, not where strategies are played

        tree, rule = self.tree, self.rule
        players = len(tree.players)
        groups = np.eye(players, dtype=np.bool_) if rule.alternating else np.ones((1, players), dtype=np.bool_)
        exact_cfr_iterations(n, self.iterations, groups, kernel_rule(rule), kernel_tree(tree), self.regrets, self.average_sums, self._sigma)

    def _sample_others(self, players: tuple[int, ...]) -> np.ndarray:
        """The current strategy with the other players' rows replaced by one sampled action each."""
        sigma = self._sigma.copy()
        rows = self._rows(tuple(p for p in self.tree.players if p not in players))
        cum = np.cumsum(sigma[rows], axis=1)
        u = self.rng.random((len(rows), 1))
        pick = np.minimum((u >= cum).sum(axis=1), MAX_ACTIONS - 1)
        sigma[rows] = 0.0
        sigma[rows, pick] = 1.0
        return sigma

    def _step(self, players: tuple[int, ...]) -> None:
        """One update of ``players`` (one, or all at once): counterfactual regrets, then strategies."""
        tree = self.tree
        rule = self.rule
        width = tree.num_infosets * MAX_ACTIONS
        inst = np.zeros(width)
        if rule.sampling == "external":
            cols: np.ndarray | slice = self.rng.integers(0, tree.num_deals, self.batch)
            sigma = self._sample_others(players)
            scale = tree.num_deals / self.batch
        else:
            cols, sigma, scale = slice(None), self._sigma, 1.0
        prob = tree.edge_probs(sigma, cols)
        for p in players:
            opp = tree.others_reach(prob, p)
            value = tree.values(prob, p, cols)
            dec, kids, pos = tree.player_edges(p)
            # The others' reach into a child equals theirs into its parent: the edge is p's own.
            gain = (value[kids] - value[dec][pos]) * opp[kids]
            edges = tree.edge[kids] if isinstance(cols, slice) else tree.edge[kids][:, cols]
            inst += np.bincount(edges.ravel(), weights=gain.ravel(), minlength=width)
        rows = self._rows(players)
        t = self.iterations
        r = self.regrets
        r[rows] += scale * inst.reshape(r.shape)[rows]
        if rule.alpha is not None and rule.beta is not None:
            ta, tb = t**rule.alpha, t**rule.beta
            pos_f, neg_f = ta / (ta + 1.0), tb / (tb + 1.0)
            r[rows] *= np.where(r[rows] > 0.0, pos_f, neg_f)
        if rule.plus:
            np.maximum(r, 0.0, out=r)
        # The average strategy: own reach (the same for every deal of an information set) times sigma.
        own = self._own_reach(rows)
        s = self.average_sums
        s[rows] += own[:, None] * self._sigma[rows]
        if rule.gamma is not None:
            s[rows] *= (t / (t + 1.0)) ** rule.gamma
        self._sigma[rows] = regret_matching(r[rows], tree.legal[rows])

    def _rows(self, players: tuple[int, ...]) -> np.ndarray:
        """The information-set rows of ``players`` (cached)."""
        rows = self._row_cache.get(players)
        if rows is None:
            rows = self._row_cache[players] = np.flatnonzero(np.isin(self.tree.infoset_player, players))
        return rows

    def _own_reach(self, rows: np.ndarray) -> np.ndarray:
        """Each chosen information set's own reach probability under the current strategy."""
        flat = np.append(self._sigma.reshape(-1), 1.0)
        out: np.ndarray = flat[self.tree._own_path[rows]].prod(axis=1)
        return out

    # ------------------------------------------------------------------ results

    def current_sigma(self) -> np.ndarray:
        return self._sigma.copy()

    def average_sigma(self) -> np.ndarray:
        s = self.average_sums
        total = s.sum(axis=1, keepdims=True)
        uniform = self.tree.uniform()
        with np.errstate(invalid="ignore", divide="ignore"):
            out: np.ndarray = np.where(total > 0.0, s / np.where(total > 0.0, total, 1.0), uniform)
        return out

    def measure(self, sigma: np.ndarray) -> float:
        """NashConv of ``sigma`` (what ``train`` records as the curve)."""
        return nash_conv(self.tree, sigma)

    def strategy_of(self, sigma: np.ndarray) -> Strategy:
        return ntree_strategy(self.tree, sigma)

    def average_strategy(self) -> Strategy:
        return ntree_strategy(self.tree, self.average_sigma())

    def current_strategy(self) -> Strategy:
        return ntree_strategy(self.tree, self._sigma)

    def exploitability(self) -> float:
        """NashConv of the average strategy, chips per hand."""
        return self.measure(self.average_sigma())

    def average_values(self) -> tuple[float, ...]:
        """Each position's expected chips per hand under the average strategy."""
        return expected_values(self.tree, self.average_sigma())

    def average_value(self) -> float:
        """Position 0's expected chips per hand under the average strategy."""
        return self.average_values()[0]

    # ------------------------------------------------------------------ checkpoints

    def save(self, path: str | Path, extra: dict[str, Any] | None = None) -> Path:
        """Write the whole state to an ``.npz`` checkpoint (atomically: beside it, then renamed)."""
        from showdown.solvers.cfr_rules import checkpoint_meta

        p = Path(path)
        meta = checkpoint_meta(self, CHECKPOINT_FORMAT, CHECKPOINT_VERSION, extra)
        meta["infosets"] = list(self.tree.infoset_keys)
        tmp = p.with_name(f"{p.name}.{os.getpid()}.tmp")  # one per writer: two runs may save at once
        with tmp.open("wb") as fh:
            np.savez_compressed(fh, meta=np.array(json.dumps(meta)), regrets=self.regrets, average=self.average_sums)
        os.replace(tmp, p)
        return p

    @classmethod
    def load(cls, path: str | Path, game: GameDef | None = None) -> tuple[MultiCFRSolver, dict[str, Any]]:
        """A solver restored from ``save``'s checkpoint, and the ``extra`` data stored with it."""
        from showdown.solvers.cfr_rules import Rule, checkpoint_game

        p = Path(path)
        try:
            with load_npz(p) as data:
                meta = json.loads(str(data["meta"]))
                regrets, average = data["regrets"], data["average"]
        except read_errors() as exc:
            raise SolverError(f"{p}: not a CFR checkpoint ({read_error_text(exc)})") from None
        if not isinstance(meta, dict) or meta.get("format") != CHECKPOINT_FORMAT or meta.get("version") != CHECKPOINT_VERSION:
            raise SolverError(f"{p}: not a multiplayer CFR checkpoint of version {CHECKPOINT_VERSION}")
        text = str(meta.get("gamedef", ""))
        if game is not None and format_gamedef(game) != text:
            raise SolverError(f"{p}: the checkpoint is for game {meta.get('game') or '?'}, not {game.name or 'this game'}"
                              + _differ(text, str(meta.get("game") or ""), game))
        if game is None:
            game = checkpoint_game(p, text, str(meta.get("game") or ""))
        try:
            solver = cls(game, Rule(**meta["rule"]), seed=meta.get("seed"), batch=int(meta["batch"]))
            if list(meta.get("infosets", ())) != list(solver.tree.infoset_keys) or regrets.shape != solver.regrets.shape:
                raise ValueError("its information sets do not match the game's tree")
            if average.shape != solver.average_sums.shape:
                raise ValueError(f"average holds {average.shape} values, the tree {solver.average_sums.shape}")
            solver.regrets = regrets.astype(np.float64)
            solver.average_sums = average.astype(np.float64)
            solver.iterations, solver.seconds = counts(meta)
            solver.rng.bit_generator.state = meta["rng"]
            solver._sigma = regret_matching(solver.regrets, solver.tree.legal)
            return solver, dict(meta.get("extra") or {})
        except RESTORE_ERRORS as exc:
            raise SolverError(unfit_checkpoint(p, exc)) from None




__all__ = [
    "Evaluation",
    "MultiCFRSolver",
    "NTree",
    "best_response",
    "build_ntree",
    "check_multiplayer_solvable",
    "count_deals",
    "evaluate",
    "expected_values",
    "nash_conv",
    "regret_matching",
]


def _differ(text: str, name: str, game: GameDef) -> str:
    """How the checkpoint's game (its .game ``text``) differs from ``game`` when both have one name."""
    try:
        return how_games_differ(parse_gamedef(text, name=name), game)
    except GameDefError:
        return ""

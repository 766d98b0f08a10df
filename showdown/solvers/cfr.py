"""Counterfactual regret minimization: vanilla CFR, CFR+, linear CFR, discounted CFR and Monte Carlo CFR.

Every variant is one ``CFRSolver`` with a different ``Rule``; they share one traversal
(``showdown.solvers.cfr_core``): per iteration and player, a forward pass computing realization plans,
the terminal values (exact, or estimated from sampled deals), and a backward pass giving every
sequence's counterfactual value, each a handful of numpy operations per depth level over all private
hands and boards at once. The variants differ only in how the regrets and the average strategy are
updated and weighted:

* ``cfr``: regret matching, uniformly weighted average (Zinkevich et al. 2007);
* ``cfr+``: regret matching+, average weighted by iteration t (Tammelin 2014; Tammelin et al. 2015);
* ``linear``: regrets and average weighted by t (Brown & Sandholm 2019);
* ``dcfr``: positive regrets times t^1.5/(t^1.5+1), negative ones halved, average weighted by t^2
  (Brown & Sandholm 2019);
* ``cs``: chance-sampling Monte Carlo CFR, deals sampled, the opponent's reach exact (Lanctot et al. 2009);
* ``es``: external-sampling Monte Carlo CFR, deals and the opponent's actions sampled (Lanctot et al. 2009).

All update the players alternately (the second against the first's new strategy). The Monte Carlo
variants sample a batch of deals per update (``DEFAULT_BATCHES``; 1 is the papers' algorithm): the
vectorised passes cost the same for one deal as for many, so batches buy variance cheaply.

The average strategy is accumulated from realization plans (own reach times the action probability),
exactly, for the Monte Carlo variants too: only the regrets are sampled. ``train`` runs a solver to a
budget while recording the exploitability curve; ``CFRSolver.save``/``load`` hold the whole state (an
``.npz`` checkpoint) so a run can stop and resume bit for bit.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from showdown.errors import GameDefError, SolverError
from showdown.games.gamedef import GameDef, format_gamedef, how_games_differ, parse_gamedef
from showdown.solvers.cfr_core import FlatTree, flat_tree
from showdown.solvers.cfr_rules import (
    ALGORITHM_NAMES,
    DEFAULT_BATCHES,
    NUMBA_IMPORT_SECONDS,
    RULES,
    Rule,
    checkpoint_game,
    checkpoint_meta,
    kernel_rule,
)
from showdown.solvers.npz import RESTORE_ERRORS, counts, load_npz, read_error_text, read_errors, unfit_checkpoint
from showdown.solvers.strategy import Profile, Strategy, arrays_to_strategy
from showdown.solvers.tree import GameTree, build_tree

CHECKPOINT_FORMAT = "showdown-cfr-checkpoint"
CHECKPOINT_VERSION = 1


def _tree_of(game: GameDef | GameTree) -> GameTree:
    if isinstance(game, GameTree):
        return game
    try:
        return build_tree(game)
    except SolverError as exc:
        # The tree's advice ("a sampling method") does not apply: every variant here needs the tree.
        reason = str(exc).split("; use ")[0]
        if "too large" in reason:
            reason += "; CFR here (its Monte Carlo variants included) works on the whole tree: Kuhn, kuhn-N, Leduc"
        raise SolverError(f"cannot run CFR on {game.name or 'this game'}: {reason}") from None


class CFRSolver:
    """The state of one CFR run: per player, accumulated regrets and average-strategy sums per sequence.

    ``iterate(n)`` runs ``n`` iterations (each updates both players once). The current strategy is
    regret matching on the regrets; the output is the average strategy (``average_strategy``).
    ``seconds`` accumulates the time spent in ``iterate`` (evaluation excluded), across resumes.
    """

    def __init__(self, game: GameDef | GameTree, rule: Rule, *, seed: int | None = 0, batch: int | None = None) -> None:
        if batch is None:
            batch = DEFAULT_BATCHES.get(rule.name, 1)
        if batch < 1:
            raise SolverError(f"batch must be at least 1 (got {batch})")
        self.tree = _tree_of(game)
        self.game: GameDef = self.tree.game
        self.flat: FlatTree = flat_tree(self.tree)
        self.rule = rule
        self.batch = batch
        self.seed = seed
        self.iterations = 0
        self.seconds = 0.0
        lays = self.flat.players
        self._numpy_seconds = 0.0  # spent in numpy iterations that the compiled ones could have run
        # Regrets, average sums, current strategies and realization plans (with their dead slot) of both
        # players, padded to the longer: the attributes below are views of its rows, so that both players'
        # average sums are updated in one operation and the compiled iterations take the rows as they are.
        # Average sums and plans are tuples (their rows are never replaced); a regrets entry replaced from
        # outside is copied into its row before compiled iterations (``_into_state``).
        state = self._state = np.zeros((4, 2, max(lay.num_sequences for lay in lays) + 1))
        self.regrets = [state[0, p, : lay.num_sequences] for p, lay in enumerate(lays)]
        self.average_sums = tuple(state[1, p, : lay.num_sequences] for p, lay in enumerate(lays))
        self._sigma = [state[2, p, : lay.num_sequences] for p, lay in enumerate(lays)]
        self._x = tuple(state[3, p, : lay.num_sequences + 1] for p, lay in enumerate(lays))
        self._sums_and_plans = (state[1], state[3])  # both players' rows, as the iterations update them
        self._refresh()

    @cached_property
    def rng(self) -> np.random.Generator:
        """The sampled variants' random stream, made on first use: exact runs never draw, and do not import numpy.random."""
        return np.random.Generator(np.random.PCG64(self.seed))

    def _refresh(self) -> None:
        """Current strategies and realization plans from the regrets (after creation or loading)."""
        for p, lay in enumerate(self.flat.players):
            lay.regret_matching(self.regrets[p], out=self._sigma[p])  # RM = RM+ on floored regrets
            self._x[p][0] = 1.0
            lay.realization(self._sigma[p], out=self._x[p])

    def _into_state(self) -> np.ndarray:
        """The state array, with any list entry replaced from outside copied into its row (and the list
        holding the row again)."""
        state = self._state
        for k, arrays in ((0, self.regrets), (2, self._sigma)):
            for p in (0, 1):
                if arrays[p].base is not state:
                    view = state[k, p, : len(arrays[p])]
                    view[:] = arrays[p]
                    arrays[p] = view
        return state

    # ------------------------------------------------------------------ iterations

    def iterate(self, n: int = 1) -> None:
        """Run ``n`` iterations: the exact rules on trees with a sequence-form payoff matrix compiled
        (``showdown.solvers.sequence_kernels``) once that pays for numba's import (``NUMBA_IMPORT_SECONDS``),
        everything else with numpy. Both give the same bits, so where the switch falls changes nothing."""
        start = now = time.perf_counter()
        done = 0
        while done < n and not self._compiled_pays():
            self._numpy_iterations(1)
            done += 1
            then, now = now, time.perf_counter()  # one clock reading an iteration
            self._numpy_seconds += now - then
        if done < n:
            self._compiled_iterations(n - done)
            now = time.perf_counter()
        self.seconds += now - start

    def _compiled_pays(self) -> bool:
        """An exact rule on a tree with a payoff matrix, and numba already loaded or worth loading now: the
        numpy iterations have cost as much as its import (ski rental: at most twice the better start)."""
        if self.rule.sampling != "none" or self.flat.payoff is None:
            return False
        return "numba" in sys.modules or self._numpy_seconds >= NUMBA_IMPORT_SECONDS

    def _compiled_iterations(self, n: int) -> None:
        from showdown.solvers.sequence_kernels import sequence_cfr_iterations  # numba loads here, not where strategies are played

        state = self._into_state()
        layouts, payoffs = _kernel_arrays(self.flat)
        sequence_cfr_iterations(n, self.iterations, self.rule.alternating, kernel_rule(self.rule), layouts, payoffs, state[0], state[1], state[2], state[3])
        self.iterations += n

    def _numpy_iterations(self, n: int) -> None:
        """Iterations in numpy: the sampled variants, larger trees, and the tests' oracle of the compiled ones."""
        sums, plans = self._sums_and_plans
        gamma = self.rule.gamma
        for _ in range(n):
            self.iterations += 1
            # Both players' average sums take the realization plans they start the iteration with (an
            # alternating update changes a player's plan only after adding it), in one operation: the
            # plans' dead slots and the padding are 0.
            sums += plans
            if gamma is not None:
                t = self.iterations
                sums *= (t / (t + 1.0)) ** gamma
            if self.rule.alternating:
                for p in (0, 1):
                    self._update(p, self._values(p))
            else:
                values = [self._values(0), self._values(1)]
                for p in (0, 1):
                    self._update(p, values[p])

    def _values(self, p: int) -> tuple[np.ndarray, np.ndarray]:
        """This iteration's (sampled or exact) counterfactual values of ``p``'s sequences and segments."""
        flat = self.flat
        sampling = self.rule.sampling
        if sampling == "none":
            direct = flat.terminal_values(p, self._x[1 - p])
        else:
            ratio = flat.chance_ratio(flat.sample_deals(self.rng, self.batch))
            x_opp = self._x[1 - p] if sampling == "chance" else self._sample_pure(1 - p)
            direct = flat.terminal_values(p, x_opp, ratio)
        return flat.players[p].backward(self._sigma[p], direct)

    def _update(self, p: int, values: tuple[np.ndarray, np.ndarray]) -> None:
        """Add ``p``'s instantaneous regrets (with the rule's discounts), then its new strategy and plan."""
        rule = self.rule
        t = self.iterations
        lay = self.flat.players[p]
        v, vi = values
        r = self.regrets[p]
        r += v
        r -= vi[lay.segment_of]
        if rule.alpha is not None and rule.beta is not None:
            ta, tb = t**rule.alpha, t**rule.beta
            pos, neg = ta / (ta + 1.0), tb / (tb + 1.0)
            if pos == neg:
                r *= pos
            else:
                r *= np.where(r > 0.0, pos, neg)
        if rule.plus:
            np.maximum(r, 0.0, out=r)
        lay.regret_matching(r, nonnegative=rule.plus, out=self._sigma[p])
        lay.realization(self._sigma[p], out=self._x[p])

    def _sample_pure(self, p: int) -> np.ndarray:
        """Mean realization plan of ``batch`` pure strategies drawn independently from ``p``'s current one.

        A pure strategy takes one action at every information set, drawn from the current strategy
        there: for one deal this is exactly external sampling's opponent sample, since a traversal meets
        each information set at most once. Averaging ``batch`` of them (as many as the deals sampled,
        Latin-hypercube stratified) keeps the estimate unbiased and shrinks the variance of the
        opponent's sample.
        """
        lay = self.flat.players[p]
        sig = self._sigma[p]
        k = self.batch
        starts = lay.starts
        last = lay.last_offset  # per segment, its number of actions minus one
        # Latin hypercube draws: at each information set the k uniforms fall one in each of the k strata
        # of [0, 1), in an order shuffled independently per information set. Each column is then an
        # exact pure-strategy sample (uniforms independent across information sets), while the k columns
        # together take every action close to k times its probability.
        n = len(starts)
        strata = self.rng.permuted(np.broadcast_to(np.arange(k), (n, k)), axis=1)
        u = (self.rng.random((n, k)) + strata) / k  # (segments, k), each row a shuffle of the k strata
        offset = np.zeros((n, k), dtype=np.int64)
        cum = np.zeros((n, 1))
        for a in range(lay.max_actions - 1):
            cum = cum + sig[np.minimum(starts + a, len(sig) - 1)][:, None]
            offset += (u >= cum) & (a < last)[:, None]
        chosen = starts[:, None] + offset  # the sequence each of the k strategies takes at every segment
        pure = np.zeros((lay.num_sequences + 1, k))
        pure[chosen, np.arange(k)] = 1.0
        for lv in lay.levels:
            pure[lv.seqs] *= pure[lv.parent]
        x: np.ndarray = pure.mean(axis=1)
        x[-1] = 0.0
        return x

    # ------------------------------------------------------------------ results

    def current_sigma(self) -> tuple[np.ndarray, np.ndarray]:
        """Both players' current (regret-matching) behavioural strategies, per sequence."""
        return self._sigma[0].copy(), self._sigma[1].copy()

    def average_sigma(self) -> tuple[np.ndarray, np.ndarray]:
        """Both players' average behavioural strategies, per sequence (uniform where never reached)."""
        lays = self.flat.players
        return lays[0].normalize(self.average_sums[0]), lays[1].normalize(self.average_sums[1])

    def average_profile(self) -> Profile:
        """The average strategy as ``(boards, hands, actions)`` arrays per decision node."""
        return self.flat.to_profile(self.average_sigma())

    def average_strategy(self) -> Strategy:
        """The average strategy of both players: what CFR converges to."""
        return arrays_to_strategy(self.tree, self.average_profile())

    def current_strategy(self) -> Strategy:
        """The current (last iterate) strategy of both players."""
        return arrays_to_strategy(self.tree, self.flat.to_profile(self.current_sigma()))

    def exploitability(self) -> float:
        """Exploitability of the average strategy in chips per hand (``best_response.exploitability``)."""
        return self.flat.exploitability(self.average_sigma())

    def measure(self, sigma: tuple[np.ndarray, np.ndarray]) -> float:
        """Exploitability of ``sigma`` (what ``train`` records as the curve)."""
        return self.flat.exploitability(sigma)

    def strategy_of(self, sigma: tuple[np.ndarray, np.ndarray]) -> Strategy:
        """The ``Strategy`` of behavioural strategies given per sequence."""
        return arrays_to_strategy(self.tree, self.flat.to_profile(sigma))

    def average_value(self) -> float:
        """Position 0's expected chips per hand when both play the average strategy."""
        return self.flat.expected_value(self.average_sigma())

    def average_values(self) -> tuple[float, ...]:
        """Each position's expected chips per hand under the average strategy."""
        v = self.average_value()
        return (v, -v)

    # ------------------------------------------------------------------ checkpoints

    def save(self, path: str | Path, extra: dict[str, Any] | None = None) -> Path:
        """Write the full state (regrets, average sums, iteration, time, RNG) to an ``.npz`` checkpoint.

        The file is written beside the target and renamed over it, so an interrupted write never
        leaves a truncated checkpoint. ``extra`` (JSON values) is stored with it and returned by ``load``.
        """
        p = Path(path)
        lays = self.flat.players
        meta = checkpoint_meta(self, CHECKPOINT_FORMAT, CHECKPOINT_VERSION, extra)
        meta["sequences"] = [lay.num_sequences for lay in lays]
        arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(meta))}
        for q in (0, 1):
            # Stored in the tree's sequence numbering, which depends on the game only.
            arrays[f"regrets{q}"] = _to_tree_order(self.regrets[q], lays[q].to_tree)
            arrays[f"average{q}"] = _to_tree_order(self.average_sums[q], lays[q].to_tree)
        tmp = p.with_name(f"{p.name}.{os.getpid()}.tmp")  # one per writer: two runs may save at once
        with tmp.open("wb") as fh:
            np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]
        os.replace(tmp, p)
        return p

    @classmethod
    def load(cls, path: str | Path, game: GameDef | None = None) -> tuple[CFRSolver, dict[str, Any]]:
        """A solver restored from a checkpoint, and the ``extra`` data saved with it.

        ``game``, when given, must be the checkpoint's game.
        """
        p = Path(path)
        try:
            with load_npz(p) as data:
                meta = json.loads(str(data["meta"]))
                stored = {k: data[k] for k in ("regrets0", "regrets1", "average0", "average1")}
        except read_errors() as exc:
            raise SolverError(f"{p}: not a CFR checkpoint ({read_error_text(exc)})") from None
        if not isinstance(meta, dict) or meta.get("format") != CHECKPOINT_FORMAT:
            raise SolverError(f"{p}: not a CFR checkpoint")
        if meta.get("version") != CHECKPOINT_VERSION:
            raise SolverError(f"{p}: checkpoint version {meta.get('version')!r} is not supported")
        text = str(meta.get("gamedef", ""))
        if game is not None:
            if format_gamedef(game) != text:
                raise SolverError(f"{p}: the checkpoint is for game {meta.get('game') or '?'}, not {game.name or 'this game'}"
                              + _differ(text, str(meta.get("game") or ""), game))
        else:
            game = checkpoint_game(p, text, str(meta.get("game") or ""))
        try:
            rule = Rule(**meta["rule"])
            solver = cls(game, rule, seed=meta.get("seed"), batch=int(meta["batch"]))
            lays = solver.flat.players
            if list(meta["sequences"]) != [lay.num_sequences for lay in lays]:
                raise ValueError("its sizes do not match the game's tree")
            for q in (0, 1):
                for name, into in ((f"regrets{q}", solver.regrets[q]), (f"average{q}", solver.average_sums[q])):
                    if stored[name].shape != (lays[q].num_sequences,):
                        raise ValueError(f"{name} holds {stored[name].shape} values, the tree {lays[q].num_sequences}")
                    into[:] = stored[name][lays[q].to_tree]
            solver.iterations, solver.seconds = counts(meta)
            solver.rng.bit_generator.state = meta["rng"]
            solver._refresh()
            return solver, dict(meta.get("extra") or {})
        except RESTORE_ERRORS as exc:
            raise SolverError(unfit_checkpoint(p, exc)) from None


@cache
def _kernel_arrays(flat: FlatTree) -> tuple[Any, Any]:
    """Both players' layouts and payoff matrices as ``kernels.sequence_cfr_iterations`` reads them."""
    assert flat.payoff is not None
    layouts, payoffs = [], []
    for lay, pay in zip(flat.players, flat.payoff):
        parent = np.zeros(lay.num_sequences, dtype=np.int64)
        infoset_parent = np.zeros(lay.num_infosets + 1, dtype=np.int64)
        for lv in lay.levels:
            parent[lv.seqs] = lv.parent
            infoset_parent[lv.infosets] = lv.infoset_parent
        starts = np.append(lay.starts, lay.num_sequences).astype(np.int64)
        level_starts = np.array([lv.infosets.start for lv in lay.levels] + [lay.num_infosets + 1], dtype=np.int64)
        single = np.array([lv.single_parent >= 0 for lv in lay.levels], dtype=np.bool_)
        layouts.append((parent, starts, lay.segment_of.astype(np.int64), infoset_parent, level_starts, single))
        payoffs.append((pay.indptr, pay.cols.astype(np.int64), pay.values.astype(np.float64)))
    return tuple(layouts), tuple(payoffs)


def _to_tree_order(values: np.ndarray, to_tree: np.ndarray) -> np.ndarray:
    out = np.zeros(len(to_tree))
    out[to_tree] = values
    return out


# ---------------------------------------------------------------------- the algorithms


def _run(solver: CFRSolver, iterations: int) -> CFRSolver:
    if iterations:
        solver.iterate(iterations)
    return solver


def cfr(game: GameDef | GameTree, iterations: int = 0, *, alternating: bool = True) -> CFRSolver:
    """Vanilla CFR: regret matching on counterfactual regrets, the average strategy weighted by own reach.

    The paper updates both players from the same strategies (``alternating=False``); by default the
    players are updated in turn, the usual practice (as OpenSpiel's ``CFRSolver``), which converges
    several times faster with the same guarantees.

    Zinkevich, Johanson, Bowling and Piccione, "Regret Minimization in Games with Incomplete
    Information", NIPS 2007.
    """
    rule = RULES["cfr"] if alternating else Rule("cfr", alternating=False)
    return _run(CFRSolver(game, rule), iterations)


def cfr_plus(game: GameDef | GameTree, iterations: int = 0) -> CFRSolver:
    """CFR+: regret matching+ (regrets floored at zero), alternating updates, and an average strategy
    that weights iteration t by t.

    Tammelin, "Solving Large Imperfect Information Games Using CFR+", arXiv:1407.5042, 2014; Tammelin,
    Burch, Johanson and Bowling, "Solving Heads-up Limit Texas Hold'em", IJCAI 2015.
    """
    return _run(CFRSolver(game, RULES["cfr+"]), iterations)


def linear_cfr(game: GameDef | GameTree, iterations: int = 0) -> CFRSolver:
    """Linear CFR: iteration t's regrets and its contribution to the average strategy weighted by t
    (DCFR with alpha = beta = gamma = 1), alternating updates.

    Brown and Sandholm, "Solving Imperfect-Information Games via Discounted Regret Minimization", AAAI 2019.
    """
    return _run(CFRSolver(game, RULES["linear"]), iterations)


def discounted_cfr(
    game: GameDef | GameTree, iterations: int = 0, *, alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0
) -> CFRSolver:
    """Discounted CFR (DCFR_{alpha,beta,gamma}): after iteration t, positive accumulated regrets are
    multiplied by t^alpha/(t^alpha+1), negative ones by t^beta/(t^beta+1), and the average strategy's
    contributions by (t/(t+1))^gamma; alternating updates. The paper's recommended 1.5, 0, 2 by default.

    Brown and Sandholm, "Solving Imperfect-Information Games via Discounted Regret Minimization", AAAI 2019.
    """
    rule = Rule("dcfr", alpha=alpha, beta=beta, gamma=gamma)
    return _run(CFRSolver(game, rule), iterations)


def chance_sampling_cfr(
    game: GameDef | GameTree, iterations: int = 0, *, seed: int | None = 0, batch: int = DEFAULT_BATCHES["cs"]
) -> CFRSolver:
    """Chance-sampling Monte Carlo CFR: each player's regrets are updated from sampled deals (board and
    both hands), with the opponent's exact reach; ``batch`` deals per update, averaged (``batch=1`` is
    the paper's algorithm). Alternating updates, regret matching, uniformly weighted average.

    Lanctot, Waugh, Zinkevich and Bowling, "Monte Carlo Sampling for Regret Minimization in Extensive
    Games", NIPS 2009.
    """
    return _run(CFRSolver(game, RULES["cs"], seed=seed, batch=batch), iterations)


def external_sampling_cfr(
    game: GameDef | GameTree, iterations: int = 0, *, seed: int | None = 0, batch: int = DEFAULT_BATCHES["es"]
) -> CFRSolver:
    """External-sampling Monte Carlo CFR: the traverser's regrets are updated from sampled deals and
    sampled opponent actions (one action per opponent information set, drawn from its current
    strategy) while all its own actions are explored; ``batch`` deals per update (``batch=1`` is the
    paper's algorithm). Alternating updates, regret matching, uniformly weighted average.

    Lanctot, Waugh, Zinkevich and Bowling, "Monte Carlo Sampling for Regret Minimization in Extensive
    Games", NIPS 2009.
    """
    return _run(CFRSolver(game, RULES["es"], seed=seed, batch=batch), iterations)


ALGORITHMS: dict[str, Callable[..., CFRSolver]] = {
    "cfr": cfr,
    "cfr+": cfr_plus,
    "linear": linear_cfr,
    "dcfr": discounted_cfr,
    "cs": chance_sampling_cfr,
    "es": external_sampling_cfr,
}


class Solver(Protocol):
    """What ``train`` and the command line need of a solver: heads-up ``CFRSolver`` or ``MultiCFRSolver``."""

    iterations: int
    seconds: float
    game: GameDef
    rule: Rule
    seed: int | None
    batch: int

    def iterate(self, n: int = 1) -> None: ...
    def average_sigma(self) -> Any: ...
    def measure(self, sigma: Any) -> float: ...
    def strategy_of(self, sigma: Any) -> Strategy: ...
    def average_strategy(self) -> Strategy: ...
    def save(self, path: str | Path, extra: dict[str, Any] | None = None) -> Path: ...
    def average_value(self) -> float: ...
    def average_values(self) -> tuple[float, ...]: ...


def make_solver(
    game: GameDef | GameTree, algorithm: str = "cfr+", *, seed: int | None = 0, batch: int | None = None
) -> Solver:
    """A fresh solver for ``algorithm`` (one of ``ALGORITHM_NAMES``); ``SolverError`` for other names.

    Games of more than two players get a ``MultiCFRSolver`` (``showdown.solvers.multiplayer``).
    ``batch`` (Monte Carlo variants) defaults to ``DEFAULT_BATCHES``.
    """
    rule = RULES.get(algorithm)
    if rule is None:
        raise SolverError(f"unknown CFR algorithm {algorithm!r}: choose one of {', '.join(ALGORITHM_NAMES)}")
    if isinstance(game, GameDef) and game.num_players > 2:
        from showdown.solvers.multiplayer import MultiCFRSolver, build_ntree

        return MultiCFRSolver(build_ntree(game), rule, seed=seed, batch=batch)
    return CFRSolver(game, rule, seed=seed, batch=batch)


def load_solver(path: str | Path, game: GameDef | None = None) -> tuple[Solver, dict[str, Any]]:
    """A heads-up or multiplayer solver restored from its checkpoint, and the ``extra`` data saved with it."""
    from showdown.solvers.multiplayer import CHECKPOINT_FORMAT as MULTI_FORMAT
    from showdown.solvers.multiplayer import MultiCFRSolver

    try:
        with load_npz(Path(path)) as data:
            fmt = json.loads(str(data["meta"])).get("format") if "meta" in data else None
    except read_errors() + (AttributeError,) as exc:
        raise SolverError(f"{path}: not a CFR checkpoint ({read_error_text(exc)})") from None
    if fmt == MULTI_FORMAT:
        return MultiCFRSolver.load(path, game)
    return CFRSolver.load(path, game)


__all__ = [
    "ALGORITHMS",
    "ALGORITHM_NAMES",
    "CFRSolver",
    "DEFAULT_BATCHES",
    "RULES",
    "Rule",
    "Solver",
    "cfr",
    "cfr_plus",
    "chance_sampling_cfr",
    "discounted_cfr",
    "external_sampling_cfr",
    "linear_cfr",
    "load_solver",
    "make_solver",
]


def _differ(text: str, name: str, game: GameDef) -> str:
    """How the checkpoint's game (its .game ``text``) differs from ``game`` when both have one name."""
    try:
        return how_games_differ(parse_gamedef(text, name=name), game)
    except GameDefError:
        return ""

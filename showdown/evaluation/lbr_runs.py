"""Runs of local best response (``evaluation.lbr``): hands over several cores, one or several action
sets on the same deals, and the figures with their intervals.

Every hand's cards come from the run's seed and the hand's number alone, so each action set plays
the same deals (their difference is paired) and a run gives the same figures whatever the number
of processes. The headline is the largest of the sets' means; its interval is Bonferroni's over
the sets (each set's interval at level 1 - 0.05 / k), so choosing the best set after the fact keeps
95% coverage of the largest true value. Hands whose winnings show no spread at all (a couple of
hands, or all alike) give no interval (None: null in JSON, n/a in text), not a zero-wide one.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np

from showdown.errors import ShowdownError
from showdown.evaluation.chance import ChanceCorrector
from showdown.evaluation.lbr import DEFAULT_ACTION_SETS, LocalBestResponse, action_set, published_check_until
from showdown.evaluation.lbr_belief import BELIEF_ESTIMATOR
from showdown.evaluation.lbr_terms import ESTIMATOR, RAISE_ANSWERED
from showdown.evaluation.stats import NORMAL_DF
from showdown.evaluation.student import t_quantile
from showdown.games.gamedef import GameDef
from showdown.workers import running_pool, terminate_as_exit

CHUNK = 100
"""Hands per task: results do not depend on how many processes play them (each chunk has its seed)."""


def _interval(values: np.ndarray, level: float) -> tuple[float, tuple[float, float] | None]:
    """The mean and its Student's t interval (the normal's from ``NORMAL_DF`` hands); None when the values
    show no spread (fewer than two, or all equal): their standard error cannot be estimated, and a
    zero-wide interval would claim certainty."""
    m = float(values.mean())
    df = len(values) - 1
    z = NormalDist().inv_cdf(1 - (1 - level) / 2) if df >= NORMAL_DF else t_quantile(float(df), 1 - level)
    sd = float(values.std(ddof=1)) if len(values) > 1 else 0.0
    if not sd > 0.0:
        return m, None
    half = z * sd / math.sqrt(len(values))
    return m, (m - half, m + half)


def _mbb_pair(ci: tuple[float, float] | None, big_blind: int) -> list[float] | None:
    return None if ci is None else [1000.0 * ci[0] / big_blind, 1000.0 * ci[1] / big_blind]


@dataclass(frozen=True, slots=True)
class LBRResult:
    """One action set's winnings per hand (chips), corrected (the cards' luck and the agent's draws out) and plain."""

    actions: str
    corrected: tuple[float, ...] = field(repr=False)
    plain: tuple[float, ...] = field(repr=False)
    seconds: float
    big_blind: int
    description: str = ""

    @property
    def hands(self) -> int:
        return len(self.corrected)

    @property
    def mean(self) -> float:
        return float(np.mean(self.corrected))

    def ci(self, level: float = 0.95) -> tuple[float, float] | None:
        return _interval(np.asarray(self.corrected), level)[1]

    @property
    def ci95(self) -> tuple[float, float] | None:
        return self.ci(0.95)

    def mbb(self, x: float) -> float:
        return 1000.0 * x / self.big_blind

    def to_json(self) -> dict[str, Any]:
        pm, plain_ci = _interval(np.asarray(self.plain), 0.95)
        return {
            "actions": self.actions,
            "sizes": self.description,
            "lbr_mbb": self.mbb(self.mean),
            "ci95_mbb": _mbb_pair(self.ci95, self.big_blind),
            "plain_mbb": self.mbb(pm),
            "plain_ci95_mbb": _mbb_pair(plain_ci, self.big_blind),
            "hands": self.hands,
            "seconds": self.seconds,
        }


@dataclass(frozen=True, slots=True)
class LBRReport:
    """Every action set's result on the same deals, and the largest of them."""

    sets: tuple[LBRResult, ...]
    check_until: int
    seconds: float
    estimator: str = ESTIMATOR[RAISE_ANSWERED]

    @property
    def best(self) -> LBRResult:
        return max(self.sets, key=lambda r: r.mean)

    @property
    def mean(self) -> float:
        return self.best.mean

    @property
    def ci95(self) -> tuple[float, float] | None:
        """95% interval of the largest true value over the sets (Bonferroni over the sets); None when a
        set has none (its true value, maybe the largest, is not bounded)."""
        level = 1 - 0.05 / len(self.sets)
        bounds = [r.ci(level) for r in self.sets]
        if any(b is None for b in bounds):
            return None
        return max(b[0] for b in bounds if b), max(b[1] for b in bounds if b)

    @property
    def hands(self) -> int:
        return self.best.hands

    def setting(self) -> str:
        if self.check_until == 0:
            return "LBR acts in every round (the all-street variant; the published setting in one- and two-round games)"
        return f"published: LBR checks or calls before round {self.check_until} (Lisy and Bowling 2017; PokerRL lbr_check_to_round)"

    def to_json(self) -> dict[str, Any]:
        best = self.best
        return {
            "lbr_mbb": best.mbb(best.mean),
            "ci95_mbb": _mbb_pair(self.ci95, best.big_blind),
            "ci95_method": "Bonferroni over the sets" if len(self.sets) > 1 else "normal",
            "best_set": best.actions,
            "hands": best.hands,
            "seconds": self.seconds,
            "hands_per_s": sum(r.hands for r in self.sets) / self.seconds if self.seconds > 0 else None,
            "estimator": self.estimator,
            "check_until_round": self.check_until,
            "setting": self.setting(),
            "sets": [r.to_json() for r in self.sets],
        }


CHANCE_BOARDS = 1_000
"""Boards drawn for the flop's "before" in LBR's chance corrections: the estimate's noise (at most
0.5 / sqrt(1000) of the pot) is negligible beside the flop's luck it replaces, at a tenth of the
matches' cost (``bench_lbr_variance.py``)."""


def lbr_corrector(game: GameDef) -> ChanceCorrector:
    """The chance corrections of LBR's hands: the matches' (the flop included, its "before" sampled)."""
    return ChanceCorrector(game, sample_boards=True, boards=CHANCE_BOARDS)


def play_hands(lbr: LocalBestResponse, first: int, hands: int, seed: int,
               corrector: ChanceCorrector | None = None) -> tuple[list[float], list[float]]:
    """LBR's winnings in hands ``first`` .. ``first + hands - 1`` (position: the hand's number mod 2),
    plain and corrected: the cards' luck (``corrector``, by default ``lbr_corrector``) and the agent's
    draws (``LocalBestResponse.action_correction``, ``evaluation.lbr_terms``) taken out, both by terms
    of mean zero."""
    corrector = corrector or lbr_corrector(lbr.game)
    rollouts = np.random.default_rng([seed, first, 1])
    deck = np.array(lbr.deck)
    plain: list[float] = []
    corrected: list[float] = []
    for k in range(first, first + hands):
        me = k % 2
        cards = [int(c) for c in np.random.default_rng([seed, k]).permutation(deck)]
        value, final = lbr.play(rollouts, me, cards, hand=k)
        luck = corrector.corrections(final.hole, final.board_by_round(), final.betting)
        plain.append(value)
        corrected.append(value - luck[me] - lbr.action_correction + lbr.hidden_cards)
    return plain, corrected


_Task = tuple[str, str | None, str | None, dict[str, Any], str, int, int, int, int, int]


def _chunk(task: _Task) -> tuple[str, int, list[float], list[float], float]:
    """Play one chunk in a worker process: (set, first hand, plain values, corrected values, seconds)."""
    game_spec, agent_name, strategy_path, options, actions, check_until, first, hands, seed, rollouts = task
    from showdown.games.catalog import get_game

    game = get_game(game_spec)
    start = time.perf_counter()
    agent = _process_agent(game_spec, game, agent_name, strategy_path, options)
    _reseed(agent, seed * 1_000_003 + first)
    lbr = LocalBestResponse(game, agent, rollouts=rollouts, actions=actions, check_until=check_until)
    plain, corrected = play_hands(lbr, first, hands, seed)
    return actions, first, plain, corrected, time.perf_counter() - start


_AGENTS: dict[str, Any] = {}
"""Agents built in this process, by what built them: a chunk reuses its process's agent (a hold'em
strategy takes about a second to load) with its random choices reseeded from the chunk's seed."""


def _process_agent(game_spec: str, game: GameDef, name: str | None, strategy_path: str | None, options: dict[str, Any]) -> Any:
    key = json.dumps([game_spec, name, strategy_path, options], sort_keys=True, default=str)
    agent = _AGENTS.get(key)
    if agent is None:
        _AGENTS.clear()
        agent = _AGENTS[key] = agent_for(game, name, strategy_path, options)
    return agent


def _reseed(agent: Any, seed: int) -> None:
    """Seed the agent's own random choices (mixed strategies, bet sizes, translation) so that a run
    is reproducible from its seed whichever process plays which chunk: its generators of any name,
    and the modules' (a bot's own ``random.random()`` gave other figures at every run of one seed)."""
    from showdown.agents.hand_random import HandRandom

    random.seed(seed)
    np.random.seed(seed % 2**32)  # noqa: NPY002 - a bot's own np.random.random() draws from it
    for k, (name, rng) in enumerate(sorted(getattr(agent, "__dict__", {}).items())):
        if isinstance(rng, HandRandom):  # the built-in agents' (LBR's views are all of hand 0: one stream)
            setattr(agent, name, HandRandom(seed) if name == "rng" else HandRandom(seed * 7919 + k))
        elif isinstance(rng, np.random.Generator):
            setattr(agent, name, np.random.default_rng([seed, 1] if name == "rng" else [seed, 1, k]))
        elif isinstance(rng, random.Random):
            rng.seed(seed if name == "rng" else f"{seed}:{name}")


def agent_for(game: GameDef, name: str | None, strategy_path: str | None, options: dict[str, Any]) -> Any:
    """The agent LBR plays: a built-in by name (with options), or a strategy file's player."""
    if strategy_path is not None:
        from showdown.agents.equilibrium import StrategyAgent
        from showdown.solvers.strategy import load_strategy

        return StrategyAgent(game, load_strategy(strategy_path, game))
    from showdown.agents.registry import make_agent_here

    assert name is not None
    return make_agent_here(name, game, options)


def run_lbr_parallel(
    game_spec: str, *, agent: str | None = None, strategy: str | None = None, options: dict[str, Any] | None = None,
    hands: int, seed: int = 0, jobs: int = 1, rollouts: int = 100, action_sets: Sequence[str] = DEFAULT_ACTION_SETS,
    check_until: int | None = None, progress: Callable[[int, int], None] | None = None,
) -> LBRReport:
    """``hands`` hands of LBR for each action set (limit games: one, the limit raise), in chunks of
    ``CHUNK`` over ``jobs`` processes (1: in this one)."""
    from showdown.games.catalog import get_game

    game = get_game(game_spec)
    opts = dict(options or {})
    sets = ["limit"] if game.is_limit else list(dict.fromkeys(action_set(a).name for a in action_sets))
    until = published_check_until(game) if check_until is None else check_until
    # fail early, and build the agent before the workers fork (they inherit it)
    built = _process_agent(game_spec, game, agent, strategy, opts)
    estimator = ""
    for name in sets:
        lbr = LocalBestResponse(game, built, rollouts=rollouts, actions="fc" if name == "limit" else name, check_until=until)
        estimator = BELIEF_ESTIMATOR if lbr.belief else ESTIMATOR[RAISE_ANSWERED]
    tasks: list[_Task] = [
        (game_spec, agent, strategy, opts, "fc" if name == "limit" else name, until, first, min(CHUNK, hands - first), seed, rollouts)
        for name in sets for first in range(0, hands, CHUNK)
    ]
    got: dict[str, dict[int, tuple[list[float], list[float]]]] = {("fc" if n == "limit" else n): {} for n in sets}
    seconds: dict[str, float] = dict.fromkeys(got, 0.0)
    began = time.perf_counter()
    done = 0
    total = hands * len(sets)

    def take(result: tuple[str, int, list[float], list[float], float]) -> None:
        nonlocal done
        name, first, plain, corrected, spent = result
        got[name][first] = (plain, corrected)
        seconds[name] += spent
        done += len(plain)
        if progress is not None:
            progress(done, total)

    _run_chunks(tasks, jobs, take)
    results = [_result(label, name, got[name], seconds[name], game) for name, label in zip(got, sets)]
    return LBRReport(tuple(results), until, time.perf_counter() - began, estimator)


def _run_chunks(tasks: Sequence[_Task], jobs: int, take: Callable[[Any], None]) -> None:
    """Each chunk in this process (``jobs`` 1) or over a pool of ``jobs`` forked processes."""

    if jobs <= 1:
        for task in tasks:
            take(_chunk(task))
        return
    # (a SIGTERM killed this process at once: each worker then printed two BrokenPipeError tracebacks)
    with terminate_as_exit(), running_pool("fork", min(jobs, len(tasks))) as pool:  # no idle process per surplus job
        for result in pool.imap_unordered(_chunk, tasks):
            take(result)


def _result(label: str, name: str, chunks_by_first: dict[int, tuple[list[float], list[float]]], seconds: float,
            game: GameDef) -> LBRResult:
    """One action set's result from its chunks, in hand order."""
    chunks = [chunks_by_first[first] for first in sorted(chunks_by_first)]
    plain = tuple(v for p, _ in chunks for v in p)
    corrected = tuple(v for _, c in chunks for v in c)
    if not plain:
        raise ShowdownError("LBR played no hands")
    described = "limit raise" if label == "limit" else action_set(name).describe()
    return LBRResult(label, corrected, plain, seconds, max(1, game.big_blind), described)


def run_lbr(
    game: GameDef, make_agent: Callable[[], Any], hands: int, *, seed: int = 0, rollouts: int = 100, actions: str = "fcpa",
    check_until: int | None = None,
) -> LBRResult:
    """``hands`` hands of LBR against ``make_agent()`` in this process, one action set."""
    agent = make_agent()
    _reseed(agent, seed)
    lbr = LocalBestResponse(game, agent, rollouts=rollouts, actions=actions, check_until=check_until)
    start = time.perf_counter()
    plain, corrected = play_hands(lbr, 0, hands, seed)
    return LBRResult(lbr.actions.name, tuple(corrected), tuple(plain), time.perf_counter() - start, max(1, game.big_blind),
                     lbr.actions.describe())


__all__ = ["CHANCE_BOARDS", "CHUNK", "LBRReport", "LBRResult", "agent_for", "lbr_corrector", "play_hands", "run_lbr", "run_lbr_parallel"]

"""A plain match's figures in bounded memory: ``AivatAccumulator`` (and ``MatchStats``) fed hand by
hand give the figures of the batch ``analyze`` and keep their memory flat however many hands."""

from __future__ import annotations

import math
import tracemalloc
from typing import Any

import numpy as np
import pytest
import scipy.stats  # noqa: F401  imported before tracing: a first import is not the match's memory

from showdown.agents.exploiter import agent_strategy
from showdown.evaluation.aivat import AivatEstimator
from showdown.evaluation.aivat_running import AivatAccumulator
from showdown.evaluation.analyze import Analysis, analyze
from showdown.evaluation.hand_table import HandCollector
from showdown.evaluation.stats import Estimate, MatchStats
from showdown.games.catalog import get_game
from showdown.solvers.strategy import Strategy, uniform_strategy
from tests.evaluation.test_aivat import all_hands, simulate

GAME = get_game("kuhn")


def hands(sa: Strategy, sb: Strategy, n: int, seed: int) -> list[tuple[Any, ...]]:
    """``n`` hands of players a and b, seats alternating: (players, hole, board, betting, value of position 0)."""
    even = simulate(GAME, (sa, sb), (n + 1) // 2, seed)
    odd = simulate(GAME, (sb, sa), n // 2, seed + 1)
    out = []
    for h in range(n):
        players = ("a", "b") if h % 2 == 0 else ("b", "a")
        hole, board, betting, v0 = (even if h % 2 == 0 else odd)[h // 2]
        out.append((players, hole, board, betting, v0))
    return out


def sampled(sa: Strategy, sb: Strategy, n: int, seed: int) -> list[tuple[Any, ...]]:
    """Like ``hands`` but drawn from the enumerated outcomes of the profile (fast for many hands)."""
    rng = np.random.default_rng(seed)
    out: list[tuple[Any, ...]] = []
    for k, (players, pos) in enumerate(((("a", "b"), (sa, sb)), (("b", "a"), (sb, sa)))):
        outcomes = all_hands(GAME, pos)
        probs = np.array([o[0] for o in outcomes])
        picks = rng.choice(len(outcomes), size=(n + 1 - k) // 2, p=probs / probs.sum())
        out.append([(players, *outcomes[i][1:]) for i in picks.tolist()])
    return [out[h % 2][h // 2] for h in range(n)]


def liar_of(strategy: Strategy) -> Strategy:
    table = {k: dict(v) for k, v in strategy.table.items()}
    for probs in table.values():
        if len([p for p in probs.values() if p > 0]) == 2:
            first, second = (a for a, p in probs.items() if p > 0)
            probs[first], probs[second] = 0.1, 0.9
    return Strategy(GAME, table)


def feed(sink: Any, played: list[tuple[Any, ...]], replaced_every: int = 0) -> None:
    for h, (players, hole, board, betting, v0) in enumerate(played):
        replaced = (False, True) if replaced_every and h % replaced_every == 0 else None
        sink.add(h, players, (v0, -v0), hole=hole, board=board, betting=betting, replaced=replaced)


def same_estimate(x: Estimate, y: Estimate) -> None:
    assert x.hands == y.hands
    assert x.total == pytest.approx(y.total, rel=1e-9, abs=1e-9)
    assert x.mean == pytest.approx(y.mean, rel=1e-9, abs=1e-12)
    if y.se is None:
        assert x.se is None
    else:
        assert x.se == pytest.approx(y.se, rel=1e-9, abs=1e-12)
        assert (x.se == 0.0) == (y.se == 0.0)  # "exact" stays exact


def same_analysis(x: Analysis, y: Analysis) -> None:
    assert (x.names, x.hands, x.estimator, x.exact, x.known, x.notes) == (y.names, y.hands, y.estimator, y.exact, y.known, y.notes)
    assert x.totals == y.totals
    for a, b in zip(x.agents + x.positions + x.plain_agents + x.plain_positions, y.agents + y.positions + y.plain_agents + y.plain_positions):
        same_estimate(a, b)
    for a, b in zip(x.differences + x.plain_differences, y.differences + y.plain_differences):
        assert (a.a, a.b) == (b.a, b.b)
        same_estimate(a.estimate, b.estimate)
    if y.consistency_p is None:
        assert x.consistency_p is None
    else:
        assert x.consistency_p == pytest.approx(y.consistency_p, rel=1e-6, abs=1e-12)


EQ = agent_strategy("equilibrium", GAME)
UNIFORM = uniform_strategy(GAME)

CASES = {
    # played by a, b; declared for a, b; dealer replaced position 1 every k hands
    "both known: exact": ((UNIFORM, EQ), (UNIFORM, EQ), 0),
    "one known": ((UNIFORM, EQ), (UNIFORM, None), 0),
    "none known: chance only": ((UNIFORM, EQ), (None, None), 0),
    "replaced hands": ((UNIFORM, EQ), (UNIFORM, EQ), 7),
    "frequencies lie": ((liar_of(EQ), EQ), (EQ, EQ), 0),
    "impossible actions": ((UNIFORM, EQ), (EQ, EQ), 0),
}


@pytest.mark.parametrize("case", list(CASES))
def test_online_aivat_gives_the_batch_figures(case: str) -> None:
    played_by, declared, replaced_every = CASES[case]
    played = hands(*played_by, 2000, 3)
    est = AivatEstimator(GAME, declared)
    batch = HandCollector(["a", "b"], 2, encoder=est)
    feed(batch, played, replaced_every)
    expected = analyze(batch.table(), estimator="aivat", aivat=est)
    online = AivatAccumulator(["a", "b"], est, batch=300)  # several batches and a partial one
    feed(online, played, replaced_every)
    got = online.analysis()
    same_analysis(got, expected)
    assert len(online) == 2000


def test_online_figures_do_not_depend_on_the_batch_size() -> None:
    played = hands(UNIFORM, EQ, 1000, 5)
    est = AivatEstimator(GAME, (UNIFORM, None))
    results = []
    for size in (1, 97, 4096):
        acc = AivatAccumulator(["a", "b"], est, batch=size)
        feed(acc, played)
        results.append(acc.analysis())
    for r in results[1:]:
        same_analysis(r, results[0])


def peak_bytes(run: Any) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


N_LONG = 200_000
LIMIT = 5 * 2**20


def test_plain_statistics_memory_is_flat_over_200k_hands() -> None:
    pool = sampled(UNIFORM, EQ, 2000, 11)

    def run() -> None:
        stats = MatchStats(["a", "b"], 1, 2)
        for h in range(N_LONG):
            players, _, _, _, v0 = pool[h % len(pool)]
            stats.add((0, 1) if players[0] == "a" else (1, 0), (v0, -v0))
        assert stats.hands == N_LONG and stats.agents()[0].se is not None

    assert peak_bytes(run) < LIMIT


@pytest.mark.parametrize("declared", [(UNIFORM, EQ), (UNIFORM, None)], ids=["exact", "one-known"])
def test_aivat_memory_is_flat_over_200k_hands(declared: tuple[Any, Any]) -> None:
    pool = sampled(UNIFORM, EQ, N_LONG, 13)  # made before tracing; a repeated short pool would fail the fit test
    out: list[Analysis] = []

    def run() -> None:
        est = AivatEstimator(GAME, declared)
        acc = AivatAccumulator(["a", "b"], est)
        for h in range(N_LONG):
            players, hole, board, betting, v0 = pool[h % len(pool)]
            acc.add(h, players, (v0, -v0), hole=hole, board=board, betting=betting)
        out.append(acc.analysis())

    peak = peak_bytes(run)
    a = out[0]
    assert a.hands == N_LONG and a.estimator == "aivat"
    assert a.known == tuple(n for n, s in zip("ab", declared) if s is not None)
    assert a.exact == all(s is not None for s in declared)
    assert all(e.se is not None and math.isfinite(e.se) for e in a.agents)
    assert peak < LIMIT, f"peak {peak / 2**20:.1f} MiB"

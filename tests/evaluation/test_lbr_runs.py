"""``evaluation.lbr_runs``: LBR's chunks over processes."""

from __future__ import annotations

import multiprocessing

import numpy as np
import pytest

from showdown.evaluation.lbr_runs import CHUNK, run_lbr, run_lbr_parallel
from showdown.games.catalog import get_game


def test_no_more_processes_than_chunks_however_many_jobs_are_asked() -> None:
    seen: list[int] = []
    report = run_lbr_parallel("holdem-limit", agent="call", hands=CHUNK // 10, seed=1, jobs=64,
                              progress=lambda _done, _total: seen.append(len(multiprocessing.active_children())))
    assert report.sets[0].hands == CHUNK // 10
    assert seen and max(seen) <= 1  # one chunk: one worker (64 were forked for it)


def _echo(task: int) -> int:
    return task


def test_a_sigterm_while_the_lbr_pool_runs_stops_it_quietly(monkeypatch) -> None:
    """SIGTERM killed `exploit --lbr` at once and each worker printed two BrokenPipeError tracebacks
    as it found the parent gone; now the pool is stopped and the command says one line, exit 143."""
    import os
    import signal

    import pytest

    from showdown.errors import Terminated
    from showdown.evaluation import lbr_runs

    monkeypatch.setattr(lbr_runs, "_chunk", _echo)
    before = signal.signal(signal.SIGTERM, lambda *_: None)  # without the fix: swallowed, the chunks go on
    try:
        with pytest.raises(Terminated):
            lbr_runs._run_chunks(list(range(50)), 2, lambda _: os.kill(os.getpid(), signal.SIGTERM))
    finally:
        signal.signal(signal.SIGTERM, before)
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("draw", ["module", "attribute"])
def test_a_bots_own_random_draws_are_reproducible_from_the_seed(draw: str) -> None:
    # a bot drawing from random.random() (or a generator of its own name) gave other figures at every run of one seed
    import random as stdlib_random

    from showdown.agents.base import Agent, Policy, View
    from showdown.games.state import Action, ActionKind

    class Mixed(Agent):
        def __init__(self) -> None:
            super().__init__()
            self.gen = np.random.default_rng()

        def policy(self, view: View) -> Policy:
            return {"c": 0.5, "r": 0.5} if view.can_raise() else {"c": 1.0}

        def act(self, view: View) -> Action:
            u = stdlib_random.random() if draw == "module" else float(self.gen.random())
            return Action(ActionKind.RAISE) if view.can_raise() and u < 0.5 else Action(ActionKind.CALL)

    game = get_game("leduc")
    figures = set()
    for _ in range(2):
        stdlib_random.seed()  # whatever state the process is in
        np.random.seed()  # noqa: NPY002
        figures.add(run_lbr(game, Mixed, 60, seed=5).corrected)
    assert len(figures) == 1


def test_hands_that_show_no_spread_give_no_interval_not_a_zero_wide_one(capsys: pytest.CaptureFixture[str]) -> None:
    """`showdown exploit --lbr --agent bluff --game kuhn --hands 2 --seed 1` printed `+0.0 mbb/hand 95% CI
    [+0.0, +0.0]` (two hands whose corrected winnings agreed): certainty from two hands. Now n/a, null in
    --json, for the set, the plain figure and the maximum; hands that vary keep their interval."""
    import argparse
    import json

    from showdown.cli.exploit import lbr_handler
    from showdown.evaluation.lbr_runs import LBRReport, LBRResult

    alike = LBRResult("fcpa", (0.5, 0.5), (-1.0, -1.0), 0.0, 2)
    varied = LBRResult("wide", (0.1, 0.9), (-1.0, 1.0), 0.0, 2)
    assert alike.ci95 is None and varied.ci95 is not None
    doc = LBRReport((alike, varied), 0, 1.0).to_json()
    assert doc["ci95_mbb"] is None and doc["sets"][0]["ci95_mbb"] is None and doc["sets"][0]["plain_ci95_mbb"] is None
    assert LBRReport((varied,), 0, 1.0).to_json()["ci95_mbb"] is not None
    args = argparse.Namespace(game="kuhn", agent="bluff", strategy=None, option=None, hands=2, seed=1, jobs=1, rollouts=100,
                              actions=None, check_until=None, all_streets=False, json=False)
    assert lbr_handler(args) == 0
    text = capsys.readouterr().out
    assert "95% CI n/a" in text and "[+0.0, +0.0]" not in text
    args.json = True
    lbr_handler(args)
    assert json.loads(capsys.readouterr().out)["ci95_mbb"] is None


def test_a_few_hands_interval_uses_students_t() -> None:
    """`showdown exploit --lbr --agent rules --game kuhn --hands 6` gave a normal interval that held LBR's exact
    value (1/6 chip) in 88.5% of 1,000 seeded runs; with Student's t (5 degrees of freedom) 91.4%. The
    Bonferroni level of several sets takes t's quantile at that level too."""
    import math

    from showdown.evaluation.lbr_runs import LBRReport, LBRResult

    values = (0.0, 1.0, 0.0, 1.0, 2.0)
    r = LBRResult("fcpa", values, values, 0.0, 1)
    half = 2.7764451051977934 * float(np.std(values, ddof=1)) / math.sqrt(5)  # t, 4 degrees of freedom
    assert r.ci95 == pytest.approx((0.8 - half, 0.8 + half))
    two = LBRReport((r, LBRResult("wide", values, values, 0.0, 1)), 0, 1.0).ci95
    half2 = 3.4954059325164417 * float(np.std(values, ddof=1)) / math.sqrt(5)  # t, 4 degrees of freedom, 97.5% two-sided
    assert two == pytest.approx((0.8 - half2, 0.8 + half2))

"""CFR run to a budget: iterations, seconds or a target exploitability, with the exploitability
curve checked at growing intervals (``showdown solve cfr``, the ``cfr`` agent's cached solve)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

from showdown.errors import SolverError
from showdown.solvers.cfr import Solver
from showdown.solvers.strategy import Strategy


class CurvePoint(NamedTuple):
    """Exploitability of the average strategy after ``iteration`` iterations and ``seconds`` of solving."""

    iteration: int
    seconds: float
    exploitability: float


class TrainResult(NamedTuple):
    """What ``train`` did: the final average ``strategy`` and its ``exploitability`` (chips per hand);
    ``stopped_by`` is ``iterations``, ``seconds``, ``target`` or ``interrupted``."""

    strategy: Strategy
    exploitability: float
    iterations: int
    seconds: float
    stopped_by: str
    curve: list[CurvePoint]


def train(
    solver: Solver,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    target: float | None = None,
    curve: list[CurvePoint] | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_check: Callable[[CurvePoint, Solver], None] | None = None,
    growth: float = 1.1,
) -> TrainResult:
    """Run ``solver`` until the first budget is met: ``iterations`` (its total count, so a resumed solver
    continues up to it), ``seconds`` of solving in this call, or the average strategy's exploitability
    at most ``target``; ``should_stop()`` (checked after every iteration) ends it early. The result is
    the final average strategy (deterministic for a given number of iterations, resumed or not).

    The exploitability is checked at iteration counts growing by ``growth`` (1, 2, ..., 10, 11, 12, 14,
    ...), after at most a tenth of the time solved so far, and at the end; each check is appended to
    ``curve`` and passed to ``on_check``. Without any budget, ``SolverError``.
    """
    if iterations is None and seconds is None and target is None:
        raise SolverError("give CFR a budget: a number of iterations, seconds, or a target exploitability")
    curve = curve if curve is not None else []
    start_seconds = solver.seconds
    stopped_by = ""
    last_checked = -1
    last_check_time = solver.seconds
    next_check = solver.iterations + 1
    sigma = solver.average_sigma()
    e = math.inf

    def check() -> float:
        nonlocal last_checked, last_check_time, sigma
        sigma = solver.average_sigma()
        value = solver.measure(sigma)
        point = CurvePoint(solver.iterations, solver.seconds, value)
        curve.append(point)
        last_checked, last_check_time = solver.iterations, solver.seconds
        if on_check is not None:
            on_check(point, solver)
        return value

    if solver.iterations > 0:
        e = check()
        if target is not None and e <= target:
            stopped_by = "target"
    while not stopped_by:
        if iterations is not None and solver.iterations >= iterations:
            stopped_by = "iterations"
            break
        if seconds is not None and solver.seconds - start_seconds >= seconds:
            stopped_by = "seconds"
            break
        if should_stop is not None and should_stop():
            stopped_by = "interrupted"
            break
        solver.iterate(1)
        elapsed = solver.seconds
        if solver.iterations >= next_check or elapsed - last_check_time > max(0.5, 0.1 * elapsed):
            e = check()
            next_check = max(solver.iterations + 1, math.floor(solver.iterations * growth))
            if target is not None and e <= target:
                stopped_by = "target"
    if last_checked != solver.iterations:
        e = check()
    strategy = solver.strategy_of(sigma)
    return TrainResult(strategy, e, solver.iterations, solver.seconds, stopped_by, curve)



__all__ = ["CurvePoint", "TrainResult", "train"]

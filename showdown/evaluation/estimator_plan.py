"""Which estimator a match is analysed with, decided before it starts, and the match's figures
under it once its logs are written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from showdown.evaluation.analyze import Analysis, analyze
from showdown.evaluation.hand_table import HandTable
from showdown.evaluation.log_reading import read_logs
from showdown.games.gamedef import GameDef

__all__ = ["EstimatorPlan", "analyze_planned", "choose_estimator", "plan_estimator"]


@dataclass
class EstimatorPlan:
    """The estimator a match will be analysed with, decided before it starts.

    ``aivat`` holds the ``AivatEstimator`` (strategies by seat) when the estimator is ``aivat``.
    """

    estimator: str
    aivat: Any = None
    notes: list[str] = field(default_factory=list)
    reason: str = ""  # why this one: said on the estimator line


SAY_AFTER = 2.0
"""Seconds of building the known strategies after which the user is told what the wait is."""


def plan_estimator(game: GameDef, specs: Sequence[Any], requested: str | None, duplicate: bool,
                   labels: Sequence[str] | None = None, say: Callable[[str], None] | None = None) -> EstimatorPlan:
    """Choose the estimator (``choose_estimator``) and, for ``aivat``, build the known strategies it
    needs. When none of them turns out to be known after all (an agent that cannot be built here,
    a table that is not usable) the best available other estimator is taken, unless ``aivat`` was
    asked for: then it corrects chance only (noted). ``labels`` name the seats in its notes. Building
    them can mean solving the game (an equilibrium of a new ``.game``: minutes); when it takes more than
    ``SAY_AFTER`` seconds, ``say`` is told why nothing happens yet (the runner printed nothing)."""
    import threading

    from showdown.evaluation.aivat import AivatEstimator, known_strategies

    choice = choose_estimator(game, specs, requested, duplicate)
    if choice.estimator != "aivat":
        return choice
    timer = None
    if say is not None:
        timer = threading.Timer(SAY_AFTER, say, [
            f"solving {game.name or 'the game'} for the strategies the AIVAT estimator needs (once: the agents' cache "
            "keeps them; --estimator plain or chance skips this)"])
        timer.daemon = True
        timer.start()
    try:
        strategies, unknown = known_strategies(specs, game, labels)
    finally:
        if timer is not None:
            timer.cancel()
    if not any(s is not None for s in strategies):
        if requested is None:
            fallback, chance_reason = _fallback(game, duplicate)
            return EstimatorPlan(fallback, reason=f"no agent's strategy is known; {chance_reason}")
        return replace(choice, aivat=AivatEstimator(game, strategies), notes=["no agent's strategy is known: AIVAT corrects for chance only"])
    return replace(choice, aivat=AivatEstimator(game, strategies), notes=[f"strategy not used for {n}" for n in unknown])


def choose_estimator(game: GameDef, specs: Sequence[Any], requested: str | None, duplicate: bool) -> EstimatorPlan:
    """The estimator to use, decided without building any agent: ``requested``, or the best available.

    Best: ``aivat`` when the game allows it and an agent's strategy may be known (a built-in agent
    that plays a fixed table, ``aivat.strategy_unknown``), else ``chance`` (the cards' luck taken
    out, ``evaluation.chance``; paired too when the deals are played in duplicate) for 2-player
    games, else ``duplicate`` when the deals are played in duplicate, else ``plain``. A requested
    estimator the match or the game does not allow is a ``ConfigError``."""
    from showdown.errors import ConfigError
    from showdown.evaluation.aivat import strategy_unknown, supports
    from showdown.evaluation.chance import supports as chance_supports

    if requested == "duplicate" and not duplicate:
        raise ConfigError("the duplicate estimator needs the match played in duplicate (--duplicate)")
    if requested == "chance":
        chance_why = chance_supports(game)
        if chance_why is not None:
            raise ConfigError(f"--estimator chance: {chance_why}")
        return EstimatorPlan("chance", reason="as requested")
    if requested in ("plain", "duplicate"):
        return EstimatorPlan(str(requested), reason="as requested")
    fallback, chance_reason = _fallback(game, duplicate)
    why = supports(game)
    if why is not None:
        if requested == "aivat":
            raise ConfigError(f"--estimator aivat: {why}")
        return EstimatorPlan(fallback, reason=f"AIVAT does not apply ({why.split(': ')[0]}); {chance_reason}")
    if requested is None and all(strategy_unknown(s.name, game, s.options) for s in specs):
        return EstimatorPlan(fallback, reason=f"no agent's strategy is known; {chance_reason}")
    return EstimatorPlan("aivat", reason="as requested" if requested == "aivat" else "the best available: a strategy is known")


def _fallback(game: GameDef, duplicate: bool) -> tuple[str, str]:
    """The best estimator but AIVAT, and why it applies (for the estimator line)."""
    from showdown.evaluation.chance import supports as chance_supports

    chance_why = chance_supports(game)
    if chance_why is not None:
        return ("duplicate" if duplicate else "plain"), chance_why
    paired = "; the deals are paired" if duplicate else ""
    return "chance", f"the cards' luck is taken out by all-in equity (chance-only corrections, unbiased whatever the strategies){paired}"


def analyze_planned(
    plan: EstimatorPlan, logs: Sequence[Path], labels: Sequence[str], game: GameDef, halves: int,
    known_corrections: Mapping[str, Any] | None = None, chance_boards: int | None = None,
) -> tuple[Analysis, HandTable]:
    """One match's figures from its logs (``halves`` of them played: paired when two) under the
    estimator ``plan`` chose before it started, AIVAT given each agent's strategy by its label; the
    plan's notes come first. Also the table of hands read. ``known_corrections``: chance corrections
    its halves worked out already (``log_reading.log_corrections``)."""
    encoder_for = (lambda g: plan.aivat) if plan.estimator == "aivat" else None
    table = read_logs(logs, game=game, encoder_for=encoder_for, chance=plan.estimator == "chance",
                      known_corrections=known_corrections, chance_boards=chance_boards).table
    if plan.aivat is not None:
        # strategies by the table's player order (names as they first appear in the logs)
        by_label = dict(zip(labels, plan.aivat.strategies))
        plan.aivat.set_strategies([by_label.get(name) for name in table.names])
    estimator = "plain" if plan.estimator == "duplicate" and halves < 2 else plan.estimator
    analysis = analyze(
        table, estimator=estimator, big_blind=game.big_blind, show_mbb=len(set(game.blind)) > 1, aivat=plan.aivat,
        pair=halves > 1,
    )
    analysis.notes = plan.notes + analysis.notes
    analysis.reason = plan.reason
    return analysis, table

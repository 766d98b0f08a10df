"""What CFR variants differ in (``Rule``: regret and averaging updates, sampling) and what their
checkpoints start with: shared by the heads-up ``cfr`` and the N-player ``multiplayer`` solvers."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, NamedTuple

from showdown.errors import ShowdownError, SolverError
from showdown.games.gamedef import GameDef, format_gamedef, parse_gamedef

__all__ = ["ALGORITHM_NAMES", "DEFAULT_BATCHES", "RULES", "Rule", "Sampling", "checkpoint_game", "checkpoint_meta", "kernel_rule", "needs_abstraction"]

Sampling = Literal["none", "chance", "external"]


class Rule(NamedTuple):
    """How a CFR variant updates its regrets and average strategy.

    ``plus``: regret matching+ (accumulated regrets floored at 0 after every update). ``alternating``:
    update one player at a time, the second against the first's new strategy. ``alpha``/``beta``:
    after iteration ``t`` multiply positive accumulated regrets by ``t^alpha / (t^alpha + 1)`` and
    negative ones by ``t^beta / (t^beta + 1)`` (None: no discount). ``gamma``: after iteration ``t``
    multiply the average-strategy sums (this iteration's contribution included) by ``(t / (t+1))^gamma``,
    which weights iteration ``t`` by ``t^gamma`` (None: uniform weights). ``sampling``: exact values,
    or Monte Carlo estimates from sampled deals (``chance``) and opponent actions too (``external``).
    """

    name: str
    plus: bool = False
    alternating: bool = True
    alpha: float | None = None
    beta: float | None = None
    gamma: float | None = None
    sampling: Sampling = "none"


RULES: dict[str, Rule] = {
    "cfr": Rule("cfr"),
    "cfr+": Rule("cfr+", plus=True, gamma=1.0),
    "linear": Rule("linear", alpha=1.0, beta=1.0, gamma=1.0),
    "dcfr": Rule("dcfr", alpha=1.5, beta=0.0, gamma=2.0),
    "cs": Rule("cs", sampling="chance"),
    "es": Rule("es", sampling="external"),
}
"""The built-in variants by their command-line name."""

ALGORITHM_NAMES = tuple(RULES)

DEFAULT_BATCHES = {"cs": 64, "es": 16}
"""Deals sampled per update by the Monte Carlo variants (1 is the papers' algorithm). An update costs
about one exact iteration whatever the batch for ``cs``, so larger batches are nearly free there; for
``es`` each deal brings its own opponent sample, whose cost grows with the batch."""

NUMBA_IMPORT_SECONDS = 0.5
"""About what importing numba costs, which the compiled iterations need: small solves (Kuhn's default
1,000 iterations take 30 ms in numpy) finish before it would pay."""


def kernel_rule(rule: Rule) -> tuple[bool, float, float, float]:
    """(plus, alpha, beta, gamma) as the compiled CFR kernels read a rule: NaN where it does not discount."""
    discount = rule.alpha is not None and rule.beta is not None
    nan = float("nan")
    return (
        bool(rule.plus),
        float(rule.alpha) if discount and rule.alpha is not None else nan,
        float(rule.beta) if discount and rule.beta is not None else nan,
        float(rule.gamma) if rule.gamma is not None else nan,
    )


def checkpoint_meta(solver: Any, fmt: str, version: int, extra: dict[str, Any] | None) -> dict[str, Any]:
    """The JSON header every CFR checkpoint starts with: game, rule, budget so far and the RNG state."""
    return {
        "format": fmt,
        "version": version,
        "game": solver.game.name,
        "gamedef": format_gamedef(solver.game),
        "rule": solver.rule._asdict(),
        "batch": solver.batch,
        "seed": solver.seed,
        "iterations": solver.iterations,
        "seconds": solver.seconds,
        "rng": solver.rng.bit_generator.state,
        "extra": extra or {},
    }


def checkpoint_game(path: Path, text: str, name: str) -> GameDef:
    """The game a checkpoint records: its catalog game when the text matches (N-card Kuhn with more
    than 13 ranks has no parseable .game text), else the parsed text."""
    from showdown.games.catalog import get_game

    try:
        named = get_game(name) if name else None
    except ShowdownError:
        named = None
    if named is not None and format_gamedef(named) == text:
        return named
    try:
        return parse_gamedef(text, source=str(path), name=name)
    except ShowdownError as exc:
        raise SolverError(f"{path}: bad game definition in the checkpoint: {exc}") from None


def needs_abstraction(game: GameDef) -> bool:
    """Games solved (and played by the ``cfr`` agent) through an abstraction (``pcs``): heads-up hold'em."""
    return game.num_players == 2 and game.num_hole_cards == 2 and game.num_rounds == 4

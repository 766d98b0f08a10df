"""The ``cfr`` agent: plays the average strategy of a CFR run, sampling actions with its own generator.

Options (``-o key=value`` or a match YAML): ``strategy`` (a strategy file to play), else the agent
trains: ``algorithm`` (default ``cfr+``) with a budget of ``iterations`` and/or ``seconds``; with
neither it trains until the average strategy is at most ``DEFAULT_TARGET`` (1e-4 chips per hand)
exploitable, at most ``DEFAULT_MAX_ITERATIONS`` iterations. A trained strategy is cached in
``cache_dir("strategies")`` under the game definition's hash, the algorithm and the budget, so the
next agent for the same game starts at once (``cache=false`` retrains). ``seed`` seeds the action
sampling only (training is deterministic, or seeded with 0 for the Monte Carlo variants).

Every game the solvers' tree handles can be played: Kuhn, kuhn-N, Leduc, and games of more than two
players (kuhn3p, leduc3p: ``showdown.solvers.multiplayer``). For leduc3p, whose training takes minutes,
the default is a shipped strategy (``SHIPPED``: CFR+, 1,500 iterations). Heads-up hold'em is played through an
abstraction (``showdown.agents.abstract_cfr``): a shipped strategy of public-chance-sampling CFR+, or
``strategy=FILE.pcs.npz`` from ``showdown solve cfr holdem-limit|holdem-nolimit``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from showdown.agents.base import Agent
from showdown.agents.equilibrium import StrategyAgent
from showdown.agents.registry import take_options
from showdown.errors import ConfigError, SolverError
from showdown.games.gamedef import GameDef, format_gamedef

DEFAULT_ALGORITHM = "cfr+"
DEFAULT_TARGET = 1e-4
DEFAULT_MAX_ITERATIONS = 20_000


class CFRAgent(StrategyAgent):
    """Plays a fixed strategy profile (both positions' information sets) by sampling its probabilities
    (``StrategyAgent``'s play: its seeded draws, and opponents' no-limit sizes off the solved tree)."""

    name = "cfr"

    def __init__(
        self,
        game: GameDef,
        *,
        strategy: str | Path | Any | None = None,
        algorithm: str = DEFAULT_ALGORITHM,
        iterations: int | None = None,
        seconds: float | None = None,
        seed: int | None = None,
        cache: bool = True,
    ) -> None:
        from showdown.solvers.cfr import ALGORITHM_NAMES
        from showdown.solvers.strategy import Strategy

        if algorithm not in ALGORITHM_NAMES:
            raise ConfigError(f"agent 'cfr': algorithm {algorithm!r} is not one of {', '.join(ALGORITHM_NAMES)}")
        for key, value in (("iterations", iterations), ("seconds", seconds)):
            if value is not None and value <= 0:
                raise ConfigError(f"agent 'cfr': option {key!r} must be positive (got {value})")
        keys = _infoset_keys(game)
        if isinstance(strategy, Strategy):
            loaded = strategy
        elif strategy is not None:
            loaded = _load(game, Path(strategy))
        else:
            loaded = trained_strategy(game, algorithm, iterations=iterations, seconds=seconds, cache=cache)
        missing = [k for k in keys if k not in loaded.table]
        if missing:
            raise ConfigError(
                f"agent 'cfr': the strategy lacks {len(missing)} of {len(keys)} information sets of "
                f"game {game.name or '?'} (e.g. {missing[0]!r}); it must cover every position"
            )
        super().__init__(game, loaded, seed)


def _infoset_keys(game: GameDef) -> tuple[str, ...]:
    """Every information set of ``game`` (any number of players), or ``ConfigError`` if it is too large."""
    from showdown.solvers.tree import build_tree

    try:
        if game.num_players > 2:
            from showdown.solvers.multiplayer import build_ntree

            return build_ntree(game).infoset_keys
        return build_tree(game).infoset_keys()
    except SolverError as exc:
        raise ConfigError(f"agent 'cfr' cannot play {game.name or 'this game'}: {str(exc).split('; use ')[0]}") from None


def _load(game: GameDef, path: Path) -> Any:
    from showdown.solvers.strategy import load_strategy

    try:
        return load_strategy(path, game)
    except SolverError as exc:
        raise ConfigError(f"agent 'cfr': {exc}") from None


def cache_path(game: GameDef, algorithm: str, iterations: int | None, seconds: float | None) -> Path:
    """Where a trained strategy is cached: keyed by the game definition's hash, algorithm and budget."""
    from showdown.cache import cache_dir

    digest = hashlib.sha256(format_gamedef(game).encode()).hexdigest()[:16]
    if iterations is None and seconds is None:
        budget = f"target{DEFAULT_TARGET:g}-max{DEFAULT_MAX_ITERATIONS}"
    else:
        budget = "-".join(
            part for part in (f"it{iterations}" if iterations else "", f"s{seconds:g}" if seconds else "") if part
        )
    name = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in (game.name or "game"))
    return cache_dir("strategies") / f"{name}-{digest}-{algorithm}-{budget}.strategy.json"


def trained_strategy(
    game: GameDef,
    algorithm: str = DEFAULT_ALGORITHM,
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    cache: bool = True,
) -> Any:
    """The average strategy of ``algorithm`` on ``game`` with the given budget, from the cache or trained."""
    from showdown.solvers.cfr import make_solver
    from showdown.solvers.strategy import StrategyError, load_strategy, save_strategy
    from showdown.solvers.training import train

    if algorithm == DEFAULT_ALGORITHM and iterations is None and seconds is None:
        shipped = shipped_strategy(game)
        if shipped is not None:
            return shipped
    path = cache_path(game, algorithm, iterations, seconds)
    if cache and path.exists():
        try:
            return load_strategy(path, game)
        except StrategyError:
            pass  # a damaged cache entry: train again and replace it
    solver = make_solver(game, algorithm, seed=0)
    if iterations is None and seconds is None:
        result = train(solver, iterations=DEFAULT_MAX_ITERATIONS, target=DEFAULT_TARGET)
    else:
        result = train(solver, iterations=iterations, seconds=seconds)
    if cache:
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            save_strategy(result.strategy, tmp, "json")
            os.replace(tmp, path)  # atomic: agents training at once never read a half-written file
        except OSError:
            tmp.unlink(missing_ok=True)  # a read-only cache only costs speed: the training is not lost
    return result.strategy


SHIPPED = {"leduc3p": "leduc3p.cfr+.strategy.npz"}
"""Default strategies shipped with the package, for games whose training takes more than a few seconds."""


def shipped_strategy(game: GameDef) -> Any:
    """The shipped default strategy of ``game`` (matched by its definition), or None."""
    from importlib import resources

    from showdown.games.catalog import catalog_name
    from showdown.solvers.strategy import load_strategy

    name = catalog_name(game)
    if name not in SHIPPED:
        return None
    with resources.as_file(resources.files("showdown.solvers").joinpath("data", SHIPPED[name])) as path:
        return load_strategy(path, game) if path.exists() else None


def make_cfr(game: GameDef, options: dict[str, Any]) -> Agent:
    from showdown.agents.abstract_cfr import SEARCH_OPTIONS
    from showdown.solvers.pcs import needs_abstraction

    opts = take_options("cfr", options)
    strategy = opts.get("strategy")
    if needs_abstraction(game) or (isinstance(strategy, (str, Path)) and str(strategy).endswith(".pcs.npz")):
        from showdown.agents.abstract_cfr import AbstractCFRAgent

        return AbstractCFRAgent.from_options(game, opts)
    for key in ("translation", "blueprint"):
        if key in opts:
            raise ConfigError(f"agent 'cfr': {key} is for the abstract hold'em strategy; {game.name or 'this game'} is solved whole")
    opts.pop("response_ms", None)  # the dealer's clock (a runner gives it to any cfr): an equilibrium plays at once
    searching = {k: opts.pop(k) for k in SEARCH_OPTIONS if k in opts}
    if searching and not (set(searching) == {"search"} and str(searching["search"]).lower() in ("false", "off", "0", "no")):
        raise ConfigError(
            f"agent 'cfr': search at decision time is for heads-up hold'em; in {game.name or 'this game'} it plays "
            "an equilibrium of the whole game (drop the search options: search, budget_ms, search_iterations, gadget)"
        )
    return CFRAgent(game, **opts)



__all__ = ["CFRAgent", "DEFAULT_ALGORITHM", "DEFAULT_TARGET", "cache_path", "trained_strategy"]

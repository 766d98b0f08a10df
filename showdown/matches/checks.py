"""What can be checked of a match before any process starts: the settings, the game, the agents."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from showdown.errors import ConfigError
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.matches.config import AgentSpec, MatchConfig

__all__ = ["check_match"]

_CHEAP_AGENTS = ("random", "call", "bluff", "rules", "probe-bet")


def check_match(config: MatchConfig, in_process: Mapping[int, Any]) -> GameDef:
    """Everything that can be checked before a process starts; the game."""
    config.check()
    game = get_game(config.game)
    game.require_servable()
    n = game.num_players
    if len(config.agents) != n:
        raise ConfigError(f"{config.game} is a {n}-player game but {len(config.agents)} agents were given")
    _check_python_bots(config, in_process)
    if config.out is not None:
        from showdown.matches.files import check_not_running, check_other_kind
        from showdown.matches.seating import match_name, seat_labels

        name = match_name(config, seat_labels(config.agents))
        check_not_running(Path(config.out), name, n, config.resume)  # before any file of the match is written
        if not config.force and not config.resume:
            check_other_kind(Path(config.out), name, config.duplicate)
    _check_agents([s for i, s in enumerate(config.agents) if i not in in_process], game)
    if config.duplicate and in_process:
        raise ConfigError("Agent objects play plain matches only: for duplicate=True name the class as module:Class or give its bot file")
    return game


def _check_python_bots(config: MatchConfig, in_process: Mapping[int, Any]) -> None:
    """A Python bot that cannot even be compiled or imported is named first, with its file and line."""
    from showdown.matches.bot_errors import python_bot_error
    from showdown.matches.seating import seat_labels

    labels = seat_labels(config.agents)
    for seat, spec in enumerate(config.agents):
        if seat not in in_process and (error := python_bot_error(spec)) is not None:
            raise ConfigError(f"agent {labels[seat]} (seat {seat + 1}) cannot start: {error}")


def _check_agents(specs: Sequence[AgentSpec], game: GameDef) -> None:
    """Unknown built-in names and bad options fail here, before anything starts."""
    from showdown.agents.registry import BUILTIN_AGENTS, check_options, is_known_agent, make_agent, unknown_agent

    if any(s.name is not None and ":" in s.name for s in specs) and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # module:Class agents come from the current folder, as in the agent process
    for spec in specs:
        if spec.name is None:
            continue
        if not is_known_agent(spec.name):
            raise ConfigError(unknown_agent(spec.name))
        if spec.name in BUILTIN_AGENTS:  # option names, types and files, without building the agent
            check_options(spec.name, spec.options)
        if spec.name in _CHEAP_AGENTS:  # cheap to build: also checks the values (sizing=...)
            make_agent(spec.name, game, {**spec.options, "seed": spec.seed or 0})
        if spec.name in ("equilibrium", "never-bluff", "exploiter"):
            _check_exact_agent(spec.name, spec.options, game)
        if spec.name == "cfr" and not spec.options.get("strategy"):
            _check_whole_game_cfr(game)


def _check_whole_game_cfr(game: GameDef) -> None:
    """``cfr`` solves a game whole unless it is heads-up hold'em (the shipped abstract strategies): a game
    too large for the whole-game solvers (3-player hold'em) was said once the agent's process had started."""
    from showdown.errors import SolverError
    from showdown.solvers.cfr_rules import needs_abstraction
    from showdown.solvers.ntree import check_multiplayer_solvable
    from showdown.solvers.tree import check_solvable

    if needs_abstraction(game):
        return
    try:
        check_multiplayer_solvable(game) if game.num_players > 2 else check_solvable(game)
    except SolverError as exc:
        raise ConfigError(f"agent 'cfr' cannot play {game.name or 'this game'}: {str(exc).split('; use ')[0]}") from None


def _check_exact_agent(name: str, options: Mapping[str, Any], game: GameDef) -> None:
    """What the exact agents refuse as they are built, known without building them (they were said only
    once the agent's process had started: an exploiter with no opponent, an equilibrium of hold'em)."""
    from showdown.agents.exploiter import NEEDS_ONE_OPPONENT
    from showdown.errors import SolverError
    from showdown.games.catalog import catalog_name

    if name == "exploiter":
        if ("opponent_strategy" in options) == ("opponent" in options):
            raise ConfigError(NEEDS_ONE_OPPONENT)
        return
    if options.get("strategy") or (name == "equilibrium" and catalog_name(game) == "kuhn3p"):
        return  # a strategy file (checked when read), or the published 3-player Kuhn family
    from showdown.solvers.tree import check_solvable

    try:
        check_solvable(game)
    except SolverError as exc:
        raise ConfigError(f"agent {name!r} cannot play {game.name or 'this game'}: {exc}") from None

"""Tournament files: what a round robin plays, validated before anything runs.

```yaml
game: kuhn                 # catalog name or .game file
hands: 5000                # hands per match (per duplicate half)
duplicate: true            # play each deal with the seats moved too, and pair the results
seed: 1                    # each match's dealing seed derives from it and the match's name
jobs: 2                    # matches (halves) played at once; default: the number of cores
out: tournament-kuhn       # output directory (default: the YAML file's name without .yaml)
estimator: aivat           # optional: plain | duplicate | aivat (default: the best available per match)
agents:
  - equilibrium
  - {name: cfr, options: {iterations: 2000}}
  - {command: "./my_bot --fast", label: mybot}
dealer: {t_response_ms: 5000}   # optional, as in a match file
sandbox: true              # bots given as files, commands or module:Class run sandboxed (the default)
in_memory: true            # built-in agents play inside each match's process, without TCP (default false)
```

Validation happens before anything runs and names the file, the line and the key (``pyyaml`` node
marks); every built-in agent is built once then (which also solves and caches the equilibrium and CFR
strategies the agent processes will load).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from showdown.errors import ConfigError, ShowdownError
from showdown.evaluation.estimators import Estimator
from showdown.games.gamedef import GameDef
from showdown.matches.config import (
    AgentSpec,
    DealerSettings,
    Where,
    load_yaml,
    parse_settings,
)
from showdown.matches.settings import MATCH_SETTINGS, ExecutorName, keyed

__all__ = ["TournamentConfig", "load_tournament_config", "parse_tournament_config", "tournament_game"]

_KEYS = keyed(MATCH_SETTINGS, "tournament")


@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament file; ``labels`` are the agents' unique names (table rows)."""

    game: str
    agents: tuple[AgentSpec, ...]
    labels: tuple[str, ...]
    hands: int
    out: Path
    duplicate: bool = False
    seed: int = 0
    jobs: int | None = None
    estimator: Estimator | None = None
    dealer: DealerSettings = field(default_factory=DealerSettings)
    executor: ExecutorName | None = None  # None: local
    address: str | None = None  # the Ray cluster (None: Ray on this machine)
    source: str = "<tournament>"
    sandbox: bool = True  # bots given as files, commands or module:Class run sandboxed (built-ins never)
    in_memory: bool = False  # built-in agents play inside each match's process, over memory instead of TCP
    progress: bool | None = None  # None: when stderr is a terminal
    gamedef: GameDef | None = field(default=None, compare=False, repr=False)  # ``game`` read once, by the validation


def tournament_game(cfg: TournamentConfig) -> GameDef:
    """The tournament's game: the one its validation read, else read now (a config built by hand)."""
    from showdown.games.catalog import get_game

    return cfg.gamedef if cfg.gamedef is not None else get_game(cfg.game)


def _unique_labels(specs: Sequence[AgentSpec]) -> list[str]:
    from showdown.matches.seating import seat_labels

    return seat_labels(specs)


def parse_tournament_config(
    data: Any, at: Where, default_out: Path | None = None, base_dir: Path | None = None
) -> TournamentConfig:
    """Validate a parsed tournament document (see the module docstring); ``ConfigError`` with line."""
    if data is None:
        raise ConfigError(f"{at()}: the file is empty: a tournament needs game, agents and hands (see examples/tournament.yaml)")
    if isinstance(data, Mapping):
        _no_match_only_key(data, at)
    given = parse_settings(data, at, _KEYS, base_dir)
    keys = {str(k).replace("-", "_"): k for k in data}
    for required in ("game", "agents", "hands"):
        if required not in given:
            raise ConfigError(f"{at()}: missing key {required!r} (a tournament needs game, agents and hands)")
    game_name, game = _tournament_game(given["game"], at, keys["game"])
    seed = given.get("seed", 0)
    duplicate = given.get("duplicate", False)
    estimator = given.get("estimator")
    if estimator is not None:
        _check_estimator(estimator, duplicate, game, at(keys["estimator"]))
    specs = given["agents"]
    labels = _tournament_labels(specs, game, at.sub(keys["agents"]))
    return TournamentConfig(
        executor=given.get("executor"),
        address=given.get("address"),
        game=game_name,
        agents=specs,
        labels=tuple(labels),
        hands=given["hands"],
        out=given.get("out", default_out if default_out is not None else Path("tournament")),
        duplicate=duplicate,
        seed=seed,
        jobs=given.get("jobs"),
        estimator=estimator,
        dealer=given.get("dealer", DealerSettings()),
        source=at.source,
        sandbox=given.get("sandbox", True),
        in_memory=given.get("in_memory", False),
        progress=given.get("progress"),
        gamedef=game,
    )


_MATCH_ONLY = sorted(set(keyed(MATCH_SETTINGS, "match")) - set(_KEYS))


def _no_match_only_key(data: Mapping[Any, Any], at: Where) -> None:
    """A match file's key in a tournament file is said as such (it was 'unknown key', 'name' with a
    'did you mean game?'), with the keys a tournament takes."""
    for key in data:
        name = str(key).replace("-", "_")
        if name == "resume":
            raise ConfigError(f"{at(key)}: a tournament needs no 'resume': running the same command again resumes it")
        if name in _MATCH_ONLY:
            raise ConfigError(f"{at(key)}: {key!r} is a key of a match file, not of a tournament file "
                              f"(a tournament's keys: {', '.join(sorted(_KEYS))})")


def _tournament_game(game_name: str, at: Where, key: Any) -> tuple[str, Any]:
    """The game named (a file beside the tournament file first), and that it can be served."""
    from showdown.games.catalog import get_game

    if not any(c in game_name for c in "/\\") and Path(at.source).parent.joinpath(game_name).is_file():
        game_name = str(Path(at.source).parent / game_name)
    try:
        game = get_game(game_name)
        game.require_servable()
    except ShowdownError as exc:
        raise ConfigError(f"{at(key)}: {exc}") from None
    return game_name, game


def _check_estimator(estimator: str, duplicate: bool, game: Any, where: str) -> None:
    if estimator == "duplicate" and not duplicate:
        raise ConfigError(f"{where}: the duplicate estimator needs 'duplicate: true'")
    if estimator == "aivat":
        from showdown.evaluation.aivat import supports

        why = supports(game)
        if why is not None:
            raise ConfigError(f"{where}: {why}")
    if estimator == "chance":  # (was said as the flag '--estimator chance', without the file and line)
        from showdown.evaluation.chance import supports as chance_supports

        chance_why = chance_supports(game)
        if chance_why is not None:
            raise ConfigError(f"{where}: {chance_why}")


def _tournament_labels(specs: Sequence[AgentSpec], game: Any, at: Where) -> list[str]:
    """The agents' labels, once there are enough agents, the labels differ and every agent builds."""
    n = game.num_players
    if len(specs) < n:
        raise ConfigError(f"{at()}: {game.name or 'the game'} is a {n}-player game: a tournament needs at least {n} agents, got {len(specs)}")
    displays = [s.display for s in specs]
    for i, spec in enumerate(specs):  # a label is a name the user chose: never renamed to 'rules-2' in the tables
        other = next((j for j, d in enumerate(displays) if d == spec.label and j != i), None) if spec.label else None
        if other is not None:
            raise ConfigError(f"{at(i, 'label')}: {spec.label!r} is also the name of agents[{other}]; give each agent "
                              "its own label (a tournament's tables name agents by label)")
    labels = _unique_labels(specs)
    if len(set(labels)) != len(labels):
        raise ConfigError(f"{at()}: agent labels must differ, got {', '.join(labels)}")
    _check_agents(specs, game, at)
    return labels


def _check_agents(specs: Sequence[AgentSpec], game: Any, at: Where) -> None:
    """Build every built-in agent once: unknown names and bad options fail here, with the line."""
    from showdown.agents.registry import is_known_agent, make_agent, unknown_agent

    for i, spec in enumerate(specs):
        if spec.name is None:
            continue
        if not is_known_agent(spec.name):
            raise ConfigError(f"{at(i)}: {unknown_agent(spec.name)}")
        if ":" in spec.name and not spec.name.startswith("showdown."):  # a bot's own class: its __init__ raising was
            from showdown.matches.bot_errors import python_bot_error  # a traceback here; its matches say what fails

            if (error := python_bot_error(spec)) is not None:
                raise ConfigError(f"{at(i)}: agent {spec.name!r} cannot start: {error}")
            continue
        try:
            make_agent(spec.name, game, {**spec.options, "seed": spec.seed or 0})
        except ShowdownError as exc:
            raise ConfigError(f"{at(i)}: {exc}") from None


def load_tournament_config(path: str | Path) -> TournamentConfig:
    """Read and validate a tournament YAML file (``ConfigError`` naming file, line and key)."""
    data, at = load_yaml(path, "tournament file")
    p = Path(path)
    return parse_tournament_config(data, at, default_out=Path(p.stem), base_dir=p.resolve().parent)

"""Agents by name: ``make_agent(name, game, options)`` and an open registry other modules extend.

A factory takes ``(game, options)`` and returns an ``Agent``; ``options`` is a dict of plain values
(from ``-o key=value`` on the command line or an agent entry of a match YAML; ``seed`` included).
Factories reject unknown keys with ``ConfigError`` (``take_options`` does it for them).

Extending: a module registers its agents with ``register_agent(name, factory, description)`` when it
is imported. The modules in ``PLUGIN_MODULES`` (``showdown.agents.equilibrium``, ``.cfr``, ...) are
imported lazily, only when a name is not found among those already registered, so that starting a
``random`` agent never pays for numpy or strategy files. A module may instead define a module-level
``AGENTS`` dict of name -> factory. A name of the form ``package.module:attribute`` loads any
importable factory or ``Agent`` subclass.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from showdown.agents.base import Agent
from showdown.errors import ConfigError
from showdown.games.gamedef import GameDef

__all__ = [
    "AgentFactory",
    "PLUGIN_MODULES",
    "agent_names",
    "describe_agents",
    "is_known_agent",
    "make_agent",
    "register_agent",
    "take_options",
]

AgentFactory = Callable[[GameDef, dict[str, Any]], Agent]

PLUGIN_MODULES: dict[str, str] = {
    "equilibrium": "showdown.agents.equilibrium",
    "never-bluff": "showdown.agents.equilibrium",
    "exploiter": "showdown.agents.exploiter",
    "cfr": "showdown.agents.cfr",
}
"""Modules that may register more agents, by the name they are expected to provide."""

_EXTRA_PLUGIN_MODULES = ("showdown.agents.never_bluff",)


@dataclass(frozen=True, slots=True)
class _Entry:
    factory: AgentFactory
    description: str


_REGISTRY: dict[str, _Entry] = {}
_loaded_modules: set[str] = set()


def register_agent(name: str, factory: AgentFactory, description: str = "") -> None:
    """Make ``name`` available to ``make_agent`` (a later registration replaces an earlier one)."""
    _REGISTRY[name] = _Entry(factory, description)


def take_options(agent: str, options: Mapping[str, Any], allowed: Mapping[str, type]) -> dict[str, Any]:
    """Check and convert ``options`` against ``allowed`` (key -> type); unknown keys -> ``ConfigError``.

    Strings from the command line are converted (``"3"`` -> 3, ``"true"`` -> True).
    """
    out: dict[str, Any] = {}
    for key, value in options.items():
        if key not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise ConfigError(f"agent {agent!r} has no option {key!r} (its options: {known})")
        want = allowed[key]
        out[key] = _convert(agent, key, value, want)
    return out


def _convert(agent: str, key: str, value: Any, want: type) -> Any:
    if value is None or isinstance(value, want) and not (want is int and isinstance(value, bool)):
        return value
    try:
        if want is bool and isinstance(value, str):
            if value.lower() in ("1", "true", "yes", "on"):
                return True
            if value.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        if want is int and isinstance(value, float) and not value.is_integer():
            raise ValueError(value)
        return want(value)
    except (TypeError, ValueError):
        raise ConfigError(
            f"agent {agent!r}: option {key!r} must be {want.__name__}, got {value!r}"
        ) from None


def _builtin_factories() -> None:
    # Imports inside the factories: starting one agent loads only its own module.

    def random_(game: GameDef, options: dict[str, Any]) -> Agent:
        from showdown.agents.baseline import RandomAgent

        return RandomAgent(game, **take_options("random", options, {"seed": int, "sizing": str}))

    def call(game: GameDef, options: dict[str, Any]) -> Agent:
        from showdown.agents.baseline import CallAgent

        take_options("call", options, {"seed": int})
        return CallAgent(game)

    def bluff(game: GameDef, options: dict[str, Any]) -> Agent:
        from showdown.agents.bluff import BluffAgent

        o = take_options("bluff", options, {"seed": int, "size": str})
        o.pop("seed", None)
        return BluffAgent(game, **o)

    def rules(game: GameDef, options: dict[str, Any]) -> Agent:
        from showdown.agents.rules import RulesAgent

        take_options("rules", options, {"seed": int})
        return RulesAgent(game)

    register_agent("random", random_, "uniform over legal action kinds (seeded); options: seed, sizing=uniform|pot")
    register_agent("call", call, "calling station: always checks or calls")
    register_agent("bluff", bluff, "always bets or raises when allowed, never folds; option: size=min|pot|allin")
    register_agent("rules", rules, "deterministic hand-strength thresholds (see showdown.agents.rules)")


_builtin_factories()


def _load_plugin(module: str) -> None:
    if module in _loaded_modules:
        return
    _loaded_modules.add(module)
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return  # not written yet: nothing to register
        raise
    extra = getattr(mod, "AGENTS", None)
    if isinstance(extra, Mapping):
        for name, factory in extra.items():
            if name not in _REGISTRY:
                register_agent(name, factory, (getattr(factory, "__doc__", "") or "").strip().split("\n")[0])


def _load_all_plugins() -> None:
    for module in (*dict.fromkeys(PLUGIN_MODULES.values()), *_EXTRA_PLUGIN_MODULES):
        _load_plugin(module)


def _lookup(name: str) -> AgentFactory | None:
    if name in _REGISTRY:
        return _REGISTRY[name].factory
    if ":" in name:
        return _import_path(name)
    hinted = PLUGIN_MODULES.get(name)
    if hinted is not None:
        _load_plugin(hinted)
        if name in _REGISTRY:
            return _REGISTRY[name].factory
    _load_all_plugins()
    entry = _REGISTRY.get(name)
    return entry.factory if entry is not None else None


def _import_path(spec: str) -> AgentFactory:
    module, _, attr = spec.partition(":")
    try:
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise ConfigError(f"agent {spec!r}: cannot load {attr!r} from module {module!r}: {exc}") from None
    if isinstance(obj, type) and issubclass(obj, Agent):
        cls = obj

        def factory(game: GameDef, options: dict[str, Any]) -> Agent:
            accepted = inspect.signature(cls).parameters
            takes_any = any(p.kind is p.VAR_KEYWORD for p in accepted.values())
            if "seed" in options and "seed" not in accepted and not takes_any:
                options = {k: v for k, v in options.items() if k != "seed"}  # the runner always passes one
            try:
                return cls(game, **options)
            except TypeError as exc:
                raise ConfigError(f"agent {spec!r}: bad options {options}: {exc}") from None

        return factory
    if callable(obj):
        return obj  # type: ignore[no-any-return]
    raise ConfigError(f"agent {spec!r}: {attr!r} is neither an Agent subclass nor a factory")


def agent_names() -> list[str]:
    """Every registered name (plugins loaded), sorted."""
    _load_all_plugins()
    return sorted(_REGISTRY)


def describe_agents() -> dict[str, str]:
    """Name -> one-line description of every registered agent."""
    _load_all_plugins()
    return {name: _REGISTRY[name].description for name in sorted(_REGISTRY)}


def is_known_agent(name: str) -> bool:
    """Whether ``make_agent`` would find ``name`` (without building the agent)."""
    if ":" in name:
        module = name.partition(":")[0]
        return importlib.util.find_spec(module) is not None
    return _lookup(name) is not None


def make_agent(name: str, game: GameDef, options: Mapping[str, Any] | None = None) -> Agent:
    """A new agent ``name`` for ``game``; ``ConfigError`` for an unknown name or a bad option."""
    factory = _lookup(name)
    if factory is None:
        raise ConfigError(f"unknown agent {name!r}: known agents are {', '.join(agent_names())}")
    agent = factory(game, dict(options or {}))
    if agent.game is None:
        agent.game = game
    return agent

"""Agents by name: ``make_agent(name, game, options)``, from one static table.

``BUILTIN_AGENTS`` names every built-in agent with the ``module:function`` of its factory, a
one-line description and the options it takes (a match checks them before any process starts:
``check_options``); a factory takes ``(game, options)`` and returns an ``Agent``, and is imported
only when its agent is made (starting a ``random`` agent never pays for numpy or strategy files).
``options`` is a dict of plain values (``-o key=value`` on the command line or an agent entry of a
match YAML; ``seed`` included); factories reject unknown keys with ``ConfigError`` (``take_options``
does it for them). A name ``package.module:attribute`` loads any importable factory or ``Agent``
subclass; ``register_agent`` adds a name at run time (a program embedding showdown, or a test).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import math
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from showdown.agents.base import Agent
from showdown.errors import ConfigError, ShowdownError, did_you_mean
from showdown.games.gamedef import GameDef

_PACKAGE = str(Path(__file__).resolve().parents[1]) + os.sep

__all__ = [
    "AgentFactory",
    "BUILTIN_AGENTS",
    "BuiltinAgent",
    "FILE_OPTIONS",
    "IN_PROCESS",
    "KUHN3P_PARAMETERS",
    "check_options",
    "agent_names",
    "describe_agents",
    "is_known_agent",
    "make_agent",
    "register_agent",
    "take_options",
]

AgentFactory = Callable[[GameDef, dict[str, Any]], Agent]

KUHN3P_PARAMETERS = ("c11", "b11", "b21", "b23", "b32", "c33", "c34")
"""Options of ``equilibrium`` on kuhn3p: the free parameters of the Szafron-Gibson-Sturtevant family."""

FILE_OPTIONS = frozenset({"strategy", "opponent_strategy"})
"""Options that name a file the agent reads."""

IN_PROCESS = "in-process"
"""The agent name of a seat played in the runner's own process (an ``Agent`` object given to the
Python API, or the person of ``showdown play``): never started, never built from its name."""


class BuiltinAgent(NamedTuple):
    """A built-in agent: its factory (``module:function``), what it is, every option it takes, and
    whether it plays a fixed strategy table in limit games (its ``act`` draws from ``strategy_table``:
    the AIVAT estimator can use it, and a match can tell so without building the agent)."""

    factory: str
    description: str
    options: Mapping[str, type]
    plays_table: bool = False


BUILTIN_AGENTS: dict[str, BuiltinAgent] = {
    "random": BuiltinAgent(
        "showdown.agents.baseline:make_random", "uniform over legal action kinds (seeded); options: seed, sizing=uniform|pot",
        {"seed": int, "sizing": str}, plays_table=True),
    "call": BuiltinAgent("showdown.agents.baseline:make_call", "calling station: always checks or calls", {"seed": int}, plays_table=True),
    "bluff": BuiltinAgent(
        "showdown.agents.bluff:make_bluff", "always bets or raises when allowed, never folds; option: size=min|pot|allin",
        {"seed": int, "size": str}, plays_table=True),
    "rules": BuiltinAgent(
        "showdown.agents.rules:make_rules", "deterministic hand-strength thresholds (see showdown.agents.rules)", {"seed": int}, plays_table=True),
    "equilibrium": BuiltinAgent(
        "showdown.agents.equilibrium:make_equilibrium",
        "exact LP equilibrium, solved once and cached (2-player Kuhn/Leduc-size games); on kuhn3p a member of the "
        "published equilibrium family (options c11 b11 b21 b23 b32 c33 c34); options: seed, strategy=FILE",
        {"seed": int, "strategy": str, **dict.fromkeys(KUHN3P_PARAMETERS, float)}, plays_table=True),
    "never-bluff": BuiltinAgent(
        "showdown.agents.equilibrium:make_never_bluff",
        "the equilibrium with every bluff (raise with equity < threshold vs the range) made check/fold; "
        "options: seed, strategy=FILE, threshold=0.5",
        {"seed": int, "strategy": str, "threshold": float}, plays_table=True),
    "exploiter": BuiltinAgent(
        "showdown.agents.exploiter:make_exploiter",
        "exact best response to a known strategy; options: opponent_strategy=FILE or opponent=AGENT, seed",
        {"seed": int, "opponent_strategy": str, "opponent": str}, plays_table=True),
    "cfr": BuiltinAgent(
        "showdown.agents.cfr:make_cfr",
        "plays a CFR average strategy; options: strategy=FILE, or algorithm (cfr+), iterations/seconds "
        "(default: to exploitability 1e-4, cached), seed; in heads-up hold'em a shipped abstract strategy "
        "with search at decision time on the turn and river: search=on|off|off-tree, budget_ms (300), search_iterations (150), "
        "turn=off-tree|on|off, turn_budget_ms (300, the turn gadget's values on top), hand_ms (450, 3/4 of the two budgets: a time bank scales the budgets so that the match's mean solve time a hand stays at it; 0: none), response_ms (the dealer's time per decision, which ACPC never sends: showdown match gives its limits in $SHOWDOWN_TIME_LIMITS; a decision searches at most half of it, and a hand half its time per hand; 0: none), search_target (0: a pot fraction), gadget=blueprint|reach|best-response|off, gadget_margin (0: a pot fraction), gadget_penalty (0: resolve), search_min_pot (no-limit 100: big blinds, on the tree), search_sizes (0.5/1: the river's pot fractions), defend=on|off (no-limit on: never fold more of the range to a bet than makes a bluff break even); translation=legacy (with search=off: "
        "off-tree bets mapped as before issue 26, for evaluation); blueprint=v1 (no-limit: the blueprint shipped before issue 32)",
        {"strategy": str, "algorithm": str, "iterations": int, "seconds": float, "seed": int, "cache": bool,
         "search": str, "budget_ms": float, "search_iterations": int, "gadget": str, "turn": str, "turn_budget_ms": float,
         "search_target": float, "gadget_margin": float, "search_min_pot": float, "search_sizes": str, "gadget_penalty": float, "defend": str, "hand_ms": float, "response_ms": float, "translation": str, "blueprint": str}, plays_table=True),
    "probe-minraise": BuiltinAgent(
        "showdown.agents.probes:MinRaiseProbe.create", "probe: min-raises whenever it can, never folds", {"seed": int}),
    "probe-third-raise": BuiltinAgent(
        "showdown.agents.probes:ThirdRaiseProbe.create",
        "probe: min-raises as the first and as the third or later raise of a round, else plays rules' classes", {"seed": int}),
    "probe-third-raise-any": BuiltinAgent(
        "showdown.agents.probes:ThirdRaiseAnyProbe.create",
        "probe: min-raises as the first and as the third or later raise of a round whatever its cards, calls the rest",
        {"seed": int}),
    "probe-jam": BuiltinAgent("showdown.agents.probes:JamProbe.create", "probe: all-in whenever it can raise, never folds", {"seed": int}),
    "probe-tiny": BuiltinAgent(
        "showdown.agents.probes:TinyProbe.create", "probe: bets/raises 1/10 to 1/3 pot whenever it can (seeded)", {"seed": int}),
    "probe-odd": BuiltinAgent(
        "showdown.agents.probes:OddProbe.create", "probe: bets/raises 0.3, 1.7 or 3.5 pots whenever it can (seeded)", {"seed": int}),
    "probe-checkraise": BuiltinAgent(
        "showdown.agents.probes:CheckRaiseProbe.create", "probe: checks, raises a pot when bet into", {"seed": int}),
    "probe-adaptive": BuiltinAgent(
        "showdown.agents.adaptive_probe:AdaptiveProbe.create",
        "probe: learns the bot's fold frequency per spot and bet size over the match and bets the size of best "
        "local value (see showdown.agents.adaptive_probe); options: seed, explore (0.1)", {"seed": int, "explore": float}),
    "probe-bet": BuiltinAgent(
        "showdown.agents.bet_probe:BetProbe.create",
        "probe with options, for sweeping simple bots (see showdown.agents.bet_probe): sizes=0.25/1|min|allin|3x, "
        "raises=first/second/third|all, streets=preflop/flop/turn/river|all, hands=any|value, facing=call|fold-weak|fold|raise",
        {"seed": int, "sizes": str, "raises": str, "streets": str, "hands": str, "facing": str}),
    "probe-cbet": BuiltinAgent(
        "showdown.agents.bet_probe:CBetProbe.create", "probe: bets 2/3 pot as the first bet of every round with any cards, calls the rest",
        {"seed": int}),
    "probe-betfold": BuiltinAgent(
        "showdown.agents.bet_probe:BetFoldProbe.create", "probe: bets 1/2 pot as the first bet of every round with any cards, folds to any bet",
        {"seed": int}),
    "probe-raise": BuiltinAgent(
        "showdown.agents.probes:RaiseProbe.create", "probe (limit): bets or raises whenever allowed (no-limit: pot), never folds",
        {"seed": int}),
}
"""Every built-in agent by name (the ``probe-*`` agents: ``showdown.agents.probes``)."""


@dataclass(frozen=True, slots=True)
class _Entry:
    factory: AgentFactory
    description: str


_REGISTRY: dict[str, _Entry] = {}


def register_agent(name: str, factory: AgentFactory, description: str = "") -> None:
    """Make ``name`` available to ``make_agent`` (a later registration replaces an earlier one)."""
    _REGISTRY[name] = _Entry(factory, description)


def take_options(agent: str, options: Mapping[str, Any], allowed: Mapping[str, type] | None = None) -> dict[str, Any]:
    """Check and convert ``options`` against ``allowed`` (key -> type; by default the built-in agent's
    own, from ``BUILTIN_AGENTS``); unknown keys -> ``ConfigError``.

    Strings from the command line are converted (``"3"`` -> 3, ``"true"`` -> True).
    """
    if allowed is None:
        allowed = BUILTIN_AGENTS[agent].options
    out: dict[str, Any] = {}
    for key, value in options.items():
        if key not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise ConfigError(f"agent {agent!r} has no option {key!r} (its options: {known})")
        want = allowed[key]
        out[key] = _convert(agent, key, value, want)
    return out


def _convert(agent: str, key: str, value: Any, want: type) -> Any:
    if value is None or isinstance(value, want) and want is not float and not (want is int and isinstance(value, bool)):
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
        converted = want(value)
    except (TypeError, ValueError):
        raise ConfigError(
            f"agent {agent!r}: option {key!r} must be {want.__name__}, got {value!r:.60}"
        ) from None
    if want is float and not math.isfinite(converted):  # (budget_ms=nan passed every '< 0' check and was played)
        raise ConfigError(f"agent {agent!r}: option {key!r} must be a finite number, got {value!r:.60}")
    return converted


def _lookup(name: str) -> AgentFactory | None:
    if name in _REGISTRY:
        return _REGISTRY[name].factory
    if name in BUILTIN_AGENTS:
        return _import_path(BUILTIN_AGENTS[name].factory)
    if name.startswith("openspiel:"):  # a policy file, as `showdown match` seats it (exploit --agent said
        # "cannot load '...json' from module 'openspiel'", and SingleAgentEnv's opponents too)
        plays = _import_path("showdown.interchange.openspiel:OpenSpielAgent")
        policy = name.partition(":")[2]
        return lambda game, options: plays(game, {**options, "policy": policy})
    if ":" in name:
        return _import_path(name)
    return None


def _this_folder_importable() -> None:
    """``module:Class`` agents come from the current folder, in every command (``exploit --agent``
    and ``scorecard`` said "No module named" for a bot beside the user, which ``match`` played)."""
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())


def _import_path(spec: str) -> AgentFactory:
    module, _, attr = spec.partition(":")
    if not spec.startswith("showdown."):
        _this_folder_importable()
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
                if not (takes_any and "seed" in options and "seed" not in accepted and "'seed'" in str(exc)):
                    raise ConfigError(f"agent {spec!r}: bad options {options}: {exc}") from None
            # its **kwargs went on to Agent.__init__, which takes no seed: every run but LBR's passed one
            # ("bad options {'seed': 0}" of a bot check-bot and match could not start)
            options = {k: v for k, v in options.items() if k != "seed"}
            try:
                return cls(game, **options)
            except TypeError as exc:
                raise ConfigError(f"agent {spec!r}: bad options {options}: {exc}") from None

        return factory
    if isinstance(obj, type):  # (called as a factory, it failed with a TypeError traceback, or played no agent)
        raise ConfigError(f"agent {spec!r}: class {attr} is not an Agent: write 'class {attr}(Agent):' "
                          "(from showdown.agents import Agent) with an act(view) method")
    if callable(obj):
        return obj  # type: ignore[no-any-return]
    raise ConfigError(f"agent {spec!r}: {attr!r} is neither an Agent subclass nor a factory")


def agent_names() -> list[str]:
    """Every built-in and registered name, sorted."""
    return sorted(set(BUILTIN_AGENTS) | set(_REGISTRY))


def describe_agents() -> dict[str, str]:
    """Name -> one-line description of every built-in and registered agent."""
    out = {name: entry.description for name, entry in BUILTIN_AGENTS.items()}
    out.update({name: e.description for name, e in _REGISTRY.items()})
    return dict(sorted(out.items()))


def user_class(name: str) -> type | None:
    """The class a ``module:Class`` name imports, nothing built (its ``__init__`` is the bot's own code:
    it may fail or take a minute); None for a built-in or registered name, a factory, or an import failure."""
    if name in _REGISTRY or name in BUILTIN_AGENTS or ":" not in name:
        return None
    _this_folder_importable()
    try:
        obj: Any = importlib.import_module(name.partition(":")[0])
        for part in name.partition(":")[2].split("."):
            obj = getattr(obj, part)
    except Exception:  # noqa: BLE001 - the bot's module: what fails is said when the agent is made
        return None
    return obj if isinstance(obj, type) else None


def is_known_agent(name: str) -> bool:
    """Whether ``make_agent`` would find ``name`` (without building the agent)."""
    if name in _REGISTRY or name in BUILTIN_AGENTS:
        return True
    if ":" in name:
        module = name.partition(":")[0]
        if module == "__main__":  # this script or notebook: no agent process can import it
            return False
        _this_folder_importable()  # (a tournament's module:Class bot beside the user was an 'unknown agent')
        try:
            return importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a dotted name whose package is missing, or an empty name
            return False
    return False


def unknown_agent(name: str) -> str:
    """Why ``name`` is no agent, for a ``ConfigError``: a ``module:Class`` whose module cannot be found
    says so (it was told the built-in names), and a misspelt name is given the nearest one."""
    if ":" in name:
        module, _, cls = name.partition(":")
        if module == "__main__":
            return (f"agent {name!r}: __main__ is the running script or notebook, which an agent process cannot import: "
                    f"give run_match the object itself ({cls}(), played in this process) or put the class in a module "
                    f"file (my_bot.py, then 'my_bot:{cls}')")
        return (f"unknown agent {name!r}: no module {module!r} can be imported from this folder ({os.getcwd()}) "
                "or the installed packages; module:Class names a Python module and a class in it (a bot file: give its path, ./my_bot.py)")
    return f"unknown agent {name!r}: {did_you_mean(name, agent_names())}known agents are {', '.join(agent_names())}"


def check_options(name: str, options: Mapping[str, Any]) -> None:
    """What can be known of a built-in agent's options without building it: each is one it takes,
    of its type, and a file it reads exists. ``ConfigError`` otherwise (a match checks this before
    any process starts; what only building tells, like a strategy file's contents, the agent says)."""
    for key, value in take_options(name, options).items():
        if key in FILE_OPTIONS and value and not Path(value).expanduser().is_file():
            raise ConfigError(f"agent {name!r}: {key} file {value} does not exist")


def make_agent_here(name: str, game: GameDef, options: Mapping[str, Any] | None = None) -> Agent:
    """``make_agent`` in a command that plays the bot in its own process (``exploit --agent``, LBR): a
    bot's ``__init__`` raising is a ``ConfigError`` naming its file and line, not a traceback."""
    try:
        return make_agent(name, game, options)
    except ShowdownError:
        raise
    except Exception as exc:  # noqa: BLE001 - the bot's own code
        raise ConfigError(f"agent {name!r} cannot be built: {bot_failure(exc)}"[:400]) from None


def bot_failure(exc: BaseException) -> str:
    """``file:line: Error: message`` of an exception a bot's own code raised: its frame nearest the error."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = next((f for f in reversed(frames) if not f.filename.startswith(_PACKAGE)), None)  # (none: our code met its answer)
    at = f"{os.path.relpath(where.filename) if where.filename.startswith(os.getcwd()) else where.filename}:{where.lineno}: " if where else ""
    return f"{at}{type(exc).__name__}: {exc}"


def make_agent(name: str, game: GameDef, options: Mapping[str, Any] | None = None) -> Agent:
    """A new agent ``name`` for ``game``; ``ConfigError`` for an unknown name or a bad option."""
    factory = _lookup(name)
    if factory is None:
        raise ConfigError(unknown_agent(name))
    agent = factory(game, dict(options or {}))
    if not isinstance(agent, Agent):  # a factory's own object: its .game was an AttributeError traceback
        raise ConfigError(f"agent {name!r} made a {type(agent).__name__}, not an Agent (one with an act(view) method)")
    if agent.game is None:
        agent.game = game
    return agent

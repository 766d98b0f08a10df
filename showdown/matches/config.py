"""Match configuration: what ``showdown match`` flags give, also readable from a YAML file.

```yaml
game: kuhn                # catalog name or path to a .game file
hands: 10000
seed: 7
fixed_seats: false
out: logs/                # directory for <match>.log and <match>.jsonl
name: my-match           # match name (default: from game, agents and seed)
agents:
  - random                # a built-in agent by name
  - {name: random, seed: 3, options: {sizing: pot}}
  - {command: "./mybot --fast", label: mybot}   # started as: ./mybot --fast <host> <port>
dealer:                   # optional dealer settings (milliseconds)
  t_response_ms: 600000
  start_timeout_ms: 10000
  on_timeout: fold        # fold | call | abort
```

Validation errors are ``ConfigError`` naming the file and the key.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from showdown.errors import ConfigError

__all__ = ["AgentSpec", "DealerSettings", "MatchConfig", "load_match_config", "parse_match_config", "agent_spec", "merge_config"]

_LABEL = re.compile(r"[A-Za-z0-9_.+-]+")
_ON_TIMEOUT = ("fold", "call", "abort")


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """One seat: a built-in agent (``name``) or an outside program (``command``).

    ``label`` is the seat's name in logs and tables (made unique by the runner); ``seed`` None
    means derived from the match seed; ``options`` go to the agent's factory.
    """

    name: str | None = None
    command: str | None = None
    label: str | None = None
    seed: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def display(self) -> str:
        """The seat name: the label, the agent name, or the program's name (after any interpreter)."""
        if self.label:
            return self.label
        if self.name:
            name = self.name.rpartition(":")[2].rpartition(".")[2] if ":" in self.name else self.name
            return "".join(ch if _LABEL.fullmatch(ch) else "_" for ch in name)
        assert self.command is not None
        try:
            words = shlex.split(self.command)
        except ValueError:
            words = self.command.split()
        program = next(
            (w for w in words if not w.startswith("-") and not _INTERPRETER.fullmatch(Path(w).name)),
            words[0] if words else "bot",
        )
        stem = Path(program).stem or "bot"
        return "".join(ch if _LABEL.fullmatch(ch) else "_" for ch in stem)


_INTERPRETER = re.compile(r"(python[0-9.]*|pypy[0-9.]*|sh|bash|dash|zsh|env|node|ruby|perl|java|php|Rscript|julia)(\.exe)?")


@dataclass(frozen=True, slots=True)
class DealerSettings:
    """Dealer time limits and policies (``DealerOptions`` of the dealer), in milliseconds."""

    t_response_ms: int = 600_000
    t_hand_ms: int = 600_000
    t_per_hand_ms: int = 7_000
    start_timeout_ms: int | None = 15_000
    reconnect_ms: int = 2_000
    on_timeout: str = "fold"


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """Everything a match needs; flags and YAML produce the same value."""

    game: str
    agents: tuple[AgentSpec, ...]
    hands: int = 1000
    seed: int = 0
    fixed_seats: bool = False
    out: Path | None = None
    name: str | None = None
    dealer: DealerSettings = field(default_factory=DealerSettings)
    progress: bool | None = None  # None: when stderr is a terminal

    def check(self, where: str = "match") -> MatchConfig:
        """Raise ``ConfigError`` for values no match can run with; returns self."""
        if not self.game:
            raise ConfigError(f"{where}: no game given")
        if len(self.agents) < 2:
            raise ConfigError(f"{where}: a match needs at least two agents, got {len(self.agents)}")
        if self.hands < 1:
            raise ConfigError(f"{where}: hands must be at least 1, got {self.hands}")
        if not 0 <= self.seed < 2**32:
            raise ConfigError(f"{where}: seed must be 0 to 4294967295, got {self.seed}")
        if self.name is not None and not _LABEL.fullmatch(self.name):
            raise ConfigError(f"{where}: name {self.name!r} may use only letters, digits, '-', '_', '.', '+'")
        return self


def agent_spec(entry: Any, where: str) -> AgentSpec:
    """An ``AgentSpec`` from a YAML agent entry: a name, or a mapping with ``name`` or ``command``."""
    if isinstance(entry, str):
        if not entry.strip():
            raise ConfigError(f"{where}: empty agent name")
        return AgentSpec(name=entry.strip())
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{where}: an agent is a name or a mapping with 'name' or 'command', got {entry!r}")
    allowed = {"name", "command", "label", "seed", "options"}
    for key in entry:
        if key not in allowed:
            raise ConfigError(
                f"{where}: unknown key {key!r} (agent keys: {', '.join(sorted(allowed))}; "
                f"put agent settings under 'options')"
            )
    name = entry.get("name")
    command = entry.get("command")
    if (name is None) == (command is None):
        raise ConfigError(f"{where}: give exactly one of 'name' (a built-in agent) or 'command' (a program)")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise ConfigError(f"{where}.name: expected an agent name, got {name!r}")
    if command is not None and (not isinstance(command, str) or not command.strip()):
        raise ConfigError(f"{where}.command: expected a command line, got {command!r}")
    label = entry.get("label")
    if label is not None and (not isinstance(label, str) or not _LABEL.fullmatch(label)):
        raise ConfigError(f"{where}.label: {label!r} may use only letters, digits, '-', '_', '.', '+'")
    seed = entry.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ConfigError(f"{where}.seed: expected a non-negative integer, got {seed!r}")
    options = entry.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise ConfigError(f"{where}.options: expected a mapping of option names to values, got {options!r}")
    if command is not None and options:
        raise ConfigError(f"{where}.options: a command agent takes no options (put them in its command line)")
    return AgentSpec(name=name, command=command, label=label, seed=seed, options=dict(options))


_TOP_KEYS = {"game", "agents", "hands", "seed", "fixed_seats", "out", "name", "dealer", "progress"}
_DEALER_KEYS = set(DealerSettings.__dataclass_fields__)


def _int(value: Any, where: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{where}: expected an integer >= {minimum}, got {value!r}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: expected true or false, got {value!r}")
    return value


def parse_match_config(data: Any, source: str = "<config>") -> dict[str, Any]:
    """Validate a parsed YAML document; returns ``MatchConfig`` fields (only those given)."""
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: expected a mapping of settings (game, agents, hands, ...), got {type(data).__name__}")
    out: dict[str, Any] = {}
    for key, value in data.items():
        key_s = str(key).replace("-", "_")
        where = f"{source}: {key}"
        if key_s not in _TOP_KEYS:
            raise ConfigError(f"{source}: unknown key {key!r} (known keys: {', '.join(sorted(_TOP_KEYS))})")
        if key_s == "game":
            if not isinstance(value, str) or not value:
                raise ConfigError(f"{where}: expected a game name or .game file path, got {value!r}")
            out["game"] = value
        elif key_s == "agents":
            if not isinstance(value, Sequence) or isinstance(value, str):
                raise ConfigError(f"{where}: expected a list of agents, got {value!r}")
            out["agents"] = tuple(agent_spec(e, f"{source}: agents[{i}]") for i, e in enumerate(value))
        elif key_s == "hands":
            out["hands"] = _int(value, where, 1)
        elif key_s == "seed":
            out["seed"] = _int(value, where, 0)
        elif key_s in ("fixed_seats", "progress"):
            out[key_s] = _bool(value, where)
        elif key_s == "out":
            if not isinstance(value, str) or not value:
                raise ConfigError(f"{where}: expected a directory path, got {value!r}")
            out["out"] = Path(value)
        elif key_s == "name":
            if not isinstance(value, str):
                raise ConfigError(f"{where}: expected a match name, got {value!r}")
            out["name"] = value
        elif key_s == "dealer":
            out["dealer"] = _dealer(value, f"{source}: dealer")
    return out


def _dealer(value: Any, where: str) -> DealerSettings:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: expected a mapping of dealer settings, got {value!r}")
    fields: dict[str, Any] = {}
    for key, v in value.items():
        k = str(key).replace("-", "_")
        if k not in _DEALER_KEYS:
            raise ConfigError(f"{where}: unknown key {key!r} (known keys: {', '.join(sorted(_DEALER_KEYS))})")
        if k == "on_timeout":
            if v not in _ON_TIMEOUT:
                raise ConfigError(f"{where}.on_timeout: expected one of {', '.join(_ON_TIMEOUT)}, got {v!r}")
            fields[k] = v
        elif k == "start_timeout_ms" and v is None:
            fields[k] = None
        else:
            fields[k] = _int(v, f"{where}.{key}", 0)
    return DealerSettings(**fields)


def load_match_config(path: str | Path) -> dict[str, Any]:
    """Read and validate a YAML match file; ``ConfigError`` if unreadable or invalid."""
    import yaml  # type: ignore[import-untyped,unused-ignore]

    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config file {p}: {exc.strerror or exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{p}{at}: not valid YAML: {problem}") from None
    return parse_match_config(data, str(p))


def merge_config(base: Mapping[str, Any], **overrides: Any) -> MatchConfig:
    """A ``MatchConfig`` from validated YAML fields with non-None overrides (flags) on top."""
    fields = dict(base)
    for key, value in overrides.items():
        if value is not None:
            fields[key] = value
    if "game" not in fields:
        raise ConfigError("no game given: name one (showdown match kuhn random call) or set 'game' in the config")
    if "agents" not in fields:
        raise ConfigError("no agents given: name two or more after the game, or list them under 'agents'")
    return replace(MatchConfig(game=fields.pop("game"), agents=fields.pop("agents")), **fields).check()

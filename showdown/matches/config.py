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
  - {command: "./theirbot", limits: {memory_mb: 2048, cpu_s_per_hand: 7}}  # sandboxed (showdown.matches.sandbox)
dealer:                   # optional dealer settings (milliseconds)
  t_response_ms: 10000    # per decision (default 10 s; showdown dealer keeps the reference's 600 s)
  start_timeout_ms: 10000
  on_timeout: fold        # fold | call | abort
  spin_us: 200            # busy-wait this long for a fast agent's reply (microseconds; 0: never)
duplicate: false          # play every deal again with the seats moved (see showdown.matches.duplicate)
estimator: aivat          # plain | duplicate | aivat (default: the best available)
jobs: 2                   # duplicate halves played at once (default: the number of cores)
sandbox: false            # true: every bot given as a file, command or module:Class runs sandboxed
```

Validation errors are ``ConfigError`` naming the file, the line and the key (``match.yaml:7:
agents[1].seed: ...``); the line numbers come from the YAML nodes' marks.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from showdown.errors import ConfigError
from showdown.evaluation.estimators import ESTIMATORS, Estimator
from showdown.matches.limits import Limits
from showdown.matches.settings import (
    DEALER_SETTINGS,
    LIMIT_SETTINGS,
    MATCH_SETTINGS,
    MAX_SEED,
    PLAIN,
    PLAIN_RULE,
    ExecutorName,
    Setting,
    check_section,
    keyed,
    number_hint,
    section_from_json,
    section_to_json,
    unknown_key,
)
from showdown.server.timing import DealerSettings

__all__ = [
    "AgentSpec",
    "DealerSettings",
    "ESTIMATORS",
    "MatchConfig",
    "Where",
    "check_command",
    "check_out_folder",
    "agent_spec",
    "config_from_json",
    "config_to_json",
    "load_match_config",
    "load_yaml",
    "parse_limits",
    "match_settings",
    "merge_config",
    "parse_match_config",
    "plain_label",
]



EXECUTORS = tuple(ExecutorName)


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
    token: bool = True  # send the seat token it is given ($SHOWDOWN_SEAT_TOKEN); false for a foreign bot that cannot
    limits: Limits | None = None  # its sandbox limits (given: it runs sandboxed; see showdown.matches.sandbox)

    @property
    def display(self) -> str:
        """The seat name: the label, the agent name, or the program's name (after any interpreter)."""
        if self.label:
            return self.label
        if self.name:
            return plain_label(self.name.rpartition(":")[2].rpartition(".")[2] if ":" in self.name else self.name)
        assert self.command is not None
        try:
            words = shlex.split(self.command)
        except ValueError:
            words = self.command.split()
        program = next(
            (w for w in words if not w.startswith("-") and not _INTERPRETER.fullmatch(Path(w).name)),
            words[0] if words else "bot",
        )
        return plain_label(Path(program).stem or "bot")


def plain_label(text: str) -> str:
    """``text`` as a seat label: each character but letters, digits and ``_.+-`` made ``_`` (a label
    names log files and goes into the protocol's lines: a space or a ``|`` cannot)."""
    return "".join(ch if PLAIN.fullmatch(ch) else "_" for ch in text) or "bot"


_INTERPRETER = re.compile(r"(python[0-9.]*|pypy[0-9.]*|sh|bash|dash|zsh|env|node|ruby|perl|java|php|Rscript|julia)(\.exe)?")


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
    duplicate: bool = False  # also play every deal with the seats moved, and pair the results
    estimator: Estimator | None = None  # None: the best available
    jobs: int | None = None  # duplicate halves at once (None: the number of cores)
    force: bool = False  # overwrite the logs of an earlier match of the same name
    resume: bool = False  # continue a killed match from its logs
    executor: ExecutorName | None = None  # where duplicate halves run (None: local)
    until_ci: float | None = None  # stop once the first agent's anytime-valid 95% half-width (chips/100) is this small
    until_separated: bool = False  # stop once that interval excludes zero
    address: str | None = None  # the Ray cluster (None: Ray on this machine)
    max_replaced: float = 0.01  # share of hands the dealer may play for a seat before the match is degraded
    sandbox: bool = False  # run bots given as files, commands or module:Class in the sandbox
    in_memory: bool = False  # built-in agents play in the runner's process, over memory instead of TCP
    chance_boards: int = 10_000  # boards drawn for each flop's chance correction (evaluation.chance.SAMPLED_BOARDS)

    def check(self, where: str = "match") -> MatchConfig:
        """Raise ``ConfigError`` for values no match can run with; returns self."""
        if not self.game:
            raise ConfigError(f"{where}: no game given")
        if len(self.agents) < 2:
            raise ConfigError(f"{where}: a match needs at least two agents, got {len(self.agents)}")
        if self.hands < 1:
            raise ConfigError(f"{where}: hands must be at least 1, got {self.hands}")
        if not 0 <= self.seed <= MAX_SEED:
            raise ConfigError(f"{where}: seed must be 0 to {MAX_SEED}, got {self.seed}")
        if self.name is not None and not PLAIN.fullmatch(self.name):
            raise ConfigError(f"{where}: name {self.name!r} {PLAIN_RULE}")
        if self.estimator is not None and self.estimator not in ESTIMATORS:
            raise ConfigError(f"{where}: estimator must be one of {', '.join(ESTIMATORS)}, got {self.estimator!r}")
        if self.jobs is not None and self.jobs < 1:
            raise ConfigError(f"{where}: jobs must be at least 1, got {self.jobs}")
        for seat, agent in enumerate(self.agents, 1):
            if agent.command is not None:
                check_command(agent.command, f"{where}: seat {seat}")
        if self.out is not None:
            check_out_folder(Path(self.out), where)
        return self


def check_out_folder(out: Path, where: str) -> None:
    """``out`` can be a folder of logs: it is one, or it is missing (then it is created with its
    parents) and no file stands in the way."""
    existing = out
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        what = "is a file" if existing == out else f"cannot be created: {existing} is a file"
        raise ConfigError(f"{where}: out {out} {what}; give a folder (a missing one is created)")


class Where:
    """Names a place in a config file for error messages: ``file:line: key.path``.

    ``lines`` maps key paths (``("agents", 1, "seed")``) to 1-based line numbers, as ``load_yaml``
    records them from the YAML nodes' marks; without it (or for a path it lacks, the nearest
    enclosing path's line is used) errors name the file and the key only.
    """

    def __init__(self, source: str, lines: Mapping[tuple[Any, ...], int] | None = None, prefix: tuple[Any, ...] = ()) -> None:
        self.source = source
        self.lines = lines or {}
        self.prefix = prefix

    def sub(self, *path: Any) -> Where:
        """The place ``path`` below this one."""
        return Where(self.source, self.lines, self.prefix + path)

    def line(self, *path: Any) -> int | None:
        full = self.prefix + path
        while True:
            if full in self.lines:
                return self.lines[full]
            if not full:
                return None
            full = full[:-1]

    def __call__(self, *path: Any) -> str:
        full = self.prefix + path
        line = self.line(*path)
        head = f"{self.source}:{line}" if line is not None else self.source
        key = _path_text(full)
        return f"{head}: {key}" if key else head


def _path_text(path: tuple[Any, ...]) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def load_yaml(path: str | Path, what: str = "config file") -> tuple[Any, Where]:
    """Parse a YAML file keeping each key's line: (data, ``Where`` for error messages).

    ``ConfigError`` when the file cannot be read or is not valid YAML (with the line of the problem).
    """
    import yaml  # type: ignore[import-untyped,unused-ignore]

    p = Path(path)
    try:  # opened without waiting: a named pipe no one writes to held the command for ever, silent
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            os.set_blocking(fd, True)  # a pipe with a writer (/dev/stdin) is read to its end
            raw = f.read(MAX_YAML_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"cannot read {what} {p}: {exc.strerror or exc}") from None
    if len(raw) > MAX_YAML_BYTES:  # a log or a device given by mistake: not read whole, not parsed for minutes
        raise ConfigError(f"{p}: over {MAX_YAML_BYTES >> 20} MiB: not a {what} (one is a few KB of YAML)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"{p}:{line}: not UTF-8 text (byte {raw[exc.start]:#04x}); save the {what} as UTF-8") from None
    try:
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            if node is not None:
                _check_nodes(node, p)  # before building the values: aliases are shared there, not yet counted
            data = loader.construct_document(node) if node is not None else None
            lines: dict[tuple[Any, ...], int] = {}
            if node is not None:
                _record_lines(node, (), lines, loader)
        finally:
            loader.dispose()
    except RecursionError:  # PyYAML reads nested values recursively
        raise ConfigError(_too_deep(p, None)) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{p}{at}: not valid YAML: {problem}") from None
    return data, Where(str(p), lines)


MAX_YAML_BYTES = 1 << 20
"""The largest config file read: a match or tournament file is a few KB."""

MAX_YAML_DIGITS = 4300
"""Python's int() limit (sys.get_int_max_str_digits): a longer YAML integer was a ValueError traceback."""

_INT_TAG = "tag:yaml.org,2002:int"

MAX_YAML_DEPTH = 64
"""Values inside values a config file may nest (a match file needs 4)."""

MAX_YAML_VALUES = 100_000
"""Values a config file may hold once its aliases (``*name``) are expanded: far more than any match or
tournament needs, and few enough that a "billion laughs" file (aliases of aliases) is refused at once."""


def _too_deep(path: Path, line: int | None) -> str:
    at = f":{line}" if line is not None else ""
    return f"{path}{at}: values are nested more than {MAX_YAML_DEPTH} deep; a config file needs a few levels"


def _check_nodes(root: Any, path: Path) -> None:
    """``ConfigError`` for a key given twice in one mapping (YAML forbids it; PyYAML would keep the last
    silently), an alias to a value holding itself, values nested over ``MAX_YAML_DEPTH`` deep, or more
    than ``MAX_YAML_VALUES`` values once aliases are expanded (each node's size is counted once)."""
    import yaml

    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()

    def size(node: Any, depth: int = 0) -> int:
        if depth > MAX_YAML_DEPTH:
            raise ConfigError(_too_deep(path, node.start_mark.line + 1))
        if isinstance(node, yaml.ScalarNode) and node.tag == _INT_TAG and len(node.value) > MAX_YAML_DIGITS:
            raise ConfigError(f"{path}:{node.start_mark.line + 1}: a number of {len(node.value):,} digits (Python reads "
                              f"at most {MAX_YAML_DIGITS:,}); a config file's numbers are hands, seeds and milliseconds")
        key = id(node)
        known = sizes.get(key)
        if known is not None:
            return known
        if key in open_nodes:
            raise ConfigError(f"{path}:{node.start_mark.line + 1}: an alias refers to a value that holds it "
                              "(a YAML value cannot contain itself); write the value out")
        total = 1
        if isinstance(node, yaml.MappingNode):
            _no_repeated_key(node, path)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            open_nodes.add(key)
            children = [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode) else node.value
            for child in children:
                total += size(child, depth + 1)
                if total > MAX_YAML_VALUES:
                    raise ConfigError(f"{path}:{node.start_mark.line + 1}: this value holds more than "
                                      f"{MAX_YAML_VALUES:,} values (each alias *name counted as the copy it "
                                      "stands for); a config file holds a few dozen")
            open_nodes.discard(key)
        sizes[key] = total
        return total

    size(root)


def _no_repeated_key(node: Any, path: Path) -> None:
    import yaml

    seen: set[tuple[str, str]] = set()
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
            continue
        key = (key_node.tag, key_node.value)
        if key in seen:
            raise ConfigError(f"{path}:{key_node.start_mark.line + 1}: {key_node.value}: this key is given twice "
                              "in the same mapping; keep one")
        seen.add(key)


def _record_lines(node: Any, path: tuple[Any, ...], lines: dict[tuple[Any, ...], int], loader: Any) -> None:
    """Each key path's line; a key is recorded as the value it reads as (``5:`` as 5, ``~:`` as None,
    whose errors named line 1), and as its text."""
    import yaml

    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.start_mark)
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != "tag:yaml.org,2002:str":
                read = loader.construct_object(key_node)
                if getattr(type(read), "__hash__", None) is not None:
                    lines[path + (read,)] = key_node.start_mark.line + 1
            lines[path + (key,)] = key_node.start_mark.line + 1
            _record_lines(value_node, path + (key,), lines, loader)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            lines[path + (i,)] = item.start_mark.line + 1
            _record_lines(item, path + (i,), lines, loader)


def _as_where(where: str | Where) -> Where:
    return where if isinstance(where, Where) else Where(where)


def agent_spec(entry: Any, where: str | Where, base_dir: Path | None = None) -> AgentSpec:
    """An ``AgentSpec`` from a YAML agent entry: a name, or a mapping with ``name`` or ``command``."""
    at = _as_where(where)
    if isinstance(entry, str):
        if not entry.strip():
            raise ConfigError(f"{at()}: empty agent name")
        return AgentSpec(name=entry.strip())
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{at()}: an agent is a name or a mapping with 'name' or 'command', got {entry!r}")
    for key in entry:
        if key not in _AGENT_KEYS:
            raise unknown_key(at(key), key, _AGENT_KEYS, "agent keys; agent settings go under 'options'")
    name, command = _agent_program(entry, at, base_dir)
    limits = parse_limits(entry["limits"], at("limits")) if entry.get("limits") is not None else None
    return AgentSpec(name=name, command=command, label=_agent_label(entry, at), seed=_agent_seed(entry, at),
                     options=_agent_options(entry, at, command, base_dir), token=_agent_token(entry, at, command), limits=limits)


_AGENT_KEYS = ("name", "command", "label", "seed", "options", "token", "limits")


def _agent_label(entry: Mapping[str, Any], at: Where) -> str | None:
    label = entry.get("label")
    if label is not None and not isinstance(label, str):
        raise ConfigError(f"{at('label')}: expected a label, got {label!r}{number_hint(label)}")
    if label is not None and not PLAIN.fullmatch(label):
        raise ConfigError(f"{at('label')}: {label!r} {PLAIN_RULE}")
    return label


def _agent_seed(entry: Mapping[str, Any], at: Where) -> int | None:
    seed = entry.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED):
        raise ConfigError(f"{at('seed')}: expected a seed from 0 to {MAX_SEED}, got {seed!r}")
    return seed


def _agent_options(entry: Mapping[str, Any], at: Where, command: str | None, base_dir: Path | None) -> dict[str, Any]:
    """The entry's options; a file an option names (``strategy: s.json``) is taken from ``base_dir``
    when it is there, as a command's files are (it was looked for in the current folder only)."""
    from showdown.agents.registry import FILE_OPTIONS

    options = entry.get("options")
    if options is None:
        options = {}
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise ConfigError(f"{at('options')}: expected a mapping of option names to values, got {options!r}")
    if command is not None and options:
        raise ConfigError(f"{at('options')}: a command agent takes no options (put them in its command line)")
    options = dict(options)
    for key in FILE_OPTIONS & options.keys():
        value = options[key]
        if base_dir is not None and isinstance(value, str) and value and not Path(value).is_absolute() \
                and (base_dir / value).is_file():
            options[key] = str((base_dir / value).resolve())
    return options


def _agent_token(entry: Mapping[str, Any], at: Where, command: str | None) -> bool:
    token = entry.get("token", True)
    if not isinstance(token, bool):
        raise ConfigError(f"{at('token')}: expected true or false, got {token!r}")
    if not token and command is None:
        raise ConfigError(f"{at('token')}: built-in agents always send their seat token; 'token: false' is for a command")
    return token


def _agent_program(entry: Mapping[str, Any], at: Where, base_dir: Path | None) -> tuple[str | None, str | None]:
    """An agent entry's built-in name or its command line (relative paths from ``base_dir``)."""
    name = entry.get("name")
    command = entry.get("command")
    if (name is None) == (command is None):
        raise ConfigError(f"{at()}: give exactly one of 'name' (a built-in agent) or 'command' (a program)")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise ConfigError(f"{at('name')}: expected an agent name, got {name!r}")
    if command is not None and (not isinstance(command, str) or not command.strip()):
        raise ConfigError(f"{at('command')}: expected a command line, got {command!r}")
    if command is not None:
        check_command(command, at("command"))
    if command is not None and base_dir is not None:
        command = resolve_command(command, base_dir)
    return name, command


def check_command(command: str, where: str) -> None:
    """``ConfigError`` unless ``command`` is a command line its words can be read from, as a shell
    would (an unclosed quote, an empty line: no program to start)."""
    try:
        words = shlex.split(command)
    except ValueError as exc:
        raise ConfigError(f"{where}: command {command[:80]!r} cannot be read: {str(exc).lower()} (quote as in a shell)") from None
    if not words:
        raise ConfigError(f"{where}: the command is empty: give the program to start, like './my_bot --fast'")


def resolve_command(command: str, base_dir: Path) -> str:
    """``command`` with its relative paths taken from ``base_dir`` (a YAML file's folder), so the
    file works from any current folder: each word that names an existing file or folder there and
    is not one here as an absolute path (e.g. ``./my_bot``, ``bots/x.py``)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    out = []
    for w in words:
        p = Path(w)
        if not p.is_absolute() and not w.startswith("-") and (base_dir / p).exists() and ("/" in w or p.suffix):
            out.append(str((base_dir / p).resolve()))
        else:
            out.append(w)
    return shlex.join(out)


def parse_match_config(data: Any, source: str | Where = "<config>", base_dir: Path | None = None) -> dict[str, Any]:
    """Validate a parsed YAML document; returns ``MatchConfig`` fields (only those given).

    ``base_dir`` (the YAML file's folder) is where relative paths in commands start, and where a
    ``.game`` file is looked for first (as a tournament file's is); a relative ``out`` stays under
    the current folder (the examples' files say so, and tests/test_cli_errors.py holds it)."""
    if data is None:
        return {}
    fields = parse_settings(data, _as_where(source), _TOP_KEYS, base_dir)
    game = fields.get("game")
    if base_dir is not None and isinstance(game, str) and not Path(game).is_absolute() and (base_dir / game).is_file():
        fields["game"] = str(base_dir / game)
    return fields


_TOP_KEYS = keyed(MATCH_SETTINGS, "match")
_DEALER_KEYS = keyed(DEALER_SETTINGS, "dealer")
_LIMIT_KEYS = keyed(LIMIT_SETTINGS, "limits")


def match_settings(data: Mapping[str, Any], at: Where) -> dict[str, Any]:
    """Settings given by keyword (the Python API): the match file's keys but ``game`` and ``agents``
    (given on their own), checked as a file's are."""
    allowed = {k: s for k, s in _TOP_KEYS.items() if k not in ("game", "agents")}
    return parse_settings(data, at, allowed)


def parse_settings(data: Any, at: Where, allowed: Mapping[str, Setting], base_dir: Path | None = None) -> dict[str, Any]:
    """The one validator of match and tournament files: each setting given (``allowed`` keys only,
    ``-`` or ``_`` alike), checked and converted; ``ConfigError`` naming the file and line."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{at()}: expected a mapping of settings (game, agents, hands, ...), got {type(data).__name__}")
    out = check_section(data, at, allowed)
    keys = {str(k).replace("-", "_"): k for k in data}
    if "agents" in out:
        out["agents"] = _agent_list(out["agents"], at, keys["agents"], base_dir)
    if "dealer" in out:
        out["dealer"] = _dealer(out["dealer"], at.sub(keys["dealer"]))
    return out


def _agent_list(value: Any, at: Where, key: Any, base_dir: Path | None) -> tuple[AgentSpec, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise ConfigError(f"{at(key)}: expected a list of agents, got {value!r}")
    return tuple(agent_spec(e, at.sub(key, i), base_dir) for i, e in enumerate(value))


def _dealer(value: Any, at: Where) -> DealerSettings:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{at()}: expected a mapping of dealer settings, got {value!r}")
    return DealerSettings(**check_section(value, at, _DEALER_KEYS, "dealer keys", unknown_at=at()))


def parse_limits(value: Any, where: str) -> Limits:
    """``Limits`` from a YAML mapping such as ``{memory_mb: 2048, cpu_s_per_hand: 7}``."""
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: expected a mapping of limits ({', '.join(_LIMIT_KEYS)}), got {value!r}")
    return Limits(**check_section(value, lambda key: f"{where}.{key}", _LIMIT_KEYS, "limits", unknown_at=where, noun="limit"))


def load_match_config(path: str | Path) -> dict[str, Any]:
    """Read and validate a YAML match file; ``ConfigError`` if unreadable or invalid."""
    data, at = load_yaml(path)
    return parse_match_config(data, at, Path(path).resolve().parent)


def config_to_json(config: MatchConfig) -> dict[str, Any]:
    """A JSON-able form of ``config`` (for child processes and result files): every declared setting."""
    doc = section_to_json(config, MATCH_SETTINGS)
    doc["agents"] = [_agent_to_json(a) for a in config.agents]
    doc["dealer"] = section_to_json(config.dealer, DEALER_SETTINGS)
    return doc


def _agent_to_json(a: AgentSpec) -> dict[str, Any]:
    limits = None if a.limits is None else section_to_json(a.limits, LIMIT_SETTINGS)
    return {"name": a.name, "command": a.command, "label": a.label, "seed": a.seed, "options": dict(a.options), "token": a.token,
            "limits": limits}


def config_from_json(d: Mapping[str, Any]) -> MatchConfig:
    """The inverse of ``config_to_json``."""
    agents = tuple(
        AgentSpec(name=a.get("name"), command=a.get("command"), label=a.get("label"), seed=a.get("seed"),
                  options=dict(a.get("options") or {}), token=bool(a.get("token", True)),
                  limits=None if a.get("limits") is None else Limits(**section_from_json(a["limits"], LIMIT_SETTINGS)))
        for a in d["agents"]
    )
    dealer = DealerSettings(**section_from_json(d.get("dealer") or {}, DEALER_SETTINGS))
    return MatchConfig(**{**section_from_json(d, MATCH_SETTINGS), "agents": agents, "dealer": dealer})


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

"""Every setting of a match, a tournament, the dealer and a sandboxed bot, declared once.

A ``Setting`` row says what the dataclass field (``MatchConfig``, ``TournamentConfig``,
``DealerSettings``, ``Limits``: its name, type and default) does not: how a value is checked, its
help, its flag, and why it has no flag or no YAML key when it has none. From these rows come the
command lines' flags (``add_flags``), the YAML validator with its "did you mean" (``check_section``),
the JSON round trip (``to_json``/``from_json``), the Python API's keywords and the README's table
of keys (``keys_table``). Pure: no I/O.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from showdown.errors import ConfigError, did_you_mean
from showdown.evaluation.estimators import Estimator
from showdown.protocol.logfile import MAX_HANDS
from showdown.server.dealer import OnTimeout

__all__ = [
    "PLAIN",
    "PLAIN_RULE",
    "DEALER_SETTINGS",
    "LIMIT_SETTINGS",
    "MATCH_SETTINGS",
    "MAX_SEED",
    "ExecutorName",
    "Setting",
    "add_flags",
    "check_section",
    "flag_values",
    "keys_table",
    "number_hint",
    "section_from_json",
    "section_to_json",
    "unknown_key",
]

MAX_SEED = 2**32 - 1  # the reference dealer seeds its MT19937 with 32 bits


class ExecutorName(StrEnum):
    """Where matches run: processes on this machine, or a Ray cluster (``matches.executors``)."""

    LOCAL = "local"
    RAY = "ray"


# ---------------------------------------------------------------------- kinds of value


PLAIN = re.compile(r"[\w.+-]+")
"""What a name that becomes a file's stem or a protocol word may hold (match names, seat labels): letters
and digits of any script (``str.isalnum``, as the names derived from a game file's name) and ``_.+-``;
never a space, a ``/``, or the ``:`` and ``|`` that separate a log line's fields."""
PLAIN_RULE = "may use only letters and digits (of any script), '-', '_', '.' and '+' (no spaces or other signs)"


MAX_SPIN_US = 100_000
"""The longest busy-wait a dealer may be given: a tenth of a second of a core per reply (99999999999999 was taken)."""


def number_hint(value: Any) -> str:
    """For a text setting YAML read as a number (``label: 2023``; ``0755`` is even octal 493): quote it."""
    return " (YAML read a number: put the text in quotes)" if isinstance(value, int | float) and not isinstance(value, bool) else ""


@dataclass(frozen=True)
class Whole:
    """A whole number in ``[low, high]``; with ``none`` a null (YAML) or a negative number (flag) too."""

    low: int = 0
    high: int | None = None
    none: str = ""  # what null means, when allowed
    what: str = ""  # how errors name it (default: an integer in its bounds)
    floats: bool = False  # also a float with a whole value (7.0)

    @property
    def text(self) -> str:
        bound = f"{self.low} to {self.high}" if self.high is not None else f">= {self.low}"
        return f"whole number {bound}" + (f" or null ({self.none})" if self.none else "")

    def check(self, value: Any, where: str) -> int | None:
        if value is None and self.none:
            return None
        number = isinstance(value, int) or (self.floats and isinstance(value, float) and value.is_integer())
        if isinstance(value, bool) or not number or not self._ok(int(value)):
            what = self.what or "an integer " + (f"{self.low} to {self.high}" if self.high is not None else f">= {self.low}")
            raise ConfigError(f"{where}: expected {what}, got {value!r}")
        return int(value)

    def _ok(self, value: int) -> bool:
        return value >= self.low and (self.high is None or value <= self.high)

    def flag(self, text: str) -> int | None:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < 0 and self.none:
            return -1  # "wait for ever": flag_values makes it None
        if not self._ok(value):
            if self.high is None:
                raise argparse.ArgumentTypeError(f"expected a number >= {self.low}, got {value}")
            raise argparse.ArgumentTypeError(f"expected a number from {self.low} to {self.high}, got {value}")
        return value

    def to_json(self, value: Any) -> Any:
        return value

    def from_json(self, value: Any) -> Any:
        return None if value is None else int(value)


@dataclass(frozen=True)
class Number:
    """A number above ``low`` (or from it, with ``closed``) up to ``high``; ``what`` names it in errors."""

    what: str
    low: float = 0.0
    high: float | None = None
    closed: bool = True

    @property
    def text(self) -> str:
        return self.what

    def _ok(self, v: float) -> bool:
        return (v >= self.low if self.closed else v > self.low) and (self.high is None or v <= self.high)

    def check(self, value: Any, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not self._ok(float(value)):
            raise ConfigError(f"{where}: expected {self.what}, got {value!r}")
        return float(value)

    def flag(self, text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not self._ok(value):
            raise argparse.ArgumentTypeError(f"expected {self.what}, got {text}")
        return value

    def to_json(self, value: Any) -> Any:
        return value

    def from_json(self, value: Any) -> Any:
        return None if value is None else float(value)


@dataclass(frozen=True)
class Flag:
    """True or false."""

    text: str = "true or false"

    def check(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: expected true or false, got {value!r}")
        return value

    def to_json(self, value: Any) -> Any:
        return value

    def from_json(self, value: Any) -> Any:
        return None if value is None else bool(value)


@dataclass(frozen=True)
class Text:
    """A string (``what`` names it in errors); ``path``: a file system path."""

    what: str
    empty_ok: bool = False
    path: bool = False
    plain: bool = False  # a file name's stem: letters, digits and _.+- only (said with the file's line)

    @property
    def text(self) -> str:
        return self.what

    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, str) or not (value or self.empty_ok):
            raise ConfigError(f"{where}: expected {self.what}, got {value!r}{number_hint(value)}")
        if self.plain and not PLAIN.fullmatch(value):
            raise ConfigError(f"{where}: {value!r} {PLAIN_RULE}")
        return Path(value).expanduser() if self.path else value  # ('~/logs' was a folder named '~' here)

    def flag(self, text: str) -> Any:
        if self.plain and not PLAIN.fullmatch(text):
            raise argparse.ArgumentTypeError(f"{text!r} {PLAIN_RULE}")
        return Path(text).expanduser() if self.path else text  # (--out=~/logs: no shell expands it)

    def to_json(self, value: Any) -> Any:
        return None if value is None else str(value)

    def from_json(self, value: Any) -> Any:
        return None if value is None else Path(value) if self.path else str(value)


@dataclass(frozen=True)
class Choice:
    """One of an enum's values, typed as the enum from the file, the flag and the JSON alike."""

    enum: type[StrEnum]

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(str(e) for e in self.enum)

    @property
    def text(self) -> str:
        return " \\| ".join(self.choices)

    def check(self, value: Any, where: str) -> StrEnum:
        if value not in self.choices:
            raise ConfigError(f"{where}: expected one of {', '.join(self.choices)}, got {value!r}")
        return self.enum(value)

    def flag(self, text: str) -> StrEnum:
        if text not in self.choices:
            raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(self.choices)})")
        return self.enum(text)

    def to_json(self, value: Any) -> Any:
        return None if value is None else str(value)

    def from_json(self, value: Any) -> Any:
        return None if value is None else self.enum(value)


@dataclass(frozen=True)
class Nested:
    """A section of its own (``agents``, ``dealer``): checked by the config module, not here."""

    text: str

    def to_json(self, value: Any) -> Any:
        return value

    def from_json(self, value: Any) -> Any:
        return value


Kind = Whole | Number | Flag | Text | Choice | Nested


# ---------------------------------------------------------------------- the declarations


@dataclass(frozen=True)
class Setting:
    """One setting: its key (the dataclass field's name), how values are checked, its help, and its
    flag; ``no_flag``/``no_key`` say why a command line or a file cannot give it. ``scopes``: in
    which files and command lines it exists (``match``, ``tournament``, ``dealer``, ``limits``)."""

    key: str
    kind: Kind
    help: str
    flag: str | None = None
    metavar: str | None = None
    aliases: tuple[str, ...] = ()
    negatable: bool = False  # --x / --no-x (a flag that can say false too, over a file's true)
    no_flag: str = ""
    no_key: str = ""
    scopes: frozenset[str] = frozenset({"match"})
    no_flag_in: Mapping[str, str] = dataclasses.field(default_factory=dict)  # scope -> why no flag there

    @property
    def dest(self) -> str:
        return self.key

    def flags_of(self, scope: str) -> tuple[str, ...]:
        if not self.flag or scope not in self.scopes or scope in self.no_flag_in:
            return ()
        return (self.flag, *self.aliases)


_MT = frozenset({"match", "tournament"})
_ALL_DEALER = frozenset({"match", "tournament", "dealer"})
_FILE_ONLY = {"tournament": "a tournament is its file: a re-run resumes the matches the file describes"}

MATCH_SETTINGS: tuple[Setting, ...] = (
    Setting("game", Text("a game name or .game file path"), "catalog name or a .game file",
            no_flag="given as the first word: showdown match GAME AGENT AGENT", scopes=_MT),
    Setting("agents", Nested("list of agent entries"), "one entry per seat, seat 1 first (see below)",
            no_flag="given as the words after the game (-o sets their options)", scopes=_MT),
    Setting("hands", Whole(1, MAX_HANDS), "hands to play (per duplicate half)", "--hands", scopes=_MT, no_flag_in=_FILE_ONLY),
    Setting("seed", Whole(0, MAX_SEED), "dealing seed; each agent's seed derives from it", "--seed", scopes=_MT, no_flag_in=_FILE_ONLY),
    Setting("fixed_seats", Flag(), "seat N always plays position N-1 (default: seats rotate)", "--fixed-seats", negatable=True),
    Setting("out", Text("a directory path", path=True), "folder for the logs and each bot's output (default out/; tournament: the file's name)", "--out",
            scopes=_MT, no_flag_in=_FILE_ONLY),
    Setting("name", Text("a match name", plain=True), "the logs' file names (default: game, agents and seed, as kuhn.rules-random.seed7)", "--name"),
    Setting("dealer", Nested("mapping of dealer settings"), "time limits and policies, as showdown dealer's flags (below)",
            no_flag="each dealer setting has its own flag (below)", scopes=_MT),
    Setting("progress", Flag(), "show the progress line (default: when stderr is a terminal)", "--progress", negatable=True,
            scopes=_MT),
    Setting("duplicate", Flag(), "also play every deal with the seats moved, and pair the results", "--duplicate", scopes=_MT, no_flag_in=_FILE_ONLY, negatable=True),
    Setting("estimator", Choice(Estimator), "how win rates are estimated (default: the best that applies, said in the output)",
            "--estimator", scopes=_MT, no_flag_in=_FILE_ONLY),
    Setting("jobs", Whole(1), "duplicate halves (tournament: matches) played at once (default: the number of cores)", "--jobs",
            scopes=_MT),
    Setting("force", Flag(), "overwrite the logs of an earlier match of the same name", "--force", negatable=True),
    Setting("resume", Flag(), "continue a killed match from its logs",
            no_flag="--resume MATCH reads the killed match's own settings (its .match.json)",
            no_key="set by --resume from the match's own .match.json, never in a new match's file"),
    Setting("executor", Choice(ExecutorName), "where duplicate halves (tournament: matches) run (default local)", "--executor",
            scopes=_MT),
    Setting("until_ci", Number("a half-width in chips per 100 hands, above 0", closed=False),
            "stop once the first agent's anytime-valid 95% interval is at most this wide either side (hands: the most)",
            "--until-ci", metavar="WIDTH"),
    Setting("until_separated", Flag(), "stop once the first agent's anytime-valid 95% interval excludes zero (hands: the most)",
            "--until-separated", negatable=True),
    Setting("address", Text("a HOST:PORT"), "the Ray cluster of executor: ray (default: Ray on this machine)", "--address",
            metavar="HOST:PORT", scopes=_MT),
    Setting("max_replaced", Number("a share of hands from 0 to 1 (0.01 is 1%)", high=1.0),
            "degraded (exit 3) above this share of hands played by the dealer for a seat", "--max-replaced", metavar="SHARE"),
    Setting("sandbox", Flag(), "run bots given as files, commands or module:Class confined (tournament default: true)",
            "--sandbox", negatable=True, scopes=_MT),
    Setting("in_memory", Flag(), "built-in agents play inside the runner's process, the same dealer reaching them through "
            "memory instead of TCP: the same logs and figures for a third to a half of the CPU time (bots given as files, "
            "commands or module:Class still run as processes)", "--in-memory", negatable=True, scopes=_MT),
    Setting("chance_boards", Whole(100, 1_000_000), "boards drawn for each flop's correction under the chance estimator: "
            "fewer cost less CPU and add a little noise (scorecard and exploit --probes: 1000, as LBR)", "--chance-boards",
            metavar="N"),
)
"""The top-level keys of a match file (``MatchConfig``) and, where ``scopes`` says so, a tournament file."""

DEALER_SETTINGS: tuple[Setting, ...] = (
    Setting("t_response_ms", Whole(0), "time limit per decision, then the dealer plays check/fold for the seat", "--t-response",
            metavar="MS", aliases=("--t_response",), scopes=_ALL_DEALER, no_flag_in=_FILE_ONLY),
    Setting("t_hand_ms", Whole(0), "time limit per seat and hand", "--t-hand", metavar="MS",
            aliases=("--t_hand",), scopes=_ALL_DEALER, no_flag_in=_FILE_ONLY),
    Setting("t_per_hand_ms", Whole(0), "average time per hand over the match, per seat", "--t-per-hand", metavar="MS",
            aliases=("--t_per_hand",), scopes=_ALL_DEALER, no_flag_in=_FILE_ONLY),
    Setting("start_timeout_ms", Whole(0, none="wait for ever"),
            "time for all seats to connect, then the missing ones are played check/fold (wait for ever: a negative number as a flag, null in a file)",
            "--start-timeout", metavar="MS", aliases=("--start_timeout",), scopes=_ALL_DEALER, no_flag_in=_FILE_ONLY),
    Setting("reconnect_ms", Whole(0), "how long a dropped seat may take to come back", "--reconnect-ms", metavar="MS",
            aliases=("--reconnect_ms",), scopes=_ALL_DEALER, no_flag_in=_FILE_ONLY),
    Setting("on_timeout", Choice(OnTimeout), "what a late seat's action becomes: fold (check when possible), call, or abort",
            "--on-timeout", aliases=("--on_timeout",), scopes=_ALL_DEALER, no_flag_in=_FILE_ONLY),
    Setting("spin_us", Whole(0, MAX_SPIN_US), "busy-wait this long for a fast agent's reply before sleeping, while that is measured to shorten the waits (microseconds, at most 100,000; 0: never)",
            "--spin-us", metavar="US", aliases=("--spin_us",), scopes=_ALL_DEALER, no_flag_in=_FILE_ONLY),
)
"""The ``dealer:`` section (``DealerSettings``): also ``showdown dealer``'s flags."""

_NO_LIMIT_FLAG = "per bot: only in an agent entry's limits: mapping"
_COUNT = Whole(1, what="a whole number above 0", floats=True)

LIMIT_SETTINGS: tuple[Setting, ...] = tuple(
    Setting(key, kind, help, no_flag=_NO_LIMIT_FLAG, scopes=frozenset({"limits"}))
    for key, kind, help in (
        ("memory_mb", _COUNT, "address space of each of its processes (MB)"),
        ("cpu_s_per_hand", Number("a number of seconds above 0", closed=False), "CPU seconds between two hands' ends"),
        ("cpu_s", _COUNT, "CPU seconds of its main process in the whole match"),
        ("processes", _COUNT, "processes and threads it may have at once"),
        ("open_files", _COUNT, "file descriptors"),
        ("file_mb", _COUNT, "the largest file it may write (MB)"),
        ("network", Flag(), "keep the machine's network (no namespace of its own)"),
    )
)
"""An agent entry's ``limits:`` (``sandbox.Limits``)."""


# ---------------------------------------------------------------------- derived: the validator


def unknown_key(where: str, key: Any, known: Iterable[str], what: str = "known keys", noun: str = "key") -> ConfigError:
    """The error for a misspelt key: the nearest known key first, then the full list."""
    known = sorted(known)
    hint = did_you_mean(key, known)
    return ConfigError(f"{where}: unknown {noun} {key!r}{': ' + hint if hint else ' '}({what}: {', '.join(known)})")


def keyed(settings: Sequence[Setting], scope: str) -> dict[str, Setting]:
    """The settings a file of ``scope`` may give, by key."""
    return {s.key: s for s in settings if scope in s.scopes and not s.no_key}


def check_section(
    data: Mapping[Any, Any],
    where: Callable[..., str],
    settings: Mapping[str, Setting],
    what: str = "known keys",
    *,
    unknown_at: str | None = None,
    noun: str = "key",
) -> dict[str, Any]:
    """Each key of ``data`` (``-`` or ``_`` alike) checked against ``settings`` and converted; nested
    sections are returned as given, for the caller. ``where(key)`` names the place in errors (an
    unknown key's: ``unknown_at``, when given)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        name = str(key).replace("-", "_")
        setting = settings.get(name)
        if setting is None:
            raise unknown_key(where(key) if unknown_at is None else unknown_at, key, settings, what, noun)
        kind = setting.kind
        out[name] = value if isinstance(kind, Nested) else kind.check(value, where(key))
    return out


# ---------------------------------------------------------------------- derived: JSON


def section_to_json(value: Any, settings: Sequence[Setting]) -> dict[str, Any]:
    """A dataclass's declared fields as JSON values."""
    return {s.key: s.kind.to_json(getattr(value, s.key)) for s in settings if not isinstance(s.kind, Nested)}


def section_from_json(doc: Mapping[str, Any], settings: Sequence[Setting]) -> dict[str, Any]:
    """The inverse of ``section_to_json`` (keys missing from ``doc`` are left to the defaults)."""
    return {s.key: s.kind.from_json(doc[s.key]) for s in settings if s.key in doc and not isinstance(s.kind, Nested)}


# ---------------------------------------------------------------------- derived: flags


def add_flags(
    parser: argparse.ArgumentParser,
    settings: Sequence[Setting],
    scope: str,
    *,
    holder: Any = None,
    defaults: Mapping[str, Any] | None = None,
    notes: Mapping[str, str] | None = None,
) -> None:
    """One flag per setting that has one in ``scope``. An unset flag is None (the file's value or
    the default applies) unless ``defaults`` gives it a value; the help says the default of
    ``holder`` (the dataclass), or that value. ``notes`` add to a setting's help in this command."""
    shown = {f.name: f.default for f in dataclasses.fields(holder)} if holder is not None else {}
    for s in settings:
        names = s.flags_of(scope)
        if not names:
            continue
        default = (defaults or {}).get(s.key)
        help = s.help + (notes or {}).get(s.key, "")
        said = default if default is not None else shown.get(s.key)
        if "default" not in help and said is not None and said is not dataclasses.MISSING and said is not False:
            help += f" (default {_default_text(said)})"
        help = help.replace("%", "%%")
        if isinstance(s.kind, Flag):
            action: Any = argparse.BooleanOptionalAction if s.negatable else "store_true"
            parser.add_argument(*names, dest=s.dest, action=action, default=default, help=help)
        elif isinstance(s.kind, Choice):
            parser.add_argument(*names, dest=s.dest, type=s.kind.flag, default=default, choices=list(s.kind.enum), help=help)
        elif not isinstance(s.kind, Nested):
            parser.add_argument(*names, dest=s.dest, type=s.kind.flag, default=default, metavar=s.metavar or s.key.upper(), help=help)


def flag_values(args: argparse.Namespace, settings: Sequence[Setting], scope: str) -> dict[str, Any]:
    """The settings given as flags (not None) in ``args``; a negative number for a setting whose
    null means something (``start_timeout_ms``: wait for ever) is that null."""
    out: dict[str, Any] = {}
    for s in settings:
        value = getattr(args, s.dest, None) if s.flags_of(scope) else None
        if value is None:
            continue
        if isinstance(s.kind, Whole) and s.kind.none and value < 0:
            value = None
        out[s.key] = value
    return out


def _default_text(value: Any) -> str:
    return str(value) if not isinstance(value, bool) else str(value).lower()


# ---------------------------------------------------------------------- derived: the README's table


def keys_table(sections: Sequence[tuple[str, Sequence[Setting], Any]]) -> str:
    """The README's table of keys: per section (a prefix such as ``dealer.``, its settings, the
    dataclass holding their defaults), each key with its flag, default, whether a tournament file
    takes it (and its command line the flag), and meaning."""
    rows = ["| key | flag | default | in a tournament | meaning |", "|---|---|---|---|---|"]
    for prefix, settings, holder in sections:
        defaults = {f.name: f for f in dataclasses.fields(holder)}
        for s in settings:
            if s.no_key:
                continue
            flag = f"`{s.flag}`" if s.flag else "—"
            tournament = "—" if "tournament" not in s.scopes else "key and flag" if s.flags_of("tournament") else "key"
            rows.append(f"| `{prefix}{s.key}` | {flag} | {_field_default(defaults.get(s.key))} | {tournament} | {s.help} |")
    return "\n".join(rows)


def _field_default(f: dataclasses.Field[Any] | None) -> str:
    if f is None or (f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING):
        return "required"
    if f.default is dataclasses.MISSING:
        return "—"
    value = f.default
    if value is None:
        return "—"
    return f"`{_default_text(value)}`"

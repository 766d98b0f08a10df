"""The Python API: matches and tournaments from a script or a notebook.

```python
import showdown

result = showdown.run_match("kuhn", ["equilibrium", "rules"], hands=2000, seed=1)
print(result)                 # the same table as `showdown match`
result.to_json()              # the `--json` document
result.to_csv()               # one row per agent and per position
showdown.run_match("kuhn", ["cfr", "rules"], hands=500, logs=False)  # figures only, no files

table = showdown.run_tournament("examples/tournament.yaml")
table.to_csv()
```

Agents are words as on the command line (``"cfr"``, a bot file, ``module:Class``), ``{"name": ..., "options": {...}}`` or ``{"command": ...}``
entries as in a match file, ``AgentSpec`` values, or in-process ``Agent`` objects, which play in a
thread of this process and meet the dealer over TCP like every other seat. Both calls block until
the match is over; from inside a running event loop (Jupyter) they run in a worker thread with an
event loop of their own, so calling them there works too (an interrupt stops the match at once;
``await run_match_async(...)`` is the non-blocking form).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from showdown.errors import ConfigError, LogExistsError
from showdown.evaluation.report import match_csv
from showdown.matches.tournament_results import tournament_csv

if TYPE_CHECKING:
    from showdown.evaluation.report import MatchReport
    from showdown.matches.config import AgentSpec
    from showdown.matches.tournament_results import TournamentResult

__all__ = ["MatchResult", "TournamentTable", "run_match", "run_match_async", "run_tournament"]

T = TypeVar("T")



@dataclass(frozen=True)
class MatchResult:
    """A finished match: ``report`` holds every figure; ``to_json``/``to_csv`` export them."""

    report: MatchReport

    def to_json(self) -> dict[str, Any]:
        """The document ``showdown match --json`` prints."""
        from showdown.evaluation.report import report_json

        return report_json(self.report)

    def to_csv(self) -> str:
        """One row per agent, then per position: what, name, hands, total, per100, ci95 and mbb."""
        return match_csv(self.to_json())

    def __str__(self) -> str:
        from showdown.evaluation.report import format_table

        return format_table(self.report)


@dataclass(frozen=True)
class TournamentTable:
    """A finished (or resumed) tournament: ``result`` holds the tables and rankings."""

    result: TournamentResult

    def to_json(self) -> dict[str, Any]:
        """The ``results.json`` document."""
        from showdown.matches.tournament_results import tournament_json

        return tournament_json(self.result)

    def to_csv(self) -> str:
        """The cross table, one row per (row agent, column agent) cell."""
        return tournament_csv(self.to_json())

    def __str__(self) -> str:
        from showdown.matches.tournament_results import format_tournament

        return format_tournament(self.result)


def _spec(agent: Any, where: str) -> AgentSpec:
    from showdown.agents.base import Agent
    from showdown.agents.registry import IN_PROCESS
    from showdown.matches.config import AgentSpec, agent_spec

    if isinstance(agent, AgentSpec):
        return agent
    if isinstance(agent, Agent):  # played in this process: the runner does not start it
        return AgentSpec(name=IN_PROCESS, label=type(agent).__name__)
    if isinstance(agent, (str, Path)):  # as on the command line: a built-in, a bot file, module:Class, openspiel:FILE
        from showdown.matches.agent_words import agent_from_word

        return agent_from_word(str(agent))
    if isinstance(agent, Mapping):
        return agent_spec(agent, where)
    if isinstance(agent, type) and issubclass(agent, Agent):
        raise ConfigError(f"{where}: {agent.__name__} is an Agent class: give an object of it, {agent.__name__}()")
    raise ConfigError(f"{where}: an agent is a name, a bot file, a mapping, an AgentSpec or an Agent object, not {type(agent).__name__}")


def _objects(agents: Sequence[Any]) -> dict[int, Any]:
    """Seat -> Agent object, for the agents given as objects."""
    from showdown.agents.base import Agent

    return {i: a for i, a in enumerate(agents) if isinstance(a, Agent)}


def _blocking(call: Callable[[], T], work: Callable[[], Coroutine[Any, Any, T]] | None = None) -> T:
    """Run ``call`` here, or in a worker thread when this thread already runs an event loop (Jupyter).
    There ``work`` (``call``'s coroutine) is what runs, so that Ctrl-C (a kernel interrupt) cancels it
    (its agents stopped) instead of waiting for the last hand; the ``KeyboardInterrupt`` goes on."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return call()
    if work is None:
        with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="showdown") as pool:
            return pool.submit(call).result()
    from showdown.server.event_loop import run_in_new_loop

    held: dict[str, Any] = {}

    async def tracked() -> T:
        held["loop"], held["task"] = asyncio.get_running_loop(), asyncio.current_task()
        if held.get("interrupted"):
            raise asyncio.CancelledError
        return await work()

    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="showdown") as pool:
        future = pool.submit(run_in_new_loop, tracked())
        try:
            return future.result()
        except KeyboardInterrupt:
            held["interrupted"] = True
            if "task" in held:
                held["loop"].call_soon_threadsafe(held["task"].cancel)
            raise  # (leaving the pool waits for the match's clean-up: seconds, not the hands left)


def _config(game: str | Path, agents: Sequence[Any], settings: Mapping[str, Any], logs: bool) -> Any:
    """The ``MatchConfig`` of a call: its keywords are the match file's keys, checked as a file's are."""
    from dataclasses import fields, replace

    from showdown.matches.config import DealerSettings, MatchConfig, Where, match_settings

    given = dict(settings)
    dealer = given.get("dealer")
    if isinstance(dealer, DealerSettings):  # a DealerSettings value, or a mapping as in a file
        given["dealer"] = {f.name: getattr(dealer, f.name) for f in fields(dealer)}
    if isinstance(given.get("out"), Path):
        given["out"] = str(given["out"])
    checked = match_settings(given, Where("run_match"))
    if not isinstance(logs, bool):  # logs="no" is true: it wrote the files it was meant not to
        raise ConfigError(f"run_match: logs: expected True or False, got {logs!r:.40}")
    if not isinstance(game, (str, Path)):
        raise ConfigError(f"run_match: game: expected a catalog name or a .game file, got {type(game).__name__} {game!r:.40}")
    if isinstance(agents, (str, bytes, Mapping)) or not isinstance(agents, Sequence):
        raise ConfigError(f"run_match: agents: expected a list with one agent per seat, like ['rules', 'call'], got {agents!r:.60}")
    specs = tuple(_spec(a, f"agent {i + 1}") for i, a in enumerate(agents))
    checked.setdefault("progress", False)
    checked["out"] = checked.get("out", Path("out")) if logs else None
    return replace(MatchConfig(game=str(game), agents=specs), **checked).check()


def _plain(value: Any) -> str:
    """A tournament mapping's value as a YAML file gives it: a path is its text; anything else no file
    holds (an ``Agent`` object, which only ``run_match`` seats) is a ``ConfigError``."""
    from showdown.agents.base import Agent

    if isinstance(value, Path):
        return str(value)
    if isinstance(value, Agent):
        raise ConfigError(f"run_tournament: agent {type(value).__name__}: an Agent object plays only in run_match; "
                          "a tournament's agents are names, mappings or module:Class names, as in its YAML file")
    raise ConfigError(f"run_tournament: expected the plain values of a YAML file, got {type(value).__name__} {value!r:.40}")


def _logs_exist(exc: LogExistsError) -> LogExistsError:
    """The command line's advice, in the API's words."""
    return LogExistsError(exc.path, "run_match(..., force=True) overwrites them, name='...' gives the match another name, logs=False writes none")


def run_match(game: str | Path, agents: Sequence[Any], *, logs: bool = True, **settings: Any) -> MatchResult:
    """Play a match between ``agents`` (each its own seat) and return its result.

    ``settings`` are a match file's keys with the same meanings and checks (the README's table of
    keys: ``hands``, ``seed``, ``duplicate``, ``estimator``, ``dealer`` as a mapping, ...); a
    misspelt one is a ``ConfigError`` naming the nearest. Logs go to ``out`` (default ``out/``),
    named as ``showdown match`` names them; an earlier match's logs of the same name are kept
    (``LogExistsError``) unless ``force``; ``logs=False`` writes no file at all (a notebook cell run
    again and again).
    """
    from showdown.matches.runner import run_match as run
    from showdown.matches.runner import run_match_async as run_async

    config = _config(game, agents, settings, logs)
    objects = _objects(agents)
    quiet: Any = {"progress": False, "notify": lambda _text: None, "in_process": objects}
    try:
        return MatchResult(_blocking(lambda: run(config, **quiet), lambda: run_async(config, **quiet)))
    except LogExistsError as exc:
        raise _logs_exist(exc) from None


async def run_match_async(game: str | Path, agents: Sequence[Any], *, logs: bool = True, **settings: Any) -> MatchResult:
    """``run_match`` as a coroutine, for code that already runs an event loop."""
    from showdown.matches.runner import run_match_async as run

    config = _config(game, agents, settings, logs)
    try:
        return MatchResult(await run(config, progress=False, notify=lambda _text: None, in_process=_objects(agents)))
    except LogExistsError as exc:
        raise _logs_exist(exc) from None


def run_tournament(
    config: str | Path | Mapping[str, Any],
    *,
    jobs: int | None = None,
    executor: str | None = None,
    address: str | None = None,
    progress: bool = False,
) -> TournamentTable:
    """Play (or resume) a tournament from a YAML file or the same keys as a mapping."""
    from showdown.matches.config import Where, match_settings
    from showdown.matches.executors import make_executor
    from showdown.matches.tournament import run_tournament as run
    from showdown.matches.tournament import run_tournament_async as run_async
    from showdown.matches.tournament_config import load_tournament_config, parse_tournament_config

    if not isinstance(config, (str, Path, Mapping)):
        raise ConfigError(f"run_tournament: expected a YAML file's path or a mapping of its keys, got {type(config).__name__}")
    keywords = {"jobs": jobs, "executor": executor, "address": address, "progress": progress}
    match_settings({k: v for k, v in keywords.items() if v is not None}, Where("run_tournament"))  # as a file's keys
    if isinstance(config, Mapping):
        data = json.loads(json.dumps(config, default=_plain))  # plain values only, as a YAML file would give
        cfg = parse_tournament_config(data, Where("<tournament>"), default_out=Path("out") / "tournament")
    else:
        cfg = load_tournament_config(config)
    chosen = make_executor(executor, address)
    return TournamentTable(
        _blocking(lambda: run(cfg, jobs=jobs, progress=progress, install_signals=False, executor=chosen),
                  lambda: run_async(cfg, jobs=jobs, progress=progress, executor=chosen))
    )

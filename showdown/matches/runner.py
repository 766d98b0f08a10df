"""Run a match: the dealer in-process, every agent a separate OS process, results online.

``run_match(config)`` starts a ``MatchServer`` on 127.0.0.1 (free ports), launches one process per
seat (built-in agents as ``python -m showdown agent NAME --game G --seed S ... HOST
PORT``, the same arguments as ``showdown agent``; outside bots as ``<command> HOST PORT`` with
``SHOWDOWN_GAME`` set), plays, and returns a ``MatchReport``. Per-agent and per-position statistics
are updated from each finished hand (``MatchStats``), so memory stays flat however many hands.

An agent that cannot start or crashes does not stop the match: the dealer plays check/fold for it
(after ``start_timeout_ms`` when it never connected, ``reconnect_ms`` after a crash) and one line
says so. Ctrl-C (SIGINT) stops after the current hand; a second one stops at once; logs and the
partial results are still produced. Agent processes run in their own session so the terminal's
Ctrl-C reaches only the runner, and end when the dealer closes their connection.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shlex
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from showdown.agents.client import TOKEN_ENV
from showdown.errors import ConfigError, ShowdownError
from showdown.games.catalog import CATALOG, get_game
from showdown.games.gamedef import GameDef
from showdown.matches.config import AgentSpec, MatchConfig
from showdown.matches.report import MatchReport
from showdown.matches.seeds import agent_seed
from showdown.matches.stats import MatchStats
from showdown.protocol.logfile import HandRecord
from showdown.server.tcp import DEALER_PLAYED
from showdown.status import StatusLine

__all__ = ["run_match", "run_match_async", "seat_labels", "derive_seed", "agent_command", "Progress"]

HOST = "127.0.0.1"
AGENT_EXIT_GRACE = 5.0  # seconds agents get to exit after the dealer closes their connection
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


derive_seed = agent_seed
"""The seed of the agent in ``seat`` when none is given (``showdown.matches.seeds.agent_seed``)."""


def seat_labels(specs: Sequence[AgentSpec]) -> list[str]:
    """Seat names: each agent's label, numbered (``random-1``, ``random-2``) where they repeat."""
    base = [s.display for s in specs]
    counts = {b: base.count(b) for b in base}
    seen: dict[str, int] = {}
    out = []
    for b in base:
        if counts[b] > 1:
            seen[b] = seen.get(b, 0) + 1
            out.append(f"{b}-{seen[b]}")
        else:
            out.append(b)
    return out


def game_argument(spec: str) -> str:
    """How to name the game to an agent process: the catalog name, or an absolute file path."""
    if any(e.name == spec for e in CATALOG) or spec.startswith("kuhn-") and spec[5:].isdigit():
        return spec
    path = Path(spec)
    return str(path.resolve()) if path.is_file() else spec


def agent_command(spec: AgentSpec, game_arg: str, seed: int, host: str, port: int) -> list[str]:
    """The command line that starts ``spec`` against ``host:port``."""
    if spec.command is not None:
        return [*shlex.split(spec.command), host, str(port)]
    assert spec.name is not None
    args = [sys.executable, "-m", "showdown", "agent", spec.name, "--game", game_arg, "--seed", str(seed)]
    for key, value in spec.options.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        args += ["-o", f"{key}={value}"]
    return [*args, host, str(port)]


def _check_agents(specs: Sequence[AgentSpec], game: GameDef) -> None:
    """Unknown built-in names and bad options fail here, before anything starts."""
    from showdown.agents.registry import agent_names, is_known_agent, make_agent

    if any(s.name is not None and ":" in s.name for s in specs) and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # module:Class agents come from the current folder, as in the agent process
    for spec in specs:
        if spec.name is None:
            continue
        if not is_known_agent(spec.name):
            raise ConfigError(f"unknown agent {spec.name!r}: known agents are {', '.join(agent_names())}")
        if spec.name in _CHEAP_AGENTS:  # cheap to build: catches bad options with a clear message
            make_agent(spec.name, game, {**spec.options, "seed": spec.seed or 0})


_CHEAP_AGENTS = ("random", "call", "bluff", "rules")
STATS_BATCH = 256  # hands folded into the running statistics at a time


class Progress(StatusLine):
    """A progress line on stderr: hands done, hands/s and each agent's running chips/100.

    Printed only after ``delay`` seconds and at most every ``every`` seconds; on a terminal it
    rewrites one line, elsewhere it prints a line each time.
    """

    def __init__(
        self,
        total: int,
        stats: MatchStats,
        stream: TextIO | None = None,
        delay: float = 2.0,
        every: float = 0.5,
        show_agents: bool = True,
        catch_up: Callable[[], None] | None = None,
    ) -> None:
        self.total = total
        self.stats = stats
        self.catch_up = catch_up  # brings ``stats`` up to date before a line is shown
        self.show_agents = show_agents
        super().__init__(stream)
        self.start = time.monotonic()
        self.next = self.start + delay
        self.every = every if self.tty else max(every, 5.0)
        self.shown = False

    def update(self) -> None:
        now = time.monotonic()
        if now < self.next:
            return
        self.next = now + self.every
        if self.catch_up is not None:
            self.catch_up()
        done = self.stats.hands
        rate = done / (now - self.start) if now > self.start else 0.0
        parts = [f"{done:,}/{self.total:,} hands", f"{rate:,.0f} hands/s"]
        if self.show_agents:
            for name, e in zip(self.stats.names, self.stats.agents()):
                parts.append(f"{name} {e.per100:+.1f}/100")
        self.show("  ".join(parts))


@dataclass
class _AgentProcess:
    seat: int
    label: str
    args: list[str]
    output_path: Path | None = None  # where its stdout and stderr go (beside the logs)
    env: dict[str, str] = field(default_factory=dict)
    proc: asyncio.subprocess.Process | None = None
    stderr_tail: deque[str] = field(default_factory=lambda: deque(maxlen=5))
    reader: asyncio.Task[None] | None = None
    watcher: asyncio.Task[None] | None = None
    killed: bool = False


MATCH_FILE_SUFFIX = ".match.json"


def save_match_file(config: MatchConfig, name: str) -> Path:
    """``<out>/<match>.match.json``: the settings of the match, so that ``--resume`` can restart it."""
    from dataclasses import replace

    from showdown.matches.config import config_to_json

    assert config.out is not None
    path = Path(config.out) / f"{name}{MATCH_FILE_SUFFIX}"
    doc = config_to_json(replace(config, name=name, force=False, resume=False))
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return path


def load_match_file(where: str | Path) -> MatchConfig:
    """The match to resume: a ``.match.json`` file, its ``.log``, or a folder holding one unfinished match."""
    from dataclasses import replace

    from showdown.matches.config import config_from_json

    p = Path(where)
    if p.is_dir():
        candidates = sorted(p.glob(f"*{MATCH_FILE_SUFFIX}"))
        unfinished = [c for c in candidates if not _finished_log(c)]
        if len(unfinished) != 1:
            names = ", ".join(c.name.removesuffix(MATCH_FILE_SUFFIX) for c in unfinished) or "none"
            raise ConfigError(f"--resume {where}: {len(unfinished)} unfinished matches there ({names}); name one's .match.json")
        p = unfinished[0]
    elif p.suffix in (".log", ".jsonl"):
        p = p.with_suffix(MATCH_FILE_SUFFIX)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"--resume {where}: cannot read the match file {p}: {exc}") from None
    return replace(config_from_json(doc), resume=True)


@dataclass
class StoppingRule:
    """``--until-ci`` / ``--until-separated``: stop once the first agent's anytime-valid interval
    (a confidence sequence, valid however often it is looked at) is narrow enough or excludes zero."""

    sequence: Any
    label: str
    half_width_per100: float | None
    separated: bool
    pending: list[float] = field(default_factory=list)
    stopped: bool = False

    @classmethod
    def of(cls, config: MatchConfig, game: GameDef, label: str) -> StoppingRule | None:
        if config.until_ci is None and not config.until_separated:
            return None
        from showdown.evaluation.confidence import ConfidenceSequence, hand_range

        low, high = hand_range(game)
        return cls(ConfidenceSequence(low, high), label, config.until_ci, config.until_separated)

    def add(self, record: HandRecord) -> bool:
        """Take a hand; True when the match may stop (looked at every 256 hands)."""
        for name, value in zip(record.players, record.values):
            if name == self.label:
                self.pending.append(value)
        if len(self.pending) < STATS_BATCH:
            return False
        self.sequence.update(self.pending)
        self.pending.clear()
        if self.separated and self.sequence.excludes(0.0):
            return True
        return self.half_width_per100 is not None and 100 * self.sequence.half_width() <= self.half_width_per100

    def summary(self, hands: int) -> dict[str, Any]:
        lo, hi = self.sequence.interval()
        goal = "the interval excludes zero" if self.separated else f"a half-width of {self.half_width_per100:g}/100"
        return {
            "rule": "until-separated" if self.separated else "until-ci",
            "agent": self.label,
            "goal": goal,
            "reached": self.stopped,
            "hands": hands,
            "interval_per100": [100 * lo, 100 * hi],
            "method": "anytime-valid 95% confidence sequence (empirical Bernstein; Waudby-Smith and Ramdas 2023)",
        }


def _replay_finished_hands(jsonl: Path, hands: int, hand_done: Callable[[HandRecord], None]) -> None:
    """A resumed match's report covers every hand: the ones played before the crash come from its log."""
    with jsonl.open("r", encoding="utf-8") as f:
        for _, line in zip(range(hands), f):
            hand_done(HandRecord.from_json(line))


def _finished_log(match_file: Path) -> bool:
    log = match_file.with_name(match_file.name.removesuffix(MATCH_FILE_SUFFIX) + ".log")
    try:
        with log.open("rb") as f:
            f.seek(max(0, log.stat().st_size - 300))
            return b"\nSCORE:" in f.read()
    except OSError:
        return False


def _match_name(config: MatchConfig, labels: Sequence[str]) -> str:
    if config.name:
        return config.name
    stem = config.game if any(e.name == config.game for e in CATALOG) else Path(config.game).stem
    stem = "".join(ch if ch.isalnum() or ch in "-_.+" else "_" for ch in stem) or "match"
    return f"{stem}.{'-'.join(labels)}.seed{config.seed}"


async def run_match_async(
    config: MatchConfig,
    *,
    on_hand: Callable[[HandRecord], None] | None = None,
    progress: bool | None = None,
    notify: Callable[[str], None] | None = None,
    install_signals: bool = False,
    in_process: Mapping[int, Any] | None = None,
) -> MatchReport:
    """Play ``config`` and return its report (see the module docstring).

    ``in_process`` maps seats (from 0) to ``Agent`` objects that play in this process, over TCP
    like every other seat (the Python API's agents given as objects); their specs are not started.
    """
    from showdown.server.tcp import DealerOptions, MatchServer

    in_process = dict(in_process or {})

    config.check()
    say = notify if notify is not None else _stderr_line
    game = get_game(config.game)
    game.require_servable()
    n = game.num_players
    if len(config.agents) != n:
        raise ConfigError(
            f"{config.game} is a {n}-player game but {len(config.agents)} agents were given"
        )
    _check_agents([s for i, s in enumerate(config.agents) if i not in in_process], game)
    if config.duplicate:
        from showdown.matches.duplicate import run_duplicate_async

        if in_process:
            raise ConfigError("agents given as objects play plain matches; for --duplicate give them as module:Class")

        if config.resume:
            raise ConfigError("--resume continues a plain match; a duplicate match is replayed (run it again with --force)")

        return await run_duplicate_async(
            config, on_hand=on_hand, progress=progress, notify=notify, install_signals=install_signals
        )
    from showdown.matches.analyze import AivatAccumulator, plan_estimator

    labels = seat_labels(config.agents)
    seeds = [s.seed if s.seed is not None else derive_seed(config.seed, i) for i, s in enumerate(config.agents)]
    big_blind = game.big_blind
    plan = plan_estimator(game, config.agents, config.estimator, False)
    # AIVAT folded in batch by batch: memory stays flat however many hands
    collector = AivatAccumulator(labels, plan.aivat, big_blind=big_blind, num_positions=n) if plan.estimator == "aivat" else None
    stats = MatchStats(labels, big_blind, n)
    chance = _ChanceStats(game, labels, big_blind) if plan.estimator == "chance" else None
    collect = collector.add_record if collector is not None else None
    waiting: list[HandRecord] = []  # hands not yet in the statistics: they go in by the batch
    played = 0

    def catch_up() -> None:
        """Fold the waiting hands into the statistics (a batch costs less per hand than one by one)."""
        nonlocal collect, collector
        if not waiting:
            return
        stats.add_many([r.seats for r in waiting], [r.values for r in waiting])
        if chance is not None:
            chance.add(waiting)
        if collect is not None:
            try:
                for record in waiting:
                    collect(record)
            except ShowdownError as exc:  # a hand AIVAT cannot place: plain figures, said once
                collect = collector = None
                plan.notes.append(f"AIVAT not possible: {exc}")
        waiting.clear()

    show_progress = progress if progress is not None else (config.progress if config.progress is not None else sys.stderr.isatty())
    ticker = Progress(config.hands, stats, catch_up=catch_up) if show_progress else None

    replaced_hands = dict.fromkeys(labels, 0)
    rule = StoppingRule.of(config, game, labels[0])
    exact = _ExactTracker.of(game, config.agents, in_process)
    from showdown.evaluation.series import WinningsSeries

    series = WinningsSeries(labels)

    def hand_done(record: HandRecord) -> None:
        nonlocal played
        played += 1
        if rule is not None and rule.add(record) and not rule.stopped:
            rule.stopped = True
            server.request_stop()
        if record.events:
            for seat in {e.get("seat") for e in record.events if e.get("kind") in DEALER_PLAYED}:
                if isinstance(seat, int) and 0 <= seat < len(labels):
                    replaced_hands[labels[seat]] += 1
        waiting.append(record)
        series.add(record.seats, record.values)
        if exact is not None:
            exact.add(record.seats)
        if len(waiting) >= STATS_BATCH:
            catch_up()
        if ticker is not None:
            ticker.update()
        if on_hand is not None:
            on_hand(record)

    d = config.dealer
    game_arg = game_argument(config.game)
    # every seat a secret, on loopback too: no other process can take a seat of this match
    tokens = tuple(secrets.token_hex(16) if spec.token else None for spec in config.agents)
    for spec, label in zip(config.agents, labels):
        if not spec.token:
            say(f"agent {label} sends no seat token (token: false): its seat is guarded only by its port "
                "closing once it connects")
    options = DealerOptions(
        tokens=tokens,
        host=HOST,
        fixed_seats=config.fixed_seats,
        t_response_ms=d.t_response_ms,
        t_hand_ms=d.t_hand_ms,
        t_per_hand_ms=d.t_per_hand_ms,
        start_timeout_ms=d.start_timeout_ms,
        on_timeout=d.on_timeout,
        reconnect_ms=d.reconnect_ms,
        spin_us=d.spin_us,
        log_dir=config.out,
        force=config.force,
        resume=config.resume,
        game_label=game_arg if game_arg == config.game else None,  # a file: the dealer copies it beside the log
    )
    server = MatchServer(game, _match_name(config, labels), config.hands, config.seed, labels, options, on_hand=hand_done)
    ports = await server.start()
    if config.out is not None:
        save_match_file(config, _match_name(config, labels))
    if server.resumed_at and server.jsonl_path is not None:
        _replay_finished_hands(server.jsonl_path, server.resumed_at, hand_done)
    failures: list[str] = []
    config_errors: list[str] = []
    over = False

    def refused(seat: int, why: str) -> None:
        """Before the first hand, a seat whose own bot is refused (no or a wrong token) cannot play."""
        if server.engine.started or "token" not in why or config_errors:
            return
        spec = config.agents[seat]
        hint = (" (a bot started by showdown match gets its secret in $SHOWDOWN_SEAT_TOKEN and sends "
                "'VERSION:2.0.0 token=SECRET'; for one that cannot, add 'token: false' to its entry)")
        config_errors.append(f"agent {labels[seat]} (seat {seat + 1}) was refused its seat: {why}{hint if spec.command else ''}")
        server.request_stop()
        server.request_stop()

    server.on_refused = refused

    def fail(agent: _AgentProcess, text: str) -> None:
        line = f"agent {agent.label} (seat {agent.seat + 1}) {text}"
        failures.append(line)
        say(line)

    env = dict(os.environ)
    env["SHOWDOWN_GAME"] = game_arg
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_PACKAGE_ROOT, env.get("PYTHONPATH", "")) if p)
    match_name = _match_name(config, labels)
    agents = [
        _AgentProcess(
            i,
            labels[i],
            agent_command(spec, game_arg, seeds[i], HOST, ports[i]),
            output_path=Path(config.out) / f"{match_name}.{labels[i]}.stderr" if config.out is not None else None,
            env={TOKEN_ENV: token} if (token := tokens[i]) is not None else {},
        )
        for i, spec in enumerate(config.agents)
    ]

    async def read_stderr(agent: _AgentProcess, stream: asyncio.StreamReader) -> None:
        """Keep the last lines for messages and copy everything to the seat's output file."""
        sink = None
        if agent.output_path is not None:
            try:
                sink = open(agent.output_path, "wb")
            except OSError:
                sink = None
        try:
            while True:
                try:
                    raw = await stream.readline()
                except ValueError:  # a line over the reader's limit: keep its start
                    raw = await stream.read(1 << 16)
                if not raw:
                    return
                if sink is not None:
                    try:
                        sink.write(raw)
                        sink.flush()
                    except OSError:
                        sink = None
                text = raw.decode("utf-8", "replace").rstrip()
                if text:
                    agent.stderr_tail.append(text[:300])
        finally:
            if sink is not None:
                sink.close()

    async def watch(agent: _AgentProcess) -> None:
        assert agent.proc is not None
        rc = await agent.proc.wait()
        if agent.reader is not None:
            try:
                await asyncio.wait_for(agent.reader, 1.0)
            except (TimeoutError, asyncio.CancelledError):
                pass
        if agent.killed or (over and rc == 0):
            return
        last = agent.stderr_tail[-1] if agent.stderr_tail else ""
        if not server.engine.started and not over:
            # it never got to play: the match stops before its first hand, and says why
            why = f"exited with status {rc}" if rc > 0 else (f"was killed by signal {-rc}" if rc < 0 else "exited")
            said = "; ".join(list(agent.stderr_tail)[-3:]) or "it printed nothing"
            where = f" (its output: {agent.output_path})" if agent.output_path is not None else ""
            config_errors.append(f"agent {agent.label} (seat {agent.seat + 1}) {why} before the match began: {said}{where}")
            server.request_stop()
            server.request_stop()
            return
        if rc == 2 and config.agents[agent.seat].name is not None and played == 0 and not over:
            # a built-in agent refused its settings (bad option, missing strategy file): a usage
            # error like an unknown agent name, so the match stops before it starts
            message = last.split(": error: ", 1)[-1] or "exited with status 2"
            if str(config.agents[agent.seat].name) not in message:
                message = f"agent {agent.label}: {message}"
            config_errors.append(message)
            server.request_stop()
            return
        why = f"exited with status {rc}" if rc >= 0 else f"was killed by signal {-rc}"
        if rc == 0:
            why = "exited before the match ended"
        note = f": {last}" if last else ""
        if over:
            fail(agent, f"{why}{note}")
        else:
            fail(agent, f"{why}{note}; the dealer plays check/fold for it")

    async def spawn(agent: _AgentProcess) -> None:
        spec = config.agents[agent.seat]
        try:
            agent.proc = await asyncio.create_subprocess_exec(
                *agent.args,
                stdin=asyncio.subprocess.DEVNULL,
                # its stdout and stderr in one stream: read for messages, copied beside the logs
                stdout=asyncio.subprocess.DEVNULL if agent.output_path is None else asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE if agent.output_path is None else asyncio.subprocess.STDOUT,
                env={**env, **agent.env},
                start_new_session=True,  # the terminal's Ctrl-C is for the runner only
            )
        except OSError as exc:
            what = spec.command or spec.name
            config_errors.append(
                f"agent {agent.label} (seat {agent.seat + 1}) could not be started: {what}: {exc.strerror or exc}"
            )
            server.request_stop()
            server.request_stop()
            return
        stream = agent.proc.stderr if agent.output_path is None else agent.proc.stdout
        assert stream is not None
        agent.reader = asyncio.ensure_future(read_stderr(agent, stream))
        agent.watcher = asyncio.ensure_future(watch(agent))

    loop = asyncio.get_running_loop()
    interrupted = 0  # the signal that stopped the match (SIGINT or SIGTERM), 0 while none did

    def on_signal(sig: int) -> None:
        nonlocal interrupted
        if not interrupted:
            say("stopping after this hand (Ctrl-C again to stop at once)")
        interrupted = interrupted or sig
        server.request_stop()

    signals_installed = False
    if install_signals:
        try:
            loop.add_signal_handler(signal.SIGINT, on_signal, signal.SIGINT)
            loop.add_signal_handler(signal.SIGTERM, on_signal, signal.SIGTERM)
            signals_installed = True
        except (NotImplementedError, RuntimeError, ValueError):
            pass
    started = time.monotonic()
    in_process_tasks: list[asyncio.Future[Any]] = []
    try:
        from showdown.agents.client import play_async

        for agent in agents:
            if agent.seat in in_process:
                seat_client = in_process[agent.seat]
                if hasattr(seat_client, "play_seat"):  # a seat client of its own (the browser's human seat)
                    task = asyncio.ensure_future(seat_client.play_seat(HOST, ports[agent.seat], tokens[agent.seat]))
                else:
                    task = asyncio.ensure_future(
                        play_async(seat_client, HOST, ports[agent.seat], game, token=tokens[agent.seat])
                    )
                in_process_tasks.append(task)
            else:
                await spawn(agent)
        result = await server.run()
    finally:
        elapsed = time.monotonic() - started
        over = True
        if signals_installed:
            loop.remove_signal_handler(signal.SIGINT)
            loop.remove_signal_handler(signal.SIGTERM)
        if ticker is not None:
            ticker.finish()
        if in_process_tasks:
            await asyncio.wait(in_process_tasks, timeout=AGENT_EXIT_GRACE)
        await _reap(agents)
    if config_errors:
        raise ConfigError(config_errors[0])
    catch_up()
    show_mbb = len(set(game.blind)) > 1
    analysis = _analysis(stats, collector, plan, result.totals, show_mbb, chance)
    report = MatchReport(
        max_replaced=config.max_replaced,
        game=config.game,
        hands=result.hands_played,
        hands_requested=config.hands,
        seed=config.seed,
        names=tuple(labels),
        agents=tuple(s.name or s.command or "" for s in config.agents),
        totals=tuple(result.totals),
        agent_stats=analysis.agents,
        position_stats=analysis.positions,
        replacements=result.replacements,
        log_path=result.log_path,
        jsonl_path=result.jsonl_path,
        fixed_seats=config.fixed_seats,
        show_mbb=show_mbb,
        big_blind=big_blind,
        aborted=result.aborted and not interrupted and not (rule is not None and rule.stopped),
        interrupted=bool(interrupted),
        stop_signal=interrupted,
        replaced_hands=replaced_hands,
        stopping=rule.summary(result.hands_played) if rule is not None else None,
        reason=result.reason,
        elapsed=elapsed,
        play_seconds=result.play_seconds,
        failures=failures,
        analysis=analysis,
        exact_values=exact.result(labels, big_blind) if exact is not None else None,
    )
    if result.log_path is not None:
        save_result_file(report, series.to_json())
    return report


RESULT_FILE_SUFFIX = ".result.json"


def save_result_file(report: MatchReport, series: dict[str, Any] | None = None) -> Path | None:
    """``<out>/<match>.result.json``: the ``--json`` document of a finished match, with its thinned
    cumulative winnings (``series``), so that ``showdown view`` opens any match at once."""
    from showdown.matches.report import report_json

    if report.log_path is None:
        return None
    path = report.log_path.with_name(report.log_path.name.removesuffix(".log") + RESULT_FILE_SUFFIX)
    doc = report_json(report)
    doc["series"] = series
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(doc) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        return None
    return path


class _ExactTracker:
    """Counts the seat arrangements of a match whose every seat plays a known strategy (games of more
    than two players, where AIVAT does not apply), for the exact values beside the estimate."""

    def __init__(self, game: GameDef, strategies: list[Any]) -> None:
        self.game = game
        self.strategies = strategies
        self.arrangements: dict[tuple[int, ...], int] = {}

    @classmethod
    def of(cls, game: GameDef, specs: Sequence[AgentSpec], in_process: Mapping[int, Any]) -> _ExactTracker | None:
        if game.num_players <= 2 or in_process or game.is_nolimit:
            return None
        from showdown.matches.aivat import known_strategies
        from showdown.solvers.multiplayer import check_multiplayer_solvable

        try:
            check_multiplayer_solvable(game)
        except ShowdownError:
            return None
        strategies, unknown = known_strategies(specs, game)
        return None if unknown else cls(game, strategies)

    def add(self, seats: tuple[int, ...]) -> None:
        self.arrangements[seats] = self.arrangements.get(seats, 0) + 1

    def result(self, labels: Sequence[str], big_blind: int) -> dict[str, Any] | None:
        from showdown.evaluation.exact_values import exact_values

        try:
            values = exact_values(self.game, self.strategies, self.arrangements)
        except ShowdownError:
            return None
        return {
            "hands": values.hands,
            "agents": {name: 100.0 * v for name, v in zip(labels, values.seats)},
            "positions": [100.0 * v for v in values.positions],
            "units": "chips per 100 hands",
        }


class _ChanceStats:
    """The match's statistics with the cards' luck taken out (``evaluation.chance``), hand by hand."""

    def __init__(self, game: GameDef, labels: Sequence[str], big_blind: int) -> None:
        from showdown.evaluation.chance import ChanceCorrector

        self.corrector = ChanceCorrector(game)
        self.stats = MatchStats(labels, big_blind, game.num_players)

    def add(self, records: Sequence[HandRecord]) -> None:
        values = []
        for r in records:
            luck = self.corrector.corrections(r.hole, r.board, r.betting)
            values.append([v - c for v, c in zip(r.values, luck)])
        self.stats.add_many([r.seats for r in records], values)


def _analysis(
    stats: MatchStats, collector: Any, plan: Any, totals: Sequence[float], show_mbb: bool, chance: _ChanceStats | None = None
) -> Any:
    """The report's figures under the planned estimator; plain (with a note) if AIVAT cannot be had."""
    from showdown.matches.analyze import plain_analysis

    if chance is not None and stats.hands:
        a = plain_analysis(chance.stats, totals, show_mbb=show_mbb, notes=plan.notes)
        a.estimator = "chance"
        a.plain_agents, a.plain_positions, a.plain_differences = stats.agents(), stats.positions(), stats.differences()
        a.reason = plan.reason
        return a

    if collector is not None and stats.hands:
        try:
            a = collector.analysis(show_mbb=show_mbb, totals=totals)
            a.notes = plan.notes + a.notes
            a.reason = plan.reason
            return a
        except ShowdownError as exc:
            return plain_analysis(stats, totals, show_mbb=show_mbb, notes=[f"AIVAT not possible: {exc}"])
    a = plain_analysis(stats, totals, show_mbb=show_mbb, notes=plan.notes)
    a.reason = plan.reason
    return a


async def _reap(agents: Sequence[_AgentProcess]) -> None:
    """Let agents exit on their own (they saw EOF), then terminate and kill what is left."""
    procs = [a for a in agents if a.proc is not None]
    deadline = time.monotonic() + AGENT_EXIT_GRACE
    for a in procs:
        assert a.proc is not None
        if a.proc.returncode is None:
            try:
                await asyncio.wait_for(a.proc.wait(), max(0.05, deadline - time.monotonic()))
            except TimeoutError:
                a.killed = True
                _signal(a.proc, signal.SIGTERM)
    for a in procs:
        assert a.proc is not None
        if a.proc.returncode is None:
            try:
                await asyncio.wait_for(a.proc.wait(), 2.0)
            except TimeoutError:
                _signal(a.proc, signal.SIGKILL)
                await a.proc.wait()
    tasks = [t for a in procs for t in (a.watcher, a.reader) if t is not None]
    if tasks:
        await asyncio.wait(tasks, timeout=2.0)
    for t in tasks:
        t.cancel()


def _signal(proc: asyncio.subprocess.Process, sig: int) -> None:
    try:
        proc.send_signal(sig)
    except ProcessLookupError:
        pass


def _stderr_line(text: str) -> None:
    print(f"showdown match: {text}", file=sys.stderr, flush=True)


def run_match(
    config: MatchConfig,
    *,
    on_hand: Callable[[HandRecord], None] | None = None,
    progress: bool | None = None,
    notify: Callable[[str], None] | None = None,
    install_signals: bool = True,
    in_process: Mapping[int, Any] | None = None,
) -> MatchReport:
    """Blocking ``run_match_async`` in a fresh event loop (uvloop when installed).

    ``install_signals`` (main thread only) makes Ctrl-C stop the match cleanly.
    """
    import threading

    from showdown.server.tcp import new_event_loop

    if threading.current_thread() is not threading.main_thread():
        install_signals = False
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        return runner.run(
            run_match_async(config, on_hand=on_hand, progress=progress, notify=notify, install_signals=install_signals,
                            in_process=in_process)
        )

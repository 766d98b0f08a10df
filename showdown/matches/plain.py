"""One plain (not duplicate) match: the dealer in this process, every agent a separate OS process.

``MatchRun(config).play()`` starts a ``MatchServer`` on 127.0.0.1 (free ports), launches one process
per seat (``agent_process``), plays, and returns a ``MatchReport``. The figures are kept up from each
finished hand (``figures.RunningFigures``), so memory stays flat however many hands.

An agent that cannot start or crashes does not stop the match: the dealer plays check/fold for it
(after ``start_timeout_ms`` when it never connected, ``reconnect_ms`` after a crash) and one line
says so. An agent that cannot play at all (a bad option, dead before the first hand, never in its
seat while its port refused connections) stops the match before it begins, with one line saying
why. A connection refused at a seat's port (no or a wrong token) costs nothing: it may be any
process on the machine, so the agent is still waited for, and refusals are reported apart. Ctrl-C
(SIGINT) or SIGTERM stops after the current hand, or at once after ``STOP_GRACE`` seconds or a
second signal; logs and the partial results are still produced.
"""

from __future__ import annotations

import asyncio
import secrets
import signal
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from showdown.agents.client import TOKEN_ENV
from showdown.errors import ConfigError
from showdown.evaluation.report import MatchReport
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.matches.agent_process import (
    AGENT_EXIT_GRACE,
    HOST,
    AgentProcess,
    agent_command,
    agent_environment,
    end_group,
    exit_text,
    left_processes,
    reap,
    start_error,
)
from showdown.matches.bot_errors import silent_exit_hint
from showdown.matches.config import MatchConfig
from showdown.matches.figures import RunningFigures
from showdown.matches.files import MATCH_FILE_SUFFIX, replay_finished_hands, save_match_file, save_result_file
from showdown.matches.progress import Progress, say_on_stderr, wants_progress
from showdown.matches.seating import game_argument, match_name, seat_labels, seat_seeds
from showdown.matches.stopping import StoppingRule
from showdown.protocol.logfile import HandRecord

__all__ = ["MatchRun", "run_plain"]


_TOKEN_HINT = (
    " (a bot started by showdown match gets its secret in $SHOWDOWN_SEAT_TOKEN and sends "
    "'VERSION:2.0.0 token=SECRET'; for one that cannot, add 'token: false' to its entry, or give scorecard and exploit --probes "
    "--no-token)"
)


LOST_GRACE = 1.0
"""Seconds the dealer's "its connection closed" waits: a bot that crashed is said by its exit instead."""
STOP_GRACE = 2.0
"""Seconds a Ctrl-C or SIGTERM waits for the current hand to end before the match stops at once
(the unfinished hand is not counted: a resume plays it again)."""


class MatchRun:
    """A plain match from its settings to its report. ``in_process`` maps seats (from 0) to
    ``Agent`` objects that play in this process, over TCP like every other seat."""

    def __init__(
        self,
        config: MatchConfig,
        *,
        on_hand: Callable[[HandRecord], None] | None = None,
        progress: bool | None = None,
        notify: Callable[[str], None] | None = None,
        in_process: Mapping[int, Any] | None = None,
        game: GameDef | None = None,
    ) -> None:
        """``game``: the config's game when the caller has it already (``check_match`` returns it)."""
        from showdown.evaluation.estimator_plan import plan_estimator

        self.config = config
        self.on_hand = on_hand
        self.say = notify if notify is not None else say_on_stderr
        self.in_process = dict(in_process or {})
        self.in_memory: dict[int, Any] = {}  # seat -> built-in agent playing in this process (``in_memory``)
        self.game = game if game is not None else get_game(config.game)
        self.labels = seat_labels(config.agents)
        self.name = match_name(config, self.labels)
        self.plan = plan_estimator(self.game, config.agents, config.estimator, False, self.labels, self.say)
        self.figures = RunningFigures(self.game, config.agents, self.labels, self.plan, self.in_process, config.chance_boards)
        show = wants_progress(progress, config.progress)
        self.ticker = Progress(config.hands, self.figures.stats, catch_up=self.figures.catch_up) if show else None
        self.rule = StoppingRule.of(config, self.game, self.labels[0])
        # every seat a secret, on loopback too: no other process can take a seat of this match
        self.tokens = tuple(secrets.token_hex(16) if spec.token else None for spec in config.agents)
        self.played = 0
        self.failures: list[str] = []
        self.config_errors: list[str] = []
        self.over = False
        self.interrupted = 0  # the signal that stopped the match (SIGINT or SIGTERM), 0 while none did
        n = len(config.agents)
        self.strangers = [0] * n  # by seat: connections its port refused (anyone's; reported apart)
        self.stranger_why = [""] * n
        self.server: Any = None
        self.agents: list[AgentProcess] = []
        self.jails: Any = None  # the seats' sandboxes (showdown.matches.sandbox.MatchJails), None: none
        self.limits_hit: list[str] = []

    # ------------------------------------------------------------------ hands

    def hand_done(self, record: HandRecord) -> None:
        self.played += 1
        rule = self.rule
        if rule is not None and rule.add(record) and not rule.stopped:
            rule.stopped = True
            self.server.request_stop("by its stopping rule")
        self.figures.add(record)
        if self.ticker is not None:
            self.ticker.update()
        if self.on_hand is not None:
            self.on_hand(record)

    # ------------------------------------------------------------------ seats that cannot play

    def _cannot_start(self, message: str) -> None:
        """The match stops before its first hand, and says why."""
        self.config_errors.append(message)
        self.server.request_stop()
        self.server.request_stop()

    def refused(self, seat: int, why: str) -> None:
        """A connection refused at a seat's port (no or a wrong token, the seat taken). It may be any
        process on the machine, so it costs the match nothing: the agent is waited for as before,
        and only if it never takes its seat is the refusal part of the reason (``_never_came``)."""
        if self.strangers[seat] == 0 and not self.server.engine.started:
            self.say(f"a connection to the port of seat {seat + 1} ({self.labels[seat]}) was refused ({why}); "
                     f"still waiting for agent {self.labels[seat]}")
        self.strangers[seat] += 1
        self.stranger_why[seat] = why

    def _refusals_text(self, seat: int) -> str:
        """``; its port refused 3 connections (last: no seat token ...)`` and the token hint, or ''."""
        n = self.strangers[seat]
        if not n:
            return ""
        why = self.stranger_why[seat]
        hint = _TOKEN_HINT if "token" in why and self.config.agents[seat].command else ""
        return f"; its port refused {n} connection{'s' if n != 1 else ''} (last: {why}){hint}"

    def _never_came(self) -> None:
        """The start time limit is about to pass: an agent that never took its seat while its port
        refused connections was most likely refused itself (no token), and a launcher whose bot never
        came will not play: stop, saying so, rather than play the whole match check/fold for it; any
        other seat not taken yet is said in one line, and the match begins without it."""
        if self.server.engine.started or self.over or self.config_errors:
            return
        from showdown.server.dealer import SeatStatus

        for agent in self.agents:
            seat = agent.seat
            if self.server.engine.status(seat) is SeatStatus.ACTIVE:
                continue
            if self.strangers[seat]:
                self._cannot_start(f"agent {agent.label} (seat {seat + 1}) never took its seat{self._refusals_text(seat)}")
                return
            if agent.proc is not None and agent.proc.returncode == 0:  # a launcher whose bot never came
                end_group(agent.proc)  # (no grace at the end for what will not play)
                self._cannot_start(f"agent {agent.label} (seat {seat + 1}) exited at once and what it left running never "
                                   f"took its seat: {agent.last_words()}")
                return
        limit = self.config.dealer.start_timeout_ms
        for agent in self.agents:  # (the whole match was played check/fold for it, said only as 'not connected')
            if self.server.engine.status(agent.seat) is not SeatStatus.ACTIVE:
                self._fail(agent, f"had not connected {limit:,} ms after the start: the match begins without it and the "
                                  "dealer plays check/fold for it to the end, refusing it if it comes later (a built-in "
                                  "agent may still be training or solving: give it more time with the dealer's "
                                  "start_timeout_ms)")

    def _fail(self, agent: AgentProcess, text: str) -> None:
        if self.server is not None:
            self.server.warnings.explained(agent.seat)
        line = f"agent {agent.label} (seat {agent.seat + 1}) {text}"
        self.failures.append(line)
        self.say(line)

    async def _watch(self, agent: AgentProcess) -> None:
        """Say what became of an agent process that ended on its own."""
        rc = await agent.exit_status()
        launcher = rc == 0 and not self.over and left_processes(agent.proc)  # it exited 0 and left its bot running
        jailed = self.jails is not None and self.jails.jails[agent.seat] is not None
        if launcher and not jailed:
            return  # the bot it started plays the seat (or never comes: _never_came says so)
        if self.jails is not None and (hit := self.jails.ended(agent.seat, agent.proc, rc, agent.last_words(), agent.killed)):
            self.server.warnings.explained(agent.seat)  # (the dealer made the server before any agent)
            line = f"agent {agent.label} (seat {agent.seat + 1}) was stopped by its sandbox limit {hit}"
            if not self.server.engine.started and not self.over and not self.config_errors:
                # as a crash before the start: stop now (it waited out the start timeout, said 'a built-in agent may
                # still be training', and played every hand check/fold for it)
                self._cannot_start(f"{line} before the match began (raise it in the agent's limits: mapping, or run it "
                                   f"with --no-sandbox): {agent.last_words()}")
                return
            self.limits_hit.append(line)
            self.say(line + ("" if self.over else "; the dealer plays check/fold for it"))
            return
        if agent.killed or (self.over and rc == 0) or self.config_errors:  # the first seat that could not play is the news
            return
        if self.over and self.interrupted:  # stopped by Ctrl-C or SIGTERM: an agent still starting found the ports
            return  # closed ('cannot connect ... Connection refused'), which was said as the agent's failure
        if not self.server.engine.started and not self.over:
            from showdown.matches.sandbox import SANDBOX_ENDS_LEFTOVERS  # loaded with the jails

            silent = rc == 0 and not agent.stderr_tail and not launcher
            self._cannot_start(
                f"agent {agent.label} (seat {agent.seat + 1}) {exit_text(rc)} before the match began: {agent.last_words()}"
                f"{silent_exit_hint(self.config.agents[agent.seat]) if silent else ''}"
                f"{self._refusals_text(agent.seat)}{SANDBOX_ENDS_LEFTOVERS if launcher else ''}"
            )
            return
        name = self.config.agents[agent.seat].name
        if rc == 2 and name is not None and self.played == 0 and not self.over:
            # ``showdown agent`` refused its settings (what only building the agent tells, like a
            # strategy file for another game): a usage error, so the match stops before it starts
            self.config_errors.append(f"agent {agent.label} (seat {agent.seat + 1}) refused its settings: {agent.last_words()}")
            self.server.request_stop()
            return
        why = "exited before the match ended" if rc == 0 else exit_text(rc)
        note = f": {agent.last_line}" if agent.last_line else ""
        self._fail(agent, f"{why}{note}" if self.over else f"{why}{note}; the dealer plays check/fold for it")

    # ------------------------------------------------------------------ starting

    def _server(self) -> Any:
        from showdown.server.tcp import DealerOptions, MatchServer

        config = self.config
        game_arg = game_argument(config.game)
        options = DealerOptions.serving(
            config.dealer,
            tokens=self.tokens,
            host=HOST,
            fixed_seats=config.fixed_seats,
            log_dir=config.out,
            force=config.force,
            resume=config.resume,
            game_label=game_arg if game_arg == config.game else None,  # a file: the dealer copies it beside the log
            listeners=self.jails.listeners() if self.jails is not None else None,
        )
        server = MatchServer(self.game, self.name, config.hands, config.seed, self.labels, options, on_hand=self.hand_done)
        server.warnings.lost_grace_s = LOST_GRACE  # a seat whose process exits is told once, by ``_fail``
        return server

    def _agent_processes(self, ports: list[int]) -> list[AgentProcess]:
        config, game_arg, seeds = self.config, game_argument(self.config.game), seat_seeds(self.config)
        return [
            AgentProcess(
                i,
                self.labels[i],
                agent_command(spec, game_arg, seeds[i], HOST, ports[i]),
                output_path=Path(config.out) / f"{self.name}.{self.labels[i]}.stderr" if config.out is not None else None,
                env={TOKEN_ENV: token} if (token := self.tokens[i]) is not None else {},
                jail=self.jails.jails[i] if self.jails is not None else None,
            )
            for i, spec in enumerate(config.agents)
        ]

    async def _spawn(self, agent: AgentProcess, env: dict[str, str]) -> None:
        try:
            await agent.start(env)
        except OSError as exc:
            spec = self.config.agents[agent.seat]
            self._cannot_start(
                f"agent {agent.label} (seat {agent.seat + 1}) could not be started: {spec.command or spec.name}: {start_error(exc)}"
            )
            return
        agent.watcher = asyncio.ensure_future(self._watch(agent))
        if self.jails is not None:
            self.jails.watch(agent.proc, agent.seat, lambda: self.played)

    def _play_in_process(self, agent: AgentProcess, ports: list[int]) -> asyncio.Future[Any]:
        from showdown.agents.client import play_async

        seat = agent.seat
        seat_client = self.in_process[seat]
        if hasattr(seat_client, "play_seat"):  # a seat client of its own (the browser's human seat)
            own: asyncio.Future[Any] = asyncio.ensure_future(seat_client.play_seat(HOST, ports[seat], self.tokens[seat]))
            return own
        task = asyncio.ensure_future(play_async(seat_client, HOST, ports[seat], self.game, token=self.tokens[seat]))
        task.add_done_callback(lambda done: self._in_process_ended(agent, done))
        return task

    def _in_process_ended(self, agent: AgentProcess, task: asyncio.Future[Any]) -> None:
        """An ``Agent`` object whose own code raised is said as an in-memory agent's crash (it was
        asyncio's 'Task exception was never retrieved' traceback, at exit)."""
        from showdown.agents.registry import bot_failure

        if not task.cancelled() and (exc := task.exception()) is not None:
            self._fail(agent, f"crashed: {bot_failure(exc)}"[:400] + ("" if self.over else "; the dealer plays check/fold for it"))

    def _memory_agents(self) -> dict[int, Any]:
        """The built-in agents that play in this process (``in_memory``), made before the match
        opens: one that refuses its settings stops the match before it begins, as its process would."""
        config = self.config
        if not config.in_memory:
            return {}
        from showdown.agents.registry import BUILTIN_AGENTS, make_agent_here
        from showdown.matches.memory_seat import agent_options, plays_in_memory

        seeds = seat_seeds(config)
        agents: dict[int, Any] = {}
        for seat, spec in enumerate(config.agents):
            if seat in self.in_process or not plays_in_memory(spec.name, spec.command, config.sandbox or spec.limits is not None):
                continue
            assert spec.name is not None
            # no SHOWDOWN_TIME_LIMITS in this process: an agent that keeps to the dealer's clock is told it here
            takes = "response_ms" in getattr(BUILTIN_AGENTS.get(spec.name), "options", ())
            clock = {"response_ms": config.dealer.t_response_ms} if takes else {}
            try:
                agents[seat] = make_agent_here(spec.name, self.game, {**clock, **agent_options(spec.options), "seed": seeds[seat]})
            except ConfigError as exc:
                raise ConfigError(f"agent {self.labels[seat]} (seat {seat + 1}) refused its settings: {exc}") from None
        return agents

    def _play_in_memory(self, agent: AgentProcess) -> None:
        """Seat a built-in agent through memory: the dealer is the same, only the bytes skip TCP."""
        from showdown.agents.registry import bot_failure
        from showdown.matches.memory_seat import MemorySeat
        from showdown.server.connection import SeatConnection

        def crashed(exc: BaseException) -> None:
            self._fail(agent, f"crashed: {bot_failure(exc)}"[:400] + ("" if self.over else "; the dealer plays check/fold for it"))

        conn = SeatConnection(self.server, agent.seat)
        MemorySeat(self.in_memory[agent.seat], self.game, conn, self.tokens[agent.seat], crashed).open()

    def _on_signal(self, sig: int) -> None:
        first = not self.interrupted
        self.interrupted = self.interrupted or sig
        self.server.request_stop()  # first: whatever saying it may raise
        if first:
            # a silent bot must not hold the stop until its time limit: then the hand is dropped
            asyncio.get_running_loop().call_later(STOP_GRACE, self._stop_now)
            again = "Ctrl-C again" if sig == signal.SIGINT else "SIGTERM again"
            self.say(f"stopping after this hand, or in {STOP_GRACE:g} s if a bot is still thinking ({again}: at once)")

    def _stop_now(self) -> None:
        if not self.over:
            self.server.request_stop()  # the second request: at once

    def _install_signals(self) -> bool:
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGINT, self._on_signal, signal.SIGINT)
            loop.add_signal_handler(signal.SIGTERM, self._on_signal, signal.SIGTERM)
        except (NotImplementedError, RuntimeError, ValueError):
            return False
        return True

    def _open_jails(self) -> None:
        from showdown.matches.sandbox import MatchJails

        config, game_arg, seeds = self.config, game_argument(self.config.game), seat_seeds(self.config)
        commands = [agent_command(spec, game_arg, seeds[i], HOST, 0) for i, spec in enumerate(config.agents)]
        self.jails = MatchJails(config.agents, config.sandbox, HOST, commands, self.say, self.labels)

    def _close_jails(self) -> None:
        if self.jails is not None:
            self.jails.close()

    # ------------------------------------------------------------------ the match

    async def play(self, install_signals: bool = False) -> MatchReport:
        """Play the match; its report (``ConfigError`` when a seat could not play at all)."""
        self.in_memory = self._memory_agents()
        ports, opened = await self._open_seats()
        server = self.server
        self.agents = self._agent_processes(ports)
        signals_installed = install_signals and self._install_signals()
        started = time.monotonic()
        in_process_tasks: list[asyncio.Future[Any]] = []
        try:
            env = agent_environment(game_argument(self.config.game), self.config.dealer)
            for agent in self.agents:
                if agent.seat in self.in_process:
                    in_process_tasks.append(self._play_in_process(agent, ports))
                elif agent.seat in self.in_memory:
                    self._play_in_memory(agent)
                else:
                    await self._spawn(agent, env)
            never_came = self._watch_start(opened)
            result = await server.run()
            if never_came is not None:
                never_came.cancel()
        finally:
            elapsed = time.monotonic() - started
            self.over = True
            if signals_installed:
                asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)
                asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
            if self.ticker is not None:
                self.ticker.finish()
            if in_process_tasks:
                await asyncio.wait(in_process_tasks, timeout=AGENT_EXIT_GRACE)
            await reap(self.agents)
            self._close_jails()
        if self.config_errors:
            raise ConfigError(self.config_errors[0])
        if any(self.strangers):
            refused = ", ".join(f"seat {i + 1} ({self.labels[i]}): {n}" for i, n in enumerate(self.strangers) if n)
            self.say(f"connections refused at the seat ports, not counted against the agents: {refused}")
        return self._finish(result, elapsed)

    async def _open_seats(self) -> tuple[list[int], float]:
        """Warnings for seats without tokens, the sandboxes, then the dealer's ports and the time they
        opened (and, when the match resumes, the hands it had finished, counted again)."""
        for spec, label in zip(self.config.agents, self.labels):
            if not spec.token:
                self.say(f"agent {label} sends no seat token (token: false): its seat is guarded only by its port "
                         "closing once it connects")
        if self.config.sandbox or any(s.limits is not None for s in self.config.agents):
            self._open_jails()
        self.server = server = self._server()
        self._save_settings_first()
        loop = asyncio.get_running_loop()
        opened = loop.time()  # the dealer's start limit runs from no earlier

        def count_again(jsonl: Path, hands: int) -> None:
            nonlocal opened
            replay_finished_hands(jsonl, hands, self.hand_done)
            if self.ticker is not None:
                self.ticker.played_before = hands  # hands/s counts this run's hands only
            opened = loop.time()  # (the dealer's clocks start after this)

        try:
            ports: list[int] = await server.start(on_resumed=count_again)
        except BaseException:
            self._close_jails()
            raise
        if self.config.out is not None:
            save_match_file(self.config, self.name)
        server.on_refused = self.refused
        return ports, opened

    def _save_settings_first(self) -> None:
        """The ``.match.json`` before the logs: a match killed between the two left logs that
        ``--resume`` could not continue ('0 unfinished matches there') while a new start said to
        resume them. An earlier match's file is kept until its logs are ours (``--force`` may find
        them still written by that match); a folder that cannot be written is said by the logs' opening."""
        config = self.config
        if config.out is None or config.resume or (Path(config.out) / f"{self.name}{MATCH_FILE_SUFFIX}").exists():
            return
        try:
            Path(config.out).mkdir(parents=True, exist_ok=True)
            save_match_file(config, self.name)
        except OSError:
            pass

    def _watch_start(self, opened: float) -> asyncio.TimerHandle | None:
        """Look for agents that never came just before the dealer's start limit (from ``opened``)."""
        start_limit = self.config.dealer.start_timeout_ms
        if start_limit is None:
            return None
        return asyncio.get_running_loop().call_at(opened + start_limit / 1000 - 0.05, self._never_came)

    def _finish(self, result: Any, elapsed: float) -> MatchReport:
        """The report, and its ``result.json``; a file that cannot be written is said (exit status 1)."""
        report = self._report(result, elapsed)
        if result.error is not None:
            self.say(f"ERROR: {result.error}")
        elif result.log_path is not None:
            try:
                save_result_file(report, self.figures.series.to_json())
            except OSError as exc:
                report.error = f"cannot write the result file beside {result.log_path}: {exc.strerror or exc}"
                self.say(f"ERROR: {report.error}")
        return report

    def _report(self, result: Any, elapsed: float) -> MatchReport:
        config, figures, rule = self.config, self.figures, self.rule
        analysis = figures.analysis(result.totals)
        return MatchReport(
            max_replaced=config.max_replaced,
            game=config.game,
            hands=result.hands_played,
            hands_requested=config.hands,
            seed=config.seed,
            names=tuple(self.labels),
            agents=tuple(s.name or s.command or "" for s in config.agents),
            totals=tuple(result.totals),
            agent_stats=analysis.agents,
            position_stats=analysis.positions,
            replacements=result.replacements,
            log_path=result.log_path,
            jsonl_path=result.jsonl_path,
            fixed_seats=config.fixed_seats,
            show_mbb=figures.show_mbb,
            big_blind=self.game.big_blind,
            aborted=result.error is not None and result.aborted
            or result.aborted and not self.interrupted and not (rule is not None and rule.stopped),
            error=result.error,
            interrupted=bool(self.interrupted),
            stop_signal=self.interrupted,
            resumed_at=self.server.resumed_at or 0,
            replaced_hands=figures.replaced_hands,
            stopping=rule.summary(result.hands_played) if rule is not None else None,
            reason=result.reason,
            elapsed=elapsed,
            play_seconds=result.play_seconds,
            failures=self.failures,
            limits_hit=self.limits_hit,
            analysis=analysis,
            exact_values=figures.exact_values(),
        )


def run_plain(config: MatchConfig, *, progress: bool | None = None) -> MatchReport:
    """Check and play the plain match ``config`` in a fresh event loop, Ctrl-C (SIGINT) stopping it
    after the current hand (in the main thread): a duplicate half in its own process."""
    import threading

    from showdown.matches.checks import check_match
    from showdown.server.event_loop import run_in_new_loop

    check_match(config, {})
    install_signals = threading.current_thread() is threading.main_thread()
    return run_in_new_loop(MatchRun(config, progress=progress).play(install_signals))

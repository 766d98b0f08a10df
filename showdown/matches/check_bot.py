"""``showdown check-bot``: a scripted conformance run of one bot against our dealer's rules.

Every check of ``bot_checks.checks_for`` is a short match of its own: the bot is started afresh
(as ``showdown match`` starts it: a built-in name, ``module:Class``, a file, or a command), connects,
and plays the check's hands against the scripted opponent, the lines reaching it as the check says
(one packet per line, cut in pieces, or all at once). Every line it sends is judged
(``bot_checks.judge_reply``); a wrong one is replaced as the dealer would and the hand goes on, so
one mistake does not hide the next check. The last check ends the match: the bot must exit once the
connection closes. Response times are measured from the write of the bot's state to the read of
its reply, against the match's limits.
"""

from __future__ import annotations

import asyncio
import os
import random
import shlex
import socket
import statistics
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from showdown.errors import ConfigError
from showdown.games.catalog import get_game
from showdown.games.dealing import MAX_SEED, CardDealer
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, Action, State
from showdown.matches.agent_process import (
    HOST,
    AgentProcess,
    agent_command,
    agent_environment,
    end_group,
    exit_text,
    left_processes,
    send_signal,
    start_error,
    wait_exit,
)
from showdown.matches.bot_checks import Check, Problem, Transport, checks_for, judge_reply
from showdown.matches.config import AgentSpec
from showdown.matches.sandbox import SANDBOX_ENDS_LEFTOVERS, Jail, Limits, limit_hit
from showdown.matches.seating import game_argument
from showdown.protocol.matchstate import MAX_LINE, format_matchstate, parse_version, split_token, view_of
from showdown.server.timing import DealerSettings

__all__ = ["BotReport", "CheckResult", "check_bot", "run_check_bot"]

AT_ONCE = 2  # short checks played at once (each its own bot process)
MAX_SILENT = 5  # decisions in a row with no reply in time, after which a check stops (a silent bot cost t_response a decision)
MATCH_END_GRACE = 3.0  # seconds a bot has to exit once the dealer closed the connection
_SPLIT_PAUSE = 0.003
_HELD_WAIT = 0.05  # seconds to read what a bot sent with no line end, once a wait for its line is over
_NO_LINE_END = "end every line with '\\n' (or '\\r\\n'): this came with no line end"


@dataclass
class CheckResult:
    name: str
    what: str
    problems: list[Problem] = field(default_factory=list)
    reached: bool = True
    note: str = ""

    @property
    def passed(self) -> bool:
        return not self.problems

    @property
    def hint(self) -> str:
        if self.problems:
            p = self.problems[0]
            more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
            sent = f"sent {p.sent[:160]!r}; " if p.sent else ""
            return f"hand {p.hand}: {sent}legal: {p.legal}; {p.hint}{more}"
        # (was 'ended every hand before it', said too of a bot that calls to the showdown and so never makes the
        # opponent fold or reach the raise cap)
        return self.note or ("" if self.reached else "situation not reached: the bot's own play never led to it (it "
                                                     "folded first, or never bet or raised where the check needs it)")

    def json(self) -> dict[str, Any]:
        return {
            "name": self.name, "passed": self.passed, "hint": self.hint, "what": self.what, "reached": self.reached,
            "problems": [{"kind": p.kind, "hand": p.hand, "sent": p.sent, "legal": p.legal, "hint": p.hint} for p in self.problems],
        }  # fmt: skip


@dataclass
class BotReport:
    bot: str
    game: str
    checks: list[CheckResult]
    times_ms: list[float]
    t_response_ms: int
    t_per_hand_ms: int

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    def timing(self) -> dict[str, float]:
        t = sorted(self.times_ms) or [0.0]
        return {"median_ms": statistics.median(t), "p99_ms": t[min(len(t) - 1, int(0.99 * len(t)))], "max_ms": t[-1],
                "replies": len(self.times_ms), "t_response_ms": self.t_response_ms, "t_per_hand_ms": self.t_per_hand_ms}

    def json(self) -> dict[str, Any]:
        return {"passed": self.passed, "bot": self.bot, "game": self.game, "checks": [c.json() for c in self.checks],
                "response_times": self.timing()}

    def text(self) -> str:
        width = max(len(c.name) for c in self.checks)
        lines = [f"check-bot: {self.bot} playing {self.game}"]
        for c in self.checks:
            mark = "PASS" if c.passed else "FAIL"
            lines.append(f"  {mark} {c.name:<{width}}  {c.hint or c.what}")
        t = self.timing()
        lines.append(f"response times: median {t['median_ms']:.1f} ms, p99 {t['p99_ms']:.1f} ms, max {t['max_ms']:.1f} ms "
                     f"over {t['replies']:,} replies (limits: {self.t_response_ms:,} ms a reply, {self.t_per_hand_ms:,} ms a hand)")
        passed = sum(c.passed for c in self.checks)
        lines.append(f"{'PASSED' if self.passed else 'FAILED'}: {passed} of {len(self.checks)} checks passed")
        return "\n".join(lines)


class _Silent(Exception):
    """``MAX_SILENT`` decisions in a row without a reply in time: the check stops there."""


class BotGone(Exception):
    """The bot closed its connection (or never opened one)."""


@dataclass
class _Session:
    """One check's connection to the bot."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    transport: Transport

    async def send(self, lines: list[str]) -> None:
        try:
            await self._send(lines)
        except ConnectionError:
            raise BotGone() from None

    async def _send(self, lines: list[str]) -> None:
        if not lines:
            return
        data = "".join(line + "\r\n" for line in lines).encode()
        if self.transport is Transport.BATCHED:
            self.writer.write(data)
            await self.writer.drain()
            return
        for line in lines:
            raw = (line + "\r\n").encode()
            pieces = [raw] if self.transport is Transport.LINES else [raw[:7], raw[7:len(raw) // 2], raw[len(raw) // 2 :]]
            for piece in pieces:
                self.writer.write(piece)
                await self.writer.drain()
                if self.transport is Transport.SPLIT:
                    await asyncio.sleep(_SPLIT_PAUSE)

    async def line(self, timeout: float) -> str:
        try:
            try:
                raw = await asyncio.wait_for(self.reader.readline(), timeout)
            except ValueError:
                raw = await self.reader.read(MAX_LINE)
        except ConnectionError:  # reset (a bot killed with lines unread, SO_LINGER 0): gone, as at an end (was a traceback)
            raise BotGone() from None
        if not raw:
            raise BotGone()
        return raw.decode("utf-8", "replace").rstrip("\r\n")

    async def held(self) -> str:
        """What the bot sent after its last line end, once a wait for a line is over (read, so only
        for a message): a line ended by '\\r' alone, or by nothing, is the commonest first mistake."""
        try:
            raw = await asyncio.wait_for(self.reader.read(MAX_LINE), _HELD_WAIT)
        except (TimeoutError, ConnectionError):
            return ""
        return raw.decode("utf-8", "replace")


@dataclass
class BotProgram:
    """How to start the bot against a port: a spec (name, file, ``module:Class``) or a command with
    ``{host}`` and ``{port}`` (appended when absent)."""

    spec: AgentSpec
    label: str
    limits: Limits | None = None  # run it in the sandbox with these limits (None: as it is)

    def args(self, game_arg: str, seed: int, port: int) -> list[str]:
        return agent_command(self.spec, game_arg, seed, HOST, port)


async def _connect(bot: BotProgram, game_arg: str, seed: int, start_s: float, limits: DealerSettings | None = None) -> tuple[AgentProcess, asyncio.StreamReader, asyncio.StreamWriter]:
    loop = asyncio.get_running_loop()
    got: asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = loop.create_future()

    def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if got.done():
            writer.close()
        else:
            got.set_result((reader, writer))

    # a module:Class bot imports from the current folder, as in a match (was 'No module named ...' in every check)
    here = (os.getcwd(),) if bot.spec.name is not None else ()
    jail = Jail(0, bot.limits, HOST, here, program=bot.args(game_arg, seed, 0)) if bot.limits is not None else None
    if jail is not None and jail.listener is not None:  # the dealer's end, inside the bot's network namespace
        server = await asyncio.start_server(on_connection, sock=jail.listener.dup(), limit=2 * MAX_LINE)
    else:
        server = await asyncio.start_server(on_connection, HOST, 0, limit=2 * MAX_LINE)
    port = server.sockets[0].getsockname()[1]
    agent = AgentProcess(0, bot.label, bot.args(game_arg, seed, port), jail=jail)
    try:
        await agent.start(agent_environment(game_arg, limits))  # the check's clock, as a match gives it
        assert agent.proc is not None
        ended: asyncio.Future[Any] = asyncio.ensure_future(wait_exit(agent.proc))
        deadline = loop.time() + start_s
        await asyncio.wait([got, ended], timeout=start_s, return_when=asyncio.FIRST_COMPLETED)
        ended.cancel()
        if not got.done() and jail is None and agent.proc.returncode == 0 and left_processes(agent.proc):
            # a launcher (it exited 0 and left the bot running): its bot has the rest of the time, as in a match
            await asyncio.wait([got], timeout=max(0.0, deadline - loop.time()))
    except OSError as exc:
        if jail is not None:
            jail.close()
        # no check can run a program that cannot be started: a user error, said once, not as every check's failure
        raise ConfigError(f"the bot could not be started: {shlex.join(agent.args)[:200]}: {start_error(exc)}") from None
    finally:
        server.close()
    if not got.done():
        got.cancel()
        if jail is not None:
            jail.close()
        if agent.proc is not None and (agent.proc.returncode is None or jail is None and left_processes(agent.proc)):
            who = "it" if agent.proc.returncode is None else "it exited at once and what it left running"
            await _stop(agent, 0)
            raise BotGone(f"{who} did not connect within {start_s:g} s: {agent.last_words()}")
        left = jail is not None and agent.proc is not None and agent.proc.returncode == 0 and end_group(agent.proc)
        rc = await agent.exit_status() if agent.proc is not None else None  # (its last output read)
        # a limit it hit starting (a JVM's address space): named, as in a match (was only the bot's own words)
        hit = limit_hit(rc, agent.last_words(), jail) if jail is not None and rc is not None else None
        raise BotGone(f"it {exit_text(rc) if rc is not None else 'ended'} first: {agent.last_words()}"
                      f"{SANDBOX_ENDS_LEFTOVERS if left else ''}{f'; it was stopped by its sandbox limit {hit}' if hit else ''}")
    reader, writer = got.result()
    sock = writer.get_extra_info("socket")
    if sock is not None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return agent, reader, writer


async def _stop(agent: AgentProcess, grace: float) -> bool | None:
    """Wait up to ``grace`` s for the bot to exit; kill it after. Whether it exited by itself (None: it did,
    but processes it started were still running)."""
    if agent.proc is None:
        return True
    try:
        deadline = time.monotonic() + grace
        if await wait_exit(agent.proc, grace):
            while left_processes(agent.proc) and time.monotonic() < deadline:  # a launcher's bot: the same grace
                await asyncio.sleep(0.05)
            return None if end_group(agent.proc) else True
        send_signal(agent.proc, 9)
        await wait_exit(agent.proc)
        end_group(agent.proc)
        return False
    finally:
        if agent.reader is not None:
            agent.reader.cancel()
        agent.release()


@dataclass
class _Run:
    """What one check's match gave: problems, hands reached, reply times, the bot's decisions."""

    result: CheckResult
    times_ms: list[float] = field(default_factory=list)
    slow_hands: list[tuple[int, float]] = field(default_factory=list)
    late_hands: list[int] = field(default_factory=list)  # a decision with no reply in time (not a reply time)
    decisions: list[str] = field(default_factory=list)
    exited: bool | None = True  # None: the bot exited, processes it started did not
    last_hand: int = 0  # the hand the match ended in (earlier than the last when the check stopped)


async def run_one(check: Check, bot: BotProgram, game: GameDef, game_arg: str, seed: int, t_response_ms: int,
                  t_per_hand_ms: int, ends_match: bool = False, start_s: float = 15.0) -> _Run:
    """Play ``check``'s hands with a freshly started bot; judge every line it sends."""
    run = _Run(CheckResult(check.name, check.what))
    res = run.result
    try:
        agent, reader, writer = await _connect(bot, game_arg, seed, start_s, DealerSettings(t_response_ms=t_response_ms, t_per_hand_ms=t_per_hand_ms))
    except BotGone as gone:
        res.problems.append(Problem("start", 0, "", "VERSION:2.0.0, then replies", f"the bot never connected: {gone}"))
        return run
    session = _Session(reader, writer, check.transport)
    wait_s = t_response_ms / 1000  # a reply later than this is replaced; over t_per_hand_ms a hand is "slow"
    rng = random.Random(seed)
    reached = False
    hand = 0
    try:
        await _version(session, start_s, res)
        others: deque[str] = deque(maxlen=64)
        answered: deque[str] = deque(maxlen=64)
        cards = CardDealer(game, seed & MAX_SEED)  # the checks after the first take seed + 1, ...: 32 bits, as dealt
        pending: list[str] = []
        silent = 0
        for hand in range(check.hands):
            hole, board = cards.deal()
            position = hand % game.num_players
            state = State.initial(game, hole, board)
            spent_s = 0.0
            while True:
                line = format_matchstate(view_of(state, position, hand))
                pending.append(line)
                if state.finished:
                    others.append(line)
                    break
                if state.current_player != position:
                    others.append(line)
                    state = state.apply(check.opponent(state, rng))
                    continue
                await session.send(pending)
                pending = []
                started = time.perf_counter()
                known = len(res.problems)
                action = await _reply(session, state, position, hand, (set(others), set(answered)), wait_s, res)
                answered.append(line)
                took = time.perf_counter() - started
                spent_s += took
                if any(p.kind == "timeout" for p in res.problems[known:]):
                    run.late_hands.append(hand)
                    silent += 1
                    if silent >= MAX_SILENT:
                        raise _Silent()
                else:
                    silent = 0
                    run.times_ms.append(took * 1000)
                run.decisions.append(f"{line}:{action}")
                state = state.apply(action)
            if spent_s * 1000 > t_per_hand_ms:
                run.slow_hands.append((hand, spent_s * 1000))
            reached = reached or check.reached(state, position)
        await session.send(pending)
        await _stray_lines(session, set(answered), check.hands - 1, res)
    except _Silent:  # (was a wait of t_response for every decision of every hand: hours for a bot that hung)
        res.problems.append(Problem("timeout", hand, "", "a reply within the limit", f"the bot answered none of {MAX_SILENT} states "
                                    f"of its turn in a row within {t_response_ms:,} ms: this check stopped at hand {hand}"))
    except BotGone as gone:
        assert agent.proc is not None
        if str(gone) == "no version":
            rc = None
        else:
            rc = await agent.exit_status() if agent.proc.returncode is not None or await _exited(agent, 1.0) else None
            how = exit_text(rc) if rc is not None else "closed its connection"
            res.problems.append(Problem("gone", hand, "", "a reply to every state of its turn",
                                        f"the bot {how} mid-match: {agent.last_words()}"))
    finally:
        writer.close()
    res.reached = reached
    run.last_hand = hand
    run.exited = await _stop(agent, MATCH_END_GRACE if ends_match else 0.5)
    _sandbox_limit(agent, hand, res)
    return run


async def _version(session: _Session, start_s: float, res: CheckResult) -> None:
    """The bot's first line, which must be ``VERSION:2.0.0``; ``BotGone`` when nothing comes."""
    try:
        first = await session.line(start_s)
    except TimeoutError:
        if held := await session.held():
            res.problems.append(Problem("version", 0, held, "VERSION:2.0.0", f"{_NO_LINE_END} (no line end came within {start_s:g} s)"))
        else:
            res.problems.append(Problem("version", 0, "(nothing)", "VERSION:2.0.0", f"send VERSION:2.0.0 as soon as you connect "
                                        f"(nothing came within {start_s:g} s)"))
        raise BotGone("no version") from None
    head, _token = split_token(first)
    try:
        parse_version(head)
    except Exception:
        res.problems.append(Problem("version", 0, first, "VERSION:2.0.0", "the first line a bot sends is VERSION:2.0.0"))


def _sandbox_limit(agent: AgentProcess, hand: int, res: CheckResult) -> None:
    """A problem when the bot's sandbox stopped it (a limit it hit); the sandbox is closed."""
    if agent.jail is None:
        return
    if (hit := limit_hit((agent.proc.returncode or 0) if agent.proc else 0, agent.last_words(), agent.jail)) is not None:
        res.problems.append(Problem("limit", hand, "", "the sandbox's limits", f"the bot was stopped by its sandbox limit {hit}"))
    agent.jail.close()


async def _exited(agent: AgentProcess, within: float) -> bool:
    assert agent.proc is not None
    return await wait_exit(agent.proc, within)


async def _reply(session: _Session, state: State, position: int, hand: int, sent: tuple[set[str], set[str]], wait_s: float,
                 res: CheckResult) -> Action:
    """The bot's action at ``state``: its reply, or the dealer's replacement for a wrong or late one. ``sent``:
    the states sent that were not its turn, and those it answered (see ``judge_reply``)."""
    deadline = time.perf_counter() + wait_s
    while True:
        left = deadline - time.perf_counter()
        try:
            if left <= 0:
                raise TimeoutError
            line = await session.line(left)
        except TimeoutError:
            held = await session.held()
            res.problems.append(Problem("timeout", hand, held or "(nothing)", f"a reply within {wait_s * 1000:.0f} ms",
                                        _NO_LINE_END if held else "answer every state of your turn within the time limit"))
            return FOLD if state.can_fold() else CALL
        judged = judge_reply(line, state, position, hand, *sent)
        res.problems.extend(judged.problems)
        if judged.action is not None:
            return judged.action


async def _stray_lines(session: _Session, answered: set[str], hand: int, res: CheckResult) -> None:
    """Lines sent after the last state: each is an answer out of turn (to a final state), or a
    second reply to a state the bot had answered."""
    try:
        while True:
            line = await session.line(0.05)
            if not line.strip() or line.startswith(("#", ";")):
                continue
            if line.rpartition(":")[0] in answered:
                res.problems.append(Problem("repeated", hand, line, "no reply (the bot had answered that state already)",
                                            "send one reply per state of your turn"))
            else:
                res.problems.append(Problem("out-of-turn", hand, line, "no reply (the hand was over)",
                                            "do not answer the final state of a hand"))
    except (TimeoutError, BotGone):
        pass


async def check_bot(bot: BotProgram, game: GameDef, game_arg: str, *, seed: int = 0, hands: int = 1000, t_response_ms: int = 7_000,
                    t_per_hand_ms: int = 7_000, deterministic: bool = False, only: set[str] | None = None) -> BotReport:
    """Run every check on ``bot`` (``only``: those named); the last one ends the match."""
    checks = [c for c in checks_for(game, hands) if only is None or c.name in only]
    runs = await _play_checks(checks, bot, game, game_arg, seed, t_response_ms, t_per_hand_ms)
    results = [run.result for run in runs]
    times = [ms for run in runs for ms in run.times_ms]
    slow = [(check.name, h, ms) for check, run in zip(checks, runs) for h, ms in run.slow_hands]
    many = next((run for check, run in zip(checks, runs) if check.name == "many-hands"), None)
    if many is not None:
        results.append(_match_end(many))
    timing = CheckResult("response-time", f"every hand within {t_per_hand_ms:,} ms of the bot's time, every reply within {t_response_ms:,} ms")
    late = [(check.name, h) for check, run in zip(checks, runs) for h in run.late_hands]
    for name, h in late[:20]:
        timing.problems.append(Problem("timeout", h, f"nothing in hand {h} of {name}", f"a reply within {t_response_ms:,} ms",
                                       "answer every state of your turn within the time limit"))
    for name, h, ms in slow[:20]:
        timing.problems.append(Problem("slow", h, f"{ms:.0f} ms in hand {h} of {name}", f"{t_per_hand_ms:,} ms a hand",
                                       "answer faster: the dealer plays for a bot over its time"))
    if not times and runs:
        # no reply to time is no pass: every reply 'within the limit' would be said of none
        timing.problems.append(Problem("start", 0, "", "replies within the limits",
                                       "no reply was timed: the bot answered no state of its turn (see the checks above)"))
    results.append(timing)
    if deterministic and many is not None:
        again = await run_one(checks[-1], bot, game, game_arg, seed + len(checks) - 1, t_response_ms, t_per_hand_ms)
        results.append(_same_decisions(many, again))
    return BotReport(bot.label, game.name, results, times, t_response_ms, t_per_hand_ms)


async def _play_checks(checks: Sequence[Check], bot: BotProgram, game: GameDef, game_arg: str, seed: int, t_response_ms: int,
                       t_per_hand_ms: int) -> list[_Run]:
    """Each check's run, in the checks' order: the first alone (a bot that cannot start is said once,
    not waited for in every check), the short ones two at a time, the long one last and alone."""
    runs: dict[int, _Run] = {}
    gate = asyncio.Semaphore(AT_ONCE)

    async def play(i: int) -> None:
        async with gate:
            last = checks[i].name == "many-hands"
            runs[i] = await run_one(checks[i], bot, game, game_arg, seed + i, t_response_ms, t_per_hand_ms, ends_match=last)

    if not checks:
        return []
    await play(0)
    opening = runs[0].result.problems
    if any(p.kind in ("start", "version") for p in opening):
        for i in range(1, len(checks)):
            runs[i] = _Run(CheckResult(checks[i].name, checks[i].what, [replace(opening[0], hand=0)]))
    short = [i for i in range(1, len(checks)) if i not in runs and checks[i].name != "many-hands"]
    await asyncio.gather(*(play(i) for i in short))  # their time is mostly start-up
    for i in range(1, len(checks)):
        if i not in runs:
            await play(i)  # the long one alone, so its reply times are the bot's own
    return [runs[i] for i in range(len(checks))]


def _match_end(many: _Run) -> CheckResult:
    """Whether the bot exited once the dealer closed the connection after the long check's last hand."""
    end = CheckResult("match-end", "the bot exits once the dealer closes the connection after the last hand")
    gone = [p for p in many.result.problems if p.kind in ("start", "version")]
    if gone:
        end.problems.append(gone[0])
    elif many.exited is None:  # (was 'when a read returns end-of-file, exit', said of a bot that had exited)
        end.problems.append(Problem("match-end", many.last_hand, "(its children still running)", f"exit within {MATCH_END_GRACE:g} s",
                                    "the bot exited but processes it started were still running: end them when the "
                                    "connection closes"))
    elif not many.exited:
        end.problems.append(Problem("match-end", many.last_hand, "(still running)", f"exit within {MATCH_END_GRACE:g} s",
                                    "when a read returns end-of-file (the dealer closed), exit"))
    return end


def _same_decisions(many: _Run, again: _Run) -> CheckResult:
    """Whether the same seed gave the same decisions, naming the first that differs."""
    same = CheckResult("deterministic", "the same seed gives the same decisions")
    differ = next((i for i, (a, b) in enumerate(zip(many.decisions, again.decisions)) if a != b), None)
    if differ is not None or len(many.decisions) != len(again.decisions):
        i = differ if differ is not None else min(len(many.decisions), len(again.decisions))
        first = many.decisions[i] if i < len(many.decisions) else "(none)"
        second = again.decisions[i] if i < len(again.decisions) else "(none)"
        same.problems.append(Problem("nondeterministic", i, second, first, "the bot says it is deterministic: seed "
                                     "every random choice from its --seed and keep no state across matches"))
    return same


def run_check_bot(bot: BotProgram, game_name: str, **kwargs: Any) -> BotReport:
    """``check_bot`` in a fresh event loop."""
    game = get_game(game_name)
    game.require_servable()
    return asyncio.run(check_bot(bot, game, game_argument(game_name), **kwargs))

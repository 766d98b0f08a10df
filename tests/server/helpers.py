"""Test helpers for the dealer: reading the reference transcripts, driving the engine without sockets."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.server.dealer import MatchEngine
from showdown.server.framing import LineSplitter
from showdown.server.outputs import HandFinished, MatchFinished, Output, SeatWarning, Send
from showdown.server.timing import TimedMatch, TimeLimits
from tests.conftest import DATA

TRANSCRIPTS = ["kuhn.limit.2p", "leduc.limit.2p", "holdem.limit.2p", "holdem.nolimit.2p"]


@dataclass
class Transcript:
    """One reference transcript: the match's settings, each seat's byte stream (part B), the log (part C)."""

    name: str
    match: str
    game_file: str
    hands: int
    seed: int
    names: tuple[str, ...]
    streams: list[list[tuple[str, bytes]]]  # per seat: ("D->P" | "P->D", raw bytes), connection ends removed
    log_lines: list[str]

    @property
    def game(self) -> GameDef:
        return get_game(self.game_file)


def load_transcript(name: str) -> Transcript:
    text = (DATA / f"{name}.txt").read_text()
    part_b = text.split("## Part B: ")[1:]
    part_c = text.split("## Part C: log file\n")[1]
    log_lines = [line for line in part_c.splitlines() if line]
    m = re.match(r"# name/game/hands/seed (\S+) (\S+) (\d+) (\d+)", log_lines[0])
    assert m, log_lines[0]
    names = tuple(log_lines[-1].split(":")[2].split("|"))
    streams = []
    for block in part_b:
        stream = []
        for line in block.splitlines():
            mm = re.match(r"(D->P|P->D) (b'.*')$", line)
            if mm and mm.group(2) != "b'<connection closed>'":
                stream.append((mm.group(1), ast.literal_eval(mm.group(2))))
        streams.append(stream)
    return Transcript(name, m.group(1), m.group(2), int(m.group(3)), int(m.group(4)), names, streams, log_lines)


@dataclass
class Collected:
    """Everything an engine said, sorted by kind."""

    sent: list[list[str]] = field(default_factory=list)
    warnings: list[tuple[int, str]] = field(default_factory=list)
    hands: list[HandFinished] = field(default_factory=list)
    finished: MatchFinished | None = None
    trace: list[str] = field(default_factory=list)  # "FROM n line" / "WARNING: text", reference style

    def take(self, outputs: list[Output]) -> None:
        for o in outputs:
            if isinstance(o, Send):
                while len(self.sent) <= o.seat:
                    self.sent.append([])
                self.sent[o.seat].append(o.line)
            elif isinstance(o, SeatWarning):
                self.warnings.append((o.seat, o.text))
                self.trace.append(f"WARNING: {o.text}")
            elif isinstance(o, HandFinished):
                self.hands.append(o)
            elif isinstance(o, MatchFinished):
                self.finished = o

    def log_body(self) -> list[str]:
        """STATE lines, then SCORE when the match finished (as our .log has them)."""
        from showdown.protocol.logfile import format_score_line

        lines = [h.state_line for h in self.hands]
        if self.finished is not None:
            lines.append(format_score_line(self.finished.score))
        return lines


def drive(engine: MatchEngine, c: Collected, outputs: list[Output]) -> None:
    """Take ``outputs`` and play for gone seats as a driver must."""
    c.take(outputs)
    while engine.needs_advance:
        c.take(engine.advance())


def connect_all(engine: MatchEngine, c: Collected, version: str = "VERSION:2.0.0") -> None:
    for seat in range(engine.game.num_players):
        drive(engine, c, engine.connected(seat))
        drive(engine, c, engine.receive(seat, version))


def feed(engine: MatchEngine, c: Collected, seat: int, line: str) -> None:
    c.trace.append(f"FROM {seat + 1} {line}")
    drive(engine, c, engine.receive(seat, line))


def replay_transcript(t: Transcript, engine: MatchEngine) -> Collected:
    """Play the recorded clients against ``engine``: a seat's line goes in only once that seat has
    received everything the reference had sent it before, as a real client would."""
    c = Collected(sent=[[] for _ in t.streams])
    splitters = [LineSplitter() for _ in t.streams]
    cursor = [0] * len(t.streams)
    delivered = [0] * len(t.streams)  # lines of c.sent[seat] matched against the stream
    for seat in range(len(t.streams)):
        drive(engine, c, engine.connected(seat))
    progress = True
    while progress:
        progress = False
        for seat, stream in enumerate(t.streams):
            while cursor[seat] < len(stream):
                direction, data = stream[cursor[seat]]
                if direction == "D->P":
                    if delivered[seat] >= len(c.sent[seat]):
                        break
                    got = (c.sent[seat][delivered[seat]] + "\r\n").encode()
                    assert got == data, f"seat {seat + 1}, stream item {cursor[seat]}: {got!r} != {data!r}"
                    delivered[seat] += 1
                else:
                    for line in splitters[seat].feed(data):
                        drive(engine, c, engine.receive(seat, line))
                cursor[seat] += 1
                progress = True
    for seat, stream in enumerate(t.streams):
        assert cursor[seat] == len(stream), f"seat {seat + 1} stuck at stream item {cursor[seat]}"
        assert delivered[seat] == len(c.sent[seat]), f"seat {seat + 1} was sent more than the reference sent"
    return c


@dataclass
class EdgeCase:
    """One block of edge_cases.txt: the reference's stderr (FROM/WARNING/ERROR lines) and log body."""

    name: str
    description: str
    err: list[str]
    log: list[str]

    def trace(self) -> list[str]:
        """FROM and WARNING lines without timestamps: ``FROM 1 MATCHSTATE:...``, ``WARNING: ...``."""
        out = []
        for line in self.err:
            m = re.match(r"FROM (\d+) at [\d.]+ (.*)$", line)
            if m:
                out.append(f"FROM {m.group(1)} {m.group(2)}")
            elif line.startswith("WARNING: "):
                out.append(line)
        return out

    def replies(self) -> list[tuple[int, str]]:
        """(seat index, line) of every FROM line, in the order the reference read them."""
        out = []
        for line in self.err:
            m = re.match(r"FROM (\d+) at [\d.]+ (.*)$", line)
            if m:
                out.append((int(m.group(1)) - 1, m.group(2)))
        return out


def load_edge_cases() -> dict[str, EdgeCase]:
    cases: dict[str, EdgeCase] = {}
    current: EdgeCase | None = None
    for line in (DATA / "edge_cases.txt").read_text().splitlines():
        m = re.match(r"=== (\S+): (.*)$", line)
        if m:
            current = EdgeCase(m.group(1), m.group(2), [], [])
            cases[current.name] = current
        elif current is not None and line.startswith("  err| "):
            current.err.append(line[len("  err| ") :])
        elif current is not None and line.startswith("  log| "):
            current.log.append(line[len("  log| ") :])
    return cases


def simulate(
    engine: MatchEngine,
    limits: TimeLimits,
    delays: dict[int, float],
    *,
    action: str = "c",
    silent_from: dict[int, int] | None = None,
    max_steps: int = 100_000,
) -> tuple[Collected, TimedMatch]:
    """Discrete-event run of ``engine`` under ``limits`` with a fake clock.

    Seat s answers every decision ``delays[s]`` seconds after it became its own, echoing the last
    line it was sent plus ``:action``; a seat in ``silent_from`` stops answering from that hand on.
    Late answers are delivered too (they arrive when they arrive, like a real slow bot's).
    """


    c = Collected()
    tm = TimedMatch(engine, limits, 0.0)
    now = 0.0
    for seat in range(engine.game.num_players):
        c.take(tm.connected(seat, now))
        c.take(tm.receive(seat, "VERSION:2.0.0", now))
    pending: list[tuple[float, int, str]] = []
    scheduled = -1
    silent_from = silent_from or {}
    for _ in range(max_steps):
        while tm.needs_advance:
            c.take(tm.advance(now))
        if engine.finished:
            return c, tm
        waiting = engine.waiting_for
        if waiting is not None and engine.decision_count != scheduled:
            scheduled = engine.decision_count
            if engine.hand < silent_from.get(waiting, 1 << 30):
                pending.append((now + delays.get(waiting, 0.0), waiting, c.sent[waiting][-1] + ":" + action))
        deadline = tm.next_deadline()
        pending.sort()
        if pending and (deadline is None or pending[0][0] <= deadline):
            now, seat, line = pending.pop(0)
            c.trace.append(f"FROM {seat + 1} {line}")
            c.take(tm.receive(seat, line, now))
        elif deadline is not None:
            now = max(now, deadline)
            c.take(tm.tick(now))
        else:
            raise AssertionError("the match waits for nothing")
    raise AssertionError("the match did not finish")

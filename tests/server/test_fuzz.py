"""Fuzzing a live dealer: one seat sends hypothesis-drawn garbage, the other plays and checks its view.

Each example starts ``showdown dealer`` as a process on 127.0.0.1 and plays a short match: seat 1 is
an honest player that checks every line it is sent (hand numbers rise, within a hand the cards stay
and the betting only grows, the line parses for the game) and answers with legal actions; seat 2
answers each of its turns with a move drawn by hypothesis: a valid reply, an illegal or malformed
action, odd no-limit sizes, a stale state, random bytes, a huge or unterminated line, a reply split
across writes or several replies in one, silence, or a disconnect (and a reconnect). The dealer must
finish every match by itself within a bound, write SCORE, and leave logs that ``verify-log``
accepts; the honest seat must never see an inconsistent view.

The default run plays a dozen matches (a few thousand fuzzed replies); ``-m slow`` plays hundreds.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from showdown.evaluation.verify import verify_log
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.protocol.matchstate import parse_matchstate

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["kuhn", "leduc", "holdem-limit", "holdem-nolimit"]
MATCH_BOUND_S = 60.0  # no fuzzed match may take longer than this

MOVES = [
    "valid", "valid", "valid", "illegal", "junk_action", "odd_size", "stale", "random_bytes", "huge_line",
    "unterminated", "split", "doubled", "empty", "silence", "disconnect", "bad_version",
]


@dataclass
class HonestView:
    """What the honest seat saw, checked line by line."""

    game: GameDef
    hand: int = -1
    hole: str = ""
    betting: str = ""
    lines: int = 0
    problems: list[str] = field(default_factory=list)

    def check(self, line: str) -> bool:
        """Check a MATCHSTATE line against the previous ones; True when it is our turn."""
        self.lines += 1
        try:
            ms = parse_matchstate(line, self.game)
        except Exception as exc:  # noqa: BLE001 - any failure to parse is a finding
            self.problems.append(f"unparsable line {line!r}: {exc}")
            return False
        betting = ms.betting_text
        own = "".join(str(c) for c in ms.own_cards)
        if ms.hand != self.hand:
            if ms.hand < self.hand:
                self.problems.append(f"hand number went back from {self.hand} to {ms.hand}")
            self.hand, self.hole, self.betting = ms.hand, own, betting
        else:
            if own != self.hole:
                self.problems.append(f"hand {ms.hand}: own cards changed from {self.hole} to {own}")
            if not betting.startswith(self.betting):
                self.problems.append(f"hand {ms.hand}: betting {betting!r} does not extend {self.betting!r}")
            self.betting = betting
        state = ms.to_state(self.game)
        return not state.finished and state.current_player == ms.position


def legal_reply(line: str, game: GameDef, rng: random.Random) -> str:
    ms = parse_matchstate(line, game)
    state = ms.to_state(game)
    action = rng.choice(list(state.legal_actions()))
    return f"{line}:{action}"


async def honest_seat(port: int, game: GameDef, seed: int, view: HonestView) -> None:
    rng = random.Random(seed)
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 22)
    writer.write(b"VERSION:2.0.0\r\n")
    await writer.drain()
    while True:
        raw = await reader.readline()
        if not raw:
            break
        line = raw.decode().rstrip("\r\n")
        if line.startswith("#") or not line.startswith("MATCHSTATE"):
            continue
        if view.check(line):
            writer.write((legal_reply(line, game, rng) + "\r\n").encode())
            await writer.drain()
    writer.close()


def fuzzed_reply(move: str, line: str, previous: str, game: GameDef, rng: random.Random) -> list[bytes]:
    """The writes seat 2 makes for one of its turns."""
    if move == "valid":
        return [(legal_reply(line, game, rng) + "\r\n").encode()]
    if move == "illegal":
        return [(line + ":" + rng.choice(["f", "c", "r", "r1", "k"]) + "\r\n").encode()]
    if move == "junk_action":
        return [(line + ":" + rng.choice(["x", "", "cc", "f5", ":::", "c\x00", "r 5", "\u00e9"]) + "\r\n").encode("utf-8")]
    if move == "odd_size":
        size = rng.choice(["0", "-5", "99999999999999999999", "1e5", "2.5", "00100", "+300", str(2**31), str(2**63)])
        return [(f"{line}:r{size}\r\n").encode()]
    if move == "stale":
        return [((previous or line) + ":c\r\n").encode()]
    if move == "random_bytes":
        return [bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 200))) + b"\n"]
    if move == "huge_line":
        return [b"MATCHSTATE:" + b"A" * (1 << 20) + b"\r\n"]
    if move == "unterminated":
        return [b"Z" * rng.randint(1, 5000)]
    if move == "split":
        data = (legal_reply(line, game, rng) + "\r\n").encode()
        cut = rng.randint(1, len(data) - 1)
        return [data[:cut], data[cut:]]
    if move == "doubled":
        data = (legal_reply(line, game, rng) + "\r\n").encode()
        return [data + data]
    if move == "empty":
        return [b"\r\n\r\n"]
    if move == "bad_version":
        return [b"VERSION:9.9.9\r\n"]
    return []  # silence, disconnect: handled by the caller


async def fuzz_seat(port: int, game: GameDef, moves: list[str], seed: int, counts: dict[str, int]) -> None:
    rng = random.Random(seed)
    turn = 0
    previous = ""
    deadline = time.monotonic() + MATCH_BOUND_S
    while time.monotonic() < deadline:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 22)
        except OSError:
            return
        writer.write(b"VERSION:2.0.0\r\n")
        reconnect = False
        try:
            while True:
                raw = await reader.readline()
                if not raw:
                    return
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                if not line.startswith("MATCHSTATE"):
                    continue
                ms = parse_matchstate(line, game)
                state = ms.to_state(game)
                if state.finished or state.current_player != ms.position:
                    previous = line
                    continue
                move = moves[turn % len(moves)]
                turn += 1
                counts[move] = counts.get(move, 0) + 1
                if move == "disconnect":
                    reconnect = True
                    break
                for chunk in fuzzed_reply(move, line, previous, game, rng):
                    writer.write(chunk)
                    await writer.drain()
                    if move == "split":
                        await asyncio.sleep(0.002)
                previous = line
        except (ConnectionError, asyncio.IncompleteReadError, ValueError):
            return
        finally:
            writer.close()
        if not reconnect:
            return


async def play_fuzzed_match(tmp: Path, game_name: str, moves: list[str], hands: int, seed: int) -> dict[str, object]:
    game = get_game(game_name)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "showdown", "dealer", "fuzz", game_name, str(hands), str(seed),
        "honest", "fuzzer", "-q", "--t_response", "150", "--t_hand", "5000", "--t_per_hand", "3000",
        "--reconnect-ms", "200", "--start_timeout", "5000",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=tmp, env=env,
    )
    assert proc.stdout is not None
    first = await asyncio.wait_for(proc.stdout.readline(), 20)
    assert first.strip(), (await proc.stderr.read()).decode() if proc.stderr else ""
    ports = [int(p) for p in first.split()]
    view = HonestView(game)
    counts: dict[str, int] = {}
    started = time.monotonic()
    await asyncio.wait_for(
        asyncio.gather(honest_seat(ports[0], game, seed, view), fuzz_seat(ports[1], game, moves, seed + 1, counts)),
        MATCH_BOUND_S,
    )
    out, err = await asyncio.wait_for(proc.communicate(), MATCH_BOUND_S)
    return {
        "returncode": proc.returncode,
        "stdout": out.decode(),
        "stderr": err.decode(),
        "view": view,
        "counts": counts,
        "seconds": time.monotonic() - started,
    }


def check_match(tmp: Path, result: dict[str, object], hands: int) -> None:
    stdout = str(result["stdout"])
    assert result["returncode"] == 0, str(result["stderr"])[-2000:]
    assert re.search(r"^SCORE:", stdout, re.MULTILINE), stdout[-500:]
    view = result["view"]
    assert isinstance(view, HonestView)
    assert not view.problems, view.problems[:5]
    assert view.hand == hands - 1  # the honest seat saw every hand
    report = verify_log(tmp / "fuzz.log")
    assert report.ok, report.problems[:5]
    assert report.hands == hands


def run_example(tmp: Path, game_name: str, moves: list[str], seed: int, hands: int, totals: dict[str, int]) -> None:
    for old in tmp.glob("fuzz*"):
        old.unlink()
    result = asyncio.run(play_fuzzed_match(tmp, game_name, moves, hands, seed))
    check_match(tmp, result, hands)
    for k, v in dict(result["counts"]).items():  # type: ignore[call-overload]
        totals[k] = totals.get(k, 0) + v
    totals["matches"] = totals.get("matches", 0) + 1
    totals["hands"] = totals.get("hands", 0) + hands
    report = os.environ.get("SHOWDOWN_FUZZ_TOTALS")  # where to keep the running totals of a long run
    if report:
        Path(report).write_text(json.dumps(totals, sort_keys=True))


TOTALS: dict[str, int] = {}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    game_name=st.sampled_from(GAMES),
    moves=st.lists(st.sampled_from(MOVES), min_size=1, max_size=40),
    seed=st.integers(0, 2**31 - 1),
)
def test_a_fuzzing_seat_never_breaks_the_dealer_or_the_honest_seat(tmp_path_factory, game_name, moves, seed):
    tmp = tmp_path_factory.mktemp("fuzz")
    run_example(tmp, game_name, moves, seed, 30, TOTALS)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    game_name=st.sampled_from(GAMES),
    moves=st.lists(st.sampled_from(MOVES), min_size=1, max_size=60),
    seed=st.integers(0, 2**31 - 1),
)
def test_many_fuzzed_matches(tmp_path_factory, game_name, moves, seed):
    tmp = tmp_path_factory.mktemp("fuzz")
    run_example(tmp, game_name, moves, seed, 60, TOTALS)


def test_report_fuzz_totals():
    """Prints the fuzzed replies by kind (run with -s to see them)."""
    if TOTALS:
        replies = sum(v for k, v in TOTALS.items() if k not in ("matches", "hands"))
        print("fuzzed replies:", replies, dict(sorted(TOTALS.items())))

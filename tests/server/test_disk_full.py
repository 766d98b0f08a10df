"""A full disk at any byte (issue 31, items 5 and 6): the dealer stops at the first failed write,
before any player is told how that hand ended, so the hands the players saw finish are exactly the
hands in both logs; the result says which hand was lost; `showdown match` says the disk error,
exits 1 and leaves logs that verify and resume."""

from __future__ import annotations

import asyncio
import errno
import io
import json
import os
import random
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from showdown.evaluation.verify import verify_log
from showdown.games.catalog import get_game
from showdown.protocol.matchstate import parse_matchstate
from showdown.server import match_logs
from showdown.server.tcp import DealerOptions, MatchServer
from tests.server.clients import Client, call_policy

KUHN = get_game("kuhn")
ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


class Disk:
    """Room for ``free`` more bytes across every file opened through ``open``; then writes come
    short and fail with ENOSPC, as on a real full disk."""

    def __init__(self, free: int) -> None:
        self.free = free

    def open(self, path: Any, mode: str = "r", buffering: int = -1, **kw: Any) -> Any:
        disk = self
        raw = open(path, mode, buffering=buffering, **kw)  # noqa: SIM115 (handed to the dealer)
        if "b" not in mode or buffering != 0:
            return raw

        class Full(io.FileIO):
            def write(self, data: Any) -> int:
                if disk.free <= 0:
                    raise OSError(errno.ENOSPC, "No space left on device")
                n = min(len(data), disk.free)
                disk.free -= n
                return raw.write(bytes(data[:n])) or 0

            def truncate(self, size: int | None = None) -> int:
                return raw.truncate(size)

            def tell(self) -> int:
                return raw.tell()

            def fileno(self) -> int:  # (the dealer locks its log)
                return raw.fileno()

            def seek(self, pos: int, whence: int = 0) -> int:
                return raw.seek(pos, whence)

            def close(self) -> None:
                raw.close()

        full = Full.__new__(Full)
        return full


def finished_hands(client: Client) -> set[int]:
    """The hands whose end this client was sent."""
    seen = set()
    for line in client.received:
        if line.startswith("MATCHSTATE:"):
            ms = parse_matchstate(line, KUHN)
            if ms.to_state(KUHN).finished:
                seen.add(ms.hand)
    return seen


async def one_trial(tmp: Path, free: int) -> None:
    server = MatchServer(KUHN, "m", 80, 5, ["a", "b"], DealerOptions(log_dir=tmp))
    ports = await server.start()
    clients = [Client(KUHN, p, call_policy) for p in ports]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    result = await asyncio.wait_for(server.run(), 20)
    await asyncio.gather(*tasks)
    log = (tmp / "m.log").read_text() if (tmp / "m.log").exists() else ""
    jsonl = (tmp / "m.jsonl").read_text() if (tmp / "m.jsonl").exists() else ""
    assert log.endswith("\n") or not log
    logged = [int(line.split(":")[1]) for line in log.splitlines() if line.startswith("STATE:")]
    records = [json.loads(line) for line in jsonl.splitlines()]
    assert [r["hand"] for r in records if not r.get("summary")] == logged  # both logs: the same hands, whole
    for c in clients:
        assert finished_hands(c) == set(logged), (free, sorted(finished_hands(c))[-3:], logged[-3:])
    assert result.hands_played == len(logged)
    if result.error is None:  # the disk had room enough
        assert len(logged) == 80 and log.splitlines()[-1].startswith("SCORE:")
        return
    assert result.aborted and "the disk is full" in result.error
    if "SCORE" in result.error:
        assert len(logged) == 80 and "every hand is in the logs" in result.error
    else:
        assert f"told how hand {len(logged)} ended" in result.error
        assert f"--resume continues from hand {len(logged)}" in result.error
        for seat in range(2):  # the result's totals are the logged hands' sums
            total = sum(r["values"][r["seats"].index(seat)] for r in records if not r.get("summary"))
            assert abs(result.totals[seat] - total) < 1e-9
    if logged:
        assert verify_log(tmp / "m.log", partial=True).ok


def trials(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    rng = random.Random(31)
    full_size = 0
    for n in range(count):
        free = rng.randrange(0, 12_000) if n else 10**9
        disk = Disk(free)
        monkeypatch.setattr(match_logs, "open", disk.open, raising=False)
        folder = tmp_path / f"t{n}"
        folder.mkdir()
        asyncio.run(one_trial(folder, free))
        if n == 0:
            full_size = 10**9 - disk.free
    assert full_size > 11_000  # the random byte falls anywhere in a whole match's logs


def test_a_full_disk_at_a_random_byte_loses_no_hand_a_player_saw_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    trials(tmp_path, monkeypatch, 12)


@pytest.mark.slow
def test_a_full_disk_at_a_random_byte_100_trials(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    trials(tmp_path, monkeypatch, 101)


# ------------------------------------------------------------------ `showdown match`, a real limit


def limited(size: int) -> Any:
    def limit() -> None:  # in the child: a real file-size limit (Python ignores SIGXFSZ: writes fail EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    return limit


def test_showdown_match_says_the_write_error_exits_1_and_leaves_logs_that_resume(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "showdown", "match", "kuhn", "random", "call", "--hands", "3000", "--out", "out"]
    r = subprocess.run(command, cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120,
                       preexec_fn=limited(60_000), check=False)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    assert "cannot write hand" in r.stderr and "File too large" in r.stderr and "--resume continues" in r.stderr
    assert "ERROR: cannot write hand" in r.stdout  # the table says it too
    log = tmp_path / "out" / "kuhn.random-call.seed0.log"
    report = verify_log(log, partial=True)
    assert report.ok and 0 < report.hands < 3000
    again = subprocess.run([sys.executable, "-m", "showdown", "match", "--resume", "out", "--json"], cwd=tmp_path, env=ENV,
                           capture_output=True, text=True, timeout=300, check=False)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["hands"] == 3000 and verify_log(log).ok


def test_a_summary_that_cannot_be_written_is_said_and_exits_1(tmp_path: Path) -> None:
    """The limit falls on the last lines: every hand is in, the end is not; said, exit 1."""
    command = [sys.executable, "-m", "showdown", "match", "kuhn", "random", "call", "--hands", "200", "--out", "out"]
    first = subprocess.run(command, cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120, check=False)
    assert first.returncode == 0, first.stderr
    jsonl = tmp_path / "out" / "kuhn.random-call.seed0.jsonl"
    summary = jsonl.read_text().splitlines()[-1]
    size = jsonl.stat().st_size - len(summary) - 1 + 10  # room for every hand, not the summary record
    r = subprocess.run([*command, "--force"], cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120,
                       preexec_fn=limited(size), check=False)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "cannot write the SCORE line and the summary record" in r.stderr and "every hand is in the logs" in r.stderr
    assert "Traceback" not in r.stderr

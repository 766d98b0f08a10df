"""check-bot's connection to a bot, when the bot resets it."""

from __future__ import annotations

import asyncio
import json
import socket
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.matches.bot_checks import Transport
from showdown.matches.check_bot import MAX_SILENT, BotGone, _Session


def test_a_bot_that_resets_its_connection_is_gone_not_a_traceback() -> None:
    # a bot killed with lines unread (or closing with SO_LINGER 0) reset the connection: ConnectionResetError
    # came out of check-bot as a traceback instead of 'the bot never ... / it ended first'
    async def main() -> None:
        accepted: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = asyncio.Queue()
        server = await asyncio.start_server(lambda r, w: accepted.put_nowait((r, w)), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        bot = socket.create_connection(("127.0.0.1", port))
        reader, writer = await asyncio.wait_for(accepted.get(), 5)
        session = _Session(reader, writer, Transport.LINES)
        bot.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        bot.close()
        with pytest.raises(BotGone):
            await session.line(5)
        writer.close()
        server.close()
        await server.wait_closed()

    asyncio.run(main())


def test_a_bot_that_never_answers_stops_each_check_after_a_few_silences(tmp_path: Path) -> None:
    # a bot that connected and then hung cost t_response for every decision of every hand of every check
    # (1,000 hands at 7 s: hours); here 200 hands at 300 ms were a minute or more
    bot = tmp_path / "hung_bot.py"
    bot.write_text("import socket, sys, time\nconn = socket.create_connection((sys.argv[1], int(sys.argv[2])))\n"
                   "conn.sendall(b'VERSION:2.0.0\\r\\n')\ntime.sleep(120)\n")
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", str(bot), "--game", "kuhn", "--hands", "200",
                           "--t-response", "300", "--only", "many-hands", "--json"], capture_output=True, text=True, timeout=30,
                          cwd=tmp_path)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    problems = checks["many-hands"]["problems"]
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    stops = [p for p in problems if p["hint"].startswith(f"the bot answered none of {MAX_SILENT} states of its turn in a row")]
    assert len(stops) == 1 and stops[0]["hint"].endswith(f"within 300 ms: this check stopped at hand {stops[0]['hand']}"), problems
    assert stops[0]["hand"] < 20
    # the bot, still running after the check stopped, is named at the hand where it stopped (was hand 199)
    assert [p["hand"] for p in checks["match-end"]["problems"]] == [stops[0]["hand"]]


def test_a_sandboxed_bot_stopped_by_a_limit_before_connecting_is_told_which(tmp_path: Path) -> None:
    # a bot that reserves more address space than the sandbox allows at start (as the JVM does) failed every
    # check with its own last words only ('MemoryError', 'Could not allocate compressed class space'), no limit named
    bot = tmp_path / "greedy_bot.py"
    bot.write_text("import socket, sys\nblock = bytearray(4 * 2**30)\nsocket.create_connection((sys.argv[1], int(sys.argv[2])))\n")
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", str(bot), "--game", "kuhn", "--hands", "10",
                           "--only", "check-down", "--sandbox", "--json"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    hint = checks["check-down"]["problems"][0]["hint"]
    assert done.returncode == 1 and "MemoryError" in hint, done.stderr
    assert hint.endswith("it was stopped by its sandbox limit memory_mb (2048 MB of address space)"), hint


def test_a_module_class_bot_imports_from_the_current_folder_in_the_sandbox(tmp_path: Path) -> None:
    # check-bot --sandbox of my_bot:MyBot failed every check with "No module named 'my_bot'" (a match found it)
    (tmp_path / "plain_bot.py").write_text("from showdown.agents import CALL, Agent\n\n\nclass Caller(Agent):\n"
                                           "    def act(self, view):\n        return CALL\n")
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", "plain_bot:Caller", "--game", "kuhn", "--hands", "10",
                           "--only", "check-down", "--sandbox", "--json"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    assert checks["check-down"]["problems"] == [] and done.returncode == 0, checks


def test_a_situation_a_calling_bot_never_reaches_is_not_blamed_on_hands_it_ended() -> None:
    # an always-call bot plays every hand to the showdown, so the opponent never folds on the flop: the note said
    # 'the bot's own play ended every hand before it', which sent its author looking for a fold it never makes
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", "call", "--game", "holdem-limit", "--hands", "10",
                           "--only", "fold-flop", "--json"], capture_output=True, text=True, timeout=60)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    hint = checks["fold-flop"]["hint"]
    assert checks["fold-flop"]["passed"] and "ended every hand" not in hint, hint
    assert hint.startswith("situation not reached: the bot's own play never led to it"), hint


def test_a_script_without_its_interpreter_line_is_told_to_add_one(tmp_path: Path) -> None:
    # a shell script with no '#!' line: 'Exec format error' and nothing more (a match run by uvloop plays it)
    bot = tmp_path / "bot.sh"
    bot.write_text("exec sleep 5\n")
    bot.chmod(0o755)
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", str(bot), "--game", "kuhn", "--hands", "10"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "Exec format error (a script must name its interpreter on its first line, like #!/bin/sh" in done.stderr, done.stderr


def test_a_bot_that_exits_leaving_a_child_running_is_told_of_the_child(tmp_path: Path) -> None:
    # the bot exited at the match's end, its helper did not: match-end said 'when a read returns end-of-file, exit'
    bot = tmp_path / "forking_bot.py"
    bot.write_text("import os, time\nif os.fork() == 0:\n    time.sleep(60)\n    os._exit(0)\n"
                   "from showdown.agents import CALL, Agent, run_bot\n\n\nclass Caller(Agent):\n"
                   "    def act(self, view):\n        return CALL\n\n\nraise SystemExit(run_bot(Caller))\n")
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", str(bot), "--game", "kuhn", "--hands", "5",
                           "--only", "many-hands", "--json"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    assert checks["many-hands"]["passed"] and done.returncode == 1, checks
    assert "the bot exited but processes it started were still running" in checks["match-end"]["hint"], checks["match-end"]


def test_check_bot_takes_sandbox_limits_as_a_match_file_does(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A JVM bot needs more address space than the sandbox's default 2048 MB, and check-bot --sandbox had
    no way to say so: every check failed. --limit KEY=VALUE reads as a match file's limits: mapping."""
    import shutil
    import subprocess
    import sys

    from tests.matches.test_sandbox import BOT, _bot_folder

    bot = _bot_folder() / "reserving_bot.py"  # reserves 3 GB of address space as it starts, as a JVM does
    bot.write_text("import mmap\nreserved = mmap.mmap(-1, 3 * 2**30)\n" + BOT.format(mischief="    pass"))
    bot.chmod(0o644)

    def check(*limit: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "showdown", "check-bot", "--command", f"{sys.executable} {bot}", "--game",
                               "kuhn", "--only", "many-hands", "--hands", "30", *limit],
                              capture_output=True, text=True, timeout=120, cwd=tmp_path)

    try:
        assert check("--sandbox").returncode == 1  # the default 2048 MB: it cannot start
        ok = check("--limit", "memory_mb=6144", "--limit", "processes=32")
        assert ok.returncode == 0, ok.stdout + ok.stderr
    finally:
        shutil.rmtree(bot.parent, ignore_errors=True)
    bad = check("--limit", "memory=5")
    assert bad.returncode == 2 and bad.stderr == ("showdown check-bot: error: --limit: unknown limit 'memory': did you mean "
                                                  "'memory_mb'? (limits: cpu_s, cpu_s_per_hand, file_mb, memory_mb, network, "
                                                  "open_files, processes)\n")
    worse = check("--limit", "memory_mb")
    assert worse.returncode == 2 and "give KEY=VALUE" in worse.stderr

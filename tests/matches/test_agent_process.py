"""Bot processes: a bot that leaves a child holding its output open has still ended when it exits."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.matches import agent_process
from showdown.matches.agent_process import AgentProcess

ROOT = Path(__file__).resolve().parents[2]

# a correct Kuhn bot (answers its own turns only) that first forks a child of its own session, which
# keeps the bot's stdout and stderr open for a minute and writes its pid to CHILD
LEAVES_A_CHILD = '''
import os, socket, sys, time
if os.fork() == 0:
    os.setsid()
    open(os.environ.get("CHILD_PID_FILE", "child.pid"), "w").write(str(os.getpid()))
    time.sleep(60)
    os._exit(0)
from showdown.games.catalog import get_game
from showdown.protocol.matchstate import parse_matchstate
game = get_game("kuhn")
conn = socket.create_connection((sys.argv[1], int(sys.argv[2])))
token = os.environ.get("SHOWDOWN_SEAT_TOKEN")
conn.sendall(("VERSION:2.0.0" + (" token=" + token if token else "") + "\\r\\n").encode())
for raw in conn.makefile("rb"):
    line = raw.decode().rstrip("\\r\\n")
    view = parse_matchstate(line, game)
    state = view.to_state(game)
    if not state.finished and state.current_player == view.position:
        conn.sendall((line + ":c\\r\\n").encode())
'''


def _run(tmp_path: Path, command: list[str], after: list[str]) -> subprocess.CompletedProcess[str]:
    bot = tmp_path / "parent_bot.py"
    bot.write_text(LEAVES_A_CHILD)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        return subprocess.run([sys.executable, "-m", "showdown", *command, str(bot), *after],
                              capture_output=True, text=True, timeout=50, cwd=tmp_path, env=env)
    finally:
        for pid_file in tmp_path.rglob("child.pid"):
            try:
                os.kill(int(pid_file.read_text()), signal.SIGKILL)
            except (ValueError, ProcessLookupError):
                pass


def test_check_bot_sees_the_bot_exit_though_a_child_holds_its_output(tmp_path: Path) -> None:
    # match-end failed ("still running") and asyncio printed "Event loop is closed" tracebacks
    done = _run(tmp_path, ["check-bot"], ["--game", "kuhn", "--hands", "10", "--only", "many-hands", "--json"])
    report = json.loads(done.stdout)
    assert {c["name"]: c["passed"] for c in report["checks"]}["match-end"], report
    assert "Traceback" not in done.stderr, done.stderr


def _copy(tmp_path: Path, data: bytes) -> tuple[bytes, AgentProcess]:
    agent = AgentProcess(seat=0, label="bot", args=[], output_path=tmp_path / "bot.stderr")

    async def main() -> None:
        stream = asyncio.StreamReader()
        stream.feed_data(data)
        stream.feed_eof()
        await agent._read_output(stream)

    asyncio.run(main())
    return (tmp_path / "bot.stderr").read_bytes(), agent


def test_output_copy_stops_at_its_cap_with_one_line_saying_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a bot printing gigabytes filled the disk beside the logs: the copy had no cap
    monkeypatch.setattr(agent_process, "OUTPUT_CAP", 1000)
    data = b"".join(b"line %d\n" % i for i in range(5000))
    copied, agent = _copy(tmp_path, data)
    marker = b"[showdown: the bot's output past 0 MiB was not kept]\n"
    assert copied.endswith(marker), copied[-200:]
    assert len(copied) <= 1000 + 1 + len(marker)
    assert data.startswith(copied[: -len(marker)].rstrip(b"\n"))
    assert agent.stderr_tail[-1] == "line 4999"  # read to the end: its last lines are kept for messages


def test_a_huge_output_line_is_one_short_line_in_messages(tmp_path: Path) -> None:
    # a 3 MB first line (read 64 KiB at a time) was kept as a 300-character piece per read: the error
    # line of a bot that printed it and exited quoted three of them, 900 x's and no last words
    data = b"x" * 3_000_000 + b"\nbye\n"
    copied, agent = _copy(tmp_path, data)
    assert copied == data  # (readline had dropped the long line from the copy)
    assert list(agent.stderr_tail) == ["x" * 300 + " [...]", "bye"]
    assert agent.last_words() == f"{'x' * 300} [...]; bye (its output: {tmp_path / 'bot.stderr'})"


def test_output_under_its_cap_is_copied_whole(tmp_path: Path) -> None:
    data = b"".join(b"line %d\n" % i for i in range(100))
    assert _copy(tmp_path, data)[0] == data


def test_match_ends_though_a_bot_left_a_child_holding_its_output(tmp_path: Path) -> None:
    # our end of the bot's output pipe is closed through public API (was asyncio's private _transport)
    done = _run(tmp_path, ["match", "kuhn"], ["call", "--hands", "10", "--out", str(tmp_path / "out")])
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Event loop is closed" not in done.stderr, done.stderr
    assert list((tmp_path / "out").glob("*.stderr"))


# a launcher: starts the bot in the background after a pause (as a slow runtime would) and exits 0 at once
LAUNCHER = '#!/bin/sh\n(sleep {pause}; exec "{python}" "{bot}" "$@") > /dev/null 2>&1 &\necho launched\n'


def _launcher(tmp_path: Path, pause: float, bot: str) -> Path:
    (tmp_path / "bot.py").write_text(bot)
    launcher = tmp_path / "launch.sh"
    launcher.write_text(LAUNCHER.format(pause=pause, python=sys.executable, bot=tmp_path / "bot.py"))
    launcher.chmod(0o755)
    return launcher


def _showdown(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "showdown", *args], capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)


def _running(launcher: Path) -> list[str]:
    return subprocess.run(["pgrep", "-f", str(launcher.parent / "bot.py")], capture_output=True, text=True).stdout.split()


# the bot of LEAVES_A_CHILD without its child: it answers its turns until the dealer closes
PLAIN_BOT = LEAVES_A_CHILD.split("from showdown.games.catalog", 1)[0].split("if os.fork()", 1)[0] + "from showdown.games.catalog" + LEAVES_A_CHILD.split("from showdown.games.catalog", 1)[1]


def test_a_launcher_that_exits_0_while_its_bot_starts_is_played_by_match_and_check_bot(tmp_path: Path) -> None:
    # was: "exited before the match began" whenever the bot took over a second to connect (match), and
    # "it exited first" always (check-bot), though match played it when its bot connected at once
    launcher = _launcher(tmp_path, 1.5, f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n" + PLAIN_BOT)
    done = _showdown(tmp_path, "match", "kuhn", str(launcher), "call", "--hands", "200", "--out", "m", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["hands"] == 200 and not report.get("failures"), report
    assert "exited" not in done.stderr, done.stderr
    checked = _showdown(tmp_path, "check-bot", str(launcher), "--game", "kuhn", "--only", "fold-round1", "--json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert not _running(launcher)  # its bot saw the dealer close and ended, or was ended with the match


def test_a_launcher_whose_bot_never_comes_is_told_in_one_line_and_leaves_nothing_running(tmp_path: Path) -> None:
    launcher = _launcher(tmp_path, 0, "import time\ntime.sleep(60)\n")
    done = _showdown(tmp_path, "match", "kuhn", str(launcher), "call", "--hands", "20", "--start-timeout", "2000")
    assert done.returncode == 2
    assert "exited at once and what it left running never took its seat: launched" in done.stderr, done.stderr
    assert not _running(launcher)
    from showdown.matches.check_bot import BotGone, BotProgram, _connect
    from showdown.matches.config import AgentSpec

    bot = BotProgram(AgentSpec(command=str(launcher)), "launch")
    with pytest.raises(BotGone, match="it exited at once and what it left running did not connect within 2 s: launched"):
        asyncio.run(_connect(bot, "kuhn", 0, 2.0))  # check-bot's wait for the bot (15 s there)
    assert not _running(launcher)


@pytest.mark.skipif(sys.platform != "linux", reason="the sandbox is Linux's")
def test_in_the_sandbox_a_launcher_is_told_at_once_that_its_leftovers_end_with_it(tmp_path: Path) -> None:
    # a tournament (sandboxed by default) waited out the start limit and then blamed the bot for never coming
    launcher = _launcher(tmp_path, 1.0, f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n" + PLAIN_BOT)
    done = _showdown(tmp_path, "match", "kuhn", str(launcher), "call", "--hands", "20", "--sandbox")
    assert done.returncode == 2
    assert "exited before the match began: launched" in done.stderr and "in the sandbox what a program leaves running ends with it" in done.stderr, done.stderr
    assert not _running(launcher)


def test_a_bot_still_starting_at_the_limit_is_not_called_a_launcher(tmp_path: Path) -> None:
    # check-bot said of a built-in agent still training a custom game "it exited at once and what it
    # left running did not connect": the message was chosen after the bot had been killed
    from showdown.matches.check_bot import BotGone, BotProgram, _connect
    from showdown.matches.config import AgentSpec

    bot = BotProgram(AgentSpec(command=f"{sys.executable} -c 'import time; time.sleep(30)'"), "slow")
    with pytest.raises(BotGone, match="^it did not connect within 1 s"):
        asyncio.run(_connect(bot, "kuhn", 0, 1.0))


def test_a_command_with_host_and_port_placeholders_is_filled_in_as_check_bot_does() -> None:
    # check-bot's --command "CMD {host} {port}" given to scorecard or exploit --probes started
    # 'CMD {host} {port} 127.0.0.1 PORT': the bot said "invalid port {port}"
    from showdown.matches.agent_process import agent_command
    from showdown.matches.config import AgentSpec

    filled = agent_command(AgentSpec(command="./bot kuhn.game {host} {port} --fast"), "kuhn", 0, "127.0.0.1", 4321)
    assert filled == ["./bot", "kuhn.game", "127.0.0.1", "4321", "--fast"]
    assert agent_command(AgentSpec(command="./bot --fast"), "kuhn", 0, "127.0.0.1", 4321) == ["./bot", "--fast", "127.0.0.1", "4321"]

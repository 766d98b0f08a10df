"""The sandbox against real misbehaving bots: each is stopped or blocked, the match goes on, the log
verifies, the other seat's result stands, and the dealer keeps its own memory."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from showdown.errors import ConfigError
from showdown.matches.config import parse_limits
from showdown.matches.sandbox import Jail, Limits, limit_hit, network_namespace

HANDS = 100

# A bot that calls every hand, after doing MISCHIEF once it has seen hand 20.
BOT = '''
import os, socket, sys, time
host, port = sys.argv[1], int(sys.argv[2])
conn = socket.create_connection((host, port))
token = os.environ.get("SHOWDOWN_SEAT_TOKEN")
conn.sendall(("VERSION:2.0.0" + (" token=" + token if token else "") + "\\r\\n").encode())
def mischief():
{mischief}
done = False
for raw in conn.makefile("rb"):
    line = raw.decode().strip()
    if not line.startswith("MATCHSTATE"):
        continue
    _, position, hand, betting, cards = line.split(":", 4)
    if int(hand) >= 20 and not done:
        done = True
        mischief()
    acted = len(betting.replace("/", ""))
    over = betting.endswith("f") or len(betting) >= 2 and betting[-2:] in ("cc", "rc") or betting.endswith("c") and len(betting) > 1
    if not over and acted % 2 == int(position):
        conn.sendall((line + ":c\\r\\n").encode())
'''

MISCHIEF = {
    "memory": "    block = bytearray(10 * 2**30)",
    "fork": textwrap.indent(textwrap.dedent("""\
        kids = []
        for i in range(500):
            pid = os.fork()
            if pid == 0:
                time.sleep(120)
                os._exit(0)
            kids.append(pid)
        print("forked", len(kids), flush=True)"""), "    "),
    "disk": textwrap.indent(textwrap.dedent("""\
        chunk = b"x" * (1 << 20)
        with open("big.bin", "wb") as f:
            for _ in range(5 * 1024):
                f.write(chunk)
        print("wrote 5 GB", flush=True)"""), "    "),
    "network": textwrap.indent(textwrap.dedent("""\
        try:
            socket.create_connection(("127.0.0.1", int(os.environ.get("OTHER_PORT", "{other_port}"))), timeout=2).sendall(b"hello")
            print("REACHED the other port", flush=True)
        except OSError as exc:
            print("blocked:", exc, flush=True)"""), "    "),
    "spin": "    while True:\n        pass",
    "secret": textwrap.indent(textwrap.dedent("""\
        leaked = [k for k, v in os.environ.items() if "hunter2" in v]
        print("LEAKED" if leaked else "no secret in", sorted(os.environ), flush=True)"""), "    "),
}


@pytest.fixture(autouse=True)
def _bot_folders() -> Iterator[None]:
    """Removes the bot folders a test made (outside pytest's tmp_path, which a sandbox user id cannot read)."""
    yield
    while _MADE:
        shutil.rmtree(_MADE.pop(), ignore_errors=True)


_MADE: list[Path] = []


def _bot_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="showdown-sandbox-test-"))
    folder.chmod(0o755)  # readable by a sandbox user id
    _MADE.append(folder)
    return folder


def _play(tmp_path: Path, mischief: str, limits: dict[str, object] | None = None, other_port: int = 0) -> tuple[int, str, dict]:
    bots = _bot_folder()
    bot = bots / f"{mischief}_bot.py"
    bot.write_text(BOT.format(mischief=MISCHIEF[mischief].replace("{other_port}", str(other_port))))
    bot.chmod(0o644)
    entry: dict[str, object] = {"command": f"{sys.executable} {bot}", "label": mischief}
    if limits:
        entry["limits"] = limits
    config = {"game": "kuhn", "hands": HANDS, "seed": 3, "sandbox": True, "out": str(tmp_path / "out"),
              "agents": [entry, "random"], "dealer": {"reconnect_ms": 200}}
    path = tmp_path / "match.yaml"
    path.write_text(json.dumps(config))
    # the peak of this process's own memory (VmHWM): ru_maxrss would carry pytest's peak across the exec
    code = ("import sys\nfrom showdown.cli.main import main\nrc = main(sys.argv[1:])\n"
            "hwm = next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:'))\n"
            "sys.stderr.write(f'DEALER_MAXRSS_KB={hwm}\\n')\nsys.exit(rc)\n")
    env = {**os.environ, "MY_SECRET": "hunter2"}
    done = subprocess.run([sys.executable, "-c", code, "match", "--config", str(path), "--json", "--no-progress"],
                          capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    report = json.loads(done.stdout) if done.stdout.strip() else {}
    rss_kb = int(done.stderr.rsplit("DEALER_MAXRSS_KB=", 1)[1].split()[0])
    assert rss_kb < 400_000, f"the dealer grew to {rss_kb} kB"  # its own memory, whatever the bot took
    logs = list((tmp_path / "out").glob("*.log"))
    assert len(logs) == 1
    verified = subprocess.run([sys.executable, "-m", "showdown", "verify-log", str(logs[0])], capture_output=True, text=True)
    assert verified.returncode == 0 and f"OK {HANDS} hands" in verified.stdout, verified.stdout
    assert report["hands"] == HANDS  # the match went on to its end: the other seat's result stands
    assert abs(sum(report["totals"])) < 1e-9 if "totals" in report else True
    bot_output = "".join(p.read_text() for p in (tmp_path / "out").glob(f"*.{mischief}.stderr"))
    return done.returncode, done.stderr + bot_output, report


def _stopped(status: int, said: str, limit: str) -> None:
    assert status == 3, said  # degraded
    lines = [s for s in said.splitlines() if "was stopped by its sandbox limit" in s]
    assert len(lines) == 1 and limit in lines[0], said


@pytest.mark.slow
def test_a_bot_that_allocates_10_gb_is_stopped_by_the_memory_limit(tmp_path: Path) -> None:
    status, said, _ = _play(tmp_path, "memory", {"memory_mb": 512})
    _stopped(status, said, "memory_mb")


@pytest.mark.slow
def test_a_bot_that_forks_500_children_is_blocked_and_leaves_none_behind(tmp_path: Path) -> None:
    status, said, _ = _play(tmp_path, "fork", {"processes": 32})
    _stopped(status, said, "processes")
    assert "forked 500" not in said
    left = subprocess.run(["pgrep", "-f", "fork_bot.py"], capture_output=True, text=True).stdout.split()
    assert not left, f"children left behind: {left}"


@pytest.mark.slow
def test_a_bot_that_writes_a_5_gb_file_is_stopped_by_the_file_size_limit(tmp_path: Path) -> None:
    status, said, _ = _play(tmp_path, "disk", {"file_mb": 16})
    _stopped(status, said, "file_mb")
    assert "wrote 5 GB" not in said


@pytest.mark.slow
def test_a_bot_that_spins_the_cpu_is_stopped_by_the_per_hand_cpu_limit(tmp_path: Path) -> None:
    status, said, _ = _play(tmp_path, "spin", {"cpu_s_per_hand": 1})
    _stopped(status, said, "cpu_s_per_hand")


def test_a_bot_cannot_reach_another_local_port(tmp_path: Path) -> None:
    if isinstance(network_namespace("127.0.0.1"), str):
        pytest.skip("this machine gives no network namespace (the run says so)")
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen(1)
        other.settimeout(0)
        status, said, _ = _play(tmp_path, "network", other_port=other.getsockname()[1])
        with pytest.raises(BlockingIOError):
            other.accept()
    assert status == 0, said
    assert "blocked:" in said and "REACHED" not in said


def test_a_bot_sees_no_secret_of_the_environment(tmp_path: Path) -> None:
    status, said, _ = _play(tmp_path, "secret")
    assert status == 0, said
    assert "no secret in" in said and "LEAKED" not in said
    assert "MY_SECRET" not in said


def test_limits_come_from_yaml_and_bad_ones_are_named() -> None:
    assert parse_limits({"memory_mb": 2048, "cpu_s_per_hand": 7}, "x") == Limits(memory_mb=2048, cpu_s_per_hand=7.0)
    with pytest.raises(ConfigError, match="unknown limit 'memry_mb'"):
        parse_limits({"memry_mb": 1}, "x")
    with pytest.raises(ConfigError, match="x.processes: expected a whole number"):
        parse_limits({"processes": 0}, "x")


def test_the_limit_is_named_from_how_the_bot_ended() -> None:
    jail = Jail(0, Limits(network=True), "127.0.0.1")
    try:
        assert limit_hit(-25, "", jail) == "file_mb (files up to 1024 MB)"
        assert limit_hit(-24, "", jail) == "cpu_s (3600 CPU s in all)"
        assert limit_hit(1, "MemoryError", jail) == "memory_mb (2048 MB of address space)"
        assert limit_hit(1, "ValueError: bad", jail) is None
    finally:
        jail.close()


def test_a_yaml_agent_entry_takes_limits_and_they_survive_the_trip_to_a_child_process() -> None:
    from showdown.matches.config import MatchConfig, agent_spec, config_from_json, config_to_json

    spec = agent_spec({"command": "./bot", "limits": {"memory_mb": 512, "cpu_s_per_hand": 2}}, "m.yaml")
    assert spec.limits == Limits(memory_mb=512, cpu_s_per_hand=2.0)
    config = MatchConfig(game="kuhn", agents=(spec, agent_spec("random", "m.yaml")), sandbox=True)
    again = config_from_json(json.loads(json.dumps(config_to_json(config))))
    assert again.agents[0].limits == spec.limits and again.sandbox


def test_only_bots_we_did_not_write_are_sandboxed() -> None:
    from showdown.matches.config import AgentSpec
    from showdown.matches.sandbox import is_sandboxed

    assert is_sandboxed(AgentSpec(command="./bot"), True) and is_sandboxed(AgentSpec(name="my_bot:MyBot"), True)
    assert not is_sandboxed(AgentSpec(name="random"), True)
    assert not is_sandboxed(AgentSpec(command="./bot"), False)
    assert is_sandboxed(AgentSpec(name="random", limits=Limits()), False)  # limits given: sandboxed anyway


def test_tournaments_sandbox_file_and_command_bots_unless_told_not_to(tmp_path: Path) -> None:
    from showdown.matches.config import Where
    from showdown.matches.tournament_config import parse_tournament_config

    doc = {"game": "kuhn", "hands": 10, "agents": ["random", {"command": "./bot"}]}
    assert parse_tournament_config(doc, Where("t.yaml"), tmp_path).sandbox
    assert not parse_tournament_config({**doc, "sandbox": False}, Where("t.yaml"), tmp_path).sandbox


def test_a_jail_leaves_no_control_group_and_removes_those_of_dealers_gone() -> None:
    jail = Jail(0, Limits(network=True), "127.0.0.1", program=["/bin/true"])
    group = jail.cgroup
    if group is None:
        jail.close()
        pytest.skip("no pids control group on this machine (the run says so)")
    stale = group.parent / "showdown-999999999-0"  # no such process
    stale.mkdir()
    jail.close()
    assert not group.exists()
    Jail(1, Limits(network=True), "127.0.0.1", program=["/bin/true"]).close()
    assert not stale.exists()


def test_closing_one_jail_leaves_another_of_the_same_seat_running() -> None:
    """check-bot runs two checks at a time, each a jail for seat 0 in one process: the first to end
    killed the other's bot (the same user id and control group), which failed 'killed by signal 9'."""
    jails = [Jail(0, Limits(network=True), "127.0.0.1", program=["/bin/sleep", "30"]) for _ in range(2)]
    procs = [subprocess.Popen(["/bin/sleep", "30"], preexec_fn=jail.preexec) for jail in jails]
    try:
        if jails[0].uid is None and jails[0].cgroup is None:
            pytest.skip("neither a user id of its own nor a control group on this machine")
        jails[0].close()
        procs[0].wait(timeout=5)
        assert procs[1].poll() is None, "the other jail's bot was killed"
    finally:
        for jail in jails:
            jail.close()
        for proc in procs:
            proc.kill()
            proc.wait()


def test_a_bot_stopped_by_a_limit_before_it_connects_stops_the_match_at_once(tmp_path: Path) -> None:
    """As a crash before the start: the match waited out the 15 s start timeout, said 'a built-in agent
    may still be training' under the limit's line, and played every hand check/fold for the bot."""
    import time

    bot = _bot_folder() / "greedy_bot.py"
    bot.write_text("block = bytearray(10 * 2**30)\n")  # before it connects
    bot.chmod(0o644)
    config = {"game": "kuhn", "hands": HANDS, "seed": 3, "sandbox": True, "out": str(tmp_path / "out"),
              "agents": [{"command": f"{sys.executable} {bot}", "label": "greedy", "limits": {"memory_mb": 512}}, "random"]}
    path = tmp_path / "match.yaml"
    path.write_text(json.dumps(config))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "showdown", "match", "--config", str(path), "--no-progress"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert time.monotonic() - started < 10
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and "was stopped by its sandbox limit memory_mb" in errors[0] and "before the match began" in errors[0]
    assert "still be training" not in done.stderr

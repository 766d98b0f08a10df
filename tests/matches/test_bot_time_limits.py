"""A confused or silent bot costs a local match seconds, not the reference's ten minutes a decision,
and Ctrl-C or SIGTERM stops the match within seconds whatever the bots do (real processes, raw sockets)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from showdown.matches.config import AgentSpec, MatchConfig
from showdown.server.tcp import DealerOptions

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

# a raw socket bot: proves its seat, then answers each of its turns with 'c' alone (not 'STATE:c')
C_ALONE = """
import os, socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
s.sendall(("VERSION:2.0.0 token=" + os.environ["SHOWDOWN_SEAT_TOKEN"] + "\\r\\n").encode())
f = s.makefile("rb")
for raw in f:  # with fixed seats it is position 0, to act when nothing has been bet yet
    if raw.decode().split(":")[3] == "":
        s.sendall(b"c\\r\\n")
"""

# a bot that takes its seat and then never answers (it reads until the dealer closes the connection)
SILENT = """
import os, socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
s.sendall(("VERSION:2.0.0 token=" + os.environ["SHOWDOWN_SEAT_TOKEN"] + "\\r\\n").encode())
while s.recv(65536):
    pass
"""


def bot(tmp_path: Path, name: str, text: str) -> str:
    """The bot as a command line word (a .py file in the match's folder)."""
    (tmp_path / name).write_text(text)
    return f"./{name}"


def match(tmp_path: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "showdown", "match", *args], cwd=tmp_path, env=ENV,
                          capture_output=True, text=True, timeout=timeout, check=False)


def test_a_local_match_waits_seconds_per_decision_and_the_reference_dealer_keeps_ten_minutes() -> None:
    config = MatchConfig(game="kuhn", agents=(AgentSpec(name="random"), AgentSpec(name="call")))
    assert config.dealer.t_response_ms == 10_000 and config.dealer.t_hand_ms == 60_000
    assert DealerOptions().t_response_ms == 600_000 and DealerOptions().t_hand_ms == 600_000
    from showdown.cli.dealer import options_from_args
    from showdown.cli.main import build_parser

    dealer = options_from_args(build_parser("dealer").parse_args(["dealer", "m", "kuhn", "10", "0", "a", "b"]))
    assert dealer.t_response_ms == 600_000 and dealer.t_hand_ms == 600_000


def test_a_bot_that_replies_c_alone_is_told_what_it_sent_and_what_a_reply_looks_like(tmp_path: Path) -> None:
    yaml = tmp_path / "m.yaml"
    yaml.write_text(f"game: kuhn\nhands: 4\nfixed_seats: true\ndealer: {{t_response_ms: 300}}\n"
                    f"agents:\n  - {{command: \"{sys.executable} {bot(tmp_path, 'c_alone.py', C_ALONE)}\", label: mine}}\n  - call\n")
    started = time.monotonic()
    r = match(tmp_path, "--config", str(yaml), "--json")
    assert time.monotonic() - started < 30
    assert r.returncode == 3, r.stderr  # degraded: the dealer played every one of its decisions
    assert "it sent 'c'; a reply is the state line it was sent, ':' and its action" in r.stderr
    assert "like 'MATCHSTATE:0:0::" in r.stderr and ":c'" in r.stderr
    doc = json.loads(r.stdout)
    assert doc["hands"] == 4 and doc["replacements"]["mine"]["timeout"] == 4


def test_the_time_per_decision_is_a_flag_too(tmp_path: Path) -> None:
    started = time.monotonic()
    r = match(tmp_path, "kuhn", bot(tmp_path, "silent.py", SILENT), "call", "--hands", "3", "--fixed-seats",
              "--t-response", "200", "--json")
    assert r.returncode == 3, r.stderr
    assert json.loads(r.stdout)["replacements"]["silent"]["timeout"] == 3
    assert time.monotonic() - started < 30


@pytest.mark.slow
def test_by_default_a_silent_bot_costs_ten_seconds_a_decision(tmp_path: Path) -> None:
    started = time.monotonic()
    r = match(tmp_path, "kuhn", bot(tmp_path, "silent.py", SILENT), "call", "--hands", "1", "--fixed-seats", "--json")
    took = time.monotonic() - started
    assert r.returncode == 3, r.stderr
    assert 9.5 < took < 40


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_ends_the_match_within_seconds_while_a_bot_is_silent(tmp_path: Path, sig: int) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "showdown", "match", "kuhn", bot(tmp_path, "silent.py", SILENT), "call", "--hands", "100",
         "--fixed-seats", "--t-response", "600000", "--json"],
        cwd=tmp_path, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    log = tmp_path / "out" / "kuhn.silent-call.seed0.log"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not log.exists():
        time.sleep(0.05)
    time.sleep(1.0)  # the bot is connected and the dealer waits on its first decision
    sent = time.monotonic()
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    took = time.monotonic() - sent
    assert proc.returncode == 128 + sig, err
    assert took < 8, f"took {took:.1f} s to stop"
    assert "Traceback" not in err
    assert json.loads(out)["interrupted"] is True

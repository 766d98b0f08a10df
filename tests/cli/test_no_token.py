"""``--no-token``: a foreign ACPC client that cannot send its seat token (as the reference
``example_player``) gets a scorecard and the probes' figures, as check-bot and a YAML entry's
``token: false`` give it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import showdown.agents.probes
from showdown.cli import main

# Kuhn, always check or call; its first line is a plain 'VERSION:2.0.0' (no token)
PLAIN_CLIENT = '''
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
s.sendall(b"VERSION:2.0.0\\r\\n")
for raw in s.makefile("rb"):
    line = raw.decode().strip()
    _, pos, _, betting, _ = line.split(":", 4)
    over = betting.endswith("f") or (betting.endswith("c") and len(betting) >= 2)
    if not over and len(betting) % 2 == int(pos):
        s.sendall((line + ":c\\r\\n").encode())
'''


def _client(tmp_path: Path) -> str:
    bot = tmp_path / "plain_client.py"
    bot.write_text(PLAIN_CLIENT)
    return f"{sys.executable} {bot}"


def test_a_bot_that_sends_no_token_gets_a_scorecard_with_no_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # scorecard and exploit --probes refused every match ("add 'token: false' to its entry": there is none)
    monkeypatch.chdir(tmp_path)
    argv = ["scorecard", _client(tmp_path), "--game", "kuhn", "--hands", "10", "--opponents", "rules", "--jobs", "1", "--json"]
    assert main([*argv, "--no-token", "--out", "a"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [m["opponent"] for m in doc["matches"]] == ["rules"] and doc["matches"][0]["hands"] == 20


def test_the_probes_take_no_token_and_a_built_in_is_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(showdown.agents.probes, "PROBES", ("probe-raise",))
    monkeypatch.chdir(tmp_path)
    argv = ["exploit", "--probes", "--agent", _client(tmp_path), "--game", "kuhn", "--hands", "10", "--jobs", "1", "--json"]
    assert main([*argv, "--no-token", "--out", "a"]) == 0
    assert json.loads(capsys.readouterr().out)["best"]["name"] == "probe-raise"
    assert main(["scorecard", "rules", "--game", "kuhn", "--no-token"]) == 2
    assert capsys.readouterr().err.strip() == ("showdown scorecard: error: --no-token is for a program (a bot file or a "
                                               "command line); rules sends its seat token itself")

"""A Python bot that cannot load is named first, in one line with its file and line, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from showdown.matches.bot_errors import traceback_line
from tests.matches.test_cli_match import showdown

BROKEN = (
    "from showdown.agents import Agent, run_bot\n"
    "class MyBot(Agent):\n"
    "    def act(self, view)\n"
    "        return 'c'\n"
)


@pytest.mark.parametrize("first", [True, False], ids=["seat-1", "seat-2"])
@pytest.mark.parametrize("word", ["./syntax_bot.py", "syntax_bot:MyBot"])
def test_a_bot_with_a_syntax_error_is_named_with_its_file_and_line(tmp_path: Path, word: str, first: bool) -> None:
    (tmp_path / "syntax_bot.py").write_text(BROKEN)
    agents = [word, "random"] if first else ["random", word]
    r = showdown(tmp_path, "match", "kuhn", *agents, "--hands", "10", timeout=60)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1, r.stderr
    seat = 1 if first else 2
    assert f"(seat {seat}) cannot start: syntax_bot.py:3: SyntaxError: expected ':'" in r.stderr
    assert "random" not in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").glob("*.log"))  # nothing started


def test_a_class_whose_module_fails_to_import_is_named_with_the_line(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text("x = 1\nraise RuntimeError('no database')\n")
    (tmp_path / "bot.py").write_text("import helper\nfrom showdown.agents import Agent\nclass B(Agent): pass\n")
    r = showdown(tmp_path, "match", "kuhn", "random", "bot:B", "--hands", "10", timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "(seat 2) cannot start: helper.py:2: RuntimeError: no database" in r.stderr


def test_a_bot_dying_before_the_first_hand_is_the_only_news(tmp_path: Path) -> None:
    """The seat that died is named with its file and line; the other seat, stopped because of it, is not."""
    (tmp_path / "late.py").write_text("def load():\n    raise KeyError('model')\n")
    (tmp_path / "bot.py").write_text("import late\nif __name__ == '__main__':\n    late.load()\n")
    r = showdown(tmp_path, "match", "kuhn", "random", "./bot.py", "--hands", "10", timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "agent bot (seat 2) exited with status 1 before the match began: late.py:2: KeyError: 'model'" in r.stderr


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("from showdown.agents import Agent, CALL\nclass Mine(Agent):\n    def act(self, view):\n        return CALL\n",
         "quiet.py defines Mine but never starts it: end the file with 'raise SystemExit(run_bot(Mine))'"
         " (from showdown.agents import run_bot), as examples/my_bot.py does, or name the class instead of the file: quiet:Mine"),
        ("", "quiet.py must connect to the dealer at the host and port given as its last two arguments and play"),
    ],
    ids=["agent-never-started", "empty-file"],
)
def test_a_bot_file_that_ends_at_once_without_a_word_is_told_how_to_start(tmp_path: Path, source: str, said: str) -> None:
    """A file that only defines its agent exits 0 before connecting: the line says why and the mend."""
    (tmp_path / "quiet.py").write_text(source)
    r = showdown(tmp_path, "match", "kuhn", "./quiet.py", "random", "--hands", "10", timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "agent quiet (seat 1) exited before the match began: it printed nothing" in r.stderr
    assert "; " + said in r.stderr


def test_a_bot_file_whose_class_has_no_act_is_refused_before_the_match(tmp_path: Path) -> None:
    """A misnamed method (``action``, not ``act``): ``run_bot`` refuses it before it takes a seat."""
    (tmp_path / "typo.py").write_text("from showdown.agents import CALL, Agent, run_bot\nclass MyBot(Agent):\n"
                                      "    def action(self, view):\n        return CALL\n"
                                      "if __name__ == '__main__':\n    raise SystemExit(run_bot(MyBot))\n")
    r = showdown(tmp_path, "match", "kuhn", "./typo.py", "random", "--hands", "10", timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "(seat 1) exited with status 2 before the match began" in r.stderr
    assert "MyBot has no act(self, view) method" in r.stderr


def test_a_traceback_is_summarised_at_the_bots_own_frame() -> None:
    lines = [
        "Traceback (most recent call last):",
        '  File "/home/me/bot.py", line 12, in <module>',
        "    run_bot(MyBot)",
        f'  File "{Path(__file__).resolve().parents[2] / "showdown" / "agents" / "client.py"}", line 300, in run_bot',
        "    agent.act(view)",
        "ValueError: bad",
    ]
    assert traceback_line(lines) == "/home/me/bot.py:12: ValueError: bad"
    assert traceback_line(["just a line", "another"]) is None


def test_a_bots_class_is_not_built_in_the_runner_whose_init_failing_was_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # in a limit game the runner built every module:Class agent to learn its strategy (for AIVAT): an
    # __init__ raising was the runner's traceback, one taking a minute held the match a minute
    (tmp_path / "init_bot.py").write_text("from showdown.agents import Agent\nclass B(Agent):\n"
                                          "    def __init__(self, game=None):\n        raise RuntimeError('no model')\n")
    r = showdown(tmp_path, "match", "leduc", "init_bot:B", "call", "--hands", "10", timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    assert "agent B (seat 1) exited with status 1 before the match began: init_bot.py:4: RuntimeError: no model" in r.stderr

    from showdown.evaluation.aivat import known_strategy
    from showdown.games.catalog import get_game

    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(__import__("sys").modules, "init_bot", raising=False)
    assert known_strategy("init_bot:B", get_game("leduc")) == (None, "agent 'init_bot:B' does not play a fixed strategy table")


def test_a_class_that_is_not_an_agent_is_refused_before_the_start(tmp_path: Path) -> None:
    # it was called as a factory: "TypeError: NotAgent() takes no arguments", a traceback
    (tmp_path / "plain_bot.py").write_text("class NotAgent:\n    def act(self, view):\n        return 'c'\n")
    r = showdown(tmp_path, "match", "leduc", "call", "plain_bot:NotAgent", "--hands", "10", timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.splitlines() == ["showdown match: error: agent NotAgent (seat 2) cannot start: plain_bot.py: class NotAgent is not "
                                     "an Agent: write 'class NotAgent(Agent):' (from showdown.agents import Agent) with an act(view) method"]


@pytest.mark.parametrize("word,says", [
    ("./syntax_bot.py", "syntax_bot cannot start: syntax_bot.py:3: SyntaxError: expected ':'"),
    ("syntax_bot:MyBot", "MyBot cannot start: syntax_bot.py:3: SyntaxError: expected ':'"),
    ("plain_bot:NotAgent", "NotAgent cannot start: plain_bot.py: class NotAgent is not an Agent"),
])  # fmt: skip
def test_check_bot_refuses_a_bot_that_cannot_load_in_one_line_as_a_match_does(tmp_path: Path, word: str, says: str) -> None:
    # every check started the bot and failed with the same "never connected: it exited with status 1 first"
    (tmp_path / "syntax_bot.py").write_text(BROKEN)
    (tmp_path / "plain_bot.py").write_text("class NotAgent:\n    def act(self, view):\n        return 'c'\n")
    r = showdown(tmp_path, "check-bot", word, "--game", "kuhn", "--hands", "20", timeout=60)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith(f"showdown check-bot: error: {says}")


CRASHES_MID_MATCH = (
    "from showdown.agents import CALL, Agent, run_bot\n"
    "class C(Agent):\n"
    "    n = 0\n"
    "    def act(self, view):\n"
    "        C.n += 1\n"
    "        if C.n == 5:\n"
    "            raise RuntimeError('lost my model')\n"
    "        return CALL\n"
    "if __name__ == '__main__':\n"
    "    run_bot(C)\n"
)


def test_a_bot_crashing_mid_match_is_one_line_and_a_half_closed_one_is_warned_about(tmp_path: Path) -> None:
    """Its exit says it (the dealer's "its connection closed" waits a moment, and the runner's line
    replaces it); a bot that closes its connection and lives on gets the dealer's line."""
    (tmp_path / "crashy.py").write_text(CRASHES_MID_MATCH)
    r = showdown(tmp_path, "match", "kuhn", "./crashy.py", "call", "--hands", "40", timeout=120)
    lines = [line for line in r.stderr.splitlines() if "crashy" in line and not line.startswith(("#", "seat ", "DEGRADED"))]
    assert lines == ["showdown match: agent crashy (seat 1) exited with status 1: crashy.py:7: RuntimeError: lost my model; "
                     "the dealer plays check/fold for it"], r.stderr
    (tmp_path / "closer.py").write_text(
        "import os, socket, sys, time\n"
        "s = socket.create_connection((sys.argv[1], int(sys.argv[2])))\n"
        "s.sendall(('VERSION:2.0.0 token=' + os.environ['SHOWDOWN_SEAT_TOKEN'] + '\\r\\n').encode())\n"
        "s.recv(100)\n"
        "s.shutdown(socket.SHUT_WR)\n"
        "time.sleep(3)\n"
    )
    r = showdown(tmp_path, "match", "kuhn", "./closer.py", "call", "--hands", "3000", timeout=120)
    assert "WARNING: seat 1 (closer): its connection closed; until it connects again, the dealer plays check/fold for it" \
        in r.stderr.splitlines(), r.stderr


def test_a_bot_whose_act_returns_none_is_counted_as_played_by_the_dealer(tmp_path: Path) -> None:
    """Its client sent a call for it: the match ended with status 0 and not a word on the console."""
    (tmp_path / "nothing.py").write_text("from showdown.agents import Agent\nclass Nothing(Agent):\n"
                                         "    def act(self, view):\n        return None\n")
    r = showdown(tmp_path, "match", "kuhn", "nothing:Nothing", "call", "--hands", "20", timeout=120)
    assert r.returncode == 3, r.stderr
    assert "seat 1 (Nothing) was played by the dealer in" in r.stderr and "'None'" in r.stderr, r.stderr


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["kuhn", "equilibrum", "rules"], "unknown agent 'equilibrum': did you mean 'equilibrium'? known agents are"),
        (["kuhn", "never_bluff", "rules"], "unknown agent 'never_bluff': did you mean 'never-bluff'?"),
        (["kuhnn", "rules", "random"], "unknown game 'kuhnn': did you mean 'kuhn'? give a catalog name"),
        (["holdem-limit-3", "rules", "random", "call"], "did you mean 'holdem-limit-3p'?"),
        (["leduc", "my_module:MyBot", "rules"], "unknown agent 'my_module:MyBot': no module 'my_module' can be imported"),
        (["leduc", "nope.sub:Bot", "rules"], "unknown agent 'nope.sub:Bot': no module 'nope.sub' can be imported"),
    ],
)
def test_a_misspelt_name_or_a_missing_module_is_told_in_one_line(tmp_path: Path, words: list[str], says: str) -> None:
    """A typo was told every name but the nearest; README's ``my_module:MyBot``, not importable, was an
    'unknown agent' listing the built-in names, and ``nope.sub:Bot`` a '<frozen importlib.util>' error."""
    r = showdown(tmp_path, "match", *words, "--hands", "10", timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert says in r.stderr and "frozen" not in r.stderr

"""``showdown check-bot`` against real bot processes: a correct bot passes every check quickly, and
each deliberately broken bot fails exactly the checks its bug shows in, with the hint."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from showdown.games.catalog import get_game
from showdown.matches.bot_checks import checks_for

# A bot that bets the minimum when nobody has bet on the flop and otherwise checks or calls;
# FLAW (a few lines of Python, run at each point named) makes it one of the broken bots below.
BOT = '''
import os, random, socket, sys, time
from showdown.games.catalog import get_game
from showdown.protocol.matchstate import parse_matchstate
game = get_game(os.environ["SHOWDOWN_GAME"])
conn = socket.create_connection((sys.argv[1], int(sys.argv[2])))
conn.sendall(b"VERSION:2.0.0\\r\\n")
FLAW = {flaw!r}
for raw in conn.makefile("rb"):
    line = raw.decode().rstrip("\\r\\n")
    view = parse_matchstate(line, game)
    state = view.to_state(game)
    if state.finished:
        if FLAW == "out-of-turn" and view.betting_text.endswith("f"):
            conn.sendall((line + ":c\\r\\n").encode())
        continue
    if state.current_player != view.position:
        continue
    bounds = state.raise_bounds()
    facing = state.max_spent > state.spent[view.position]
    action = "c"
    if bounds is not None and state.round == 1 and not facing:
        action = "r" if game.is_limit else f"r{{bounds[0]}}"
    if FLAW == "illegal-raise" and facing and state.history[state.round] and state.history[state.round][-1][1].is_raise:
        action = "r"  # re-raises every raise, cap or not
    if FLAW == "crash" and facing and state.max_spent % 50:
        raise SystemExit("cannot handle a bet of " + str(state.max_spent))
    if FLAW == "unseeded" and bounds is not None and not facing and random.SystemRandom().random() < 0.5:
        action = "r" if game.is_limit else f"r{{bounds[0]}}"
    if FLAW == "greedy" and view.hand >= 2:
        hoard = bytearray(10 * 2**30)
    if FLAW == "slow" and view.hand == 3 and state.round == 0:
        time.sleep(0.5)
    echo = line
    if FLAW == "wrong-echo" and view.hand >= 10:
        echo = line.replace(f":{{view.hand}}:", f":{{view.hand % 10}}:", 1)
    conn.sendall((echo + ":" + action + "\\r\\n").encode())
if FLAW == "ignores-end":
    time.sleep(60)
'''


def _check(tmp_path: Path, flaw: str, game: str, *more: str) -> tuple[int, dict, float]:
    bot = tmp_path / f"{flaw}_bot.py"
    bot.write_text(BOT.format(flaw=flaw))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", str(bot), "--game", game, "--hands", "100", "--json", *more],
                          capture_output=True, text=True, timeout=170, cwd=tmp_path)
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout), time.monotonic() - started


def _failed(report: dict) -> dict[str, str]:
    return {c["name"]: c["hint"] for c in report["checks"] if not c["passed"]}


@pytest.mark.slow
@pytest.mark.parametrize("game", ["holdem-limit", "holdem-nolimit"])
def test_a_correct_bot_passes_every_check_in_under_30_seconds(tmp_path: Path, game: str) -> None:
    bot = tmp_path / "good_bot.py"
    bot.write_text(BOT.format(flaw=None))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", str(bot), "--game", game, "--json"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    took = time.monotonic() - started
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["passed"] and not _failed(report), _failed(report)
    assert took < 30, took
    assert {"fold-preflop", "check-down", "many-hands", "match-end", "response-time"} <= {c["name"] for c in report["checks"]}


BROKEN = [
    ("wrong-echo", "holdem-nolimit", (), {"many-hands": "echo the state exactly as received"}),
    ("illegal-raise", "holdem-limit", (), {"raise-cap": "illegal: no raise is allowed here"}),
    ("out-of-turn", "holdem-nolimit", (), None),
    ("slow", "holdem-nolimit", ("--t-per-hand-ms", "300"), {"response-time": "answer faster"}),
    ("crash", "holdem-nolimit", (), {"min-raise-plus-1": "cannot handle a bet of 201"}),
    ("ignores-end", "holdem-nolimit", (), {"match-end": "when a read returns end-of-file"}),
    ("unseeded", "holdem-limit", ("--deterministic",), {"deterministic": "seed every random choice"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("flaw", "game", "more", "expected"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_bot_fails_exactly_its_checks_with_the_hint(tmp_path: Path, flaw: str, game: str, more: tuple[str, ...],
                                                          expected: dict[str, str] | None) -> None:
    status, report, _ = _check(tmp_path, flaw, game, *more)
    failed = _failed(report)
    assert status == 1 and not report["passed"]
    if expected is None:  # answers the final state of every hand that ends in a fold: where the hands end so
        expected = {name: "answer only states where it is your turn" for name in failed}
        assert {"fold-preflop", "fold-flop"} <= set(failed) and "check-down" not in failed and "all-in-preflop" not in failed
    assert set(failed) == set(expected), failed
    for name, hint in expected.items():
        assert hint in failed[name], failed[name]


@pytest.mark.slow
def test_a_built_in_deterministic_agent_passes_the_determinism_check(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", "rules", "--game", "leduc", "--only", "many-hands",
                           "--hands", "200", "--deterministic", "--json"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    report = json.loads(done.stdout)
    assert done.returncode == 0 and [c["name"] for c in report["checks"]] == ["many-hands", "match-end", "response-time", "deterministic"]


@pytest.mark.parametrize(("argv", "said"), [
    (["check-bot", "nosuchbot", "--game", "kuhn"], "unknown agent 'nosuchbot'"),
    (["check-bot", "--game", "kuhn"], "name the bot to check"),
    (["check-bot", "random", "--game", "kuhn", "--only", "fold-preflop"], "--only fold-preflop: no such check for kuhn"),
    (["check-bot", "./no_such_bot.py"], "no such bot file"),
])
def test_usage_errors_are_one_line_and_exit_2(argv: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    from showdown.cli.main import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1


def test_a_built_in_agent_passes_the_checks_it_is_given(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", "random", "--game", "kuhn", "--only", "fold-round1",
                           "--only", "split-packets", "--json"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["passed"]
    assert [(c["name"], c["passed"]) for c in report["checks"]] == [("fold-round1", True), ("split-packets", True), ("response-time", True)]
    assert set(report["checks"][0]) >= {"name", "passed", "hint"}


SHORT_STACKS = Path(__file__).parents[1] / "data" / "holdem.nolimit.3p.short_stacks.game"


def test_three_players_with_stacks_of_different_sizes_reach_side_pots(tmp_path: Path) -> None:
    from showdown.games.gamedef import load_gamedef

    assert "side-pots" in {c.name for c in checks_for(load_gamedef(SHORT_STACKS))}
    assert "side-pots" not in {c.name for c in checks_for(get_game("holdem-nolimit-3p"))}  # equal stacks: none can form
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", "random", "--game", str(SHORT_STACKS), "--only", "side-pots",
                           "--only", "all-in-flop", "--json"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    report = json.loads(done.stdout)
    assert done.returncode == 0, report
    assert [(c["name"], c["passed"], c["reached"]) for c in report["checks"][:2]] == [("all-in-flop", True, True), ("side-pots", True, True)]


def test_with_sandbox_a_bot_over_its_memory_fails_naming_the_limit(tmp_path: Path) -> None:
    status, report, _ = _check(tmp_path, "greedy", "holdem-nolimit", "--sandbox", "--only", "fold-preflop")
    assert status == 1
    hint = _failed(report)["fold-preflop"]
    assert "MemoryError" in hint or "memory_mb" in hint
    assert any(p["kind"] == "limit" and "memory_mb" in p["hint"] for p in report["checks"][0]["problems"])


SILENT_EVERY_THIRD_HAND = '''
import socket, sys
conn = socket.create_connection((sys.argv[1], int(sys.argv[2])))
conn.sendall(b"VERSION:2.0.0\\r\\n")
for raw in conn.makefile("rb"):
    line = raw.decode().rstrip("\\r\\n")
    if int(line.split(":")[2]) % 3:
        conn.sendall((line + ":c\\r\\n").encode())  # (answers final states too: only the silence is checked here)
'''


def test_a_bot_that_does_not_answer_fails_the_response_time_check_and_its_silences_are_no_reply_times(tmp_path: Path) -> None:
    # the waits for replies that never came were counted as replies of 300 ms (max 308 ms over a
    # 300 ms limit) and response-time passed, saying "every reply within 300 ms"
    bot = tmp_path / "silent_bot.py"
    bot.write_text(SILENT_EVERY_THIRD_HAND)
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", str(bot), "--game", "kuhn", "--hands", "12",
                           "--t-response", "300", "--only", "check-down", "--json"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    report = json.loads(done.stdout)
    failed = _failed(report)
    assert done.returncode == 1 and set(failed) == {"check-down", "response-time"}, failed
    assert failed["response-time"].startswith("hand 0: sent 'nothing in hand 0 of check-down'; legal: a reply within 300 ms")
    timing = report["response_times"]
    assert timing["max_ms"] < 300 and timing["replies"] > 0


def test_a_bot_that_never_connects_fails_the_response_time_check_too(tmp_path: Path) -> None:
    # response-time passed 'every reply within 7,000 ms' over 0 replies of a bot that exited without connecting
    bot = tmp_path / "gone_bot.py"
    bot.write_text("import sys; sys.exit('bye')\n")
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", str(bot), "--game", "kuhn", "--hands", "12",
                           "--only", "check-down", "--json"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    report = json.loads(done.stdout)
    failed = _failed(report)
    assert done.returncode == 1 and set(failed) == {"check-down", "response-time"}, failed
    assert "the bot never connected: it exited with status 1 first: bye" in failed["check-down"]
    assert failed["response-time"] == ("hand 0: legal: replies within the limits; no reply was timed: the bot answered no state of "
                                       "its turn (see the checks above)")
    assert report["response_times"]["replies"] == 0


HALF_CLOSES = '''
import socket, sys
conn = socket.create_connection((sys.argv[1], int(sys.argv[2])))
conn.sendall(b"VERSION:2.0.0\\r\\n")
conn.shutdown(socket.SHUT_WR)  # says its VERSION line, then never another word
for raw in conn.makefile("rb"):
    pass
'''


def test_a_bot_that_half_closes_after_version_fails_the_response_time_check_too(tmp_path: Path) -> None:
    # it answered nothing (its connection closed mid-match) and response-time passed over 0 replies
    bot = tmp_path / "half_bot.py"
    bot.write_text(HALF_CLOSES)
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", str(bot), "--game", "kuhn", "--hands", "12",
                           "--only", "check-down", "--json"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    failed = _failed(json.loads(done.stdout))
    assert done.returncode == 1 and set(failed) == {"check-down", "response-time"}, failed
    assert "the bot closed its connection mid-match" in failed["check-down"]
    assert "no reply was timed" in failed["response-time"]


def test_what_a_bot_said_on_stdout_before_it_exited_is_quoted(tmp_path: Path) -> None:
    # a script that said why it stopped on stdout ('echo usage: ...; exit 1') was 'it printed nothing'
    bot = tmp_path / "usage_bot.sh"
    bot.write_text("#!/bin/sh\necho 'usage: usage_bot.sh HOST PORT MODEL'\nexit 1\n")
    bot.chmod(0o755)
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", str(bot), "--game", "kuhn", "--hands", "12",
                           "--only", "check-down", "--json"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    failed = _failed(json.loads(done.stdout))
    assert failed["check-down"].endswith("the bot never connected: it exited with status 1 first: usage: usage_bot.sh HOST PORT MODEL")


CR_ONLY = '''
import socket, sys
conn = socket.create_connection((sys.argv[1], int(sys.argv[2])))
conn.sendall(b"VERSION:2.0.0" + {version_end!r})
for raw in conn.makefile("rb"):
    line = raw.decode().rstrip("\\r\\n")
    conn.sendall((line + ":c\\r").encode())  # every reply ends with '\\r' alone
'''


@pytest.mark.parametrize("version_end", [b"\r", b"\r\n"])
def test_a_line_ended_by_cr_alone_is_quoted_not_called_nothing(tmp_path: Path, version_end: bytes) -> None:
    # check-bot said "sent '(nothing)' ... nothing came within 15 s" of a bot whose lines end with '\r' alone
    import asyncio

    from showdown.matches.agent_words import agent_from_word
    from showdown.matches.check_bot import BotProgram, run_one

    bot = tmp_path / "cr_bot.py"
    bot.write_text(CR_ONLY.format(version_end=version_end))
    game = get_game("kuhn")
    check = next(c for c in checks_for(game, 10) if c.name == "check-down")
    program = BotProgram(agent_from_word(str(bot)), "cr_bot")
    run = asyncio.run(run_one(check, program, game, "kuhn", 0, 300, 7_000, start_s=1.0))
    first = run.result.problems[0]
    assert first.kind == ("version" if version_end == b"\r" else "timeout"), first
    assert first.sent.startswith("VERSION:2.0.0\r" if version_end == b"\r" else "MATCHSTATE:"), first
    assert first.hint.startswith("end every line with '\\n' (or '\\r\\n'): this came with no line end"), first


TWICE = '''
import os, socket, sys
from showdown.games.catalog import get_game
from showdown.protocol.matchstate import parse_matchstate
game = get_game(os.environ["SHOWDOWN_GAME"])
conn = socket.create_connection((sys.argv[1], int(sys.argv[2])))
conn.sendall(b"VERSION:2.0.0\\r\\n")
for raw in conn.makefile("rb"):
    line = raw.decode().rstrip("\\r\\n")
    view = parse_matchstate(line, game)
    state = view.to_state(game)
    if not state.finished and state.current_player == view.position:
        conn.sendall(((line + ":c\\r\\n") * 2).encode())  # every reply sent twice
'''


def test_a_reply_sent_twice_is_said_as_such_not_as_a_wrong_echo_of_the_next_state(tmp_path: Path) -> None:
    # the second copy was judged a wrong echo of the state after it and played as c, and every later
    # reply came one state late ('echo the state exactly as received (and 16 more)'); the dealer ignores it
    bot = tmp_path / "twice_bot.py"
    bot.write_text(TWICE)
    done = subprocess.run([sys.executable, "-m", "showdown", "check-bot", str(bot), "--game", "kuhn", "--hands", "12",
                           "--only", "check-down", "--json"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    report = json.loads(done.stdout)
    problems = next(c for c in report["checks"] if c["name"] == "check-down")["problems"]
    assert problems and {p["kind"] for p in problems} == {"repeated"}, problems
    assert problems[0]["hint"] == "send one reply per state of your turn"

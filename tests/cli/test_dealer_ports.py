"""``showdown dealer`` prints its ports before it loads the dealer (``cli.dealer_ports``)."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.cli import dealer_ports
from showdown.cli.dealer import configure_parser
from showdown.evaluation.verify import verify_log
from showdown.games.catalog import get_game
from tests.server.clients import Client, call_policy, raise_policy

ROOT = Path(__file__).resolve().parents[2]
LOADED_BEFORE_PORTS = {"showdown", "showdown._lazy", "showdown.cli", "showdown.cli.dealer_ports"}
HEAVY = {"asyncio", "uvloop", "numpy", "scipy", "yaml", "numba", "argparse",
         "socket", "signal", "enum", "selectors", "re"}  # the ports need only _socket and _signal: their wrappers import enum...


def showdown(args: list[str], cwd: Path, *, merge: bool = False, importtime: bool = False) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    flags = ["-X", "importtime"] if importtime else []
    return subprocess.Popen([sys.executable, *flags, "-m", "showdown", *args], cwd=cwd, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT if merge else subprocess.PIPE)  # fmt: skip


async def play(ports: list[int]) -> None:
    game = get_game("kuhn")
    await asyncio.gather(Client(game, ports[0], call_policy).run(), Client(game, ports[1], raise_policy).run())


async def test_the_ports_come_before_the_dealer_loads_and_the_match_is_the_same(tmp_path: Path) -> None:
    (tmp_path / "fast").mkdir()
    proc = showdown(["dealer", "m", "kuhn", "30", "5", "Alice", "Bob", "-q"], tmp_path / "fast", merge=True, importtime=True)
    assert proc.stdout is not None
    try:
        loaded = set()
        while True:  # -X importtime's lines and ours share one pipe, in the order they were written
            line = await asyncio.to_thread(proc.stdout.readline)
            assert line, "no ports line"
            if not line.startswith("import time:"):
                break
            loaded.add(line.split("|")[-1].strip())
        ports = [int(p) for p in line.split()]
        assert len(ports) == 2
        assert not loaded & HEAVY, loaded & HEAVY
        assert {m for m in loaded if m.startswith("showdown")} == LOADED_BEFORE_PORTS
        await play(ports)
        await asyncio.to_thread(proc.communicate, timeout=30)
    finally:  # a failed check leaves no dealer waiting for its players
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    # the same match on the ordinary path (the dealer bound its own ports): byte-identical logs
    (tmp_path / "slow").mkdir()
    slow = subprocess.Popen([sys.executable, "-m", "showdown.cli.dealer", "m", "kuhn", "30", "5", "Alice", "Bob", "-q"],
                            cwd=tmp_path / "slow", env=dict(os.environ, PYTHONPATH=str(ROOT)), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    assert slow.stdout is not None
    await play([int(p) for p in (await asyncio.to_thread(slow.stdout.readline)).split()])
    await asyncio.to_thread(slow.communicate, timeout=30)
    for name in ("m.log", "m.jsonl"):
        assert (tmp_path / "fast" / name).read_bytes() == (tmp_path / "slow" / name).read_bytes()
    assert verify_log(tmp_path / "fast" / "m.log").ok


def test_the_options_known_here_are_the_dealers() -> None:
    parser = configure_parser(argparse.ArgumentParser())
    value, flag = set(), set()
    for action in parser._actions:
        (flag if action.nargs == 0 else value).update(action.option_strings)
    ordinary_path = {"--tokens-file", "--tokens", "--no-tokens", "-h", "--help"}  # these never take the fast path
    assert dealer_ports.VALUE_OPTIONS == value - ordinary_path
    assert dealer_ports.FLAG_OPTIONS == flag - ordinary_path


@pytest.mark.parametrize(
    "argv",
    [
        ["m", "kuhn", "1", "1", "a", "b", "--help"],
        ["m", "kuhn", "1", "1", "a", "b", "--tokens"],
        ["m", "kuhn", "1", "1", "a", "b", "--tokens-file", "t"],
        ["m", "kuhn", "1", "1", "a", "b", "--host", "0.0.0.0"],
        ["m", "kuhn", "1", "1", "a", "b", "--host", "localhost"],
        ["m", "kuhn", "1", "1", "a", "b", "--t-respon", "5"],  # an abbreviation: argparse decides
        ["m", "kuhn", "1", "1", "a", "b", "-p", "1,2,3"],
        ["m", "kuhn", "1", "1", "a", "b", "-p", "70000,1"],
        ["m", "kuhn", "1", "1", "a", "b", "-p", "5000,5000"],
        ["m", "kuhn", "1", "1", "a", "b", "--spin-us"],
        ["m", "kuhn", "x", "1", "a", "b"],
        ["m", "kuhn", "4294967296", "1", "a", "b"],  # more hands than a log can hold: the parser says so
        ["m", "kuhn", "1", "99999999999999999999", "a", "b"],
        ["m", "kuhn", "\u00b2", "1", "a", "b"],  # a digit to str.isdigit, not to int()
        ["m", "kuhn", "1", "1"],
        ["m", "kuhn", "1", "1", "a"],  # one name: the game's error comes before any port
        # names the dealer refuses: the ports line came first, then the error
        ["m", "kuhn", "1", "1", "a|b", "c"],
        ["m", "kuhn", "1", "1", "a", "b:c"],
        ["m", "kuhn", "1", "1", "a", ""],
        ["m", "kuhn", "1", "1", "a", "b c"],
        ["x/y", "kuhn", "1", "1", "a", "b"],
        ["", "kuhn", "1", "1", "a", "b"],
        ["m", "kuhn", "1", "1", "a", "a"],  # a name given twice
        # a game whose seats are not the names given, or one not known here: three ports came first, then exit 2
        ["m", "kuhn", "1", "1", "a", "b", "c"],
        ["m", "kuhn3p", "1", "1", "a", "b"],
        ["m", "nosuchgame", "1", "1", "a", "b"],
        ["m", "no/such/file.game", "1", "1", "a", "b"],
        # option values the parser refuses: the ports line came first, then the error
        ["m", "kuhn", "1", "1", "a", "b", "--t_response", "nan"],
        ["m", "kuhn", "1", "1", "a", "b", "--t-hand=1e3"],
        ["m", "kuhn", "1", "1", "a", "b", "--spin-us", "\u00b2"],
        ["m", "kuhn", "1", "1", "a", "b", "--on-timeout", "explode"],
    ],
)
def test_other_command_lines_take_the_ordinary_path(argv: list[str]) -> None:
    assert not dealer_ports.bind_and_print(argv)  # nothing bound or printed: the full parser speaks


def test_a_port_in_use_takes_the_ordinary_path_and_its_error(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = showdown(["dealer", "m", "kuhn", "1", "1", "a", "b", "-q", "-p", f"{port},0"], tmp_path)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"showdown dealer: error: cannot listen on 127.0.0.1 port {port}: ")
    assert "in use" in lines[0].lower()


def test_a_bad_player_name_is_one_line_before_any_port(tmp_path: Path) -> None:
    proc = showdown(["dealer", "m", "kuhn", "1", "1", "a|b", "c", "-q"], tmp_path)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and out == ""
    assert err.strip() == ("showdown dealer: error: bad player name 'a|b': use letters, digits, '-', '_' or '.' "
                           "(no ':', '|' or spaces)")


def test_an_error_found_after_the_ports_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "bad.game").write_text("GAMEDEF\nlimit\nnumPlayers = 2\nEND GAMEDEF\n")  # two seats, no rounds
    proc = showdown(["dealer", "m", "bad.game", "1", "1", "a", "b", "-q"], tmp_path)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert len(out.split()) == 2  # the ports, printed before the game file was parsed
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("showdown dealer: error: ") and "numRounds" in lines[0]


def test_a_game_of_other_seats_or_unknown_is_one_line_before_any_port(tmp_path: Path) -> None:
    # three names for Kuhn printed three ports, then 'exit 2': a wrapper reading the ports line had started
    # 0 hands (refused by the reference) waited for both seats, played nothing and wrote no log
    for argv, says in ((["m", "kuhn", "1", "1", "a", "b", "c"], "needs 2 players, got 3 names"), (["m", "nosuchgame", "1", "1", "a", "b"], "unknown game"),
                       (["m", "kuhn", "0", "1", "a", "b"], "expected a number of hands from 1 to")):
        proc = showdown(["dealer", *argv, "-q"], tmp_path)
        out, err = proc.communicate(timeout=30)
        assert proc.returncode == 2 and out == "", err
        assert len(err.strip().splitlines()) == 1 and says in err, err


def test_the_seats_known_here_are_the_games() -> None:
    from showdown.games.catalog import CATALOG
    from showdown.games.gamedef import load_gamedef

    assert dealer_ports.BUILTIN_SEATS == {e.name: get_game(e.name).num_players for e in CATALOG}
    assert dealer_ports._game_seats("kuhn-7") == get_game("kuhn-7").num_players
    files = sorted((Path(__file__).resolve().parents[1] / "data").rglob("*.game"))
    assert files
    for path in files:
        try:
            seats = load_gamedef(path).num_players
        except Exception:  # (a file the parser refuses: the full path says why, whatever is counted here)
            continue
        assert dealer_ports._game_seats(str(path)) == seats, path


@pytest.mark.parametrize(
    ("text", "seats"),
    [
        ("GAMEDEF\nlimit\nNUMPLAYERS=3\nEND GAMEDEF\n", 3),
        ("GAMEDEF\nnumPlayers = 2\nnumPlayers = 3\n", 3),  # the last, as the parser's
        ("GAMEDEF\n  numPlayers = 3\nnumPlayers = 2\n", 2),  # an indented line is no key
        ("GAMEDEF\nEND GAMEDEF\nnumPlayers = 3\n", None),
        ("GAMEDEF\nnumPlayers = x\n", None),
        ("\ufeffnumPlayers 2\n", 2),
    ],
)
def test_the_seats_of_a_game_file_are_read_as_the_parser_reads_them(tmp_path: Path, text: str, seats: int | None) -> None:
    (tmp_path / "g.game").write_text(text, encoding="utf-8")
    assert dealer_ports._game_seats(str(tmp_path / "g.game")) == seats


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_right_after_the_ports_stops_the_match_cleanly(tmp_path: Path, sig: int, code: int) -> None:
    proc = showdown(["dealer", "m", "kuhn", "100", "1", "a", "b", "-q"], tmp_path)
    assert proc.stdout is not None
    assert len(proc.stdout.readline().split()) == 2
    proc.send_signal(sig)  # before the dealer has loaded: kept, then acted on
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert "Traceback" not in err and out.splitlines()[-1].startswith("SCORE:")


def test_the_fast_path_takes_the_dealers_timeout_policies() -> None:
    from showdown.server.dealer import OnTimeout

    assert all(set(words) == {str(e) for e in OnTimeout} for words in dealer_ports._CHOICES.values())
    assert dealer_ports._value_taken("--on-timeout", "call") and dealer_ports._value_taken("--t-response", "600000")

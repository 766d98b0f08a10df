"""``showdown dealer``: the reference command line, run as a separate process."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.cli.dealer import add_dealer_parser, dealer_command, options_from_args
from showdown.evaluation.verify import verify_log
from showdown.games.catalog import get_game
from tests.server.clients import Client, call_policy, raise_policy

ROOT = Path(__file__).resolve().parents[2]


def dealer_process(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "showdown.cli.dealer", *args],
        cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


async def called_through(args: list[str], cwd: Path) -> tuple[int | None, str, str]:
    """``showdown dealer ARGS`` played to its end by two calling clients: its exit status, stdout and stderr."""
    proc = dealer_process(args, cwd)
    assert proc.stdout is not None
    ports = [int(p) for p in (await asyncio.to_thread(proc.stdout.readline)).split()]
    game = get_game("kuhn")
    await asyncio.gather(*(Client(game, p, call_policy).run() for p in ports))
    out, err = await asyncio.to_thread(proc.communicate, timeout=20)
    return proc.returncode, out, err


async def test_dealer_prints_ports_then_score_and_writes_logs(tmp_path: Path) -> None:
    proc = dealer_process(["cli", "kuhn", "20", "5", "Alice", "Bob", "-q"], tmp_path)
    assert proc.stdout is not None
    first = await asyncio.to_thread(proc.stdout.readline)
    ports = [int(p) for p in first.split()]
    assert len(ports) == 2
    game = get_game("kuhn")
    await asyncio.gather(Client(game, ports[0], call_policy).run(), Client(game, ports[1], raise_policy).run())
    out, err = await asyncio.to_thread(proc.communicate, timeout=20)
    assert proc.returncode == 0, err
    assert out.splitlines()[-1].startswith("SCORE:") and out.splitlines()[-1].endswith(":Alice|Bob")
    assert "TO 1 at" not in err  # -q: no trace
    assert out.splitlines()[-1] in err.splitlines()  # but the SCORE line on stderr too, as the reference
    log = tmp_path / "cli.log"
    assert log.read_text().splitlines()[0] == "# name/game/hands/seed cli kuhn 20 5"
    assert verify_log(log).ok and (tmp_path / "cli.jsonl").is_file()


async def test_a_match_name_with_a_folder_writes_the_logs_there_as_the_reference(tmp_path: Path) -> None:
    status, out, err = await called_through(["logs/m1", "kuhn", "3", "5", "a", "b", "-q"], tmp_path)  # as bm_server runs it
    assert status == 0, err
    assert verify_log(tmp_path / "logs" / "m1.log").ok and (tmp_path / "logs" / "m1.jsonl").is_file()


async def test_asking_for_a_transaction_file_says_none_is_written(tmp_path: Path) -> None:
    status, out, err = await called_through(["tl", "kuhn", "1", "5", "a", "b", "-q", "-T"], tmp_path)
    assert status == 0, err
    assert "-T writes no .tlog" in err and not (tmp_path / "tl.tlog").exists()


async def test_trace_is_on_by_default_like_the_reference(tmp_path: Path) -> None:
    status, out, err = await called_through(["tr", "kuhn", "1", "5", "a", "b", "-l"], tmp_path)
    assert status == 0
    assert "TO 1 at " in err and "FROM 1 at " in err and "# name/game/hands/seed tr kuhn 1 5" in err
    assert not (tmp_path / "tr.log").exists()  # -l: no log files


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["m", "nosuchgame", "1", "1", "a", "b"], "unknown game"),
        (["m", "kuhn-14", "1", "1", "a", "b"], "14 ranks"),
        (["m", "kuhn", "1", "1", "a"], "needs 2 players"),
        (["logs/", "kuhn", "1", "1", "a", "b"], "bad match name 'logs/'"),
        (["m", "kuhn", "1", "1", "a", "b", "-p", "1,2,3"], "3 ports given for 2 seats: give one per seat, like -p 18791,18792 (0: a free one)"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert dealer_command(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("showdown dealer: error: ") and message in err[0]


def test_subcommand_registration_and_reference_options() -> None:
    parser = argparse.ArgumentParser(prog="showdown")
    sub = parser.add_subparsers(dest="command")
    add_dealer_parser(sub)
    args = parser.parse_args(
        ["dealer", "m", "kuhn", "10", "3", "a", "b", "-f", "-p", "18001,18002", "-q", "--t_response", "100",
         "--t_hand", "200", "--t_per_hand", "50", "--start_timeout", "-1", "--on-timeout", "call",
         "--reconnect-ms", "0", "--host", "127.0.0.2"]
    )  # fmt: skip
    assert callable(args.handler)
    o = options_from_args(args)
    assert o.fixed_seats and list(o.ports or []) == [18001, 18002] and not o.trace
    assert (o.t_response_ms, o.t_hand_ms, o.t_per_hand_ms) == (100, 200, 50)
    assert o.start_timeout_ms is None and o.on_timeout == "call" and o.reconnect_ms == 0
    assert o.host == "127.0.0.2" and o.game_label == "kuhn"


async def test_a_killed_dealer_keeps_every_finished_hand(tmp_path: Path) -> None:
    proc = dealer_process(["killed", "kuhn", "1000000", "5", "a", "b", "-q"], tmp_path)
    assert proc.stdout is not None
    ports = [int(p) for p in (await asyncio.to_thread(proc.stdout.readline)).split()]
    game = get_game("kuhn")
    clients = [asyncio.create_task(Client(game, p, call_policy).run()) for p in ports]
    log = tmp_path / "killed.log"
    for _ in range(200):  # until some hands are logged
        await asyncio.sleep(0.05)
        if log.is_file() and log.read_text().count("STATE:") >= 20:
            break
    proc.kill()
    await asyncio.to_thread(proc.wait)
    await asyncio.wait_for(asyncio.gather(*clients), 10)
    text = log.read_text()
    assert text.endswith("\n") and "SCORE" not in text
    report = verify_log(log, partial=True)  # killed: no SCORE line, the hands so far
    assert report.ok and report.hands >= 20
    records = (tmp_path / "killed.jsonl").read_text().splitlines()
    assert len(records) == report.hands  # one complete record per logged hand


async def test_ctrl_c_stops_after_the_current_hand_and_scores(tmp_path: Path) -> None:
    proc = dealer_process(["stopped", "kuhn", "1000000", "5", "a", "b", "-q"], tmp_path)
    assert proc.stdout is not None
    ports = [int(p) for p in (await asyncio.to_thread(proc.stdout.readline)).split()]
    game = get_game("kuhn")
    clients = [asyncio.create_task(Client(game, p, call_policy).run()) for p in ports]
    log = tmp_path / "stopped.log"
    for _ in range(200):
        await asyncio.sleep(0.05)
        if log.is_file() and log.read_text().count("STATE:") >= 10:
            break
    proc.send_signal(signal.SIGINT)
    out, err = await asyncio.to_thread(proc.communicate, timeout=20)
    await asyncio.wait_for(asyncio.gather(*clients), 10)
    assert proc.returncode == 130  # stopped by Ctrl-C (SIGINT), as a shell reports it
    assert out.splitlines()[-1].startswith("SCORE:")
    assert log.read_text().splitlines()[-1] == out.splitlines()[-1]
    assert verify_log(log, partial=True).ok  # stopped early: fewer hands than the header asks for


async def test_a_seat_missing_at_the_start_limit_is_said_when_the_match_begins(tmp_path: Path) -> None:
    # it was said only in the summary at the end (a long match: hours later), and its bot, coming
    # later, found its port closed; the reference says 'timed out waiting for seat' and exits
    proc = dealer_process(["late", "kuhn", "1000000", "5", "a", "b", "-q", "--start-timeout", "300"], tmp_path)
    assert proc.stdout is not None
    ports = [int(p) for p in (await asyncio.to_thread(proc.stdout.readline)).split()]
    client = asyncio.create_task(Client(get_game("kuhn"), ports[0], call_policy).run())
    log = tmp_path / "late.log"
    for _ in range(200):
        await asyncio.sleep(0.05)
        if log.is_file() and log.read_text().count("STATE:") >= 10:
            break
    await asyncio.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    _, err = await asyncio.to_thread(proc.communicate, timeout=20)
    await asyncio.wait_for(client, 10)
    said = [line for line in err.splitlines() if "had not connected" in line]
    assert said == ["showdown dealer: seat 2 (b) had not connected 300 ms after the start (--start-timeout): the match "
                    "begins without it and the dealer plays check/fold for it to the end"]

"""``SpinTrial``: the dealer polls for replies only while polling measurably shortens its waits."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from showdown.games.catalog import get_game
from showdown.server.busy_wait import BusyWait, SpinTrial
from showdown.server.options import DealerOptions
from showdown.server.tcp import MatchServer
from tests.server.clients import Client, call_policy

KUHN = get_game("kuhn")


def run_blocks(trial: SpinTrial, polled: float, slept: float, blocks: int) -> list[bool]:
    """Feed ``blocks`` blocks of waits (seconds, by the mode of each block); the modes played."""
    modes = []
    for _ in range(blocks):
        modes.append(trial.polling)
        for _ in range(SpinTrial.BLOCK):
            trial.record(polled if trial.polling else slept)
    return modes


def test_it_tries_both_in_turn_then_keeps_polling_when_that_pays() -> None:
    trial = SpinTrial()
    assert run_blocks(trial, polled=50e-6, slept=100e-6, blocks=2 * SpinTrial.TRIAL) == [True, False] * SpinTrial.TRIAL
    assert trial.pays is True and trial.trials == 1
    assert run_blocks(trial, polled=50e-6, slept=100e-6, blocks=SpinTrial.KEEP) == [True] * SpinTrial.KEEP


def test_it_stops_polling_when_that_does_not_pay_and_tries_again_later() -> None:
    trial = SpinTrial()
    run_blocks(trial, polled=95e-6, slept=100e-6, blocks=2 * SpinTrial.TRIAL)  # 5% shorter: not worth a core
    assert trial.pays is False and trial.resting == SpinTrial.KEEP * SpinTrial.BLOCK  # the driver counts these down
    trial.resting = 0
    # the machine got quiet: the next trial finds that polling pays again
    assert run_blocks(trial, polled=40e-6, slept=100e-6, blocks=2 * SpinTrial.TRIAL) == [True, False] * SpinTrial.TRIAL
    assert trial.pays is True and trial.trials == 2 and trial.polling


def test_a_few_slow_replies_do_not_decide_the_trial() -> None:
    """Medians: an agent that once thinks for a second does not make polling look bad."""
    trial = SpinTrial()
    for block in range(2 * SpinTrial.TRIAL):
        for i in range(SpinTrial.BLOCK):
            slow = i < SpinTrial.BLOCK // 4 and trial.polling and block == 0
            trial.record(1.0 if slow else 30e-6 if trial.polling else 100e-6)
    assert trial.pays is True


@pytest.mark.skipif(not BusyWait.useful(), reason="busy-waiting needs two CPUs")
async def test_while_polling_does_not_pay_the_server_neither_polls_nor_times_a_reply(tmp_path: Path) -> None:
    """A resting trial: each reply is counted down and goes through the event loop alone; the
    match is the one played without polling."""
    logs, rested = [], []
    for rest in (False, True):
        server = MatchServer(KUHN, "m", 40, 3, ("a", "b"), DealerOptions(log_dir=tmp_path / str(rest), spin_us=2_000))
        busy = server._busy_wait
        assert busy is not None and busy.trial is not None
        busy.yield_to_load = False
        busy.trial.resting = 10**6 if rest else 0
        ports = await server.start()
        clients = [Client(KUHN, p, call_policy) for p in ports]
        result, *_ = await asyncio.wait_for(asyncio.gather(server.run(), *(c.run() for c in clients)), 30)
        assert result.hands_played == 40 and result.log_path is not None
        logs.append([line for line in result.log_path.read_text().splitlines() if line.startswith(("STATE", "SCORE"))])
        rested.append((10**6 - busy.trial.resting if rest else 0, busy.hits + busy.misses + busy.paused, len(busy.trial._waits)))
    assert logs[0] == logs[1]
    replies, polled, timed = rested[1]
    assert replies >= 80 and polled == 0 and timed == 0

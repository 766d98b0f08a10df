"""``showdown plan``: a pilot match stopped by Ctrl-C or SIGTERM stops the command, no plan is made."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from showdown.cli.plan import percent, stop_if_interrupted

ROOT = Path(__file__).resolve().parents[2]


def test_a_stopped_pilot_stops_the_command() -> None:
    stop_if_interrupted(0)
    with pytest.raises(KeyboardInterrupt):
        stop_if_interrupted(signal.SIGINT)
    with pytest.raises(SystemExit) as stop:
        stop_if_interrupted(signal.SIGTERM)
    assert stop.value.code == 143


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_during_the_pilot_match_exits_without_a_plan(tmp_path: Path, sig: int, code: int) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "showdown", "plan", "--difference", "5", "--agents", "rules", "call", "--game", "kuhn",
         "--pilot-hands", "10000000"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    time.sleep(3)  # the pilot match is under way (a signal before it also ends in the same exit status)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == code, err
    assert out == "" and "Traceback" not in err and "to tell a win rate" not in out


def test_percentages_never_round_to_a_certainty() -> None:
    assert [percent(p) for p in (0.8, 0.95, 0.995, 0.9999999999, 1e-9, 0.5)] == ["80%", "95%", "99.5%", "99.99999999%", "0.0000001%", "50%"]


def test_the_help_says_percent_once() -> None:
    """The description is printed as written (only the flags' help is %-formatted): it read '95%% level, 80%% power'."""
    run = subprocess.run([sys.executable, "-m", "showdown", "plan", "--help"], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    text = " ".join(run.stdout.split())
    assert "%%" not in text and "(95% level, 80% power by default)" in text and "(95% interval within +-P of it)" in text

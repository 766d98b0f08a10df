"""``load_numpy_single_threaded``: OpenBLAS without its thread pool, unless the user chose otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.cli.blas import THREAD_VARIABLES

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, os, sys
from showdown.cli.blas import THREAD_VARIABLES, load_numpy_single_threaded
done = load_numpy_single_threaded()
threads = None
if os.path.exists("/proc/self/status"):
    with open("/proc/self/status") as f:
        threads = next(int(line.split()[1]) for line in f if line.startswith("Threads:"))
print(json.dumps({"done": done, "threads": threads, "numpy": "numpy" in sys.modules,
                  "env": {k: os.environ.get(k) for k in THREAD_VARIABLES}}))
"""


def probe(**env: str) -> dict[str, object]:
    clean = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    out = subprocess.run([sys.executable, "-c", PROBE], env={**clean, "PYTHONPATH": str(ROOT), **env},
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    result: dict[str, object] = json.loads(out)
    return result


def test_numpy_loads_on_one_thread_and_the_environment_is_given_back() -> None:
    result = probe()
    assert result["done"] is True and result["numpy"] is True
    assert result["env"] == dict.fromkeys(THREAD_VARIABLES)  # later processes see what the user gave
    if result["threads"] is not None:
        assert result["threads"] == 1  # no OpenBLAS pool beside the main thread


@pytest.mark.parametrize("name", THREAD_VARIABLES)
def test_a_users_thread_setting_is_left_alone(name: str) -> None:
    result = probe(**{name: "1"})
    assert result["done"] is False and result["numpy"] is False
    assert result["env"] == {**dict.fromkeys(THREAD_VARIABLES), name: "1"}


def test_nothing_happens_once_numpy_is_loaded() -> None:
    import numpy  # noqa: F401

    from showdown.cli.blas import load_numpy_single_threaded

    before = {k: os.environ.get(k) for k in THREAD_VARIABLES}
    assert load_numpy_single_threaded() is False
    assert {k: os.environ.get(k) for k in THREAD_VARIABLES} == before

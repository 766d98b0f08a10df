"""The compiled hand-ranking kernels load in the background once a process has spent their cost in numpy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TURNS = (
    "import sys, numpy as np\n"
    "from showdown.solvers import holdem_buckets, kernel_loader\n"
    "from showdown.games.evaluate import compiled_preferred\n"
    "kernel_loader.LOAD_AFTER_SECONDS = {after}\n"
    "rng = np.random.default_rng(3)\n"
    "deals = [[int(c) for c in rng.choice(52, 6, replace=False)] for _ in range(12)]\n"
    "values = [holdem_buckets.holding_turn_ehs2(tuple(d[:2]), tuple(d[2:])) for d in deals]\n"
    "loader = kernel_loader.loading()\n"
    "if loader is not None:\n"
    "    loader.join(120)\n"
    "again = [holdem_buckets.holding_turn_ehs2(tuple(d[:2]), tuple(d[2:])) for d in deals]\n"
    "print(loader is not None, 'numba' in sys.modules, compiled_preferred(), values == again)\n"
)


def run(after: float) -> list[str]:
    out = subprocess.run([sys.executable, "-c", TURNS.format(after=after)], capture_output=True, text=True, check=True,
                         cwd=ROOT, timeout=300)
    return out.stdout.split()


def test_a_few_turn_buckets_stay_in_numpy() -> None:
    """An agent of a short match never pays numba's loading."""
    assert run(1000.0) == ["False", "False", "False", "True"]


def test_past_the_threshold_the_kernels_load_and_give_the_same_buckets() -> None:
    """The loader starts once the numpy time passes the threshold, turns the compiled path on when the
    kernels are ready, and the buckets after the switch are the numpy ones bit for bit."""
    assert run(0.0) == ["True", "True", "True", "True"]


CORRECTIONS = (
    "import sys, numpy as np\n"
    "from showdown.solvers import kernel_loader\n"
    "from showdown.games.catalog import get_game\n"
    "from showdown.games.evaluate import compiled_preferred\n"
    "from showdown.evaluation.chance import ChanceCorrector\n"
    "kernel_loader.LOAD_AFTER_SECONDS = {after}\n"
    "rng = np.random.default_rng(4)\n"
    "deals = [[int(c) for c in rng.choice(52, 9, replace=False)] for _ in range(6)]\n"
    "def luck():\n"
    "    c = ChanceCorrector(get_game('holdem-nolimit'), sample_boards=True, boards=500)\n"
    "    return [c.corrections([d[:2], d[2:4]], [[], d[4:7], [d[7]], [d[8]]], 'r300c/r600c/cc/cc') for d in deals]\n"
    "values = luck()\n"
    "loader = kernel_loader.loading()\n"
    "if loader is not None:\n"
    "    loader.join(120)\n"
    "from showdown.evaluation import chance\n"
    "chance._exact_equity.cache_clear(); chance.sampled_equity.cache_clear()\n"
    "print(loader is not None, compiled_preferred(), luck() == values)\n"
)


def test_a_long_analysis_loads_the_kernels_for_its_chance_corrections() -> None:
    """The chance corrections' numpy time counts too (a duplicate match's analysis of thousands of hands
    is most of its time after play), and the corrections after the switch are the numpy ones exactly."""
    out = subprocess.run([sys.executable, "-c", CORRECTIONS.format(after=0.0)], capture_output=True, text=True,
                         check=True, cwd=ROOT, timeout=300)
    assert out.stdout.split() == ["True", "True", "True"]
    out = subprocess.run([sys.executable, "-c", CORRECTIONS.format(after=1000.0)], capture_output=True, text=True,
                         check=True, cwd=ROOT, timeout=300)
    assert out.stdout.split() == ["False", "False", "True"]

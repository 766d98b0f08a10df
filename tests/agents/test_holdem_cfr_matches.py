"""The shipped hold'em ``cfr`` agent in real matches (agent processes, sockets, the dealer)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

OPPONENTS = ["rules", "call", "bluff", "random"]


def _match(game: str, opponent: str, hands: int, out: Path, *extra: str) -> dict:
    cmd = [sys.executable, "-m", "showdown", "match", game, "cfr", opponent, "--hands", str(hands), "--seed", "1",
           "--json", "--out", str(out), *extra]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.parametrize("game", ["holdem-limit", "holdem-nolimit"])
def test_a_short_match_runs_end_to_end(game, tmp_path):
    doc = _match(game, "rules", 60, tmp_path)
    assert doc["hands"] == 60 and not doc["failures"] and not doc["aborted"]


@pytest.mark.slow
@pytest.mark.parametrize("opponent", OPPONENTS)
@pytest.mark.parametrize("game", ["holdem-limit", "holdem-nolimit"])
def test_cfr_beats_the_baselines_in_20000_duplicate_hands(game, opponent, tmp_path):
    doc = _match(game, opponent, 20_000, tmp_path, "--duplicate")
    cfr = next(a for a in doc["agents"] if a["agent"] == "cfr")
    lo, hi = cfr["ci95_mbb"]
    print(f"{game} cfr vs {opponent}: {cfr['mbb_per_hand']:+.0f} mbb/hand [{lo:+.0f}, {hi:+.0f}] over {doc['hands']} hands")
    assert lo > 0
    if opponent == "rules":
        assert cfr["mbb_per_hand"] >= 100


PROBES = ["probe-minraise", "probe-third-raise", "probe-tiny", "probe-odd", "probe-jam", "probe-checkraise", "probe-raise"]


@pytest.mark.slow
@pytest.mark.parametrize("probe", PROBES)
def test_cfr_with_search_loses_nothing_measurable_to_the_probes_in_5000_duplicate_deals(probe, tmp_path):
    """The probes bet the sizes the abstraction lacks; with translation and river search the agent's
    win rate is >= 0 or its 95% interval covers 0."""
    doc = _match("holdem-nolimit", probe, 5_000, tmp_path, "--duplicate", "--estimator", "chance")
    cfr = next(a for a in doc["agents"] if a["agent"] == "cfr")
    lo, hi = cfr["ci95_mbb"]
    print(f"cfr vs {probe}: {cfr['mbb_per_hand']:+.0f} mbb/hand [{lo:+.0f}, {hi:+.0f}] over {doc['hands']} hands")
    assert hi >= 0

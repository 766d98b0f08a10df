"""The examples: a C bot (the protocol is all a bot needs) and the ten-line Python bot, in real matches."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.evaluation.verify import verify_log
from showdown.matches.config import AgentSpec, MatchConfig
from showdown.matches.runner import run_match

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def always_call(tmp_path_factory: pytest.TempPathFactory) -> Path:
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        pytest.skip("no C compiler")
    binary = tmp_path_factory.mktemp("c") / "always_call"
    subprocess.run([gcc, "-O2", "-Wall", "-Werror", "-o", str(binary), str(EXAMPLES / "always_call.c")], check=True)
    return binary


@pytest.mark.parametrize(
    "game,first,others",
    [
        ("kuhn", "0", ["random"]),
        ("leduc", "0", ["rules"]),
        ("holdem-limit", "1,0,0,0", ["bluff"]),
        ("holdem-nolimit", "1,0,0,0", ["random"]),
        ("kuhn3p", "0", ["random", "bluff"]),
    ],
)
def test_the_c_bot_plays_a_match_against_the_real_dealer(
    tmp_path: Path, always_call: Path, game: str, first: str, others: list[str]
) -> None:
    agents = (AgentSpec(command=f"{always_call} --first {first}"), *(AgentSpec(name=o) for o in others))
    report = run_match(MatchConfig(game=game, agents=agents, hands=150, seed=2, out=tmp_path), progress=False)
    assert report.hands == 150 and not report.failures
    # every line the C bot sent was the current decision and a legal action: nothing replaced or ignored
    assert report.replacements["always_call"] == {k: 0 for k in report.replacements["always_call"]}
    assert verify_log(report.log_path).ok  # type: ignore[arg-type]


def test_the_python_example_bot_plays_a_match(tmp_path: Path) -> None:
    agents = (AgentSpec(command=f"{sys.executable} {EXAMPLES / 'my_bot.py'}"), AgentSpec(name="call"))
    report = run_match(MatchConfig(game="kuhn", agents=agents, hands=200, seed=1, out=tmp_path), progress=False)
    assert report.names == ("my_bot", "call") and not report.failures
    assert all(v == 0 for v in report.replacements["my_bot"].values())
    assert report.totals[0] > 0  # raising aces against a calling station wins


def test_the_python_example_bot_is_ten_lines_of_code() -> None:
    code = [
        line for line in (EXAMPLES / "my_bot.py").read_text().split('"""')[2].splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]  # fmt: skip
    assert len(code) <= 10


def test_the_policy_bot_without_its_table_says_how_to_train_one(tmp_path: Path) -> None:
    """README: 'showdown match kuhn ./examples/kuhn_policy.py cfr'. In a fresh clone there is no table
    (train_kuhn_policy.py writes it in a temporary folder unless --out), and the bot checked and
    called in silence, losing -56/100 to cfr; now the match stops before it begins, quoting the bot."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "KUHN_POLICY"}
    env["KUHN_POLICY"] = str(tmp_path / "missing.json")
    run = subprocess.run([sys.executable, "-m", "showdown", "match", "kuhn", str(EXAMPLES / "kuhn_policy.py"), "cfr",
                          "--hands", "10", "--out", str(tmp_path), "--no-progress"],
                         capture_output=True, text=True, env=env, timeout=120, check=False)  # fmt: skip
    assert run.returncode == 2, run.stderr
    assert "no policy table at" in run.stderr and "train_kuhn_policy.py --out examples" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1

"""Acceptance of the exact agents (issue 4): real matches, real dealer, every agent its own process.

Each match runs ``showdown match GAME A B --hands N --seed S --json`` (through
``python -m showdown match``) and compares the results with
the exact values from the strategy tables. Seats rotate, so an agent's result is the average of its
two positional values. The long versions are ``@pytest.mark.slow``; quick versions with fewer hands
run by default.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from showdown.agents.exploiter import agent_strategy
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import State
from showdown.protocol.logfile import parse_log
from showdown.solvers.best_response import expected_value, exploitability
from showdown.solvers.kuhn_analytic import KUHN_VALUE
from showdown.solvers.strategy import Strategy
from showdown.solvers.tree import build_tree

ROOT = Path(__file__).resolve().parents[1]
BASELINES = ("random", "call", "bluff", "rules", "never-bluff")

# Kuhn (1950); seeds 000/004: the first player's value is 17/18 - 1 = -1/18, "P1 will lose $5.56 on
# average per 100 hands and P2 will gain that amount".
KUHN_PER100 = 100 * float(KUHN_VALUE)


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private strategy cache, filled once before the agent processes start."""
    path = tmp_path_factory.mktemp("showdown-cache")
    from showdown.agents.equilibrium import equilibrium_strategy

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SHOWDOWN_CACHE", str(path))
        for g in ("kuhn", "leduc"):
            equilibrium_strategy(get_game(g))
    return path


def match(
    cache: Path, game: str, agents: list[str], hands: int, seed: int, *extra: str, out: Path | None = None
) -> dict[str, Any]:
    """Run a match in a subprocess and return its ``--json`` document (no agents: from ``--config``)."""
    argv = [sys.executable, "-m", "showdown", "match", game, *agents]
    argv += ["--hands", str(hands), "--seed", str(seed), "--json", "--no-progress"]
    argv += ["--out", str(out)] if out is not None else ["--no-log"]
    env = {**os.environ, "SHOWDOWN_CACHE": str(cache), "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([*argv, *extra], capture_output=True, text=True, env=env, timeout=3600)
    assert proc.returncode == 0, proc.stderr
    doc: dict[str, Any] = json.loads(proc.stdout)
    assert doc["hands"] == hands and not doc["aborted"], doc
    replaced = {seat: {k: n for k, n in counts.items() if n} for seat, counts in doc["replacements"].items()}
    assert not any(replaced.values()), f"the dealer replaced actions: {replaced}"
    print(f"\n{game} {' '.join(agents) or extra[-1]}: {hands} hands in {doc['elapsed_s']} s; " + "; ".join(
        f"{a['name']} {a['per100']:+.2f} [{a['ci95'][0]:+.2f}, {a['ci95'][1]:+.2f}]" for a in doc["agents"]
    ) + "; " + "; ".join(f"position {p['position']} {p['per100']:+.2f} [{p['ci95'][0]:+.2f}, {p['ci95'][1]:+.2f}]" for p in doc["positions"]))
    return doc


def inside(value: float, ci: list[float]) -> bool:
    """``value`` in the interval; the slack covers AIVAT's exact, zero-width intervals printed to 15 digits."""
    slack = 1e-9 * max(1.0, abs(value))
    return ci[0] - slack <= value <= ci[1] + slack


def exact_per100(game: GameDef, a: Strategy, b: Strategy) -> float:
    """``a``'s exact chips per 100 hands against ``b`` with seats rotating (the mean of both positions)."""
    tree = build_tree(game)

    def seat(p0: Strategy, p1: Strategy) -> Strategy:
        return Strategy(game, {k: (p0 if tree.player_of(k) == 0 else p1).table[k] for k in tree.infoset_keys()}, validate=False)

    return 100 * (expected_value(tree, seat(a, b)) - expected_value(tree, seat(b, a))) / 2


# ---------------------------------------------------------------------- equilibrium self-play


def check_self_play(doc: dict[str, Any]) -> None:
    p0, p1 = doc["positions"]
    assert inside(KUHN_PER100, p0["ci95"]) and inside(-KUHN_PER100, p1["ci95"]), doc["positions"]
    for agent in doc["agents"]:
        assert inside(0.0, agent["ci95"]), agent


@pytest.mark.slow
def test_kuhn_equilibrium_self_play_200k(cache: Path) -> None:
    check_self_play(match(cache, "kuhn", ["equilibrium", "equilibrium"], 200_000, 1))


def test_kuhn_equilibrium_self_play_quick(cache: Path) -> None:
    check_self_play(match(cache, "kuhn", ["equilibrium", "equilibrium"], 3_000, 1))


# ---------------------------------------------------------------------- equilibrium against the baselines


def check_against(cache: Path, game_name: str, baseline: str, hands: int, seed: int) -> dict[str, Any]:
    game = get_game(game_name)
    doc = match(cache, game_name, ["equilibrium", baseline], hands, seed)
    eq = doc["agents"][0]
    assert eq["agent"] == "equilibrium"
    expected = exact_per100(game, agent_strategy("equilibrium", game), agent_strategy(baseline, game))
    assert expected >= -1e-9  # an equilibrium never loses in expectation with rotating seats
    assert eq["ci95"][1] >= -1e-9, eq  # never loses beyond its interval (an exact 0 may round to -5e-15)
    assert inside(expected, eq["ci95"]), (expected, eq)
    if baseline in ("bluff", "call"):
        assert eq["ci95"][0] > 0.0, eq  # wins clearly
    return doc


@pytest.mark.slow
@pytest.mark.parametrize("game", ["kuhn", "leduc"])
@pytest.mark.parametrize("baseline", BASELINES)
def test_equilibrium_against_baselines(cache: Path, game: str, baseline: str) -> None:
    check_against(cache, game, baseline, 50_000 if game == "kuhn" else 20_000, 2)


@pytest.mark.parametrize(("game", "baseline"), [("kuhn", "bluff"), ("leduc", "call")])
def test_equilibrium_against_baselines_quick(cache: Path, game: str, baseline: str) -> None:
    # Exact expectations: +11.1 (Kuhn, bluff) and +70.4 (Leduc, call) chips per 100 hands.
    check_against(cache, game, baseline, 2_000, 3)


# ---------------------------------------------------------------------- exploiter


def check_exploiter(cache: Path, game_name: str, target: str, hands: int, seed: int) -> dict[str, Any]:
    game = get_game(game_name)
    doc = match(cache, game_name, [], hands, seed, "--config", str(_exploiter_config(cache, game_name, target)))
    ex = doc["agents"][0]
    # Over both seats a best response wins exactly the target's exploitability (BR_0 + BR_1) / 2.
    expected = 100 * exploitability(game, agent_strategy(target, game))
    assert inside(expected, ex["ci95"]), (expected, ex)
    assert ex["ci95"][0] > 0.0
    return doc


def _exploiter_config(cache: Path, game: str, target: str) -> Path:
    """A match YAML giving the exploiter its ``opponent`` option."""
    path = cache / f"exploit-{game}-{target}.yaml"
    path.write_text(
        f"game: {game}\nagents:\n  - {{name: exploiter, options: {{opponent: {target}}}}}\n  - {target}\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.slow
@pytest.mark.parametrize("game", ["kuhn", "leduc"])
@pytest.mark.parametrize("target", BASELINES)
def test_exploiter_wins_the_exploitability(cache: Path, game: str, target: str) -> None:
    check_exploiter(cache, game, target, 50_000 if game == "kuhn" else 20_000, 4)


def test_exploiter_wins_the_exploitability_quick(cache: Path) -> None:
    check_exploiter(cache, "kuhn", "bluff", 2_000, 5)  # 1/3 chip per hand


# ---------------------------------------------------------------------- dominated plays


def test_equilibrium_never_folds_the_ace_nor_calls_with_the_queen_against_always_bluff(cache: Path, tmp_path: Path) -> None:
    game = get_game("kuhn")
    doc = match(cache, "kuhn", ["equilibrium", "bluff"], 1_000, 6, out=tmp_path)
    log = parse_log(Path(doc["log"]).read_text().splitlines(), doc["log"])
    seen = {"As": 0, "Qs": 0}
    bad = []
    for hand in log.hands:
        state = State.initial(game, hand.hole, tuple(c for r in hand.board for c in r))
        for action in (a for r in hand.betting for a in r):
            p = state.current_player
            if hand.names[p].startswith("equilibrium") and state.can_fold():
                card = "As" if "As" in _text(state.hole[p]) else "Qs" if "Qs" in _text(state.hole[p]) else ""
                if card:
                    seen[card] += 1
                if (card == "As" and str(action) == "f") or (card == "Qs" and str(action) == "c"):
                    bad.append((hand.hand, card, str(action)))
            state = state.apply(action)
    assert bad == []
    assert seen["As"] > 50 and seen["Qs"] > 50  # the situations did come up


def _text(cards: tuple[int, ...]) -> str:
    from showdown.games.cards import format_cards

    return format_cards(cards)

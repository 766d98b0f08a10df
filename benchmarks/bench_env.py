"""Environment speed: steps per second with random legal actions, showdown's PettingZoo environment
beside RLCard's and OpenSpiel's Python environments, one core, in the same run.

    python benchmarks/bench_env.py [--seconds 3] [--json]

A step is one player's action (the hand's chance steps are not counted); each environment starts a
new hand when one ends. showdown: ``showdown.env.env`` (wrapped, as users get it) and ``raw_env``,
``env.last()`` + ``env.step``; RLCard 1.2: ``env.step`` after ``env.get_state``; OpenSpiel:
``rl_environment.Environment`` (its Python RL interface) ``step``. Games: Kuhn, Leduc and
heads-up no-limit hold'em (RLCard has no Kuhn; OpenSpiel's no-limit game is universal_poker with
our catalog game's parameters). Missing packages are skipped with a note.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

NOLIMIT_ACPC = ("GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 4\nstack = 20000 20000\nblind = 100 50\nfirstPlayer = 2 1 1 1\n"
                "numSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0 3 1 1\nEND GAMEDEF\n")


def time_steps(step: Callable[[], None], seconds: float) -> float:
    """Steps per second of ``step`` (one action) over about ``seconds`` of CPU time."""
    for _ in range(200):
        step()
    count, start = 0, time.process_time()
    while True:
        for _ in range(500):
            step()
        count += 500
        spent = time.process_time() - start
        if spent >= seconds:
            return count / spent


def showdown_steps(game: str, wrapped: bool, seconds: float) -> float:
    """showdown's steps per second, counting only the players' actions (not the dead steps that
    PettingZoo's AEC protocol asks at the end of a hand)."""
    import showdown.env

    env = showdown.env.env(game=game) if wrapped else showdown.env.raw_env(game=game)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(200):
            obs, _, done, truncated, _ = env.last()
            if done or truncated:
                env.step(None)
                if not env.agents:
                    env.reset()
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            actions += 1
    return actions / (time.process_time() - start)


def rlcard_steps(game: str, seconds: float) -> float:
    import rlcard

    env = rlcard.make(game, config={"seed": 0})
    rng = np.random.default_rng(0)
    state, player = env.reset()

    def step() -> None:
        nonlocal state, player
        legal = list(state["legal_actions"])
        state, player = env.step(legal[rng.integers(len(legal))])
        if env.is_over():
            state, player = env.reset()

    return time_steps(step, seconds)


def openspiel_steps(game: str, seconds: float) -> float:
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(game)
    rng = np.random.default_rng(0)
    ts = env.reset()

    def step() -> None:
        nonlocal ts
        p = ts.observations["current_player"]
        legal = ts.observations["legal_actions"][p]
        ts = env.step([legal[rng.integers(len(legal))]])
        if ts.last():
            ts = env.reset()

    return time_steps(step, seconds)


def openspiel_nolimit() -> object:
    import pyspiel

    from showdown.games.gamedef import parse_gamedef
    from showdown.interchange.openspiel import universal_poker_parameters

    return pyspiel.load_game("universal_poker", universal_poker_parameters(parse_gamedef(NOLIMIT_ACPC)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement (default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    s = args.seconds
    rows: list[tuple[str, str, float | None, str]] = []

    def measure(game: str, tool: str, run: Callable[[], float]) -> None:
        try:
            rows.append((game, tool, run(), ""))
        except ImportError as exc:
            rows.append((game, tool, None, f"not installed ({exc.name})"))

    for game, ours, rl, spiel in (("kuhn", "kuhn", None, "kuhn_poker"), ("leduc", "leduc", "leduc-holdem", "leduc_poker"),
                                  ("no-limit hold'em", "holdem-nolimit", "no-limit-holdem", "nolimit")):  # fmt: skip
        measure(game, "showdown env (wrapped)", lambda ours=ours: showdown_steps(ours, True, s))
        measure(game, "showdown raw_env", lambda ours=ours: showdown_steps(ours, False, s))
        if rl:
            measure(game, "RLCard 1.2", lambda rl=rl: rlcard_steps(rl, s))
        if spiel == "nolimit":
            measure(game, "OpenSpiel rl_environment", lambda: openspiel_steps(openspiel_nolimit(), s))  # type: ignore[arg-type]
        else:
            measure(game, "OpenSpiel rl_environment", lambda spiel=spiel: openspiel_steps(spiel, s))
    if args.json:
        print(json.dumps([{"game": g, "env": t, "steps_per_s": v, "note": n} for g, t, v, n in rows], indent=1))
        return 0
    for g, t, v, n in rows:
        ours = next(v2 for g2, t2, v2, _ in rows if g2 == g and t2 == "showdown env (wrapped)")
        ratio = f"showdown wrapped / this = {ours / v:.2f}" if v and ours and not t.startswith("showdown env") else ""
        speed = f"{v:10.0f} steps/s" if v else n
        print(f"{g:18} {t:26} {speed:>18}  {ratio}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

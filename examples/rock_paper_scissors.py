"""Regret matching learns to exploit a fixed rock-paper-scissors player (the seeds' example).

The opponent plays rock 40%, paper 30%, scissors 30%. Paper wins 0.4 - 0.3 = +0.1 per game against
that mix (rock 0, scissors -0.1), and regret matching, playing each action in proportion to its
positive accumulated regret, finds it:

    python examples/rock_paper_scissors.py [--games 10000] [--seed 1] [--expected]
"""

from __future__ import annotations

import argparse

import numpy as np

from showdown.solvers.regret_matching import ROCK_PAPER_SCISSORS, RPS_ACTIONS, learn_against_fixed

OPPONENT = np.array([0.4, 0.3, 0.3])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games played (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of both players' draws (default 1)")
    parser.add_argument("--expected", action="store_true", help="learn from expected regrets instead of sampled play")
    args = parser.parse_args(argv)
    run = learn_against_fixed(
        ROCK_PAPER_SCISSORS, OPPONENT, args.games, np.random.default_rng(args.seed), sampled=not args.expected
    )

    def show(p: np.ndarray) -> str:
        return ", ".join(f"{a} {x:.1%}" for a, x in zip(RPS_ACTIONS, p))

    print(f"opponent:         {show(OPPONENT)}")
    print(f"final strategy:   {show(run.strategy)}")
    print(f"average strategy: {show(run.average_strategy)}")
    print(f"regrets:          {', '.join(f'{a} {r:+.0f}' for a, r in zip(RPS_ACTIONS, run.regrets))}")
    print(f"won {run.profit:+.0f} over {run.iterations} games ({run.profit / max(run.iterations, 1):+.3f} per game; paper alone: +0.100)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

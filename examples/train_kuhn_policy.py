"""Train a small policy in showdown's Gymnasium environment, then play it through the real dealer.

Tabular Monte Carlo control (epsilon-greedy, every-visit averages; Sutton and Barto, "Reinforcement
Learning", 2nd ed., section 5.4) against the ``rules`` agent in Kuhn poker, well under a minute. Then:
the greedy policy's win rate measured in the environment, and the same policy seated in a real
match (``examples/kuhn_policy.py``, its own process, over TCP) against the same agent. The two
estimates must agree within their 95% intervals.

    python examples/train_kuhn_policy.py [--hands 30000] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kuhn_policy import observation_key  # noqa: E402

from showdown.env.single import SingleAgentEnv  # noqa: E402

OPPONENT = "rules"


def train(hands: int, seed: int = 0, epsilon: float = 0.1) -> dict[str, int]:
    env = SingleAgentEnv("kuhn", opponents=[OPPONENT])
    rng = np.random.default_rng(seed)
    value: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(3))
    count: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(3))
    obs, _ = env.reset(seed=seed)
    for _ in range(hands):
        visited = []
        done = False
        while not done:
            key, mask = observation_key(obs["observation"]), obs["action_mask"]
            legal = np.flatnonzero(mask)
            greedy = legal[np.argmax(value[key][legal])]
            action = int(rng.choice(legal)) if rng.random() < epsilon else int(greedy)
            visited.append((key, action))
            obs, reward, done, _, _ = env.step(action)
        for key, action in visited:
            count[key][action] += 1
            value[key][action] += (reward - value[key][action]) / count[key][action]
        obs, _ = env.reset()
    return {key: int(np.argmax(np.where(count[key] > 0, value[key], -np.inf))) for key in value}


def mean_and_half_width(results: list[float]) -> tuple[float, float]:
    x = np.asarray(results)
    return float(x.mean()), 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x))


def play_in_env(table: dict[str, int], hands: int, seed: int) -> tuple[float, float]:
    env = SingleAgentEnv("kuhn", opponents=[OPPONENT])
    results = []
    obs, _ = env.reset(seed=seed)
    for _ in range(hands):
        done = False
        while not done:
            action = table.get(observation_key(obs["observation"]), 1)
            obs, reward, done, _, _ = env.step(action if obs["action_mask"][action] else 1)
        results.append(reward)
        obs, _ = env.reset()
    return mean_and_half_width(results)


def play_in_dealer(table_file: Path, hands: int, seed: int) -> tuple[float, float]:
    import showdown
    from showdown.matches.agent_words import agent_from_word  # a bot file, as on the command line

    os.environ["KUHN_POLICY"] = str(table_file)  # the bot process inherits it
    bot = agent_from_word(str(Path(__file__).resolve().with_name("kuhn_policy.py")))
    # force: a second run retrains and replaces the table beside them, so its match replaces theirs (a LogExistsError traceback)
    result = showdown.run_match("kuhn", [bot, OPPONENT], hands=hands, seed=seed, estimator="plain",
                                out=table_file.parent / "match", force=True)  # fmt: skip
    stats = result.report.agent_stats[0]
    assert stats.se is not None
    return stats.mean, 1.96 * stats.se


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30_000, help="training hands (default 30,000)")
    parser.add_argument("--play", type=int, default=20_000, help="hands to measure, in the env and in the dealer")
    parser.add_argument("--out", help="folder for the policy and the match logs (default: a temporary one)")
    args = parser.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix="kuhn-policy-"))
    out.mkdir(parents=True, exist_ok=True)
    table = train(args.hands)
    table_file = out / "kuhn_policy.json"
    table_file.write_text(json.dumps(table))
    env_mean, env_hw = play_in_env(table, args.play, seed=1)
    dealer_mean, dealer_hw = play_in_dealer(table_file, args.play, seed=2)
    agree = abs(env_mean - dealer_mean) <= math.hypot(env_hw, dealer_hw)
    print(f"trained on {args.hands:,} hands against {OPPONENT}: {len(table)} observations")
    print(f"environment: {env_mean:+.4f} +- {env_hw:.4f} chips/hand ({args.play:,} hands)")
    print(f"dealer:      {dealer_mean:+.4f} +- {dealer_hw:.4f} chips/hand ({args.play:,} hands, a real match)")
    print("agree within the intervals" if agree else "DISAGREE")
    return 0 if agree else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""How fast the hold'em ``cfr`` agent decides: mean and 99th percentile ms per decision, in-process.

    PYTHONPATH=. python benchmarks/bench_holdem_agent.py [--hands 2000] [--game holdem-limit|holdem-nolimit]

Deals seeded hands of the shipped ``cfr`` agent against ``rules`` (the same code path as in a match,
without the sockets) and times every ``act`` call of ``cfr``: following the betting, translating, the
bucket (flop table lookup; turn E[HS^2] over 48 rivers; river HS) and sampling. The issue's goal is
at most 2 ms per decision on average.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from showdown.agents.base import View
from showdown.agents.registry import make_agent
from showdown.games.catalog import get_game
from showdown.games.state import State


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--game", default="holdem-limit")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = get_game(args.game)
    t0 = time.perf_counter()
    cfr = make_agent("cfr", game, {"seed": 1})
    load = time.perf_counter() - t0
    rules = make_agent("rules", game)
    rng = np.random.default_rng(args.seed)
    times: list[float] = []
    for hand in range(args.hands):
        cards = [int(c) for c in rng.permutation(52)]
        state = State.initial(game, (tuple(cards[0:2]), tuple(cards[2:4])), tuple(cards[4:9]))
        me = hand % 2
        while not state.is_terminal:
            p = state.current_player
            view = View.of(state, p, hand)
            if p == me:
                t = time.perf_counter()
                action = cfr.act(view)
                times.append(time.perf_counter() - t)
            else:
                action = rules.act(view)
            state = state.apply(action)
    ms = np.array(times) * 1e3
    print(
        f"{args.game}: {len(ms)} decisions in {args.hands} hands; {ms.mean():.2f} ms mean, "
        f"{np.percentile(ms, 50):.2f} ms median, {np.percentile(ms, 99):.1f} ms p99, {ms.max():.1f} ms max; "
        f"strategy loaded in {load:.2f} s"
    )


if __name__ == "__main__":
    main()

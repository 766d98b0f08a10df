"""How fast the hold'em ``cfr`` agent decides: mean and 99th percentile ms per decision, in-process.

    PYTHONPATH=. python benchmarks/bench_holdem_agent.py [--hands 2000] [--game holdem-limit|holdem-nolimit]
        [--opponent rules|probe-third-raise|cfr|...] [--opponent-option search=off] [-o search=off] [-o budget_ms=300]

Deals seeded hands of the shipped ``cfr`` agent against ``--opponent`` (default ``rules``; the same
code path as in a match, without the sockets) and times every ``act`` call of ``cfr``: following the
betting, translating, the bucket (flop table lookup; turn E[HS^2] over 48 rivers; river HS),
sampling, and with search on the turn's and the river's re-solving. Prints per decision (and the
99th percentile per street) and per hand (wall-clock, and the deciding thread's CPU time, which a
loaded machine does not inflate), and the process's peak memory. ``--opponent cfr
--opponent-option search=off`` is an opponent that stays on the blueprint's tree.
"""

from __future__ import annotations

import argparse
import resource
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
    parser.add_argument("--opponent", default="rules")
    parser.add_argument("-o", dest="options", action="append", default=[], metavar="KEY=VALUE", help="a cfr option")
    parser.add_argument("--opponent-option", dest="opponent_options", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    game = get_game(args.game)
    t0 = time.perf_counter()
    cfr = make_agent("cfr", game, {"seed": 1, **dict(o.split("=", 1) for o in args.options)})
    load = time.perf_counter() - t0
    rules = make_agent(args.opponent, game, {"seed": 2, **dict(o.split("=", 1) for o in args.opponent_options)})
    rng = np.random.default_rng(args.seed)
    times: list[float] = []
    streets: dict[int, list[float]] = {}
    per_hand: list[float] = []
    cpu = 0.0  # this thread's CPU time inside act (the search runs in it): what load does not inflate
    for hand in range(args.hands):
        spent = len(times)
        cards = [int(c) for c in rng.permutation(52)]
        state = State.initial(game, (tuple(cards[0:2]), tuple(cards[2:4])), tuple(cards[4:9]))
        me = hand % 2
        while not state.is_terminal:
            p = state.current_player
            view = View.of(state, p, hand)
            if p == me:
                t, c = time.perf_counter(), time.thread_time()
                action = cfr.act(view)
                times.append(time.perf_counter() - t)
                cpu += time.thread_time() - c
                streets.setdefault(state.round, []).append(times[-1])
            else:
                action = rules.act(view)
            state = state.apply(action)
        per_hand.append(sum(times[spent:]))
    ms = np.array(times) * 1e3
    hand_ms = np.array(per_hand) * 1e3
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{args.game} vs {args.opponent} {' '.join(args.options)}: {len(ms)} decisions in {args.hands} hands; "
        f"{ms.mean():.2f} ms mean, {np.percentile(ms, 50):.2f} ms median, {np.percentile(ms, 99):.1f} ms p99, "
        f"{ms.max():.1f} ms max; {hand_ms.mean():.1f} ms a hand ({cpu * 1e3 / args.hands:.1f} ms of CPU); peak memory {peak:.0f} MB; "
        f"strategy loaded in {load:.2f} s"
    )
    names = ("preflop", "flop", "turn", "river")
    print("  per street (mean / p99 ms): " + ", ".join(
        f"{names[r] if r < len(names) else r} {np.mean(v) * 1e3:.1f} / {np.percentile(v, 99) * 1e3:.0f}" for r, v in sorted(streets.items())))


if __name__ == "__main__":
    main()

"""The dealer's own CPU per hand, without sockets: the sans-io ``MatchEngine`` driven by two scripted
seats that answer every state at once (call, raise or fold at random; no-limit raises of any size).

Run: ``PYTHONPATH=. python3 benchmarks/bench_engine.py [--game kuhn] [--hands 50000] [--repeat 5]``

Prints the best of ``--repeat`` runs in microseconds per hand, the log line and JSON Lines record of
every hand included (as the server writes them). What network benchmarks cannot separate from the
kernel's and the agents' time: compare it before and after a change to the engine, the codecs or
the records.
"""

from __future__ import annotations

import argparse
import random
import time

from showdown.games.catalog import get_game
from showdown.server.dealer import HandFinished, MatchEngine, Output, Send


def one_run(game_name: str, hands: int, seed: int) -> tuple[float, int]:
    game = get_game(game_name)
    engine = MatchEngine(game, ("a", "b"), hands, 1)
    rng = random.Random(seed)
    pending: dict[int, str] = {}
    logged: list[int] = []  # what the server writes of each hand (its two log lines), sized

    def take(outputs: list[Output]) -> None:
        for o in outputs:
            if isinstance(o, Send):
                pending[o.seat] = o.line
            elif isinstance(o, HandFinished):
                logged.append(len(o.state_line) + len(o.record.to_json()))

    for seat in range(2):
        take(engine.connected(seat))
        take(engine.receive(seat, "VERSION:2.0.0"))
    start = time.perf_counter()
    while not engine.finished:
        seat = engine.acting_seat
        line = pending.pop(seat, None) if seat is not None else None
        if line is None:
            break
        if game.is_nolimit:
            action = rng.choice(["c", "c", "f", f"r{rng.randint(200, 20000)}"])
        else:
            action = rng.choice(["c", "c", "r", "f"])
        take(engine.receive(seat, f"{line}:{action}"))
    return time.perf_counter() - start, engine.hands_played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="kuhn")
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    seconds, played = min(one_run(args.game, args.hands, 5) for _ in range(args.repeat))
    print(f"{args.game}: {seconds / played * 1e6:.1f} us of dealer CPU per hand (best of {args.repeat}, {played:,} hands)")


if __name__ == "__main__":
    main()

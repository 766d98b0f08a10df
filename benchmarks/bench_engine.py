"""The dealer's own CPU per hand, without sockets: the sans-io ``MatchEngine`` driven by two scripted
seats that play like the reference's ``example_player`` (fold 6% of the time when facing a bet, else
call or raise half and half; no-limit raises of a size drawn uniformly from the legal range).

Run: ``PYTHONPATH=. python3 benchmarks/bench_engine.py [--game kuhn] [--hands 50000] [--repeat 5]``

Only the engine's work is timed (each ``receive``, and the log line and JSON Lines record of every
hand, as the server writes them); the seats read their lines with the client codec outside the
clock. Prints the best of ``--repeat`` runs in microseconds per hand and per line answered. What
network benchmarks cannot separate from the kernel's and the agents' time: compare it before and
after a change to the engine, the codecs or the records.
"""

from __future__ import annotations

import argparse
import random
import time

from showdown.games.catalog import get_game
from showdown.protocol.codec import MatchStateDecoder
from showdown.server.dealer import MatchEngine
from showdown.server.outputs import HandFinished, Output, Send


def _reply(decoder: MatchStateDecoder, line: str, rng: random.Random, nolimit: bool) -> str:
    """What the reference's example player answers to ``line``."""
    decoder.read(line)
    state = decoder.state
    if state.can_fold() and rng.random() < 0.06:
        return f"{line}:f"
    bounds = state.raise_bounds()
    if bounds is not None and rng.random() < 0.5:
        return f"{line}:r{rng.randint(*bounds)}" if nolimit else f"{line}:r"
    return f"{line}:c"


def one_run(game_name: str, hands: int, seed: int) -> tuple[float, int, int]:
    """Seconds of engine time, hands played, lines answered."""
    game = get_game(game_name)
    engine = MatchEngine(game, ("a", "b"), hands, 1)
    rng = random.Random(seed)
    decoders = [MatchStateDecoder(game) for _ in range(2)]
    pending: dict[int, str] = {}
    clock = time.perf_counter

    def take(outputs: list[Output]) -> None:
        for o in outputs:
            if isinstance(o, Send):
                pending[o.seat] = o.line

    for seat in range(2):
        take(engine.connected(seat))
        take(engine.receive(seat, "VERSION:2.0.0"))
    spent = 0.0
    lines = 0
    while not engine.finished:
        seat = engine.acting_seat
        line = pending.pop(seat, None) if seat is not None else None
        if seat is None or line is None:
            break
        reply = _reply(decoders[seat], line, rng, game.is_nolimit)
        start = clock()
        outputs = engine.receive(seat, reply)
        for o in outputs:
            if isinstance(o, HandFinished):
                o.state_line, o.record.to_json()  # what the server writes of the hand
        spent += clock() - start
        lines += 1
        take(outputs)
    return spent, engine.hands_played, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="kuhn")
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    seconds, played, lines = min(one_run(args.game, args.hands, 5) for _ in range(args.repeat))
    print(f"{args.game}: {seconds / played * 1e6:.1f} us of dealer CPU per hand, {seconds / lines * 1e6:.1f} us per line "
          f"answered ({lines / played:.2f} a hand; best of {args.repeat}, {played:,} hands)")


if __name__ == "__main__":
    main()

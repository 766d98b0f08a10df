"""Depth-limited re-solving of the round before the last two (Leduc's first round; the flop):
exploitability in Leduc against the blueprint, and what its leaves would cost in hold'em.

    PYTHONPATH=. python benchmarks/bench_depth_limited.py [--blueprints 3,10,25,100] [--choices 1,2,3,4]
        [--holdem-rivers 3] [--json]

Leduc (``showdown.solvers.depth_limited_leduc``): for each blueprint (CFR+ iterations on the whole
game) and seat, the opponent's best response to the blueprint and to the first round re-solved from
the start (400 CFR+ iterations) with 1 to 4 continuations at the leaves (the blueprint's, then biased
toward fold, call, raise), the second round the blueprint's. Exact: no sampling.

Hold'em: the time of one leaf's pair values on one (turn, river) board (``depth_limited.pair_values``
over 1,326 x 1,326 pairs, a river subgame of one pot-size bet) and what a flop leaf (47 turns x 46
rivers, below a turn of its own betting) would cost per continuation: the reason the hold'em agent
does not search the flop.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from showdown.games.cards import parse_cards
from showdown.games.catalog import get_game
from showdown.games.state import State
from showdown.solvers.depth_limited import pair_values
from showdown.solvers.depth_limited_leduc import opponent_best_response, resolved_exploitability, train_blueprint, whole_game
from showdown.solvers.holdings import RankedBoard, game_holdings
from showdown.solvers.subgame import Subgame, SubgameSizing
from showdown.solvers.turn_subgame import turn_rows


def leduc(blueprints: list[int], choices: list[int]) -> list[dict[str, object]]:
    turn = whole_game()
    out: list[dict[str, object]] = []
    for iterations in blueprints:
        rows = train_blueprint(turn, iterations)
        for me in (0, 1):
            before = opponent_best_response(turn, rows, 1 - me)
            after = {k: resolved_exploitability(turn, rows, me, k) for k in choices}
            out.append({"blueprint_iterations": iterations, "seat": me, "blueprint": before, "resolved": after})
    return out


def holdem(rivers: int) -> dict[str, float]:
    game = get_game("holdem-nolimit")
    holdings = game_holdings(game)
    cards = holdings.cards
    apart = (~(cards[:, None, :, None] == cards[None, :, None, :]).any(axis=(2, 3))).astype(float)
    root = State.initial(game).apply_betting("r300c/cc/cc/")
    river = Subgame.of_state(root, SubgameSizing((1.0,), 1))
    rng = np.random.default_rng(0)
    strategies = [rng.dirichlet(np.ones(len(k)), size=holdings.size).T if k else None for k in river.children]
    board = tuple(parse_cards("2c7d9hJsKc"))
    strength = RankedBoard(holdings, board).strength
    disjoint = apart * (~holdings.blocked(board))[:, None] * (~holdings.blocked(board))[None, :]
    times = []
    for _ in range(rivers):
        start = time.process_time()
        pair_values(river, strategies, strength, disjoint)
        times.append(time.process_time() - start)
    per_board = float(np.median(times))
    turn, _ = turn_rows(State.initial(game).apply_betting("r300c/cc/"), SubgameSizing((1.0,), 1))
    turn_ends = sum(1 for k in turn.kind if k == 3)
    flop_leaf = per_board * 47 * 46 * turn_ends
    return {"river_nodes": river.num_nodes, "seconds_per_board": per_board, "turn_ends": turn_ends, "seconds_per_flop_leaf": flop_leaf}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blueprints", default="3,10,25,100", help="blueprints' CFR+ iterations, comma-separated")
    parser.add_argument("--choices", default="1,2,3,4", help="continuations at the leaves, comma-separated (1 to 4)")
    parser.add_argument("--holdem-rivers", type=int, default=3, help="boards timed for the hold'em leaf (0: skip)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args()
    table = leduc([int(x) for x in args.blueprints.split(",")], [int(x) for x in args.choices.split(",")])
    cost = holdem(args.holdem_rivers) if args.holdem_rivers > 0 else {}
    if args.json:
        print(json.dumps({"leduc": table, "holdem": cost}, indent=1))
        return
    print("Leduc: the opponent's best response (chips a hand) to the blueprint and to the re-solved first round")
    print(f"{'blueprint its':>13} {'seat':>4} {'blueprint':>9} " + " ".join(f"{'k=' + str(k):>8}" for k in table[0]["resolved"]))  # type: ignore[attr-defined]
    for r in table:
        after = r["resolved"]
        assert isinstance(after, dict)
        print(f"{r['blueprint_iterations']:>13} {r['seat']:>4} {r['blueprint']:>9.4f} " + " ".join(f"{v:>8.4f}" for v in after.values()))
    if cost:
        print(f"hold'em: pair values of one river subgame ({cost['river_nodes']} nodes) on one board {cost['seconds_per_board']:.2f} s CPU;"
              f" a flop leaf (47 x 46 boards x {cost['turn_ends']} turn ends) ~{cost['seconds_per_flop_leaf']:.0f} s per continuation")


if __name__ == "__main__":
    main()

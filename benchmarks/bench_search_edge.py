"""What the river search gains over its blueprint head to head, exactly at each situation (no card luck).

    PYTHONPATH=. python benchmarks/bench_search_edge.py [--game holdem-nolimit] [--hands 1500] [--seed 5]
        [--variant LABEL:key=value,key=value ...] [--street river|turn] [--json]

Plays seeded deals blueprint against blueprint and, at the first river decision of the searching seat
(seats alternating) while both are on the blueprint's tree, computes over every pair of holdings the
expected chips of each search variant's re-solved strategy and of the blueprint's against the
blueprint (``showdown.agents.search_edge``), and the opponent's best response to each within the
subgame. Variants are ``cfr`` agent options (default: the agent's defaults with a fixed iteration
count, so that the figures do not depend on the machine's load). Prints per variant the mean gain
per situation in chips and per hand in mbb with standard errors, the difference from the first
variant (paired: the same situations), and the exploitabilities. ``--street turn`` measures the turn
search instead, at the first turn decision, to the end of the hand over every last card (the river
played by the blueprint; no exploitabilities).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from showdown.agents.search_edge import Edge, sample_edges
from showdown.games.catalog import get_game


def _variant(text: str) -> tuple[str, dict[str, str]]:
    label, _, rest = text.partition(":")
    return label, dict(kv.split("=", 1) for kv in rest.split(",") if kv)


def _summary(edges: list[Edge], base: list[Edge], hands: int, big_blind: int) -> dict[str, float]:
    gain = np.array([e.gain for e in edges])
    paired = gain - np.array([e.gain for e in base])
    n = max(len(gain), 2)
    per_hand = 1000.0 / big_blind * len(gain) / hands  # chips a situation -> mbb a hand played
    return {
        "situations": len(gain),
        "gain_chips": float(gain.mean()), "gain_se": float(gain.std(ddof=1) / np.sqrt(n)),
        "mbb_per_hand": float(gain.mean() * per_hand), "mbb_se": float(gain.std(ddof=1) / np.sqrt(n) * per_hand),
        "vs_first_mbb": float(paired.mean() * per_hand), "vs_first_se": float(paired.std(ddof=1) / np.sqrt(n) * per_hand),
        "exploit_searched": float(np.mean([e.exploit_searched for e in edges])),
        "exploit_blueprint": float(np.mean([e.exploit_blueprint for e in edges])),
        "iterations": float(np.mean([e.iterations for e in edges])),
        "unmatched": float(sum(e.unmatched for e in edges)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="holdem-nolimit")
    parser.add_argument("--hands", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--variant", action="append", default=[], metavar="LABEL:key=value,...")
    parser.add_argument("--pot-split", type=int, default=0, metavar="CHIPS", help="also split each variant's gain at this pot")
    parser.add_argument("--street", choices=("river", "turn"), default="river")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = get_game(args.game)
    fixed = {"budget_ms": "100000", "turn_budget_ms": "100000", "search_iterations": "150"}
    variants = {label: {**fixed, **opts} for label, opts in map(_variant, args.variant or ["default:"])}
    started = time.perf_counter()

    def progress(done: int, edges: dict[str, list[Edge]]) -> None:
        if done % (100 if args.street == "river" else 20) == 0:
            so_far = ", ".join(f"{label} {np.mean([e.gain for e in e_]):+.1f}" for label, e_ in edges.items() if e_)
            print(f"  {done}/{args.hands} hands, {len(next(iter(edges.values())))} situations, "
                  f"{time.perf_counter() - started:.0f} s; chips a situation so far: {so_far}", flush=True)

    edges = sample_edges(game, args.hands, args.seed, variants, progress=None if args.json else progress, street=args.street)
    first = next(iter(edges.values()))
    rows = {label: _summary(e, first, args.hands, game.big_blind) for label, e in edges.items()}
    if args.json:
        print(json.dumps({"hands": args.hands, "seed": args.seed, "street": args.street, "variants": variants, "results": rows}, indent=1))
        return
    print(f"{args.game}, {args.street}, {args.hands} hands (seed {args.seed}); gain of the re-solved strategy over the blueprint's "
          "against the blueprint, and the opponent's best response to each within the subgame (chips)")
    print(f"{'variant':<24} {'n':>4} {'chips/situation':>16} {'mbb/hand':>14} {'vs first (mbb)':>15} {'BR search':>10} "
          f"{'BR blueprint':>12} {'iters':>6}")
    for label, r in rows.items():
        print(f"{label:<24} {r['situations']:>4} {r['gain_chips']:>8.1f} +-{r['gain_se']:>5.1f} {r['mbb_per_hand']:>6.0f} "
              f"+-{r['mbb_se']:>4.0f} {r['vs_first_mbb']:>7.0f} +-{r['vs_first_se']:>4.0f} {r['exploit_searched']:>10.1f} "
              f"{r['exploit_blueprint']:>12.1f} {r['iterations']:>6.0f}")
    if args.pot_split:
        for label, e_ in edges.items():
            for name, part in (("below", [e for e in e_ if e.pot < args.pot_split]), ("at or above", [e for e in e_ if e.pot >= args.pot_split])):
                if len(part) >= 2:
                    r = _summary(part, part, args.hands, game.big_blind)
                    print(f"  {label}, pot {name} {args.pot_split}: {r['situations']} situations, {r['gain_chips']:+.1f} +- "
                          f"{r['gain_se']:.1f} chips a situation, {r['mbb_per_hand']:+.0f} +- {r['mbb_se']:.0f} mbb a hand played")


if __name__ == "__main__":
    main()

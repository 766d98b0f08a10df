"""Two hold'em blueprints side by side: head to head, local best response, the probes and `rules`.

    python benchmarks/bench_blueprint.py NEW.pcs.npz OLD.pcs.npz [--game holdem-nolimit] [--hands 5000]
        [--lbr-hands 2000] [--seed 32] [--only h2h,lbr,probes,rules] [--out DIR] [--json]

Both play as the `cfr` agent with ``-o search=off`` (the blueprint alone). Head to head is a
duplicate match with the chance-corrected estimator (NEW's mbb/hand, 95% interval); LBR (Lisy and
Bowling 2017, the `wide` sizes: min-raise, 1/4, 1/2 and 1 pot, all-in) plays the same hands with the
same seed against each; the probes of `showdown exploit --probes` and `rules` play each in
duplicate on the same deals. Every figure is one `showdown` command, printed as it starts, so any
row can be run again alone. Slow: an hour or more for the defaults on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def showdown(args: list[str]) -> Any:
    """Run one ``showdown ... --json`` command and return its JSON."""
    print("$ showdown " + " ".join(args), file=sys.stderr, flush=True)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "showdown", *args, "--json"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"showdown {' '.join(args)}: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else 'failed'}")
    print(f"  ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    return json.loads(done.stdout)


def blueprint(path: str) -> list[str]:
    return ["-o", "search=off", "-o", f"strategy={path}"]


def head_to_head(new: str, old: str, a: argparse.Namespace) -> dict[str, Any]:
    out = showdown(
        ["match", a.game, "cfr", "cfr", "-o", "search=off", "-o", f"1:strategy={new}", "-o", f"2:strategy={old}",
         "--hands", str(a.hands), "--duplicate", "--estimator", "chance", "--seed", str(a.seed), "--no-progress",
         "--force", "--out", str(Path(a.out) / "h2h")]
    )
    first = out["agents"][0]
    return {"deals": out["paired_deals"], "mbb": first["mbb_per_hand"], "ci95_mbb": first["ci95_mbb"]}


def against(path: str, label: str, a: argparse.Namespace) -> dict[str, Any]:
    """LBR, the probes and `rules` against one blueprint."""
    row: dict[str, Any] = {}
    if "lbr" in a.only:
        lbr = showdown(["exploit", "--lbr", "--agent", "cfr", *blueprint(path), "--game", a.game, "--actions", "wide",
                        "--hands", str(a.lbr_hands), "--seed", str(a.seed), "--jobs", "1"])
        row["lbr"] = {"mbb": lbr["lbr_mbb"], "ci95_mbb": lbr["ci95_mbb"], "hands": lbr["hands"]}
    if "probes" in a.only:
        probes = showdown(["exploit", "--probes", "--agent", "cfr", *blueprint(path), "--game", a.game,
                           "--hands", str(a.hands), "--seed", str(a.seed), "--jobs", "1", "--out", str(Path(a.out) / f"probes-{label}")])
        row["probes"] = probes
    if "rules" in a.only:
        rules = showdown(["match", a.game, "cfr", "rules", "-o", "1:search=off", "-o", f"1:strategy={path}",
                          "--hands", str(a.hands), "--duplicate", "--estimator", "chance", "--seed", str(a.seed), "--no-progress",
                          "--force", "--out", str(Path(a.out) / f"rules-{label}")])
        row["rules"] = {"mbb": rules["agents"][0]["mbb_per_hand"], "ci95_mbb": rules["agents"][0]["ci95_mbb"]}
    return row


def interval(v: dict[str, Any]) -> str:
    lo, hi = v["ci95_mbb"]
    return f"{v['mbb']:+,.0f} [{lo:+,.0f}, {hi:+,.0f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("new")
    parser.add_argument("old")
    parser.add_argument("--game", default="holdem-nolimit")
    parser.add_argument("--hands", type=int, default=5000, help="deals of each duplicate match (default 5000)")
    parser.add_argument("--lbr-hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--only", default="h2h,lbr,probes,rules")
    parser.add_argument("--out", default="out/bench_blueprint")
    parser.add_argument("--json", action="store_true")
    a = parser.parse_args()
    report: dict[str, Any] = {"game": a.game, "seed": a.seed, "new": a.new, "old": a.old}
    if "h2h" in a.only:
        report["head_to_head"] = head_to_head(a.new, a.old, a)
    report["new_results"] = against(a.new, "new", a)
    report["old_results"] = against(a.old, "old", a)
    if a.json:
        print(json.dumps(report, indent=2))
        return
    if "head_to_head" in report:
        h = report["head_to_head"]
        print(f"new vs old, {h['deals']:,} deals duplicate, chance-corrected: {interval(h)} mbb/hand")
    print(f"{'':28} {'new':>26} {'old':>26}")
    new, old = report["new_results"], report["old_results"]
    if "lbr" in new:
        print(f"{'LBR wide, ' + str(a.lbr_hands) + ' hands':28} {interval(new['lbr']):>26} {interval(old['lbr']):>26}")
    if "rules" in new:
        print(f"{'cfr vs rules':28} {interval(new['rules']):>26} {interval(old['rules']):>26}")
    if "probes" in new:
        for n, o in zip(new["probes"]["probes"], old["probes"]["probes"]):
            print(f"{n['name'] + ' (its win rate)':28} {interval(n):>26} {interval(o):>26}")


if __name__ == "__main__":
    main()

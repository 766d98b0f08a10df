"""Two hold'em blueprints side by side: head to head, local best response, the probes and `rules`.

    python benchmarks/bench_blueprint.py NEW.pcs.npz OLD.pcs.npz [--game holdem-nolimit] [--hands 3000]
        [--side-hands 2000] [--lbr-hands 2000] [--seed 32] [--only h2h,lbr,probes,rules] [--out DIR] [--json]

Both play as the `cfr` agent with ``-o search=off`` (the blueprint alone). Head to head is a
duplicate match with the chance-corrected estimator (NEW's mbb/hand, 95% interval), both blueprints
drawing their actions with the same seed (common random numbers: a deal both play alike cancels
exactly); LBR (Lisy and Bowling 2017; in no-limit the `wide` sizes: min-raise, 1/4, 1/2 and 1 pot,
all-in) plays the same hands with the
same seed against each; every probe (its win rate, as `showdown exploit --probes` reports it) and
`rules` play each blueprint in duplicate on the same deals. Matches run from YAML configs written
to ``--out`` with a long start limit: on a loaded machine a large blueprint's agent can take longer
to start than the default 15 s, and its seat would play as disconnected; a match with any replaced
action stops the benchmark. Each command is printed as it starts, so any row can be run again alone.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PROBES = ("probe-minraise", "probe-third-raise", "probe-jam", "probe-tiny", "probe-odd", "probe-checkraise", "probe-raise")


def showdown(args: list[str]) -> Any:
    """Run one ``showdown ... --json`` command and return its JSON."""
    print("$ showdown " + " ".join(args), file=sys.stderr, flush=True)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "showdown", *args, "--json"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"showdown {' '.join(args)}: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else 'failed'}")
    print(f"  ({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    return json.loads(done.stdout)


def blueprint(path: str, label: str, seed: int | None = None) -> str:
    """One blueprint's line of a match file; ``seed`` seeds its action draws (the same seed for both
    blueprints of the head to head: common random numbers, so that deals both play alike cancel)."""
    seeded = "" if seed is None else f", seed: {seed}"
    return f"{{name: cfr, label: {label}{seeded}, options: {{search: 'off', strategy: '{path}'}}}}"


def match(name: str, agents: list[str], hands: int, a: argparse.Namespace) -> dict[str, Any]:
    """A duplicate, chance-corrected match from a YAML config; the first agent's mbb/hand."""
    folder = Path(a.out)
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / f"{name}.yaml"
    config.write_text(
        f"game: {a.game}\nhands: {hands}\nseed: {a.seed}\nout: '{folder / name}'\nduplicate: true\nestimator: chance\n"
        "agents:\n" + "".join(f"  - {x}\n" for x in agents) + "dealer:\n  start_timeout_ms: 600000\n"
    )
    out = showdown(["match", "--config", str(config), "--no-progress", "--force"])
    replaced = {k: sum(v.values()) for k, v in out["replacements"].items() if sum(v.values())}
    if replaced:
        sys.exit(f"{config}: actions replaced by the dealer ({replaced}): the comparison would not be fair")
    first = out["agents"][0]
    return {"deals": out["paired_deals"], "mbb": first["mbb_per_hand"], "ci95_mbb": first["ci95_mbb"]}


def against(path: str, label: str, a: argparse.Namespace) -> dict[str, Any]:
    """LBR, the probes and `rules` against one blueprint."""
    row: dict[str, Any] = {}
    if "lbr" in a.only:
        sizes = ["--actions", "wide"] if a.game.endswith("nolimit") else []  # limit: LBR's one action set
        lbr = showdown(["exploit", "--lbr", "--agent", "cfr", "-o", "search=off", "-o", f"strategy={path}", "--game", a.game,
                        *sizes, "--hands", str(a.lbr_hands), "--seed", str(a.seed), "--jobs", "1"])
        row["lbr"] = {"mbb": lbr["lbr_mbb"], "ci95_mbb": lbr["ci95_mbb"], "hands": lbr["hands"]}
    if "rules" in a.only:
        row["rules"] = match(f"rules-{label}", [blueprint(path, label), "rules"], a.side_hands, a)
    if "probes" in a.only and a.game.endswith("nolimit"):
        row["probes"] = {probe: match(f"{probe}-{label}", [probe, blueprint(path, label)], a.side_hands, a) for probe in PROBES}
    return row


def interval(v: dict[str, Any]) -> str:
    lo, hi = v["ci95_mbb"]
    return f"{v['mbb']:+,.0f} [{lo:+,.0f}, {hi:+,.0f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("new")
    parser.add_argument("old")
    parser.add_argument("--game", default="holdem-nolimit")
    parser.add_argument("--hands", type=int, default=3000, help="deals of the head-to-head match (default 3000)")
    parser.add_argument("--side-hands", type=int, default=2000, help="deals of each match against rules or a probe (default 2000)")
    parser.add_argument("--lbr-hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--only", default="h2h,lbr,probes,rules")
    parser.add_argument("--out", default="out/bench_blueprint")
    parser.add_argument("--json", action="store_true")
    a = parser.parse_args()
    report: dict[str, Any] = {"game": a.game, "seed": a.seed, "new": a.new, "old": a.old}
    if "h2h" in a.only:
        report["head_to_head"] = match("h2h", [blueprint(a.new, "new", a.seed), blueprint(a.old, "old", a.seed)], a.hands, a)
    report["new_results"] = against(a.new, "new", a)
    report["old_results"] = against(a.old, "old", a)
    if a.json:
        print(json.dumps(report, indent=2))
        return
    if "head_to_head" in report:
        h = report["head_to_head"]
        print(f"new vs old, {h['deals']:,} deals duplicate, chance-corrected: {interval(h)} mbb/hand")
    print(f"{'':30} {'new':>26} {'old':>26}")
    new, old = report["new_results"], report["old_results"]
    if "lbr" in new:
        print(f"{'LBR wide, ' + str(a.lbr_hands) + ' hands':30} {interval(new['lbr']):>26} {interval(old['lbr']):>26}")
    if "rules" in new:
        print(f"{'vs rules':30} {interval(new['rules']):>26} {interval(old['rules']):>26}")
    for probe in new.get("probes", {}):
        print(f"{probe + ' (its win rate)':30} {interval(new['probes'][probe]):>26} {interval(old['probes'][probe]):>26}")


if __name__ == "__main__":
    main()

"""Sweep the cousins of the probes: ``cfr`` (or any bot) against a grid of ``probe-bet`` option sets.

    python benchmarks/sweep_probe_bet.py [--bot cfr] [-o KEY=VALUE] [--hands 400] [--seed 26] [--jobs 1]
        [--only quarter-any,min-any] [--out out/sweep] [--json]

Each cousin plays a duplicate match with the chance-corrected estimator (``showdown match
holdem-nolimit BOT probe-bet -o 2:KEY=VALUE ... --duplicate --estimator chance --seed S --json``,
the command is printed) and the table gives the bot's mbb/hand with its 95% interval: a cousin
whose interval lies below zero wins from the bot. ``--only`` runs the named rows (two shells with
disjoint ``--only`` lists share two cores). Finished matches are kept in ``--out`` and not replayed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

COUSINS: dict[str, str] = {
    "quarter-any": "sizes=0.25",
    "half-any": "sizes=0.5",
    "cbet-two-thirds": "sizes=0.67 raises=first",
    "overbet-2x": "sizes=2",
    "overbet-5x": "sizes=5",
    "min-any": "sizes=min",
    "limp-quarter": "sizes=0.25 streets=flop/turn/river",
    "river-bluff": "sizes=1 raises=first streets=river",
    "threebet-3x": "sizes=3x raises=second streets=preflop",
    "quarter-value": "sizes=0.25 hands=value facing=fold-weak",
    "min-value": "sizes=min hands=value facing=fold-weak",
    "half-value": "sizes=0.5 hands=value facing=fold-weak",
    "pot-value": "sizes=1 hands=value facing=fold-weak",
    "quarter-fold-weak": "sizes=0.25 facing=fold-weak",
    "threebet-3x-value": "sizes=3x raises=second streets=preflop hands=value facing=fold-weak",
    "quarter-raise": "sizes=0.25 facing=raise",
    "half-fold": "sizes=0.5 facing=fold",
    "bet-fold": "sizes=0.5 raises=first facing=fold",
}
"""Cousin label -> ``probe-bet`` options (space-separated KEY=VALUE)."""


def command(bot: str, options: list[str], cousin: str, hands: int, seed: int, jobs: int, out: Path) -> list[str]:
    cmd = [sys.executable, "-m", "showdown", "match", "holdem-nolimit", bot, "probe-bet"]
    for o in options:
        cmd += ["-o", f"1:{o}"]
    for o in COUSINS[cousin].split():
        cmd += ["-o", f"2:{o}"]
    return cmd + ["--hands", str(hands), "--duplicate", "--estimator", "chance", "--seed", str(seed), "--jobs", str(jobs),
                  "--json", "--no-progress", "--out", str(out / cousin)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bot", default="cfr")
    parser.add_argument("-o", dest="options", action="append", default=[], metavar="KEY=VALUE", help="a bot option")
    parser.add_argument("--hands", type=int, default=400, help="deals per cousin (each played in both seats)")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default="", help="comma-separated cousin labels (default: all)")
    parser.add_argument("--out", type=Path, default=Path("out/sweep"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(COUSINS)
    unknown = [n for n in names if n not in COUSINS]
    if unknown:
        parser.exit(2, f"sweep: unknown cousin {unknown[0]!r}; known: {', '.join(COUSINS)}\n")
    rows = []
    for name in names:
        cmd = command(args.bot, args.options, name, args.hands, args.seed, args.jobs, args.out)
        print(" ".join(cmd[1:]), file=sys.stderr, flush=True)
        result = args.out / f"{name}.seed{args.seed}.json"
        if not result.exists():
            done = subprocess.run(cmd + ["--force"], capture_output=True, text=True, check=False)
            if done.returncode != 0:
                print(f"{name}: failed: {done.stderr.strip()}", file=sys.stderr)
                continue
            result.parent.mkdir(parents=True, exist_ok=True)
            result.write_text(done.stdout)
        bot = json.loads(result.read_text())["agents"][0]
        low, high = bot["ci95_mbb"]
        rows.append({"cousin": name, "options": COUSINS[name], "deals": args.hands, "seed": args.seed,
                     "mbb": bot["mbb_per_hand"], "ci95_mbb": [low, high]})
        print(f"| {name} | `{COUSINS[name]}` | {args.hands:,} | {args.seed} | {bot['mbb_per_hand']:+,.0f} [{low:+,.0f}, {high:+,.0f}] |",
              flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()

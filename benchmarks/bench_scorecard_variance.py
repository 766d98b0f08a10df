"""The flop's luck taken out: the chance-corrected estimator with and without the sampled-board
flop term (``evaluation.chance``), on the same duplicate matches of a bot against the scorecard's
opponents.

Run: ``PYTHONPATH=. nice -n 10 python3 benchmarks/bench_scorecard_variance.py [--bot rules] [--game holdem-nolimit]
[--deals 1000] [--opponents random,call,rules,...]``, or ``--folder DIR`` to read again the matches a
``showdown scorecard`` run kept in DIR (its ``--out``; e.g. the ``cfr -o search=off`` card of the README).

For each opponent: one duplicate match (``--deals`` deals, both seatings), read twice: the paired
chance-corrected estimator as before (deal, turn and river terms) and with the flop term too; prints
each one's standard deviation of a deal's result (mbb), their variance ratio (how many times fewer
deals the new estimator needs for the same interval), and both estimates (they must agree within
their intervals: both are unbiased).
"""

from __future__ import annotations

import argparse
import math
import tempfile
from pathlib import Path

from showdown.evaluation.analyze import analyze
from showdown.evaluation.log_reading import read_logs
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.matches.config import AgentSpec
from showdown.matches.probing import match_name, play_opponent


def _figures(logs: list[Path], game: GameDef, name: str, sample_boards: bool) -> tuple[float, float, float]:
    """The opponent's standard deviation of a deal's result, win rate and 95% half-width (mbb)."""
    table = read_logs(logs, game=game, chance=True, sample_boards=sample_boards).table
    a = analyze(table, estimator="chance", big_blind=game.big_blind, show_mbb=True, pair=True)
    est = a.agents[a.names.index(name) if name in a.names else 0]
    se = est.se or 0.0
    scale = 1000.0 / game.big_blind
    return scale * se * math.sqrt(max(a.deals, 1)), scale * est.mean, scale * 1.96 * se


def main() -> None:
    from showdown.agents.probes import PROBES
    from showdown.matches.scorecard import BASELINES

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="rules")
    parser.add_argument("--game", default="holdem-nolimit")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default=",".join([*BASELINES, *PROBES]))
    parser.add_argument("--folder", type=Path, help="read the matches kept in a scorecard's folder instead of playing")
    args = parser.parse_args()
    game = get_game(args.game)
    if args.folder is not None:
        print(f"the matches kept in {args.folder}")
        print(f"{'match':52s} {'sd before':>10s} {'sd now':>10s} {'var ratio':>9s}")
        for kept in sorted(args.folder.glob("*.opponent.json")):
            stem = kept.name.removesuffix(".opponent.json")
            logs = sorted(args.folder.glob(f"{stem}.dup*.log"))
            if len(logs) == 2:
                (sd0, _, _), (sd1, _, _) = (_figures(logs, game, stem.split("-vs-")[0], s) for s in (False, True))
                print(f"{stem:52s} {sd0:10.0f} {sd1:10.0f} {(sd0 / sd1) ** 2 if sd1 > 0 else float('inf'):9.2f}", flush=True)
        return
    bot = AgentSpec(name=args.bot)
    print(f"{args.bot} in {args.game}, {args.deals} deals per opponent (duplicate), seed {args.seed}")
    print(f"{'opponent':22s} {'sd before':>10s} {'sd now':>10s} {'var ratio':>9s} {'mbb before':>18s} {'mbb now':>18s}")
    with tempfile.TemporaryDirectory() as out:
        folder = Path(out)
        for name in args.opponents.split(","):
            play_opponent(args.game, bot, name, hands=args.deals, seed=args.seed, folder=folder, jobs=2)
            stem = match_name(bot, name, args.seed, args.deals)
            logs = sorted(p for p in folder.rglob(f"{stem}*.log"))
            (sd0, m0, h0), (sd1, m1, h1) = (_figures(logs, game, name, s) for s in (False, True))
            ratio = (sd0 / sd1) ** 2 if sd1 > 0 else float("inf")
            print(f"{name:22s} {sd0:10.0f} {sd1:10.0f} {ratio:9.2f} {m0:+9.0f} +/-{h0:5.0f} {m1:+9.0f} +/-{h1:5.0f}", flush=True)


if __name__ == "__main__":
    main()

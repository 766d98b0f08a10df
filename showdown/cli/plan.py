"""``showdown plan``: how many hands a match needs to separate a win rate from zero, from a pilot.

The pilot is either logs already played (``--pilot LOG...``, the player ``--agent``; default the
first) or a short match played now (``--agents A B``, ``--pilot-hands`` hands). See
``evaluation.planning`` for the two answers (fixed sample, anytime-valid) and how they are found.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from showdown import argtypes
from showdown.errors import ConfigError

MAX_SIMULATED_HANDS = 10**8
"""The longest simulated match (--max-hands): about ten seconds of simulation each, and there may be a
thousand (a match that never separates runs to it: 10^23 simulated without end)."""


def add_plan_parser(sub: Any) -> None:
    p = sub.add_parser(
        "plan",
        description="Estimate the hands a match needs so that a true win rate of --difference chips per 100 hands "
        "(or --difference-mbb mbb/hand) is told apart from zero: with a number of hands fixed in advance (95% level, "
        "80% power by default), and with showdown match --until-separated (an anytime-valid confidence sequence, "
        "simulated from the pilot). The pilot's spread comes from logs (--pilot) or a short match played now (--agents).",
    )
    p.add_argument("--game", help="catalog name or .game file (default: from the pilot logs)")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--difference", type=argtypes.real_number(0, 1e12, "a win rate", above=True), metavar="D", help="the win rate to detect, chips per 100 hands")
    what.add_argument("--difference-mbb", type=argtypes.real_number(0, 1e12, "a win rate", above=True), metavar="M", help="the win rate to detect, mbb per hand")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--pilot", nargs="+", metavar="LOG", help="logs of earlier hands (.log or .jsonl)")
    src.add_argument("--agents", nargs=2, metavar="AGENT", help="play a pilot match between these two agents now")
    p.add_argument("--agent", help="with --pilot: the player whose win rate is planned (default: the first)")
    p.add_argument("--pilot-hands", type=argtypes.hand_count, default=2000, help="hands of the pilot match (default 2000)")
    p.add_argument("--seed", type=argtypes.seed, default=0, help="seed of the pilot match and of the simulation (default 0)")
    p.add_argument("--power", type=float, default=0.8, help="chance of telling the difference apart (default 0.8)")
    p.add_argument("--alpha", type=float, default=0.05, help="error rate of the fixed-size test when there is no difference "
                   "(default 0.05; --until-separated always stops at 95%%)")
    p.add_argument("--precision", type=float, default=0.05, metavar="P",
                   help="relative precision of the anytime-valid median (95%% interval within +-P of it): simulated matches "
                   "are added until it is reached, at most 1,000 (default 0.05)")
    p.add_argument("--runs", type=int, default=None, help="a fixed number of simulated matches instead of --precision")
    p.add_argument("--max-hands", type=argtypes.whole_number(100, MAX_SIMULATED_HANDS, "a number of hands"), default=2_000_000,
                   help=f"longest simulated match (default 2,000,000; at most {MAX_SIMULATED_HANDS:,})")
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    p.set_defaults(handler=plan_handler)


def _pilot_from_logs(paths: list[str], agent: str | None, game: Any) -> tuple[np.ndarray, Any, str]:
    from showdown.evaluation.log_reading import read_logs

    logs = read_logs(paths, game=game)
    table = logs.table
    if table.hands == 0:
        raise ConfigError("the pilot logs hold no hands")
    name = agent or table.names[0]
    if name not in table.names:
        raise ConfigError(f"--agent {name!r} is not in the pilot logs (players: {', '.join(table.names)})")
    seat = table.names.index(name)
    mask = table.seats == seat
    values = (table.values * mask).sum(axis=1)[mask.any(axis=1)]
    return values, logs.game, name


def _pilot_match(args: argparse.Namespace) -> tuple[np.ndarray, Any, str, float | str | None]:
    from showdown.evaluation.report import report_json
    from showdown.games.catalog import get_game
    from showdown.matches.agent_words import agents_from_words
    from showdown.matches.config import MatchConfig
    from showdown.matches.runner import run_match

    if not args.game:
        raise ConfigError("--agents needs --game")
    config = MatchConfig(game=args.game, agents=agents_from_words(args.agents), hands=args.pilot_hands, seed=args.seed,
                         out=None, progress=False).check()
    values: list[float] = []

    def on_hand(record: Any) -> None:
        values.append(float(record.values[record.seats.index(0)]))

    report = run_match(config, on_hand=on_hand, notify=lambda _text: None)
    stop_if_interrupted(report.stop_signal)
    first = report_json(report)["agents"][0]
    reduction = first.get("variance_reduction")
    return np.array(values), get_game(args.game), first["name"], reduction


def percent(share: float) -> str:
    """``share`` as a percentage with the decimals it takes not to round to 100% or 0% (a power of
    0.9999999999 read "100% power") nor to another number (0.995: 99.5%, not 100%)."""
    for decimals in range(12):
        text = f"{100 * share:.{decimals}f}"
        if float(text) == 100 * share or 0 < float(text) < 100:
            return f"{text}%"
    return f"{100 * share:g}%"


def stop_if_interrupted(stop_signal: int) -> None:
    """A pilot match that Ctrl-C or SIGTERM stopped stops the command too (exit 130 or 143), rather
    than a plan made from the hands played so far."""
    if stop_signal == 2:  # SIGINT
        raise KeyboardInterrupt
    if stop_signal:
        raise SystemExit(128 + stop_signal)


def plan_handler(args: argparse.Namespace) -> int:
    from showdown.evaluation.confidence import STOPPING_ALPHA, hand_range
    from showdown.evaluation.numbers import counted
    from showdown.evaluation.planning import make_plan
    from showdown.games.catalog import get_game

    if args.pilot_hands < 30:
        raise ConfigError("--pilot-hands must be at least 30")
    if (args.runs is not None and args.runs < 1) or args.max_hands < 100 or not 0 < args.precision < 1:
        raise ConfigError("--runs must be at least 1, --max-hands at least 100, --precision between 0 and 1")
    from showdown.evaluation.planning import MAX_RUNS

    if args.runs is not None and args.runs > MAX_RUNS:  # (a hundred million ran for days)
        raise ConfigError(f"--runs {args.runs:,} is more simulated matches than a plan needs: give at most {MAX_RUNS:,} "
                          "(or --precision: 1,000 at most)")
    reduction: float | str | None = None
    if args.pilot:
        values, game, name = _pilot_from_logs(args.pilot, args.agent, get_game(args.game) if args.game else None)
        if game is None:
            raise ConfigError("the pilot logs do not name a game this tool knows: pass --game")
        source = f"{counted(len(values))} of {name} in {', '.join(Path(p).name for p in args.pilot)}"
    else:
        values, game, name, reduction = _pilot_match(args)
        source = f"a {len(values):,}-hand pilot match, {name} against {args.agents[1]} (seed {args.seed})"
    difference = args.difference if args.difference is not None else args.difference_mbb * game.big_blind / 10.0
    if difference <= 0:
        raise ConfigError("the difference to detect must be above zero")
    exact = reduction == "exact"
    plan = make_plan(values, difference, hand_range(game), alpha=args.alpha, power=args.power, runs=args.runs,
                     precision=args.precision, max_hands=args.max_hands, seed=args.seed, reduction=None if exact or reduction is None else float(reduction))
    if args.json:
        print(json.dumps({"game": game.name, "agent": name, "pilot": source, "pilot_estimator_exact": exact, **plan.to_json()}, indent=1))
        return 0
    level = percent(1 - args.alpha)
    print(f"pilot: {source}; {name}'s result per hand has standard deviation {plan.sd_per_hand:.3f} chips")
    print(f"to tell a win rate of {difference:+g} chips/100 apart from zero ({level} level, {percent(args.power)} power):")
    print(f"  hands fixed in advance, looked at once: {plan.fixed_hands:,}")
    if exact:
        print("  with the pilot's estimator (AIVAT with both strategies known) there is no sampling error: any number of hands")
    elif plan.fixed_hands_reduced is not None:
        print(f"  the same with the pilot's estimator (variance {plan.reduction:.1f}x smaller): {plan.fixed_hands_reduced:,}")
    def shown(n: int | None) -> str:
        return f"{n:,}" if n is not None else f"more than {plan.max_hands:,}"

    anytime_level = "" if args.alpha == STOPPING_ALPHA else f", at its {percent(1 - STOPPING_ALPHA)} level"
    print(f"  showdown match --until-separated (anytime-valid{anytime_level}): median {shown(plan.anytime_median)}, "
          f"{percent(args.power)} of matches by {shown(plan.anytime_power)} (from {plan.runs} simulated matches)")
    if plan.median_precision is not None and plan.median_ci is not None:
        lo, hi = plan.median_ci
        print(f"  the median's 95% interval: [{shown(lo)}, {shown(hi)}] (+-{100 * plan.median_precision:.0f}%)")
    return 0


__all__ = ["MAX_SIMULATED_HANDS", "add_plan_parser", "plan_handler", "stop_if_interrupted"]

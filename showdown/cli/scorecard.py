"""``showdown scorecard BOT --game G``: the bot's duplicate matches against the baselines, ``cfr`` and
the probe opponents, LBR where the bot tells its policy, and its exploitability lower bound, as a
table, ``--json`` or a self-contained HTML page (``matches.scorecard``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from showdown import argtypes
from showdown.errors import ConfigError


def add_scorecard_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("bot", metavar="BOT", help="a built-in agent, a bot file, module:Class, or a command line (quoted; the host and port are appended, or put at its {host} and {port})")
    parser.add_argument("--game", required=True, help="a 2-player catalog game or .game file")
    parser.add_argument("--hands", type=argtypes.sampled_hands, default=2000, help="deals per duplicate match (each played in both seatings; default 2000)")
    parser.add_argument("--lbr-hands", type=argtypes.sampled_hands, default=None, help="LBR hands per action set (default: twice --hands)")
    parser.add_argument("--seed", type=argtypes.seed, default=0, help="seed of every match and of LBR (default 0)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: the number of cores)")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE.html", help="also write the scorecard as an HTML page")
    parser.add_argument("--out", type=Path, metavar="DIR", help="folder of the logs and kept results (default out/scorecard-BOT-GAME); "
                        "a run interrupted resumes from it")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="an option of the bot (repeatable)")
    parser.add_argument("--opponents", metavar="NAME,...", help="only these opponents, comma-separated (default: random, call, "
                        "rules, cfr and every probe): fewer matches, more hands each, for the intervals one needs")
    parser.add_argument("--precision", type=float, metavar="MBB", help="--hands deals are each match's pilot; a match its "
                        "pilot does not decide (interval holding 0, or a win that could be the exploitability bound) is "
                        "played again to a 95%% half-width of MBB mbb/hand, the deals fixed from the pilot's spread (Stein's "
                        "two-stage procedure); a decided one keeps its pilot's interval (e.g. --precision 150)")
    parser.add_argument("--every-match", action="store_true", help="--precision: play every match and LBR set to it, "
                        "those their pilot decided too, so that every interval is within +/-MBB (more deals: see --max-hands)")
    parser.add_argument("--max-hands", type=argtypes.sampled_hands, default=100_000, metavar="N", help="--precision: at most N deals a match "
                        "(default 100000); a match that would need more says its interval is wider than asked")
    parser.add_argument("--no-lbr", action="store_true", help="skip local best response (its hands go to the matches)")
    parser.add_argument("--no-token", action="store_true", help="the bot is a program that cannot send its seat token "
                        "(a foreign ACPC client such as the reference example_player): its seat is guarded by its port only")
    parser.add_argument("--json", action="store_true", help="print the scorecard as JSON")
    parser.set_defaults(handler=scorecard_handler)


def _opponents(text: str | None) -> list[str] | None:
    """``--opponents a,b``: built-in agent names, or None for the default list."""
    if text is None:
        return None
    from showdown.agents.registry import BUILTIN_AGENTS

    opponents = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in opponents if name not in BUILTIN_AGENTS]
    if not opponents or unknown:
        raise ConfigError(f"--opponents: {', '.join(unknown) or 'none given'}: give built-in agent names separated by commas "
                          f"(e.g. --opponents rules,probe-third-raise); the built-in agents: {', '.join(BUILTIN_AGENTS)}")
    return opponents


def _print_scorecard(doc: dict[str, Any], game: str) -> None:
    from showdown.evaluation.numbers import mbb_interval

    print(f"{game}, scorecard of {doc['bot']}: duplicate matches, chance-corrected, seed {doc['seed']}"
          + (f"; every match{'' if doc.get('every_match') else ' not decided by its pilot'} played to "
             f"+/-{doc['precision_mbb']:g} mbb/hand (two-stage)" if doc.get("precision_mbb") else ""))
    names = [*(m["opponent"] for m in doc["matches"]), *(m["name"] for m in doc.get("no_figure", [])),
             *(s["actions"] for s in (doc["lbr"] or {}).get("sets", []))]
    w = max([18, *map(len, names)])  # (probe-third-raise-any, 21 letters, pushed its row out of line)
    print(f"  {'opponent':>{w}}  {'bot wins (mbb/hand)':>20}  95% CI")
    for m in doc["matches"]:
        capped = "  capped: wider than asked" if "(capped)" in m["estimator"] else ""
        if str(m.get("stage", "")).startswith(("decided", "pilot only")):
            capped += f"  {m['stage'].split(':')[0]}"
        print(f"  {m['opponent']:>{w}}  {m['bot_mbb']:+20.1f}  {mbb_interval(m['ci95_mbb'])}  ({m['hands']:,} hands){capped}")
    for m in doc.get("no_figure", []):
        print(f"  {m['name']:>{w}}  no figure: {m['reason']}")
    if doc["lbr"] is not None:
        print(f"  LBR ({doc['lbr']['setting']}):")
        for s in doc["lbr"]["sets"]:
            print(f"  {s['actions']:>{w}}  LBR wins {s['lbr_mbb']:+11.1f}  {mbb_interval(s['ci95_mbb'])}  ({s['hands']:,} hands)")
    else:
        print(f"  LBR not run: {doc['lbr_note']}")
    ci = mbb_interval(doc["exploitability_ci95_mbb"])
    if doc["found_mbb"] > 0:
        print(f"  exploitability lower bound: {doc['exploitability_lower_bound_mbb']:,.1f} mbb/hand {ci} "
              f"({doc['ci95_method']}: the best is chosen after the fact), found by {doc['found_by']}")
    else:  # (it said 'lower bound: 0.0 mbb/hand [-505.3, -344.7]': a bound outside its own interval)
        print(f"  exploitability lower bound: 0 mbb/hand: no opponent or LBR set won from the bot (the nearest, "
              f"{doc['found_by']}: {doc['found_mbb']:+,.1f} {ci})")


def scorecard_handler(args: argparse.Namespace) -> int:
    from showdown.cli.agent import parse_option
    from showdown.cli.probes import bot_spec, no_figure_line, progress_line
    from showdown.games.catalog import get_game
    from showdown.matches.config import check_out_folder
    from showdown.matches.scorecard import run_scorecard

    if args.hands < 2 or args.jobs < 1 or (args.lbr_hands is not None and args.lbr_hands < 2):
        raise ConfigError("--hands and --lbr-hands must be at least 2, --jobs at least 1")
    if args.every_match and args.precision is None:
        raise ConfigError("--every-match plays every match to --precision: give --precision MBB too (e.g. --precision 150)")
    if args.precision is not None and not (args.precision > 0 and args.max_hands >= args.hands):
        raise ConfigError("--precision must be above 0 (mbb/hand) and --max-hands at least --hands (the pilot's deals)")
    game = get_game(args.game)
    if game.num_players != 2:
        raise ConfigError(f"a scorecard is for 2-player games ({args.game} has {game.num_players})")
    bot = bot_spec(args.bot, dict(parse_option(o) for o in args.option), token=not args.no_token)
    opponents = _opponents(args.opponents)
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in f"{bot.display}-{Path(args.game).stem}")
    folder = args.out or Path("out") / f"scorecard-{safe}"
    check_out_folder(Path(folder), "scorecard")  # (a file there was a FileExistsError traceback)
    doc = run_scorecard(args.game, bot, hands=args.hands, seed=args.seed, folder=folder, jobs=args.jobs,
                        lbr_hands=args.lbr_hands, opponents=opponents, lbr=not args.no_lbr, progress=progress_line("scorecard"),
                        precision_mbb=args.precision, max_deals=args.max_hands, every_match=args.every_match)
    unwritten = None
    if args.output is not None:
        from showdown.view.scorecard_page import scorecard_html

        try:
            args.output.write_text(scorecard_html(doc), encoding="utf-8")
        except OSError as exc:  # (was a traceback, and the figures of the whole run were lost with it)
            unwritten = f"cannot write the page {args.output}: {exc.strerror or exc}; the figures are above"
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        _print_scorecard(doc, args.game)
        if args.output is not None and unwritten is None:
            print(f"  page: {args.output}")
    if unwritten is not None:
        raise ConfigError(unwritten)
    if doc["no_figure"]:  # the figures above stand; the card is not whole
        print(no_figure_line("scorecard", [m["name"] for m in doc["no_figure"]], bot.display, args.game, args.bot), file=sys.stderr)
        return 1
    return 0


__all__ = ["add_scorecard_arguments", "scorecard_handler"]

"""``showdown exploit --probes``: the probe opponents (``agents.probes``) against any bot in duplicate,
each probe's win rate with its 95% interval, and the best of them (a lower bound on the bot's
exploitability that needs nothing from the bot)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from showdown.errors import ConfigError, ShowdownError


def bot_spec(word: str, options: dict[str, Any], token: bool = True) -> Any:
    """The seat of the bot under test: a built-in name, a bot file, ``module:Class``, or a command line;
    ``token`` False: a program that sends no seat token (a foreign ACPC client: ``--no-token``)."""
    from dataclasses import replace

    from showdown.matches.agent_words import agent_from_word
    from showdown.matches.config import AgentSpec

    # a file's path is a bot file even with a space in it (it was started as a command line: 'sp' not found)
    spec = AgentSpec(command=word) if " " in word.strip() and not Path(word).is_file() else agent_from_word(word)
    if not token:
        if spec.command is None:
            raise ConfigError(f"--no-token is for a program (a bot file or a command line); {word} sends its seat token itself")
        spec = replace(spec, token=False)
    return replace(spec, options={**dict(spec.options), **options}) if options else spec


def progress_line(what: str) -> Any:
    """A progress callback ``(done, total, current)`` writing one status line (terminals only)."""
    from showdown.status import StatusLine

    status = StatusLine(sys.stderr) if sys.stderr.isatty() else None
    started = time.perf_counter()

    def show(done: int, total: int, current: str) -> None:
        if status is None:
            return
        if done >= total:
            status.finish()
            return
        status.show(f"{what}: {done} of {total} done, playing {current} ({time.perf_counter() - started:,.0f} s)")

    return show


def probes_handler(args: argparse.Namespace) -> int:
    from showdown.agents.probes import PROBES
    from showdown.cli.agent import parse_option
    from showdown.evaluation.numbers import mbb_interval
    from showdown.games.catalog import get_game
    from showdown.matches.config import check_out_folder
    from showdown.matches.probing import best_of, play_opponents

    if args.agent is None or args.game is None:
        raise ConfigError("--probes needs --agent BOT and --game G (e.g. showdown exploit --probes --agent cfr --game holdem-nolimit)")
    if args.strategy is not None:
        raise ConfigError("--probes plays a bot (--agent NAME, a bot file, module:Class or a command), not a strategy file")
    if args.hands < 2:
        raise ConfigError("--hands must be at least 2")
    game = get_game(args.game)
    if game.num_players != 2:
        raise ConfigError(f"probes play 2-player games ({args.game} has {game.num_players})")
    options = dict(parse_option(o) for o in args.option or [])
    bot = bot_spec(args.agent, options, token=not getattr(args, "no_token", False))
    folder = Path(args.out) if args.out else Path("out") / "probes"
    check_out_folder(folder, "probes")  # (a file there was a FileExistsError traceback)
    started = time.perf_counter()
    results, missing = play_opponents(args.game, bot, PROBES, hands=args.hands, seed=args.seed, folder=folder, jobs=args.jobs,
                                      progress=progress_line("probes"))
    if not results:
        raise ShowdownError(f"no probe's match measured {bot.display}: {missing[0].reason}")
    best = best_of(results)
    doc = {"game": args.game, "bot": bot.display, "estimator": "chance (duplicate)", "hands": results[0].hands,
           "seed": args.seed, "probes": [r.to_json() for r in results], "best": best.to_json(),
           "no_figure": [m.to_json() for m in missing], "seconds": time.perf_counter() - started}
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        print(f"{args.game}, {bot.display} against the probes: duplicate, {results[0].hands:,} hands each, chance-corrected, seed {args.seed}")
        w = max(len(n) for n in [*(r.name for r in results), *(m.name for m in missing)])  # the names in one column
        for r in results:
            print(f"  {r.name:>{w}}  wins {r.mbb:+9.1f} mbb/hand  95% CI {mbb_interval(r.ci95_mbb)}")
        for m in missing:
            print(f"  {m.name:>{w}}  no figure: {m.reason}")
        print(f"  best: {best.name} {best.mbb:+.1f} mbb/hand {mbb_interval(best.ci95_mbb)} (the best of {len(results)}: "
              "read its interval with the selection in mind)")
    if missing:  # the figures above stand; the run is not whole
        print(no_figure_line("exploit", [m.name for m in missing], bot.display, args.game, args.agent), file=sys.stderr)
        return 1
    return 0


def no_figure_line(command: str, names: list[str], bot: str, game: str, word: str) -> str:
    """The one line on stderr after a run whose matches against ``names`` measured nothing."""
    return (f"showdown {command}: no figure against {', '.join(names)}: the dealer played for {bot} there (above); "
            f"play `showdown match {game} {names[0]} {shlex.quote(word)}` to see why")


__all__ = ["bot_spec", "no_figure_line", "probes_handler", "progress_line"]

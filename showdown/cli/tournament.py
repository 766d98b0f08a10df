"""``showdown tournament FILE.yaml``: a round robin between agents, resumable; see ``tournament``."""

from __future__ import annotations

import argparse
import json
import sys

__all__ = ["COMMAND_FLAGS", "add_tournament_parser", "run_tournament_command"]


def _configure(p: argparse.ArgumentParser) -> None:
    from showdown.matches.settings import MATCH_SETTINGS, add_flags
    from showdown.matches.tournament_config import TournamentConfig

    p.add_argument("config", metavar="FILE.yaml", help="the tournament file (its keys: the README's table of keys)")
    add_flags(p, MATCH_SETTINGS, "tournament", holder=TournamentConfig,
              notes={"executor": " (ray: pip install 'showdown-poker[cluster]')"})
    p.add_argument("--force", action="store_true", help="replay over their logs the matches the folder holds from other settings "
                   "(another tournament's, or this file changed; refused otherwise)")
    printed = p.add_mutually_exclusive_group()  # (both were taken, and one silently lost)
    printed.add_argument("--json", action="store_true", help="print results.json instead of the tables")
    printed.add_argument("--csv", action="store_true", help="print the cross table as CSV (agent, opponent, hands, per100, interval)")
    p.set_defaults(handler=run_tournament_command)


COMMAND_FLAGS = {
    "--force": "what becomes of an earlier tournament's logs in the folder, not how the tournament is played",
    "--json": "how the results are printed, not how the tournament is played",
    "--csv": "how the results are printed, not how the tournament is played",
}
"""The flags of ``showdown tournament`` that are not settings (the others come from ``matches.settings``)."""


def add_tournament_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``tournament`` subcommand to ``showdown``'s subparsers."""
    p = subparsers.add_parser(
        "tournament",
        description="Play every pair of agents (every seating of every three in 3-player games) as the YAML "
        "file says, print the cross table (row against column, chips per 100 hands with a 95% interval) and "
        "the ranking, and write results.json and each match's logs to the output directory. Running the same "
        "command again resumes: finished matches are kept, unfinished ones replayed. "
        "Example: showdown tournament examples/tournament.yaml",
    )
    _configure(p)
    return p


def run_tournament_command(args: argparse.Namespace) -> int:
    """Handler: validate, play or resume, print. Exit 0 when complete, 128 + the stopping signal (130 Ctrl-C, 143 SIGTERM), 2 when a match failed."""
    from dataclasses import replace

    from showdown.matches.executors import make_executor
    from showdown.matches.settings import MATCH_SETTINGS, flag_values
    from showdown.matches.tournament import run_tournament
    from showdown.matches.tournament_config import load_tournament_config
    from showdown.matches.tournament_results import format_tournament, tournament_json

    cfg = load_tournament_config(args.config)
    given = flag_values(args, MATCH_SETTINGS, "tournament")
    cfg = replace(cfg, **given)
    # where the matches run: the flags' executor, else the file's (chosen by run_tournament)
    executor = make_executor(cfg.executor, cfg.address) if ("executor" in given or "address" in given) else None
    result = run_tournament(cfg, jobs=given.get("jobs"), progress=cfg.progress, executor=executor, force=args.force)
    if args.json:
        print(json.dumps(tournament_json(result), indent=2))
    elif args.csv:
        from showdown.matches.tournament_results import tournament_csv

        print(tournament_csv(tournament_json(result)), end="")
    else:
        print(format_tournament(result))
        print(f"results: {cfg.out / 'results.json'}")
    sys.stdout.flush()
    if result.complete:
        return 0
    # stopped by a signal: 128 + it, as a shell reports; else a match failed (a bot that could not
    # start, ...), which the notes name: exit 2, as showdown match for the same bot
    return 128 + result.stop_signal if result.stop_signal else 2

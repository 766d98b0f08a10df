"""``showdown match GAME AGENT AGENT [...]``: play a match between agents and print the results.

Flags and a YAML file (``--config``) give the same settings; flags win where both are given.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from showdown import argtypes
from showdown.errors import ConfigError

__all__ = ["COMMAND_FLAGS", "add_match_parser", "match_config", "run_match_command"]



COMMAND_FLAGS = {
    "--option": "sets options of the agents named on the command line; in a file they go under an agent's options",
    "--resume": "names a killed match whose own settings (its .match.json) are played on",
    "--config": "names the match file itself",
    "--csv": "how the results are printed, not how the match is played",
    "--json": "how the results are printed, not how the match is played",
    "--no-log": "writes no file; a file's out names the folder they go to",
    "--view": "watches the match in a browser; not a setting of the match",
    "--view-port": "the port of --view",
}
"""The flags of ``showdown match`` that are not match settings, and why no match file has them (the
settings' flags come from ``matches.settings``; a test checks that nothing else is on the parser)."""

_NOTES = {
    "estimator": "; duplicate implies --duplicate",
    "sandbox": " (limits: per agent in YAML)",
    "executor": " (ray: pip install 'showdown-poker[cluster]')",
}


def add_match_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``match`` subcommand to ``showdown``'s subparsers."""
    from showdown.matches.config import DealerSettings, MatchConfig
    from showdown.matches.settings import DEALER_SETTINGS, MATCH_SETTINGS, add_flags

    p = subparsers.add_parser(
        "match",
        description="Start the dealer, launch each agent as a separate process, play, and print each "
        "agent's total and chips per 100 hands (mbb/hand in hold'em) with a 95% confidence interval, "
        "and the same per position, with the difference between agents and its p-value. With --duplicate "
        "every deal is played again with the seats moved and the results are paired; when an agent's "
        "strategy is known (built-in agents in Kuhn/Leduc) the AIVAT estimator removes most of the luck. "
        "Every setting is also a key of a match file (--config), whose values the flags given override. "
        "Example: showdown match kuhn rules random --hands 10000",
    )
    p.add_argument("game", nargs="?", help="catalog name or .game file (or 'game' in --config)")
    p.add_argument("agents", nargs="*", metavar="agent",
                   help="one per seat, seat 1 first: a built-in agent (showdown agent --help lists them), "
                   "your bot as a file (./my_bot.py, ./my_bot), or a Python class module:Class from this folder")
    p.add_argument("-o", "--option", dest="options", action="append", default=[], metavar="[SEAT:]KEY=VALUE",
                   help="an agent option: for every agent that has it, or with SEAT: for that seat only "
                   "(e.g. -o 1:strategy=s.json); repeatable")
    add_flags(p, MATCH_SETTINGS, "match", holder=MatchConfig, notes=_NOTES)
    add_flags(p, DEALER_SETTINGS, "match", holder=DealerSettings)
    p.add_argument("--resume", dest="resume_from", metavar="MATCH", help="continue a killed match from its logs: its .match.json, "
                   "its .log, or the folder holding it (the first unfinished hand, the same cards)")
    p.add_argument("--config", metavar="FILE", help="YAML match file (its keys: the README's table, showdown.matches.settings)")
    printed = p.add_mutually_exclusive_group()  # (both were taken, and --csv silently lost)
    printed.add_argument("--csv", action="store_true", help="print the results as CSV (one row per agent and per position)")
    printed.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--no-log", action="store_true", help="write no log files")
    p.add_argument("--view", action="store_true",
                   help="watch it in a browser: serve the live view of the output folder on 127.0.0.1 (address printed), "
                   "until Ctrl-C after the match (needs pip install 'showdown-poker[view]')")
    p.add_argument("--view-port", type=argtypes.port, default=0, metavar="PORT", help="port of --view (default: a free one)")
    p.set_defaults(handler=run_match_command, agents_anywhere=True)  # (cli/main: agents may follow options)
    return p


def run_match_command(args: argparse.Namespace) -> int:
    """Handler: build the config, play, print the table, JSON or CSV; the exit status: ``exit_status``."""
    from showdown.matches.runner import run_match

    if args.resume_from:
        return _resume(args)
    config = match_config(args)
    stop_view = _start_view(args, config)
    report = run_match(config)
    _print_report(report, args)
    _resume_hint(report)
    if stop_view is not None:
        _keep_view(stop_view)
    return exit_status(report)


def match_config(args: argparse.Namespace) -> Any:
    """The ``MatchConfig`` of the command line: the file's settings (``--config``), the flags on top."""
    from dataclasses import replace

    from showdown.matches.agent_words import agents_from_words
    from showdown.matches.config import DealerSettings, load_match_config, merge_config
    from showdown.matches.settings import DEALER_SETTINGS, MATCH_SETTINGS, flag_values

    if args.agents and len(args.agents) == 1:
        raise ConfigError("a match needs at least two agents, e.g. showdown match kuhn random call")
    if args.options and not args.agents:
        raise ConfigError("-o sets options of the agents named on the command line; in a YAML file put them under 'options'")
    base: dict[str, Any] = load_match_config(args.config) if args.config else {}
    given = flag_values(args, MATCH_SETTINGS, "match")
    dealer = flag_values(args, DEALER_SETTINGS, "match")
    if dealer:
        given["dealer"] = replace(base.get("dealer", DealerSettings()), **dealer)
    if args.game:
        given["game"] = args.game
    if args.agents:
        given["agents"] = agents_from_words(args.agents, args.options)
    if given.get("estimator") == "duplicate":
        given["duplicate"] = True
    if args.no_log and "out" in given:  # (the folder was dropped without a word)
        raise ConfigError("--no-log writes no file and --out names the folder files go to: give one of them")
    if "out" not in base and "out" not in given:
        given["out"] = Path("out")
    config = merge_config(base, **given)
    _check_stopping(config)
    return replace(config, out=None) if args.no_log else config


def _check_stopping(config: Any) -> None:
    """The settings that only make sense together."""
    if (config.until_ci is not None or config.until_separated) and config.duplicate:
        raise ConfigError("--until-ci and --until-separated stop a plain match; give them without --duplicate")
    # (executor: local, the default, is where any match runs: a file that says so is no error)
    if (config.executor not in (None, "local") or config.address) and not config.duplicate:
        raise ConfigError("--executor and --address say where duplicate halves run: add --duplicate")
    if config.jobs is not None and config.jobs > 1 and not config.duplicate:  # (it did nothing, silently)
        raise ConfigError(f"--jobs {config.jobs} plays duplicate halves at once; a plain match is one match: add --duplicate or drop --jobs")


def _resume(args: argparse.Namespace) -> int:
    from showdown.matches.runner import load_match_file, run_match
    from showdown.matches.settings import DEALER_SETTINGS, MATCH_SETTINGS, flag_values

    if args.game or args.agents or args.config:
        raise ConfigError("--resume takes the match's own settings: give no game, agents or --config with it")
    # a setting flag would be ignored (the match is played on as it was started): refused, not silently dropped
    flags = {s.key: s.flag for s in (*MATCH_SETTINGS, *DEALER_SETTINGS)}
    given = [flags[k] for k in (*flag_values(args, MATCH_SETTINGS, "match"), *flag_values(args, DEALER_SETTINGS, "match"))
             if k != "progress"]
    if given or args.options or args.no_log:
        named = ", ".join(str(f) for f in given) or ("-o" if args.options else "--no-log")
        raise ConfigError(f"--resume plays the killed match on with the settings it was started with (its .match.json): "
                          f"{named} cannot change them; give --resume alone (a different match: run it without --resume)")
    report = run_match(load_match_file(args.resume_from))
    _print_report(report, args)
    _resume_hint(report)
    return exit_status(report)


def _resume_hint(report: Any) -> None:
    """After Ctrl-C or SIGTERM, the command that plays the rest (the output said only how far the match
    got, and "the same command plus --resume" is refused: --resume takes the match's own settings)."""
    import re

    from showdown.matches.files import MATCH_FILE_SUFFIX

    if not report.interrupted or report.log_path is None:
        return
    name = re.sub(r"\.dup\d+$", "", Path(report.log_path).name.removesuffix(".log"))  # a duplicate half's log
    match_file = Path(report.log_path).with_name(name + MATCH_FILE_SUFFIX)
    if match_file.exists():
        print(f"showdown match: stopped early: showdown match --resume {match_file} plays the rest", file=sys.stderr)


def _start_view(args: argparse.Namespace, config: Any) -> Callable[[], None] | None:
    if not args.view:
        return None
    if config.out is None:
        raise ConfigError("--view watches the logs: give it with an output folder, not --no-log")
    from showdown.view.server import start_view_thread

    url, stop_view = start_view_thread([Path(config.out)], port=args.view_port)
    print(f"view at {url} (live while the match runs)", file=sys.stderr, flush=True)
    return cast("Callable[[], None]", stop_view)


def _keep_view(stop_view: Callable[[], None]) -> None:
    import threading

    try:  # from before the line that invites Ctrl-C: the signal may come at once
        print("the view stays up: Ctrl-C to stop", file=sys.stderr, flush=True)
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    stop_view()


def _print_report(report: Any, args: argparse.Namespace) -> None:
    from showdown.evaluation.report import format_table, report_json

    if args.json:
        print(json.dumps(report_json(report), indent=2))
    elif args.csv:
        from showdown.evaluation.report import match_csv

        print(match_csv(report_json(report)), end="")
    else:
        print(format_table(report))
    sys.stdout.flush()


def exit_status(report: Any) -> int:
    """0 played in full; 1 aborted, or a file could not be written (a full disk); 3 degraded (the
    dealer played a seat too often); 128 + the signal when stopped early (130 Ctrl-C, 143 SIGTERM),
    as a shell reports it."""
    if getattr(report, "error", None):
        return 1
    if report.interrupted:
        return 128 + (report.stop_signal or 2)
    if report.aborted:
        return 1
    return 3 if report.degraded else 0

"""``showdown check-bot BOT``: what a bot does wrong, before it plays a match (see
``showdown.matches.check_bot``)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from showdown import argtypes
from showdown.errors import ConfigError, did_you_mean

__all__ = ["add_check_bot_parser", "run_check_bot_command"]


def add_check_bot_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``check-bot`` subcommand to ``showdown``'s subparsers."""
    p = subparsers.add_parser(
        "check-bot",
        description="Play scripted situations against a bot and report each check: every street ending in a fold, "
        "checks through to the showdown, all-ins on each street, the limit raise cap, no-limit minimum raises, "
        "raises 1 chip over the minimum and all-ins short of a full raise, both positions, lines split across "
        "packets and several in one packet, many hands, and the match's end; what the bot sent, what was legal "
        "and a hint for each failure; response times against the match's limits. Exit status 0 only when every "
        "check passes. Example: showdown check-bot ./my_bot.py --game holdem-nolimit",
    )
    p.add_argument("bot", nargs="?", help="a built-in agent name, a bot file (./my_bot.py, ./my_bot) or module:Class")
    p.add_argument("--command", dest="bot_command", metavar="CMD", help="any program that connects as an ACPC client: {host} and {port} are "
                   "filled in (appended when absent), e.g. --command './bot {host} {port}'")
    p.add_argument("--game", default="holdem-nolimit", help="catalog name or .game file (default holdem-nolimit)")
    p.add_argument("--seed", type=argtypes.seed, default=0, help="dealing seed of the first check (default 0)")
    p.add_argument("--hands", type=argtypes.hand_count, default=1000, help="hands of the many-hands check (default 1000)")
    p.add_argument("--t-response-ms", type=argtypes.positive, default=7_000, help="time limit of one reply (default 7000)")
    p.add_argument("--t-per-hand-ms", type=argtypes.positive, default=7_000,
                   help="the bot's time limit in one hand, as the dealer's t_per_hand_ms (default 7000)")
    p.add_argument("--deterministic", action="store_true",
                   help="the bot says it plays the same for the same seed: check it (the many-hands check twice)")
    p.add_argument("--only", action="append", metavar="CHECK", help="run only this check (repeatable)")
    p.add_argument("--sandbox", action="store_true",
                   help="run the bot in the sandbox with the default limits, as a tournament would (see showdown match --sandbox)")
    p.add_argument("--limit", action="append", metavar="KEY=VALUE",
                   help="a sandbox limit, as in a match file's limits: mapping (memory_mb=8192 for a JVM bot; repeatable; "
                   "implies --sandbox)")
    p.add_argument("--json", action="store_true", help="print the report as JSON (keys passed, checks, response_times)")
    p.set_defaults(handler=run_check_bot_command)
    return p


def run_check_bot_command(args: argparse.Namespace) -> int:
    """Handler: 0 when every check passed, 1 otherwise."""
    from showdown.agents.registry import agent_names, is_known_agent
    from showdown.games.catalog import get_game
    from showdown.matches.agent_words import agent_from_word
    from showdown.matches.bot_checks import checks_for
    from showdown.matches.check_bot import BotProgram, run_check_bot
    from showdown.matches.config import AgentSpec, check_command
    from showdown.matches.sandbox import Limits

    if args.bot is not None and args.bot_command is not None:
        raise ConfigError(f"{args.bot!r} and --command are two ways to name the bot to check: give one (a built-in "
                          "name, a bot file or module:Class; or --command 'CMD {host} {port}')")
    if args.bot is None and args.bot_command is None:
        raise ConfigError("name the bot to check: a built-in name, a bot file, module:Class, or --command 'CMD {host} {port}'")
    if args.bot_command is not None:
        check_command(args.bot_command, "--command")
    spec = AgentSpec(command=args.bot_command) if args.bot_command is not None else agent_from_word(args.bot)
    if spec.name is not None and ":" not in spec.name and not is_known_agent(spec.name):
        raise ConfigError(f"unknown agent {spec.name!r}: {did_you_mean(spec.name, agent_names())}give a built-in name (showdown agent --help), a bot file, or module:Class")
    from showdown.matches.bot_errors import python_bot_error

    if (error := python_bot_error(spec)) is not None:  # as a match: not the same line in each of the checks
        raise ConfigError(f"{spec.display} cannot start: {error}")
    game = get_game(args.game)
    game.require_servable()
    if args.only:
        known = [c.name for c in checks_for(game, args.hands)]
        unknown = [n for n in args.only if n not in known]
        if unknown:
            raise ConfigError(f"--only {unknown[0]}: no such check for {args.game} (checks: {', '.join(known)})")
    limits = _limits(args.limit) if args.limit else Limits() if args.sandbox else None
    report = run_check_bot(
        BotProgram(spec, spec.display, limits), args.game, seed=args.seed, hands=args.hands, t_response_ms=args.t_response_ms,
        t_per_hand_ms=args.t_per_hand_ms, deterministic=args.deterministic, only=set(args.only) if args.only else None,
    )
    print(json.dumps(report.json(), indent=2) if args.json else report.text())
    sys.stdout.flush()
    return 0 if report.passed else 1


def _limits(items: list[str]) -> Any:
    """``Limits`` from ``--limit KEY=VALUE`` words (values read as ``-o`` reads them), as a match file's
    ``limits:`` mapping (a JVM bot needs more address space than the default: without a way to say
    so, check-bot --sandbox failed it)."""
    from showdown.matches.config import parse_limits

    given: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--limit {item!r}: give KEY=VALUE, like --limit memory_mb=8192")
        given[key.strip()] = argtypes.option_value(value)
    return parse_limits(given, "--limit")

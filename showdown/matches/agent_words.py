"""Agents named on the command line: built-in names, your own bot files, ``module:Class``, options.

``showdown match leduc ./my_bot.py rules`` and ``showdown match leduc my_module:MyBot rules`` need no
YAML: a word that names an existing file is a program (a ``.py`` file runs with this Python, any
other file must be executable), a word with a ``:`` is a Python class importable from the current
folder (an ``Agent`` subclass; it runs in ``showdown agent``), anything else is a built-in agent.
``-o KEY=VALUE`` gives an option to every built-in or class agent that has it; ``-o 2:KEY=VALUE``
gives it only to the agent in seat 2 (seats are numbered from 1, in the order the agents are named).
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from showdown.errors import ConfigError
from showdown.matches.config import AgentSpec, plain_label

__all__ = ["agent_from_word", "agents_from_words", "parse_option"]


OPENSPIEL_PREFIX = "openspiel:"
OPENSPIEL_AGENT = "showdown.interchange.openspiel:OpenSpielAgent"


def agent_from_word(word: str) -> AgentSpec:
    """The seat a command-line word names (see the module docstring)."""
    if not word.strip():  # (was an AgentSpec of no name: an AssertionError traceback when the seats were named)
        raise ConfigError(f"an empty agent name ({word!r}): give a built-in name (showdown agent --help), a bot file, or module:Class")
    if word.startswith(OPENSPIEL_PREFIX):  # an OpenSpiel policy file (showdown.interchange.openspiel)
        policy = Path(word[len(OPENSPIEL_PREFIX):])
        if not policy.is_file():
            raise ConfigError(f"{word}: no such OpenSpiel policy file {policy} (write one with showdown.interchange.openspiel.save_policy)")
        return AgentSpec(name=OPENSPIEL_AGENT, label=plain_label(f"openspiel-{policy.stem}"), options={"policy": str(policy.resolve())})
    path = Path(word)
    if path.is_dir():  # (was 'could not be started: ...: Permission denied', once the match was set up)
        raise ConfigError(f"{word} is a folder, not a bot: give the program in it that plays (e.g. {word.rstrip('/')}/bot.sh)")
    if path.is_file() or (os.sep in word and path.exists()):
        if path.suffix == ".py":
            return AgentSpec(command=shlex.join([sys.executable, str(path.resolve())]), label=plain_label(path.stem))
        if not os.access(path, os.X_OK):
            raise ConfigError(f"{word} is not executable: chmod +x {word}, or give a .py file")
        _check_shebang(word, path)
        return AgentSpec(command=shlex.quote(str(path.resolve())), label=plain_label(path.stem))
    if "/" in word or word.endswith(".py"):
        raise ConfigError(f"no such bot file: {word} (an agent is a built-in name, a bot file, or module:Class)")
    if ":" in word:
        module, _, cls = word.partition(":")
        if not module or not cls:
            raise ConfigError(f"{word!r}: a Python agent is written module:Class, e.g. my_bot:MyBot")
    return AgentSpec(name=word)


def _check_shebang(word: str, path: Path) -> None:
    """A ``#!`` line ending in ``\\r`` (a script saved with Windows line ends) makes the system look for an
    interpreter named ``/bin/sh\\r``: the bot 'could not be started: No such file or directory', of a file
    that is there. Said before the match, with the fix."""
    try:
        with path.open("rb") as f:
            first = f.readline(256)
    except OSError:
        return  # unreadable: starting it says why
    if first.startswith(b"#!") and first.endswith(b"\r\n"):
        raise ConfigError(f"{word}: its first line {first[:-2].decode('latin-1')!r} ends with a carriage return (Windows line ends), "
                          f"so the system finds no interpreter: convert the file with sed -i 's/\\r$//' {shlex.quote(word)} (or dos2unix)")


def parse_option(text: str) -> tuple[int | None, str, Any]:
    """``[SEAT:]KEY=VALUE`` -> (seat from 1, or None for all; key; value as YAML reads it)."""
    import yaml  # type: ignore[import-untyped,unused-ignore]

    head, eq, value = text.partition("=")
    if not eq or not head:
        raise ConfigError(f"-o {text!r}: expected KEY=VALUE or SEAT:KEY=VALUE, e.g. -o iterations=500 or -o 2:strategy=s.json")
    seat: int | None = None
    if ":" in head:
        seat_text, _, head = head.partition(":")
        if not seat_text.isdigit() or int(seat_text) < 1:
            raise ConfigError(f"-o {text!r}: the seat before ':' is a number from 1")
        seat = int(seat_text)
    try:
        parsed = yaml.safe_load(value) if value else ""
    except (yaml.YAMLError, ValueError):  # (ValueError: int() of more than 4,300 digits)
        parsed = value
    if not isinstance(parsed, (str, int, float, bool)):
        parsed = value
    return seat, head.strip(), parsed


def agents_from_words(words: Sequence[str], options: Sequence[str] = ()) -> tuple[AgentSpec, ...]:
    """Specs for the agents named on the command line, with their ``-o`` options applied."""
    from dataclasses import replace

    specs = [agent_from_word(w) for w in words]
    for text in options:
        seat, key, value = parse_option(text)
        if seat is not None and seat > len(specs):
            raise ConfigError(f"-o {text!r}: there are only {len(specs)} seats")
        targets = [seat - 1] if seat is not None else [i for i, s in enumerate(specs) if s.name is not None]
        for i in targets:
            if specs[i].command is not None:
                raise ConfigError(f"-o {text!r}: seat {i + 1} is a program ({words[i]}); give it options on its own command line")
            specs[i] = replace(specs[i], options={**specs[i].options, key: value})
    return tuple(specs)

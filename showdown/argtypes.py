"""Argument types shared by the command-line parsers: whole numbers in a range, with clear messages,
and a parser whose errors are one line."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one line (what is wrong, and where the usage is),
    not the whole usage; its subcommands' parsers are of the same class."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {_cut_words(message)} (usage: {self.prog} --help)\n")

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse makes a formatter for every argument it adds, and one without a width imports
        # shutil (and with it zlib, bz2, lzma) for the terminal's size: 2 ms of every command's start
        formatter = self.formatter_class
        if isinstance(formatter, type) and issubclass(formatter, argparse.HelpFormatter):
            return formatter(prog=self.prog, width=terminal_columns() - 2)
        return super()._get_formatter()


LONGEST_WORD = 200
"""A word of an error longer than this (an argument of 5,000 digits echoed back) is cut to its first 60 characters."""


def _cut_words(message: str) -> str:
    """``message`` with each over-long run of non-blank characters cut (and its length said)."""
    words = message.split(" ")
    if all(len(w) <= LONGEST_WORD for w in words):
        return message
    return " ".join(w if len(w) <= LONGEST_WORD else f"{w[:60]}... ({len(w):,} characters)" for w in words)


def terminal_columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size().columns`` reads it ($COLUMNS, then the
    terminal of stdout, else 80), without importing shutil."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def option_value(text: str) -> Any:
    """An agent option's value from its text (``-o key=value``): an int, a float, true/false, else the text."""
    value: Any = text.strip()
    for convert in (int, float):
        try:
            return convert(value)
        except ValueError:
            pass
    return value.lower() == "true" if value.lower() in ("true", "false") else value


def whole_number(low: int | None = None, high: int | None = None, what: str = "a number") -> Callable[[str], int]:
    """An argparse ``type`` accepting whole numbers in ``[low, high]``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if (low is not None and value < low) or (high is not None and value > high):
            if high is None:
                raise argparse.ArgumentTypeError(f"expected {what} >= {low}, got {value}")
            raise argparse.ArgumentTypeError(f"expected {what} from {low} to {high}, got {value}")
        return value

    return parse


def real_number(low: float, high: float | None = None, what: str = "a number", above: bool = False) -> Callable[[str], float]:
    """An argparse ``type`` accepting finite numbers from ``low`` (above it with ``above``) to ``high``:
    never NaN or infinity, which would make a loop endless or a count meaningless."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        low_ok = value > low if above else value >= low
        if not (math.isfinite(value) and low_ok and (high is None or value <= high)):
            bound = f"above {low:g}" if above else f"at least {low:g}"
            bound += f" and at most {high:g}" if high is not None else ""
            raise argparse.ArgumentTypeError(f"expected {what} {bound}, got {text!r}")
        return value

    return parse


MAX_HANDS = 2**32 - 1  # protocol.logfile.MAX_HANDS, not imported: every command's start reads this module
hand_count = whole_number(1, MAX_HANDS, "a number of hands")
positive = whole_number(1)
non_negative = whole_number(0)
seed = whole_number(0, 2**32 - 1, "a seed")
port = whole_number(0, 65535, "a port")
sampled_hands = whole_number(2, 10**8, "a number of hands")  # sampled work (LBR, a scorecard's deals): 10^8 is days of it

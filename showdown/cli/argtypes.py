"""Argument types shared by the command-line parsers: whole numbers in a range, with clear messages,
and a parser whose errors are one line."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are one line (what is wrong, and where the usage is),
    not the whole usage; its subcommands' parsers are of the same class."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (usage: {self.prog} --help)\n")


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


positive = whole_number(1)
non_negative = whole_number(0)
seed = whole_number(0, 2**32 - 1, "a seed")

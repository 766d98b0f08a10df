"""Argument types shared by the command-line parsers: whole numbers in a range, with clear messages."""

from __future__ import annotations

import argparse
from collections.abc import Callable


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

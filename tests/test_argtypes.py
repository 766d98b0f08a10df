"""The command line's number types: what they take and how they refuse the rest."""

from __future__ import annotations

import argparse

import pytest

from showdown import argtypes
from showdown.protocol.logfile import MAX_HANDS


@pytest.mark.parametrize("text", ["nan", "NaN", "inf", "-inf", "1e400", "abc", "", "-1", "0"])
def test_a_real_number_is_finite_and_in_its_bounds(text: str) -> None:
    parse = argtypes.real_number(0, 100, "a win rate", above=True)
    with pytest.raises(argparse.ArgumentTypeError, match="expected a"):
        parse(text)


def test_a_real_number_takes_what_float_reads() -> None:
    parse = argtypes.real_number(0, 100, "a win rate")
    assert parse("0") == 0.0 and parse("1e1") == 10.0 and parse(" +2.5 ") == 2.5 and parse("100") == 100.0
    unbounded = argtypes.real_number(0)
    assert unbounded("1e300") == 1e300
    with pytest.raises(argparse.ArgumentTypeError, match="at least 0, got 'inf'"):
        unbounded("inf")


def test_a_hand_count_is_what_a_log_can_hold() -> None:
    assert argtypes.MAX_HANDS == MAX_HANDS
    assert argtypes.hand_count(str(MAX_HANDS)) == MAX_HANDS
    for text in ("0", str(MAX_HANDS + 1), "1" + "0" * 30):
        with pytest.raises(argparse.ArgumentTypeError, match=f"from 1 to {MAX_HANDS}"):
            argtypes.hand_count(text)

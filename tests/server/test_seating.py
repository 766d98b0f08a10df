"""What a match must be before the engine serves it (``server.seating.check_match``)."""

from __future__ import annotations

import pytest

from showdown.errors import ShowdownError
from showdown.games.catalog import get_game
from showdown.protocol.logfile import MAX_DIGITS, MAX_HANDS
from showdown.server.seating import check_match


def test_a_hand_count_is_what_a_log_header_can_hold() -> None:
    kuhn = get_game("kuhn")
    check_match(kuhn, ["a", "b"], 0, "fold")
    check_match(kuhn, ["a", "b"], MAX_HANDS, "fold")
    assert len(str(MAX_HANDS)) <= MAX_DIGITS  # a header verify-log and --resume read back
    for hands in (-1, MAX_HANDS + 1, 10**23):
        with pytest.raises(ShowdownError, match=f"number of hands must be 0 to {MAX_HANDS}"):
            check_match(kuhn, ["a", "b"], hands, "fold")

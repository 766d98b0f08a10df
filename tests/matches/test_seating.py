"""Derived seeds: one function, and the same values earlier releases derived (seeded matches replay)."""

from __future__ import annotations

import hashlib

from showdown.matches.seating import agent_seed, half_agent_seed, tournament_match_seed


def _old(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def test_values_are_unchanged_and_distinct() -> None:
    for s in (0, 1, 12345):
        assert agent_seed(s, 1) == _old(f"showdown-agent-seed:{s}:1")
        assert half_agent_seed(s, 0, 1) == agent_seed(s, 1)
        assert half_agent_seed(s, 1, 0) == _old(f"showdown-duplicate-seed:{s}:1:0")
        assert tournament_match_seed(s, "a-vs-b") == _old(f"showdown-tournament:{s}:a-vs-b")
    seeds = {agent_seed(0, 0), agent_seed(0, 1), half_agent_seed(0, 1, 0), tournament_match_seed(0, "x")}
    assert len(seeds) == 4 and all(0 <= x < 2**32 for x in seeds)


def test_a_game_file_from_the_home_folder_is_named_by_its_absolute_path(tmp_path, monkeypatch) -> None:
    """A match file's 'game: ~/my.game' was passed on as written: the log header named '~/my.game'
    (no copy beside the log), which verify-log under another HOME could not find."""
    from showdown.games.catalog import get_game
    from showdown.games.gamedef import format_gamedef
    from showdown.matches.seating import game_argument

    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "my.game").write_text(format_gamedef(get_game("leduc")))
    assert game_argument("~/my.game") == str((tmp_path / "my.game").resolve())

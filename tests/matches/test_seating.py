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

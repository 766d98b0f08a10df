"""Built-in games by short name, shipped as package data, plus ``kuhn-N`` for any N >= 3."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path, PurePath
from typing import NamedTuple

from showdown.errors import GameDefError, did_you_mean
from showdown.games.gamedef import GameDef, load_gamedef, parse_gamedef


class CatalogEntry(NamedTuple):  # not a dataclass: its generated methods cost every command's start
    name: str
    file: str
    description: str


CATALOG: tuple[CatalogEntry, ...] = (
    CatalogEntry("kuhn", "kuhn.limit.2p.game", "Kuhn poker, 2 players: Q K A, ante 1, one bet of 1"),
    CatalogEntry("kuhn3p", "kuhn.limit.3p.game", "Kuhn poker, 3 players: J Q K A, ante 1, one bet of 1"),
    CatalogEntry("leduc", "leduc.limit.2p.game", "Leduc hold'em: 6 cards, 1 hole + 1 board card, bets 2 then 4"),
    CatalogEntry("leduc3p", "leduc.limit.3p.game", "Leduc hold'em, 3 players: 8 cards (J Q K A, 2 suits), bets 2 then 4"),
    CatalogEntry(
        "holdem-limit", "holdem.limit.2p.reverse_blinds.game", "Heads-up limit hold'em, blinds 10/5, reverse blinds"
    ),
    CatalogEntry(
        "holdem-nolimit",
        "holdem.nolimit.2p.reverse_blinds.game",
        "Heads-up no-limit hold'em, blinds 100/50, stacks 20000, reverse blinds",
    ),
    CatalogEntry("holdem-limit-3p", "holdem.limit.3p.game", "3-player limit hold'em, blinds 5/10"),
    CatalogEntry("holdem-nolimit-3p", "holdem.nolimit.3p.game", "3-player no-limit hold'em, blinds 50/100, stacks 20000"),
)
KUHN_N_DESCRIPTION = "N-card Kuhn poker (N >= 3): one suit, N ranks, ante 1, one bet of 1; N <= 13 can be served"
_KUHN_N = re.compile(r"kuhn-(\d+)")
_DATA = Path(__file__).with_name("data")
"""The shipped .game files (read as plain files: importlib.resources would import zipfile and tempfile into every command)."""


@cache
def _builtin(name: str) -> GameDef:
    entry = next(e for e in CATALOG if e.name == name)
    return parse_gamedef(builtin_game_text(name), source=entry.file, name=name)


def builtin_game_text(name: str) -> str:
    """The shipped ``.game`` text of a catalog game (for writing next to logs)."""
    entry = next(e for e in CATALOG if e.name == name)
    return (_DATA / entry.file).read_text(encoding="utf-8")


MAX_KUHN_CARDS = 10_000
"""The largest N of kuhn-N: what a name (or a log header) can ask for stays bounded."""


@cache
def kuhn_n(n: int) -> GameDef:
    """The seeds' N-card Kuhn: one suit, ranks 0..N-1 in the solver's sense; highest card wins."""
    if n < 3:
        raise GameDefError(f"kuhn-{n}: N-card Kuhn needs N >= 3")
    if n > MAX_KUHN_CARDS:
        raise GameDefError(f"kuhn-{n}: at most {MAX_KUHN_CARDS:,} cards (a larger deck is no game anyone can solve or serve)")
    return replace(_builtin("kuhn"), num_ranks=n, name=f"kuhn-{n}")


def game_names() -> list[str]:
    return [e.name for e in CATALOG] + ["kuhn-N"]


def get_game(spec: str | PurePath) -> GameDef:
    """A game by catalog name (``kuhn``, ``kuhn-10``), reference file name, or path to a ``.game`` file."""
    if isinstance(spec, PurePath):
        spec = str(spec)
    if not isinstance(spec, str):
        raise GameDefError(f"a game is a catalog name or a path to a .game file, not {type(spec).__name__} {spec!r:.40}")
    if any(e.name == spec for e in CATALOG):
        return _builtin(spec)
    m = _KUHN_N.fullmatch(spec)
    if m:
        return kuhn_n(int(m.group(1)))
    path = Path(spec).expanduser()  # (a match file's 'game: ~/my.game' reaches here as written)
    if path.exists():  # a file, or a folder or pipe that load_gamedef names as such
        return load_gamedef(path)
    by_file = next((e for e in CATALOG if e.file == path.name), None)
    if by_file is not None:
        return _builtin(by_file.name)
    names = ", ".join(game_names())
    hint = did_you_mean(spec, (e.name for e in CATALOG))
    raise GameDefError(f"unknown game {spec!r}: {hint}give a catalog name ({names}) or a path to a .game file")


def as_game(game: object, who: str) -> GameDef:
    """``game`` itself, or the game its catalog name or path names; for the functions that take
    either. Anything else is a ``GameDefError`` naming ``who`` (not an AttributeError deep inside)."""
    if isinstance(game, GameDef):
        return game
    if isinstance(game, (str, PurePath)):
        return get_game(game)
    raise GameDefError(f"{who}: expected a game (showdown.games.get_game('leduc')) or its name, got {type(game).__name__} {game!r:.40}")


def catalog_name(game: GameDef) -> str | None:
    """The catalog name whose definition equals ``game``, if any."""
    for e in CATALOG:
        if _builtin(e.name) == game:
            return e.name
    return None

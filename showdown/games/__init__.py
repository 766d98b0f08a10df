"""The rules, pure (no I/O): cards, ``.game`` files, the catalog, the rules engine, dealing, hand values.

The engine is one immutable ``State`` used by the dealer, the agents and the solvers; ``get_game``
takes a catalog name or a path to any ACPC ``.game`` file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from showdown._lazy import lazy_exports

if TYPE_CHECKING:
    from showdown.games.cards import format_card, format_cards, parse_card, parse_cards, rank_of, suit_of
    from showdown.games.catalog import game_names, get_game
    from showdown.games.dealing import CardDealer
    from showdown.games.evaluate import hand_values
    from showdown.games.gamedef import Betting, GameDef, format_gamedef, load_gamedef, parse_gamedef
    from showdown.games.hand_value import HandCategory, hand_category
    from showdown.games.infoset import infoset_key
    from showdown.games.state import CALL, FOLD, RAISE, Action, ActionKind, State, format_betting, parse_action, parse_betting

__all__ = [
    "Action",
    "ActionKind",
    "Betting",
    "CALL",
    "CardDealer",
    "FOLD",
    "GameDef",
    "HandCategory",
    "RAISE",
    "State",
    "format_betting",
    "format_card",
    "format_cards",
    "format_gamedef",
    "game_names",
    "get_game",
    "hand_category",
    "hand_values",
    "infoset_key",
    "load_gamedef",
    "parse_action",
    "parse_betting",
    "parse_card",
    "parse_cards",
    "parse_gamedef",
    "rank_of",
    "suit_of",
]

__getattr__, __dir__ = lazy_exports(__name__, __file__)

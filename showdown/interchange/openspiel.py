"""The OpenSpiel bridge (the ``openspiel`` extra): our games as OpenSpiel ``universal_poker`` games,
strategies both ways, and an OpenSpiel tabular policy as a showdown agent.

``openspiel_game(game)`` loads ``universal_poker`` (OpenSpiel's port of the ACPC game definition)
with the ``.game`` file's parameters, so both tools play one game. ``walk_decisions`` visits every
decision of OpenSpiel's tree with our information-set key beside it (the cards OpenSpiel deals are
mapped onto our deck by rank and suit order: ``universal_poker`` keeps the lowest ranks and suits,
we the highest), which is all the conversions need: ``to_openspiel_policy`` (our ``Strategy`` ->
OpenSpiel ``TabularPolicy``) and ``from_openspiel_policy`` (any OpenSpiel policy -> our
``Strategy``). ``OpenSpielAgent`` plays a policy file (``save_policy``: JSON, information-state
string -> action -> probability); ``showdown match leduc openspiel:FILE cfr`` seats it.
Tabular: for the games whose tree can be walked (Kuhn, Leduc and the like).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from showdown.agents.base import LETTER_ACTIONS, infoset_key
from showdown.agents.equilibrium import StrategyAgent
from showdown.errors import ConfigError, ShowdownError
from showdown.games.cards import RANKS, SUITS, Card, deck_ranks, deck_suits, make_card
from showdown.games.catalog import as_game
from showdown.games.gamedef import MAX_RANKS, UNLIMITED_STACK, GameDef
from showdown.games.state import State
from showdown.solvers.strategy import Strategy, StrategyError

__all__ = [
    "OpenSpielAgent", "from_openspiel_policy", "load_policy", "openspiel_game", "save_policy", "to_openspiel_policy",
    "universal_poker_parameters", "walk_decisions",
]  # fmt: skip

LETTER_OF_ACTION = {0: "f", 1: "c", 2: "r"}
"""universal_poker's limit actions (fold, check/call, bet/raise) as our action letters."""


def universal_poker_parameters(game: GameDef) -> dict[str, Any]:
    """The ``universal_poker`` parameters of ``game``: the ``.game`` file's, keyword by keyword."""
    params: dict[str, Any] = {
        "betting": "nolimit" if game.is_nolimit else "limit",
        "numPlayers": game.num_players,
        "numRounds": game.num_rounds,
        "blind": " ".join(map(str, game.blind)),
        "firstPlayer": " ".join(str(p + 1) for p in game.first_player),
        "numSuits": game.num_suits,
        "numRanks": game.num_ranks,
        "numHoleCards": game.num_hole_cards,
        "numBoardCards": " ".join(map(str, game.num_board_cards)),
    }
    if game.is_limit:
        params["raiseSize"] = " ".join(map(str, game.raise_size))
        params["maxRaises"] = " ".join(map(str, game.max_raises))
    else:
        params["bettingAbstraction"] = "fullgame"
    if any(s < UNLIMITED_STACK for s in game.stack):
        params["stack"] = " ".join(map(str, game.stack))
    return params


def limit_reach(game: GameDef) -> int:
    """The most a player can put in a limit hand: the largest blind and every raise the caps allow."""
    return max(game.blind) + sum(size * cap for size, cap in zip(game.raise_size, game.max_raises))


def _fits_universal_poker(game: GameDef, who: str) -> None:
    """Refuse what ``universal_poker`` cannot load, and the limit games whose stacks bind
    (``_stacks_never_bind``). A deck of more than 13 ranks (``kuhn-14`` and up, which the solvers
    take) ended the Python process with a segmentation fault inside OpenSpiel ('invalid number of
    ranks: 14'), no exception to catch."""
    if game.num_ranks > MAX_RANKS:
        raise ShowdownError(f"{who}: {game.name or 'this game'} has {game.num_ranks} ranks, and OpenSpiel's universal_poker "
                            f"(as the ACPC protocol) deals at most {MAX_RANKS} (kuhn-{MAX_RANKS} is the largest N-card Kuhn it holds)")
    _stacks_never_bind(game, who)


def _stacks_never_bind(game: GameDef, who: str) -> None:
    """Refuse a limit game whose stacks the betting can reach. ``universal_poker`` (as the ACPC
    reference) ignores stacks in limit betting: a raise goes past the stack and a player facing an
    all-in may still raise, or fold to one that put in no more than it had, where our rules cap the
    raise at the stack. Its tree is another game; walking it failed deep inside (an illegal raise)."""
    if not game.is_limit or all(s >= limit_reach(game) for s in game.stack):
        return
    raise ShowdownError(f"{who}: OpenSpiel's universal_poker ignores stacks in limit games, and in "
                        f"{game.name or 'this game'} a player can bet up to {limit_reach(game)} chips, more than a stack of "
                        f"{min(game.stack)}: give every player a stack of at least {limit_reach(game)} (or none)")


def openspiel_game(game: GameDef | str) -> Any:
    """``pyspiel.load_game("universal_poker", ...)`` of ``game`` (or of the game its name names);
    a limit game only when its stacks never bind (``universal_poker`` ignores them in limit)."""
    game = as_game(game, "openspiel_game")
    _fits_universal_poker(game, "openspiel_game")
    try:
        import pyspiel
    except ImportError:
        raise ShowdownError("the OpenSpiel bridge needs OpenSpiel: pip install 'showdown-poker[openspiel]'") from None
    return pyspiel.load_game("universal_poker", universal_poker_parameters(game))


def _same_game(game: GameDef | str, os_game: Any, who: str) -> GameDef:
    """``game``, checked to be the one ``os_game`` plays (``openspiel_game(game)``): a policy walked over
    another game's tree failed deep inside (an IndexError on a card, or a wrong table)."""
    game = as_game(game, who)
    _fits_universal_poker(game, who)
    try:
        got = os_game.get_parameters() if os_game.get_type().short_name == "universal_poker" else None
    except AttributeError:
        got = None
    if got is None:
        raise ShowdownError(f"{who}: expected OpenSpiel's universal_poker game (openspiel_game(game)), got {type(os_game).__name__}")
    want = universal_poker_parameters(game)
    if any(str(got.get(k)) != str(v) for k, v in want.items()):
        raise ShowdownError(f"{who}: the OpenSpiel game is not {game.name or 'this game'}: give openspiel_game(game) of the same game")
    return game


def _our_card(text: str, game: GameDef) -> Card:
    """universal_poker's card (``"2c"``: its lowest rank and suit) as ours (same place in our deck)."""
    return make_card(deck_ranks(game.num_ranks)[RANKS.index(text[0])], deck_suits(game.num_suits)[SUITS.index(text[1])])


MAX_WALK_DEALS = 10**6
"""Most deals of the cards a tree walked whole may have (3-player Leduc: 1,680; limit hold'em: 10^15)."""


def _walkable(game: GameDef, who: str) -> None:
    """Refuse a game whose OpenSpiel tree could not be walked in a lifetime (limit hold'em was walked
    for ever, memory growing, as ``TabularPolicy`` of it is built)."""
    if not game.is_limit:
        raise ShowdownError(f"{who}: limit games only (a no-limit tree is too large to walk)")
    deals = math.perm(game.deck_size, game.num_hole_cards * game.num_players + game.total_board_cards)
    if deals > MAX_WALK_DEALS:
        raise ShowdownError(f"{who}: {game.name or 'this game'} has {deals:.1e} deals of the cards, a tree too large to walk "
                            f"(at most {MAX_WALK_DEALS:,}: Kuhn, Leduc and games of their size)")


def walk_decisions(game: GameDef | str, os_game: Any) -> Iterator[tuple[Any, str, list[str]]]:
    """Every decision state of OpenSpiel's tree: (state, our information-set key of the player to
    act, our action letter of each of its legal actions). Limit games (the tabular ones)."""
    game = _same_game(game, os_game, "walk_decisions")
    _walkable(game, "walk_decisions")
    per_player, n = game.num_hole_cards, game.num_players
    # a loop, not a recursion of generators, and what repeats from deal to deal worked out once: our
    # betting state after a letter (cards play no part in it), a key's cards, a chance action's card
    # (3-player Leduc took 16 s of CPU, past the dealer's 15 s start timeout for an openspiel: seat)
    after: dict[tuple[str, str], tuple[State, str]] = {}
    prefixes: dict[tuple[tuple[Card, ...], tuple[Card, ...]], str] = {}
    dealt_card: dict[int, Card] = {}
    Node = tuple[Any, State, str, tuple[tuple[Card, ...], ...], tuple[Card, ...]]  # (its state, ours, our betting, cards)
    stack: list[Node] = [(os_game.new_initial_state(), State.initial(game), "", ((),) * n, ())]
    while stack:
        state, ours, betting, hole, board = stack.pop()
        if state.is_terminal():
            continue
        children: list[Node] = []
        if state.is_chance_node():
            dealt = sum(map(len, hole))
            for action, _ in state.chance_outcomes():
                card = dealt_card.get(action)
                if card is None:
                    card = dealt_card[action] = _our_card(state.action_to_string(action).rsplit(" ", 1)[-1], game)
                if dealt < per_player * n:
                    i = dealt // per_player
                    children.append((state.child(action), ours, betting, (*hole[:i], (*hole[i], card), *hole[i + 1 :]), board))
                else:
                    children.append((state.child(action), ours, betting, hole, (*board, card)))
        else:
            p = state.current_player()
            legal = state.legal_actions()
            letters = [LETTER_OF_ACTION[a] for a in legal]
            prefix = prefixes.get((hole[p], board))
            if prefix is None:
                prefix = prefixes[hole[p], board] = infoset_key(hole[p], board, "", game.num_board_cards)
            yield state, prefix + betting, letters
            for action, letter in zip(legal, letters):
                nxt = after.get((betting, letter))
                if nxt is None:
                    applied = ours.apply(LETTER_ACTIONS[letter])
                    nxt = after[betting, letter] = (applied, applied.betting)
                children.append((state.child(action), *nxt, hole, board))
        stack.extend(reversed(children))


def to_openspiel_policy(game: GameDef | str, os_game: Any, strategy: Strategy) -> Any:
    """Our strategy as OpenSpiel's ``TabularPolicy`` over ``os_game``."""
    from open_spiel.python import policy as os_policy

    if not isinstance(strategy, Strategy):
        raise ShowdownError(f"to_openspiel_policy: expected a Strategy (e.g. solve_sequence_lp(game).strategy), got {type(strategy).__name__}")
    game = _same_game(game, os_game, "to_openspiel_policy")
    _walkable(game, "to_openspiel_policy")  # before OpenSpiel's table of every state is built
    tabular = os_policy.TabularPolicy(os_game)
    written: dict[str, str] = {}
    done: set[str] = set()
    for state, key, letters in walk_decisions(game, os_game):
        if key in done:  # one of our keys is one OpenSpiel information state (the other way round may not hold)
            continue
        done.add(key)
        row = strategy.table.get(key)
        if row is None:
            raise ShowdownError(f"the strategy has no information set {key!r}")
        os_key = state.information_state_string()
        other = written.setdefault(os_key, key)
        if other != key and any(abs(row.get(x, 0.0) - strategy.table[other].get(x, 0.0)) > 1e-12 for x in letters):
            # universal_poker lists the board cards sorted: with cards dealt in two or more rounds its
            # player forgets their order, and one row would silently overwrite another
            raise ShowdownError(f"to_openspiel_policy: OpenSpiel's universal_poker sees {other!r} and {key!r} as one "
                                f"information state (it sorts the board cards, forgetting the order they came in) "
                                f"and the strategy plays them differently: it has no OpenSpiel policy")
        probs = tabular.policy_for_key(os_key)
        probs[:] = 0.0
        for action, letter in zip(state.legal_actions(), letters):
            probs[action] = row.get(letter, 0.0)
    return tabular


def from_openspiel_policy(game: GameDef | str, os_game: Any, policy: Any) -> Strategy:
    """Any OpenSpiel policy over ``os_game`` (``action_probabilities(state)``) as our ``Strategy``."""
    _a_policy(policy, "from_openspiel_policy")
    game = _same_game(game, os_game, "from_openspiel_policy")
    table: dict[str, dict[str, float]] = {}
    for state, key, letters in walk_decisions(game, os_game):
        if key in table:
            continue
        probs = policy.action_probabilities(state)
        table[key] = {letter: float(probs.get(action, 0.0)) for action, letter in zip(state.legal_actions(), letters)}
    return Strategy(game, table)


def _a_policy(policy: Any, who: str) -> None:
    if not callable(getattr(policy, "action_probabilities", None)):
        raise ShowdownError(f"{who}: expected an OpenSpiel policy (with action_probabilities(state), e.g. "
                            f"solver.average_policy()), got {type(policy).__name__}")


def save_policy(policy: Any, os_game: Any, game: GameDef | str, path: str | Path) -> Path:
    """An OpenSpiel policy as a JSON file ``OpenSpielAgent`` reads: the game's parameters and, per
    information-state string, each legal action's probability (no pickle: a file users may share)."""
    _a_policy(policy, "save_policy")
    game = _same_game(game, os_game, "save_policy")
    doc: dict[str, Any] = {"universal_poker": universal_poker_parameters(game), "policy": {}}
    done: set[str] = set()
    for state, ours, _ in walk_decisions(game, os_game):
        if ours in done:  # one of our keys is one OpenSpiel information state
            continue
        done.add(ours)
        key = state.information_state_string()
        if key not in doc["policy"]:
            doc["policy"][key] = {str(a): float(p) for a, p in policy.action_probabilities(state).items()}
    out = Path(path)
    out.write_text(json.dumps(doc, indent=0) + "\n", encoding="utf-8")
    return out


class _FilePolicy:
    """A policy file's table with OpenSpiel's ``action_probabilities`` (what the walk asks)."""

    def __init__(self, table: Mapping[str, Mapping[str, float]], where: str) -> None:
        self.table = table
        self.where = where

    def action_probabilities(self, state: Any) -> dict[int, float]:
        key = state.information_state_string()
        row = self.table.get(key)
        if row is None:
            raise ConfigError(f"{self.where}: no probabilities for the information state {key!r}")
        try:
            return {int(a): float(p) for a, p in row.items()}
        except (AttributeError, TypeError, ValueError):
            raise ConfigError(f"{self.where}: the information state {key!r} has {str(row)[:60]!r}, not an object of "
                              "action numbers and probabilities ({\"0\": 0.5, \"1\": 0.5})") from None


def load_policy(path: str | Path, game: GameDef) -> Strategy:
    """A policy file (``save_policy``) as our ``Strategy`` for ``game``; its parameters must be the game's."""
    p = Path(path)
    if p.exists() and not p.is_file() and not p.is_dir():  # a pipe no one writes to held the agent for ever
        raise ConfigError(f"OpenSpiel policy {p}: not a regular file; write one with showdown.interchange.openspiel.save_policy")
    try:
        doc = json.loads(p.read_text(encoding="utf-8-sig"))  # a byte-order mark (an editor's) is no error
        params, table = doc["universal_poker"], doc["policy"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise ConfigError(f"OpenSpiel policy {p}: cannot read it ({exc}); write it with showdown.interchange.openspiel.save_policy") from None
    if not isinstance(params, dict) or not isinstance(table, dict):  # (a list or a number was an AttributeError traceback)
        raise ConfigError(f"OpenSpiel policy {p}: 'universal_poker' and 'policy' are objects (the game's parameters, and "
                          "per information state each action's probability); write it with showdown.interchange.openspiel.save_policy")
    if {k: str(v) for k, v in params.items()} != {k: str(v) for k, v in universal_poker_parameters(game).items()}:
        raise ConfigError(f"OpenSpiel policy {p}: made for universal_poker({params}), not for {game.name or 'this game'}")
    try:
        return from_openspiel_policy(game, openspiel_game(game), _FilePolicy(table, str(p)))
    except StrategyError as exc:  # (said without the file: "information set 'Qs:/': probability of 'c' is nan")
        raise ConfigError(f"OpenSpiel policy {p}: {exc}") from None


class OpenSpielAgent(StrategyAgent):
    """An OpenSpiel tabular policy (a ``save_policy`` file) playing a seat:
    ``showdown match leduc openspiel:FILE cfr``."""

    def __init__(self, game: GameDef, policy: str, seed: int | None = None) -> None:
        super().__init__(game, load_policy(policy, game), seed)

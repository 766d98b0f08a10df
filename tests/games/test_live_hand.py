"""``LiveHand`` (the dealer's in-place betting) plays exactly the rules of ``State``: on random hands of
every catalog game and of short-stacked variants (all-ins, side pots, run-outs), with random replies
repaired the reference's way, every query agrees after every action, and so do the payoffs."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.errors import IllegalActionError
from showdown.games.cards import make_deck
from showdown.games.catalog import CATALOG, get_game
from showdown.games.evaluate import hand_value
from showdown.games.gamedef import GameDef
from showdown.games.live_hand import LiveHand
from showdown.games.state import Action, ActionKind, State, split_pots


def _games() -> dict[str, GameDef]:
    games = {e.name: get_game(e.name) for e in CATALOG}
    nl3 = get_game("holdem-nolimit-3p")
    games["nolimit-3p-short"] = replace(nl3, stack=(300, 1000, 5000))
    games["nolimit-2p-short"] = replace(get_game("holdem-nolimit"), stack=(250, 20000))
    games["limit-3p-short"] = replace(get_game("holdem-limit-3p"), stack=(30, 60, 1000))
    return games


GAMES = _games()


def _reply(state: State, rng: random.Random) -> Action:
    """Any reply a seat might send: legal or not, no-limit sizes in and out of range."""
    kind = rng.choice(list(ActionKind))
    if kind is ActionKind.RAISE and state.game.is_nolimit:
        bounds = state.raise_bounds()
        lo, hi = bounds if bounds is not None else (1, max(state.game.stack))
        return Action(kind, rng.choice([lo, hi, rng.randint(lo, hi), rng.randint(-5, lo), hi + rng.randint(1, 999)]))
    return Action(kind)


def _agree(live: LiveHand, state: State) -> None:
    assert live.finished == state.finished
    assert live.betting == state.betting
    assert live.round == state.round
    assert tuple(live.spent) == state.spent and tuple(live.folded) == state.folded
    assert live.is_showdown == state.is_showdown
    if not state.finished:
        assert live.player == state.current_player
        assert live.can_fold() == state.can_fold()
        assert live.raise_bounds() == state.raise_bounds()


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(GAMES)), st.integers(0, 2**32 - 1))
def test_live_hand_plays_the_rules_of_state(name: str, seed: int) -> None:
    game = GAMES[name]
    rng = random.Random(seed)
    live = LiveHand(game)
    deck = list(make_deck(game.num_ranks, game.num_suits))
    c = game.num_hole_cards
    for _ in range(4):  # a few hands in a row: reset starts each afresh
        rng.shuffle(deck)
        hole = tuple(tuple(deck[p * c : (p + 1) * c]) for p in range(game.num_players))
        board = tuple(deck[game.num_players * c : game.num_players * c + sum(game.num_board_cards)])
        state = State.initial(game, hole, board)
        live.reset()
        _agree(live, state)
        while not state.finished:
            assert live.as_state(hole, board) == state  # the replay the engine's rare paths use
            reply = _reply(state, rng)
            played, warning = state.repair(reply)
            assert live.repair(reply) == (played, warning)
            state = state.apply(played)
            live.apply(played)
            _agree(live, state)
        strengths = [hand_value(h + board) for h in hole]  # the whole board: showdowns are in the last round
        assert split_pots(live.spent, live.folded, strengths if live.is_showdown else ()) == state.payoffs()
        assert live.as_state(hole, board) == state


def test_a_finished_hand_has_nothing_to_repair() -> None:
    live = LiveHand(get_game("holdem-nolimit"))
    live.apply(Action(ActionKind.FOLD))
    assert live.finished and live.player == -1 and live.raise_bounds() is None and not live.can_fold()
    with pytest.raises(IllegalActionError):
        live.repair(Action(ActionKind.CALL))
    assert split_pots(live.spent, live.folded, ()) == State.initial(live.game).apply(Action(ActionKind.FOLD)).payoffs()

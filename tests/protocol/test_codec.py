"""The fast MATCHSTATE codecs say exactly what the plain reference functions say, on random hands of
every catalog game: the dealer's encoder against ``format_matchstate(view_of(...))``, a seat's
decoder against ``parse_matchstate``."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.errors import ProtocolError
from showdown.games.cards import make_deck
from showdown.games.catalog import CATALOG, get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import Action, ActionKind, State
from showdown.protocol.codec import MatchStateDecoder, MatchStateEncoder
from showdown.protocol.matchstate import format_matchstate, parse_matchstate, view_of

GAMES = [e.name for e in CATALOG]


def _random_hand(game: GameDef, rng: random.Random) -> list[State]:
    """The states of one hand dealt and played at random (no-limit raises of any size)."""
    deck = list(make_deck(game.num_ranks, game.num_suits))
    rng.shuffle(deck)
    c = game.num_hole_cards
    hole = tuple(tuple(deck[p * c : (p + 1) * c]) for p in range(game.num_players))
    board = tuple(deck[game.num_players * c : game.num_players * c + sum(game.num_board_cards)])
    state = State.initial(game, hole, board)
    states = [state]
    while not state.is_terminal:
        action = rng.choice(state.legal_actions())
        if action.kind is ActionKind.RAISE and game.is_nolimit:
            lo, hi = state.raise_bounds()  # type: ignore[misc]
            action = Action(ActionKind.RAISE, rng.choice([lo, hi, rng.randint(lo, hi)]))
        state = state.apply(action)
        states.append(state)
    return states


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1), st.integers(0, 10**6))
def test_the_encoder_writes_what_view_of_and_format_matchstate_write(name: str, seed: int, hand: int) -> None:
    game = get_game(name)
    rng = random.Random(seed)
    encoder = MatchStateEncoder(game)
    for k in range(3):  # a few hands in a row, one codec
        states = _random_hand(game, rng)
        encoder.new_hand(hand + k, states[0].hole, states[0].board)
        for state in states:
            if state.is_terminal:
                encoder.reveal(state.round, state.folded)
            elif state.round != encoder.round:
                encoder.set_round(state.round)
            for p in range(game.num_players):
                assert encoder.line(p, state.betting) == format_matchstate(view_of(state, p, hand + k))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32 - 1), st.data())
def test_the_decoder_reads_what_parse_matchstate_reads(name: str, seed: int, data: st.DataObject) -> None:
    game = get_game(name)
    rng = random.Random(seed)
    decoder = MatchStateDecoder(game)
    position = data.draw(st.integers(0, game.num_players - 1))
    for hand in range(3):
        states = _random_hand(game, rng)
        shown = [s for s in states if data.draw(st.booleans()) or s.is_terminal]  # a seat may miss lines
        for i, state in enumerate(shown):
            line = format_matchstate(view_of(state, position, hand))
            new_hand = decoder.read(line)
            assert new_hand == (i == 0)
            want = parse_matchstate(line, game)
            assert (decoder.position, decoder.hand, decoder.betting) == (want.position, want.hand, want.betting_text)
            assert decoder.hole == want.hole and decoder.own == want.own_cards and decoder.board == want.board_cards
            replayed = want.to_state(game)
            assert decoder.state.betting == replayed.betting and decoder.state.finished == replayed.finished
            if not replayed.finished:
                assert decoder.state.current_player == replayed.current_player


@pytest.mark.parametrize(
    "line",
    ["HELLO", "MATCHSTATE:0:1:cc", "MATCHSTATE:x:1::Ks|", "MATCHSTATE:0:1:rrrrrr:Ks|", "MATCHSTATE:0:1::Ks|Qs|Js", "MATCHSTATE:0:1::Zz|"],
)
def test_the_decoder_refuses_lines_it_cannot_follow(line: str) -> None:
    with pytest.raises(ProtocolError):
        MatchStateDecoder(get_game("kuhn")).read(line)


@pytest.mark.parametrize("game_name, line, said", [
    ("leduc", "MATCHSTATE:0:0::Ks|/Ks", "the board's rounds show 0/1 cards"),  # a board before its round
    ("leduc", "MATCHSTATE:1:0:r/:|Kh/KhQh", "the board's rounds show 0/1 cards"),
    ("leduc", "MATCHSTATE:1:0:r:|Kh/Kh", "the board's rounds show 0/1 cards"),
    ("kuhn", "MATCHSTATE:0:0::Ks|Ks", "a card is shown twice"),  # the other seat holds our card
    ("leduc", "MATCHSTATE:0:0:cc/:Ks|/Ks", "a card is shown twice"),  # the board is our card
    ("holdem-limit", "MATCHSTATE:0:0::As|", "a seat's hole cards are 2 (or hidden)"),
])
def test_the_decoder_refuses_cards_no_deal_could_show(game_name: str, line: str, said: str) -> None:
    # they reached the agents: 'card 47 appears twice in one hand' (rules), 'no information set Ks:Ks/' (cfr)
    with pytest.raises(ProtocolError, match=f"bad cards in .*: {re.escape(said)}"):
        MatchStateDecoder(get_game(game_name)).read(line)

"""The OpenSpiel bridge and our rules engine offer the same actions: on random paths of several limit
games (with and without stacks) OpenSpiel's ``universal_poker`` and ``showdown.games.state`` agree
at every decision, and a limit game whose stacks the betting can reach (where ``universal_poker``,
ignoring stacks, offers a raise past the stack, or a fold to a player facing an all-in that put in no
more than it had) is refused in one line instead of failing deep in the walk."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import pyspiel  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from showdown.agents.base import LETTER_ACTIONS, infoset_key  # noqa: E402
from showdown.errors import ShowdownError  # noqa: E402
from showdown.games.catalog import get_game  # noqa: E402
from showdown.games.gamedef import GameDef, parse_gamedef  # noqa: E402
from showdown.games.state import Action, ActionKind, State  # noqa: E402
from showdown.interchange.openspiel import (  # noqa: E402
    LETTER_OF_ACTION,
    _our_card,
    from_openspiel_policy,
    limit_reach,
    openspiel_game,
    universal_poker_parameters,
    walk_decisions,
)


def _leduc(stacks: tuple[int, ...]) -> GameDef:
    n = len(stacks)
    return parse_gamedef(f"GAMEDEF\nlimit\nnumPlayers = {n}\nnumRounds = 2\nblind = {' '.join(['1'] * n)}\nraiseSize = 2 4\n"
                         f"firstPlayer = 1 1\nmaxRaises = 2 2\nnumSuits = 2\nnumRanks = {n + 1}\nnumHoleCards = 1\n"
                         f"numBoardCards = 0 1\nstack = {' '.join(map(str, stacks))}\nEND GAMEDEF\n")


GAMES = {
    "kuhn": get_game("kuhn"), "kuhn3p": get_game("kuhn3p"), "leduc": get_game("leduc"), "leduc3p": get_game("leduc3p"),
    "leduc 13/13": _leduc((13, 13)), "leduc 13/40": _leduc((13, 40)), "leduc 40/14": _leduc((40, 14)),
    "leduc3p 13/20/13": _leduc((13, 20, 13)),
}  # fmt: skip
LOADED = {name: openspiel_game(game) for name, game in GAMES.items()}


@settings(max_examples=150, deadline=None, derandomize=True)
@given(name=st.sampled_from(sorted(GAMES)), data=st.data())
def test_openspiel_and_our_rules_offer_the_same_actions_on_random_paths(name: str, data: st.DataObject) -> None:
    game = GAMES[name]
    state, ours = LOADED[name].new_initial_state(), State.initial(game)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(data.draw(st.sampled_from([a for a, _ in state.chance_outcomes()])))
            continue
        assert not ours.finished and state.current_player() == ours.current_player, ours.betting
        theirs = [LETTER_OF_ACTION[a] for a in state.legal_actions()]
        assert sorted(theirs) == sorted(str(a)[0] for a in ours.legal_actions()), f"{name} at '{ours.betting}'"
        action = data.draw(st.sampled_from(state.legal_actions()))
        state.apply_action(action)
        ours = ours.apply(LETTER_ACTIONS[LETTER_OF_ACTION[action]])
    assert ours.finished
    if not ours.is_showdown:  # (our state holds no cards: a showdown's winner is OpenSpiel's to say)
        assert list(state.returns()) == list(ours.payoffs())


@pytest.mark.parametrize("stacks", [(3, 10), (10, 3), (12, 40), (5, 5), (2, 9, 4), (13, 13, 12)])
def test_a_limit_game_whose_stacks_bind_is_refused_in_one_line(stacks: tuple[int, ...]) -> None:
    # universal_poker ignores limit stacks: in (3, 10) after 'cc/' it offered a bet our rules refuse (the
    # walk failed with "illegal action r at 'cc/r'"), after 'crr' a fold to a player facing an all-in
    game = _leduc(stacks)
    assert min(stacks) < limit_reach(game) == 13
    says = rf"^openspiel_game: OpenSpiel's universal_poker ignores stacks in limit games, .* more than a stack of {min(stacks)}: give every player a stack of at least 13"
    with pytest.raises(ShowdownError, match=says):
        openspiel_game(game)
    loaded = pyspiel.load_game("universal_poker", universal_poker_parameters(game))  # made without the bridge
    with pytest.raises(ShowdownError, match=r"^walk_decisions: OpenSpiel's universal_poker ignores stacks"):
        next(walk_decisions(game, loaded))
    with pytest.raises(ShowdownError, match=r"^from_openspiel_policy: OpenSpiel's universal_poker ignores stacks"):
        from_openspiel_policy(game, loaded, _Uniform())


class _Uniform:
    def action_probabilities(self, state: object) -> dict[int, float]:
        legal = state.legal_actions()  # type: ignore[attr-defined]
        return {a: 1 / len(legal) for a in legal}


def test_a_deck_of_more_than_13_ranks_is_refused_not_a_crash() -> None:
    """kuhn-14 (which the solvers take) ended the process with a segmentation fault inside OpenSpiel
    ('invalid number of ranks: 14'): nothing to catch, no line of ours."""
    with pytest.raises(ShowdownError, match=r"^openspiel_game: kuhn-14 has 14 ranks, and OpenSpiel's universal_poker .* at most 13"):
        openspiel_game("kuhn-14")
    with pytest.raises(ShowdownError, match=r"^from_openspiel_policy: kuhn-20 has 20 ranks"):
        from_openspiel_policy("kuhn-20", openspiel_game("kuhn-13"), _Uniform())
    assert openspiel_game("kuhn-13").num_distinct_actions() == 3


SHIPPED = ("kuhn", "kuhn3p", "leduc", "leduc3p", "holdem-limit", "holdem-nolimit", "holdem-limit-3p", "holdem-nolimit-3p")
SHIPPED_LOADED = {name: openspiel_game(name) for name in SHIPPED}


@settings(max_examples=120, deadline=None, derandomize=True)
@given(name=st.sampled_from(SHIPPED), data=st.data())
def test_every_shipped_game_agrees_with_our_rules_on_actions_chance_returns_and_information_states(name: str, data: st.DataObject) -> None:
    """On a random path of any catalog game, no-limit hold'em included: the same player to act and
    actions (no-limit: fold, call and the same raise range), chance outcomes of the cards not yet
    dealt, equal returns with the cards mapped onto our deck, and OpenSpiel's information-state string
    telling apart exactly what our information-set key does along the path."""
    game = get_game(name)
    state, ours = SHIPPED_LOADED[name].new_initial_state(), State.initial(game)
    hole: list[list[int]] = [[] for _ in range(game.num_players)]
    board: list[int] = []
    keys: dict[str, str] = {}
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            dealt = sum(map(len, hole)) + len(board)
            assert len(outcomes) == game.deck_size - dealt and abs(sum(p for _, p in outcomes) - 1) < 1e-9
            action = data.draw(st.sampled_from([a for a, _ in outcomes]))
            card = _our_card(state.action_to_string(action).rsplit(" ", 1)[-1], game)
            if len(hole[-1]) < game.num_hole_cards:
                next(h for h in hole if len(h) < game.num_hole_cards).append(card)
            else:
                board.append(card)
            state.apply_action(action)
            continue
        p = state.current_player()
        assert not ours.finished and p == ours.current_player, ours.betting
        legal = state.legal_actions()
        if game.is_limit:
            assert sorted(LETTER_OF_ACTION[a] for a in legal) == sorted(str(a)[0] for a in ours.legal_actions())
        else:
            raises = [a for a in legal if a >= 2]
            assert (0 in legal, 1 in legal) == (ours.can_fold(), True)
            assert ((min(raises), max(raises)) if raises else None) == ours.raise_bounds(), ours.betting
        key = infoset_key(tuple(hole[p]), tuple(board), ours.betting, game.num_board_cards)
        assert keys.setdefault(state.information_state_string(), key) == key
        assert len(set(keys.values())) == len(keys)  # one string per key, one key per string
        action = data.draw(st.sampled_from(legal[:3] + legal[-1:]))  # fold, call, the least and the largest raise
        state.apply_action(action)
        ours = ours.apply(LETTER_ACTIONS[LETTER_OF_ACTION[action]] if game.is_limit or action < 2 else Action(ActionKind.RAISE, action))
    assert ours.finished
    assert [float(v) for v in state.returns()] == list(ours.with_cards(hole, board).payoffs())

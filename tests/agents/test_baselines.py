"""The baseline agents behave as documented: random, call, bluff, rules; and their strategy tables."""

from __future__ import annotations

import pytest

from showdown.agents import View, make_agent
from showdown.agents.base import PolicyAgent, check_policy, decision_views
from showdown.agents.rules import MEDIUM, STRONG, WEAK, strength_class
from showdown.errors import ConfigError, SolverError
from showdown.games.cards import parse_cards
from showdown.games.catalog import get_game
from showdown.games.dealing import CardDealer
from showdown.games.state import ActionKind, State

LIMIT_GAMES = ["kuhn", "kuhn3p", "leduc"]
ALL_GAMES = ["kuhn", "kuhn3p", "leduc", "holdem-limit", "holdem-nolimit", "holdem-limit-3p", "holdem-nolimit-3p"]


def play_out(game_name: str, names: list[str], hands: int, seed: int = 0) -> list[list[tuple[str, str]]]:
    """Play ``hands`` hands in-process (views as the client builds them); the (infoset, action) log per agent."""
    game = get_game(game_name)
    agents = [make_agent(n, game, {"seed": 10 + i}) for i, n in enumerate(names)]
    log: list[list[tuple[str, str]]] = [[] for _ in names]
    cards = CardDealer(game, seed)
    for h in range(hands):
        hole, board = cards.deal()
        state = State.initial(game, hole, board)
        while not state.finished:
            p = state.current_player
            view = View.of(state, p, h)
            action = agents[p].act(view)
            assert state.why_illegal(action) is None, (names[p], view, action)
            log[p].append((view.infoset_key, str(action)))
            state = state.apply(action)
    return log


def kuhn_view(key: str) -> View:
    """The view of position p in Kuhn at ``"Ks:/cr"``-style key (the acting player's infoset)."""
    game = get_game("kuhn")
    cards_text, betting = key.split(":/")
    own = parse_cards(cards_text)
    state = State.initial(game).apply_betting(betting)
    p = state.current_player
    hole = tuple(own if q == p else () for q in range(2))
    return View(game, p, 0, state, own, (), betting, hole)


# ----------------------------------------------------------------------------- random


def test_random_is_reproducible_with_a_seed_and_varies_without() -> None:
    a = play_out("leduc", ["random", "random"], 200)
    b = play_out("leduc", ["random", "random"], 200)
    assert a == b
    game = get_game("leduc")
    other = [make_agent("random", game, {"seed": s}) for s in (1, 2)]
    view = View.of(State.initial(game, ((0,), (4,)), (8,)), 1)
    picks = [[str(o.act(view)) for _ in range(50)] for o in other]
    assert picks[0] != picks[1]


def test_random_is_uniform_over_legal_kinds_and_folds_only_facing_a_bet() -> None:
    game = get_game("leduc")
    agent = make_agent("random", game, {"seed": 1})
    assert isinstance(agent, PolicyAgent)
    for view in decision_views(game):
        policy = agent.policy(view)
        check_policy(policy)
        assert ("f" in policy) == view.can_fold()
        assert ("r" in policy) == view.can_raise()
        assert len(set(policy.values())) == 1
    counts = {"f": 0, "c": 0, "r": 0}
    facing = kuhn_view("Ks:/r")
    kuhn_agent = make_agent("random", get_game("kuhn"), {"seed": 4})
    for _ in range(3000):
        counts[str(kuhn_agent.act(facing))] += 1
    assert counts["r"] == 0 and abs(counts["f"] - counts["c"]) < 250  # raise capped at one bet in Kuhn


@pytest.mark.parametrize("sizing", ["uniform", "pot"])
def test_random_no_limit_sizes_are_legal(sizing: str) -> None:
    game = get_game("holdem-nolimit")
    agent = make_agent("random", game, {"seed": 3, "sizing": sizing})
    sizes = set()
    cards = CardDealer(game, 1)
    for h in range(200):
        hole, board = cards.deal()
        state = State.initial(game, hole, board)
        while not state.finished:
            action = agent.act(View.of(state, state.current_player, h))
            assert state.why_illegal(action) is None
            if action.kind is ActionKind.RAISE:
                sizes.add(action.size)
            state = state.apply(action)
    assert len(sizes) > 5


def test_random_rejects_an_unknown_sizing() -> None:
    with pytest.raises(ConfigError, match="sizing"):
        make_agent("random", get_game("holdem-nolimit"), {"sizing": "huge"})


# ----------------------------------------------------------------------------- call and bluff


@pytest.mark.parametrize("game_name", ALL_GAMES)
def test_call_only_calls_and_bluff_never_folds(game_name: str) -> None:
    game = get_game(game_name)
    names = ["call", "bluff"] + ["bluff"] * (game.num_players - 2)
    log = play_out(game_name, names, 20 if game.is_nolimit else 100, seed=2)  # min-raise wars are long
    assert {a for _, a in log[0]} == {"c"}
    bluff_actions = [a for seat in log[1:] for _, a in seat]
    assert bluff_actions and not any(a == "f" for a in bluff_actions)
    assert any(a.startswith("r") for a in bluff_actions)


@pytest.mark.parametrize("game_name", LIMIT_GAMES)
def test_bluff_table_raises_whenever_allowed_and_never_folds(game_name: str) -> None:
    game = get_game(game_name)
    table = make_agent("bluff", game).strategy_table(game)
    for view in decision_views(game):
        assert table[view.infoset_key] == ({"r": 1.0} if view.can_raise() else {"c": 1.0})


@pytest.mark.parametrize("size,expected", [("min", 200), ("pot", 300), ("allin", 20000)])
def test_bluff_no_limit_sizes(size: str, expected: int) -> None:
    game = get_game("holdem-nolimit")
    state = State.initial(game, ((0, 1), (2, 3)), (4, 5, 6, 7, 8))  # small blind 50 to act, pot 150
    action = make_agent("bluff", game, {"size": size}).act(View.of(state, 1))
    assert action.kind is ActionKind.RAISE and action.size == expected


# ----------------------------------------------------------------------------- rules


def test_rules_in_kuhn_follow_the_documented_rules_exactly() -> None:
    # A: bet, or call a bet; K: check, call a bet; Q: check, fold to a bet.
    expected = {
        "As:/": "r", "As:/c": "r", "As:/r": "c", "As:/cr": "c",
        "Ks:/": "c", "Ks:/c": "c", "Ks:/r": "c", "Ks:/cr": "c",
        "Qs:/": "c", "Qs:/c": "c", "Qs:/r": "f", "Qs:/cr": "f",
    }  # fmt: skip
    game = get_game("kuhn")
    table = make_agent("rules", game).strategy_table(game)
    assert table == {key: {letter: 1.0} for key, letter in expected.items()}
    agent = make_agent("rules", game)
    for key, letter in expected.items():
        assert str(agent.act(kuhn_view(key))) == letter


def test_rules_in_three_player_kuhn_only_the_ace_bets() -> None:
    game = get_game("kuhn3p")
    table = make_agent("rules", game).strategy_table(game)
    for key, policy in table.items():
        card = key[0]
        if policy == {"r": 1.0}:
            assert card == "A"
        if policy == {"f": 1.0}:
            assert card in "JQ"
        if card == "K":
            assert policy == {"c": 1.0}


@pytest.mark.parametrize(
    "hole,board,expected",
    [
        ("Ah", "", STRONG), ("Ks", "", MEDIUM), ("Qh", "", WEAK),  # Leduc before the board
        ("Qh", "Qs", STRONG), ("Ah", "Ks", MEDIUM), ("Kh", "As", WEAK),  # Leduc after it
    ],
)  # fmt: skip
def test_rules_strength_classes_in_leduc(hole: str, board: str, expected: int) -> None:
    game = get_game("leduc")
    view = View(game, 0, 0, State.initial(game), parse_cards(hole), parse_cards(board), "")
    assert strength_class(view) == expected


@pytest.mark.parametrize(
    "hole,board,expected",
    [
        ("TsTd", "", STRONG), ("AsQd", "", STRONG), ("5s5d", "", MEDIUM), ("Ah2d", "", MEDIUM),
        ("KsJd", "", MEDIUM), ("9s2d", "", WEAK),
        ("AsKd", "AhKh2c", STRONG),  # two pair with both hole cards
        ("As2d", "AhKh7c", MEDIUM),  # one pair using a hole card
        ("3s2d", "AhAd7c", WEAK),  # the pair is the board's
        ("9s8s", "7s6d5c", STRONG),  # a straight
        ("Qs2d", "Ah9h7c", WEAK),  # nothing
    ],
)  # fmt: skip
def test_rules_strength_classes_in_holdem(hole: str, board: str, expected: int) -> None:
    game = get_game("holdem-limit")
    view = View(game, 0, 0, State.initial(game), parse_cards(hole), parse_cards(board), "")
    assert strength_class(view) == expected


def test_rules_leduc_table_is_deterministic_and_complete() -> None:
    game = get_game("leduc")
    table = make_agent("rules", game).strategy_table(game)
    keys = {view.infoset_key for view in decision_views(game)}
    assert set(table) == keys
    assert all(len(p) == 1 and list(p.values()) == [1.0] for p in table.values())
    assert table["Qh:Qs/rc/"] == {"r": 1.0}  # a pair on the board is strong
    assert table["Qh:/r"] == {"f": 1.0}  # the lowest card folds to a bet before the board


def test_rules_no_limit_medium_hands_fold_to_overbets() -> None:
    game = get_game("holdem-nolimit")
    agent = make_agent("rules", game)
    hole = (parse_cards("AhKh"), parse_cards("5s5d"))  # a medium pair at position 1 (small blind)
    state = State.initial(game, hole, parse_cards("2c3d9hTcJs"))
    state = state.apply(state.legal_actions()[1])  # the small blind acts first: it calls
    assert state.current_player == 0
    pot_size = state.apply(make_raise(state, 300))  # a bet of 200 into a pot of 200
    assert str(agent.act(View.of(pot_size, 1))) == "c"
    over = state.apply(make_raise(state, 400))  # 300 into 200: more than the pot
    assert str(agent.act(View.of(over, 1))) == "f"
    big = state.apply(make_raise(state, 5000))
    assert str(agent.act(View.of(big, 1))) == "f"


def make_raise(state: State, to: int):
    from showdown.games.state import Action

    return Action(ActionKind.RAISE, to)


# ----------------------------------------------------------------------------- tables


def test_kuhn_has_twelve_information_sets() -> None:
    game = get_game("kuhn")
    keys = [v.infoset_key for v in decision_views(game)]
    assert len(keys) == len(set(keys)) == 12
    assert "Ks:/cr" in keys


def test_leduc_tables_have_the_documented_key_form() -> None:
    game = get_game("leduc")
    table = make_agent("call", game).strategy_table(game)
    assert "Qh:Kh/rrc/r" in table and table["Qh:Kh/rrc/r"] == {"c": 1.0}
    # 6 round-1 decision points x 6 cards + 30 round-2 points x 30 (card, board) pairs
    assert len(table) == 6 * 6 + 30 * 30 == 936
    rng_table = make_agent("random", game).strategy_table(game)
    assert set(rng_table) == set(table)


def test_no_limit_has_no_table() -> None:
    with pytest.raises(SolverError):
        make_agent("rules", get_game("holdem-nolimit")).strategy_table()
    with pytest.raises(SolverError):
        from showdown.agents import Agent

        Agent(get_game("kuhn")).strategy_table()


@pytest.mark.parametrize("game_name", ["kuhn", "kuhn-5", "leduc"])
@pytest.mark.parametrize("agent", ["random", "call", "bluff", "rules"])
def test_tables_cover_exactly_the_solvers_information_sets(game_name: str, agent: str) -> None:
    from showdown.solvers.tree import build_tree

    game = get_game(game_name)
    table = make_agent(agent, game, {"seed": 0}).strategy_table(game)
    assert set(table) == set(build_tree(game).infoset_keys())
    for policy in table.values():
        check_policy(policy)


def test_a_view_hides_what_the_seat_does_not_see() -> None:
    game = get_game("leduc")
    hole = (parse_cards("Qh"), parse_cards("Ks"))
    state = State.initial(game, hole, parse_cards("As"))
    view = View.of(state, 0)
    assert view.hole == parse_cards("Qh") and view.board == () and view.state.hole == (parse_cards("Qh"), ())
    assert view.public.hole == () and view.is_our_turn and view.legal_actions()
    done = state.apply_betting("cc/cc")
    end = View.of(done, 1)
    assert end.finished and end.board == parse_cards("As")
    assert end.shown_cards() == {0: parse_cards("Qh")}
    assert end.payoffs() == (-1.0, 1.0) and end.value() == 1.0
    folded = View.of(state.apply_betting("rf"), 0)
    assert folded.shown_cards() == {} and folded.value() == 1.0  # we raised, they folded


@pytest.mark.parametrize("game_name", ["kuhn", "leduc", "holdem-limit", "holdem-nolimit"])
def test_rules_range_policy_is_its_policy_for_every_holding(game_name: str) -> None:
    """LBR reads a range's probabilities from ``range_policy`` at once (a hundred times faster than asking
    ``policy`` holding by holding): it must be ``policy`` for every holding, on states of every street."""
    import itertools
    import random

    import numpy as np

    from showdown.agents.rules import strength_classes
    from showdown.games.cards import make_deck
    from tests.agents.test_policy_matches_act import random_decisions

    game = get_game(game_name)
    agent = make_agent("rules", game)
    holdings = list(itertools.combinations(make_deck(game.num_ranks, game.num_suits), game.num_hole_cards))
    for view in random_decisions(game, random.Random(5), 20):
        board = tuple(view.board)
        live = [h for h in holdings if not set(h) & set(board)]
        table = agent.range_policy(view, np.array(live))
        classes = strength_classes(game, np.array(live), board)
        for k, hole in enumerate(live):
            mine = View(game, view.position, view.hand, view.public, hole, board, view.betting)
            assert classes[k] == strength_class(mine)
            assert {letter: float(p[k]) for letter, p in table.items() if p[k] > 0} == agent.policy(mine)


def test_rules_range_policy_takes_holdings_that_clash_with_the_board() -> None:
    """LBR asks about every holding, those that share a card with the board too (it weighs them 0)."""
    import itertools

    import numpy as np

    from showdown.agents.rules import strength_classes

    game = get_game("holdem-nolimit")
    board = tuple(parse_cards("AhKh2c"))
    hands = np.array(list(itertools.combinations(range(52), 2)))
    classes = strength_classes(game, hands, board)
    clash = np.isin(hands, board).any(axis=1)
    assert clash.sum() == 150 and (classes[clash] == WEAK).all()

"""AIVAT: unbiased by exact enumeration and by simulation, lower variance, and only known strategies used.

Burch, Schmid, Moravcik, Morrill and Bowling (2018), "AIVAT: A New Variance Reduction Technique for
Agent Evaluation in Imperfect Information Games". The hands here are dealt and played directly with
the rules engine (no server), so the true expected value is known from ``expected_value``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from showdown.agents.exploiter import agent_strategy
from showdown.evaluation.aivat import AivatEstimator, DealCodes, known_strategy, supports
from showdown.games.cards import make_deck
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import State, parse_action
from showdown.matches.config import AgentSpec
from showdown.solvers.best_response import expected_value
from showdown.solvers.strategy import Strategy, state_infoset_key, uniform_strategy
from showdown.solvers.tree import build_tree


def profile(game: GameDef, pos0: Strategy, pos1: Strategy) -> Strategy:
    """Position 0's information sets from ``pos0``, position 1's from ``pos1``."""
    tree = build_tree(game)
    return Strategy(game, {k: (pos0 if tree.player_of(k) == 0 else pos1).table[k] for k in pos0.table}, validate=False)


def all_hands(game: GameDef, pos: Sequence[Strategy]) -> list[tuple[Any, ...]]:
    """Every (probability, hole, board groups, betting, value of position 0) of the game under ``pos``."""
    deck = make_deck(game.num_ranks, game.num_suits)
    c, nb = game.num_hole_cards, sum(game.num_board_cards)
    deals = list(itertools.permutations(deck, 2 * c + nb))
    out = []
    for cards in deals:
        hole = (tuple(cards[:c]), tuple(cards[c : 2 * c]))
        board = tuple(cards[2 * c :])
        stack = [(State.initial(game, hole, board), 1.0 / len(deals))]
        while stack:
            s, p = stack.pop()
            if s.finished:
                out.append((p, hole, s.board_by_round(), s.betting, s.payoffs()[0]))
                continue
            probs = pos[s.current_player].table[state_infoset_key(s)]
            for a, q in probs.items():
                if q > 0:
                    stack.append((s.apply(parse_action(a)), p * q))
    return out


def simulate(game: GameDef, pos: Sequence[Strategy], hands: int, seed: int) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(seed)
    deck = list(make_deck(game.num_ranks, game.num_suits))
    c, nb = game.num_hole_cards, sum(game.num_board_cards)
    out = []
    for _ in range(hands):
        cards = [deck[k] for k in rng.permutation(len(deck))[: 2 * c + nb]]
        hole = (tuple(cards[:c]), tuple(cards[c : 2 * c]))
        s = State.initial(game, hole, tuple(cards[2 * c :]))
        while not s.finished:
            s = s.apply(pos[s.current_player].sample_action(state_infoset_key(s), rng))
        out.append((hole, s.board_by_round(), s.betting, s.payoffs()[0]))
    return out


def estimates(est: AivatEstimator, hands: Sequence[tuple[Any, ...]], seats: Sequence[int] = (0, 1), replaced: np.ndarray | None = None) -> tuple[np.ndarray, object]:
    codes = np.array([est.encode(h[-4], h[-3], h[-2]) for h in hands], dtype=np.int64).reshape(-1, 4)
    values0 = np.array([h[-1] for h in hands], dtype=float)
    seat_arr = np.tile(np.array(seats), (len(hands), 1))
    result = est.estimate(DealCodes(codes[:, 0], codes[:, 1], codes[:, 2], codes[:, 3]), seat_arr, values0, replaced)
    return result.values, result


@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
@pytest.mark.parametrize("known", [(True, False), (False, True), (False, False), (True, True)])
def test_the_estimate_is_exactly_unbiased(game_name: str, known: tuple[bool, bool]) -> None:
    # Sum over every deal and every betting sequence, weighted by its probability under the strategies
    # really played: the mean of the AIVAT values equals the true expected value to rounding, whatever
    # the model of the unknown seats (here uniform play, far from the truth).
    game = get_game(game_name)
    eq = agent_strategy("equilibrium", game)
    rules = agent_strategy("rules", game)
    truth = expected_value(game, profile(game, eq, rules))
    hands = all_hands(game, (eq, rules))
    est = AivatEstimator(game, [eq if known[0] else None, rules if known[1] else None], model=uniform_strategy(game))
    values, _ = estimates(est, hands)
    weights = np.array([h[0] for h in hands])
    plain = float(weights @ np.array([h[-1] for h in hands]))
    assert weights.sum() == pytest.approx(1.0)
    assert plain == pytest.approx(truth, abs=1e-12)
    assert float(weights @ values) == pytest.approx(truth, abs=1e-12)


def test_with_every_strategy_known_each_hand_is_the_exact_value() -> None:
    game = get_game("kuhn")
    eq = agent_strategy("equilibrium", game)
    hands = simulate(game, (eq, eq), 300, 1)
    values, result = estimates(AivatEstimator(game, [eq, eq]), hands)
    assert result.exact and result.known == (True, True)  # type: ignore[attr-defined]
    assert np.all(values == values[0])
    assert values[0] == pytest.approx(-1 / 18)  # Kuhn's value for the first position (Kuhn 1950)


def test_simulated_match_is_unbiased_with_lower_variance() -> None:
    # One known agent (the equilibrium) against an unknown one (rules): the situation AIVAT is for.
    game = get_game("kuhn")
    eq, rules = agent_strategy("equilibrium", game), agent_strategy("rules", game)
    truth = expected_value(game, profile(game, eq, rules))
    hands = simulate(game, (eq, rules), 6000, 11)
    values, result = estimates(AivatEstimator(game, [eq, None]), hands)
    plain = np.array([h[-1] for h in hands])
    se = values.std(ddof=1) / np.sqrt(len(values))
    assert abs(values.mean() - truth) < 4 * se
    assert values.var() < plain.var() / 3  # about 7x less in practice
    assert not result.exact and result.notes == []  # type: ignore[attr-defined]


def test_a_seat_that_does_not_play_its_strategy_is_not_used() -> None:
    # Claimed: position 0 plays "rules"; really it plays at random. Random play takes actions rules
    # never takes, so the claim is dropped and the estimate stays unbiased.
    game = get_game("kuhn")
    rnd, eq, rules = agent_strategy("random", game), agent_strategy("equilibrium", game), agent_strategy("rules", game)
    truth = expected_value(game, profile(game, rnd, eq))
    hands = simulate(game, (rnd, eq), 4000, 5)
    values, result = estimates(AivatEstimator(game, [rules, eq]), hands)
    assert result.known == (False, True)  # type: ignore[attr-defined]
    assert "seat 1 played an action its strategy never plays" in result.notes[0]  # type: ignore[attr-defined]
    se = values.std(ddof=1) / np.sqrt(len(values))
    assert abs(values.mean() - truth) < 4 * se


def test_hands_where_the_dealer_replaced_an_action_use_no_strategy_for_that_seat() -> None:
    game = get_game("kuhn")
    eq = agent_strategy("equilibrium", game)
    hands = simulate(game, (eq, eq), 200, 3)
    replaced = np.zeros((200, 2), dtype=bool)
    replaced[::2, 1] = True  # every other hand, position 1's action was the dealer's
    values, result = estimates(AivatEstimator(game, [eq, eq]), hands, replaced=replaced)
    assert not result.exact  # type: ignore[attr-defined]
    assert np.all(values[1::2] == values[1])  # untouched hands: exact
    assert len(set(values[::2].round(9))) > 1  # replaced hands: noisy, position 1 unknown there


def test_seats_are_mapped_through_the_rotation() -> None:
    # seat 0 (known) sits at position 1 in odd hands: its strategy is used for position 1 there
    game = get_game("kuhn")
    eq, rules = agent_strategy("equilibrium", game), agent_strategy("rules", game)
    est = AivatEstimator(game, [eq, None])
    hands = all_hands(game, (rules, eq))  # rules at position 0, the known seat at position 1
    values, _ = estimates(est, hands, seats=(1, 0))
    weights = np.array([h[0] for h in hands])
    assert float(weights @ values) == pytest.approx(expected_value(game, profile(game, rules, eq)), abs=1e-12)


def test_which_agents_count_as_known() -> None:
    kuhn, holdem = get_game("kuhn"), get_game("holdem-nolimit")
    for name in ("equilibrium", "rules", "random", "bluff", "call"):
        strategy, why = known_strategy(name, kuhn)
        assert strategy is not None and why is None, name
    assert known_strategy(None, kuhn)[0] is None  # an outside program
    assert "no-limit" in (known_strategy("random", holdem)[1] or "")
    assert "time budget" in (known_strategy("cfr", kuhn, {"seconds": 1.0, "cache": False})[1] or "")
    assert supports(kuhn) is None and supports(get_game("leduc")) is None
    assert "2-player" in (supports(get_game("kuhn3p")) or "")
    assert "exact solvers" in (supports(get_game("holdem-limit")) or "")
    assert AgentSpec(name="rules").display == "rules"


def test_action_frequencies_that_contradict_the_declared_strategies_drop_the_claim() -> None:
    # Declared: both play the equilibrium. Really: both mix with other probabilities, on the
    # same actions, so no action is impossible under the declared strategy: only the chips can tell.
    from showdown.evaluation.analyze import analyze
    from showdown.evaluation.hand_table import HandCollector

    game = get_game("kuhn")
    eq = agent_strategy("equilibrium", game)
    table = {k: dict(v) for k, v in eq.table.items()}
    for probs in table.values():
        if len([p for p in probs.values() if p > 0]) == 2:  # a mixed choice: lean to the other action
            first, second = (a for a, p in probs.items() if p > 0)
            probs[first], probs[second] = 0.1, 0.9
    liar = Strategy(game, table)
    est = AivatEstimator(game)
    collector = HandCollector(["a", "b"], encoder=est)
    for h, (hole, board, betting, v0) in enumerate(simulate(game, (liar, liar), 4000, 8)):
        collector.add(h, ("a", "b"), (v0, -v0), hole=hole, board=board, betting=betting)
    est.set_strategies([eq, eq])
    a = analyze(collector.table(), estimator="aivat", aivat=est)
    # the action counts give the lie away at once; both claims are dropped (no bias, more variance)
    assert a.known == () and not a.exact
    assert sum("other frequencies than its strategy" in n for n in a.notes) == 2
    honest = HandCollector(["a", "b"], encoder=est)
    for h, (hole, board, betting, v0) in enumerate(simulate(game, (eq, eq), 4000, 8)):
        honest.add(h, ("a", "b"), (v0, -v0), hole=hole, board=board, betting=betting)
    b = analyze(honest.table(), estimator="aivat", aivat=est)
    assert b.known == ("a", "b") and b.exact and not b.notes
    assert b.consistency_p is not None and b.consistency_p > 1e-3


def test_hands_that_are_not_deals_of_the_game_are_refused() -> None:
    from showdown.evaluation.aivat import AivatError
    from showdown.games.cards import parse_cards

    est = AivatEstimator(get_game("kuhn"))
    ks, qs = parse_cards("Ks"), parse_cards("Qs")
    assert est.encode((ks, qs), ((),), "cc")[0] >= 0
    with pytest.raises(AivatError, match="not a finished hand"):
        est.encode((ks, qs), ((),), "c")
    with pytest.raises(AivatError, match="not a deal"):
        est.encode((ks, ks), ((),), "cc")  # the same card twice


def test_the_model_of_a_game_too_large_for_the_lp_is_uniform_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """A limit .game with no maxRaises line (255 raises a round) made the estimator solve the
    game's sequence-form LP for its model after the match's last hand: hours, with no line."""
    import showdown.agents.equilibrium as equilibrium
    import showdown.evaluation.aivat as aivat

    game = get_game("leduc")
    monkeypatch.setattr(aivat, "MODEL_LP_INFOSETS", len(build_tree(game).infoset_keys()) - 1)
    monkeypatch.setattr(equilibrium, "equilibrium_strategy", lambda g: pytest.fail("the LP was solved"))
    model = AivatEstimator(game, [None, None])._model_profile()
    uniform = AivatEstimator(game, [None, None], model=uniform_strategy(game))._model_profile()
    assert all(np.array_equal(a, b) for a, b in zip(model, uniform))

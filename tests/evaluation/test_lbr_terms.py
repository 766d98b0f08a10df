"""AIVAT's action terms for LBR: the fold term is their special case, every way of valuing a raise
gives terms of mean zero against agents that mix (the estimate stays unbiased; the coverage of LBR's
exact value by the corrected sample is in ``test_lbr.py``), and the raise values follow LBR's rule."""

from __future__ import annotations

import numpy as np
import pytest

from showdown.agents.registry import make_agent
from showdown.evaluation.chance import ChanceCorrector
from showdown.evaluation.lbr import LocalBestResponse
from showdown.evaluation.lbr_runs import run_lbr_parallel
from showdown.evaluation.lbr_terms import (
    RAISE_ANSWERED,
    RAISE_AS_CALL,
    RAISE_CALLED,
    RAISE_VALUES,
    ActionTerms,
    action_term,
    decision_values,
    reference_raise,
)
from showdown.games.catalog import get_game
from showdown.games.state import Action, ActionKind, State

Z = 4.5  # a false failure of a mean-zero check below 1e-5


def test_the_fold_term_is_the_action_term_with_a_raise_valued_as_a_call() -> None:
    rng = np.random.default_rng(1)
    for _ in range(200):
        v_fold, v_on = rng.normal(size=2) * 100
        p = rng.dirichlet(np.ones(3))
        probs = {"f": float(p[0]), "c": float(p[1]), "r": float(p[2])}
        for taken in "fcr":
            expected = (float(taken == "f") - probs["f"]) * (v_fold - v_on)
            assert action_term({"f": v_fold, "c": v_on}, probs, taken) == pytest.approx(expected, abs=1e-9)


def test_an_action_term_has_mean_zero_under_the_policy_for_any_values() -> None:
    rng = np.random.default_rng(2)
    for _ in range(100):
        values = {k: float(v) for k, v in zip("fcr", rng.normal(size=3) * 50)}
        p = rng.dirichlet(np.ones(3))
        probs = dict(zip("fcr", map(float, p)))
        assert sum(probs[a] * action_term(values, probs, a) for a in "fcr") == pytest.approx(0.0, abs=1e-9)


def _terms(game_name: str, agent: str, hands: int, seed: int) -> dict[str, np.ndarray]:
    """Every raise valuation's per-hand terms on the same hands (LBR plays with the default one)."""
    game = get_game(game_name)
    lbr = LocalBestResponse(game, make_agent(agent, game, {"seed": seed}), belief=False)
    others = {m: ActionTerms(lbr, m) for m in RAISE_VALUES if m != RAISE_ANSWERED}
    own = lbr.action_terms.term
    got: dict[str, float] = {}

    def term(public: State, me: int, mine: tuple[int, ...], theirs: tuple[int, ...], board: tuple[int, ...],
             weights: np.ndarray, rng: np.random.Generator, action: Action) -> float:
        for m, t in others.items():
            got[m] = got.get(m, 0.0) + t.term(public, me, mine, theirs, board, weights, rng, action)
        return own(public, me, mine, theirs, board, weights, rng, action)

    lbr.action_terms.term = term  # type: ignore[method-assign]
    rollouts = np.random.default_rng([seed, 1])
    rows: dict[str, list[float]] = {m: [] for m in RAISE_VALUES}
    for k in range(hands):
        got.clear()
        cards = [int(c) for c in np.random.default_rng([seed, k]).permutation(np.array(lbr.deck))]
        lbr.play(rollouts, k % 2, cards, hand=k)
        rows[RAISE_ANSWERED].append(lbr.action_correction)
        for m in others:
            rows[m].append(got.get(m, 0.0))
    return {m: np.array(v) for m, v in rows.items()}


@pytest.mark.parametrize(("game_name", "agent", "hands"), [("leduc", "cfr", 3000), ("holdem-nolimit", "random", 300)])
def test_every_raise_valuation_gives_terms_of_mean_zero(game_name: str, agent: str, hands: int) -> None:
    """``act`` draws from ``policy``, so each term has mean zero: a term that leaned on the action the
    agent took (not its probabilities) would be far off zero in as many hands."""
    for m, terms in _terms(game_name, agent, hands, seed=5).items():
        assert np.count_nonzero(terms) > hands // 4, m
        assert abs(terms.mean()) <= Z * terms.std(ddof=1) / np.sqrt(hands), (m, terms.mean(), terms.std())


def test_a_raise_is_valued_by_lbrs_answer_to_a_pot_size_raise() -> None:
    """On the flop, against an agent whose range LBR's hand beats, LBR calls a pot raise: the raise is
    worth the all-in value of the called pot; with a weak hand against the same range it folds, and
    the raise is worth minus what LBR has in."""
    game = get_game("holdem-nolimit")
    lbr = LocalBestResponse(game, make_agent("call", game, {}))
    state = State.initial(game, [(0, 1), (2, 3)], list(range(4, 9))).apply(Action(ActionKind.CALL)).apply(Action(ActionKind.CALL))
    public = state.with_cards((), ())
    assert public.round == 1
    raised = reference_raise(public)
    assert raised is not None and raised.size == public.max_spent + sum(public.spent)
    me = 1 - public.current_player
    board = tuple(int(c) for c in state.visible_board())
    rng = np.random.default_rng(0)
    corrector = ChanceCorrector(game)
    deck = [c for c in lbr.deck if c not in board]
    strongest = max(((a, b) for a in deck for b in deck if a < b), key=lambda h: _wp(lbr, h, board, rng))
    weakest = min(((a, b) for a in deck for b in deck if a < b), key=lambda h: _wp(lbr, h, board, rng))
    for mine, folds in ((strongest, False), (weakest, True)):
        weights = lbr._seen(lbr._first_range(mine), board, ())
        theirs = next((a, b) for a in deck for b in deck if a < b and not {a, b} & set(mine))
        equity = corrector.showdown_equity(mine, theirs, board)
        assert equity is not None
        values = decision_values(lbr, public, me, mine, equity, weights, board, rng, RAISE_ANSWERED)
        to = raised.size
        assert values["r"] == pytest.approx(-public.spent[me] if folds else equity * 2 * to - to)
        called = decision_values(lbr, public, me, mine, equity, weights, board, rng, RAISE_CALLED)
        assert called["r"] == pytest.approx(equity * 2 * to - to)
        assert "r" not in decision_values(lbr, public, me, mine, equity, weights, board, rng, RAISE_AS_CALL)


def _wp(lbr: LocalBestResponse, mine: tuple[int, int], board: tuple[int, ...], rng: np.random.Generator) -> float:
    return lbr.win_probability(mine, lbr._seen(lbr._first_range(mine), board, ()), board, rng)


def test_the_json_names_the_estimator() -> None:
    doc = run_lbr_parallel("leduc", agent="cfr", hands=50, seed=1).to_json()
    assert doc["estimator"] == "chance+range"  # the range is exact in limit games: the cards integrated out
    doc = run_lbr_parallel("holdem-nolimit", agent="probe-adaptive", hands=2, seed=1, action_sets=("fcpa",)).to_json()
    assert doc["estimator"] == "chance+actions"  # sizes that follow the cards, not told
    with pytest.raises(ValueError, match="raise_value"):
        ActionTerms(LocalBestResponse(get_game("leduc"), make_agent("cfr", get_game("leduc"), {})), "sometimes")
    assert RAISE_AS_CALL in RAISE_VALUES


def test_lbrs_chance_corrections_take_out_the_flops_luck_of_an_all_in() -> None:
    """A called all-in before the flop is worth the same to LBR's estimate whatever board came (the
    flop's term, its "before" sampled, is now corrected too: before, the flop's luck stayed in)."""
    from showdown.evaluation.lbr_runs import lbr_corrector

    game = get_game("holdem-nolimit")
    corrector = lbr_corrector(game)
    hole = [(0, 1), (48, 49)]  # deuces against aces (cards: rank * 4 + suit)
    betting = "r20000c///"
    got, payoffs = [], []
    for board in ([12, 25, 38, 51, 7], [2, 3, 20, 33, 46]):  # the aces win; the deuces make four of a kind
        state = State.initial(game, hole, board).apply_betting(betting)
        assert state.is_terminal
        luck = corrector.corrections(state.hole, state.board_by_round(), state.betting)[0]
        got.append(state.payoffs()[0] - luck)
        payoffs.append(state.payoffs()[0])
    assert payoffs == [-20000, 20000]
    assert got[0] == pytest.approx(got[1])
    assert abs(got[0]) < 20000 * 0.7  # about (equity - 1/2) of the pot, not the whole of it

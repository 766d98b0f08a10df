"""The hold'em ``cfr`` agent's search at decision time: controls, time, and the holes it closes."""

from __future__ import annotations

import time

import numpy as np
import pytest

from showdown.agents.abstract_cfr import AbstractCFRAgent
from showdown.agents.base import View, decision_views
from showdown.agents.registry import make_agent
from showdown.errors import ConfigError
from showdown.games.catalog import get_game
from showdown.games.state import CALL, Action, ActionKind, State
from showdown.solvers.abstraction import RankAbstraction, StrengthAbstraction
from showdown.solvers.best_response import exploitability
from showdown.solvers.pcs import PCSSolver
from showdown.solvers.strategy import Strategy

NOLIMIT = get_game("holdem-nolimit")
LIMIT = get_game("holdem-limit")
LEDUC = get_game("leduc")


@pytest.fixture(scope="module")
def blueprint() -> AbstractCFRAgent:
    return make_agent("cfr", NOLIMIT, {"seed": 1, "search": "off"})  # type: ignore[return-value]


def _deal(rng: np.random.Generator, game=NOLIMIT) -> State:
    cards = [int(c) for c in rng.permutation(52)]
    return State.initial(game, (tuple(cards[0:2]), tuple(cards[2:4])), tuple(cards[4:9]))


def _clicker(state: State, rng: np.random.Generator) -> Action:
    """Checks or calls, and min-raises a third of the time: off the abstract tree at every street."""
    if state.can_raise() and rng.random() < 0.35:
        return Action(ActionKind.RAISE, state.raise_bounds()[0])  # type: ignore[index]
    return CALL


def _play(agent, opponent, hands: int, seed: int, game=NOLIMIT, on_decision=None):
    rng = np.random.default_rng(seed)
    for hand in range(hands):
        state = _deal(rng, game)
        me = hand % 2
        while not state.is_terminal:
            if state.current_player == me:
                start = time.perf_counter()
                action = agent.act(View.of(state, me, hand))
                if on_decision is not None:
                    on_decision(state, action, time.perf_counter() - start)
                assert state.why_illegal(action) is None
            else:
                action = opponent(state, rng)
            state = state.apply(action)


def test_search_off_and_a_zero_budget_play_the_blueprint_exactly():
    off = make_agent("cfr", NOLIMIT, {"seed": 7, "search": "off"})
    zero = make_agent("cfr", NOLIMIT, {"seed": 7, "budget_ms": 0, "defend": "off"})
    assert off.search is None and zero.search is not None
    seen: list[tuple[str, str]] = []
    _play(off, _clicker, 25, 3, on_decision=lambda s, a, t: seen.append((s.betting, str(a))))
    again: list[tuple[str, str]] = []
    _play(zero, _clicker, 25, 3, on_decision=lambda s, a, t: again.append((s.betting, str(a))))
    assert seen == again and any(s.round == 3 for s in [State.initial(NOLIMIT).apply_betting(b) for b, _ in seen])
    assert zero.last_decision is None


def _river_decisions(agent, hands: int, seed: int) -> tuple[list[float], list]:
    seconds: list[float] = []
    searched = []

    def note(state, action, took):
        if state.round == 3:
            seconds.append(took)
            searched.append(agent.last_decision)
            agent.last_decision = None

    _play(agent, _clicker, hands, seed, on_decision=note)
    return seconds, searched


def test_every_river_decision_is_searched_mostly_with_the_gadget():
    agent = make_agent("cfr", NOLIMIT, {"seed": 2, "budget_ms": 10_000, "search_iterations": 12, "search_min_pot": 0})
    _, searched = _river_decisions(agent, 12, 5)
    assert len(searched) >= 5
    assert all(d is not None and d.iterations == 12 for d in searched)
    assert sum(d.safe for d in searched) >= len(searched) // 2  # off the blueprint's tree there is no gadget


def test_a_decision_keeps_to_its_budget():
    agent = make_agent("cfr", NOLIMIT, {"seed": 2, "budget_ms": 100, "turn_budget_ms": 200})
    seconds: dict[int, list[float]] = {2: [], 3: []}
    _play(agent, _clicker, 20, 6, on_decision=lambda s, a, t: seconds[s.round].append(t) if s.round >= 2 else None)
    assert len(seconds[2]) >= 5 and len(seconds[3]) >= 5
    # the budget plus the ranges' and the subgame's preparation and the iteration under way when it ran
    # out; generous: on a loaded 2-core machine one CFR+ iteration of a turn can take most of a second
    assert np.median(seconds[3]) < 0.1 + 0.6 and np.median(seconds[2]) < 0.2 + 0.6
    assert max(seconds[3]) < 0.1 + 3.0 and max(seconds[2]) < 0.2 + 3.0


def test_the_time_bank_keeps_the_mean_thinking_a_hand_down_against_an_opponent_off_the_tree():
    """Against a clicker every turn and river is searched; a bank of 40 ms a hand scales the 100 ms
    budgets down (the agent counts the hands itself), without it they are spent whole."""
    spent = {}
    for hand_ms in (0, 40):
        agent = make_agent("cfr", NOLIMIT, {"seed": 2, "budget_ms": 100, "turn_budget_ms": 100, "hand_ms": hand_ms})
        _play(agent, _clicker, 24, 6)
        bank = agent.search.bank
        assert bank.hands == (24 if hand_ms else 0)
        spent[hand_ms] = bank.spent
    assert spent[40] < 0.8 * spent[0]
    assert spent[40] <= 24 * 0.04 + 2 * 0.04 + 1.0  # the credit, the overdraft and one solve begun within them


def test_an_evaluators_questions_get_the_configured_budgets_and_cost_the_bank_nothing():
    """LBR asks ``policy``/``range_policy`` about moves never made (each a solve): they must not
    starve the agent it measures, nor be starved by the bank (the agent evaluated is the one configured)."""
    agent = make_agent("cfr", NOLIMIT, {"seed": 2, "budget_ms": 5_000, "turn_budget_ms": 5_000, "search_iterations": 8, "hand_ms": 1,
                                        "search_min_pot": 0})  # the count bounds a solve, not the load: a bank of 1 ms would cut it
    rng = np.random.default_rng(6)
    asked = 0
    for hand in range(12):
        state = _deal(rng)
        while not state.is_terminal:
            view = View.of(state, state.current_player, hand)
            if state.current_player == 0:
                agent.policy(view)  # an evaluator's question at every decision of seat 0
                solved = agent._solved[1] if agent._solved is not None and state.round >= 2 else None
                asked += solved is not None and solved.iterations >= 8  # solved with a budget no bank cut
            state = state.apply(_clicker(state, rng))
    bank = agent.search.bank
    assert asked >= 4 and bank.spent == 0.0 and bank.scale == 1.0


def test_turn_decisions_are_searched_to_the_end_of_the_hand():
    agent = make_agent("cfr", NOLIMIT, {"seed": 2, "turn": "on", "turn_budget_ms": 60_000, "search_iterations": 10})
    searched = []

    def note(state, action, took):
        if state.round == 2:
            searched.append(agent.last_decision)
            agent.last_decision = None

    _play(agent, _clicker, 7, 5, on_decision=note)
    assert len(searched) >= 4
    assert all(d is not None and d.iterations == 10 and d.root.round == 2 for d in searched)
    off = make_agent("cfr", NOLIMIT, {"seed": 2, "turn": "off"})
    assert not off.search.applies(State.initial(NOLIMIT).apply_betting("r300c/cc/"))


def test_a_called_third_min_raise_keeps_the_agent_on_its_tree(blueprint):
    """Regression: a third raise used to map to all-in; once the agent called it, the abstract hand was
    over and it called everything to the end."""
    rng = np.random.default_rng(0)
    state = _deal(rng)
    for text in ("r300", "c", "r600", "r1800"):
        state = state.apply(Action(ActionKind.RAISE, int(text[1:])) if text[0] == "r" else CALL)
    click = Action(ActionKind.RAISE, state.raise_bounds()[0])  # type: ignore[index]
    state = state.apply(click).apply(CALL)  # the flop's third raise, a minimum one, is called
    assert state.round == 2
    on_tree = 0
    for hand in range(1, 41):  # the translation is randomised (pseudo-harmonic): over many hands
        view = View.of(state, state.current_player, hand)
        blueprint.act(view)
        on_tree += bool(blueprint._on_tree(view))
    assert on_tree >= 20  # all-in (the old mapping) left the tree every time


def test_folds_to_tiny_river_bets_are_rare():
    """Regression: a 1/6-pot river bet was answered as a pot bet: the blueprint folded 49% of these 300
    hands; mapped mostly to a check it folds 16% (calling 100 to win 700 needs 1/7 of the pot)."""
    agent = make_agent("cfr", NOLIMIT, {"seed": 4, "search": "off"})
    rng = np.random.default_rng(9)
    folds = asked = 0
    for hand in range(300):
        state = _deal(rng)
        for a in ("r300", "c", "c", "c", "c", "c"):
            state = state.apply(Action(ActionKind.RAISE, 300) if a == "r300" else CALL)
        assert state.round == 3
        me = 1 - state.current_player
        state = state.apply(Action(ActionKind.RAISE, state.max_spent + 100))  # 100 into 600
        action = agent.act(View.of(state, me, hand))
        asked += 1
        folds += action.kind is ActionKind.FOLD
    assert asked == 300
    assert folds / asked < 0.25


def test_leduc_agent_searches_its_second_round(tmp_path):
    solver = PCSSolver(LEDUC, RankAbstraction(LEDUC), exhaustive=True)
    solver.iterate(30)
    path = solver.strategy().save(tmp_path / "leduc.pcs.npz")
    agent = make_agent("cfr", LEDUC, {"strategy": str(path), "seed": 3, "budget_ms": 1000, "search_iterations": 50})
    state = State.initial(LEDUC, ((42,), (46,)), (50,)).apply_betting("rc/")
    decision = None
    while state.round == 1 and not state.is_terminal:
        action = agent.act(View.of(state, state.current_player, 0))
        decision = decision or agent.last_decision
        state = state.apply(action)
    assert decision is not None and decision.iterations == 50 and decision.safe


def test_search_options_are_checked():
    with pytest.raises(ConfigError, match="budget_ms"):
        make_agent("cfr", NOLIMIT, {"budget_ms": -1})
    with pytest.raises(ConfigError, match="search at decision time is for heads-up hold'em"):
        make_agent("cfr", get_game("kuhn"), {"budget_ms": 100})
    assert make_agent("cfr", get_game("kuhn"), {"search": "off"}) is not None
    with pytest.raises(ConfigError, match="gadget_penalty"):
        make_agent("cfr", NOLIMIT, {"gadget_penalty": -1})
    with pytest.raises(ConfigError, match="search_sizes must be positive pot fractions"):
        make_agent("cfr", NOLIMIT, {"search_sizes": "half/1"})
    with pytest.raises(ConfigError, match="search_sizes"):
        make_agent("cfr", NOLIMIT, {"search_sizes": "0/1"})


def test_search_sizes_and_the_penalty_reach_the_river_solve():
    """``search_sizes`` gives the re-solved river its pot fractions (sorted, all-in kept), and
    ``gadget_penalty`` the solver's penalty gadget."""
    from showdown.agents.abstract_cfr import search_settings

    settings = search_settings({"search_sizes": "1.5/0.25/0.5", "gadget_penalty": "100"}, NOLIMIT)
    assert settings.sizing.fractions == (0.25, 0.5, 1.5) and settings.gadget_penalty == 100.0
    assert search_settings({}, NOLIMIT).sizing.fractions == (0.5, 1.0)
    root = State.initial(NOLIMIT).apply_betting("r300c/cc/cc/")
    from showdown.solvers.subgame import Subgame

    sizes = {a.size for a in Subgame.of_state(root, settings.sizing).actions[0] if a.kind is ActionKind.RAISE}
    assert len(sizes) == 4  # three fractions of the 600-chip pot and all-in


def _leduc_table(agent) -> dict[str, dict[str, float]]:
    """The agent's policy at every information set of Leduc, each round-2 subtree asked root first (the
    way a hand reaches it), so that later decisions play on from the round's solve as in a match."""
    views = sorted(decision_views(LEDUC), key=lambda v: (v.round, v.board, v.position, v.betting))
    hands: dict[tuple, int] = {}
    table: dict[str, dict[str, float]] = {}
    for v in views:
        hand = hands.setdefault((v.board, v.position), len(hands))
        view = View(LEDUC, v.position, hand, v.public, v.hole, v.board, v.betting)
        table.setdefault(view.infoset_key, dict(agent.policy(view)))
    return table


@pytest.mark.parametrize("abstraction", ["strength", pytest.param("rank", marks=pytest.mark.slow)])
def test_leduc_search_is_no_more_exploitable_than_its_blueprint(tmp_path, abstraction):
    """Safe re-solving in the whole game: the agent's exact exploitability (both seats, every
    information set) with its second round re-solved is at most the blueprint's (Brown and Sandholm
    2017); with a coarse card abstraction the blueprint leaves much to take back."""
    cards = StrengthAbstraction(LEDUC, 2) if abstraction == "strength" else RankAbstraction(LEDUC)
    solver = PCSSolver(LEDUC, cards, exhaustive=True)
    solver.iterate(40)
    path = str(solver.strategy().save(tmp_path / "leduc.pcs.npz"))
    blueprint = make_agent("cfr", LEDUC, {"strategy": path, "search": "off"})
    searching = make_agent("cfr", LEDUC, {"strategy": path, "budget_ms": 60_000, "search_iterations": 150, "seed": 1})
    before = exploitability(LEDUC, Strategy(LEDUC, _leduc_table(blueprint)))
    after = exploitability(LEDUC, Strategy(LEDUC, _leduc_table(searching)))
    print(f"Leduc {abstraction}: exploitability {before:.4f} -> {after:.4f} chips a hand")
    assert after <= before + 1e-3


def test_off_tree_search_leaves_an_on_tree_opponent_to_the_blueprint(blueprint):
    """``search=off-tree``: against the blueprint itself (always on its own tree) nothing is searched,
    so it plays at the blueprint's speed; against min-raises (off the tree) the turn and river are."""
    agent = make_agent("cfr", NOLIMIT, {"seed": 2, "search": "off-tree", "budget_ms": 10_000, "turn_budget_ms": 10_000,
                                        "search_iterations": 8})
    searched: list = []

    def note(state, action, took):
        searched.append(agent.last_decision)
        agent.last_decision = None

    _play(agent, lambda s, r: blueprint.act(View.of(s, s.current_player, 0)), 30, 4, on_decision=note)
    assert len(searched) > 30 and not any(searched)
    searched.clear()
    _play(agent, _clicker, 12, 5, on_decision=note)
    assert sum(d is not None for d in searched) >= 4
    with pytest.raises(ConfigError, match="search must be"):
        make_agent("cfr", NOLIMIT, {"search": "sometimes"})


def test_by_default_the_turn_is_searched_once_the_opponent_left_the_tree(blueprint):
    """``turn=off-tree``, the no-limit default: against the blueprint (on its own tree) only rivers are
    searched (where the exact measurement finds the search's edge, and the blueprint's speed elsewhere);
    against min-raises the turn is searched too."""
    agent = make_agent("cfr", NOLIMIT, {"seed": 2, "budget_ms": 10_000, "turn_budget_ms": 10_000, "search_iterations": 8,
                                        "search_min_pot": 0})
    rounds: list[int] = []

    def note(state, action, took):
        if agent.last_decision is not None:
            rounds.append(agent.last_decision.root.round)
        agent.last_decision = None

    _play(agent, lambda s, r: blueprint.act(View.of(s, s.current_player, 0)), 30, 4, on_decision=note)
    assert 3 in rounds and 2 not in rounds
    rounds.clear()
    _play(agent, _clicker, 12, 5, on_decision=note)
    assert 2 in rounds
    with pytest.raises(ConfigError, match="turn must be"):
        make_agent("cfr", NOLIMIT, {"turn": "sometimes"})


def test_on_the_tree_pots_under_search_min_pot_are_left_to_the_blueprint():
    """``search_min_pot``: against the blueprint (on its tree) no river under the minimum pot is
    searched, and rivers at or above it are; off the tree every river is. (Its own blueprint, not the
    module's: the hands depend on that agent's draws, which the tests before used up in any order;
    no time bank: a loaded machine's budgets would change what is searched.)"""
    blueprint = make_agent("cfr", NOLIMIT, {"seed": 1, "search": "off"})
    agent = make_agent("cfr", NOLIMIT, {"seed": 2, "budget_ms": 10_000, "search_iterations": 8, "search_min_pot": 12, "hand_ms": 0})
    pots: dict[bool, list[int]] = {True: [], False: []}

    def note(state, action, took):
        if state.round == 3:
            pots[agent.last_decision is not None].append(state.pot())
        agent.last_decision = None

    _play(agent, lambda s, r: blueprint.act(View.of(s, s.current_player, 0)), 40, 5, on_decision=note)
    assert pots[False] and min(pots[False]) < 1200
    assert pots[True] and all(p >= 1200 for p in pots[True])
    pots[True].clear()
    _play(agent, _clicker, 12, 5, on_decision=note)
    assert any(p < 1200 for p in pots[True])


@pytest.mark.slow
def test_leduc_unsafe_resolving_gives_back_what_the_gadget_keeps(tmp_path):
    """What the gadget buys, in the whole game: with a coarse blueprint, the safe re-solve is far less
    exploitable than the blueprint; lowering the alternatives (``gadget_margin``) gives part of that
    back, and no gadget at all (unsafe re-solving from the ranges alone) is more exploitable than the
    blueprint itself, though it gains the most head to head (``benchmarks/bench_search_edge.py``); the
    penalty gadget sits in between, the safer the larger its penalty."""
    solver = PCSSolver(LEDUC, StrengthAbstraction(LEDUC, 3), exhaustive=True)
    solver.iterate(40)
    path = str(solver.strategy().save(tmp_path / "leduc.pcs.npz"))
    blueprint = exploitability(LEDUC, Strategy(LEDUC, _leduc_table(make_agent("cfr", LEDUC, {"strategy": path, "search": "off"}))))
    found = {}
    variants = {"safe": {}, "margin": {"gadget_margin": 0.1}, "unsafe": {"gadget": "off"}, "penalty 10": {"gadget_penalty": 10},
                "penalty 100": {"gadget_penalty": 100}, "reach": {"gadget": "reach"},
                "reach, penalty 30": {"gadget": "reach", "gadget_penalty": 30}}
    for label, options in variants.items():
        agent = make_agent("cfr", LEDUC, {"strategy": path, "budget_ms": 60_000, "search_iterations": 150, "seed": 1, **options})
        found[label] = exploitability(LEDUC, Strategy(LEDUC, _leduc_table(agent)))
    print(f"Leduc strength:3: blueprint {blueprint:.3f}, " + ", ".join(f"{k} {v:.3f}" for k, v in found.items()))
    assert found["safe"] < found["margin"] < found["unsafe"]
    assert found["safe"] < blueprint / 2 and found["unsafe"] > blueprint
    # the penalty gadget: a large penalty is nearly as safe as resolve, a small one is not safe
    assert found["safe"] <= found["penalty 100"] < blueprint / 2 and found["penalty 10"] > found["penalty 100"]
    # the reach gadget: the opponent's gifts loosen the alternatives, the search stays as safe here
    assert found["reach"] < blueprint / 2 and found["reach, penalty 30"] < blueprint / 2



_FORKED: list = []  # the agent a forked child inherits (an agent does not pickle)


def _search_in_child() -> None:
    """In a forked process: one river decision searched (the compiled pass imported there); exit 0
    when the search ran its 8 iterations."""
    agent = _FORKED[0]
    state = State.initial(NOLIMIT, ((0, 1), (2, 3)), (10, 20, 30, 40, 50)).apply_betting("r300c/cc/cc/")
    agent.act(View.of(state, state.current_player, 0))
    raise SystemExit(0 if agent.last_decision is not None and agent.last_decision.iterations == 8 else 1)


def test_a_process_forked_right_after_start_up_can_search():
    """Evaluators fork workers after building the agent (``showdown exploit --lbr --jobs 2``): a fork
    while the search's background loading held an import lock left the child's first search waiting
    for ever. Loading now finishes before any fork."""
    import multiprocessing

    _FORKED[:] = [make_agent("cfr", NOLIMIT, {"seed": 1, "budget_ms": 60_000, "search_iterations": 8, "search_min_pot": 0})]
    child = multiprocessing.get_context("fork").Process(target=_search_in_child)
    child.start()
    child.join(timeout=300)  # generous: a loaded CI machine; the hang it guards against is for ever
    if child.is_alive():
        child.kill()
        child.join()
    assert child.exitcode == 0


def test_a_quarter_pot_turn_bet_is_not_answered_by_folding_made_hands():
    """Regression (issue 26's cousins of the probes): a bot that bets a quarter pot with medium or
    better hands won from ``cfr``: the turn's re-solve (off the tree: the bet is not the blueprint's),
    25-30 CFR+ iterations in its 400 ms, folded about 70% of the agent's pairs and better to a bet of
    100 into 400 (1,500 iterations bring its range's folds from 75% to 29%: the early iterations
    answer every call with the uniform strategy's shoves), where the blueprint, averaged over its
    translation of the bet, folds 6% of them. No searched holding now folds more often than the
    blueprint does there."""
    from showdown.agents.rules import MEDIUM, strength_class
    from showdown.games.cards import make_deck, parse_cards

    betting, board = "r200c/cc/cr300", parse_cards("Ts7cAdJs5c")
    me = State.initial(NOLIMIT).apply_betting(betting).current_player
    holes = [parse_cards("KdKc"), parse_cards("KdKc")]
    holes[me] = parse_cards("2hAh")
    state = State.initial(NOLIMIT, holes, board).apply_betting(betting)
    agent = make_agent("cfr", NOLIMIT, {"seed": 1})
    if agent.search is not None:
        agent.search._ready.join()
    view = View.of(state, me, 0)
    agent.act(view)  # the first solve of a process also loads the compiled kernels
    free = [c for c in make_deck(13, 4) if c not in view.board]
    made = [sorted((a, b)) for i, a in enumerate(free) for b in free[i + 1 :]
            if strength_class(View(NOLIMIT, me, 1, view.public, (a, b), view.board, view.betting)) >= MEDIUM]
    table = agent.range_policy(View.of(state, me, 1), np.array(made))
    assert len(made) > 500 and float(table["f"].mean()) < 0.3


def test_leduc_turn_search_is_safe_with_its_gadget(tmp_path):
    """Issue 26: LBR won more from the searching agent than from its blueprint, through the turn's
    re-solve, which had no gadget: an opponent's range after its bet came from the blueprint, and
    one that bets other hands than the blueprint would takes that. In Leduc (whose first round is
    its next-to-last) the agent's exact exploitability with both rounds re-solved: with the turn's
    resolve gadget (each opponent holding's blueprint value over every last card) it is below the
    blueprint's and the river search's alone; without it, far above the blueprint's. The ranges of
    the river's search follow what the turn's search played, also when an evaluator asks ``policy``
    rather than ``act`` (before, they followed the blueprint there: 0.52 with the gadget)."""
    solver = PCSSolver(LEDUC, StrengthAbstraction(LEDUC, 3), exhaustive=True)
    solver.iterate(40)
    path = str(solver.strategy().save(tmp_path / "leduc.pcs.npz"))
    found = {}
    variants = {"blueprint": {"search": "off"}, "river": {}, "turn": {"turn": "on"}, "unsafe turn": {"turn": "on", "gadget": "off"}}
    for label, options in variants.items():
        agent = make_agent("cfr", LEDUC, {"strategy": path, "budget_ms": 60_000, "turn_budget_ms": 60_000, "search_iterations": 80, "seed": 1, **options})
        found[label] = exploitability(LEDUC, Strategy(LEDUC, _leduc_table(agent)))
    # 0.480, 0.185, 0.174, 0.766 (with 150 iterations a search, 2.5 times the time: 0.480, 0.175, 0.140, 0.818)
    print("Leduc strength:3: " + ", ".join(f"{k} {v:.3f}" for k, v in found.items()))
    assert found["turn"] <= found["river"] < found["blueprint"] / 2
    assert found["unsafe turn"] > found["blueprint"]


def test_with_an_iteration_count_and_large_budgets_the_search_is_reproducible_from_its_seed():
    """What docs/holdem-agent.md promises for a reproducible run: two agents of the same seed and
    options, against the same min-raising opponent on the same cards, search the same turns and rivers
    and play the same actions (the time bank follows the budgets, so it never cuts a solve short)."""
    options = {"seed": 7, "budget_ms": 60_000, "turn_budget_ms": 60_000, "search_iterations": 8, "search_min_pot": 0}
    plays: list[list[tuple[str, int, str]]] = []
    for _ in range(2):
        agent = make_agent("cfr", NOLIMIT, options)
        seen: list[tuple[str, int, str]] = []

        def note(state, action, took, agent=agent, seen=seen):
            searched = agent.last_decision is not None
            agent.last_decision = None
            seen.append((state.betting, state.round, f"{action.kind.name}{action.size or ''}{'*' if searched else ''}"))

        _play(agent, _clicker, 6, 11, on_decision=note)
        plays.append(seen)
    assert plays[0] == plays[1]
    assert sum(a.endswith("*") and r >= 2 for _, r, a in plays[0]) >= 2  # turns and rivers were searched

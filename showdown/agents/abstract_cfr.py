"""The ``cfr`` agent in games too big to solve whole (hold'em): it plays an abstract strategy.

The strategy (``showdown.solvers.pcs``) is defined on an abstract betting tree and card buckets. At
each decision the agent follows the hand's real betting down the abstract tree, translating every
real action once (no-limit bets of other sizes by the pseudo-harmonic mapping,
``showdown.solvers.betting.translate``; a raise mapped to a call that ends the abstract round leaves
the rest of the real round out of the walk, which waits for the real round to end), finds its
bucket for the cards it sees, samples an abstract action, and turns it into a legal real action of the same pot fraction. Where the real hand has left
the abstract tree (say, the abstract all-in was called but the real bet was smaller and play goes
on), it checks or calls: the abstract strategy had committed to the pot.

With search on (the default; ``search=off`` plays the blueprint alone, ``search=off-tree`` searches
only once the opponent has left the blueprint's tree), the river (on the blueprint's tree in no-limit
from a pot of ``search_min_pot`` big blinds, default 100), and the turn once the opponent has left the
blueprint's tree (``turn=off-tree``; ``turn=on`` always), are re-solved at
decision time (``showdown.agents.search``): at our first decision of the round, and again whenever
the opponent's action is not in the last solution's tree, within ``budget_ms`` per river decision
(default 300) and ``turn_budget_ms`` per turn solve (default 300; the turn gadget's values come on top), at most ``search_iterations``
CFR+ iterations (default 150). The real pot and the opponent's actual bet are in the subgame, so
off-tree sizes are answered as they are, not as their translation; both streets' re-solves are safe
(the resolve gadget with the blueprint's values, the turn's over every river card), and at a turn
solve's first decision no holding folds more often than the blueprint does there
(``Search.cap_folds``). When the budget runs out before
``search.MIN_ITERATIONS`` iterations, it plays the blueprint. Over a match a time bank
(``showdown.agents.time_bank``) scales both budgets so that the mean solve time a hand stays at
``hand_ms`` (default three quarters of ``budget_ms`` and ``turn_budget_ms`` together, 450; 0: the budgets
alone), as competitions bound time per match; only ``act``'s solves draw on it (an evaluator asking
``policy`` about moves never made gets the configured budgets).

``translation=legacy`` (with ``search=off``) maps off-tree bets as the agent did before issue 26
(``betting.translate_legacy``): the blueprint as issue 25's probes found it, for evaluation. ``blueprint=v1`` plays no-limit's
blueprint as shipped before issue 32 (``EARLIER``) instead of the current one.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from showdown.agents.base import Agent, View
from showdown.agents.hand_random import HandRandom
from showdown.errors import ConfigError, SolverError
from showdown.games.gamedef import GameDef
from showdown.games.state import CALL, FOLD, Action, State

SHIPPED = {"holdem-limit": "holdem-limit.pcs.npz", "holdem-nolimit": "holdem-nolimit.pcs.npz"}
"""Trained hold'em strategies shipped with the package (``showdown solve cfr GAME`` reproduces them)."""

EARLIER = {"holdem-nolimit": {"v1": "holdem-nolimit.v1.pcs.npz"}}
"""Strategies shipped before, kept for evaluation, by ``blueprint=NAME``: no-limit's ``v1`` is the
blueprint as issue 32 found it (1,467 iterations; issue 25's probe figures were measured on it)."""


def is_abstract_strategy_file(path: str | Path) -> bool:
    p = Path(path)
    return p.suffix == ".npz" and p.name.endswith(".pcs.npz")


def shipped_path(game: GameDef, blueprint: str | None = None) -> Path | None:
    """The shipped strategy of ``game`` (an earlier one by its ``EARLIER`` name), or None if none is."""
    from showdown.games.catalog import catalog_name

    name = catalog_name(game)
    file = SHIPPED.get(name or "") if blueprint in (None, "current") else EARLIER.get(name or "", {}).get(str(blueprint))
    if file is None:
        return None
    path = Path(__file__).resolve().parent.parent / "solvers" / "data" / file
    return path if path.exists() else None


def solve_spec(game: GameDef) -> str:
    """How ``showdown solve`` is told the game: its catalog name, else its .game file (a custom game's bare
    name, as the hint said before, was an unknown game there)."""
    from showdown.games.catalog import catalog_name

    return catalog_name(game) or f"{game.name or 'GAME'}.game"


class AbstractCFRAgent(Agent):
    """Plays an ``AbstractStrategy`` in the real game (see the module docstring)."""

    name = "cfr"
    sized_range_policy = True
    """``range_policy`` gives each no-limit raise size's probability too (keys ``r<to>``), so that an
    evaluator's range follows the size the agent chose (``evaluation.lbr_belief``)."""

    def __init__(
        self, game: GameDef, strategy: Any, *, seed: int | None = None, search: Any = None, legacy_translation: bool = False
    ) -> None:
        super().__init__(game)
        if strategy.game != game:
            raise ConfigError(f"agent 'cfr': the strategy is for {strategy.game.name or 'another game'}, not {game.name or 'this game'}")
        self.game: GameDef = game
        self.strategy = strategy
        self.tree = strategy.tree
        warm_up = getattr(strategy.abstraction, "warm_up", None)
        if warm_up is not None:
            warm_up()
        from showdown.solvers.betting import translate, translate_legacy

        self.translate = translate_legacy if legacy_translation else translate
        """How an opponent's real action maps onto the tree, chosen once: ``betting.translate`` or,
        for evaluating the blueprint as it played before issue 26, ``betting.translate_legacy``."""
        self.rng = HandRandom(seed)  # per hand: a resumed match draws what the first run drew
        self._hand: int | None = None
        self._actions: list[Action] = []
        self._node = 0
        self._real = State.initial(game)
        self._abstract = State.initial(game)
        self._boards = _BoardBuckets(strategy.abstraction)
        self._letters: list[str] | None = None
        self._steps: list[Any] = []  # search.Step per action of the hand
        self._played: dict[int, np.ndarray] = {}  # our searched actions: every holding's probability of them
        self._trail: list[tuple[int, State, State]] = []  # (node, real, abstract) before each action of the walk
        self._ranges: dict[tuple[Any, ...], dict[str, np.ndarray]] = {}  # range_policy's tables by walk and board
        self.search: Any = None
        if search is not None:
            from showdown.agents.search import Search

            self.search = Search(strategy, self._boards, search)
        self.last_decision: Any = None  # the last searched decision (for tests and diagnostics)
        self._solved: tuple[tuple[Any, ...], Any, str] | None = None  # (hand, board, seat), Solved or None, betting
        self._floor: tuple[tuple[Any, ...], np.ndarray | None] | None = None  # (hand, node, betting, board, seat), floored table

    @classmethod
    def from_options(cls, game: GameDef, options: dict[str, Any]) -> AbstractCFRAgent:
        from showdown.solvers.pcs import AbstractStrategy

        unknown = sorted(set(options) - {"strategy", "blueprint", "seed", "translation", *SEARCH_OPTIONS})
        if unknown:
            raise ConfigError(
                f"agent 'cfr' in {game.name or 'this game'} plays a trained abstract strategy: option(s) "
                f"{', '.join(unknown)} do not apply (give strategy=FILE from 'showdown solve cfr {solve_spec(game)}')"
            )
        path = options.get("strategy")
        blueprint = options.get("blueprint")
        if path is not None and blueprint is not None:
            raise ConfigError("agent 'cfr': give strategy=FILE or blueprint=NAME, not both")
        if blueprint is not None and shipped_path(game, str(blueprint)) is None:
            names = ", ".join(["current", *EARLIER.get(game.name or "", {})])
            raise ConfigError(f"agent 'cfr': no shipped blueprint {blueprint!r} for {game.name or 'this game'} (have: {names})")
        if path is None:
            shipped = shipped_path(game, None if blueprint is None else str(blueprint))
            if shipped is None:
                raise ConfigError(
                    f"agent 'cfr': no shipped strategy for {game.name or 'this game'}; train one with "
                    f"'showdown solve cfr {solve_spec(game)} -o FILE.pcs.npz' and give strategy=FILE.pcs.npz"
                )
            path = shipped
        search = search_settings(options, game)  # a bad option fails at once, before the strategy loads
        legacy = legacy_translation(options, search)
        try:
            strategy = AbstractStrategy.load(Path(path), game)
        except SolverError as exc:
            raise ConfigError(f"agent 'cfr': {exc}") from None
        return cls(game, strategy, seed=options.get("seed"), search=search, legacy_translation=legacy)

    # ------------------------------------------------------------------ following the hand

    def _follow(self, view: View) -> None:
        """Advance the abstract node over the real actions not yet seen this hand.

        The walk is kept between calls of one hand; a view of another hand, or whose betting does not
        extend the walked one (evaluators ask about many situations), starts it over.
        """
        from showdown.solvers.betting import DECISION

        actions = [a for rnd in view.public.history for _, a in rnd]
        seen = self._actions
        same = 0
        if view.hand == self._hand and self.search is None:
            while same < min(len(actions), len(seen)) and actions[same] == seen[same]:
                same += 1
        if 0 < same < len(seen):
            self._back_to(same)  # an evaluator looked ahead and comes back: the walk it made up to here stands
        elif view.hand != self._hand or len(actions) < len(seen) or actions[: len(seen)] != seen:
            if self.search is not None and view.hand != self._hand:
                self.search.bank.new_hand()
            self._hand = view.hand
            self._actions = []
            self._node = 0
            self._real = State.initial(self.game)
            self._abstract = State.initial(self.game)
            self._letters = None
            self._steps = []
            self._played = {}
            self._trail = []
        if len(actions) > len(self._actions):
            self._letters = None
        for action in actions[len(self._actions) :]:
            self._record_searched(view, action)
            self._trail.append((self._node, self._real, self._abstract))
            ahead = not self._abstract.is_terminal and self._abstract.round > self._real.round
            if self.search is not None:
                from showdown.agents.search import Step

                self._steps.append(Step(self._real, self._abstract, -1 if ahead else self._node, action))
            if ahead:
                pass  # a raise translated to a call ended the abstract round: the real round's rest is absorbed
            elif self._node >= 0 and self.tree.kind[self._node] == DECISION:
                options = self.tree.actions[self._node]
                slot = self.translate(self._real, action, self._abstract, options, self.rng.at(view.hand))
                self._abstract = self._abstract.apply(options[slot])
                self._node = int(self.tree.children[self._node, slot])
            else:
                self._node = -1
            self._real = self._real.apply(action)
            self._actions.append(action)

    def _record_searched(self, view: View, action: Action) -> None:
        """Before the walk takes ``action``: if it is ours at a searched decision that ``act`` did not
        play (an evaluator asking ``policy`` along the hand), every holding's probability of it in the
        same solve, so that the ranges of later searches follow the strategy we played, not the blueprint."""
        index = len(self._actions)
        if self.search is None or index in self._played or self._real.current_player != view.position or self._real.is_terminal:
            return
        shown = sum(self.game.num_board_cards[: self._real.round + 1])
        then = View(view.game, view.position, view.hand, view.public, view.hole, tuple(view.board[:shown]), view.betting)
        searched = self._searched(then)
        if searched is not None:
            solved, node = searched
            actions = solved.game.actions[node]
            if action in actions:
                self._played[index] = solved.strategies[node][actions.index(action)]
        elif self._floor is not None and self._floor[1] is not None and self._floor[0] == self._floor_key(then):
            self._record_floored(then, action, self._floor[1])

    def _record_floored(self, view: View, action: Action, table: np.ndarray) -> None:
        """Every holding's probability of ``action`` (ours) under the defence floor's table, so that the
        ranges of later searches and floors follow what we played, not the blueprint's folds."""
        from showdown.solvers.betting import realize

        for slot, option in enumerate(self.tree.actions[self._node]):
            if realize(option, self._abstract, self._real) == action:
                every = self._boards.every_bucket(tuple(view.board), self._real.round)
                self._played[len(self._actions)] = table[every, slot]
                return

    def _back_to(self, length: int) -> None:
        """The walk as it was after the hand's first ``length`` actions (kept, not walked again: an
        off-tree bet translated at random keeps the translation it got)."""
        self._node, self._real, self._abstract = self._trail[length]
        del self._trail[length:]
        del self._actions[length:]
        self._letters = None

    def _on_tree(self, view: View) -> bool:
        from showdown.solvers.betting import DECISION

        n = self._node
        return (
            n >= 0
            and self.tree.kind[n] == DECISION
            and int(self.tree.player[n]) == view.position
            and int(self.tree.round[n]) == self._real.round
        )

    def _probabilities(self, view: View) -> np.ndarray:
        bucket = self._boards.bucket(tuple(view.hole), tuple(view.board), self._real.round)
        floored = self._floored(view, bucket)
        return np.asarray(self.strategy.at(self._node, bucket) if floored is None else floored[bucket])

    def _floor_key(self, view: View) -> tuple[Any, ...]:
        return (self._hand, self._node, self._real.betting, tuple(view.board), view.position)

    def _floored(self, view: View, bucket: int | None = None) -> np.ndarray | None:
        """The node's table with the defence floor (``agents.defence``) where it applies and changes
        something, else None: with search, at the blueprint's decisions facing a bet before the turn
        (the rounds the search never re-solves, where the range costs little), the range (the
        blueprint's by Bayes' rule over our actions, as the search's) folds at most the bettor's
        ``alpha``. ``bucket`` (ours): None when its row keeps its fold anyway (it folds never)."""
        from showdown.solvers.betting import CALL_SLOT, FOLD_SLOT

        real = self._real
        if self.search is None or not self.search.settings.defend or real.to_call() <= 0 or real.round >= real.game.num_rounds - 2:
            return None
        options = self.tree.actions[self._node]
        if options[FOLD_SLOT] != FOLD or len(options) <= CALL_SLOT:
            return None
        table = self.strategy.node_table(self._node)
        if bucket is not None and table[bucket, FOLD_SLOT] <= 0:
            return None
        key = self._floor_key(view)
        if self._floor is not None and self._floor[0] == key:
            return self._floor[1]
        from showdown.agents.defence import alpha, floor_folds, preflop_strength

        board = tuple(view.board)
        blocked = self.search.holdings.blocked(board)
        reach = self.search.ranges(self._steps, self._played, board, blocked)[view.position]  # 0 where the board blocks
        every = self._boards.every_bucket(board, real.round)
        classes = preflop_strength()
        strength = classes if real.round == 0 and len(table) == len(classes) else None
        floored = floor_folds(table, FOLD_SLOT, CALL_SLOT, every, reach, alpha(real.to_call(), sum(real.spent)), strength)
        self._floor = (key, floored)
        return floored

    def _searched(self, view: View, acting: bool = False) -> tuple[Any, int] | None:
        """The turn or river re-solved (``search.Solved``) and the node of this decision in it, or None
        (search off, another street, an opponent still on the tree with ``search=off-tree``, the budget
        ran out). A round is solved at its first decision of ours and played on from the solution while
        the hand stays on its tree; ``act``, ``policy`` and ``range_policy`` share it. Only ``act``
        (``acting``) draws on the time bank: an evaluator's questions get the configured budgets."""
        from showdown.solvers.betting import DECISION

        if self.search is None or self._real.current_player != view.position:
            return None
        if not self.search.wanted(self._real, self._steps, view.position):
            return None
        key = (view.hand, tuple(view.board), view.position)
        if self._solved is not None and self._solved[0] == key:
            solved = self._solved[1]
            if solved is None:
                node = 0 if self._solved[2] == self._real.betting else None
            else:
                node = solved.node_of(self._real)
            if node is not None and (solved is None or solved.game.kind[node] == DECISION):
                return None if solved is None else (solved, node)
        solved = self.search.solve(self._steps, self._played, self._real, self._node, view.position, tuple(view.board), timed=acting)
        self._solved = (key, solved, self._real.betting)
        return None if solved is None else (solved, 0)

    def act(self, view: View) -> Action:
        from showdown.solvers.betting import realize

        self._follow(view)
        searched = self._searched(view, acting=True)
        if searched is not None:
            solved, node = searched
            strategy = solved.strategies[node]
            probs = strategy[:, self.search.holdings.index(tuple(view.hole))]
            slot = self.rng.at(view.hand).index((probs / probs.sum()).tolist())
            self._played[len(self._actions)] = strategy[slot]
            self.last_decision = solved
            return solved.game.actions[node][slot]  # type: ignore[no-any-return]
        if not self._on_tree(view):
            return CALL
        probs = self._probabilities(view)
        slot = self.rng.at(view.hand).index(probs.tolist())
        return realize(self.tree.actions[self._node][slot], self._abstract, self._real)

    def policy(self, view: View) -> dict[str, float]:
        """Probabilities of fold, call and raise (all sizes together) here, for evaluators such as LBR:
        the searched strategy's where ``act`` searches (the same solve), else the blueprint's."""
        from showdown.solvers.betting import realize

        self._follow(view)
        searched = self._searched(view)
        if searched is not None:
            mine = np.array([self.search.holdings.index(tuple(view.hole))])
            return {letter: float(p[0]) for letter, p in searched[0].letters(searched[1], mine).items()}
        if not self._on_tree(view):
            return {"c": 1.0}
        if self._letters is None:
            self._letters = [str(realize(a, self._abstract, self._real))[:1] for a in self.tree.actions[self._node]]
        out: dict[str, float] = {}
        for letter, p in zip(self._letters, self._probabilities(view).tolist()):
            out[letter] = out.get(letter, 0.0) + p
        return out

    def range_policy(self, view: View, hands: np.ndarray) -> dict[str, np.ndarray]:
        """``policy`` for every holding in ``hands`` (an (n, 2) array of hole cards) at once, the view's
        own hole cards aside: what an evaluator that keeps a range (LBR) asks at every action."""
        from showdown.solvers.betting import realize

        self._follow(view)
        searched = self._searched(view)
        if searched is not None:
            return searched[0].letters(searched[1], self._boards.indices(hands), sized=self.game.is_nolimit)  # type: ignore[no-any-return]
        if not self._on_tree(view):
            return {"c": np.ones(len(hands))}
        # the table depends on the walk (the abstract node, the real betting its actions are realized
        # in) and the board only: kept, an evaluator asking again on the same walk gets it at once
        key = (self._node, self._real.betting, tuple(view.board), hands.tobytes(), self._hand if self.search is not None else None)
        out = self._ranges.get(key)
        if out is not None:
            return out
        if self._letters is None:
            self._letters = [str(realize(a, self._abstract, self._real))[:1] for a in self.tree.actions[self._node]]
        every = self._boards.every_bucket(tuple(view.board), self._real.round)
        buckets = every[self._boards.indices(hands)]
        # each letter's probability per bucket (the node's few rows), then read per holding: the
        # same sums as per holding, done once per bucket
        floored = self._floored(view)
        table = self.strategy.node_table(self._node) if floored is None else floored
        out = {}
        for letter, total in _letter_sums(table, self._letters).items():
            out[letter] = total[buckets]
        if self.game.is_nolimit:  # each raise size too (``sized_range_policy``)
            sizes = [str(realize(a, self._abstract, self._real)) for a in self.tree.actions[self._node]]
            for size, total in _letter_sums(table, sizes).items():
                if size[0] == "r":
                    out[size] = total[buckets]
        if len(self._ranges) >= 256:
            self._ranges.clear()
        self._ranges[key] = out
        return out


SEARCH_OPTIONS = ("search", "budget_ms", "search_iterations", "gadget", "turn", "turn_budget_ms", "search_target", "gadget_margin", "search_min_pot",
                  "search_sizes", "gadget_penalty", "defend", "hand_ms", "response_ms")
"""Options of the hold'em ``cfr`` agent's search at decision time."""

TRANSLATIONS = ("pseudo-harmonic", "legacy")
"""How off-tree bets map to the tree: the call and the kept sizes as neighbours (the default), or the
kept sizes only, as before issue 26 (``legacy``; the blueprint alone)."""


def legacy_translation(options: dict[str, Any], search: Any) -> bool:
    """Whether ``options`` ask for the legacy translation; ``ConfigError`` for an unknown one, or for
    legacy with search (whose ranges follow the current translation)."""
    translation = str(options.get("translation", TRANSLATIONS[0])).lower()
    if translation not in TRANSLATIONS:
        raise ConfigError(f"agent 'cfr': translation must be one of {', '.join(TRANSLATIONS)} (got {translation!r})")
    if translation == "legacy" and search is not None:
        raise ConfigError("agent 'cfr': translation=legacy is the blueprint as it played before issue 26: add -o search=off")
    return translation == "legacy"


HAND_SHARE = 0.75
"""``hand_ms``'s default as a share of a turn's and a river's budgets together (450 ms for the default
300 and 300): a user who raises the budgets raises the bank with them."""

NOLIMIT_MIN_POT_BB = 100.0
"""No-limit's default ``search_min_pot``: on the blueprint's tree, rivers with smaller pots play the
blueprint. Head to head the safe river search gains little over the blueprint (``benchmarks/
bench_search_edge.py``: +8 +- 5 mbb a hand over every pot), while a search costs up to 300 ms
against the blueprint's 0.7 ms a hand: from 100 big blinds the agent keeps within 2x of the
blueprint's time against an opponent on the tree (from 40, 3.6x; ``benchmarks/bench_holdem_agent.py``)."""

GADGETS = ("best-response", "blueprint", "reach", "off")
"""The opponent's alternative to entering a re-solved subgame: its best-response value against the
blueprint, its value when both play the blueprint, that value plus its gift at its last decision
(reach subgame solving), or none (the subgame solved with the ranges alone)."""


def search_settings(options: dict[str, Any], game: GameDef | None = None) -> Any:
    """The agent's ``SearchSettings`` from its options, or None with ``search=off``. The turn is
    searched by default in no-limit only, and there once the opponent has left the blueprint's tree
    (``turn=off-tree``; ``turn=on`` always): limit's full turn-and-river tree does not fit the budget.
    No-limit rivers on the tree are searched from a pot of ``NOLIMIT_MIN_POT_BB`` big blinds."""
    from showdown.agents.clock import dealer_clock
    from showdown.agents.search import SearchSettings

    search = options.get("search", True)
    if str(search).lower() in ("false", "off", "0", "no"):
        return None
    if str(search).lower() not in ("true", "on", "1", "yes", "off-tree"):
        raise ConfigError(f"agent 'cfr': search must be on, off or off-tree (got {search!r})")
    default = SearchSettings()
    budget = float(options.get("budget_ms", default.budget_ms))
    turn_budget = float(options.get("turn_budget_ms", default.turn_budget_ms))
    iterations = int(options.get("search_iterations", default.iterations))
    target = float(options.get("search_target", default.target))
    margin = float(options.get("gadget_margin", default.gadget_margin))
    penalty = float(options.get("gadget_penalty", default.gadget_penalty))
    hand_ms = float(options.get("hand_ms", HAND_SHARE * (budget + turn_budget)))
    min_pot = float(options.get("search_min_pot", NOLIMIT_MIN_POT_BB if game is None or game.is_nolimit else 0.0))
    if min(budget, turn_budget, target, margin, min_pot, penalty, hand_ms) < 0 or iterations < 1:
        raise ConfigError(
            "agent 'cfr': budget_ms, turn_budget_ms, hand_ms, search_target, gadget_margin, gadget_penalty and search_min_pot must be >= 0 "
            "and search_iterations >= 1"
        )
    gadget = options.get("gadget", default.gadget)
    gadget = "off" if str(gadget).lower() in ("false", "off") else str(gadget)  # YAML reads a bare off as false
    if gadget not in GADGETS:
        raise ConfigError(f"agent 'cfr': gadget must be one of {', '.join(GADGETS)} (got {gadget!r})")
    turn_default = "off-tree" if game is None or game.is_nolimit else "off"
    turn_option = str(options.get("turn", turn_default)).lower()
    if turn_option not in ("true", "on", "1", "yes", "false", "off", "0", "no", "off-tree"):
        raise ConfigError(f"agent 'cfr': turn must be on, off or off-tree (got {turn_option!r})")
    turn = turn_option not in ("false", "off", "0", "no")
    defend = str(options.get("defend", "on" if game is None or game.is_nolimit else "off")).lower()
    if defend not in ("true", "on", "1", "yes", "false", "off", "0", "no"):
        raise ConfigError(f"agent 'cfr': defend must be on or off (got {defend!r})")
    clock = dealer_clock()  # the match's limits, which the protocol never sends (``showdown match`` sets them)
    if "response_ms" in options:  # given by hand, for a dealer that is not ours (0: none)
        response = float(options["response_ms"])
        if response < 0:
            raise ConfigError("agent 'cfr': response_ms (the dealer's time per decision) must be >= 0")
        clock = replace(clock, response_ms=response or None)
    if (mean := clock.mean_hand_ms()) is not None and hand_ms > 0:
        hand_ms = min(hand_ms, mean)
    return replace(
        default, sizing=_river_sizing(options.get("search_sizes"), default.sizing), budget_ms=budget, iterations=iterations, gadget=gadget, turn=turn, turn_budget_ms=turn_budget, target=target,
        turn_off_tree=turn_option == "off-tree", gadget_margin=margin, min_pot_bb=min_pot, gadget_penalty=penalty,
        off_tree_only=str(search).lower() == "off-tree", defend=defend in ("true", "on", "1", "yes"), hand_ms=hand_ms,
        decision_ms=clock.decision_ms(),
    )


def _river_sizing(text: Any, default: Any) -> Any:
    """The re-solved river's raise sizes from ``search_sizes`` (pot fractions joined by ``/``, such as
    ``0.25/0.5/1/1.5``; all-in is always there), or ``default``."""
    if text is None:
        return default
    parts = text if isinstance(text, list) else str(text).split("/")
    try:
        fractions = tuple(sorted({float(f) for f in parts}))
    except ValueError:
        fractions = ()
    if not fractions or min(fractions) <= 0:
        raise ConfigError(f"agent 'cfr': search_sizes must be positive pot fractions joined by '/', such as 0.5/1 (got {text!r})")
    return replace(default, fractions=fractions)


def _letter_sums(table: np.ndarray, letters: list[str]) -> dict[str, np.ndarray]:
    """The columns of a node's (buckets, slots) table summed by action letter, slot order kept."""
    out: dict[str, np.ndarray] = {}
    for slot, letter in enumerate(letters):
        out[letter] = out[letter] + table[:, slot] if letter in out else table[:, slot]
    return out


class _BoardBuckets:
    """Buckets of the hole cards asked about, by board: one holding's bucket while only one is asked
    about (play: a few ms at most), every holding's at once when several are (evaluators)."""

    MAX_BOARDS = 64

    def __init__(self, abstraction: Any) -> None:
        from showdown.solvers.holdings import game_holdings

        self.abstraction = abstraction
        self.holdings = game_holdings(abstraction.game)
        self.single: dict[tuple[Any, ...], int] = {}
        self.every: dict[tuple[Any, ...], np.ndarray] = {}
        self.asked: dict[tuple[Any, ...], tuple[int, ...]] = {}
        self._pairs: np.ndarray | None = None  # [card, card] -> holding index

    def bucket(self, hole: tuple[int, ...], board: tuple[int, ...], round_: int) -> int:
        key = (round_, board)
        table = self.every.get(key)
        if table is not None:
            return int(table[self._index(hole)])
        if (round_, board, hole) in self.single:
            return self.single[(round_, board, hole)]
        if len(self.single) > 4 * self.MAX_BOARDS:
            self.single.clear()
            self.asked.clear()
        first = self.asked.setdefault(key, hole)
        if first != hole and round_ > 0 and hasattr(self.abstraction, "board_buckets"):
            if len(self.every) > self.MAX_BOARDS:
                self.every.clear()
            table = self.every[key] = self.abstraction.board_buckets(board, round_)
            return int(table[self._index(hole)])
        b = self.single[(round_, board, hole)] = int(self.abstraction.bucket(hole, board, round_))
        return b

    def _index(self, hole: tuple[int, ...]) -> int:
        return self.holdings.index(hole)

    def every_bucket(self, board: tuple[int, ...], round_: int) -> np.ndarray:
        """Every holding's bucket (holdings order; meaningless for holdings the board blocks)."""
        key = (round_, board)
        table = self.every.get(key)
        if table is None:
            if len(self.every) > self.MAX_BOARDS:
                self.every.clear()
            if round_ > 0 and hasattr(self.abstraction, "board_buckets"):
                table = self.abstraction.board_buckets(board, round_)
            else:
                table = np.array(
                    [self.abstraction.bucket(tuple(int(c) for c in row), board, round_) if not set(row.tolist()) & set(board) else 0
                     for row in self.holdings.cards],
                    dtype=np.int64,
                )
            self.every[key] = table
        return table

    def indices(self, hands: np.ndarray) -> np.ndarray:
        """Positions of ``hands`` (rows of hole cards, any order within a row) in the holdings order."""
        if self._pairs is None:
            cards = self.holdings.cards
            top = int(cards.max()) + 1
            self._pairs = np.full((top, top), -1, dtype=np.int64)
            self._pairs[cards[:, 0], cards[:, -1]] = np.arange(len(cards))
            self._pairs[cards[:, -1], cards[:, 0]] = np.arange(len(cards))
        positions: np.ndarray = self._pairs[hands[:, 0], hands[:, -1]]
        return positions

"""Local best response (Lisy and Bowling 2017, "Equilibrium approximation quality of current
no-limit poker bots"): a lower bound on how exploitable an agent is, in games too large for an exact
best response.

LBR plays hands against the agent, which plays as in a match: each of its actions is what its own
``act(view)`` draws. LBR keeps the agent's range (a weight per possible private hand, card removal
included) by Bayes' rule from the agent's action probabilities, ``policy(view)``, the optional method
a Python bot adds to be evaluated (every built-in agent has it, and it is the exact distribution of
the action kind ``act`` draws: ``tests/agents/test_policy_matches_act.py``). At each of its
decisions LBR estimates its chance ``WP`` of winning a showdown against the range (exactly by
enumeration when the remaining board is small, else by ``rollouts`` sampled boards) and takes the
action of highest local value, assuming the agent calls to the end:

* fold: 0; check or call ``c`` chips into a pot of ``P``: ``WP (P + c) - c``;
* raise by ``r`` beyond the call: ``f P + (1 - f) (WP' (P + c + 2 r) - (c + r))``, with ``f`` the
  range's probability of folding to it and ``WP'`` the win chance against the hands that continue,
  the range weighted by each hand's probability of not folding (as PokerRL's ``LocalLBRWorker``
  recomputes it after the fold update).

Settings (``ActionSet``, ``check_until``): the published setting has LBR check or call before a
given round (``check_until``: the flop in hold'em, PokerRL's ``lbr_check_to_round``) and raise with
the sizes of the action set from then on: ``fc`` (no raises), ``fcpa`` (pot and all-in), ``fc56``
(56 sizes, 0.1 to 46 pots and all-in), and ``wide`` (min-raise, 1/4, 1/2 pot, pot, all-in: the sizes
abstraction agents handle worst); ``check_until=0`` is the all-street variant. Whatever LBR wins per
hand (mean over both positions) is a lower bound on the agent's exploitability, whatever its range
estimate; the chance-only corrections of ``evaluation.chance`` take the cards' luck out of the
estimate without bias, and so do AIVAT's terms for the agent's draws, which LBR can make because it
knows the agent's policy: over its range, with its hidden cards integrated out, where the range is
the exact posterior (``evaluation.lbr_belief``), else with its real cards (``evaluation.lbr_terms``).
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from showdown.errors import ConfigError, ShowdownError
from showdown.evaluation.lbr_belief import Round, action_values, belief_action_term, equities_from, hidden_cards_term
from showdown.evaluation.lbr_terms import RAISE_ANSWERED, ActionTerms
from showdown.games.cards import make_deck
from showdown.games.evaluate import hand_values, values_on_boards
from showdown.games.gamedef import GameDef
from showdown.games.state import Action, ActionKind, State

MIN_RAISE = "min"
ALL_IN = "allin"
MAX_POT_FRACTION = 1000
FC56: tuple[float, ...] = tuple(round(0.1 * k, 1) for k in range(1, 10)) + tuple(float(k) for k in range(1, 47))
"""The paper's 55 pot fractions (0.1 to 0.9, then 1 to 46 pots); with all-in, 56 sizes."""
MAX_EXACT_RUNOUTS = 500
"""Board completions enumerated exactly for WP; beyond, ``rollouts`` are sampled."""


POLICY_TOLERANCE = 1e-4
"""How far from 1 an agent's probabilities may sum (float rounding; a policy off by more is refused)."""


def _who(agent: Any) -> str:
    name = getattr(agent, "name", "agent")
    return f"agent {type(agent).__name__ if name == 'agent' else name!r}:"


def legal_letters(state: State) -> frozenset[str]:
    """The letters of the legal action kinds at ``state`` ('f', 'c', 'r')."""
    return frozenset(str(a)[0] for a in state.legal_actions())


def checked_policy(answer: Any, state: State, agent: Any, legal: frozenset[str] | None = None) -> dict[str, float]:
    """An agent's ``policy`` answer as letters -> probabilities, or a ``ShowdownError`` saying what is
    wrong with it: LBR's figures from probabilities that are NaN, negative, of unknown letters or
    illegal actions, or that do not sum to 1 were wrong (+nan mbb/hand) or a KeyError traceback.
    ``legal``: the state's ``legal_letters``, when the caller has them already."""
    try:
        probs = {k: float(v) for k, v in dict(answer).items()}
    except (TypeError, ValueError):
        probs = None
    if legal is None:
        legal = legal_letters(state)
    total = sum(probs.values()) if probs is not None else math.nan
    why = ("is not a dict of action letters and probabilities" if probs is None
           else "has a letter other than 'f', 'c' and 'r'" if not probs.keys() <= {"f", "c", "r"}
           else "has a probability that is negative or not a number"
           if not all(-POLICY_TOLERANCE <= p <= math.inf for p in probs.values())
           else f"gives an illegal action a probability (legal: {', '.join(sorted(legal))})"
           if any(p > POLICY_TOLERANCE and k not in legal for k, p in probs.items())
           else f"sums to {total:.6g}, not 1" if not abs(total - 1) <= POLICY_TOLERANCE else None)
    if why is not None:
        raise ShowdownError(f"{_who(agent)} policy() at '{state.betting}' {why}: {str(answer)[:80]}; LBR needs "
                            "probabilities of the legal actions summing to 1, like {'f': 0.2, 'c': 0.5, 'r': 0.3}")
    # float rounding (a -1e-17 from a subtraction, a 1e-12 on an illegal letter) is clipped, not refused
    return {k: max(p, 0.0) for k, p in probs.items() if k in legal}  # type: ignore[union-attr]


@dataclass(frozen=True, slots=True)
class ActionSet:
    """LBR's no-limit raise sizes: pot fractions (of the pot after calling), ``"min"`` and ``"allin"``."""

    name: str
    sizes: tuple[float | str, ...]

    def describe(self) -> str:
        if not self.sizes:
            return "fold/call only"
        words = [s if isinstance(s, str) else f"{s:g} pot" for s in self.sizes]
        return ", ".join(words) if len(words) <= 6 else f"{len(words)} sizes ({words[0]} to {words[-1]})"


ACTION_SETS: dict[str, ActionSet] = {
    "fc": ActionSet("fc", ()),
    "fcpa": ActionSet("fcpa", (1.0, ALL_IN)),
    "fc56": ActionSet("fc56", FC56 + (ALL_IN,)),
    "wide": ActionSet("wide", (MIN_RAISE, 0.25, 0.5, 1.0, ALL_IN)),
}
"""The paper's settings (``fc``, ``fcpa``, ``fc56``) and ``wide``, with the small sizes abstractions miss."""
DEFAULT_ACTION_SETS = ("fcpa", "wide")


_POT_FRACTION = re.compile(r"\d+(\.\d*)?|\.\d+")
_SIZE_WORDS = {MIN_RAISE: MIN_RAISE, "min-raise": MIN_RAISE, ALL_IN: ALL_IN, "all-in": ALL_IN}


def action_set(text: str | ActionSet) -> ActionSet:
    """A named set (``fcpa``) or sizes joined by ``/`` (``min/0.25/0.5/1/allin``); ``ConfigError`` else.

    Each size is read whole: a pot fraction written as a plain decimal, ``min`` or ``allin`` (``min-raise``
    and ``all-in`` too); anything else is refused, never reread as another size ('0-5' was 5 pot)."""
    if isinstance(text, ActionSet):
        return text
    if text in ACTION_SETS:
        return ACTION_SETS[text]
    sizes: list[float | str] = []
    for token in text.split("/"):
        word = token.strip().lower()
        if word in _SIZE_WORDS:
            sizes.append(_SIZE_WORDS[word])
        elif _POT_FRACTION.fullmatch(word) and 0 < float(word) <= MAX_POT_FRACTION:
            sizes.append(float(word))
        else:
            raise ConfigError(
                f"LBR action set {text!r}: {token!r} is not a size; sizes are 'min', 'allin' or a pot fraction like "
                f"0.25 or 1.7 (above 0, at most {MAX_POT_FRACTION:g}), joined by '/'; or name a set: {', '.join(ACTION_SETS)}"
            )
    return ActionSet(text, tuple(sizes))


def published_check_until(game: GameDef) -> int:
    """The published setting: LBR checks or calls before the flop in hold'em-like games (3+ rounds),
    and acts from the first round in one- and two-round games (Kuhn, Leduc)."""
    return 1 if game.num_rounds >= 3 else 0


class LocalBestResponse:
    """LBR against one agent (which must have ``policy(view)``) in a 2-player game.

    ``compiled`` (52-card games): LBR's showdowns, the hold'em agents' river strengths and the chance
    corrections' equities come from the compiled kernels of ``solvers.hand_kernels`` (the same numbers bit for bit, faster; numba's
    loading, about a second, is paid once per process); ``False`` keeps the numpy path."""

    def __init__(
        self, game: GameDef, agent: Any, *, rollouts: int = 100, actions: str | ActionSet = "fcpa",
        check_until: int | None = None, compiled: bool = True, raise_value: str = RAISE_ANSWERED, belief: bool = True,
    ) -> None:
        if game.num_players != 2:
            raise ConfigError(f"local best response plays 2-player games ({game.name or 'this game'} has {game.num_players})")
        if not callable(getattr(agent, "policy", None)):
            raise ConfigError(
                f"{_who(agent)[:-1]} cannot tell its action probabilities: LBR needs "
                "a policy(view) method returning {'f': p, 'c': p, 'r': p}"
            )
        self.game = game
        self.agent = agent
        self.rollouts = rollouts
        self.actions = action_set(actions)
        self.check_until = published_check_until(game) if check_until is None else check_until
        self.deck = make_deck(game.num_ranks, game.num_suits)
        self.hands = np.array(list(itertools.combinations(self.deck, game.num_hole_cards)), dtype=np.int64)
        self.hand_tuples = [tuple(h) for h in self.hands.tolist()]
        self._hand_index = {tuple(sorted(hand)): k for k, hand in enumerate(self.hand_tuples)}
        self._holds = np.zeros((int(max(self.deck)) + 1, len(self.hands)), dtype=bool)  # [card, hand]
        for k in range(self.hands.shape[1]):
            self._holds[self.hands[:, k], np.arange(len(self.hands))] = True
        self._cache: dict[tuple[Any, ...], dict[str, float]] = {}
        self._by_hand = bool(getattr(agent, "policy_by_hand", False))
        self._range_cache: dict[tuple[Any, ...], dict[str, np.ndarray]] = {}
        self._street: tuple[Any, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None] | None = None
        """The street's showdown sums: (LBR's hand and the board, score, valid, the hands they were
        summed for (None: all), the runouts)."""
        self._hand = 0
        self.action_terms = ActionTerms(self, raise_value)
        self.action_correction = 0.0
        """The last hand's correction for the agent's draws (``agent_term``), subtracted from LBR's result."""
        self._sized = bool(getattr(agent, "sized_range_policy", False)) and callable(getattr(agent, "range_policy", None))
        self.belief = belief and (game.is_limit or self._sized or bool(getattr(agent, "raise_sizes_blind", False)))
        """Whether the agent's cards are integrated out of the estimate (``evaluation.lbr_belief``): asked
        (``belief``) and sound, the range being the exact posterior of the agent's cards (its raise sizes
        told, blind to its cards, or fixed by the limit rules); else ``raise_value``'s action terms."""
        self.hidden_cards = 0.0
        """The last hand's hidden cards' term (``evaluation.lbr_belief``; 0 without ``belief``), added to LBR's result."""
        self._preflop_classes = game.num_hole_cards == 2 and len(self.deck) == 52 and sum(game.num_board_cards) == 5
        if self._preflop_classes:
            from showdown.solvers.hand_classes import class_of

            self._classes = np.array([class_of(int(a), int(b)) for a, b in self.hands.tolist()], dtype=np.int64)
        self._kernels: Any = None
        if compiled and len(self.deck) == 52 and 5 <= game.num_hole_cards + sum(game.num_board_cards) <= 7:
            # thousands of hands: the compiled showdowns (and the hold'em agents' river strengths,
            # which rank every holding on each turn's 48 rivers) pay numba's loading; same numbers
            from showdown.games.evaluate import prefer_compiled
            from showdown.solvers import hand_kernels

            self._kernels = hand_kernels
            prefer_compiled()
            hand_kernels.warm_up()  # loaded now (before a run's workers fork, which inherit them), not mid-hand

    # ------------------------------------------------------------------ the agent's side

    def agent_view(self, state: State, position: int, hole: tuple[int, ...], board: tuple[int, ...], betting: str | None = None) -> Any:
        from showdown.agents.base import View

        return View(self.game, position, self._hand, state, hole, board, state.betting if betting is None else betting)

    def _policy(self, hole: tuple[int, ...], board: tuple[int, ...], state: State, position: int,
                here: tuple[str, frozenset[str]] | None = None) -> dict[str, float]:
        """The agent's checked ``policy`` for ``hole`` here, remembered. ``here``: the state's betting
        and legal letters, when the caller asks about many holdings of one state (worked out once)."""
        betting, legal = here or (state.betting, None)
        key = (hole, board, betting, self._hand if self._by_hand else 0)
        got = self._cache.get(key)
        if got is None:
            try:
                answer = self.agent.policy(self.agent_view(state, position, hole, board, betting))
            except Exception as exc:  # noqa: BLE001 - the bot's own code: said in one line, not a traceback
                raise ShowdownError(f"{_who(self.agent)} policy() failed at '{state.betting}': {type(exc).__name__}: {exc}"[:300]) from None
            got = checked_policy(answer, state, self.agent, legal)
            if len(self._cache) > 400_000:
                self._cache.clear()
            self._cache[key] = got
        return got

    def _range_table(self, board: tuple[int, ...], state: State, position: int) -> dict[str, np.ndarray] | None:
        """The agent's ``range_policy`` here (every holding's probabilities at once), if it has one."""
        batched = getattr(self.agent, "range_policy", None)
        if batched is None:
            return None
        key = (board, state.betting)
        table = self._range_cache.get(key)
        if table is None:
            if len(self._range_cache) > 1_000:
                self._range_cache.clear()
            table = self._range_cache[key] = batched(self.agent_view(state, position, self.hand_tuples[0], board), self.hands)
        return table

    def agent_policy(self, hole: tuple[int, ...], board: tuple[int, ...], state: State, position: int) -> dict[str, float]:
        """The agent's probabilities with its real cards: a row of the range table when it has one
        (the same numbers; the table is needed for the range anyway), else its ``policy``."""
        table = self._range_table(board, state, position)
        if table is None:
            return self._policy(hole, board, state, position)
        k = self._hand_index[tuple(sorted(hole))]
        return {letter: float(probs[k]) for letter, probs in table.items() if len(letter) == 1}

    def range_probs(self, weights: np.ndarray, board: tuple[int, ...], state: State, position: int, letter: str) -> np.ndarray:
        """Every holding's probability of taking action kind ``letter`` here (0 where the weight is 0)."""
        out = np.zeros(len(self.hands))
        table = self._range_table(board, state, position)
        if table is not None:
            got = table.get(letter)
            if got is not None:
                out[:] = got
            return np.where(weights > 0, out, 0.0)
        hands = self.hand_tuples
        here = (state.betting, legal_letters(state))
        if getattr(self.agent, "cards_blind", False):  # the same answer for every hand: ask once
            live = weights > 0
            if live.any():
                out[live] = self._policy(hands[int(np.argmax(live))], board, state, position, here).get(letter, 0.0)
            return out
        for i in np.flatnonzero(weights > 0).tolist():
            out[i] = self._policy(hands[i], board, state, position, here).get(letter, 0.0)
        return out

    def agent_action(self, state: State, position: int, hole: tuple[int, ...], board: tuple[int, ...]) -> Action:
        """What the agent plays here: its own ``act`` (repaired as the dealer repairs it), as in a match."""
        try:
            chosen: Action = self.agent.act(self.agent_view(state, position, hole, board))
            return state.repair(chosen)[0]
        except Exception as exc:  # noqa: BLE001 - the bot's own code (a non-Action too: no .kind)
            raise ShowdownError(f"{_who(self.agent)} act() failed at '{state.betting}': {type(exc).__name__}: {exc}"[:300]) from None

    def _check_drawn(self, state: State, position: int, hole: tuple[int, ...], board: tuple[int, ...], held: int,
                     action: Action) -> None:
        """A ``ShowdownError`` when ``act`` played an action its ``policy`` gives probability 0 with
        those cards: the range and the terms of mean zero rest on policy being what act draws from (a
        policy that folded where act called gave a confident -300 mbb/hand against a calling station)."""
        only = np.zeros(len(self.hands))
        only[held] = 1.0
        if self.range_probs(only, board, state, position, self._key(action))[held] > 0:
            return
        said = self.agent_policy(hole, board, state, position)
        raise ShowdownError(f"{_who(self.agent)} act() played {action} at '{state.betting}' where its policy() gives it "
                            f"probability 0 ({said}); LBR needs policy(view) to be the distribution act draws from")

    def observe(self, weights: np.ndarray, board: tuple[int, ...], state: State, position: int, letter: str) -> np.ndarray:
        """The range after the agent took action kind ``letter`` (Bayes' rule), kept whole if it did
        what its policy says it never does."""
        updated: np.ndarray = weights * self.range_probs(weights, board, state, position, letter)
        return updated if updated.sum() > 0 else (weights > 0).astype(float)

    # ------------------------------------------------------------------ LBR's side

    def win_probability(self, mine: tuple[int, ...], weights: np.ndarray, board: tuple[int, ...], rng: np.random.Generator) -> float:
        """LBR's chance of winning a showdown against the range. The showdowns of every candidate hand
        on the sampled (or enumerated) boards are worked out once per street, summed over the boards,
        and kept for the street's other decisions, where only the range changes."""
        score, valid = self._showdowns(mine, board, rng, weights > 0)
        total = float(valid @ weights)
        return float(score @ weights) / total if total > 0 else 0.5

    def _showdowns(self, mine: tuple[int, ...], board: tuple[int, ...], rng: np.random.Generator,
                   live: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per candidate hand: LBR's showdown score (1 win, 1/2 tie) summed over the boards where the
        hand is possible, and the count of those boards. The compiled sums skip the hands out of the
        range (``live`` false: their weight is 0, so they add 0 either way); a street's range only
        narrows, and a wider one (a sibling branch of ``exact_value``) sums again on the same runouts."""
        key = (mine, board)
        kept = self._street
        if kept is not None and kept[0] == key and (kept[3] is None or not (live & ~kept[3]).any()):
            return kept[1], kept[2]
        if not board and self._preflop_classes:
            # hold'em before the flop: the exact all-in equity of the 169 classes (solvers.equity)
            # instead of rollouts; LBR may choose its actions from any estimate
            from showdown.evaluation.chance import _class_table
            from showdown.solvers.hand_classes import class_of

            table = _class_table()
            valid = (~np.isin(self.hands, np.array(mine)).any(axis=1)).astype(float)
            score = table[class_of(*mine), self._classes] * valid
            self._street = (key, score, valid, None, None)
            return score, valid
        if kept is not None and kept[0] == key and kept[4] is not None:
            score, valid = self._kernels.showdown_scores(kept[4], mine, self.hands, live)
            self._street = (key, score, valid, live, kept[4])
            return score, valid
        total_board = sum(self.game.num_board_cards)
        rest = [c for c in self.deck if c not in mine and c not in board]
        need = total_board - len(board)
        count = math.comb(len(rest), need)
        if count <= MAX_EXACT_RUNOUTS:
            runs = np.array(list(itertools.combinations(rest, need)), dtype=np.int64).reshape(count, need)
        else:
            # ``rollouts`` uniform draws of ``need`` distinct cards: the smallest of random keys
            picks = rng.random((self.rollouts, len(rest))).argpartition(need - 1, axis=1)[:, :need]
            runs = np.array(rest, dtype=np.int64)[picks]
        boards = np.concatenate([np.broadcast_to(np.array(board, dtype=np.int64), (len(runs), len(board))), runs], axis=1)
        if self._kernels is not None:
            score, valid = self._kernels.showdown_scores(boards, mine, self.hands, live)
            self._street = (key, score, valid, live, boards)
            return score, valid
        # a candidate hand holds a card of the runout, or of LBR's hand or the board
        blocked = np.zeros((len(boards), len(self.hands)), dtype=bool)
        if need:
            blocked |= self._holds[runs].any(axis=1)
        dealt = np.asarray(self._holds[list(mine + board)].any(axis=0))
        blocked |= dealt[None, :]
        if len(mine) + total_board >= 5 and len(self.deck) == 52:
            ours = values_on_boards(boards, np.array([mine]))[:, 0]
            theirs = values_on_boards(boards, self.hands)
        else:  # small games (Leduc, Kuhn-like): the general evaluator, pair by pair
            ours = hand_values(np.concatenate([np.broadcast_to(np.array(mine), (len(boards), len(mine))), boards], axis=1))
            r_idx, h_idx = np.nonzero(~blocked)
            theirs = np.zeros(blocked.shape, dtype=np.int64)
            theirs[r_idx, h_idx] = hand_values(np.concatenate([boards[r_idx], self.hands[h_idx]], axis=1))
        won = (ours[:, None] > theirs).astype(float) + 0.5 * (ours[:, None] == theirs)
        won[blocked] = 0.0
        score = won.sum(axis=0)
        valid = (len(boards) - blocked.sum(axis=0)).astype(float)
        self._street = (key, score, valid, None, None)
        return score, valid


    def raise_options(self, state: State) -> list[Action]:
        """LBR's raises here: the limit raise, or the set's no-limit sizes that are legal (all-in included)."""
        bounds = state.raise_bounds()
        if bounds is None:
            return []
        if self.game.is_limit:
            return [Action(ActionKind.RAISE)]
        lo, hi = bounds
        pot_after_call = sum(state.spent) + state.to_call()
        sizes: set[int] = set()
        for size in self.actions.sizes:
            if size == MIN_RAISE:
                sizes.add(lo)
            elif size == ALL_IN:
                sizes.add(hi)
            else:
                to = state.max_spent + int(round(float(size) * pot_after_call))
                if lo <= to <= hi:
                    sizes.add(to)
        return [Action(ActionKind.RAISE, s) for s in sorted(sizes)]

    def decide(self, state: State, me: int, mine: tuple[int, ...], weights: np.ndarray, board: tuple[int, ...], rng: np.random.Generator) -> Action:
        """LBR's action: check/call before ``check_until``, else the best local value (module docstring)."""
        if state.round < self.check_until:
            return Action(ActionKind.CALL)
        wp = self.win_probability(mine, weights, board, rng)
        pot = float(sum(state.spent))
        asked = float(state.to_call())
        best, value = Action(ActionKind.CALL), wp * (pot + asked) - asked
        if asked > 0 and value < 0:
            best, value = Action(ActionKind.FOLD), 0.0
        norm = float(weights.sum())
        for action in self.raise_options(state):
            after = state.apply(action)
            r = after.spent[me] - state.spent[me] - asked
            folds = self.range_probs(weights, board, after, 1 - me, "f")
            fold = float(folds @ weights) / norm if norm > 0 else 0.0
            continuing = weights * (1.0 - folds)
            wp_called = self.win_probability(mine, continuing, board, rng) if continuing.sum() > 0 else wp
            u = fold * pot + (1 - fold) * (wp_called * (pot + asked + 2 * r) - (asked + r))
            if u > value:
                best, value = action, u
        return best

    # ------------------------------------------------------------------ hands

    def _first_range(self, mine: tuple[int, ...]) -> np.ndarray:
        return (~self._holds[list(mine)].any(axis=0)).astype(float)

    def _seen(self, weights: np.ndarray, board: tuple[int, ...], seen: tuple[int, ...]) -> np.ndarray:
        """The range once the board cards ``board`` are seen (those seen before, ``seen``, already out)."""
        if board != seen and board:
            weights = weights.copy()
            weights[self._holds[list(board)].any(axis=0)] = 0.0
        return weights

    def deal(self, cards: list[int]) -> State:
        g = self.game
        c = g.num_hole_cards
        holes = [tuple(cards[0:c]), tuple(cards[c : 2 * c])]
        return State.initial(g, holes, cards[2 * c : 2 * c + sum(g.num_board_cards)])

    def play(self, rng: np.random.Generator, me: int, cards: list[int] | None = None, hand: int = 0) -> tuple[float, State]:
        """One hand with LBR in position ``me`` (``cards`` in dealing order, else drawn from ``rng``):
        its chips won, and the final state (for corrections)."""
        if cards is None:
            cards = [int(c) for c in rng.permutation(np.array(self.deck))]
        self._hand = hand
        self.action_correction = 0.0
        state = self.deal(cards)
        mine, theirs = state.hole[me], state.hole[1 - me]
        weights = self._first_range(mine)
        seen: tuple[int, ...] = ()
        held = self._hand_index[tuple(sorted(theirs))]
        rounds = [Round(float(state.pot()))]
        while not state.is_terminal:
            board = tuple(int(x) for x in state.visible_board())
            if state.round >= len(rounds):  # a new round: the one before it is over
                self._close_round(rounds[-1], mine, seen, weights, held, rng)
                rounds.append(Round(float(state.pot())))
            weights, seen = self._seen(weights, board, seen), board
            public = state.with_cards((), ())
            if state.current_player == me:
                state = state.apply(self.decide(public, me, mine, weights, board, rng))
                continue
            # the agent's table here is made anew, then act: an agent that translates off-tree bets at random
            # (the hold'em ``cfr``) walks the hand once for both, so the range follows the walk act plays
            # (LBR's look at this state before its raise walked it with other draws)
            self._range_cache.pop((board, public.betting), None)
            self._range_table(board, public, 1 - me)  # first: an agent that buckets every holding at once reuses it in act
            action = self.agent_action(public, 1 - me, theirs, board)
            self._check_drawn(public, 1 - me, theirs, board, held, action)
            self.action_correction += self.agent_term(public, me, mine, theirs, board, weights, rng, action)
            weights = self.observe(weights, board, public, 1 - me, self._key(action))
            state = state.apply(action)
        self.hidden_cards = 0.0
        if self.belief:
            self._close_round(rounds[-1], mine, seen, weights, held, rng)
            posterior = self._seen(weights, tuple(int(x) for x in state.visible_board()), seen)
            self.hidden_cards = hidden_cards_term(rounds, float(state.pot()) if state.is_showdown else 0.0, posterior, held)
        return float(state.payoffs()[me]), state

    def agent_term(self, public: State, me: int, mine: tuple[int, ...], theirs: tuple[int, ...], board: tuple[int, ...],
                   weights: np.ndarray, rng: np.random.Generator, action: Action) -> float:
        """AIVAT's term for the agent's ``action``: over its range (``belief``: ``evaluation.lbr_belief``),
        else with its real cards (``evaluation.lbr_terms``)."""
        if self.belief:
            return belief_action_term(action_values(self, public, me, mine, weights, board, rng), self._key(action))
        return self.action_terms.term(public, me, mine, theirs, board, weights, rng, action)

    def action_keys(self, board: tuple[int, ...], state: State, position: int) -> list[str]:
        """The agent's actions as its range table tells them apart: fold, call, and each raise size
        where it tells sizes (``sized_range_policy``), else every raise as ``r``."""
        if self._sized:
            table = self._range_table(board, state, position)
            if table is not None:
                sized = [k for k in table if len(k) > 1]
                if sized or "r" not in table:
                    return ["f", "c", *sized]
        return ["f", "c", "r"]

    def _key(self, action: Action) -> str:
        """The range table's key of the agent's action: its kind, or the raise with its size where the
        agent tells sizes (``sized_range_policy``)."""
        if action.kind is ActionKind.RAISE and self._sized:
            return str(action)
        return _LETTER[action.kind]

    def _close_round(self, street: Round, mine: tuple[int, ...], board: tuple[int, ...], weights: np.ndarray, held: int,
                     rng: np.random.Generator) -> None:
        """Keep LBR's equity against every holding still in the range (and the agent's real one) on
        the round's board, for the hidden cards' term (``evaluation.lbr_belief``)."""
        if not self.belief:
            return
        live = weights > 0
        live[held] = True
        score, valid = self._showdowns(mine, board, rng, live)
        street.equities = equities_from(score, valid)

    # ------------------------------------------------------------------ the exact expectation (small games)

    def exact_value(self, me: int, max_deals: int = 20_000) -> float:
        """LBR's exact expected winnings in position ``me``: every deal, every action of the agent
        weighted by its policy, LBR's own rule unchanged (limit games small enough to enumerate, where
        LBR's win chance is itself exact)."""
        g = self.game
        if not g.is_limit:
            raise ConfigError("exact LBR values are computed for limit games only")
        dealt = 2 * g.num_hole_cards + sum(g.num_board_cards)
        if math.perm(len(self.deck), dealt) > max_deals:
            raise ConfigError(f"{g.name or 'this game'} has too many deals to enumerate LBR's value")
        rng = np.random.default_rng(0)
        total, count = 0.0, 0
        for cards in itertools.permutations(self.deck, dealt):
            state = self.deal(list(cards))
            total += self._expect(state, me, self._first_range(state.hole[me]), (), rng)
            count += 1
        return total / count

    def _expect(self, state: State, me: int, weights: np.ndarray, seen: tuple[int, ...], rng: np.random.Generator) -> float:
        if state.is_terminal:
            return float(state.payoffs()[me])
        board = tuple(int(x) for x in state.visible_board())
        weights, seen = self._seen(weights, board, seen), board
        public = state.with_cards((), ())
        if state.current_player == me:
            return self._expect(state.apply(self.decide(public, me, state.hole[me], weights, board, rng)), me, weights, seen, rng)
        value = 0.0
        for letter, p in self.agent_policy(state.hole[1 - me], board, public, 1 - me).items():
            if p > 0:
                action = public.repair(Action(_KIND[letter]))[0]
                value += p * self._expect(state.apply(action), me, self.observe(weights, board, public, 1 - me, letter), seen, rng)
        return value


_LETTER = {ActionKind.FOLD: "f", ActionKind.CALL: "c", ActionKind.RAISE: "r"}
_KIND = {letter: kind for kind, letter in _LETTER.items()}

__all__ = [
    "ACTION_SETS", "ALL_IN", "ActionSet", "DEFAULT_ACTION_SETS", "LocalBestResponse", "MIN_RAISE", "action_set",
    "published_check_until",
]

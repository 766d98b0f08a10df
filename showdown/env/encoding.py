"""What a learning agent sees and does: a seat's view as arrays, and discrete actions.

Shared by the PettingZoo environment, the Gymnasium wrapper and the adapter that seats a trained
policy in a real match, so that a policy sees the same numbers in training and in the dealer.
Needs only numpy.

Actions (``ActionMap``): index 0 folds, 1 checks or calls; in a limit game 2 raises; in no-limit
2 .. 1 + len(fractions) raise by that fraction of the pot after calling (``raise to = current bet +
fraction x (pot + chips to call)``), and the last index goes all in. A size the rules do not allow
(below the minimum raise, or at or beyond all in) is masked.

Observation (``Encoder``), float32, in this order: own hole cards and the visible board, each one-hot
over the deck (``deck_size`` each); the round (one-hot); own position (one-hot); per position the
chips put in, the chips left (both in big blinds; an unlimited stack counts as 0 left), folded,
all in; the pot and the chips to call (big blinds); per round the calls and the raises made.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from showdown.errors import IllegalActionError
from showdown.games.cards import deck_ranks, deck_suits, format_cards, make_card
from showdown.games.dealing import MAX_SEED
from showdown.games.gamedef import UNLIMITED_STACK, GameDef
from showdown.games.state import CALL, FOLD, RAISE, Action, ActionKind, State

DEFAULT_FRACTIONS = (0.5, 1.0, 2.0)


@dataclass(frozen=True)
class ActionMap:
    """Discrete action indices <-> the rules' actions for one game (see the module docstring)."""

    game: GameDef
    fractions: tuple[float, ...] = DEFAULT_FRACTIONS

    def __post_init__(self) -> None:
        # fractions="x" made 'x' * pot a string and a TypeError at the first raise; -1 or 0 a raise
        # index that is never legal; nan a ValueError mid-episode
        bad = next((f for f in self.fractions if isinstance(f, bool) or not isinstance(f, numbers.Real) or not 0 < f < math.inf), None)
        if bad is not None or not isinstance(self.fractions, tuple):
            raise ValueError(f"fractions: expected pot fractions above 0, like (0.5, 1.0, 2.0), got {self.fractions!r:.60}")

    @property
    def size(self) -> int:
        return 3 if self.game.is_limit else 3 + len(self.fractions)

    def names(self) -> list[str]:
        """What each index does, for people: ``fold``, ``call``, ``raise 0.5 pot``, ..., ``all in``."""
        if self.game.is_limit:
            return ["fold", "call", "raise"]
        return ["fold", "call", *(f"raise {f:g} pot" for f in self.fractions), "all in"]

    def raise_to(self, state: State, index: int) -> int | None:
        """The no-limit raise-to total of index ``index`` here, or None when the rules refuse it."""
        bounds = state.raise_bounds()
        if bounds is None:
            return None
        lo, hi = bounds
        if index == self.size - 1:
            return hi
        to = state.max_spent + int(self.fractions[index - 2] * (state.pot() + state.to_call()))
        return to if lo <= to < hi else None

    def mask(self, state: State) -> npt.NDArray[np.int8]:
        """1 where the index is a legal action at ``state`` (the player to act's), else 0."""
        out = np.zeros(self.size, dtype=np.int8)
        if state.finished:
            return out
        out[0] = state.can_fold()
        out[1] = 1
        if self.game.is_limit:
            out[2] = state.can_raise()
        elif state.can_raise():
            for i in range(2, self.size):
                out[i] = self.raise_to(state, i) is not None
        return out

    def action(self, state: State, index: int) -> Action:
        """The rules' action of ``index`` at ``state``; ``IllegalActionError`` when masked."""
        if index == 0 and state.can_fold():
            return FOLD
        if index == 1:
            return CALL
        if 2 <= index < self.size:
            if self.game.is_limit:
                if state.can_raise():
                    return RAISE
            else:
                to = self.raise_to(state, index)
                if to is not None:
                    return Action(ActionKind.RAISE, to)
        raise IllegalActionError(f"action {index} ({self.describe(index)}) is not legal at '{state.betting}'")

    def describe(self, index: int) -> str:
        names = self.names()
        return names[index] if 0 <= index < len(names) else f"no action {index} (0 to {len(names) - 1})"


class Encoder:
    """A seat's view of a ``State`` as one float32 vector (see the module docstring)."""

    def __init__(self, game: GameDef) -> None:
        self.game = game
        cards = [make_card(r, s) for s in deck_suits(game.num_suits) for r in deck_ranks(game.num_ranks)]
        self.card_index = {c: i for i, c in enumerate(sorted(cards))}
        n, deck, rounds = game.num_players, game.deck_size, game.num_rounds
        self.unit = float(max(game.big_blind, 1))
        self.board_at = deck
        self.round_at = 2 * deck
        self.position_at = self.round_at + rounds
        self.players_at = self.position_at + n
        self.pot_at = self.players_at + 4 * n
        self.history_at = self.pot_at + 2
        self.size = self.history_at + 2 * rounds
        self.unlimited = [s >= UNLIMITED_STACK for s in game.stack]

    def encode(self, state: State, position: int) -> npt.NDArray[np.float32]:
        """The vector ``position`` sees: its own cards only (others' are never read)."""
        g = self.game
        n = g.num_players
        out = np.zeros(self.size, dtype=np.float32)
        index = self.card_index
        if position < len(state.hole):
            for c in state.hole[position]:
                out[index[c]] = 1.0
        for c in state.visible_board():
            out[self.board_at + index[c]] = 1.0
        out[self.round_at + state.round] = 1.0
        out[self.position_at + position] = 1.0
        unit = self.unit
        at = self.players_at
        for p in range(n):
            spent = state.spent[p]
            out[at + p] = spent / unit
            out[at + n + p] = 0.0 if self.unlimited[p] else (g.stack[p] - spent) / unit
            out[at + 2 * n + p] = state.folded[p]
            out[at + 3 * n + p] = spent >= g.stack[p]
        out[self.pot_at] = state.pot() / unit
        if not state.finished:
            out[self.pot_at + 1] = state.to_call() / unit
        for r, actions in enumerate(state.history):
            for _, a in actions:
                out[self.history_at + 2 * r + (a.kind is ActionKind.RAISE)] += 1.0
        return out


def action_index(action: object, size: int) -> int:
    """``action`` as an action index: an int or a numpy integer (a 0-d integer array too), as
    Gymnasium's ``Discrete`` space holds them. Anything else (1.5, nan, None, 'c', [1], True) is an
    ``IllegalActionError`` saying what an action is; it was cut to an int (1.5 played 1) or was
    a TypeError from ``int()``. A bool is no action, though Python counts it an int: True played 1;
    nor is an index outside ``0 .. size - 1`` (the space's bounds; a masked index inside them is the
    env's to repair)."""
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action[()]
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool) and 0 <= action < size:
        return int(action)  # (99 and -1 were played as a call by the single-agent env, without a word)
    raise IllegalActionError(f"an action is an index from 0 to {size - 1} (an int or a numpy integer), not {action!r:.60}")


def exact_action(action: Action) -> Action:
    """An ``Action`` given to ``step``, its size a whole number of chips (``750.0`` and a numpy
    integer as the int); a fractional size (``Action(RAISE, 300.5)``, a pot fraction not rounded)
    or a bool is an ``IllegalActionError``: it was played, the hand's chips and betting ('r300.5')
    becoming what no dealer deals."""
    size = action.size
    if action.kind is not ActionKind.RAISE:
        return action
    if isinstance(size, bool) or not isinstance(size, numbers.Real) or not math.isfinite(size) or int(size) != size:
        raise IllegalActionError(f"a raise is to a whole number of chips, not {size!r:.40} (round it: Action(RAISE, round(x)))")
    return action if type(size) is int else Action(action.kind, int(size))


def dealing_seed(seed: int) -> int:
    """The dealer's 32-bit seed for a ``reset(seed=...)``: the seed itself when it fits (so an
    environment deals as ``showdown dealer`` with that seed), else a 32-bit digest of it, since
    Gymnasium and PettingZoo allow any non-negative integer (``SeedSequence`` entropy is 128 bits)."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"reset(seed=...): expected a non-negative integer, got {seed!r:.40}")
    seed = int(seed)
    if seed <= MAX_SEED:
        return seed
    return int(np.random.SeedSequence(seed).generate_state(1, np.uint32)[0])


RENDER_MODES = ["human", "ansi"]


def check_render_mode(mode: object) -> None:
    """``render_mode=`` of an environment: None, 'human' (printed at every step) or 'ansi' (returned)."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode={mode!r:.40}: give None, 'human' or 'ansi'")


def hand_text(state: State, hand_number: int) -> str:
    """What ``render`` shows: the betting, the chips in, every player's cards and the board so far."""
    text = f"hand {hand_number}: {state!r}, cards {'|'.join(map(format_cards, state.hole))}"
    board = state.visible_board()
    return f"{text}, board {format_cards(board)}" if board else text


REWARD_UNITS = ("chips", "bb")


def check_reward_unit(reward: object) -> str:
    """``reward=`` of an environment: 'chips' or 'bb' (SingleAgentEnv took any other word, 'BB' or
    'chip', as big blinds without a word)."""
    if reward not in REWARD_UNITS:
        raise ValueError(f"reward={reward!r:.40}: give 'chips' or 'bb'")
    return str(reward)


def chips_to_reward(values: Sequence[float], game: GameDef, unit: str) -> list[float]:
    """A hand's payoffs as rewards: in chips, or in big blinds (``unit="bb"``)."""
    scale = 1.0 if unit == "chips" else 1.0 / max(game.big_blind, 1)
    return [float(v) * scale for v in values]

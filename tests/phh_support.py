"""What the PHH tests share: random legal hands through our rules, and pokerkit replaying PHH strictly."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from showdown.games.dealing import CardDealer
from showdown.games.gamedef import GameDef, parse_gamedef
from showdown.games.state import Action, ActionKind, State
from showdown.protocol.logfile import LoggedHand, LogHeader, Score, format_score_line, format_state_line


def uneven_game(betting: str, stacks: tuple[int, ...]) -> GameDef:
    """Hold'em with the catalog's blinds and unequal stacks: all-ins make real side pots."""
    n = len(stacks)
    blinds = "100 50" if n == 2 else " ".join(["50", "100"] + ["0"] * (n - 2))
    first = "2 1 1 1" if n == 2 else "3 1 1 1"
    sizes = "raiseSize = 100 100 200 200\nmaxRaises = 3 4 4 4\n" if betting == "limit" else ""
    text = (f"GAMEDEF\n{betting}\nnumPlayers = {n}\nnumRounds = 4\nstack = {' '.join(map(str, stacks))}\nblind = {blinds}\n"
            f"{sizes}firstPlayer = {first}\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0 3 1 1\nEND GAMEDEF\n")
    return parse_gamedef(text, name=f"holdem-{betting}-{n}p-uneven")


def random_hands(game: GameDef, count: int, seed: int) -> Iterator[LoggedHand]:
    """``count`` hands dealt by the reference dealing for ``seed`` and bet at random (all-ins often)."""
    rng = np.random.default_rng(seed)
    dealer = CardDealer(game, seed)
    names = [f"P{p + 1}" for p in range(game.num_players)]
    for number in range(count):
        hole, board = dealer.deal()
        state = State.initial(game, hole, board)
        while not state.finished:
            options = list(state.legal_actions())
            bounds = state.raise_bounds()
            if game.is_nolimit and bounds is not None and bounds[1] > bounds[0]:
                options.append(Action(ActionKind.RAISE, int(rng.integers(bounds[0], bounds[1] + 1))))
            state = state.apply(options[int(rng.integers(len(options)))])
        rotated = tuple(names[(p + number) % len(names)] for p in range(len(names)))
        yield LoggedHand.from_state(number, state, rotated)


def log_text(game_label: str, hands: list[LoggedHand], seed: int, match: str = "m") -> str:
    """A whole ACPC log of ``hands``, as our dealer writes one."""
    names = sorted(set(hands[0].names), key=lambda name: hands[0].names.index(name))
    totals = {name: 0.0 for name in names}
    for h in hands:
        for name, v in zip(h.names, h.values):
            totals[name] += v
    lines = LogHeader(match, game_label, len(hands), seed).lines() + [format_state_line(h) for h in hands]
    lines.append(format_score_line(Score(tuple(totals[n] for n in names), tuple(names))))
    return "\n".join(lines) + "\n"


def pokerkit_payoffs(phhs_text: str) -> list[tuple[int, ...]]:
    """Every hand of a ``.phhs`` text replayed by pokerkit itself, strictly (an action pokerkit refuses
    fails, where its own iteration would 'repair' the history): each player's final minus starting stack."""
    from pokerkit import HandHistory
    from pokerkit.notation import parse_action

    out = []
    for history in HandHistory.loads_all(phhs_text):
        state = history.create_state()
        for action in history.actions:
            while True:
                try:
                    parse_action(state, action, history.parse_value)
                    break
                except ValueError:
                    if not _chore(state):
                        raise
        while state.status and _chore(state):
            pass
        assert not state.status, f"pokerkit: hand {history.hand} is not over"
        out.append(tuple(int(end - start) for end, start in zip(state.stacks, state.starting_stacks)))
    return out


def _chore(state) -> bool:  # type: ignore[no-untyped-def]
    """One of the dealer's steps pokerkit leaves to the caller (burn a card, collect bets, push chips)."""
    for can, do in (
        (state.can_post_ante, state.post_ante),
        (state.can_collect_bets, state.collect_bets),
        (state.can_post_blind_or_straddle, state.post_blind_or_straddle),
        (state.can_burn_card, lambda: state.burn_card("??")),
        (state.can_select_runout_count, state.select_runout_count),
        (state.can_kill_hand, state.kill_hand),
        (state.can_push_chips, state.push_chips),
        (state.can_pull_chips, state.pull_chips),
    ):
        if can():
            do()
            return True
    return False

"""A match's hands for the browser view: ``hand_list`` (filtered, paged) and ``hand_replay`` (every
action with the pot and stacks after it, from the rules in ``games.state``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from showdown.errors import ProtocolError, ShowdownError
from showdown.games.cards import format_cards
from showdown.games.state import Action, ActionKind, State, parse_betting
from showdown.protocol.lines import lines_start, log_lines
from showdown.protocol.logfile import HandRecord, jsonl_record
from showdown.view.catalog import MatchFiles, ViewError, game_named

__all__ = ["MAX_PAGE", "MAX_SCAN_BYTES", "hand_list", "hand_replay"]


MAX_PAGE = 200
"""Most hands one request of the hand list returns."""
MAX_SCAN_BYTES = 512 * 1024 * 1024
"""A filter scans at most this much of a log per request (then ``next`` says where it stopped)."""


def _records(path: Path, start: int = 0) -> Iterator[tuple[int, HandRecord]]:
    """(byte offset, record) of every complete hand record from byte ``start`` on; a line longer
    than ``MAX_LOG_LINE`` is a ``ViewError``, never held whole."""
    with path.open("rb") as f:
        start = lines_start(f, start)  # (past a byte order mark: every offset was 3 short, and the replayer found no hand there)
        f.seek(start)
        offset = start
        try:
            for _, raw in log_lines(f, str(path) if not start else f"{path}, from byte {start}"):
                here = offset
                offset += len(raw)
                if not raw.endswith(b"\n"):
                    return
                try:
                    record = jsonl_record(raw.decode("utf-8", "replace"))
                except ProtocolError as exc:
                    raise ViewError(f"{path}: byte {here}: {exc}: not a showdown .jsonl log") from None
                if isinstance(record, HandRecord):
                    yield here, record
        except ProtocolError as exc:  # a line of no end
            raise ViewError(str(exc)) from None


def _won(record: HandRecord) -> float:
    """The chips that changed hands: what the winners took from the others."""
    return float(sum(v for v in record.values if v > 0))


def _cards(groups: tuple[tuple[int, ...], ...]) -> list[str]:
    return [format_cards(g) for g in groups]


def hand_list(
    files: MatchFiles,
    *,
    agent: str | None = None,
    position: int | None = None,
    showdown: bool | None = None,
    min_won: float | None = None,
    start: int = 0,
    limit: int = 50,
) -> dict[str, Any]:
    """Hands matching every filter given, from byte ``start`` of the JSON Lines log; ``next`` is
    where the next page starts (None at the end)."""
    if files.jsonl is None:
        raise ViewError(f"match {files.key}: the hand list needs the .jsonl log")
    limit = max(1, min(limit, MAX_PAGE))
    hands: list[dict[str, Any]] = []
    next_start: int | None = None
    for offset, rec in _records(files.jsonl, start):
        if len(hands) >= limit or offset - start > MAX_SCAN_BYTES:
            next_start = offset  # (a scan stopped at its limit said "no more hands": the rest was never looked at)
            break
        players = list(rec.players)
        if agent is not None and agent not in players:
            continue
        if position is not None and agent is not None:
            if position >= len(players) or players[position] != agent:
                continue
        at_showdown = _went_to_showdown(rec)
        if showdown is not None and at_showdown != showdown:
            continue
        if min_won is not None and _won(rec) < min_won:
            continue
        hands.append(
            {
                "hand": rec.hand,
                "offset": offset,
                "players": players,
                "hole": _cards(rec.hole),
                "board": _cards(rec.board),
                "betting": rec.betting,
                "values": list(rec.values),
                "showdown": at_showdown,
                "won": _won(rec),
                "events": len(rec.events),
            }
        )
    return {"hands": hands, "next": next_start}


def _went_to_showdown(record: HandRecord) -> bool:
    """At least two players were still in at the end (no fold ended the hand)."""
    return len(record.values) - record.betting.count("f") >= 2


def _record_at(path: Path, offset: int) -> HandRecord:
    """The hand record that starts at byte ``offset`` (a line start) of a JSON Lines log."""
    missing = ViewError(f"no hand at byte {offset} of {path.name}")
    if offset < 0:
        raise missing
    with path.open("rb") as f:
        if offset > 0 and offset != lines_start(f):
            f.seek(offset - 1)
            if f.read(1) != b"\n":
                raise missing
        f.seek(offset)
        raw = f.readline(1 << 20)
    if not raw.endswith(b"\n"):
        raise missing
    try:
        record = jsonl_record(raw.decode("utf-8", "replace"))
    except ProtocolError as exc:
        raise ViewError(f"hand at byte {offset} of {path.name}: {exc}") from None
    if not isinstance(record, HandRecord):
        raise missing
    return record


def hand_replay(files: MatchFiles, offset: int) -> dict[str, Any]:
    """One hand step by step: after each action, who acted, what, the pot and every stack's spend."""
    if files.jsonl is None:
        raise ViewError(f"match {files.key}: the replayer needs the .jsonl log")
    rec = _record_at(files.jsonl, offset)
    game = game_named(rec.game, files.jsonl.parent)
    if game is None:
        raise ViewError(f"unknown game {rec.game!r}")
    state = State.initial(game)
    steps = [_step(state, None, None, rec.board)]
    try:
        for actions in parse_betting(rec.betting):
            for action in actions:
                actor = state.current_player
                text = _action_text(action, state.to_call() > 0)
                state = state.apply(action)
                steps.append(_step(state, actor, text, rec.board))
    except ShowdownError as exc:
        raise ViewError(f"hand {rec.hand}: betting {rec.betting[:60]!r} does not fit game {game.name}: {exc}") from None
    return {
        "hand": rec.hand,
        "game": game.name,
        "players": list(rec.players),
        "hole": _cards(rec.hole),
        "board": _cards(rec.board),
        "betting": rec.betting,
        "values": list(rec.values),
        "events": [e.as_dict() for e in rec.events],
        "stacks": list(game.stack) if game.is_nolimit else None,
        "steps": steps,
    }


def _action_text(action: Action, facing_bet: bool) -> str:
    if action.kind is ActionKind.FOLD:
        return "folds"
    if action.kind is ActionKind.CALL:
        return "calls" if facing_bet else "checks"
    if action.size:
        return f"raises to {action.size}" if facing_bet else f"bets, to {action.size}"
    return "raises" if facing_bet else "bets"


def _step(state: State, actor: int | None, text: str | None, board_groups: tuple[tuple[int, ...], ...]) -> dict[str, Any]:
    r = state.round
    visible = [format_cards(g) for g in board_groups[: r + 1]]
    return {
        "actor": actor,
        "text": text,
        "round": r,
        "board": visible,
        "pot": int(sum(state.spent)),
        "spent": [int(x) for x in state.spent],
        "folded": list(state.folded),
        "to_act": None if state.is_terminal else state.current_player,
    }

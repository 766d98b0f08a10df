"""A match's hands for the browser view: ``hand_list`` (filtered, paged) and ``hand_replay`` (every
action with the pot and stacks after it, from the rules in ``games.state``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from showdown.errors import ShowdownError
from showdown.protocol.logfile import is_summary_record
from showdown.view.catalog import MatchFiles, ViewError, game_named

__all__ = ["MAX_PAGE", "MAX_SCAN_BYTES", "hand_list", "hand_replay"]


MAX_PAGE = 200
"""Most hands one request of the hand list returns."""
MAX_SCAN_BYTES = 512 * 1024 * 1024
"""A filter scans at most this much of a log per request (then says where it stopped)."""


def _records(path: Path, start: int = 0) -> Iterator[tuple[int, dict[str, Any]]]:
    """(byte offset, record) of every complete hand record from byte ``start`` on."""
    with path.open("rb") as f:
        f.seek(start)
        offset = start
        scanned = 0
        for raw in f:
            here = offset
            offset += len(raw)
            scanned += len(raw)
            if not raw.endswith(b"\n"):
                return
            if scanned > MAX_SCAN_BYTES:
                return
            try:
                rec = json.loads(raw)
            except ValueError:
                raise ViewError(f"{path}: byte {here} is not a JSON record: not a showdown .jsonl log") from None
            if isinstance(rec, dict) and not is_summary_record(rec):
                yield here, rec


def _won(rec: dict[str, Any]) -> float:
    """The chips that changed hands: what the winners took from the others."""
    return float(sum(v for v in rec.get("values", []) if v > 0))


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
        if len(hands) >= limit:
            next_start = offset
            break
        players = rec.get("players", [])
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
                "hand": rec.get("hand"),
                "offset": offset,
                "players": players,
                "hole": rec.get("hole"),
                "board": rec.get("board"),
                "betting": rec.get("betting"),
                "values": rec.get("values"),
                "showdown": at_showdown,
                "won": _won(rec),
                "events": len(rec.get("events") or []),
            }
        )
    return {"hands": hands, "next": next_start}


def _went_to_showdown(rec: dict[str, Any]) -> bool:
    """At least two players were still in at the end (no fold ended the hand)."""
    return len(rec.get("values", [])) - str(rec.get("betting", "")).count("f") >= 2


def _record_at(path: Path, offset: int) -> dict[str, Any]:
    """The hand record that starts at byte ``offset`` (a line start) of a JSON Lines log."""
    missing = ViewError(f"no hand at byte {offset} of {path.name}")
    if offset < 0:
        raise missing
    with path.open("rb") as f:
        if offset > 0:
            f.seek(offset - 1)
            if f.read(1) != b"\n":
                raise missing
        raw = f.readline(1 << 20)
    if not raw.endswith(b"\n"):
        raise missing
    try:
        rec = json.loads(raw)
    except ValueError:
        raise missing from None
    if not isinstance(rec, dict) or is_summary_record(rec):
        raise missing
    return rec


def hand_replay(files: MatchFiles, offset: int) -> dict[str, Any]:
    """One hand step by step: after each action, who acted, what, the pot and every stack's spend."""
    from showdown.games.cards import parse_cards
    from showdown.games.state import State, parse_action

    if files.jsonl is None:
        raise ViewError(f"match {files.key}: the replayer needs the .jsonl log")
    rec = _record_at(files.jsonl, offset)
    game = game_named(rec.get("game"))
    if game is None:
        raise ViewError(f"unknown game {rec.get('game')!r}")
    try:
        for h in rec["hole"]:
            parse_cards(h)  # checked: a hand with unreadable cards is refused whole
        board_groups = [tuple(parse_cards(g)) for g in rec.get("board", [])]
    except (KeyError, ShowdownError) as exc:
        raise ViewError(f"hand {rec.get('hand')}: bad cards ({exc})") from None
    state = State.initial(game)
    steps = [_step(state, None, None, board_groups)]
    betting = str(rec.get("betting", ""))
    try:
        for round_text in betting.split("/"):
            for token in _tokens(round_text):
                actor = state.current_player
                text = _action_text(token, state.to_call() > 0)
                state = state.apply(parse_action(token))
                steps.append(_step(state, actor, text, board_groups))
    except ShowdownError as exc:
        raise ViewError(f"hand {rec.get('hand')}: betting {betting!r} does not fit game {game.name}: {exc}") from None
    stacks = list(game.stack) if game.is_nolimit else None
    return {
        "hand": rec.get("hand"),
        "game": game.name,
        "players": rec.get("players"),
        "hole": rec.get("hole"),
        "board": rec.get("board"),
        "betting": betting,
        "values": rec.get("values"),
        "events": rec.get("events") or [],
        "stacks": stacks,
        "steps": steps,
    }


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(text):
        j = i + 1
        if text[i] == "r":
            while j < len(text) and text[j].isdigit():
                j += 1
        out.append(text[i:j])
        i = j
    return out


def _action_text(token: str, facing_bet: bool) -> str:
    if token == "f":
        return "folds"
    if token == "c":
        return "calls" if facing_bet else "checks"
    if len(token) > 1:
        return f"raises to {token[1:]}" if facing_bet else f"bets, to {token[1:]}"
    return "raises" if facing_bet else "bets"


def _step(state: Any, actor: int | None, text: str | None, board_groups: list[tuple[int, ...]]) -> dict[str, Any]:
    from showdown.games.cards import format_cards

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

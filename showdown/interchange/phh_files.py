"""Whole files between our logs and PHH: ``export_phh`` (a ``.log``/``.jsonl`` to one ``.phhs``) and
``import_phh`` (``.phh``/``.phhs`` files to one ``.log`` or ``.jsonl`` match log).

Both stream: one hand is read, converted and written before the next is read, so memory stays flat
however long the file. The per-hand work lives in ``showdown.protocol.phh``.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from showdown.errors import ProtocolError, ShowdownError
from showdown.evaluation.log_reading import resolve_log_game
from showdown.games.cards import Card, format_cards
from showdown.games.catalog import CATALOG, get_game
from showdown.games.gamedef import GameDef, format_gamedef
from showdown.protocol.logfile import (
    HandRecord,
    LogHeader,
    MatchSummary,
    Score,
    format_score_line,
    format_state_line,
    format_value,
    hand_json,
    read_records,
    state_line_text,
)
from showdown.protocol.phh import NoPhhForm, PhhHand, format_phh_hand, phh_variant, same_table
from showdown.protocol.phh_reading import parse_phh_hand, split_phhs

__all__ = ["ExportResult", "ImportResult", "export_phh", "import_phh"]

Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class ExportResult:
    """``hands`` written; ``skipped`` hands that have no PHH form (``first_skipped`` says why)."""

    source: Path
    target: Path
    hands: int
    skipped: int = 0
    first_skipped: str = ""


@dataclass(frozen=True, slots=True)
class ImportResult:
    target: Path
    game_file: Path | None
    hands: int


def _open_text(path: Path) -> Iterator[str]:
    try:
        with path.open(encoding="utf-8", errors="replace", newline="") as f:
            yield from f
    except OSError as exc:
        raise ShowdownError(f"cannot read {path}: {exc.strerror or exc}") from None


def export_phh(log: str | Path, out_dir: str | Path, game: GameDef | None = None, progress: Progress | None = None) -> ExportResult:
    """``log`` (ours or the reference dealer's ``.log``, or our ``.jsonl``) -> ``out_dir/<name>.phhs``,
    one table per hand keyed by its number; the game comes from the log unless ``game`` is given."""
    src = Path(log)
    jsonl = src.suffix == ".jsonl"
    target = Path(out_dir) / (src.stem + ".phhs")
    variants: dict[GameDef, str] = {}
    games: dict[str, GameDef] = {}  # by the name the log gives
    header: LogHeader | None = None
    count = skipped = 0
    first_skipped = ""
    tmp = _temp_beside(target)
    try:
        with os.fdopen(tmp[0], "w", encoding="utf-8", newline="\n") as out:
            for number, record in read_records(_open_text(src), source=str(src), jsonl=jsonl):
                if isinstance(record, LogHeader):
                    header = header or record
                    continue
                if isinstance(record, (Score, MatchSummary)):
                    continue
                seats: tuple[int, ...] | None = None
                if isinstance(record, HandRecord):
                    label = record.game
                    g = game or games.get(label) or games.setdefault(label, resolve_log_game(label, src))
                    seats, hand = record.seats, record.to_logged_hand()
                elif header is not None:
                    label = header.game
                    g = game or games.get(label) or games.setdefault(label, resolve_log_game(label, src))
                    hand = record
                elif game is not None:
                    label, g, hand = game.name, game, record
                else:
                    raise ShowdownError(f"{src}: no '# name/game/hands/seed' header before line {number}; pass --game GAME")
                variant = variants.get(g)
                if variant is None:
                    variant = variants[g] = phh_variant(g)
                try:
                    text = format_phh_hand(g, hand, variant=variant, seats=seats, label=label or None,
                                           seed=header.seed if header else None, match=header.match if header else None)
                except NoPhhForm as exc:
                    skipped += 1
                    first_skipped = first_skipped or f"{src}:{number}: {exc}"
                    continue
                except ShowdownError as exc:
                    raise ShowdownError(f"{src}:{number}: {exc}") from None
                out.write(("\n" if count else "") + text)
                count += 1
                if progress is not None and count % 10_000 == 0:
                    progress(count)
        os.replace(tmp[1], target)
    finally:
        if os.path.exists(tmp[1]):
            os.unlink(tmp[1])
    return ExportResult(src, target, count, skipped, first_skipped)


def _temp_beside(target: Path) -> tuple[int, str]:
    try:
        return tempfile.mkstemp(dir=target.parent, prefix="." + target.name, suffix=".part")
    except OSError as exc:
        raise ShowdownError(f"cannot write in {target.parent}: {exc.strerror or exc}") from None


def read_phh_hands(paths: Sequence[str | Path]) -> Iterator[PhhHand]:
    """Every hand of the given ``.phh``/``.phhs`` files in order, parsed one at a time."""
    index = 0
    for p in map(Path, paths):
        for line, text in split_phhs(_open_text(p)):
            yield parse_phh_hand(text, f"{p}:{line}", index)
            index += 1


def _match_game(first: PhhHand) -> tuple[GameDef, str | None]:
    """The game of the imported match and its catalog name: the exporter's ``_game`` when it names a
    catalog game (by name or reference file name) that agrees with the hand, else the game the hand implies (None: write a file)."""
    entry = next((e for e in CATALOG if first.label in (e.name, e.file)), None)  # never a path from the file
    if entry is not None and first.label is not None:
        named = get_game(entry.name)
        if same_table(named, first.game):
            return named, first.label
    for e in CATALOG:
        if e.name.startswith("holdem") and get_game(e.name) == first.game:
            return get_game(e.name), e.name
    return first.game, None


def import_phh(paths: Sequence[str | Path], target: str | Path, progress: Progress | None = None) -> ImportResult:
    """PHH hands -> one match log at ``target`` (``.log``, the default, or ``.jsonl``), every hand
    replayed through our rules. All hands must share one table (players, blinds, stacks, bets); a game
    outside the catalog is written beside the log as ``<match>.game`` and named in its header."""
    out = Path(target)
    if out.suffix not in (".log", ".jsonl"):
        out = out.with_name(out.name + ".log")
    jsonl = out.suffix == ".jsonl"
    match = out.stem
    game: GameDef | None = None
    label = ""
    seat_names: list[str] = []
    totals: dict[str, float] = {}
    seed = 0
    count = 0
    tmp = _temp_beside(out)
    game_file: Path | None = None
    try:
        with os.fdopen(tmp[0], "w", encoding="utf-8", newline="\n") as body:
            for h in read_phh_hands(paths):
                if game is None:
                    game, name = _match_game(h)
                    if name is None:
                        game_file = out.with_suffix(".game")
                        label = game_file.name
                    else:
                        label = name
                    seed = h.seed or 0
                    match = h.match or match
                    seat_names = _seat_order(h)
                elif not same_table(game, h.game):
                    raise ProtocolError(f"hand {h.hand.hand}: its table (blinds, stacks or bets) differs from the first hand's; "
                                        "import hands of one table at a time")  # fmt: skip
                hand = h.hand
                for name, value in zip(hand.names, hand.values):
                    totals[name] = totals.get(name, 0.0) + value
                    if name not in seat_names:
                        seat_names.append(name)
                if jsonl:
                    seats = h.seats or tuple(range(game.num_players))
                    body.write(hand_json(hand.hand, label, hand.names, seats, hand.hole, hand.board, hand.betting_text,
                                         tuple(float(v) for v in hand.values), ()) + "\n")  # fmt: skip
                else:
                    body.write(format_state_line(hand) + "\n" if not h.betting else
                               state_line_text(hand.hand, h.betting, [format_cards(c) for c in hand.hole], _board_text(hand.board),
                                               "|".join(map(format_value, hand.values)), hand.names) + "\n")  # fmt: skip
                count += 1
                if progress is not None and count % 10_000 == 0:
                    progress(count)
        if game is None:
            raise ProtocolError(f"{', '.join(map(str, paths))}: no hands")
        names = tuple(seat_names)
        ending = MatchSummary(match=match, game=label, seed=seed, hands=count, hands_played=count,
                              names=names, totals=tuple(totals[n] for n in names))  # fmt: skip
        _finish(out, tmp[1], ending, jsonl)
        if game_file is not None:
            game_file.write_text(format_gamedef(game), encoding="utf-8")
    except OSError as exc:
        raise ShowdownError(f"cannot write {out}: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(tmp[1]):
            os.unlink(tmp[1])
    return ImportResult(out, game_file, count)


def _board_text(board: tuple[tuple[Card, ...], ...]) -> str:
    """The STATE line's board groups (``/8dAs8s/4h``), as ``format_cards_field`` writes them."""
    return "".join("/" + format_cards(g) for r, g in enumerate(board) if r or g)


def _finish(out: Path, body: str, ending: MatchSummary, jsonl: bool) -> None:
    """The log: the header (``.log``), the hands written so far, the SCORE line or summary record."""
    with open(out, "w", encoding="utf-8", newline="\n") as f, open(body, encoding="utf-8") as lines:
        if not jsonl:
            f.write("\n".join(LogHeader(ending.match, ending.game, ending.hands, ending.seed).lines()) + "\n")
        for line in lines:
            f.write(line)
        if jsonl:
            f.write(ending.to_json() + "\n")
        else:
            f.write(format_score_line(Score(ending.totals, ending.names)) + "\n")


def _seat_order(first: PhhHand) -> list[str]:
    """Names by seat: from the ``seats`` field, else the ACPC rotation (seat s plays position
    (s - h) mod N in hand h)."""
    names = first.hand.names
    n = len(names)
    if first.seats is not None and sorted(first.seats) == list(range(n)):
        by_seat = [""] * n
        for p, s in enumerate(first.seats):
            by_seat[s] = names[p]
        return by_seat
    return [names[(s - first.hand.hand) % n] for s in range(n)]


"""Whole files between our logs and PHH: ``export_phh`` (a ``.log``/``.jsonl`` to one ``.phhs``) and
``import_phh`` (``.phh``/``.phhs`` files to one ``.log`` or ``.jsonl`` match log).

Both stream: one hand is read, converted and written before the next is read, so memory stays flat
however long the file. The per-hand work lives in ``showdown.protocol.phh``.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from showdown.errors import LogExistsError, ProtocolError, ShowdownError
from showdown.evaluation.log_reading import MAX_LOG_LINE, log_lines, resolve_log_game
from showdown.games.cards import Card, format_cards
from showdown.games.catalog import CATALOG, get_game
from showdown.games.gamedef import GameDef, format_gamedef
from showdown.protocol.logfile import (
    HandRecord,
    LoggedHand,
    LogHeader,
    MatchSummary,
    Score,
    format_score_line,
    format_state_line,
    format_value,
    hand_json,
    is_summary_line,
    parse_header_line,
    read_records,
    state_line_text,
)
from showdown.protocol.phh import DEFAULT_TIME_LIMITS, NoPhhForm, PhhHand, format_phh_hand, phh_variant, same_table
from showdown.protocol.phh_reading import log_word, parse_phh_hand, split_phhs

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
    torn: str = ""  # the log's last line had no end (a match killed as it wrote it): left out, as verify-log does


@dataclass(frozen=True, slots=True)
class ImportResult:
    target: Path
    game_file: Path | None
    hands: int


def _open_text(path: Path, torn: list[str] | None = None, strict: bool = False) -> Iterator[str]:
    """The file's lines, each at most ``MAX_LOG_LINE`` bytes (a longer one is one error, not held).
    With ``torn``, a last line without its end (a writer killed mid-line) is left out and said there.
    ``strict``: a line that is not UTF-8 is a ``ProtocolError`` (TOML is UTF-8; a Latin-1 hand
    history was imported with its names' letters turned into U+FFFD, without a word)."""
    try:
        with path.open("rb") as f:
            for number, raw in log_lines(f, str(path)):
                if torn is not None and not raw.endswith(b"\n"):
                    if raw.strip():
                        torn.append(f"{path}:{number}: the last line is cut off (the writer stopped mid-line); "
                                    f"the complete lines before it were exported")
                    return
                try:
                    yield raw.decode("utf-8", "strict" if strict else "replace")
                except UnicodeDecodeError as exc:
                    raise ProtocolError(f"{path}:{number}: not UTF-8 text (byte {raw[exc.start]:#04x}), which PHH (TOML) is: "
                                        "save the file as UTF-8") from None
    except OSError as exc:
        raise ShowdownError(f"cannot read {path}: {exc.strerror or exc}") from None


def export_phh(log: str | Path, out_dir: str | Path, game: GameDef | None = None, progress: Progress | None = None) -> ExportResult:
    """``log`` (ours or the reference dealer's ``.log``, or our ``.jsonl``) -> ``out_dir/<name>.phhs``,
    one table per hand keyed by its number; the game comes from the log unless ``game`` is given."""
    src = Path(log)
    check_input_file(src, ".log or .jsonl")
    target = Path(out_dir) / (src.stem + ".phhs")
    hands = _LogHands(src, game)
    if src.suffix == ".jsonl":
        hands.header = _jsonl_header(src)
    count = skipped = 0
    first_skipped = ""
    last = -1
    tmp = _temp_beside(target)
    torn: list[str] = []
    try:
        with os.fdopen(tmp[0], "w", encoding="utf-8", newline="\n") as out:
            for number, record in read_records(_open_text(src, torn), source=str(src), jsonl=src.suffix == ".jsonl"):
                if isinstance(record, (HandRecord, LoggedHand)):  # PHH keys each hand by its number: a key twice is no TOML at all
                    if record.hand <= last:
                        raise ShowdownError(f"{src}:{number}: hand {record.hand} comes after hand {last}: the file holds more "
                                            "than one match (logs joined?); export each match's log on its own")
                    last = record.hand
                try:
                    text = hands.phh(number, record)
                except NoPhhForm as exc:
                    skipped += 1
                    first_skipped = first_skipped or f"{src}:{number}: {exc}"
                    continue
                if text is None:
                    continue
                out.write(("\n" if count else "") + text)
                count += 1
                if progress is not None and count % 10_000 == 0:
                    progress(count)
        if count == 0:  # nothing to write: say so rather than leave an empty file
            why = f"; {skipped:,} without a PHH form, the first: {first_skipped}" if skipped else ""
            raise ShowdownError(f"no hands to export in {src}{why}")
        os.replace(tmp[1], target)
    except OSError as exc:  # (a folder of the .phhs's name, or a full disk, was a traceback)
        raise ShowdownError(f"cannot write {target}: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(tmp[1]):
            os.unlink(tmp[1])
    return ExportResult(src, target, count, skipped, first_skipped, torn[0] if torn else "")


def _jsonl_header(path: Path) -> LogHeader | None:
    """The match name and seed of a ``.jsonl`` log from its summary record, its last line (read
    first: the hands come before it). A ``.jsonl`` was exported without ``event`` and ``_seed``, where
    its ``.log`` gives them, so its hands imported back failed verify-log ('not what the seed deals')."""
    try:
        with path.open("rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - MAX_LOG_LINE))
            last = next((line for line in reversed(f.read().splitlines()) if line.strip()), b"")
    except OSError:
        return None  # the export's own reading says what is wrong
    if not is_summary_line(last):
        return None  # a match stopped before its end: no summary
    try:
        summary = MatchSummary.from_json(last.decode("utf-8", "replace"))
    except ProtocolError:
        return None
    return LogHeader(summary.match, summary.game, summary.hands, summary.seed)


class _LogHands:
    """A log's records as PHH text: each hand with the game its log names (read once per name)."""

    def __init__(self, src: Path, game: GameDef | None) -> None:
        self.src = src
        self.game = game
        self.header: LogHeader | None = None
        self.games: dict[str, GameDef] = {}  # by the name the log gives
        self.variants: dict[GameDef, str] = {}

    def _game(self, label: str) -> GameDef:
        if self.game is not None:
            if label and label not in self.games:  # --game for a log of another game: its hands were read as the wrong game's
                self.games[label] = self.game
                try:
                    named = resolve_log_game(label, self.src)
                except ShowdownError:
                    return self.game  # a game the log names but no file of it here: --game is what says it
                if named != self.game:
                    raise ShowdownError(f"{self.src} is a log of {named.name or label!r}, not {self.game.name or 'the game given'}: "
                                        "drop --game (the log names its game) or give the game it was played in")
            return self.game
        if label not in self.games:
            self.games[label] = resolve_log_game(label, self.src)
        return self.games[label]

    def phh(self, number: int, record: Any) -> str | None:
        """The PHH table of a hand record (None for the header, score and summary lines)."""
        if isinstance(record, LogHeader):
            self.header = self.header or record
            return None
        if isinstance(record, (Score, MatchSummary)):
            return None
        seats: tuple[int, ...] | None = None
        if isinstance(record, HandRecord):
            label, seats, hand = record.game, record.seats, record.to_logged_hand()
        elif self.header is not None:
            label, hand = self.header.game, record
        elif self.game is not None:
            label, hand = self.game.name, record
        else:
            raise ShowdownError(f"{self.src}: no '# name/game/hands/seed' header before line {number}; pass --game GAME")
        g = self._game(label)
        if g not in self.variants:
            self.variants[g] = phh_variant(g)
        header = self.header
        try:
            return format_phh_hand(g, hand, variant=self.variants[g], seats=seats, label=label or None,
                                   seed=header.seed if header else None, match=header.match if header else None,
                                   limits=(header.t_response, header.t_hand, header.t_per_hand) if header else None)
        except NoPhhForm:
            raise
        except ShowdownError as exc:
            raise ShowdownError(f"{self.src}:{number}: {exc}") from None


def check_input_file(path: Path, kinds: str) -> None:
    """A ``ShowdownError`` unless ``path`` is a regular file: a pipe no one writes to (``mkfifo``)
    held import and export for ever, and a folder was 'Is a directory'."""
    if path.is_dir():
        raise ShowdownError(f"{path} is a folder: give the {kinds} files in it")
    if path.exists() and not path.is_file():
        raise ShowdownError(f"{path} is not a regular file (a device or a pipe): give a {kinds} file")
    # the other command's file: it was 'unexpected line '[0]'' or 'not valid PHH (TOML): ...', no way out said
    export = kinds.startswith(".log")
    if path.suffix not in ((".phh", ".phhs") if export else (".log", ".jsonl")):
        return
    first = _first_line(path)
    if _looks_like_a_log(first):
        if export:
            raise ShowdownError(f"{path} is named like a PHH hand history but holds a match log: rename it {path.stem}.log")
        raise ShowdownError(f"{path} is a match log, which import writes: 'showdown export {path} --to phh -o DIR' writes it as PHH")
    if _TOML_LINE.match(first):
        if export:
            raise ShowdownError(f"{path} is a PHH hand history, which export writes: 'showdown import {path} -o MATCH.log' reads it")
        raise ShowdownError(f"{path} is named like a match log but holds a PHH hand history: rename it {path.stem}.phh")
    seen = f"its first line is {first[:40]!r}{'...' * (len(first) > 40)}" if first else "it is empty"
    wanted = ("a match log (.log, ACPC STATE lines, or .jsonl)" if export
              else 'PHH hand histories (.phh/.phhs: TOML lines such as variant = "NT")')
    raise ShowdownError(f"{path} is neither a match log nor a PHH hand history ({seen}): "
                        f"{'export' if export else 'import'} reads {wanted}")


_TOML_LINE = re.compile(r"\[|[A-Za-z_][\w-]*\s*=")
"""A PHH (TOML) file's first line: a table header (``[1]`` in a .phhs) or ``key = value``."""


def _first_line(path: Path) -> str:
    """The first line of ``path`` that is not blank (in its first 4 KiB); '' if none or unreadable."""
    try:
        with path.open("rb") as f:
            head = f.read(4096)
    except OSError:
        return ""
    return next((line.strip() for line in head.decode("utf-8", "replace").splitlines() if line.strip()), "")


def _looks_like_a_log(line: str) -> bool:
    """A match log's first line: the header, a hand, the score, or a JSONL record."""
    try:
        return line.startswith(("STATE:", "SCORE:", "{")) or parse_header_line(line) is not None
    except ProtocolError:  # a header with a count too long to be real: a log all the same
        return True


def _temp_beside(target: Path) -> tuple[int, str]:
    try:
        return tempfile.mkstemp(dir=target.parent, prefix="." + target.name, suffix=".part")
    except OSError as exc:
        raise ShowdownError(f"cannot write in {target.parent}: {exc.strerror or exc}") from None


def read_phh_hands(paths: Sequence[str | Path]) -> Iterator[PhhHand]:
    """Every hand of the given ``.phh``/``.phhs`` files in order, parsed one at a time."""
    return (h for _, h in _located_hands(paths))


def _located_hands(paths: Sequence[str | Path]) -> Iterator[tuple[str, PhhHand]]:
    """``read_phh_hands``, each hand with where it starts (``file:line``)."""
    index = 0
    for p in map(Path, paths):
        for line, text in split_phhs(_without_bom(_open_text(p, strict=True)), str(p)):
            yield f"{p}:{line}", parse_phh_hand(text, f"{p}:{line}", index)
            index += 1


def _without_bom(lines: Iterator[str]) -> Iterator[str]:
    """The lines, the first without the byte order mark an editor may put before UTF-8 text (Windows'
    Notepad does): TOML does not allow one, and such a file was 'not valid PHH (TOML): Invalid
    statement (at line 1, column 1)'."""
    for i, line in enumerate(lines):
        yield line.removeprefix("\ufeff") if i == 0 else line


def _match_game(first: PhhHand) -> tuple[GameDef, str | None]:
    """The game of the imported match and its catalog name: the exporter's ``_game`` when it names a
    catalog game (by name or reference file name) that agrees with the hand, else the game the hand implies (None: write a file)."""
    label = first.label or ""
    entry = next((e for e in CATALOG if label in (e.name, e.file)), None)
    if entry is None:  # the reference dealer's log names its game by the path it was given ('/x/holdem.limit.3p.game'):
        # its file name says which; the log names the file, never a path from the hand (the 3-player limit game was
        # written beside the log as another game, PHH's cap of 4 raises preflop for the reference's 3)
        entry = next((e for e in CATALOG if PurePosixPath(label).name == e.file), None)
        label = entry.file if entry is not None else label
    if entry is not None:
        named = get_game(entry.name)
        if same_table(named, first.game):
            return named, label
    for e in CATALOG:
        if e.name.startswith("holdem") and get_game(e.name) == first.game:
            return get_game(e.name), e.name
    return first.game, None


def import_phh(paths: Sequence[str | Path], target: str | Path, progress: Progress | None = None, *,
               force: bool = False) -> ImportResult:
    """PHH hands -> one match log at ``target`` (``.log``, the default, or ``.jsonl``), every hand
    replayed through our rules. All hands must share one table (players, blinds, stacks, bets); a game
    outside the catalog is written beside the log as ``<match>.game`` and named in its header.
    A log already at ``target`` is kept (``LogExistsError``) unless ``force``, as a match's are."""
    for p in paths:  # all of them before any work
        check_input_file(Path(p), ".phh or .phhs")
    out = Path(target).expanduser()
    if out.name in ("", "..") or str(target).endswith(("/", os.sep)) or out.is_dir():  # ('.' was a ValueError traceback)
        raise ShowdownError(f"-o {target}: a folder; give the log's file name in it ({out / 'match.log'})")
    if out.suffix not in (".log", ".jsonl"):
        out = out.with_name(out.name + ".log")
    if out.exists() and not force:
        raise LogExistsError(str(out), "give -o another name, or --force to overwrite it")
    match = _ImportedMatch(out, force)
    tmp = _temp_beside(out)
    try:
        with os.fdopen(tmp[0], "w", encoding="utf-8", newline="\n") as body:
            for where, h in _located_hands(paths):
                body.write(match.line(h, where) + "\n")
                if progress is not None and match.count % 10_000 == 0:
                    progress(match.count)
        if match.game is None:
            raise ProtocolError(f"{', '.join(map(str, paths))}: no hands")
        if match.game_file is not None:  # first: a log naming a game file that is not there is no log (it was said as the log's fault)
            try:
                match.game_file.write_text(format_gamedef(match.game), encoding="utf-8")
            except OSError as exc:
                raise ShowdownError(f"cannot write {match.game_file}, the game the log names: {exc.strerror or exc}") from None
        _finish(out, tmp[1], match.ending(), match.jsonl, match.limits)
    except OSError as exc:
        raise ShowdownError(f"cannot write {out}: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(tmp[1]):
            os.unlink(tmp[1])
    return ImportResult(out, match.game_file, match.count)


class _ImportedMatch:
    """The match the PHH hands make: its game (from the first hand; every other must share its
    table), its name, seed and seats, each hand's log line, and the players' totals."""

    def __init__(self, out: Path, force: bool = False) -> None:
        self.out = out
        self.force = force
        self.jsonl = out.suffix == ".jsonl"
        self.match = log_word(out.stem) or "import"  # the header's match name: one word ('-o "my match.log"')
        self.game: GameDef | None = None
        self.label = ""
        self.game_file: Path | None = None
        self.seat_names: list[str] = []
        self.totals: dict[str, float] = {}
        self.seed = 0
        self.limits: tuple[int, int, int] = DEFAULT_TIME_LIMITS
        self.count = 0
        self.first = ""  # where the first hand is

    def _table(self, h: PhhHand, where: str) -> GameDef:
        if self.game is None:
            self.first = where
            self.game, name = _match_game(h)
            if name is None:  # a word of the header too
                self.game_file = self.out.with_name((log_word(self.out.stem) or "import") + ".game")
                self._keep_other_game(self.game_file, self.game)
            self.label = name if name is not None else self.game_file.name if self.game_file else ""
            self.seed = h.seed or 0
            self.limits = h.limits or DEFAULT_TIME_LIMITS
            self.match = h.match or self.match
            self.seat_names = _seat_order(h)
        elif not same_table(self.game, h.game):  # (said without the file or line: 'hand 1: its table ...')
            raise ProtocolError(f"{where}: hand {h.hand.hand}: its table ({_table_text(h.game)}) differs from the first hand's "
                                f"at {self.first} ({_table_text(self.game)}); import hands of one table at a time")  # fmt: skip
        return self.game

    def _seats_by_name(self, names: tuple[str, ...]) -> tuple[int, ...]:
        """A hand's seats when PHH gives none: each player's seat of the first hand (the players
        rotating through the positions, as hands from elsewhere do), else by position. They were by
        position always, so a player's hands were split between seats, and the view, which follows
        players by seat, counted one's winnings to the other."""
        n = len(names)
        seats = tuple(self.seat_names.index(name) if name in self.seat_names[:n] else -1 for name in names)
        return seats if sorted(seats) == list(range(n)) else tuple(range(n))

    def _keep_other_game(self, path: Path, game: GameDef) -> None:
        """A ``.game`` already at ``path`` that is another game is kept (``ShowdownError``) unless
        ``force``: a file of the user's own ('-o mine.log' beside their 'mine.game') was overwritten
        without a word by the game the hands imply."""
        if self.force or not path.exists():
            return
        try:
            same = path.is_file() and path.read_text(encoding="utf-8", errors="replace") == format_gamedef(game)
        except OSError:
            same = False
        if not same:
            raise ShowdownError(f"{path} is there and is another game than the hands' (the .game an import writes beside "
                                "its log): give -o another name, or --force to overwrite it")

    def line(self, h: PhhHand, where: str = "") -> str:
        """The hand's line in the log (a STATE line, or a JSON record), its values counted."""
        self._table(h, where)
        hand = h.hand
        for name, value in zip(hand.names, hand.values):
            self.totals[name] = self.totals.get(name, 0.0) + value
            if name not in self.seat_names:
                self.seat_names.append(name)
        self.count += 1
        if self.jsonl:
            seats = h.seats or self._seats_by_name(hand.names)
            return hand_json(hand.hand, self.label, hand.names, seats, hand.hole, hand.board, hand.betting_text,
                             tuple(float(v) for v in hand.values), ())  # fmt: skip
        if not h.betting:
            return format_state_line(hand)
        return state_line_text(hand.hand, h.betting, [format_cards(c) for c in hand.hole], _board_text(hand.board),
                               "|".join(map(format_value, hand.values)), hand.names)  # fmt: skip

    def ending(self) -> MatchSummary:
        names = tuple(self.seat_names)
        return MatchSummary(match=self.match, game=self.label, seed=self.seed, hands=self.count, hands_played=self.count,
                            names=names, totals=tuple(self.totals[n] for n in names))  # fmt: skip


def _table_text(game: GameDef) -> str:
    """A table as PHH states it, for people: 'no-limit, blinds 50/100, stacks 20000/20000'."""
    blinds = "/".join(map(str, reversed(game.blind) if game.num_players == 2 else game.blind))
    bets = "" if game.is_nolimit else f", bets {game.raise_size[0]}/{game.raise_size[2]}"
    return f"{'no-limit' if game.is_nolimit else 'fixed-limit'}, blinds {blinds}, stacks {'/'.join(map(str, game.stack))}{bets}"


def _board_text(board: tuple[tuple[Card, ...], ...]) -> str:
    """The STATE line's board groups (``/8dAs8s/4h``), as ``format_cards_field`` writes them."""
    return "".join("/" + format_cards(g) for r, g in enumerate(board) if r or g)


def _finish(out: Path, body: str, ending: MatchSummary, jsonl: bool, limits: tuple[int, int, int]) -> None:
    """The log: the header (``.log``, with the match's time limits), the hands written so far, the
    SCORE line or summary record."""
    with open(out, "w", encoding="utf-8", newline="\n") as f, open(body, encoding="utf-8") as lines:
        if not jsonl:
            f.write("\n".join(LogHeader(ending.match, ending.game, ending.hands, ending.seed, *limits).lines()) + "\n")
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


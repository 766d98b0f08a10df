"""Reading hands back from log files: ACPC ``.log`` files (ours or the reference dealer's) and our
``.jsonl`` files into one ``HandTable``, with the games they name, their score lines, and notes on
torn tails and files of the same match given twice. Errors name the file and line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from showdown.errors import GameDefError, ProtocolError, ShowdownError
from showdown.evaluation.hand_table import HandCollector, HandTable
from showdown.games.cards import NUM_SUITS, Card, deck_ranks, deck_suits, format_cards
from showdown.games.catalog import get_game
from showdown.games.gamedef import GameDef
from showdown.games.state import Action, ActionKind
from showdown.protocol.lines import MAX_LOG_LINE, log_lines
from showdown.protocol.logfile import (
    HandRecord,
    LoggedHand,
    LogHeader,
    MatchSummary,
    Score,
    jsonl_record,
    parse_header_line,
    read_records,
)

__all__ = ["MAX_LOG_LINE", "NOT_LOGS", "LogSet", "log_corrections", "log_lines", "not_a_log_file", "phh_not_log", "read_logs", "resolve_log_game"]


@dataclass
class LogSet:
    """Hands read from log files, with what their headers and score lines said."""

    table: HandTable
    game: GameDef | None
    scores: list[tuple[Path, Score]]  # files that had a SCORE line (or a JSONL summary's totals)
    files: list[Path]
    notes: list[str] = field(default_factory=list)  # torn tails, files of the same match left out


def phh_not_log(p: Path) -> str | None:
    """Why a PHH hand history given where a log is wanted is refused, with the way to make it one
    (it was 'unexpected line '[0]'', no way out said); None for any other file."""
    if p.suffix in (".phh", ".phhs"):
        return f"{p} is a PHH hand history, not a match log: 'showdown import {p} -o MATCH.log' makes it one"
    return None


def not_a_log_file(p: Path) -> str:
    """Why ``p``, which is no regular file, cannot be read as a log (it said 'no such log file' of a
    folder or of /dev/null, which are there)."""
    if p.is_dir():
        return f"{p} is a folder: give the log files in it ({_logs_pattern(p)})"
    if p.exists():
        return f"{p} is not a regular file (a device or a pipe): give a .log or .jsonl file"
    return f"no such log file: {p}"


def _logs_pattern(folder: Path) -> Path:
    """The pattern that names the logs in ``folder``, as deep as the first ones lie: a tournament's are in
    ``matches/<match>/`` (``folder/*.log``, said of every folder, named no file there)."""
    for depth in range(4):
        pattern = "/".join(["*"] * depth + ["*.log"])
        if next(folder.glob(pattern), None) is not None:
            return folder / pattern
    return folder / "*.log"


def _is_jsonl(path: Path) -> bool:
    if path.suffix == ".jsonl":
        return True
    if path.suffix == ".log":
        return False
    for _, line in _iter_file(path):
        if line.strip():
            return line.lstrip().startswith("{")
    return False


def _iter_file(path: Path, torn: list[str] | None = None) -> Iterator[tuple[int, str]]:
    """The file's lines with their numbers. A last line with no line end is what a crash leaves
    mid-write: it is not read (even if it would parse, it may be cut short), and ``torn`` says so."""
    try:
        f = path.open("rb")
    except OSError as exc:
        raise ShowdownError(f"cannot read log {path}: {exc.strerror or exc}") from None
    with f:
        for number, raw in log_lines(f, str(path)):
            line = raw.decode("utf-8", "backslashreplace")  # (replace made two different bad names one player)
            if not line.endswith("\n"):
                if torn is not None and line.strip():
                    torn.append(
                        f"{path}:{number}: the last line is cut off (the writer stopped mid-line); "
                        f"the {number - 1} complete lines before it were read"
                    )
                return
            yield number, line


def _game_of_file(path: Path) -> str | None:
    """The game a log names: the ACPC header's game file, or a JSON record's ``game``."""
    for _, line in _iter_file(path):
        if line.startswith("#"):
            header = parse_header_line(line)
            if header is not None:
                return header.game
        elif line.strip().startswith("{"):
            try:
                record = jsonl_record(line)
            except ProtocolError:
                return None
            return (record.game if record is not None else "") or None
        elif line.strip():
            return None
    return None


def resolve_log_game(game_name: str, log_path: Path) -> GameDef:
    """The game a log header names: a path next to the log, a catalog name or a reference file name,
    else a file of its name next to the log (the header's path is where the match was played)."""
    beside = log_path.parent / game_name
    if beside.is_file():
        return get_game(str(beside))
    try:
        return get_game(game_name)
    except GameDefError as exc:
        moved = log_path.parent / PurePath(game_name).name  # the reference dealer's header holds the path it was given:
        if moved.is_file():  # a match folder copied elsewhere has its .game beside the log, not at that path
            return get_game(str(moved))
        raise GameDefError(
            f"{log_path}: the header names game {game_name!r}, which is neither a catalog game nor a file "
            f"next to the log ({exc}); pass --game GAME"
        ) from None


def _resolve_game(label: str, path: Path) -> GameDef | None:
    try:
        return resolve_log_game(label, path)
    except ShowdownError:
        return None


def read_logs(
    paths: Sequence[str | Path],
    *,
    game: GameDef | None = None,
    encoder_for: Any = None,
    halves: bool = True,
    chance: bool = False,
    sample_boards: bool = True,
    known_corrections: Mapping[str, Any] | None = None,
    chance_boards: int | None = None,
) -> LogSet:
    """Read ACPC ``.log`` and JSON Lines ``.jsonl`` files into one ``HandTable``.

    The game comes from ``game`` or the first file's header (None when it cannot be resolved: the
    figures are then in chips only). ``encoder_for(game)`` may return an ``AivatEstimator`` to place
    the hands in the game's tree. Each file is its own ``half`` (for duplicate pairing) when
    ``halves``. ``chance``: with the cards' luck taken out (``evaluation.chance``; ``sample_boards``:
    the flop's too, from ``chance_boards`` sampled boards (default ``chance.SAMPLED_BOARDS``); ``known_corrections``: a ``log_corrections`` document of
    corrections already worked out, used when made with the same settings). Errors name the file and line.
    """
    if any(str(p) == "" for p in paths):
        raise ShowdownError("an empty path where a log file was expected: give the .log or .jsonl a match wrote")
    files = [Path(p) for p in paths]
    if not files:
        raise ShowdownError("no log files given")
    for p in files:
        if not p.is_file():
            raise ShowdownError(not_a_log_file(p))
        if (why := phh_not_log(p)) is not None:
            raise ShowdownError(why)
    notes: list[str] = []
    files = _only_logs(files, notes)
    files = _one_file_per_match(files, notes)
    labels = [_game_of_file(p) for p in files]
    if game is None:
        game = _resolve_game(labels[0], files[0]) if labels[0] else None
        if game is None and labels[0]:  # (the figures came in chips, no game named and no word why)
            notes.append(f"{files[0]} names the game {labels[0]!r:.80}, which is neither a catalog game nor a file next to "
                         "the log: figures in chips, without the game's corrections (give --game GAME)")
    else:
        _check_given_game(files, labels, game)
    _check_one_game(files, labels, game)
    encoder = encoder_for(game) if (encoder_for is not None and game is not None) else None
    corrector = None
    if chance and game is not None:
        from showdown.evaluation.chance import ChanceCorrector, supports

        if supports(game) is None:
            corrector = ChanceCorrector(game, sample_boards=sample_boards, boards=chance_boards)
            if known_corrections is not None:
                corrector.take_known(known_corrections)
    collector = HandCollector(encoder=encoder, corrector=corrector)
    scores: list[tuple[Path, Score]] = []
    repeats = _Repeats()
    for k, path in enumerate(files):
        half = k if halves else 0
        score = _read_log_file(path, collector, half, notes, jsonl=_is_jsonl(path), game=game, repeats=repeats)
        if score is not None:
            scores.append((path, score))
    return LogSet(collector.table(), game, scores, files, notes)


NOT_LOGS = (".match.json", ".result.json", ".stderr", ".game", ".yaml", ".png", "results.json", "results.txt", ".html")
"""What ``showdown match`` and ``tournament`` (``results.json``, ``results.txt``) write beside their logs, and
reports: ``analyze out/*`` passes over these (``analyze out/results.json`` said "bad hand record '{'")."""


def _only_logs(files: list[Path], notes: list[str]) -> list[Path]:
    kept = [p for p in files if not p.name.endswith(NOT_LOGS)]
    skipped = len(files) - len(kept)
    if skipped:
        notes.append(f"{skipped} file(s) beside the logs (match settings, results, bot output) were passed over")
    if not kept:
        raise ShowdownError("no log files among " + ", ".join(str(p) for p in files[:3]) + (" ..." if len(files) > 3 else "")
                            + ": results, settings and bot output are passed over; give the .log or .jsonl files a match wrote")
    return kept


def _one_file_per_match(files: list[Path], notes: list[str]) -> list[Path]:
    """``X.log`` and ``X.jsonl`` are the same match written twice: keep the JSON Lines one (it has
    the dealer's events), so that ``analyze out/*`` counts each match once."""
    given = {p.resolve() for p in files}
    kept: list[Path] = []
    for p in files:
        twin = p.with_suffix(".jsonl")
        if p.suffix == ".log" and twin.resolve() in given:
            notes.append(f"{p} and {twin} are the same match: read {twin.name} only")
            continue
        if p.resolve() in {k.resolve() for k in kept}:
            continue
        kept.append(p)
    return kept


def _check_one_game(files: list[Path], labels: list[str | None], game: GameDef | None) -> None:
    """Logs of different games cannot be pooled: one line naming the first file that differs."""
    first = labels[0]
    for path, label in zip(files[1:], labels[1:]):
        if label == first or label is None or first is None:
            continue
        other = _resolve_game(label, path)
        if game is not None and other is not None and other == game:
            continue
        raise ShowdownError(
            f"{path} is a log of {label!r} but {files[0]} is one of {first!r}: analyze the games separately"
        )


def _check_given_game(files: list[Path], labels: list[str | None], game: GameDef) -> None:
    """A game given for logs that name another is refused: their hands would be read as the wrong
    game's (Kuhn's one card as hold'em's two) and the figures would mean nothing."""
    for path, label in zip(files, labels):
        named = _resolve_game(label, path) if label else None
        if named is not None and named != game:
            raise ShowdownError(f"{path} is a log of {named.name or label!r}, not {game.name or 'the game given'}: "
                                f"drop --game (the log names its game) or give the game it was played in")


def _check_seats(where: str, hand: int, names: Sequence[str], players: int | None) -> None:
    """A logged hand's seats: as many as the game has, and each named once (else no agent's figure means anything)."""
    if players is not None and len(names) != players:
        raise ShowdownError(f"{where}: a hand of {len(names)} players in a log of a {players}-player game: "
                            "not a hand of this match (give each match's log on its own)")
    _check_names(where, hand, names)


class _Deal:
    """The cards and raises a game deals: a hand of another game's (hold'em's two hole cards and board
    under a Kuhn header, no-limit raises under a limit one) was read as the header's game, figures and
    chance corrections and all, exit 0. Checked on every hand read, so kept to plain loops."""

    def __init__(self, game: GameDef) -> None:
        self.game = game
        self.deck = frozenset(r * NUM_SUITS + s for r in deck_ranks(game.num_ranks) for s in deck_suits(game.num_suits))
        self.name = game.name or "the game"

    def check(self, where: str, hand: int, hole: Sequence[Sequence[Card]], board: Sequence[Sequence[Card]],
              betting: str | tuple[tuple[Action, ...], ...]) -> None:
        g, deck = self.game, self.deck
        for h in hole:
            if h and len(h) != g.num_hole_cards:
                self._fail(where, hand, f"{len(h)} hole card{'s' if len(h) != 1 else ''} where {self.name} deals {g.num_hole_cards}")
            if not deck.issuperset(h):
                self._fail_card(where, hand, h)
        if len(board) > g.num_rounds or any(cards and len(cards) != g.num_board_cards[r] for r, cards in enumerate(board)):
            self._fail(where, hand, f"a board of {'/'.join(str(len(c)) for c in board)} cards where {self.name} deals "
                       + "/".join(map(str, g.num_board_cards)))
        for cards in board:
            if not deck.issuperset(cards):
                self._fail_card(where, hand, cards)
        if isinstance(betting, str):
            other = (_SIZED if g.is_limit else _BARE).search(betting) is not None
        elif g.is_limit:
            other = any(a.size for r in betting for a in r)
        else:
            other = any(_BARE_RAISE in r for r in betting)
        if other:  # (limit hold'em's header over no-limit hands: the same cards)
            self._fail(where, hand, f"{'no-limit raises (r<total>)' if g.is_limit else 'limit raises (r, no size)'}, where "
                       f"{self.name} is a {'limit' if g.is_limit else 'no-limit'} game")

    def _fail_card(self, where: str, hand: int, cards: Sequence[Card]) -> None:
        card = next(c for c in cards if c not in self.deck)
        self._fail(where, hand, f"the card {format_cards((card,))}, which {self.name}'s deck has not")

    @staticmethod
    def _fail(where: str, hand: int, what: str) -> None:
        raise ShowdownError(f"{where}: hand {hand} has {what}: a hand of another game than the log's (a log whose "
                            "header was joined to another's hands?); give each match's own log")


_SIZED = re.compile(r"r[0-9]")
_BARE = re.compile(r"r(?![0-9])")
_BARE_RAISE = Action(ActionKind.RAISE)


def _check_names(where: str, hand: int, names: Sequence[str]) -> None:
    if len(set(names)) < len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise ShowdownError(f"{where}: hand {hand} names {twice!r} at two positions: the seats cannot be told apart, "
                            "so no agent's win rate can be given; give each seat its own name when the match is played")


class _Repeats:
    """The first hands of each match read (a file, or a part of one where the hand numbers start
    again): a match whose first hands are another's, cards, betting, seats and values alike, is the
    same match read twice (a log joined with itself, or a copy given beside it), and its hands would
    count twice. At most ``PREFIX`` hands of ``KEPT`` matches are kept, so memory stays flat; fewer
    than ``LEAST`` hands alike tell nothing (Kuhn has six deals)."""

    PREFIX = 32
    LEAST = 4
    KEPT = 4096

    def __init__(self) -> None:
        self.done: dict[tuple[Any, ...], list[tuple[str, list[tuple[Any, ...]]]]] = {}
        self.kept = 0
        self.current: tuple[str, list[tuple[Any, ...]]] | None = None
        self.last = -1

    def add(self, where: str, record: HandRecord | LoggedHand, first_of_file: bool) -> None:
        if first_of_file or record.hand <= self.last:
            self.close()
            self.current = (where, [])
        self.last = record.hand
        if self.current is None:
            return
        names = record.players if isinstance(record, HandRecord) else record.names
        betting = record.betting if isinstance(record, HandRecord) else record.betting_text
        self.current[1].append((record.hand, record.hole, record.board, betting, record.values, names))
        if len(self.current[1]) == self.PREFIX:
            self.close()

    def close(self) -> None:
        """Compare the match being read with those before it, then keep its first hands."""
        if self.current is None:
            return
        where, keys = self.current
        self.current = None
        if len(keys) < self.LEAST:
            return
        alike = self.done.setdefault(tuple(keys[: self.LEAST]), [])
        for before, earlier in alike:
            n = min(len(keys), len(earlier))
            if keys[:n] == earlier[:n]:
                raise ShowdownError(f"{where}: hands {keys[0][0]} to {keys[n - 1][0]} are those at {before} again: the same "
                                    "match read twice (a log joined with itself, or a copy given beside it); give each match once")
        if self.kept < self.KEPT:
            alike.append((where, keys))
            self.kept += 1


def log_corrections(path: Path, game: GameDef, boards: int | None = None) -> dict[str, Any]:
    """Every hand's chance correction in one log, as ``read_logs(..., chance=True)`` works them out,
    for ``known_corrections``: ``{"settings": ..., "corrections": {key: position 0's correction}}``."""
    from showdown.evaluation.chance import ChanceCorrector

    corrector = ChanceCorrector(game, sample_boards=True, boards=boards, record=True)
    _read_log_file(path, HandCollector(corrector=corrector), 0, None, jsonl=_is_jsonl(path), game=game)
    return {"settings": corrector.settings, "corrections": corrector.recorded}


def _read_log_file(path: Path, collector: HandCollector, half: int, notes: list[str] | None, *, jsonl: bool,
                   game: GameDef | None = None, repeats: _Repeats | None = None) -> Score | None:
    """The hands of one ``.log`` or ``.jsonl`` file into ``collector`` (``protocol.logfile.read_records``,
    streamed); the match's total if the file has one (its SCORE line or summary record). ``game``:
    the log's, whose players and cards every hand must have; ``repeats``: the first hands of the matches read before."""
    repeats = _Repeats() if repeats is None else repeats
    players = game.num_players if game is not None else None
    deal = _Deal(game) if game is not None else None
    first = True
    score: Score | None = None
    label: str | None = None  # the first header's or hand record's: a file holds one match
    lines = (line for _, line in _iter_file(path, notes))
    for number, record in read_records(lines, source=str(path), jsonl=jsonl):
        named = record.game if isinstance(record, (LogHeader, HandRecord)) else None
        if named:
            if label is not None and named != label:
                raise ShowdownError(f"{path}:{number}: a {'hand' if jsonl else 'header'} of game {named!r} in a log "
                                    f"of {label!r} (two matches' logs joined in one file?): analyze each match's "
                                    "log on its own")
            label = named
        names = record.players if isinstance(record, HandRecord) else record.names if isinstance(record, LoggedHand) else None
        if names is not None:
            _check_seats(f"{path}:{number}", record.hand, names, players)  # type: ignore[union-attr]
            if deal is not None:
                deal.check(f"{path}:{number}", record.hand, record.hole, record.board, record.betting)  # type: ignore[union-attr]
            repeats.add(f"{path}:{number}", record, first)  # type: ignore[arg-type]
            first = False
        try:
            if isinstance(record, HandRecord):
                collector.add_record(record, half)
            elif isinstance(record, LoggedHand):
                collector.add_logged(record, half)
            elif isinstance(record, Score):
                score = record
            elif isinstance(record, MatchSummary):
                score = record.score or score
        except ShowdownError as exc:
            raise ShowdownError(f"{path}:{number}: {exc}") from None
    repeats.close()
    return score

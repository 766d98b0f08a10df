"""``showdown export LOG... --to phh -o DIR`` and ``showdown import FILE.phh|.phhs... -o MATCH``:
hand histories in the Poker Hand History format (pokerkit's), both ways."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from showdown.errors import ShowdownError

__all__ = ["add_export_parser", "add_import_parser"]


def add_export_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "export",
        description="Write each log (.log, ours or the reference dealer's, or .jsonl) as DIR/<log name>.phhs, one "
        "PHH table per hand: variant, blinds, stacks, names, seats, hole and board cards, every action with its "
        "size, and the final stacks. Hold'em games only (PHH's NT and FT variants). "
        "Example: showdown export out/match/*.log --to phh -o hands/",
    )
    p.add_argument("logs", nargs="+", metavar="LOG", help=".log or .jsonl files")
    p.add_argument("--to", required=True, choices=("phh",), help="the format to write (phh)")
    p.add_argument("-o", "--out-dir", required=True, metavar="DIR", help="folder for the .phhs files (created if missing)")
    p.add_argument("--game", help="the game (default: from the log)")
    p.add_argument("--force", action="store_true", help="overwrite .phhs files already there (else the export is refused)")
    p.set_defaults(handler=_export)


def add_import_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "import",
        description="Replay every hand of the .phh/.phhs files through showdown's rules and write one match log: "
        "MATCH.log (ACPC format, the default) or MATCH.jsonl. No-limit (NT) and fixed-limit (FT) hold'em, 2 to 10 "
        "players, every card known, one table (blinds, stacks) for all hands. A game outside the catalog is written "
        "as MATCH.game beside the log. Example: showdown import hands/*.phhs -o imported/match.log",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs files")
    p.add_argument("-o", "--out", required=True, metavar="MATCH", help="the log to write: MATCH.log or MATCH.jsonl")
    p.add_argument("--force", action="store_true", help="overwrite a log already there (else it is kept and the import refused)")
    p.set_defaults(handler=_import)


def _progress(what: str) -> Callable[[int], None]:
    def show(count: int) -> None:
        if sys.stderr.isatty():
            print(f"\r{what}: {count:,} hands", end="", file=sys.stderr, flush=True)

    return show


def _export(args: argparse.Namespace) -> int:
    from showdown.interchange.phh_files import check_input_file

    for log in args.logs:  # every one before any work
        check_input_file(Path(log), ".log or .jsonl")

    out = Path(args.out_dir)
    if out.exists() and not out.is_dir():  # (was 'cannot create the folder (File exists)')
        raise ShowdownError(f"-o {out} is a file: give a folder for the .phh files (a missing one is created)")
    created = [folder for folder in (out, *out.parents) if not folder.exists()]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ShowdownError(f"-o {out}: cannot create the folder ({exc.strerror or exc})") from None
    try:
        _export_into(out, args)
    except BaseException:  # (a failed export left the empty folder it had made behind)
        _remove_if_empty(created)
        raise
    return 0


def _export_into(out: Path, args: argparse.Namespace) -> None:
    from showdown.games.catalog import get_game
    from showdown.interchange.phh_files import export_phh

    game = get_game(args.game) if args.game else None
    targets = [Path(log).stem for log in args.logs]
    twice = next((t for t in targets if targets.count(t) > 1), None)
    if twice is not None:
        raise ShowdownError(f"two logs would both be written as {out / (twice + '.phhs')}: export them to different folders")
    there = next((out / f"{t}.phhs" for t in targets if (out / f"{t}.phhs").exists()), None)
    if there is not None and not args.force:  # (a second export of another run's log of the same name replaced it unsaid)
        raise ShowdownError(f"{there} is already there: --force overwrites it, or give another -o folder")
    for log in args.logs:
        result = export_phh(log, out, game, progress=_progress(str(log)))
        if result.torn:
            print(f"note: {result.torn}", file=sys.stderr)
        print(f"{result.target}: {result.hands:,} hands from {result.source}")
        if result.skipped:
            print(f"note: {result.skipped:,} hands skipped, the first: {result.first_skipped}")


def _remove_if_empty(created: list[Path]) -> None:
    """Remove the folders the export made (deepest first) that it left empty; never one it did not make."""
    for folder in created:
        try:
            folder.rmdir()  # only an empty folder goes
        except OSError:
            return


def _import(args: argparse.Namespace) -> int:
    from showdown.cli.main import no_folder
    from showdown.interchange.phh_files import import_phh

    folder = Path(args.out).expanduser().parent
    if not folder.is_dir():
        raise ShowdownError(f"-o {args.out}: {no_folder(folder)}")
    result = import_phh(args.files, args.out, progress=_progress("import"), force=args.force)
    extra = f" (game {result.game_file})" if result.game_file else ""
    print(f"{result.target}: {result.hands:,} hands{extra}")
    return 0

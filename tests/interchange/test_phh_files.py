"""Whole logs to PHH and back: import(export(log)) is the log, and the commands say what is wrong in
one line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.cli import main
from showdown.errors import ShowdownError
from showdown.games.catalog import get_game
from showdown.games.gamedef import format_gamedef
from showdown.interchange.phh_files import export_phh, import_phh
from showdown.protocol.logfile import hand_json
from tests.phh_support import log_text, pokerkit_payoffs, random_hands, uneven_game

DATA = Path(__file__).resolve().parents[1] / "data"
NOLIMIT_LOG = DATA / "holdem.nolimit.2p.reverse_blinds.1000h.seed0.log"


def test_import_of_export_is_the_reference_dealers_log_line_for_line(tmp_path: Path) -> None:
    result = export_phh(NOLIMIT_LOG, tmp_path)
    assert (result.hands, result.skipped) == (1000, 0)
    back = import_phh([result.target], tmp_path / "back" / NOLIMIT_LOG.name) if (tmp_path / "back").mkdir() is None else None
    assert back is not None and back.game_file is None  # a catalog game: the header names it
    assert (tmp_path / "back" / NOLIMIT_LOG.name).read_text() == NOLIMIT_LOG.read_text()
    assert main(["verify-log", str(tmp_path / "back" / NOLIMIT_LOG.name)]) == 0  # the seed came along


@pytest.mark.parametrize("stacks", [(3000, 20000, 9000), (5000, 20000)])
def test_a_log_with_side_pots_comes_back_hand_for_hand_beside_its_own_game(tmp_path: Path, stacks: tuple[int, ...]) -> None:
    game = uneven_game("nolimit", stacks)
    (tmp_path / "uneven.game").write_text(format_gamedef(game))
    hands = list(random_hands(game, 200, seed=11))
    log = tmp_path / "m.log"
    log.write_text(log_text("uneven.game", hands, seed=11))
    (tmp_path / "phh").mkdir()
    result = export_phh(log, tmp_path / "phh")
    assert result.hands + result.skipped == 200 and result.skipped < 10
    out = tmp_path / "back" / "m.log"
    out.parent.mkdir()
    imported = import_phh([result.target], out)
    assert imported.game_file == out.with_suffix(".game")  # no catalog game: written beside the log
    assert get_game(str(imported.game_file)) == game
    ours = [line for line in log.read_text().splitlines() if line.startswith("STATE:")]
    back = [line for line in out.read_text().splitlines() if line.startswith("STATE:")]
    skipped = result.first_skipped.split(": hand ")[-1].split(":")[0] if result.skipped else None
    assert len(back) == result.hands and set(back) <= set(ours)
    assert all(line.split(":")[1] != skipped for line in back)
    assert out.read_text().splitlines()[0] == f"# name/game/hands/seed m m.game {result.hands} 11"
    if result.skipped == 0:
        assert main(["verify-log", str(out)]) == 0


def test_jsonl_hands_come_back_the_same(tmp_path: Path) -> None:
    game = get_game("holdem-limit-3p")
    hands = list(random_hands(game, 100, seed=3))
    names = ("a", "b", "c")
    lines = []
    for h in hands:
        seats = tuple((p + h.hand) % 3 for p in range(3))
        players = tuple(names[s] for s in seats)
        lines.append(hand_json(h.hand, "holdem-limit-3p", players, seats, h.hole, h.board, h.betting_text, h.values, ()))
    log = tmp_path / "m.jsonl"
    log.write_text("\n".join(lines) + "\n")
    result = export_phh(log, tmp_path)
    out = tmp_path / "back.jsonl"
    import_phh([result.target], out)
    assert out.read_text().splitlines()[:-1] == lines
    assert '"summary":true' in out.read_text().splitlines()[-1]


def test_cli_export_then_import_then_analyze_and_view_data(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(NOLIMIT_LOG), "--to", "phh", "-o", str(tmp_path / "phh")]) == 0
    phhs = tmp_path / "phh" / (NOLIMIT_LOG.stem + ".phhs")
    assert "1,000 hands" in capsys.readouterr().out
    assert main(["import", str(phhs), "-o", str(tmp_path / "m.log")]) == 0
    assert main(["analyze", str(tmp_path / "m.log"), "--json"]) == 0
    assert '"players"' in capsys.readouterr().out
    assert main(["report", str(tmp_path / "m.log"), "-o", str(tmp_path / "r.html")]) == 0
    assert (tmp_path / "r.html").stat().st_size > 1000


def test_exported_hands_load_in_pokerkit_from_the_file(tmp_path: Path) -> None:
    result = export_phh(DATA / "holdem.limit.2p.reverse_blinds.1000h.seed0.log", tmp_path)
    text = result.target.read_text()
    assert len(pokerkit_payoffs("\n".join(text.split("\n\n")[:50]))) == 50


@pytest.mark.parametrize("content, says", [
    ('[1]\nvariant = "NT"\n', "bad.phhs:1 [1]: field 'blinds_or_straddles': missing"),
    ("[1]\nvariant = \n", "bad.phhs:1: not valid PHH (TOML)"),
    ('[1]\nvariant = "F7S"\n', "bad.phhs:1 [1]: field 'variant'"),
    # arrays nested 5,000 deep: was a RecursionError traceback from tomllib
    ("[1]\nactions = " + "[" * 5000 + "]" * 5000 + "\n", "bad.phhs:1: not valid PHH: arrays nested too deep"),
])
def test_bad_phh_is_one_line_naming_file_and_field_exit_2(tmp_path: Path, content: str, says: str) -> None:
    bad = tmp_path / "bad.phhs"
    bad.write_text(content)
    run = subprocess.run([sys.executable, "-m", "showdown", "import", str(bad), "-o", str(tmp_path / "m.log")],
                         capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0] and "Traceback" not in run.stderr
    assert not (tmp_path / "m.log").exists()


def test_export_of_a_game_phh_cannot_state_is_one_line(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "showdown", "export", str(DATA / "kuhn.limit.2p.1000h.seed0.log"), "--to", "phh",
                          "-o", str(tmp_path)], capture_output=True, text=True)  # fmt: skip
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert "cannot be written as PHH" in run.stderr and not list(tmp_path.iterdir())


def test_a_log_holding_two_matches_is_refused_not_exported_with_each_hand_key_twice(tmp_path: Path) -> None:
    """Two logs joined: every hand number came twice, written as a table key twice: a .phhs that no TOML
    reader takes (tomllib: "Cannot declare ('0',) twice"), exported without a word."""
    log = tmp_path / "joined.log"
    text = NOLIMIT_LOG.read_text()
    log.write_text(text + text)
    out = tmp_path / "hands"
    out.mkdir()
    with pytest.raises(ShowdownError, match=r"joined.log:\d+: hand 0 comes after hand 999: the file holds more than one match"):
        export_phh(log, out)
    assert not list(out.iterdir())


@pytest.mark.parametrize("lines", [0, 4])  # an empty file; a header with no hand (a match stopped before its first)
def test_a_log_with_no_hands_exports_no_file_and_says_so(tmp_path: Path, lines: int) -> None:
    log = tmp_path / "m.log"
    log.write_text("".join(NOLIMIT_LOG.read_text().splitlines(keepends=True)[:lines]))
    out = tmp_path / "hands"
    out.mkdir()
    with pytest.raises(ShowdownError, match="no hands to export in .*m.log"):
        export_phh(log, out)
    assert not list(out.iterdir())


@pytest.mark.slow
def test_100000_hands_export_in_10_seconds_and_import_as_fast_in_flat_memory(tmp_path: Path) -> None:
    """The issue's figure: a 100,000-hand no-limit log (the reference dealer's hands over and over);
    memory (peak RSS of the command) no larger than for a tenth of it. Time is the command's CPU
    time, so that other work on a shared machine does not count against it."""
    base = NOLIMIT_LOG.read_text().splitlines()
    states = [line for line in base if line.startswith("STATE:")]
    header = [line for line in base if line.startswith("#")]

    def write(count: int, path: Path) -> None:
        with path.open("w") as f:
            f.write("\n".join(header).replace(" 1000 ", f" {count} ") + "\n")
            for h in range(count):
                line = states[h % 1000].split(":", 2)
                f.write(f"STATE:{h}:{line[2]}\n")

    figures = {}
    for count in (10_000, 100_000):
        log = tmp_path / f"n{count}.log"
        write(count, log)
        out = tmp_path / f"out{count}"
        figures[count] = []
        for argv in (["export", str(log), "--to", "phh", "-o", str(out)], ["import", str(out / log.with_suffix(".phhs").name), "-o", str(out / "b.log")]):
            code = ("import resource, sys, time; from showdown.cli import main; t = time.process_time(); "
                    f"rc = main({argv!r}); print(time.process_time() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss); sys.exit(rc)")
            run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
            assert run.returncode == 0, run.stderr
            seconds, rss = run.stdout.split()[-2:]
            figures[count].append((float(seconds), int(rss)))
    print(figures)
    (export_s, export_rss), (import_s, import_rss) = figures[100_000]
    assert export_s <= 10 and import_s <= 10
    assert export_rss < figures[10_000][0][1] * 1.25 and import_rss < figures[10_000][1][1] * 1.25
    shutil.rmtree(tmp_path)


def test_import_over_an_existing_log_keeps_it_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # it overwrote any log at -o without a word: `-o out/match.log` replaced the match's own log
    phhs = export_phh(NOLIMIT_LOG, tmp_path).target
    kept = tmp_path / "match.log"
    kept.write_text("a match's log\n")
    assert main(["import", str(phhs), "-o", str(kept)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "match.log already exists: logs are never overwritten; give -o another name, or --force" in err[0]
    assert kept.read_text() == "a match's log\n"
    assert main(["import", str(phhs), "-o", str(kept), "--force"]) == 0
    assert kept.read_text().splitlines()[-1] == NOLIMIT_LOG.read_text().splitlines()[-1]  # the hands, imported


@pytest.mark.parametrize("name, content, says", [
    ("lines.phh", "# a comment\n" * 200_000, "lines.phh:1: a hand of more than 1,048,576 characters"),
    ("line.phhs", '[1]\nactions = ["' + "x" * (4 << 20) + '"]\n', "line.phhs:2: a line of more than 1,048,576 bytes"),
])
def test_a_hand_history_too_large_for_a_hand_is_refused_in_flat_memory(tmp_path: Path, name: str, content: str,
                                                                       says: str) -> None:
    """Both were held whole in memory (164 MB of the process for a 44 MB .phh of comments) before
    their error; now reading stops at 1 MiB of one hand or one line."""
    import tracemalloc

    from showdown.interchange.phh_files import read_phh_hands

    path = tmp_path / name
    path.write_text(content)
    tracemalloc.start()
    try:
        with pytest.raises(ShowdownError, match=says):
            list(read_phh_hands([path]))
        assert tracemalloc.get_traced_memory()[1] < 8 << 20
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("cut", [7, 60])
def test_a_log_cut_mid_line_by_a_kill_exports_its_complete_hands_with_a_note(
    tmp_path: Path, cut: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """A killed match's log (its last line without its end) was 'bad log line ...: expected
    STATE:<hand>:...', exit 2, nothing exported, where verify-log and analyze read every complete hand."""
    whole = NOLIMIT_LOG.read_bytes()
    log = tmp_path / "killed.log"
    log.write_bytes(whole[:-cut])  # 7: the SCORE line cut; 60: the last hand's STATE line too
    assert main(["export", str(log), "--to", "phh", "-o", str(tmp_path / "phh")]) == 0
    out, err = capsys.readouterr()
    assert f"{' 1,000' if cut == 7 else ' 999'} hands from" in out
    assert err.count("\n") == 1 and "killed.log:100" in err and "the last line is cut off" in err
    full = export_phh(NOLIMIT_LOG, tmp_path).target.read_text()
    assert full.startswith((tmp_path / "phh" / "killed.phhs").read_text().replace("killed", NOLIMIT_LOG.stem))


def test_names_beyond_the_basic_plane_export_as_toml_any_reader_takes(tmp_path: Path) -> None:
    """A player named with a character beyond U+FFFF (an emoji) was written as JSON's surrogate pair
    '\\ud83d\\ude00', which TOML forbids: the exported file was refused by tomllib, pokerkit and our own
    import ('Escaped character is not a Unicode scalar value')."""
    import tomllib

    names = ("Ösel😀", "李四𝄞")
    log = tmp_path / "m.log"
    log.write_text("# name/game/hands/seed m holdem-nolimit 1 0\n"
                   f"STATE:0:r300f:AcKd|2c2d:-100|100:{'|'.join(names)}\nSCORE:-100|100:{'|'.join(names)}\n", encoding="utf-8")
    target = export_phh(log, tmp_path).target
    text = target.read_text(encoding="utf-8")
    assert tomllib.loads(text)["0"]["players"] == list(names)
    back = import_phh([target], tmp_path / "back.log")
    assert back.hands == 1
    assert (tmp_path / "back.log").read_text(encoding="utf-8").splitlines()[-1] == f"SCORE:-100|100:{'|'.join(names)}"


def test_a_hand_saved_with_a_byte_order_mark_imports(tmp_path: Path) -> None:
    """Windows' Notepad saves UTF-8 with a byte order mark, which TOML does not allow: the hand was
    'not valid PHH (TOML): Invalid statement (at line 1, column 1)'."""
    text = ('variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [50, 100]\nmin_bet = 100\n'
            'starting_stacks = [10000, 10000]\nactions = ["d dh p1 AcKd", "d dh p2 2c2d", "p2 f"]\n')
    (tmp_path / "h.phh").write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    assert import_phh([tmp_path / "h.phh"], tmp_path / "m.log").hands == 1
    assert "STATE:0:f:AcKd|2c2d:50|-50:p1|p2" in (tmp_path / "m.log").read_text()


@pytest.mark.parametrize(("event", "out", "match"), [
    ('event = "final table"\n', "m.log", "final_table"),
    ('event = "a\\nb"\n', "m.log", "a_b"),
    ("", "my match.log", "my_match"),
])  # fmt: skip
def test_an_event_or_log_name_with_spaces_makes_a_header_the_readers_take(tmp_path: Path, event: str, out: str, match: str) -> None:
    """The header '# name/game/hands/seed final table holdem-nolimit 1 0' (or one cut by a newline) was
    not read as one: analyze gave plain chips of no game, verify-log 'unexpected line'."""
    from showdown.evaluation.log_reading import read_logs

    export_phh(NOLIMIT_LOG, tmp_path)
    hand = (tmp_path / (NOLIMIT_LOG.stem + ".phhs")).read_text().split("\n\n")[0]
    (tmp_path / "h.phh").write_text("\n".join(line for line in hand.splitlines() if not line.startswith("event")) + "\n" + event)
    import_phh([tmp_path / "h.phh"], tmp_path / out)
    assert (tmp_path / out).read_text().splitlines()[0] == f"# name/game/hands/seed {match} holdem.nolimit.2p.reverse_blinds.game 1 0"
    assert read_logs([tmp_path / out]).game == get_game("holdem-nolimit")


def test_a_pipe_or_a_folder_is_refused_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A pipe no one writes to (mkfifo) held import and export for ever."""
    os.mkfifo(tmp_path / "fifo.phh")
    (tmp_path / "folder").mkdir()
    assert main(["import", str(tmp_path / "fifo.phh"), "-o", str(tmp_path / "m.log")]) == 2
    assert "fifo.phh is not a regular file (a device or a pipe): give a .phh or .phhs file" in capsys.readouterr().err
    assert main(["export", str(NOLIMIT_LOG), str(tmp_path / "fifo.phh"), "--to", "phh", "-o", str(tmp_path / "out")]) == 2
    assert "give a .log or .jsonl file" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # refused before any work: the good log before it is not exported either
    assert main(["import", str(tmp_path / "folder"), "-o", str(tmp_path / "m.log")]) == 2
    assert "folder is a folder: give the .phh or .phhs files in it" in capsys.readouterr().err
    assert not (tmp_path / "m.log").exists()


@pytest.mark.parametrize(("log", "game"), [("kuhn.limit.2p.1000h.seed0.log", "holdem-nolimit"), (NOLIMIT_LOG.name, "holdem-limit")])
def test_a_game_given_for_a_log_of_another_is_refused_as_analyze_refuses_it(tmp_path: Path, log: str, game: str) -> None:
    """Its hands were replayed as the wrong game's: 'hand 0: the betting 'cc' does not finish the hand'
    of a Kuhn log, 'raise to 18929 is outside the legal range 30 to 30' of a no-limit one."""
    with pytest.raises(ShowdownError, match=rf"{log} is a log of .*, not {game}: drop --game \(the log names its game\)"):
        export_phh(DATA / log, tmp_path, get_game(game))
    assert export_phh(NOLIMIT_LOG, tmp_path, get_game("holdem-nolimit")).hands == 1000  # the game it names: taken


def test_a_hand_history_not_in_utf8_is_refused_not_imported_with_its_names_damaged(tmp_path: Path) -> None:
    """A Latin-1 file (an older tool's) was imported with 'Jérôme' as 'J\\ufffdr\\ufffdme', without a word."""
    export_phh(NOLIMIT_LOG, tmp_path)
    hand = (tmp_path / (NOLIMIT_LOG.stem + ".phhs")).read_text().split("\n\n")[0]
    (tmp_path / "h.phh").write_bytes(hand.replace('players = ["', 'players = ["J\u00e9r\u00f4me', 1).encode("latin-1"))
    with pytest.raises(ShowdownError, match=r"h\.phh:9: not UTF-8 text \(byte 0xe9\), which PHH \(TOML\) is: save the file as UTF-8"):
        import_phh([tmp_path / "h.phh"], tmp_path / "m.log")
    (tmp_path / "h.phh").write_bytes(hand.replace('players = ["', 'players = ["J\u00e9r\u00f4me', 1).encode("utf-8"))
    assert import_phh([tmp_path / "h.phh"], tmp_path / "m.log").hands == 1
    assert "J\u00e9r\u00f4me" in (tmp_path / "m.log").read_text(encoding="utf-8")


def test_a_hand_of_another_table_is_said_with_its_file_line_and_both_tables(tmp_path: Path) -> None:
    """It was 'hand 1: its table (blinds, stacks or bets) differs from the first hand's', no file, no line."""
    export_phh(NOLIMIT_LOG, tmp_path)
    small = [h for h in (tmp_path / (NOLIMIT_LOG.stem + ".phhs")).read_text().split("\n\n") if "finishing_stacks = [19" in h]
    other = "\n".join(line for line in small[1].splitlines() if not line.startswith("finishing_stacks"))
    hands = [small[0], other.replace("starting_stacks = [20000, 20000]", "starting_stacks = [30000, 30000]")]
    (tmp_path / "two.phhs").write_text("\n\n".join(hands))
    with pytest.raises(ShowdownError, match=r"^\S*two\.phhs:\d+: hand \d+: its table \(no-limit, blinds 50/100, stacks 30000/30000\) "
                                            r"differs from the first hand's at \S*two\.phhs:1 \(no-limit, blinds 50/100, stacks 20000/20000\)"):
        import_phh([tmp_path / "two.phhs"], tmp_path / "m.log")


def test_a_game_file_of_the_users_own_beside_the_log_is_kept_unless_forced(tmp_path: Path) -> None:
    """'-o mine.log' beside the user's 'mine.game' overwrote it, without a word, with the game the hands imply."""
    game = uneven_game("nolimit", (5000, 20000))
    (tmp_path / "u.game").write_text(format_gamedef(game))
    (tmp_path / "m.log").write_text(log_text("u.game", list(random_hands(game, 5, seed=3)), seed=3))
    phhs = export_phh(tmp_path / "m.log", tmp_path).target
    (tmp_path / "mine.game").write_text("# my own game\n")
    with pytest.raises(ShowdownError, match=r"mine\.game is there and is another game than the hands'.*--force to overwrite it"):
        import_phh([phhs], tmp_path / "mine.log")
    assert (tmp_path / "mine.game").read_text() == "# my own game\n" and not (tmp_path / "mine.log").exists()
    assert import_phh([phhs], tmp_path / "mine.log", force=True).game_file == tmp_path / "mine.game"
    assert get_game(str(tmp_path / "mine.game")) == game
    (tmp_path / "mine.log").unlink()
    assert import_phh([phhs], tmp_path / "mine.log").hands == 5  # the same game there already: nothing lost, taken


@pytest.mark.parametrize("out", ["", ".", "/", "..", "{tmp}/", "{tmp}"])
def test_a_folder_given_as_the_log_to_write_is_one_line(tmp_path: Path, out: str, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """'-o .' and '-o /' were a ValueError traceback ('PosixPath('.') has an empty name'), '-o ..' wrote '...log'
    and '-o out/' wrote out.log beside the folder."""
    monkeypatch.chdir(tmp_path)
    export_phh(NOLIMIT_LOG, tmp_path)
    phhs = tmp_path / (NOLIMIT_LOG.stem + ".phhs")
    assert main(["import", str(phhs), "-o", out.format(tmp=tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "a folder; give the log's file name in it" in err and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [phhs.name]


def test_the_log_to_write_may_be_under_the_home_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command checked '~/m.log''s folder with ~ expanded and then wrote to a folder named '~': 'cannot write in ~'."""
    monkeypatch.setenv("HOME", str(tmp_path))
    export_phh(NOLIMIT_LOG, tmp_path)
    assert main(["import", str(tmp_path / (NOLIMIT_LOG.stem + ".phhs")), "-o", "~/m.log"]) == 0
    assert (tmp_path / "m.log").is_file()


def test_players_rotating_through_positions_keep_their_seats_in_the_jsonl(tmp_path: Path) -> None:
    """Without PHH's 'seats', every hand's seats were its positions, so a player's hands were split
    between seats (and the view, which follows players by seat, counted one's winnings to the other)."""
    from showdown.protocol.logfile import HandRecord

    export_phh(NOLIMIT_LOG, tmp_path)
    hands = (tmp_path / (NOLIMIT_LOG.stem + ".phhs")).read_text().split("\n\n")[:4]
    (tmp_path / "h.phhs").write_text("\n\n".join("\n".join(x for x in h.splitlines() if not x.startswith("seats")) for h in hands))
    import_phh([tmp_path / "h.phhs"], tmp_path / "m.jsonl")
    records = [HandRecord.from_json(x) for x in (tmp_path / "m.jsonl").read_text().splitlines() if '"summary"' not in x]
    assert [r.players for r in records] == [("Alice", "Bob"), ("Bob", "Alice")] * 2
    assert [r.seats for r in records] == [(0, 1), (1, 0)] * 2


def test_the_other_commands_file_is_refused_saying_which_command_reads_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A .phhs given to export was 'unexpected line '[0]'', a log given to import 'not valid PHH (TOML)'."""
    phhs = export_phh(NOLIMIT_LOG, tmp_path).target
    assert main(["export", str(phhs), "--to", "phh", "-o", str(tmp_path / "again")]) == 2
    assert f"is a PHH hand history, which export writes: 'showdown import {phhs} -o MATCH.log' reads it" in capsys.readouterr().err
    assert main(["import", str(NOLIMIT_LOG), "-o", str(tmp_path / "m.log")]) == 2
    assert "is a match log, which import writes: 'showdown export" in capsys.readouterr().err


def test_an_export_onto_a_phhs_already_there_is_refused_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two runs' logs of one name exported to one folder: the second replaced the first without a word."""
    out = tmp_path / "hands"
    assert main(["export", str(NOLIMIT_LOG), "--to", "phh", "-o", str(out)]) == 0
    first = (out / (NOLIMIT_LOG.stem + ".phhs")).read_bytes()
    (out / (NOLIMIT_LOG.stem + ".phhs")).write_bytes(b"# mine\n")
    capsys.readouterr()
    assert main(["export", str(NOLIMIT_LOG), "--to", "phh", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "is already there: --force overwrites it" in err
    assert (out / (NOLIMIT_LOG.stem + ".phhs")).read_bytes() == b"# mine\n"
    assert main(["export", str(NOLIMIT_LOG), "--to", "phh", "-o", str(out), "--force"]) == 0
    assert (out / (NOLIMIT_LOG.stem + ".phhs")).read_bytes() == first


def test_a_reference_log_naming_its_game_by_a_path_imports_as_that_catalog_game(tmp_path: Path) -> None:
    """The reference dealer writes the game's path as given ('/opt/acpc/holdem.limit.2p.reverse_blinds.game'):
    the import did not know it and wrote a game of its own beside the log, with PHH's cap of 4 raises
    where the reference game has 3 preflop. The log names the catalog file, never the hand's path."""
    limit_log = DATA / "holdem.limit.2p.reverse_blinds.1000h.seed0.log"
    lines = limit_log.read_text().splitlines(keepends=True)
    lines[0] = lines[0].replace(" holdem.limit.2p.reverse_blinds.game ", " /opt/acpc/holdem.limit.2p.reverse_blinds.game ")
    (tmp_path / "ref.log").write_text("".join(lines[:201]))
    result = export_phh(tmp_path / "ref.log", tmp_path)
    back = import_phh([result.target], tmp_path / "back.log")
    assert back.game_file is None and not (tmp_path / "back.game").exists()
    assert (tmp_path / "back.log").read_text().splitlines()[0] == f"# name/game/hands/seed {limit_log.stem} holdem.limit.2p.reverse_blinds.game {back.hands} 0"
    assert main(["verify-log", str(tmp_path / "back.log")]) == 0


def test_a_jsonl_log_exports_its_match_and_seed_so_its_hands_verify_again(tmp_path: Path) -> None:
    """The summary record is the .jsonl's last line: the export read it only after the hands and wrote
    them without event and _seed, so 'import' gave a log of seed 0 that verify-log failed."""
    from showdown.protocol.logfile import MatchSummary, parse_log

    parsed = parse_log(NOLIMIT_LOG.read_text().splitlines(), source="ref")
    hands = list(parsed.hands)[:50]
    lines = [hand_json(h.hand, "holdem-nolimit", h.names, (h.hand % 2, 1 - h.hand % 2), h.hole, h.board, h.betting_text, h.values, ())
             for h in hands]  # fmt: skip
    names = hands[0].names
    totals = tuple(sum(v for h in hands for n, v in zip(h.names, h.values) if n == name) for name in names)
    lines.append(MatchSummary("ref-match", "holdem-nolimit", 0, 50, 50, names=names, totals=totals).to_json())
    (tmp_path / "m.jsonl").write_text("\n".join(lines) + "\n")
    result = export_phh(tmp_path / "m.jsonl", tmp_path)
    assert 'event = "ref-match"' in result.target.read_text() and "_seed = 0" in result.target.read_text()
    import_phh([result.target], tmp_path / "back.log")
    assert (tmp_path / "back.log").read_text().splitlines()[0] == "# name/game/hands/seed ref-match holdem-nolimit 50 0"
    assert main(["verify-log", str(tmp_path / "back.log")]) == 0


def test_a_match_logs_time_limits_come_back_with_its_hands(tmp_path: Path) -> None:
    """A log of showdown match has '#--t_response 10000' and '#--t_hand 60000': the import wrote the
    reference's defaults (600000) instead, so the log imported was not the log exported."""
    text = NOLIMIT_LOG.read_text().replace("#--t_response 600000", "#--t_response 10000").replace("#--t_hand 600000", "#--t_hand 60000")
    (tmp_path / "m.log").write_text(text)
    result = export_phh(tmp_path / "m.log", tmp_path)
    phhs = result.target.read_text()
    assert "_t_response = 10000\n_t_hand = 60000\n_t_per_hand = 7000\n" in phhs
    assert len(pokerkit_payoffs("\n".join(phhs.split("\n\n")[:20]))) == 20  # fields of our own: pokerkit takes them
    import_phh([result.target], tmp_path / "back.log")
    assert (tmp_path / "back.log").read_text() == text


def test_a_folder_where_the_phhs_goes_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "out" / (NOLIMIT_LOG.stem + ".phhs")).mkdir(parents=True)
    run = subprocess.run([sys.executable, "-m", "showdown", "export", str(NOLIMIT_LOG), "--to", "phh", "-o", str(tmp_path / "out"),
                          "--force"], capture_output=True, text=True)  # fmt: skip
    assert run.returncode == 2 and "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert "cannot write" in run.stderr and "Is a directory" in run.stderr
    assert [p.name for p in (tmp_path / "out").iterdir()] == [NOLIMIT_LOG.stem + ".phhs"]  # no .part left behind


def test_a_game_file_that_cannot_be_written_is_named_and_no_log_is_left(tmp_path: Path) -> None:
    """A folder where the import's .game goes: the error named the log ('cannot write m.log: Is a
    directory'), and the log was left naming a game file that was not there."""
    game = uneven_game("nolimit", (5000, 20000))
    (tmp_path / "uneven.game").write_text(format_gamedef(game))
    (tmp_path / "m.log").write_text(log_text("uneven.game", list(random_hands(game, 20, seed=1)), seed=1))
    result = export_phh(tmp_path / "m.log", tmp_path)
    (tmp_path / "back" / "b.game").mkdir(parents=True)
    with pytest.raises(ShowdownError, match=r"cannot write .*b\.game, the game the log names: Is a directory"):
        import_phh([result.target], tmp_path / "back" / "b.log", force=True)
    assert not (tmp_path / "back" / "b.log").exists()

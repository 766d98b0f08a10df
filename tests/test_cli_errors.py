"""User errors seen on main, each now one line (exit 2) and caught before any work is lost."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.errors import GameDefError
from showdown.games.gamedef import parse_gamedef
from showdown.solvers.hand_classes import cards_equity

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "showdown", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, check=False)


@pytest.mark.parametrize(
    "args, says",
    [
        (["solve", "cfr", "kuhn", "--iterations", "100000", "-o", "{tmp}/missing/s.json"], "does not exist"),
        (["solve", "cfr", "kuhn", "--iterations", "100000", "--checkpoint", "{tmp}/missing/c.npz"], "does not exist"),
        (["plot", "strategy", "s.json", "-o", "{tmp}/missing/p.png"], "does not exist"),
        (["analyze", str(ROOT / "tests/data/kuhn.limit.2p.1000h.seed0.log"), "--plot", "{tmp}/missing/p.png"], "does not exist"),
        (["hand", "kuhn", "--seed", "-3"], "expected a seed from 0"),
        (["hand", "kuhn", "--number", "99999999999"], "expected a hand number from 0 to"),
        (["equity", "AsKs", "AsAd"], "share As"),
        (["equity", "AsAs", "KdKh"], "same card twice"),
        (["dealer", "m", "kuhn", "4294967296", "0", "a", "b"], "hands: expected a number of hands from 1 to 4294967295"),
        (["plan", "--difference", "5", "--agents", "rules", "call", "--game", "kuhn", "--pilot-hands", "1" + "0" * 20],
         "--pilot-hands: expected a number of hands from 1 to 4294967295"),
        (["check-bot", "rules", "--game", "kuhn", "--hands", "1" + "0" * 20], "--hands: expected a number of hands"),
        (["report", "x", "-o", "r.html", "--hands", "-3"], "--hands: expected a number from 0 to 20000, got -3"),
        (["report", "x", "-o", "r.html", "--hands", "10000000"], "--hands: expected a number from 0 to 20000, got 10000000"),
        # options that did nothing, silently
        (["match", "kuhn", "rules", "random", "--no-log", "--out", "{tmp}/x"], "--no-log writes no file and --out names the folder"),
        (["match", "kuhn", "rules", "random", "--jobs", "2"], "--jobs 2 plays duplicate halves at once; a plain match is one match"),
        (["match", "kuhn", "rules", "random", "--spin-us", "99999999999999"], "--spin-us/--spin_us: expected a number from 0 to 100000"),
        # NaN or infinity where a number is asked: was a traceback or an endless loop
        (["plan", "--difference", "nan", "--agents", "rules", "call", "--game", "kuhn"], "--difference: expected a win rate above 0"),
        (["plan", "--difference", "inf", "--agents", "rules", "call", "--game", "kuhn"], "--difference: expected a win rate above 0"),
        (["plan", "--difference", "1e-300", "--agents", "rules", "call", "--game", "kuhn"], "too small to tell from zero"),
        (["solve", "cfr", "kuhn", "--seconds", "nan"], "--seconds: expected a number of seconds at least 0"),
        (["solve", "cfr", "kuhn", "--target-exploitability", "nan"], "--target-exploitability: expected an exploitability"),
        # a target of 0 is never reached (CFR's average strategy only tends to it): the run went on for ever
        (["solve", "cfr", "kuhn", "--target-exploitability", "0"], "--target-exploitability: expected an exploitability above 0"),
        (["play", "kuhn", "rules", "--t-response", "inf"], "--t-response: expected a number of seconds"),
        # check-bot: an empty or unreadable command was a traceback; a program that cannot start was every check failed
        (["check-bot", "--command", "", "--game", "kuhn"], "--command: the command is empty"),
        (["check-bot", "--command", "sh -c 'x", "--game", "kuhn"], "no closing quotation"),
        (["check-bot", "--command", "./no_such_bot {{host}} {{port}}", "--game", "kuhn"], "the bot could not be started: ./no_such_bot"),
        # a port outside 0-65535: was an OverflowError traceback from bind()
        (["match", "kuhn", "rules", "call", "--view", "--view-port", "99999"], "--view-port: expected a port from 0 to 65535"),
        # LBR of 10^20 hands built a list of 10^18 chunks (memory without end); a seed beyond 32 bits
        (["exploit", "--lbr", "--agent", "rules", "--game", "kuhn", "--hands", "1" + "0" * 20], "--hands: expected a number of hands from 2 to"),
        (["scorecard", "rules", "--game", "kuhn", "--hands", "1" + "0" * 17], "--hands: expected a number of hands from 2 to"),
        (["verify-log", "x.log", "--seed", "1" + "0" * 20], "--seed: expected a seed from 0 to 4294967295"),
        (["view", ".", "--port", "99999"], "--port: expected a port from 0 to 65535, got 99999"),
        (["view", ".", "--port", "-1"], "--port: expected a port from 0 to 65535, got -1"),
        (["agent", "rules", "--game", "kuhn", "127.0.0.1", "70000"], "port: expected a port from 0 to 65535"),
        # an empty agent word was an AssertionError traceback (a seat of no name)
        (["match", "kuhn", "", "call"], "an empty agent name (''): give a built-in name"),
        (["match", "kuhn", "call", " "], "an empty agent name (' '): give a built-in name"),
        (["scorecard", "", "--game", "kuhn"], "an empty agent name"),
        (["play", "kuhn", ""], "an empty agent name"),
        (["plan", "--difference", "5", "--agents", "", "call", "--game", "kuhn"], "an empty agent name"),
        # taken: LBR then never raised (a lower bound of nothing), or -1 as 0
        (["exploit", "--lbr", "--agent", "rules", "--game", "leduc", "--check-until", "2"], "--check-until 2: leduc has rounds 0 to 1"),
        (["exploit", "--lbr", "--agent", "rules", "--game", "leduc", "--check-until", "-1"], "--check-until -1: leduc has rounds 0 to 1"),
        # matplotlib's ValueError traceback ('dpi must be positive', 'Image size ... is too large')
        (["plot", "strategy", "s.json", "-o", "p.png", "--dpi", "0"], "--dpi: expected a resolution from 10 to 600, got 0"),
        (["plot", "strategy", "s.json", "-o", "p.png", "--dpi", "99999999"], "--dpi: expected a resolution from 10 to 600"),
        # taken without --build (and so never checked), then refused only by --build
        (["equity", "AA", "KK", "--processes", "-1"], "--processes: expected a number of processes from 1 to 4096, got -1"),
        # both printed forms were taken and one silently lost; an export into a file was 'File exists'
        (["match", "kuhn", "random", "call", "--csv", "--json"], "argument --json: not allowed with argument --csv"),
        (["tournament", "t.yaml", "--json", "--csv"], "argument --csv: not allowed with argument --json"),
        (["export", str(ROOT / "tests/data/kuhn.limit.2p.1000h.seed0.log"), "--to", "phh", "-o", str(ROOT / "README.md")],
         "README.md is a file: give a folder for the .phh files"),
    ],
)
def test_user_errors_are_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    r = run(*(a.format(tmp=tmp_path) for a in args), cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    error_lines = [line for line in r.stderr.splitlines() if not line.startswith("usage:")]
    assert len(error_lines) == 1 and says in error_lines[0]


def test_equity_of_exact_cards_is_for_those_cards_and_symmetric() -> None:
    from showdown.games.cards import parse_card

    aks = (parse_card("As"), parse_card("Kd"))
    aa = (parse_card("Ah"), parse_card("Ad"))
    win, tie, loss = cards_equity(aks, aa)
    assert win + tie + loss == 1_712_304  # every board of the other 48 cards
    assert cards_equity(aa, aks) == (loss, tie, win)
    r = run("equity", "AsKd", "AhAd")
    assert r.returncode == 0 and "these exact cards" in r.stdout and f"{win / 1_712_304:.5f}" in r.stdout


def test_a_no_limit_game_without_stacks_is_refused() -> None:
    text = ("GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 1\nblind = 1 2\nfirstPlayer = 1\n"
            "numSuits = 4\nnumRanks = 13\nnumHoleCards = 2\nnumBoardCards = 0\nEND GAMEDEF\n")
    with pytest.raises(GameDefError, match="needs stacks"):
        parse_gamedef(text)
    parse_gamedef(text.replace("blind = 1 2\n", "blind = 1 2\nstack = 200 200\n"))


@pytest.mark.parametrize(
    "args, says",
    [
        (["match", "kuhn", "rules", "call", "--hands", "0"], "argument --hands: expected a number from 1 to 4294967295, got 0"),
        (["match", "kuhn", "rules", "call", "--hands", "-5"], "argument --hands: expected a number from 1 to 4294967295, got -5"),
        # more hands than a log header can hold (a log that verify-log and --resume would refuse)
        (["match", "kuhn", "rules", "call", "--hands", "99999999999999999999999"], "from 1 to 4294967295"),
        (["match", "kuhn", "rules", "call", "--seed", "abc"], "argument --seed: expected a whole number, got 'abc'"),
        (["match", "kuhn", "rules", "call", "--hands", "10", "--out", "a_file"], "out a_file is a file; give a folder"),
        (["match", "kuhn", "rules", "call", "--hands", "10", "--out", "a_file/deeper"], "a_file is a file"),
        # a setting given with --resume was silently ignored (the match played on to its own hand count)
        (["match", "--resume", "out", "--hands", "10"], "--resume plays the killed match on with the settings it was started"),
        (["match", "--resume", "out", "--fixed-seats", "--t-response", "5"], "--fixed-seats, --t-response cannot change them"),
    ],
)
def test_bad_match_arguments_are_one_line_without_the_usage(tmp_path: Path, args: list[str], says: str) -> None:
    (tmp_path / "a_file").write_text("mine\n")
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and says in r.stderr, r.stderr
    assert "[--fixed-seats]" not in r.stderr and "17" not in r.stderr and "Traceback" not in r.stderr
    assert (tmp_path / "a_file").read_text() == "mine\n"


def test_out_may_name_a_missing_deep_folder(tmp_path: Path) -> None:
    r = run("match", "kuhn", "rules", "call", "--hands", "10", "--out", "a/b/c", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "a/b/c/kuhn.rules-call.seed0.log").exists()


def test_games_show_prints_only_that_games_file() -> None:
    r = run("games", "--show", "kuhn")
    assert r.returncode == 0 and r.stdout.startswith("GAMEDEF\n") and r.stdout.endswith("END GAMEDEF\n")
    assert "leduc" not in r.stdout


def test_help_texts_say_the_real_defaults_and_games() -> None:
    analyze = " ".join(run("analyze", "--help").stdout.split())
    assert "else chance (AIVAT's chance terms" in analyze
    cfr = " ".join(run("solve", "cfr", "--help").stdout.split())
    for game in ("kuhn3p", "leduc3p", "holdem-limit", "holdem-nolimit"):
        assert game in cfr.split("positional arguments:")[1]


def test_the_example_files_work_from_any_folder_and_write_under_it(tmp_path: Path) -> None:
    from showdown.matches.tournament_config import load_tournament_config

    r = run("match", "--config", str(ROOT / "examples" / "my_bot_match.yaml"), "--hands", "20", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "out" / "my_bot" / "leduc.my_bot-rules.seed1.log").exists()
    cfg = load_tournament_config(ROOT / "examples" / "tournament.yaml")
    assert cfg.out == Path("out/tournament-kuhn")  # under the folder it runs from: out/ is ignored by git
    assert "/out/" in (ROOT / ".gitignore").read_text().splitlines()


@pytest.mark.parametrize("args", [["match", "kuhn", "random", "call", "--hands"], ["solve", "cfr", "kuhn", "--iterations"], ["match", "kuhn", "random", "call", "--seed"]])
def test_a_huge_argument_is_not_echoed_whole(args: list[str]) -> None:
    """A number of 5,000 digits was quoted back whole in the one line: 5,000 characters of error."""
    result = run(*args, "9" * 5000)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "(5,002 characters)" in result.stderr and len(result.stderr) < 300


@pytest.mark.parametrize(
    ("args", "source"),
    [
        (["report", "v.log", "-o", "v.log"], "v.log"),
        (["report", "v.log", "-o", "./sub/../v.log"], "v.log"),  # the same file, named otherwise
        (["solve", "lp", "kv.game", "-o", "kv.game"], "kv.game"),
        (["solve", "cfr", "kv.game", "-n", "5", "-o", "kv.game"], "kv.game"),
        (["plot", "curve", "c.json", "-o", "c.json"], "c.json"),
    ],
)
def test_an_output_that_is_one_of_the_commands_inputs_is_refused_and_kept(tmp_path: Path, args: list[str], source: str) -> None:
    # `report v.log -o v.log` replaced the log with its HTML page, `solve lp kv.game -o kv.game` the game with
    # the strategy, exit 0 both
    (tmp_path / "sub").mkdir()
    (tmp_path / "v.log").write_bytes((ROOT / "tests/data/kuhn.limit.2p.1000h.seed0.log").read_bytes())
    (tmp_path / "kv.game").write_bytes((ROOT / "showdown/games/data/kuhn.limit.2p.game").read_bytes())
    (tmp_path / "c.json").write_text('{"points": [[1, 0.1, 0.5]]}')
    before = (tmp_path / source).read_bytes()
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "is a file this command reads" in r.stderr and "Traceback" not in r.stderr
    assert (tmp_path / source).read_bytes() == before


def test_a_reader_that_stops_early_gives_the_status_of_sigpipe_not_success(tmp_path: Path) -> None:
    # `verify-log ... | head -1` exited 0 where the whole run exits 1: under `set -o pipefail` a failed
    # verification passed
    log = ROOT / "tests/data/leduc.limit.2p.1000h.seed0.log"
    proc = subprocess.Popen([sys.executable, "-m", "showdown", "verify-log", str(log), "--game", "kuhn"], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # as `head -1` does once it has its line; closed first, so no output fits in the pipe
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 141 and err == "", err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["games"], ["analyze", str(ROOT / "tests/data/kuhn.limit.2p.1000h.seed0.log")]])
def test_output_to_a_full_disk_is_one_line_and_exit_1(tmp_path: Path, args: list[str]) -> None:
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "showdown", *args], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                           stdout=full, stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    assert r.returncode == 1 and r.stderr == f"showdown {args[0]}: error: cannot write its output: No space left on device\n"


KUHN_LOG = str(ROOT / "tests/data/kuhn.limit.2p.1000h.seed0.log")


@pytest.mark.parametrize(
    "args, says",
    [
        # there is no 'showdown agents' command, which the message sent the user to
        (["scorecard", "call", "--opponents", "nosuch", "--game", "kuhn"], "the built-in agents: random, call, bluff, rules"),
        # 'the folder afile does not exist': it does, as a file
        (["solve", "lp", "kuhn", "-o", "afile/x.json"], "--output afile/x.json: afile is a file, not a folder"),
        (["report", ".", "-o", "afile/deeper/x.html"], "--output afile/deeper/x.html: afile is a file, not a folder"),
        (["import", "x.phh", "-o", "afile/x.log"], "-o afile/x.log: afile is a file, not a folder"),
        # a file of random text named .log was 'a match log'
        (["import", "garbage.log", "-o", "g.log"],
         "garbage.log is neither a match log nor a PHH hand history (its first line is 'Zm9vYmFy!?'): import reads PHH"),
        (["export", "garbage.phh", "--to", "phh", "-o", "d"], "garbage.phh is neither a match log nor a PHH hand history"),
        (["check-bot", "rules", "--command", "x"], "'rules' and --command are two ways to name the bot to check: give one"),
        # negative seeds, taken by these and refused by every other command
        (["agent", "random", "--seed", "-4", "--game", "kuhn", "127.0.0.1", "1"], "--seed: expected a seed from 0 to 4294967295"),
        (["solve", "cfr", "kuhn", "--seed", "-4"], "--seed: expected a seed from 0 to 4294967295"),
        (["plan", "--difference", "5", "--agents", "rules", "call", "--game", "kuhn", "--seed", "-1"], "--seed: expected a seed"),
        (["play", "kuhn", "rules", "--seed", "-1"], "--seed: expected a seed from 0 to 4294967295"),
        # one file: --duplicate was ignored (exit 0, a plain analysis)
        (["analyze", "--duplicate", KUHN_LOG], "--duplicate pairs hand h of the logs of a duplicate match's seatings, and one log"),
        (["analyze", "--estimator", "duplicate", KUHN_LOG], "--estimator duplicate pairs hand h"),
        # was 'listens beyond this machine: add --public'
        (["view", ".", "--host", "nosuch.invalid"], "--host nosuch.invalid: the name does not resolve"),
        (["match", "kuhn", "call", "random", "--name", "a b"],
         "'a b' may use only letters and digits (of any script), '-', '_', '.' and '+' (no spaces or other signs)"),
    ],
)
def test_misleading_messages_say_what_is_wrong(tmp_path: Path, args: list[str], says: str) -> None:
    (tmp_path / "afile").write_text("mine\n")
    (tmp_path / "garbage.log").write_text("Zm9vYmFy!?\nxx\n")
    (tmp_path / "garbage.phh").write_text("Zm9vYmFy!?\nxx\n")
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    error_lines = [line for line in r.stderr.splitlines() if not line.startswith("usage:")]
    assert len(error_lines) == 1 and says in error_lines[0], r.stderr
    assert (tmp_path / "afile").read_text() == "mine\n"


def test_a_failed_export_removes_the_folders_it_made_and_only_those(tmp_path: Path) -> None:
    """A failed export (Kuhn has no PHH form) left its empty -o folder behind."""
    (tmp_path / "mine").mkdir()
    for out in ("new/deeper", "mine"):
        r = run("export", KUHN_LOG, "--to", "phh", "-o", out, cwd=tmp_path)
        assert r.returncode == 2 and "cannot be written as PHH" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_a_match_name_takes_what_a_name_from_the_game_file_takes(tmp_path: Path) -> None:
    """A game file's name made the match 'ünï.call-random.seed0' while --name ünï was refused."""
    game = tmp_path / "ünï.game"
    game.write_text((ROOT / "tests/data/games/kuhn.limit.2p.game").read_text())
    for args in (["--name", "ünï"], []):
        r = run("match", str(game), "call", "random", "--hands", "5", "--out", "out", *args, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    assert {p.name for p in (tmp_path / "out").glob("*.log")} == {"ünï.log", "ünï.call-random.seed0.log"}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize("args, says", [
    (["plot", "curve", "f.json", "-o", "c.png"], "f.json: not a regular file"),
    (["solve", "cfr", "kuhn", "-n", "5", "--checkpoint", "f.json", "-o", "x.json"], "--checkpoint f.json: not a regular file"),
    (["solve", "cfr", "leduc", "--abstraction", "rank", "-n", "5", "--checkpoint", "f.json", "-o", "x.pcs.npz"],
     "--checkpoint f.json: not a regular file"),
])
def test_a_pipe_to_read_is_one_line_not_a_wait_for_ever(tmp_path: Path, args: list[str], says: str) -> None:
    """A pipe no one writes to (mkfifo) held these two at open() for ever, where the others refuse it."""
    os.mkfifo(tmp_path / "f.json")
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and says in done.stderr, done.stderr


def test_ctrl_c_before_a_coroutine_runs_leaves_no_never_awaited_warning(monkeypatch, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A Ctrl-C between asyncio.run's coroutine being made and being run printed Python's 'coroutine
    run_match_async was never awaited' RuntimeWarning under the command's one line (seen in CI)."""
    import gc
    import warnings

    import showdown.matches.runner as runner
    from showdown.cli.main import main

    async def never_run() -> None:
        pass

    def interrupted(config: object) -> None:
        pending = never_run()  # noqa: F841 - made, then the Ctrl-C comes before anything awaits it
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_match", interrupted)
    monkeypatch.chdir(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["match", "kuhn", "random", "call", "--hands", "10"]) == 130
        gc.collect()
    assert [w for w in caught if "never awaited" in str(w.message)] == []
    assert capsys.readouterr().err == "showdown match: stopped (Ctrl-C)\n"

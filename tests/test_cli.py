from __future__ import annotations

import subprocess
import sys

from showdown.cli import main


def test_games_lists_the_catalog_with_descriptions(capsys) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out.splitlines()
    names = [line.split()[0] for line in out]
    assert names == ["kuhn", "kuhn3p", "leduc", "leduc3p", "holdem-limit", "holdem-nolimit", "holdem-limit-3p", "holdem-nolimit-3p", "kuhn-N"]
    assert all(len(line.split()) > 3 for line in out)


def test_games_show_prints_the_definition(capsys) -> None:
    assert main(["games", "--show", "leduc"]) == 0
    assert "raiseSize = 2 4" in capsys.readouterr().out


def test_hand_shows_each_seats_stream_and_the_log_line(capsys) -> None:
    assert main(["hand", "kuhn", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "to P1: MATCHSTATE:0:0::Qs|" in out and "to P2: MATCHSTATE:1:0::|As" in out
    assert "log: STATE:0:" in out


def test_serving_a_large_kuhn_says_why_not(capsys) -> None:
    assert main(["hand", "kuhn-100"]) == 2
    assert "cannot be served over the protocol" in capsys.readouterr().err


def test_help_explains_every_command() -> None:
    out = subprocess.run([sys.executable, "-m", "showdown", "--help"], capture_output=True, text=True).stdout
    for command in ("games", "hand", "verify-log"):
        assert command in out


def test_a_command_builds_only_its_own_parser_and_the_dealer_starts_without_numpy() -> None:
    """`showdown dealer` (and an agent process) pays at start-up only for its own command."""
    from showdown.cli.main import _COMMANDS, build_parser

    everything = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert set(_COMMANDS) <= set(everything)
    only = build_parser("dealer")._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert set(only) == {"dealer"}
    code = "import sys; from showdown.cli.main import build_parser; build_parser('dealer'); print(sorted(m for m in ('numpy', 'scipy', 'showdown.solvers.solve') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_list_of_commands_imports_none_of_their_modules() -> None:
    """`showdown --help` lists every command from main's table alone: no command module, no numpy."""
    from showdown.cli.main import _COMMANDS, COMMAND_HELP

    assert list(COMMAND_HELP) == list(_COMMANDS)
    code = (
        "import sys; from showdown.cli.main import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('numpy', 'asyncio', 'showdown.cli.')) and m not in "
        "('showdown.cli.main', 'showdown.cli.startup')), file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip() == "[]"
    for name, line in COMMAND_HELP.items():
        assert name in done.stdout and line.split(" (")[0][:40] in " ".join(done.stdout.split())


def test_a_matchs_options_are_read_without_the_sandbox_or_asyncio() -> None:
    """`showdown match --help` (and reading a match file's settings) loads neither the sandbox nor asyncio."""
    code = ("import sys; from showdown.cli.main import build_parser; build_parser('match'); "
            "print(sorted(m for m in ('asyncio', 'ssl', 'showdown.matches.sandbox') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_home_folder_after_an_equals_sign_is_expanded_as_the_shell_does_after_a_space(tmp_path, monkeypatch) -> None:
    """``--output=~/k.json`` wrote ./~/k.json (or said the folder ~ does not exist): the shell expands
    ``~`` only at the start of a word, so the ``=`` form reached the program unexpanded."""
    from showdown.cli.main import expand_home  # (here: importing the module makes showdown.cli.main the module)

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "cfr", "kuhn", "--iterations", "2", "--output=~/k.json"]) == 0
    assert (tmp_path / "home" / "k.json").is_file() and not (tmp_path / "~").exists()
    assert expand_home(["x", "--a=~/b", "--c", "~d", "--", "--e=~/f"]) == ["x", f"--a={tmp_path}/home/b", "--c", "~d", "--", "--e=~/f"]


def test_agents_may_follow_an_option(tmp_path, capsys) -> None:
    """`showdown match leduc equilibrium -o 1:strategy=s.json random` said 'unrecognized arguments: random'."""
    code = main(["match", "kuhn", "rules", "-o", "2:seed=4", "random", "--hands", "10", "--in-memory",
                 "--out", str(tmp_path), "--no-progress", "--json"])
    assert code == 0
    assert '"name": "random"' in capsys.readouterr().out
    try:
        main(["games", "kuhn", "extra"])
    except SystemExit as exc:  # any other command's stray word is still refused
        assert exc.code == 2
    else:
        raise AssertionError("a stray word was accepted")
    assert "unrecognized arguments: kuhn extra" in capsys.readouterr().err


def test_a_folder_where_an_output_file_goes_is_one_line(tmp_path, monkeypatch, capsys) -> None:
    """A tournament whose out folder held a folder named results.json ended in an IsADirectoryError traceback."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tw" / "results.json").mkdir(parents=True)
    (tmp_path / "t.yaml").write_text("game: kuhn\nhands: 10\nout: tw\nagents:\n  - name: rules\n  - name: random\n")
    assert main(["tournament", "t.yaml", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines()[-1] == ("showdown tournament: error: tw/results.json: Is a directory "
                                             "(move it away or choose another name)")

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
    assert set(only) == {"games", "hand", "verify-log", "dealer"}
    code = "import sys; from showdown.cli.main import build_parser; build_parser('dealer'); print(sorted(m for m in ('numpy', 'scipy', 'showdown.solvers.solve') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# What `showdown solve cfr kuhn` must not import: numba (its import alone outlasts the whole Kuhn solve),
# the other solvers, scipy and yaml, numpy's masked arrays (np.unique pulls them in) and random streams
# (exact CFR draws nothing), importlib.resources (zipfile, tempfile), hashlib and the match/dealer layers.
SOLVE_CFR_KUHN_NEVER_IMPORTS = (
    "numba", "scipy", "yaml", "asyncio", "numpy.ma", "numpy.random", "importlib.resources", "zipfile", "tempfile",
    "hashlib", "showdown.solvers.pcs", "showdown.solvers.one_round", "showdown.solvers.equity",
    "showdown.solvers.sequence_lp", "showdown.solvers.best_response",
)


def test_solve_cfr_on_a_small_game_imports_only_what_it_uses(tmp_path) -> None:
    """`showdown solve cfr kuhn` builds only the cfr method's parser and imports only the CFR solver, the
    game and the command's own modules: start-up is most of a Kuhn solve (`benchmarks/bench_startup.py`)."""
    from showdown.cli.main import build_parser

    methods = build_parser("solve", "cfr")._subparsers._group_actions[0].choices["solve"]  # type: ignore[union-attr]
    assert set(methods._subparsers._group_actions[0].choices) == {"cfr"}
    out = tmp_path / "k.json"
    code = (
        "import sys; from showdown.cli.main import main; "
        f"main(['solve', 'cfr', 'kuhn', '-n', '50', '-o', {str(out)!r}]); "
        "print(' '.join(sorted(sys.modules)))"
    )
    loaded = set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())
    assert "showdown.solvers.cfr" in loaded and out.exists()
    assert sorted(m for m in SOLVE_CFR_KUHN_NEVER_IMPORTS if m in loaded) == []
    layers = {m.split(".")[1] for m in loaded if m.startswith("showdown.")}
    assert layers <= {"_lazy", "errors", "cli", "games", "solvers"}, layers

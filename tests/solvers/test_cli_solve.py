"""``showdown solve`` and ``showdown exploit`` through their argparse front ends."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pytest

from showdown.cli.exploit import add_exploit_arguments
from showdown.cli.solve import add_solve_arguments
from showdown.errors import ConfigError, ShowdownError, SolverError
from showdown.games.catalog import get_game
from showdown.solvers.best_response import exploitability
from showdown.solvers.kuhn_analytic import KUHN_VALUE
from showdown.solvers.normal_lp import kuhn_normal_form
from showdown.solvers.solve import normal_form_strategy, solve
from showdown.solvers.strategy import Strategy, StrategyError, load_strategy, save_strategy, uniform_strategy

KUHN = get_game("kuhn")
LEDUC = get_game("leduc")


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHOWDOWN_CACHE", str(tmp_path_factory.getbasetemp() / "showdown-cache"))


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="showdown")
    sub = p.add_subparsers(dest="command")
    add_solve_arguments(sub.add_parser("solve"))
    add_exploit_arguments(sub.add_parser("exploit"))
    return p


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    args = parser().parse_args(argv)
    code = args.handler(args)
    return code, capsys.readouterr().out


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    code, out = run([*argv, "--json"], capsys)
    assert code == 0
    doc = json.loads(out)
    assert isinstance(doc, dict)
    return doc


# ---------------------------------------------------------------------- solve


@pytest.mark.parametrize("method", ["lp", "normal", "analytic"])
def test_every_method_solves_kuhn(method: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / f"{method}.json"
    doc = run_json(["solve", method, "kuhn", "-o", str(out)], capsys)
    assert {"game", "method", "value", "seconds", "strategy"} <= set(doc)
    assert doc["game"] == "kuhn" and doc["method"] == method and doc["strategy"] == str(out)
    # Kuhn (1950); seeds 000/004: value 17/18 - 1 = -1/18 for the first player.
    assert doc["value"] == pytest.approx(float(KUHN_VALUE), abs=1e-9)
    assert isinstance(doc["seconds"], float) and 0.0 <= doc["seconds"] < 10.0
    strategy = load_strategy(out)
    assert len(strategy) == 12
    assert abs(exploitability(KUHN, strategy)) < 1e-9


def test_leduc_by_lp_prints_value_and_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["solve", "lp", "leduc", "-o", str(tmp_path / "l.json")], capsys)
    assert code == 0
    # Leduc hold'em's value for the first player: -0.085606424078 chips per hand (OpenSpiel's
    # sequence-form LP test, open_spiel/algorithms/ortools/sequence_form_lp_test.cc, "leduc_poker").
    assert "value -0.085606" in out and "solved in" in out
    assert "936 information sets" in out


def test_default_output_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    doc = run_json(["solve", "analytic", "kuhn"], capsys)
    assert doc["strategy"] == "kuhn.analytic.strategy.json"
    assert (tmp_path / "kuhn.analytic.strategy.json").exists()


def test_analytic_takes_y(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "a.json"
    doc = run_json(["solve", "analytic", "kuhn", "--y", "0.6", "-o", str(out)], capsys)
    assert doc["y"] == 0.6
    s = load_strategy(out)
    assert s["As:/"]["r"] == pytest.approx(0.6) and s["Qs:/"]["r"] == pytest.approx(0.2)
    assert s["Ks:/cr"]["c"] == pytest.approx(1.6 / 3)


@pytest.mark.parametrize("method", ["normal", "analytic"])
def test_kuhn_only_methods_refuse_other_games(method: str, tmp_path: Path) -> None:
    args = parser().parse_args(["solve", method, "leduc", "-o", str(tmp_path / "x.json")])
    with pytest.raises(SolverError) as info:
        args.handler(args)
    message = str(info.value)
    assert "\n" not in message and "Kuhn poker only" in message and "solve lp leduc" in message
    assert not (tmp_path / "x.json").exists()


def test_y_belongs_to_analytic_only(tmp_path: Path) -> None:
    args = parser().parse_args(["solve", "lp", "kuhn", "--y", "0.5", "-o", str(tmp_path / "x.json")])
    with pytest.raises(ConfigError, match="--y"):
        args.handler(args)


def test_bad_y_and_big_games_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(SolverError, match="0 <= y <= 1"):
        solve("analytic", KUHN, 1.5)
    with pytest.raises(SolverError, match="too large"):
        solve("lp", get_game("holdem-limit"))
    with pytest.raises(SolverError, match="2-player"):
        solve("lp", get_game("kuhn3p"))


def test_normal_form_profile_fills_information_sets_the_mix_never_reaches() -> None:
    nf = kuhn_normal_form()
    rows, cols = nf.row_labels, nf.column_labels
    row = np.zeros(len(rows))
    row[rows.index("BCBFFF")] = 1.0  # bets Q and A, checks K: check-bet is unreachable with Q and A
    col = np.zeros(len(cols))
    col[cols.index("FCCBCB")] = 1.0
    s = normal_form_strategy(row, col, rows, cols)
    assert s["Qs:/"]["r"] == 1.0 and s["Ks:/"]["r"] == 0.0 and s["Ks:/cr"]["f"] == 1.0
    assert s["Ks:/r"]["c"] == 1.0 and s["Qs:/c"]["r"] == 1.0 and s["As:/c"]["r"] == 1.0
    # the unreached ones are best responses: fold the Q, call with the A
    assert s["Qs:/cr"]["f"] == 1.0 and s["As:/cr"]["c"] == 1.0


# ---------------------------------------------------------------------- exploit


def test_exploit_a_strategy_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = save_strategy(uniform_strategy(KUHN), tmp_path / "u.json")
    doc = run_json(["exploit", str(path)], capsys)
    # OpenSpiel's exploitability tests: uniform Kuhn has best responses 1/2 and 5/12, NashConv 11/12.
    assert doc["best_response_values"] == pytest.approx([1 / 2, 5 / 12], abs=1e-12)
    assert doc["exploitability"] == pytest.approx(11 / 24, abs=1e-12)
    assert doc["game"] == "kuhn"


def test_exploit_text_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = save_strategy(uniform_strategy(LEDUC), tmp_path / "u.json")
    code, out = run(["exploit", str(path), "--game", "leduc"], capsys)
    assert code == 0
    assert "best response in position 0" in out and "best response in position 1" in out
    # OpenSpiel: NashConv of uniform leduc_poker is 4.747222222222222.
    assert "exploitability (BR0 + BR1) / 2: 2.373611 chips/hand" in out


@pytest.mark.parametrize(
    ("game", "agent", "expected"),
    [
        ("kuhn", "random", 11 / 24),  # OpenSpiel (uniform policy)
        ("kuhn", "call", 1 / 3),
        ("kuhn", "bluff", 1 / 3),
        ("kuhn", "rules", 1 / 6),
        ("kuhn", "equilibrium", 0.0),
        ("leduc", "random", 4.747222222222222 / 2),  # OpenSpiel (uniform policy)
        ("leduc", "rules", 29 / 30),
        ("leduc", "equilibrium", 0.0),
    ],
)
def test_exploit_a_built_in_agent(game: str, agent: str, expected: float, capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(["exploit", "--agent", agent, "--game", game], capsys)
    assert doc["exploitability"] == pytest.approx(expected, abs=1e-9)
    values = doc["best_response_values"]
    assert isinstance(values, list) and len(values) == 2
    assert (values[0] + values[1]) / 2 == pytest.approx(doc["exploitability"], abs=1e-12)


def test_exploit_passes_agent_options(capsys: pytest.CaptureFixture[str]) -> None:
    strict = run_json(["exploit", "--agent", "never-bluff", "--game", "kuhn", "-o", "threshold=0"], capsys)
    assert strict["exploitability"] == pytest.approx(0.0, abs=1e-9)  # threshold 0: no bluff removed


@pytest.mark.parametrize(
    ("argv", "error", "match"),
    [
        (["exploit"], ConfigError, "either a strategy file or --agent"),
        (["exploit", "x.json", "--agent", "call", "--game", "kuhn"], ConfigError, "either"),
        (["exploit", "--agent", "call"], ConfigError, "--agent needs --game"),
        (["exploit", "--agent", "nobody", "--game", "kuhn"], ConfigError, "unknown agent"),
        (["exploit", "/nonexistent/file.json"], StrategyError, "cannot read"),
    ],
)
def test_exploit_user_errors(argv: list[str], error: type[ShowdownError], match: str) -> None:
    args = parser().parse_args(argv)
    with pytest.raises(error, match=match):
        args.handler(args)


def test_exploit_needs_both_positions(tmp_path: Path) -> None:
    half = uniform_strategy(KUHN).for_player(0)
    path = save_strategy(half, tmp_path / "half.json")
    args = parser().parse_args(["exploit", str(path)])
    with pytest.raises(StrategyError, match="lacks 6 of the game's 12"):
        args.handler(args)


def test_exploit_rejects_a_file_for_another_game(tmp_path: Path) -> None:
    path = save_strategy(uniform_strategy(KUHN), tmp_path / "k.json")
    args = parser().parse_args(["exploit", str(path), "--game", "leduc"])
    with pytest.raises(StrategyError, match="not leduc"):
        args.handler(args)


def test_solve_then_exploit_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "k.npz"
    run_json(["solve", "normal", "kuhn", "-o", str(out)], capsys)
    doc = run_json(["exploit", str(out)], capsys)
    assert doc["exploitability"] == pytest.approx(0.0, abs=1e-9)
    assert isinstance(load_strategy(out), Strategy)


def test_a_large_lp_is_announced_before_it_is_solved(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # a limit game with many raises (19,656 information sets) ran past 300 s with no line at all
    from showdown.cli import solve as cli_solve

    monkeypatch.setattr(cli_solve, "LARGE_LP_SEQUENCES", 20)  # Leduc's 1,093 sequences a player count as large here
    cli_solve._announce_large_lp(get_game("leduc"), "leduc")
    assert capsys.readouterr().err == ("solving a sequence-form LP of 1,093 x 1,093 sequences (936 information sets): "
                                       "this may take minutes; 'showdown solve cfr leduc' approximates faster\n")
    monkeypatch.setattr(cli_solve, "LARGE_LP_SEQUENCES", 10_000)
    cli_solve._announce_large_lp(get_game("kuhn-1000"), "kuhn-1000")  # 2.4 s: nothing to announce
    assert capsys.readouterr().err == ""


def test_a_no_limit_game_s_numbers_say_they_are_the_tree_s(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """1-card no-limit Kuhn with stacks of 5 is worth -0.083 to position 0 (OpenSpiel's fullgame
    universal_poker); the min-raise and all-in tree -0.060: its value and 'exploitability 0' were
    printed as the game's, with no word of the tree they belong to."""
    game = tmp_path / "nl.game"
    game.write_text("GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 1\nstack = 5 5\nblind = 1 1\nfirstPlayer = 1\n"
                    "numSuits = 1\nnumRanks = 4\nnumHoleCards = 1\nnumBoardCards = 0\nEND GAMEDEF\n")
    out = tmp_path / "nl.json"
    code, text = run(["solve", "lp", str(game), "-o", str(out)], capsys)
    assert code == 0 and "value -0.059524" in text and "raises are the minimum and the all-in only" in text
    code, text = run(["exploit", str(out)], capsys)
    assert code == 0 and "raises are the minimum and the all-in only" in text
    code, text = run(["exploit", str(out), "--json"], capsys)
    assert "minimum and the all-in" in json.loads(text)["tree"]
    code, text = run(["solve", "lp", "kuhn", "-o", str(tmp_path / "k.json"), "--json"], capsys)
    assert "tree" not in json.loads(text)


def test_a_file_for_another_game_of_the_same_name_says_how_they_differ(tmp_path: Path) -> None:
    """Two .game files named alike (a/leduc24.game, b/leduc24.game): the refusal said "for game
    'leduc24', not leduc24"; it names the fields that differ."""
    text = ("GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 2\nblind = 1 1\nraiseSize = 2 {}\nfirstPlayer = 1 1\nmaxRaises = 2 2\n"
            "numSuits = 2\nnumRanks = 4\nnumHoleCards = 1\nnumBoardCards = 0 1\nEND GAMEDEF\n")
    for folder, big in (("a", 4), ("b", 6)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "leduc24.game").write_text(text.format(big))
    path = tmp_path / "s.json"
    save_strategy(uniform_strategy(get_game(str(tmp_path / "a" / "leduc24.game"))), path)
    with pytest.raises(StrategyError, match=r"not leduc24 \(a different game of the same name: raise_size \(2, 4\) vs \(2, 6\)\)$"):
        load_strategy(path, get_game(str(tmp_path / "b" / "leduc24.game")))

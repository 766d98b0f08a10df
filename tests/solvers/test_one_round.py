"""One-round hold'em by LP: bet grids, both programs, best-response certificates, the command."""

from __future__ import annotations

import argparse
import io
import json
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from showdown.cli.one_round import (
    add_equity_arguments,
    add_one_round_arguments,
    equity_handler,
    one_round_handler,
)
from showdown.errors import ShowdownError, SolverError
from showdown.solvers.equity import equity_table
from showdown.solvers.hand_classes import CLASS_NAMES, class_index
from showdown.solvers.one_round import (
    DEFAULT_BETS,
    BetSpecError,
    OneRoundGame,
    OneRoundSolution,
    best_response_values,
    parse_bets,
    solve_one_round,
)

GAP = 1e-9
SMALL = OneRoundGame(bets=(0.0, 2.0))
TEN = OneRoundGame(bets=(0.0, *map(float, range(2, 11))))


@pytest.fixture(scope="module")
def small() -> OneRoundSolution:
    return solve_one_round(SMALL)


@pytest.fixture(scope="module")
def ten() -> OneRoundSolution:
    return solve_one_round(TEN)


def check_strategies(solution: OneRoundSolution) -> None:
    m = len(solution.game.bets)
    assert solution.alice.shape == (169, m + 1) and solution.bob.shape == (169, m)
    assert (solution.alice >= 0).all() and np.allclose(solution.alice.sum(axis=1), 1.0, atol=1e-12)
    assert ((solution.bob >= 0) & (solution.bob <= 1)).all()
    assert solution.fold + solution.limp + solution.raise_ == pytest.approx(1.0, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# bet grids


def test_default_grid_is_the_posts() -> None:
    assert parse_bets("0,2:40") == DEFAULT_BETS
    assert len(DEFAULT_BETS) == 40 and OneRoundGame().bets == DEFAULT_BETS


@pytest.mark.parametrize(
    ("spec", "bets"),
    [
        ("0,2", (0.0, 2.0)),
        ("2:10:2,0", (0.0, 2.0, 4.0, 6.0, 8.0, 10.0)),
        ("0, 2:4, 3:5", (0.0, 2.0, 3.0, 4.0, 5.0)),
        ("2.5,3:4:0.5", (2.5, 3.0, 3.5, 4.0)),
        ("0,2:3:0.1", (0.0, *(round(2 + i / 10, 9) for i in range(11)))),
    ],
)
def test_bet_specs(spec: str, bets: tuple[float, ...]) -> None:
    assert parse_bets(spec) == bets


@pytest.mark.parametrize("spec", ["", "abc", "0,1", "-2", "5:2", "2:40:0", "0,,2", "2:", "0,2:100000"])
def test_bad_bet_specs_are_user_errors(spec: str) -> None:
    with pytest.raises(BetSpecError) as info:
        parse_bets(spec)
    assert isinstance(info.value, ShowdownError) and "\n" not in str(info.value)


def test_the_minimum_raise_follows_the_big_blind() -> None:
    assert parse_bets("0,3", bb=3.0) == (0.0, 3.0)
    with pytest.raises(BetSpecError, match="at least the big blind"):
        parse_bets("0,2", bb=3.0)
    with pytest.raises(BetSpecError, match="blinds"):
        OneRoundGame(bets=(0.0, 2.0), sb=3.0, bb=2.0)


# ---------------------------------------------------------------------------------------------
# solving, checked by both best responses


def test_smallest_grid_is_an_equilibrium(small: OneRoundSolution) -> None:
    check_strategies(small)
    assert 0 <= small.gap < GAP
    assert small.value > 0  # the small blind with the last word on the bet still wins


def test_ten_bets_is_an_equilibrium(ten: OneRoundSolution) -> None:
    check_strategies(ten)
    assert 0 <= ten.gap < GAP
    lower, upper = best_response_values(TEN, ten.alice, ten.bob)
    assert lower == pytest.approx(ten.value, abs=1e-15) and upper == pytest.approx(ten.value_upper, abs=1e-15)


def test_more_bet_sizes_never_hurt_alice(small: OneRoundSolution, ten: OneRoundSolution) -> None:
    assert ten.value >= small.value - GAP


def test_both_programs_and_both_solvers_agree(small: OneRoundSolution) -> None:
    for form, method in (("alice", "highs-ds"), ("alice", "highs-ipm"), ("bob", "highs-ipm")):
        other = solve_one_round(SMALL, form=form, method=method)  # type: ignore[arg-type]
        assert other.gap < GAP, (form, method)
        assert other.value == pytest.approx(small.value, abs=GAP)


def test_presolve_changes_nothing_but_the_time(ten: OneRoundSolution) -> None:
    presolved = solve_one_round(TEN, presolve=True)
    assert presolved.gap < GAP
    assert presolved.value == pytest.approx(ten.value, abs=1e-9)


@pytest.mark.parametrize(
    "game",
    [
        OneRoundGame(bets=(0.0, *map(float, range(2, 21)))),
        OneRoundGame(bets=(0.0, *(3.0 + 1.5 * i for i in range(16))), sb=1.5, bb=3.0),
    ],
    ids=["0,2:20", "blinds-1.5-3"],
)
def test_bet_generation_finds_the_whole_programs_equilibrium(game: OneRoundGame) -> None:
    whole = solve_one_round(game, generate_bets=False)
    generated = solve_one_round(game, generate_bets=True)
    assert 0 <= generated.gap < 1e-11
    assert generated.value == pytest.approx(whole.value, abs=1e-9)
    # the certificate, recomputed from the strategies alone on the whole grid
    lower, upper = best_response_values(game, generated.alice, generated.bob)
    assert upper - lower < 1e-11 and lower == pytest.approx(whole.value, abs=1e-9)
    check_strategies(generated)


def test_exploitable_strategies_show_their_gap() -> None:
    # Alice always folds (she gets -1 whatever Bob does); Bob never calls (Alice raises and takes 2)
    alice = np.zeros((169, 3))
    alice[:, 0] = 1.0
    bob = np.zeros((169, 2))
    assert best_response_values(SMALL, alice, bob) == pytest.approx((-1.0, 2.0), abs=1e-12)
    with pytest.raises(SolverError, match="strategies"):
        best_response_values(SMALL, alice[:, :2], bob)


def test_limp_only_grid_has_the_closed_form_value() -> None:
    # with only the limp Bob always calls (folding loses his blind for nothing), so each class limps
    # when its all-in equity is worth more than the small blind it would fold
    table = equity_table()
    solution = solve_one_round(OneRoundGame(bets=(0.0,)))
    P = table.probabilities()
    limp = 2.0 * (P * table.net_equity()).sum(axis=1)
    assert solution.value == pytest.approx(np.maximum(-P.sum(axis=1), limp).sum(), abs=1e-12)
    assert solution.gap < GAP


def test_other_blinds_solve_too() -> None:
    solution = solve_one_round(OneRoundGame(bets=(0.0, 3.0, 6.0), sb=1.5, bb=3.0))
    assert solution.gap < GAP
    # scaling both blinds and bets by 1.5 scales every payoff by 1.5
    base = solve_one_round(OneRoundGame(bets=(0.0, 2.0, 4.0)))
    assert solution.value == pytest.approx(1.5 * base.value, abs=1e-9)


def test_strong_hands_raise_and_the_worst_hands_limp(ten: OneRoundSolution) -> None:
    aa, seven_deuce = class_index("AA"), class_index("72o")
    assert ten.alice[aa, 0] == 0 and ten.alice[aa, 1] < 1e-9  # never folds or limps aces
    assert ten.alice[seven_deuce, 1] == pytest.approx(1.0)  # limps 72o
    assert ten.class_values[aa] == ten.class_values.max()


def test_json_document_holds_both_strategies(ten: OneRoundSolution) -> None:
    doc = json.loads(json.dumps(ten.to_json()))
    for key in ("value", "gap", "seconds", "fold", "limp", "raise", "alice", "bob_calls", "game"):
        assert key in doc
    assert set(doc["alice"]) == set(CLASS_NAMES)
    assert sum(doc["alice"]["72o"].values()) == pytest.approx(1.0)
    assert set(doc["bob_calls"]) == {f"b{b:g}" for b in TEN.bets}
    assert doc["game"] == {"sb": 1.0, "bb": 2.0, "bets": list(TEN.bets)}


def test_report_lists_every_class_like_the_post(ten: OneRoundSolution) -> None:
    report = ten.report()
    lines = [line for line in report.splitlines() if " : value " in line]
    assert len(lines) == 169
    assert lines[0].split()[0] == "AA"
    assert "72o : value" in report and "strategy b0" in report


DEFAULT_GRID_VALUE = 0.39784046754892644
"""The default grid's value as HiGHS found it with presolve on (main 77e16e4), measured once; bets to 80
gave 0.3978404675489102 (Alice uses no raise above 22)."""


@pytest.mark.slow
def test_default_grid_reproduces_the_post() -> None:
    # Irving's post: Alice gains "at least 0.39776" to within 1e-4, never folds, limps about 43%
    solution = solve_one_round()
    assert solution.gap < GAP
    assert 0.39776 <= solution.value <= 0.39776 + 1e-4
    assert solution.value == pytest.approx(DEFAULT_GRID_VALUE, abs=1e-9)
    assert solution.fold < 1e-9
    assert solution.limp == pytest.approx(0.43, abs=0.01)


@pytest.mark.slow
def test_bets_to_80_keep_the_value() -> None:
    solution = solve_one_round(OneRoundGame(bets=(0.0, *map(float, range(2, 81)))))
    assert solution.gap < GAP
    assert solution.value == pytest.approx(DEFAULT_GRID_VALUE, abs=1e-9)


# ---------------------------------------------------------------------------------------------
# the command


def parse(add: Any, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add(parser)
    return parser.parse_args(argv)


def test_solve_command_prints_the_headline(tmp_path: Path) -> None:
    out = io.StringIO()
    target = tmp_path / "strategy.json"
    assert one_round_handler(parse(add_one_round_arguments, ["--bets", "0,2", "-o", str(target)]), out) == 0
    text = out.getvalue()
    for word in ("value", "gap", "solve time", "fold", "limp", "raise"):
        assert word in text
    doc = json.loads(target.read_text())
    assert doc["gap"] < GAP and set(doc["alice"]) == set(CLASS_NAMES)


def test_solve_command_json_and_report() -> None:
    out = io.StringIO()
    one_round_handler(parse(add_one_round_arguments, ["--bets", "0,2:4", "--json"]), out)
    doc = json.loads(out.getvalue())
    assert {"value", "gap", "seconds", "fold", "limp", "raise"} <= set(doc)
    out = io.StringIO()
    one_round_handler(parse(add_one_round_arguments, ["--bets", "0,2:4", "--report"]), out)
    assert "Alice's strategy:" in out.getvalue() and "  AA : value" in out.getvalue()


@pytest.mark.parametrize(
    "argv",
    [
        ["--bets", "0,1"],
        ["--bets", "x"],
        ["--sb", "3"],
        ["-o", "/nonexistent/dir/s.json"],
        ["--bets", "0,2", "--bb", "3"],
    ],
)
def test_solve_command_user_errors_are_one_line(argv: list[str]) -> None:
    with pytest.raises(ShowdownError) as info:
        one_round_handler(parse(add_one_round_arguments, argv), io.StringIO())
    assert "\n" not in str(info.value)


def test_plot_without_matplotlib_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ShowdownError, match="matplotlib"):
        one_round_handler(parse(add_one_round_arguments, ["--bets", "0,2", "--plot", str(tmp_path / "p.png")]))


def test_plot_draws_the_bet_size_distribution(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: dict[str, Any] = {}

    class Axes:
        def bar(self, x: list[float], heights: list[float], **_: Any) -> None:
            calls["bar"] = (list(x), list(heights))

        def __getattr__(self, name: str) -> Any:
            return lambda *args, **kwargs: None

    class Figure:
        def __init__(self, **_: Any) -> None:
            pass

        def add_subplot(self) -> Axes:
            return Axes()

        def savefig(self, fh: Any, **_: Any) -> None:  # a file opened by plots.save_figure
            calls["saved"] = Path(fh.name)
            fh.write(b"png")

    modules = {name: types.ModuleType(name) for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends",
                                                         "matplotlib.backends.backend_agg")}
    modules["matplotlib.figure"].Figure = Figure  # type: ignore[attr-defined]
    modules["matplotlib.backends.backend_agg"].FigureCanvasAgg = lambda figure: None  # type: ignore[attr-defined]
    for name, module in modules.items():
        monkeypatch.setitem(sys.modules, name, module)
    target = tmp_path / "bets.png"
    one_round_handler(parse(add_one_round_arguments, ["--bets", "0,2:4", "--plot", str(target)]), io.StringIO())
    assert calls["saved"] == target and target.exists()
    x, heights = calls["bar"]
    assert x[1:] == [0.0, 2.0, 3.0, 4.0] and sum(heights) == pytest.approx(1.0)


def test_equity_command_prints_a_class_pair() -> None:
    out = io.StringIO()
    assert equity_handler(parse(add_equity_arguments, ["AA", "KK"]), out) == 0
    assert "AA vs KK: win 0.81715  tie 0.00463  loss 0.17823" in out.getvalue()


@pytest.mark.parametrize("argv", [[], ["AA"], ["AA", "KK", "QQ"], ["AK", "QQ"], ["--force"]])
def test_equity_command_user_errors(argv: list[str]) -> None:
    with pytest.raises(ShowdownError):
        equity_handler(parse(add_equity_arguments, argv), io.StringIO())


def test_equity_build_keeps_a_valid_cached_table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from showdown.solvers.equity import cached_table_path, save_equity_table

    monkeypatch.setenv("SHOWDOWN_CACHE", str(tmp_path))
    save_equity_table(equity_table(), cached_table_path())
    out = io.StringIO()
    assert equity_handler(parse(add_equity_arguments, ["--build"]), out) == 0
    assert "already built" in out.getvalue() and str(tmp_path) in out.getvalue()


def test_unknown_method_or_form_is_rejected() -> None:
    with pytest.raises(SolverError):
        solve_one_round(SMALL, method="simplex")  # type: ignore[arg-type]
    with pytest.raises(SolverError):
        solve_one_round(SMALL, form="carol")  # type: ignore[arg-type]

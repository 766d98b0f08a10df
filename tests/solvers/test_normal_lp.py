from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from showdown.solvers.normal_lp import kuhn_normal_form, solve_kuhn_normal_form, solve_matrix_game

SEED_TABLES = Path(__file__).parent / "data" / "kuhn_normal_form_seed002.txt"


def _seed_tables() -> dict[str, tuple[tuple[str, ...], tuple[str, ...], np.ndarray]]:
    """The UBC wiki's printed tables: name -> (row labels, column labels, values)."""
    lines = [ln for ln in SEED_TABLES.read_text().splitlines() if not ln.startswith("#")]
    out = {}
    starts = [i for i, ln in enumerate(lines) if ln.startswith("table ")] + [len(lines)]
    for a, b in zip(starts, starts[1:]):
        columns = tuple(lines[a + 1].split())
        rows = [ln.split() for ln in lines[a + 2 : b]]
        out[lines[a]] = (tuple(r[0] for r in rows), columns, np.array([[float(v) for v in r[1:]] for r in rows]))
    return out


def test_rock_paper_scissors_is_fair_and_uniform() -> None:
    rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
    sol = solve_matrix_game(rps)
    assert sol.value == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_allclose(sol.row_strategy, 1 / 3, atol=1e-9)
    np.testing.assert_allclose(sol.column_strategy, 1 / 3, atol=1e-9)


def test_column_strategy_from_duals_is_optimal() -> None:
    m = np.array([[3.0, -1.0], [-2.0, 1.0]])
    sol = solve_matrix_game(m)
    assert sol.value == pytest.approx(1 / 7, abs=1e-12)
    assert (sol.row_strategy @ m).min() == pytest.approx(sol.value, abs=1e-12)
    assert (m @ sol.column_strategy).max() == pytest.approx(sol.value, abs=1e-12)


def test_full_normal_form_is_64_by_64_with_value_minus_one_eighteenth() -> None:
    # Kuhn (1950): value -1/18 for the first player.
    nf = kuhn_normal_form()
    assert nf.matrix.shape == (64, 64)
    assert len(set(nf.row_labels)) == 64 and len(set(nf.column_labels)) == 64
    assert solve_kuhn_normal_form().value == pytest.approx(-1 / 18, abs=1e-12)


def test_reduced_normal_form_matches_the_seed_table_to_two_decimals() -> None:
    # Seed 002 (UBC wiki, "Poker and linear programming 1") prints the 27x64 matrix with two decimals,
    # cards J Q K standing for the ACPC deck's Q K A; the labels coincide letter for letter.
    rows, columns, printed = _seed_tables()["table 1"]
    nf = kuhn_normal_form(reduced=True)
    assert nf.row_labels == rows and nf.column_labels == columns
    assert np.abs(nf.matrix - printed).max() <= 0.005 + 1e-12


def test_seed_negated_transpose_is_the_second_players_view() -> None:
    rows, columns, printed = _seed_tables()["table 2"]
    nf = kuhn_normal_form(reduced=True)
    assert rows == nf.column_labels and columns == nf.row_labels
    assert np.abs(-nf.matrix.T - printed).max() <= 0.005 + 1e-12


def test_reduced_form_value_is_exact_and_seed_figures_are_rounding_artefacts() -> None:
    # The seed reports -0.055574 for player 1 and 0.0563861 for player 2: both come from solving the
    # two-decimal matrix (solving the printed table here gives -0.05573). The exact matrix gives -1/18
    # for both players, as Kuhn (1950) found.
    assert solve_kuhn_normal_form(reduced=True).value == pytest.approx(-1 / 18, abs=1e-12)
    printed = _seed_tables()["table 1"][2]
    assert abs(solve_matrix_game(printed).value - (-1 / 18)) > 1e-4
    assert solve_matrix_game(printed).value == pytest.approx(-0.0556, abs=1e-3)

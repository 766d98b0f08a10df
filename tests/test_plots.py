"""Pictures: matplotlib stays optional, the Kuhn-N and Leduc strategy charts, solver curves."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from showdown.cli.cfr import output_paths, write_curve
from showdown.cli.plots import MissingDependencyError, read_curve, require_matplotlib
from showdown.errors import ShowdownError, SolverError
from showdown.games.catalog import get_game
from showdown.solvers.cfr import cfr_plus
from showdown.solvers.strategy import uniform_strategy
from showdown.solvers.training import train

PNG = b"\x89PNG\r\n\x1a\n"


def test_missing_matplotlib_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingDependencyError) as err:
        require_matplotlib()
    assert isinstance(err.value, ShowdownError)
    assert "pip install 'showdown-poker[plot]'" in str(err.value) and "\n" not in str(err.value)


def test_importing_the_module_does_not_import_matplotlib() -> None:
    import subprocess

    code = "import sys, showdown.cli.plots; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1]).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("game_name", ["kuhn", "kuhn-100", "leduc"])
def test_draws_a_strategy(game_name: str, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from showdown.cli.plots import plot_strategy

    out = plot_strategy(cfr_plus(get_game(game_name), 30).average_strategy(), tmp_path / "s.png")
    assert out.read_bytes()[:8] == PNG


def test_the_kuhn_chart_has_the_seeds_four_panels(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from showdown.cli import plots

    fig = plots._kuhn_figure(*_tree_and_arrays("kuhn-10"), "t")
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["Player 1 opening", "Player 2 after a check", "Player 2 after a bet", "Player 1 after check-bet"]
    heights = [p.get_height() for p in fig.axes[0].patches]
    assert len(heights) == 20 and all(abs(h - 0.5) < 1e-12 for h in heights)  # uniform: half pass, half bet


def _tree_and_arrays(name: str) -> tuple[object, list[object]]:
    from showdown.solvers.strategy import strategy_to_arrays
    from showdown.solvers.tree import build_tree

    game = get_game(name)
    tree = build_tree(game)
    return tree, strategy_to_arrays(tree, uniform_strategy(game))


def test_games_it_cannot_draw_are_refused(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from showdown.cli.plots import plot_strategy
    from showdown.games.gamedef import parse_gamedef

    two_cards = parse_gamedef(
        "GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 1\nblind = 1 1\nraiseSize = 1\nfirstPlayer = 1\n"
        "maxRaises = 1\nnumSuits = 1\nnumRanks = 5\nnumHoleCards = 2\nnumBoardCards = 0\nEND GAMEDEF\n",
        name="two",
    )
    with pytest.raises(SolverError, match="one hole card"):
        plot_strategy(uniform_strategy(two_cards), tmp_path / "x.png")


def test_curves_round_trip_and_draw(tmp_path: Path) -> None:
    result = train(cfr_plus(get_game("kuhn")), iterations=100)
    csv_path, json_path = output_paths(tmp_path / "kuhn.cfr+.strategy.json")
    write_curve(result.curve, csv_path, json_path, "kuhn", "cfr+")
    for path in (csv_path, json_path):
        label, points = read_curve(path)
        assert [p[0] for p in points] == [q.iteration for q in result.curve]
        assert points[-1][2] == result.curve[-1].exploitability
    assert read_curve(json_path)[0] == "kuhn cfr+"
    assert json.loads(json_path.read_text())["unit"] == "chips per hand"
    with pytest.raises(ShowdownError, match="not a curve file"):
        (tmp_path / "bad.csv").write_text("a,b\n1,2\n")
        read_curve(tmp_path / "bad.csv")
    pytest.importorskip("matplotlib")
    from showdown.cli.plots import plot_curves

    assert plot_curves([csv_path, json_path], tmp_path / "c.png").read_bytes()[:8] == PNG


@pytest.mark.parametrize("name, content, says", [
    ("g.log", bytes(range(128, 256)) * 20, "not a curve file (not UTF-8 text)"),  # was a UnicodeDecodeError traceback
    ("c.json", b"[]", "not a curve file (expected a JSON object"),  # was an AttributeError traceback
    ("p.json", b'{"points": 5}', "not a curve file (expected a JSON object"),
    ("e.json", b'{"points": []}', "holds no curve points"),  # was a blank picture and matplotlib's warning
    ("e.json", b"", "holds no curve points"),
    ("e.curve.csv", b"", "holds no curve points"),
    ("e.curve.csv", b"iteration,seconds,exploitability\r\n", "holds no curve points"),
])
def test_a_file_that_holds_no_curve_is_one_line(tmp_path: Path, name: str, content: bytes, says: str) -> None:
    (tmp_path / name).write_bytes(content)
    with pytest.raises(ShowdownError, match=re.escape(says)):
        read_curve(tmp_path / name)


def test_curves_of_no_point_a_log_scale_can_draw_are_refused(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from showdown.cli.plots import plot_curves

    (tmp_path / "z.json").write_text('{"points": [{"iteration": 0, "seconds": 0, "exploitability": 1}]}')
    with pytest.raises(ShowdownError, match="can be drawn on log scales"):
        plot_curves([tmp_path / "z.json"], tmp_path / "z.png")
    assert not (tmp_path / "z.png").exists()


def test_a_nash_conv_curve_csv_names_its_column_and_plots_with_its_measure(tmp_path: Path) -> None:
    """A 3-player run's CSV headed its NashConv column 'exploitability' (which --json gives as NashConv / 3),
    and a NashConv curve drawn beside a 2-player one was labelled exploitability."""
    from showdown.solvers.training import CurvePoint

    points = [CurvePoint(1, 0.01, 2.0), CurvePoint(10, 0.1, 0.2)]
    csv3, json3 = tmp_path / "k3.curve.csv", tmp_path / "k3.curve.json"
    write_curve(points, csv3, json3, "kuhn3p", "cfr+", "NashConv")
    assert csv3.read_text().splitlines()[0] == "iteration,seconds,nash_conv"
    assert read_curve(csv3)[1] == read_curve(json3)[1] == [(1, 0.01, 2.0), (10, 0.1, 0.2)]
    csv2, json2 = tmp_path / "k.curve.csv", tmp_path / "k.curve.json"
    write_curve(points, csv2, json2, "kuhn", "cfr+")
    assert csv2.read_text().splitlines()[0] == "iteration,seconds,exploitability"
    pytest.importorskip("matplotlib")
    import matplotlib.axes

    from showdown.cli.plots import plot_curves

    labels: list[str] = []
    real_plot = matplotlib.axes.Axes.plot

    def plot(self: object, *args: object, **kwargs: object) -> object:
        labels.append(str(kwargs.get("label")))
        return real_plot(self, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(matplotlib.axes.Axes, "plot", plot)
        plot_curves([csv2, csv3], tmp_path / "c.png")
    assert "k (exploitability)" in labels and "k3 (NashConv)" in labels

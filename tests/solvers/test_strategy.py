from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from showdown.games.cards import make_card, parse_card, parse_cards
from showdown.games.catalog import get_game
from showdown.games.state import RAISE
from showdown.solvers.sequence_lp import solve_sequence_lp
from showdown.solvers.strategy import (
    Strategy,
    StrategyError,
    arrays_to_strategy,
    infoset_key,
    load_strategy,
    save_strategy,
    strategy_to_arrays,
    uniform_strategy,
)
from showdown.solvers.tree import build_tree


def test_infoset_key_examples_from_the_design() -> None:
    assert infoset_key([parse_card("Ks")], [], "cr") == "Ks:/cr"
    assert infoset_key([parse_card("Qh")], [parse_card("Kh")], "rrc/r") == "Qh:Kh/rrc/r"


def test_infoset_key_sorts_hole_cards_and_board_within_rounds() -> None:
    hole = parse_cards("2cAs")
    assert infoset_key(hole, [], "") == infoset_key(hole[::-1], [], "") == "As2c:/"
    board = parse_cards("2dKhTs7c")
    assert infoset_key(hole, board, "cc/cc/c", num_board_cards=(0, 3, 1)) == "As2c:KhTs2d7c/cc/cc/c"


def test_cards_past_the_ace_are_written_with_their_rank() -> None:
    assert infoset_key([make_card(57, 3)], [], "cr") == "r57s:/cr"
    assert infoset_key([make_card(12, 3)], [], "") == "As:/"


@pytest.fixture(scope="module")
def leduc_solution() -> Strategy:
    return solve_sequence_lp("leduc").strategy


@pytest.mark.parametrize("suffix", [".json", ".npz"])
def test_strategy_files_round_trip_exactly(tmp_path: Path, leduc_solution: Strategy, suffix: str) -> None:
    path = save_strategy(leduc_solution, tmp_path / f"leduc{suffix}")
    again = load_strategy(path)
    assert again == leduc_solution
    assert list(again.table) == list(leduc_solution.table)
    assert again.game == get_game("leduc")


def test_json_file_is_documented_format(tmp_path: Path) -> None:
    path = save_strategy(uniform_strategy(get_game("kuhn")), tmp_path / "kuhn.json")
    doc = json.loads(path.read_text())
    assert doc["format"] == "showdown-strategy" and doc["version"] == 1 and doc["game"] == "kuhn"
    assert doc["infosets"]["Ks:/cr"] == {"f": 0.5, "c": 0.5}


def _write(tmp_path: Path, infosets: dict[str, dict[str, object]], **meta: object) -> Path:
    doc = {"format": "showdown-strategy", "version": 1, "game": "kuhn", "infosets": infosets}
    doc.update(meta)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize(
    ("infosets", "message"),
    [
        ({"Js:/": {"c": 1.0}}, "unknown information set 'Js:/'"),
        ({"Ks:/cr": {"f": 0.5, "c": 0.4}}, "'Ks:/cr': probabilities sum to"),
        ({"Ks:/cr": {"f": 1.5, "c": -0.5}}, "'Ks:/cr': negative probability"),
        ({"Ks:/": {"f": 1.0}}, "'Ks:/': action 'f' is not legal"),
        ({"Ks:/": {"c": "x"}}, "'Ks:/': probability of 'c' is not a number"),
    ],
)
def test_loading_rejects_bad_strategies_naming_the_key(
    tmp_path: Path, infosets: dict[str, dict[str, object]], message: str
) -> None:
    with pytest.raises(StrategyError, match=message.replace("(", r"\(")):
        load_strategy(_write(tmp_path, infosets))


def test_loading_rejects_other_formats_and_versions(tmp_path: Path) -> None:
    with pytest.raises(StrategyError, match="version 2"):
        load_strategy(_write(tmp_path, {}, version=2))
    with pytest.raises(StrategyError, match="format"):
        load_strategy(_write(tmp_path, {}, format="other"))
    with pytest.raises(StrategyError, match="not leduc"):
        load_strategy(_write(tmp_path, {}), game=get_game("leduc"))


def test_probabilities_within_tolerance_are_accepted() -> None:
    s = Strategy(get_game("kuhn"), {"Ks:/cr": {"f": 0.5, "c": 0.5 + 5e-10}})
    assert s["Ks:/cr"]["c"] == 0.5 + 5e-10


def test_sampling_follows_the_probabilities_and_the_generator() -> None:
    s = Strategy(get_game("kuhn"), {"Ks:/cr": {"f": 0.25, "c": 0.75}, "As:/": {"c": 0.0, "r": 1.0}})
    rng = np.random.default_rng(3)
    counts = Counter(s.sample("Ks:/cr", rng) for _ in range(20000))
    assert abs(counts["c"] / 20000 - 0.75) < 0.015
    first = [s.sample("Ks:/cr", np.random.default_rng(9)) for _ in range(5)]
    assert len(set(first)) == 1
    assert {s.sample("As:/", rng) for _ in range(200)} == {"r"}
    assert s.sample_action("As:/", rng) == RAISE


def test_missing_key_is_an_error_naming_it() -> None:
    s = Strategy(get_game("kuhn"), {})
    with pytest.raises(StrategyError, match="'Qs:/'"):
        s.probabilities("Qs:/")
    with pytest.raises(StrategyError, match="no information set"):
        strategy_to_arrays(build_tree(get_game("kuhn")), s)


def test_arrays_round_trip(leduc_solution: Strategy) -> None:
    tree = build_tree(get_game("leduc"))
    arrays = strategy_to_arrays(tree, leduc_solution)
    assert arrays_to_strategy(tree, arrays) == leduc_solution
    assert [a.shape for a in arrays][:2] == [(1, 6, 2), (1, 6, 2)]


def test_uniform_strategy_covers_every_information_set() -> None:
    s = uniform_strategy(get_game("leduc"))
    assert len(s) == 936
    assert s["Qh:Kh/rrc/r"] == {"f": 1 / 3, "c": 1 / 3, "r": 1 / 3}


def test_profile_splits_into_players_and_merges_back(leduc_solution: Strategy) -> None:
    p0, p1 = leduc_solution.for_player(0), leduc_solution.for_player(1)
    assert len(p0) == len(p1) == 468
    assert p0.merged(p1) == leduc_solution


def test_kuhn_past_thirteen_ranks_round_trips_through_a_file(tmp_path) -> None:
    # kuhn-100 has no parsable .game text (numRanks > 13): the catalog name carries it.
    from showdown.games.catalog import get_game
    from showdown.solvers.strategy import load_strategy, save_strategy, uniform_strategy

    strategy = uniform_strategy(get_game("kuhn-100"))
    path = save_strategy(strategy, tmp_path / "k100.json")
    assert load_strategy(path) == strategy


def test_a_strategy_file_nested_thousands_deep_is_one_error(tmp_path: Path) -> None:
    """json.loads raised RecursionError: a traceback from exploit, match -o strategy=, agent."""
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(StrategyError, match=r"deep.json: not a JSON strategy file \(maximum recursion depth"):
        load_strategy(path)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_given_as_a_strategy_file_is_refused_unread(device: str) -> None:
    """``showdown exploit /dev/zero`` read it for ever."""
    if not Path(device).exists():
        pytest.skip(f"{device} is not on this machine")
    with pytest.raises(StrategyError, match="not a regular file"):
        load_strategy(device)


def test_a_pipe_given_as_a_strategy_file_is_refused_unread(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "strategy.json"
    os.mkfifo(fifo)  # no writer: opening it to read would block for ever
    with pytest.raises(StrategyError, match="not a regular file"):
        load_strategy(fifo)


def test_a_strategy_file_with_a_number_of_thousands_of_digits_is_one_line(tmp_path: Path) -> None:
    """json's int() of more than 4,300 digits raises a plain ValueError: a traceback from exploit and plot."""
    path = tmp_path / "s.json"
    path.write_text('{"game": "kuhn", "infosets": {"Ks:": {"c": ' + "9" * 5000 + "}}}")
    with pytest.raises(StrategyError, match=r"s\.json: not a JSON strategy file \(a number of more than 4,300 digits\)"):
        load_strategy(path)


def test_a_strategy_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Notepad's UTF-8 starts with a byte-order mark: the file was refused ('Unexpected UTF-8 BOM')."""
    game = get_game("kuhn")
    path = save_strategy(uniform_strategy(game), tmp_path / "s.json")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load_strategy(path) == uniform_strategy(game)


def test_an_information_set_or_action_given_twice_is_refused_not_one_kept(tmp_path: Path) -> None:
    """json kept the last of two copies of 'Ks:/' silently (another reader keeps the first): ambiguous, so refused."""
    game = get_game("kuhn")
    path = save_strategy(uniform_strategy(game), tmp_path / "s.json")
    text = path.read_text(encoding="utf-8")
    twice = text.replace('"infosets": {', '"infosets": {"Ks:/": {"c": 1.0, "r": 0.0},', 1)
    for key, doc in {"Ks:/": twice, "c": text.replace('"c": 0.5', '"c": 1.0, "c": 0.5', 1)}.items():
        path.write_text(doc, encoding="utf-8")
        with pytest.raises(StrategyError, match=rf"s\.json: not a JSON strategy file \('{key}' is given twice in one object\)"):
            load_strategy(path)
    arrays = dict(np.load(save_strategy(uniform_strategy(game), tmp_path / "s.npz")))
    keys = arrays["keys"].copy()
    keys[1] = keys[0]
    np.savez(tmp_path / "keys.npz", **{**arrays, "keys": keys})
    with pytest.raises(StrategyError, match=rf"keys\.npz: information set '{keys[0]}' is given twice"):
        load_strategy(tmp_path / "keys.npz")
    actions = arrays["actions"].copy()
    actions[1] = actions[0]
    np.savez(tmp_path / "actions.npz", **{**arrays, "actions": actions})
    with pytest.raises(StrategyError, match=rf"actions\.npz: information set '{keys[0]}': action '{actions[0]}' is given twice"):
        load_strategy(tmp_path / "actions.npz")


def test_probabilities_rounded_to_three_decimals_are_rescaled_to_one(tmp_path: Path) -> None:
    """A hand-written set (0.333 three times, or float32 output) was refused as not summing to 1."""
    path = _write(tmp_path, {"Qs:/": {"c": 0.333, "r": 0.666}, "Ks:/cr": {"f": 0.3333, "c": 0.6666}})
    strategy = load_strategy(path)
    assert math.fsum(strategy["Qs:/"].values()) == pytest.approx(1.0, abs=1e-15)
    assert strategy["Qs:/"]["c"] == pytest.approx(1 / 3)
    assert strategy["Ks:/cr"]["f"] == pytest.approx(1 / 3)
    with pytest.raises(StrategyError, match=r"sum to 0\.99, not 1 \(within 0\.002\)"):
        load_strategy(_write(tmp_path, {"Qs:/": {"c": 0.33, "r": 0.66}}))

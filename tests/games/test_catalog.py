from __future__ import annotations

from pathlib import Path

import pytest

from showdown.errors import GameDefError
from showdown.games.cards import format_cards, make_deck
from showdown.games.catalog import CATALOG, catalog_name, game_names, get_game, kuhn_n
from showdown.games.gamedef import format_gamedef


def test_catalog_has_the_promised_games() -> None:
    assert [e.name for e in CATALOG] == [
        "kuhn", "kuhn3p", "leduc", "leduc3p", "holdem-limit", "holdem-nolimit", "holdem-limit-3p", "holdem-nolimit-3p",
    ]
    assert "kuhn-N" in game_names()


def test_kuhn_decks() -> None:
    k = get_game("kuhn")
    assert format_cards(make_deck(k.num_ranks, k.num_suits)) == "QsKsAs"
    k3 = get_game("kuhn3p")
    assert k3.num_players == 3 and format_cards(make_deck(k3.num_ranks, k3.num_suits)) == "JsQsKsAs"
    l3 = get_game("leduc3p")
    assert l3.num_players == 3 and format_cards(make_deck(l3.num_ranks, l3.num_suits)) == "JhQhKhAhJsQsKsAs"


def test_kuhn_n_is_kuhn_with_n_ranks() -> None:
    assert get_game("kuhn-3") == get_game("kuhn")
    assert get_game("kuhn-10").num_ranks == 10
    assert get_game("kuhn-13").servable


def test_large_kuhn_exists_for_solvers_but_cannot_be_served() -> None:
    g = kuhn_n(100)
    assert g.num_ranks == 100 and not g.servable
    with pytest.raises(GameDefError, match="cannot be served over the protocol"):
        g.require_servable()


def test_kuhn_n_needs_three_cards() -> None:
    with pytest.raises(GameDefError, match="N >= 3"):
        get_game("kuhn-2")


def test_reference_file_names_resolve_to_catalog_games() -> None:
    assert get_game("holdem.nolimit.2p.reverse_blinds.game") == get_game("holdem-nolimit")
    assert catalog_name(get_game("leduc.limit.2p.game")) == "leduc"


def test_unknown_game_lists_the_catalog() -> None:
    with pytest.raises(GameDefError, match="unknown game 'chess'.*kuhn, kuhn3p, leduc"):
        get_game("chess")


def test_a_misspelt_game_is_given_the_nearest_name() -> None:
    for typo, near in (("kuhnn", "kuhn"), ("Leduc", "leduc"), ("holdem_nolimit", "holdem-nolimit"), ("leduc3", "leduc3p")):
        with pytest.raises(GameDefError, match=rf"unknown game '{typo}': did you mean '{near}'\? give a catalog name"):
            get_game(typo)


@pytest.mark.parametrize("spec", [5, None, ["kuhn"]])
def test_a_game_that_is_no_name_or_path_is_a_game_error(spec: object) -> None:
    with pytest.raises(GameDefError, match="a game is a catalog name or a path to a .game file, not"):
        get_game(spec)  # type: ignore[arg-type]


def test_a_path_object_names_a_game_file(tmp_path: Path) -> None:
    path = tmp_path / "k.game"
    path.write_text(format_gamedef(get_game("kuhn")))
    assert get_game(path).num_players == 2


def test_as_game_takes_a_game_or_its_name_and_names_the_caller_for_anything_else() -> None:
    from showdown.games.catalog import as_game

    leduc = get_game("leduc")
    assert as_game(leduc, "f") is leduc and as_game("leduc", "f") == leduc and as_game(Path("leduc"), "f") == leduc
    with pytest.raises(GameDefError, match=r"^solve_sequence_lp: expected a game .* or its name, got int 5$"):
        as_game(5, "solve_sequence_lp")


def test_a_game_path_from_the_home_folder_is_expanded(tmp_path, monkeypatch) -> None:
    """A match file's 'game: ~/my.game' (no shell to expand it) was 'unknown game '~/my.game''."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "my.game").write_text(format_gamedef(get_game("kuhn")))
    assert get_game("~/my.game") == get_game("kuhn")

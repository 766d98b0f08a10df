"""The OpenSpiel bridge, checked by OpenSpiel itself: the same game values, best responses and
exploitability to 1e-9, and OpenSpiel's CFR policy playing a full match in our dealer."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pyspiel")

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import expected_game_score  # noqa: E402
from open_spiel.python.algorithms import exploitability as os_exploitability  # noqa: E402

from showdown.cli import main  # noqa: E402
from showdown.errors import ConfigError  # noqa: E402
from showdown.games.catalog import get_game  # noqa: E402
from showdown.interchange.openspiel import (  # noqa: E402
    from_openspiel_policy,
    load_policy,
    openspiel_game,
    save_policy,
    to_openspiel_policy,
    universal_poker_parameters,
)
from showdown.solvers.best_response import best_response_values, expected_value, exploitability  # noqa: E402
from showdown.solvers.multiplayer import evaluate  # noqa: E402
from showdown.solvers.ntree import build_ntree  # noqa: E402
from showdown.solvers.strategy import Strategy, ntree_sigma, uniform_strategy  # noqa: E402

TOLERANCE = 1e-9


def _random_strategy(name: str, seed: int) -> Strategy:
    rng = np.random.default_rng(seed)
    uniform = uniform_strategy(get_game(name))
    table = {}
    for key, row in uniform.table.items():
        weights = rng.random(len(row)) + 0.05
        table[key] = dict(zip(row, weights / weights.sum()))
    return Strategy(get_game(name), table)


def _profiles(name: str) -> list[Strategy]:
    profiles = [uniform_strategy(get_game(name)), _random_strategy(name, 1), _random_strategy(name, 2)]
    if name in ("kuhn", "leduc"):
        from showdown.agents.equilibrium import equilibrium_strategy

        profiles.append(equilibrium_strategy(get_game(name)))
    return profiles


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_two_player_values_best_responses_and_exploitability_agree_with_openspiel(name: str) -> None:
    game = get_game(name)
    os_game = openspiel_game(game)
    for strategy in _profiles(name):
        policy = to_openspiel_policy(game, os_game, strategy)
        values = expected_game_score.policy_value(os_game.new_initial_state(), [policy] * 2)
        ours = expected_value(game, strategy)
        assert abs(values[0] - ours) < TOLERANCE and abs(values[1] + ours) < TOLERANCE
        conv = os_exploitability.nash_conv(os_game, policy, return_only_nash_conv=False)
        br0, br1 = best_response_values(game, strategy)
        assert abs(conv.player_improvements[0] - (br0 - ours)) < TOLERANCE
        assert abs(conv.player_improvements[1] - (br1 + ours)) < TOLERANCE
        assert abs(os_exploitability.exploitability(os_game, policy) - exploitability(game, strategy)) < TOLERANCE


def test_three_player_kuhn_values_and_best_responses_agree_with_openspiel() -> None:
    game = get_game("kuhn3p")
    os_game = openspiel_game(game)
    tree = build_ntree(game)
    for strategy in _profiles("kuhn3p"):
        policy = to_openspiel_policy(game, os_game, strategy)
        ours = evaluate(tree, ntree_sigma(tree, strategy))
        values = expected_game_score.policy_value(os_game.new_initial_state(), [policy] * 3)
        assert np.allclose(values, ours.values, atol=TOLERANCE, rtol=0)
        conv = os_exploitability.nash_conv(os_game, policy, return_only_nash_conv=False)
        gains = [b - v for b, v in zip(ours.best_response, ours.values)]
        assert np.allclose(conv.player_improvements, gains, atol=TOLERANCE, rtol=0)


def test_a_policy_goes_there_and_back_unchanged() -> None:
    game = get_game("leduc")
    os_game = openspiel_game(game)
    strategy = _random_strategy("leduc", 7)
    back = from_openspiel_policy(game, os_game, to_openspiel_policy(game, os_game, strategy))
    assert back.table.keys() == strategy.table.keys()
    assert all(abs(back.table[k][a] - p) < 1e-12 for k, row in strategy.table.items() for a, p in row.items())


def test_any_game_file_becomes_the_same_universal_poker_game() -> None:
    params = universal_poker_parameters(get_game("holdem-nolimit"))
    assert params["blind"] == "100 50" and params["firstPlayer"] == "2 1 1 1" and params["stack"] == "20000 20000"
    os_game = pyspiel.load_game("universal_poker", params)
    assert os_game.num_players() == 2


def test_openspiels_cfr_policy_plays_a_full_match_in_our_dealer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = get_game("leduc")
    os_game = openspiel_game(game)
    solver = pyspiel.CFRSolver(os_game)
    for _ in range(60):
        solver.evaluate_and_update_policy()
    policy_file = save_policy(solver.average_policy(), os_game, game, tmp_path / "leduc_cfr.json")
    strategy = load_policy(policy_file, game)
    assert exploitability(game, strategy) < 0.2  # CFR's average after 60 iterations, by our own best response
    assert main(["match", "leduc", f"openspiel:{policy_file}", "call", "--hands", "300", "--seed", "3", "--out", str(tmp_path / "out"),
                 "--no-progress", "--json"]) == 0  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert report["hands"] == 300 and not report.get("aborted")
    logs = list((tmp_path / "out").glob("*.log"))
    assert main(["verify-log", str(logs[0])]) == 0


def test_a_policy_file_for_another_game_is_refused_in_one_line(tmp_path: Path) -> None:
    game = get_game("kuhn")
    os_game = openspiel_game(game)
    path = save_policy(to_openspiel_policy(game, os_game, uniform_strategy(game)), os_game, game, tmp_path / "kuhn.json")
    with pytest.raises(ConfigError, match="made for universal_poker"):
        load_policy(path, get_game("leduc"))


def test_a_policy_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    game = get_game("kuhn")
    os_game = openspiel_game(game)
    path = save_policy(to_openspiel_policy(game, os_game, uniform_strategy(game)), os_game, game, tmp_path / "kuhn.json")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load_policy(path, game) == uniform_strategy(game)


def test_a_missing_policy_file_is_one_line_before_the_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "leduc", f"openspiel:{tmp_path / 'none.json'}", "call", "--hands", "10", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no such OpenSpiel policy file" in err[0]


def test_the_bridge_takes_a_game_s_name_and_says_what_is_wrong_with_its_arguments(tmp_path: Path) -> None:
    from showdown.agents.equilibrium import equilibrium_strategy
    from showdown.errors import ShowdownError

    leduc, kuhn = get_game("leduc"), get_game("kuhn")
    assert openspiel_game("leduc").get_parameters() == openspiel_game(leduc).get_parameters()  # was an AttributeError
    with pytest.raises(ShowdownError, match=r"^openspiel_game: expected a game"):
        openspiel_game(5)  # type: ignore[arg-type]
    ours = equilibrium_strategy(leduc)
    # another game's OpenSpiel tree: was a TabularPolicy of kuhn filled from leduc's table, without a word
    with pytest.raises(ShowdownError, match=r"^to_openspiel_policy: the OpenSpiel game is not leduc"):
        to_openspiel_policy(leduc, openspiel_game(kuhn), ours)
    with pytest.raises(ShowdownError, match=r"^save_policy: the OpenSpiel game is not kuhn"):  # was an IndexError
        save_policy(pyspiel.CFRSolver(openspiel_game(leduc)).average_policy(), openspiel_game(leduc), kuhn, tmp_path / "p.json")
    with pytest.raises(ShowdownError, match=r"^to_openspiel_policy: expected a Strategy"):  # was an AttributeError
        to_openspiel_policy(leduc, openspiel_game(leduc), None)  # type: ignore[arg-type]
    with pytest.raises(ShowdownError, match=r"^save_policy: expected an OpenSpiel policy"):
        save_policy(None, openspiel_game(leduc), leduc, tmp_path / "p.json")
    with pytest.raises(ShowdownError, match=r"^from_openspiel_policy: expected OpenSpiel's universal_poker game"):
        from_openspiel_policy(leduc, pyspiel.load_game("kuhn_poker"), pyspiel.CFRSolver(pyspiel.load_game("kuhn_poker")).average_policy())
    assert not (tmp_path / "p.json").exists()


def test_a_tree_too_large_to_walk_is_refused_at_once() -> None:
    # limit hold'em (10^15 deals) was walked for ever, memory growing, by every function of the bridge
    import time

    from open_spiel.python.policy import UniformRandomPolicy

    from showdown.errors import ShowdownError
    from showdown.interchange.openspiel import walk_decisions

    game = get_game("holdem-limit")
    os_game = openspiel_game(game)
    started = time.monotonic()
    said = r"has 1\.3e\+15 deals of the cards, a tree too large to walk \(at most 1,000,000"
    with pytest.raises(ShowdownError, match="walk_decisions: holdem-limit " + said):
        next(walk_decisions(game, os_game))
    with pytest.raises(ShowdownError, match="to_openspiel_policy: holdem-limit " + said):
        to_openspiel_policy(game, os_game, Strategy(game, {}))
    uniform = UniformRandomPolicy(os_game)
    with pytest.raises(ShowdownError, match="walk_decisions: holdem-limit " + said):
        from_openspiel_policy(game, os_game, uniform)
    with pytest.raises(ShowdownError, match="walk_decisions: holdem-limit " + said):
        save_policy(uniform, os_game, game, "never.json")
    assert time.monotonic() - started < 5
    assert next(walk_decisions("leduc3p", openspiel_game("leduc3p")))  # 1,680 deals: walked (777,168 decisions)


@pytest.mark.parametrize(("doc", "says"), [
    ({"universal_poker": [1, 2], "policy": {}}, "'universal_poker' and 'policy' are objects"),
    ({"universal_poker": "kuhn", "policy": {}}, "'universal_poker' and 'policy' are objects"),
    ({"policy": 5}, "'universal_poker' and 'policy' are objects"),
    ({"policy": {"@": 5}}, "has '5', not an object of action numbers and probabilities"),
    ({"policy": {"@": {"call": 1}}}, "not an object of action numbers and probabilities"),
    ({"policy": {"@": [0.5, 0.5]}}, "not an object of action numbers and probabilities"),
    # (said without the file: "information set 'Qs:/': probability of 'c' is nan")
    ({"policy": {"@": {"1": float("nan"), "2": 0.5}}}, r"^OpenSpiel policy .*p\.json: information set '.*': probability of 'c' is nan$"),
    ({"policy": {"@": {"1": -0.5, "2": 1.5}}}, r"^OpenSpiel policy .*p\.json: information set '.*': negative probability -0.5 for 'c'$"),
])
def test_a_policy_file_of_the_wrong_shape_is_one_line(tmp_path: Path, doc: dict[str, object], says: str) -> None:
    """A hand-edited policy file ('universal_poker' a list, 'policy' a number, a row not an object) was an
    AttributeError or ValueError traceback from showdown match and the agent."""
    game = get_game("kuhn")
    os_game = openspiel_game(game)
    path = save_policy(to_openspiel_policy(game, os_game, uniform_strategy(game)), os_game, game, tmp_path / "p.json")
    doc.setdefault("universal_poker", universal_poker_parameters(game))
    if isinstance(doc["policy"], dict) and "@" in doc["policy"]:  # every information state gets the bad row
        row = doc["policy"]["@"]
        doc["policy"] = dict.fromkeys(json.loads(path.read_text())["policy"], row)
    path.write_text(json.dumps(doc))
    with pytest.raises(ConfigError, match=says):
        load_policy(path, game)


def test_a_pipe_given_as_a_policy_file_is_refused_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "p.json")
    with pytest.raises(ConfigError, match=r"p\.json: not a regular file"):
        load_policy(tmp_path / "p.json", get_game("kuhn"))



def test_a_strategy_telling_the_board_cards_order_apart_is_refused_not_overwritten(tmp_path: Path) -> None:
    """Three rounds with a board card in each of the last two: universal_poker sorts the board, so two
    of our information sets are one of its states; a strategy playing them differently had one row
    silently overwrite the other (OpenSpiel found the exact LP equilibrium 0.27 chips exploitable)."""
    from showdown.errors import ShowdownError

    path = tmp_path / "leduc3r.game"
    path.write_text("GAMEDEF\nlimit\nnumPlayers = 2\nnumRounds = 3\nblind = 1 1\nraiseSize = 1 2 3\nfirstPlayer = 1 2 1\n"
                    "maxRaises = 1 2 1\nnumSuits = 2\nnumRanks = 3\nnumHoleCards = 1\nnumBoardCards = 0 1 1\nEND GAMEDEF\n")
    game = get_game(str(path))
    os_game = openspiel_game(game)
    uniform = uniform_strategy(game)
    policy = to_openspiel_policy(game, os_game, uniform)  # the same play in both: nothing lost
    assert os_exploitability.nash_conv(os_game, policy) == pytest.approx(sum(best_response_values(game, uniform)), abs=TOLERANCE)
    table = dict(uniform.table)
    table["Qh:KsKh/cc/cc/"] = {"c": 1.0, "r": 0.0}
    with pytest.raises(ShowdownError, match=r"'Qh:KhKs/cc/cc/' and 'Qh:KsKh/cc/cc/' as one information state"):
        to_openspiel_policy(game, os_game, Strategy(game, table))


def test_a_three_player_leduc_policy_file_takes_its_seat_within_the_start_timeout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # (loading it walked OpenSpiel's tree in 16 s of CPU, past the dealer's 15 s start timeout: the seat was
    # the dealer's check/fold in every hand, 'DEGRADED MATCH', exit 3)
    from open_spiel.python.policy import UniformRandomPolicy

    game = get_game("leduc3p")
    os_game = openspiel_game(game)
    policy_file = save_policy(UniformRandomPolicy(os_game), os_game, game, tmp_path / "leduc3p.json")
    assert main(["match", "leduc3p", f"openspiel:{policy_file}", "call", "call", "--hands", "6", "--out", str(tmp_path / "out"),
                 "--no-progress", "--json"]) == 0  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert report["hands"] == 6 and not report.get("degraded")


def test_a_policy_file_is_an_agent_to_exploit_and_an_env_opponent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # (exploit --agent openspiel:FILE said "cannot load '...json' from module 'openspiel'", as did make_agent)
    game = get_game("kuhn")
    os_game = openspiel_game(game)
    solver = pyspiel.CFRSolver(os_game)
    solver.evaluate_and_update_policy()
    policy_file = save_policy(solver.average_policy(), os_game, game, tmp_path / "kuhn_cfr.json")
    assert main(["exploit", "--agent", f"openspiel:{policy_file}", "--game", "kuhn", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert abs(report["exploitability"] - pyspiel.exploitability(os_game, solver.average_policy())) < TOLERANCE
    from showdown.env import SingleAgentEnv

    env = SingleAgentEnv("kuhn", opponents=[f"openspiel:{policy_file}"], position=1)
    env.reset(seed=0)
    assert env.state is not None and env.state.betting in ("c", "r")

"""The PettingZoo environment: PettingZoo's own API test, the reference dealer's cards for a seed,
the action mapping, rewards."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import showdown.env  # noqa: E402
from showdown.env.encoding import ActionMap  # noqa: E402
from showdown.games.cards import format_cards  # noqa: E402
from showdown.games.catalog import get_game  # noqa: E402
from showdown.games.gamedef import format_gamedef  # noqa: E402
from showdown.games.state import Action, ActionKind  # noqa: E402
from showdown.protocol.logfile import parse_log  # noqa: E402
from tests.phh_support import uneven_game  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.mark.parametrize("game", ["kuhn", "kuhn3p", "leduc", "leduc3p", "holdem-limit", "holdem-nolimit", "holdem-nolimit-3p"])
def test_pettingzoos_api_test_passes_wrapped_and_bare(game: str) -> None:
    api_test(showdown.env.env(game=game), num_cycles=200)
    api_test(showdown.env.raw_env(game=game), num_cycles=200)


def test_any_game_file_ten_players_passes_too(tmp_path: Path) -> None:
    game_file = tmp_path / "ten.game"
    game_file.write_text(format_gamedef(uneven_game("nolimit", (4000, 1000, 9000, 200, 5000, 7000, 3000, 2500, 8000, 6000))))
    env = showdown.env.env(game=str(game_file))
    api_test(env, num_cycles=200)
    assert len(env.possible_agents) == 10


def test_seeded_environments_repeat_themselves() -> None:
    seed_test(lambda: showdown.env.env(game="leduc"), num_cycles=50)


@pytest.mark.parametrize("log, game", [("kuhn.limit.2p.1000h.seed0.log", "kuhn"), ("leduc.limit.2p.1000h.seed0.log", "leduc"),
                                       ("holdem.nolimit.2p.reverse_blinds.1000h.seed0.log", "holdem-nolimit")])
def test_the_seed_deals_the_reference_dealers_cards_hand_after_hand(log: str, game: str) -> None:
    hands = parse_log((DATA / log).read_text().splitlines()).hands[:30]
    env = showdown.env.raw_env(game=game)
    env.reset(seed=0)
    for h in hands:
        assert env.hand_number == h.hand
        assert env.state.hole == h.hole
        assert env.state.board[: len(h.board_cards)] == h.board_cards
        env.reset()


def _play(env, choose) -> dict[str, float]:  # type: ignore[no-untyped-def]
    for _agent in env.agent_iter():
        obs, reward, done, truncated, info = env.last()
        env.step(None if done or truncated else choose(obs, info))
    return env._cumulative_rewards if hasattr(env, "_cumulative_rewards") else {}


def test_rewards_are_the_hands_payoffs_in_chips_or_big_blinds() -> None:
    chips, bb = showdown.env.raw_env(game="holdem-nolimit"), showdown.env.raw_env(game="holdem-nolimit", reward="bb")
    totals = {"chips": [], "bb": []}
    for env, unit in ((chips, "chips"), (bb, "bb")):
        env.reset(seed=3)
        for _agent in env.agent_iter():
            obs, reward, done, truncated, _ = env.last()
            if done:
                totals[unit].append(reward)
            env.step(None if done else int(np.flatnonzero(obs["action_mask"])[-1]))  # all in, always
    assert totals["chips"] == [100 * r for r in totals["bb"]] and sum(totals["chips"]) == 0 and max(totals["chips"]) == 20000


def test_no_limit_actions_are_pot_fractions_and_all_in_with_illegal_sizes_masked() -> None:
    game = get_game("holdem-nolimit")
    env = showdown.env.raw_env(game=game)
    env.reset(seed=0)
    actions = ActionMap(game)
    assert actions.names() == ["fold", "call", "raise 0.5 pot", "raise 1 pot", "raise 2 pot", "all in"]
    state = env.state  # the small blind to act: pot 150, 50 to call
    assert [actions.raise_to(state, i) for i in range(2, 6)] == [200, 300, 500, 20000]
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask.tolist() == [1, 1, 1, 1, 1, 1]
    env.step(4)  # raise 2 pot: to 500
    assert env.state.betting == "r500"
    env.step("r1750")  # an exact size, as ACPC text
    env.step(Action(ActionKind.RAISE, 5000))  # or as an Action
    assert env.state.betting == "r500r1750r5000"
    env.step(1)
    assert env.state.round == 1


def test_the_wrapped_env_ends_the_hand_on_an_illegal_action_with_a_penalty() -> None:
    env = showdown.env.env(game="kuhn")
    env.reset(seed=0)
    first = env.agent_selection
    env.step(0)  # fold with nothing to call: masked
    assert env.terminations[first] and env.rewards[first] == -1


def test_the_observation_is_what_the_seat_may_see() -> None:
    env = showdown.env.raw_env(game="leduc")
    env.reset(seed=4)
    a, b = env.possible_agents
    oa, ob = env.observe(a)["observation"], env.observe(b)["observation"]
    deck = get_game("leduc").deck_size
    assert oa[:deck].sum() == 1 and ob[:deck].sum() == 1 and not np.array_equal(oa[:deck], ob[:deck])
    assert oa[deck:2 * deck].sum() == 0  # no board card before the second round
    assert env.infos[env.agent_selection]["infoset"] == "Ks:/"  # the solvers' key: own card, no board, no betting


def test_the_bare_env_raises_on_an_illegal_action_and_out_of_range_ends_a_wrapped_hand() -> None:
    from showdown.errors import IllegalActionError

    bare = showdown.env.raw_env(game="kuhn")
    bare.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not legal"):
        bare.step(0)
    wrapped = showdown.env.env(game="kuhn")
    wrapped.reset(seed=0)
    first = wrapped.agent_selection
    wrapped.step(7)
    assert wrapped.terminations[first] and wrapped.rewards[first] == -1


@pytest.mark.parametrize("action", [1.5, float("nan"), [1], np.array([1]), True, np.True_, 3, -1, np.int64(99)])
def test_an_action_that_is_no_index_is_illegal_and_ends_a_wrapped_hand(action: object) -> None:
    # 1.5 and True were played as 1 (cut to an int; a bool is an int to Python); nan and [1] were a ValueError
    # and a TypeError from int()
    from showdown.errors import IllegalActionError

    bare = showdown.env.raw_env(game="kuhn")
    bare.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"^an action is an index from 0 to 2"):
        bare.step(action)  # type: ignore[arg-type]
    wrapped = showdown.env.env(game="kuhn")
    wrapped.reset(seed=0)
    first = wrapped.agent_selection
    wrapped.step(action)
    assert wrapped.terminations[first] and wrapped.rewards[first] == -1


def test_stepping_before_reset_or_after_the_hand_is_gymnasiums_reset_needed() -> None:
    """Not an AttributeError, an assertion or a KeyError 'player_0': the exception Gymnasium's own
    order checks raise, saying what to call."""
    from gymnasium.error import ResetNeeded

    env = showdown.env.raw_env(game="kuhn")
    with pytest.raises(ResetNeeded, match="reset"):
        env.step(1)
    with pytest.raises(ResetNeeded, match="reset"):
        env.observe("player_0")
    env.reset(seed=1)
    while env.agents:
        agent = env.agent_selection
        env.step(None if env.terminations[agent] else int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    with pytest.raises(ResetNeeded, match="hand is over"):
        env.step(1)
    env.reset()
    assert env.agents == env.possible_agents  # and the next hand plays


SHIPPED = ("kuhn", "kuhn3p", "leduc", "leduc3p", "holdem-limit", "holdem-nolimit", "holdem-limit-3p", "holdem-nolimit-3p")
ENVS = {name: showdown.env.raw_env(game=name) for name in SHIPPED}


@settings(max_examples=120, deadline=None, derandomize=True)
@given(name=st.sampled_from(SHIPPED), seed=st.integers(0, 2**40), data=st.data())
def test_random_legal_play_keeps_the_rules_order_zero_sum_rewards_and_stable_observations(name: str, seed: int, data: st.DataObject) -> None:
    """Each agent is selected exactly when the rules say it acts; once the hand is over every agent is
    stepped dead with None and sees its share, the shares summing to zero; observations keep one
    shape and dtype whoever looks, acting or not."""
    env = ENVS[name]
    env.reset(seed=seed)
    space = env.observation_space("player_0")
    got: dict[str, float] = {}
    for agent in env.agent_iter(max_iter=500):
        obs, reward, done, truncated, info = env.last()
        for a in env.agents:  # every agent's view, not just the one to act
            seen = env.observe(a)
            assert seen["observation"].shape == space["observation"].shape and seen["observation"].dtype == np.float32
            assert seen["action_mask"].shape == space["action_mask"].shape and seen["action_mask"].dtype == np.int8
        if done or truncated:
            assert env.state.finished and agent not in got
            got[agent] = reward
            env.step(None)
            continue
        assert not env.state.finished and agent == f"player_{env.state.current_player}"
        assert info["infoset"] and obs["action_mask"].any()
        env.step(int(data.draw(st.sampled_from(list(np.flatnonzero(obs["action_mask"]))))))
    assert sorted(got) == sorted(env.possible_agents) and not env.agents
    assert abs(sum(got.values())) < 1e-9
    assert [got[a] for a in env.possible_agents] == list(env.state.payoffs())


def test_render_shows_the_cards_and_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    # (it showed the betting and the chips in only: 'hand 0: State('cc/', round 1, spent [1, 1], p0 to act)')
    env = showdown.env.raw_env("leduc", render_mode="ansi")
    env.reset(seed=0)
    assert env.state is not None
    hole = [format_cards(h) for h in env.state.hole]
    assert env.render() == f"hand 0: State('', round 0, spent [1, 1], p0 to act), cards {hole[0]}|{hole[1]}"
    env.step(1)
    env.step(1)
    board = format_cards(env.state.visible_board())
    assert str(env.render()).endswith(f"cards {hole[0]}|{hole[1]}, board {board}") and board
    human = showdown.env.raw_env("leduc", render_mode="human")
    human.reset(seed=0)
    human.step(1)
    assert f"cards {hole[0]}|{hole[1]}" in capsys.readouterr().out


@pytest.mark.parametrize("penalty", ["x", float("nan"), float("inf"), True, [1]])
def test_an_illegal_reward_that_is_no_number_is_refused_when_the_env_is_made(penalty: object) -> None:
    # ('x' was 'could not convert string to float' at the first illegal action, nan a nan reward, True +1)
    with pytest.raises(ValueError, match="illegal_reward="):
        showdown.env.env("kuhn", illegal_reward=penalty)


def test_an_illegal_reward_may_be_any_finite_number() -> None:
    env = showdown.env.env("kuhn", illegal_reward=np.int64(-5))
    env.reset(seed=0)
    env.step(0)  # a fold when checking is free
    assert env.rewards == {"player_0": -5.0, "player_1": 0.0}

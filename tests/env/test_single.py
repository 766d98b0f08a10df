"""The Gymnasium wrapper against showdown agents, and a trained policy seated in a real match."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from showdown.agents.base import View  # noqa: E402
from showdown.env.single import PolicyAgent, SingleAgentEnv  # noqa: E402
from showdown.games.cards import format_cards  # noqa: E402
from showdown.games.catalog import get_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game, opponents", [("kuhn", ["rules"]), ("leduc", ["random"]), ("holdem-nolimit-3p", ["call", "random"])])
def test_gymnasiums_env_checker_passes(game: str, opponents: list[str]) -> None:
    check_env(SingleAgentEnv(game, opponents=opponents), skip_render_check=True)


def test_a_calling_station_against_always_call_breaks_even_in_every_position() -> None:
    env = SingleAgentEnv("kuhn", opponents=["call"])
    obs, info = env.reset(seed=0)
    results = []
    positions = set()
    for _ in range(400):
        done = False
        while not done:
            obs, reward, done, _, info = env.step(1)
        results.append(reward)
        positions.add(info["position"])
        obs, info = env.reset()
    assert positions == {0, 1}
    assert abs(np.mean(results)) < 0.25 and set(results) <= {-1.0, 1.0}  # both check it down: one chip won or lost


def test_the_policy_adapter_sees_the_numbers_the_env_gave() -> None:
    seen = []

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append((observation.copy(), mask.copy()))
        return 1

    game = get_game("leduc")
    env = SingleAgentEnv(game, opponents=["call"], position=0)
    obs, _ = env.reset(seed=5)
    agent = PolicyAgent(policy, game)
    assert env.state is not None
    agent.act(View.of(env.state, 0, 0))
    assert np.array_equal(seen[0][0], obs["observation"]) and np.array_equal(seen[0][1], obs["action_mask"])


def test_the_example_trains_in_the_env_and_its_win_rate_holds_in_the_dealer(tmp_path: Path) -> None:
    """examples/train_kuhn_policy.py: trained in well under a minute (CPU), measured in the env and
    in a real match (its own process, TCP) against the same agent: the two agree within the intervals."""
    for _ in range(2):  # run again, as README's 'python examples/train_kuhn_policy.py --out examples' may be: the
        # second run's match found the first one's logs, a LogExistsError traceback
        run = subprocess.run([sys.executable, str(ROOT / "examples" / "train_kuhn_policy.py"), "--hands", "10000",
                              "--play", "4000", "--out", str(tmp_path)], capture_output=True, text=True, timeout=600)  # fmt: skip
        assert run.returncode == 0, run.stdout + run.stderr
        assert "agree within the intervals" in run.stdout
    env_line = next(line for line in run.stdout.splitlines() if line.startswith("environment:"))
    assert float(env_line.split()[1]) > 0  # it learned to beat the rules agent


@pytest.mark.parametrize("action", [1.5, 1.0, float("nan"), None, "c", [1], np.array([1]), np.float64(2.0), True, False, np.True_, np.array(True),
                                    3, -1, np.int64(99)])  # (the three ints past the space were played as a call)
def test_an_action_that_is_no_index_is_refused_saying_what_an_action_is(action: object) -> None:
    # 1.5 was played as 1 (cut to an int); None, 'c', nan and [1] were TypeErrors and ValueErrors from int();
    # True was played as 1 (a bool is an int to Python, not an action)
    from showdown.errors import IllegalActionError

    env = SingleAgentEnv("kuhn", opponents=["call"], position=0)
    env.reset(seed=1)
    with pytest.raises(IllegalActionError, match=r"^an action is an index from 0 to 2 \(an int or a numpy integer\), not "):
        env.step(action)  # type: ignore[arg-type]
    for index in (np.int64(1), np.int32(1), np.array(1), 1):  # what Discrete holds still plays
        env.reset(seed=1)
        assert env.step(index)[1] in (-1.0, 1.0)  # type: ignore[arg-type]


def test_stepping_before_reset_or_after_the_hand_is_gymnasiums_reset_needed() -> None:
    from gymnasium.error import ResetNeeded

    env = SingleAgentEnv(game="kuhn", opponents=["call"])
    with pytest.raises(ResetNeeded, match="before step"):
        env.step(1)
    obs, _ = env.reset(seed=1)
    done = False
    while not done:
        obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(ResetNeeded, match="hand is over"):
        env.step(1)


class _FoldsWhenItCan:
    """An opponent that folds whenever a fold is legal (calls otherwise)."""

    def __init__(self) -> None:
        from showdown.agents.base import Agent
        from showdown.games.state import CALL, FOLD, Action

        class Folder(Agent):
            def act(self, view: View) -> Action:
                return FOLD if FOLD in view.legal_actions() else CALL

        self.agent = Folder()


def test_a_hand_the_opponents_end_before_the_learner_acts_is_no_episode() -> None:
    """An opponent folding to the learner's big blind ended the hand inside reset(): the observation had
    an all-zero mask and the next step() was ResetNeeded, so a plain training loop crashed (one reset
    in seven against 'random' in no-limit hold'em); reset now deals on, and says what it skipped."""
    env = SingleAgentEnv("holdem-nolimit", opponents=[_FoldsWhenItCan().agent])
    for i in range(6):
        obs, info = env.reset(seed=5 if i == 0 else None)
        assert obs["action_mask"].any() and info["position"] == 1  # the learner's turn: small blind, first to act
        assert (info["skipped_hands"], info["skipped_reward"], info["hand"]) == (1, 50.0, 2 * i + 1)  # its big blind's hand: won 50
        _, reward, done, _, _ = env.step(1)  # a call: the opponent checks it down, or the hand goes on
        while not done:
            _, reward, done, _, _ = env.step(1)


def test_opponents_that_never_let_the_learner_act_are_said_in_one_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from showdown.env import single

    monkeypatch.setattr(single, "MAX_SKIPPED_HANDS", 20)
    env = SingleAgentEnv("holdem-nolimit", opponents=[_FoldsWhenItCan().agent], position=0)
    with pytest.raises(RuntimeError, match="ended 20 hands in a row before position 0 could act"):
        env.reset(seed=1)


def test_a_numpy_integer_seed_deals_as_the_same_int_and_a_negative_one_is_our_error() -> None:
    # gymnasium refused np.int64(3) ("Seed must be a python integer") and said of -1 only its own Error
    env = SingleAgentEnv("kuhn")
    first, _ = env.reset(seed=np.int64(3))  # type: ignore[arg-type]
    again, _ = SingleAgentEnv("kuhn").reset(seed=3)
    assert all(np.array_equal(first[k], again[k]) for k in first)
    with pytest.raises(ValueError, match="expected a non-negative integer"):
        env.reset(seed=-1)


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"reward": "BB"}, "reward='BB': give 'chips' or 'bb'"),  # was taken as big blinds without a word
    ({"reward": "chip"}, "reward='chip': give 'chips' or 'bb'"),
    ({"opponents": [None]}, "an opponent is a built-in agent's name or an Agent, not None"),  # an AttributeError in reset()
    ({"position": 1.5}, r"position=1.5: give 0 to 1"),  # every seat an opponent's: a KeyError in reset()
    ({"position": True}, r"position=True: give 0 to 1"),
])  # fmt: skip
def test_arguments_the_environment_cannot_mean_are_refused_when_it_is_made(kwargs: dict[str, object], says: str) -> None:
    with pytest.raises(ValueError, match=f"^{says}$"):
        SingleAgentEnv("kuhn", **{"opponents": ["rules"], **kwargs})  # type: ignore[arg-type]


def test_one_opponent_may_be_given_as_a_name_and_a_position_as_a_numpy_integer() -> None:
    """opponents='rules' was taken letter by letter: 'kuhn has 2 players: give 1 opponents, not 5'."""
    env = SingleAgentEnv("kuhn", opponents="rules", position=np.int64(1))  # type: ignore[arg-type]
    assert env.reset(seed=3)[1]["position"] == 1
    assert type(env.fixed_position) is int


def test_an_exact_size_is_taken_as_an_action_and_its_text_is_refused() -> None:
    """What the README says of ``SingleAgentEnv``: indices and ``Action``s (an exact raise size), not the
    AEC env's ACPC text."""
    from showdown.errors import IllegalActionError
    from showdown.games.state import Action, ActionKind

    env = SingleAgentEnv("holdem-nolimit", opponents=["call"], position=1)
    env.reset(seed=2)
    with pytest.raises(IllegalActionError, match="an action is an index"):
        env.step("r750")  # type: ignore[arg-type]
    env.step(Action(ActionKind.RAISE, 750))  # type: ignore[arg-type]
    assert env.state.betting.startswith("r750")  # the learner's raise, then the caller's call


@pytest.mark.parametrize("game, position", [("kuhn", 1), ("holdem-nolimit", 0)])
def test_a_policy_choosing_a_masked_action_calls_in_a_match_as_in_training(game: str, position: int) -> None:
    # (PolicyAgent raised 'action 0 (fold) is not legal': the bot exited and the dealer played its seat,
    # where SingleAgentEnv had played the same answer as a call)
    from showdown.errors import IllegalActionError
    from showdown.games.state import CALL

    g = get_game(game)
    env = SingleAgentEnv(g, opponents=["call"], position=position)
    obs, _ = env.reset(seed=0)
    assert env.state is not None and not obs["action_mask"][0]  # checking is free: fold is masked
    view = View.of(env.state, position, 0)
    assert PolicyAgent(lambda o, m: 0, g).act(view) == CALL
    with pytest.raises(IllegalActionError, match="an action is an index"):
        PolicyAgent(lambda o, m: np.float32(2.7), g).act(view)  # type: ignore[arg-type,return-value]


def test_render_shows_the_hand_as_the_pettingzoo_env_does(capsys: pytest.CaptureFixture[str]) -> None:
    # (render_mode= was a TypeError, and render() gymnasium's NotImplementedError)
    env = SingleAgentEnv("leduc", opponents=["call"], position=0, render_mode="ansi")
    check_env(env)
    env.reset(seed=0)
    assert env.state is not None
    assert env.render() == f"hand 0: State('', round 0, spent [1, 1], p0 to act), cards {'|'.join(map(format_cards, env.state.hole))}"
    human = SingleAgentEnv("leduc", opponents=["call"], position=0, render_mode="human")
    human.reset(seed=0)
    human.step(1)
    assert "hand 0: State('cc/'" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode='rgb_array'"):
        SingleAgentEnv("leduc", opponents=["call"], render_mode="rgb_array")

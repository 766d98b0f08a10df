"""``matches.probing``: a probe's match gives a figure only when it measured the bot."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from showdown.errors import ShowdownError
from showdown.matches.config import AgentSpec
from showdown.matches.probing import match_name, play_opponent, play_opponents

HOSTILE = Path(__file__).with_name("hostile_bot.py")


def test_a_match_where_the_dealer_played_for_the_bot_gives_no_figure(tmp_path: Path) -> None:
    """A bot that answers junk (or starts too late, or times out) is played by the dealer: its
    check/fold would pass for the bot's own play, so no lower bound may come of it, nor be kept."""
    bot = AgentSpec(command=f"{sys.executable} {HOSTILE} junk", label="junk")
    with pytest.raises(ShowdownError, match="not a measurement: DEGRADED MATCH: the dealer played for junk"):
        play_opponent("kuhn", bot, "call", hands=40, seed=3, folder=tmp_path)
    assert not list(tmp_path.glob("*.opponent.json"))
    with pytest.raises(ShowdownError, match="not a measurement"):  # asked again: played again, not read back
        play_opponent("kuhn", bot, "call", hands=40, seed=3, folder=tmp_path)


TOUCHY = """from showdown.agents import CALL, Agent, run_bot


class Touchy(Agent):
    def act(self, view):
        if view.to_call() > 0:
            raise RuntimeError("cannot face a bet")
        return CALL


if __name__ == "__main__":
    raise SystemExit(run_bot(Touchy))
"""


def touchy_bot(folder: Path) -> Path:
    """A bot file that crashes the first time it faces a bet: fine against ``call``, gone against a raiser."""
    path = folder / "touchy.py"
    path.write_text(TOUCHY)
    return path


def test_a_bot_the_dealer_played_for_against_one_opponent_keeps_the_others_figures(tmp_path: Path) -> None:
    """The opponent that broke the bot gets no figure, with the bot's own error; the others stand."""
    bot = AgentSpec(command=f"{sys.executable} {touchy_bot(tmp_path)}", label="touchy")
    results, missing = play_opponents("kuhn", bot, ["probe-raise", "call"], hands=10, seed=0, folder=tmp_path / "out")
    assert [r.name for r in results] == ["call"] and [m.name for m in missing] == ["probe-raise"]
    assert "not a measurement: DEGRADED MATCH: the dealer played for touchy" in missing[0].reason
    assert "touchy.py:7: RuntimeError: cannot face a bet" in missing[0].reason


def test_a_well_behaved_bot_gets_its_figure_kept_for_a_resume(tmp_path: Path) -> None:
    result = play_opponent("kuhn", AgentSpec(name="rules"), "call", hands=200, seed=3, folder=tmp_path)
    assert result.hands == 400 and result.ci95_mbb[0] <= result.mbb <= result.ci95_mbb[1]
    assert len(list(tmp_path.glob("*.opponent.json"))) == 1
    match_result = json.loads((tmp_path / "call-vs-rules-3-200.result.json").read_text())
    assert match_result["paired_deals"] == 200  # the match's own result, which the view reads, is left whole
    settings = json.loads((tmp_path / "call-vs-rules-3-200.match.json").read_text())
    assert settings["in_memory"] is True  # both built-ins seated in the runner's process, no TCP
    assert not list(tmp_path.glob("*.stderr"))  # (an agent process's output would be copied there)
    assert play_opponent("kuhn", AgentSpec(name="rules"), "call", hands=200, seed=3, folder=tmp_path) == result


def test_a_bot_with_other_options_is_not_read_back_as_the_plain_one(tmp_path: Path) -> None:
    """The kept figure is the bot's with its options: ``cfr -o search=off`` is another bot than ``cfr``
    (a resume once read one's figure for the other), and so is another command line."""
    play_opponent("kuhn", AgentSpec(name="random"), "call", hands=100, seed=3, folder=tmp_path)
    play_opponent("kuhn", AgentSpec(name="random", options={"seed": 7}), "call", hands=100, seed=3, folder=tmp_path)
    assert len(list(tmp_path.glob("*.opponent.json"))) == 2
    assert match_name(AgentSpec(command="python a.py --x 1"), "call", 3, 100) != match_name(
        AgentSpec(command="python a.py --x 2"), "call", 3, 100)


def test_the_cfr_opponent_is_its_blueprint_without_search_and_is_kept_apart(tmp_path: Path) -> None:
    from showdown.matches.probing import opponent_spec

    assert dict(opponent_spec("cfr").options) == {"search": "off"} and dict(opponent_spec("call").options) == {}
    assert "search_off" in match_name(AgentSpec(name="rules"), "cfr", 1, 10)
    result = play_opponent("leduc", AgentSpec(name="rules"), "cfr", hands=10, seed=1, folder=tmp_path)
    assert result.hands == 20 and list(tmp_path.glob("cfr-search_off-vs-rules-1-10*"))


def test_a_bot_file_edited_since_is_played_again_not_read_back(tmp_path: Path) -> None:
    """A kept figure is the bot's as it was: after its file changed (same name, same command), a
    resume must measure the new bot, not hand back the old one's figure (``matches.kept``)."""
    bot_file = tmp_path / "bot.py"
    source = (Path(__file__).parents[2] / "examples" / "my_bot.py").read_text()
    bot_file.write_text(source)
    bot = AgentSpec(command=f"{sys.executable} {bot_file}", label="bot")
    folder = tmp_path / "run"
    first = play_opponent("kuhn", bot, "call", hands=60, seed=3, folder=folder)
    kept = next(folder.glob("*.opponent.json"))
    stamp = kept.stat().st_mtime_ns
    assert play_opponent("kuhn", bot, "call", hands=60, seed=3, folder=folder) == first  # unchanged: read back
    assert kept.stat().st_mtime_ns == stamp
    bot_file.write_text(source + "\n# edited\n")
    play_opponent("kuhn", bot, "call", hands=60, seed=3, folder=folder)
    assert kept.stat().st_mtime_ns != stamp  # played again and kept anew


def test_a_kept_figure_of_another_showdown_or_unreadable_is_not_read_back(tmp_path: Path) -> None:
    from showdown.matches import kept

    bot = AgentSpec(name="rules")
    path = tmp_path / "x.opponent.json"
    kept.write(path, {"mbb": 1.0}, bot)
    assert kept.read(path, bot) == {"mbb": 1.0}
    assert kept.read(path, AgentSpec(name="rules", options={"seed": 1})) is None
    doc = json.loads(path.read_text())
    path.write_text(json.dumps({**doc, "fingerprint": "0" * 64}))  # measured by other code or data
    assert kept.read(path, bot) is None
    path.write_text(json.dumps({"mbb": 1.0}))  # kept before fingerprints
    assert kept.read(path, bot) is None
    path.write_text("{not json")
    assert kept.read(path, bot) is None


@pytest.mark.parametrize(("bot", "says"), [
    (AgentSpec(name="no-such-agent"), "unknown agent 'no-such-agent'"),
    (AgentSpec(name="rules", options={"no_such_option": 1}), "no_such_option"),
])
def test_a_bot_no_match_could_start_is_refused_before_any_folder_or_match(tmp_path: Path, bot: AgentSpec, says: str) -> None:
    folder = tmp_path / "out" / "probes"
    with pytest.raises(ShowdownError, match=says):
        play_opponents("kuhn", bot, ["probe-bet", "call"], hands=10, seed=0, folder=folder)
    assert not (tmp_path / "out").exists()


def test_a_kept_result_of_another_shape_is_played_again_not_a_traceback() -> None:
    from showdown.matches.probing import OpponentResult

    good = OpponentResult("call", 12.5, (-1.0, 26.0), 100, "chance (duplicate)", 0)
    assert OpponentResult.from_json(good.to_json()) == good
    for bad in ({}, {**good.to_json(), "ci95_mbb": 5}, {**good.to_json(), "mbb": "x"}, {**good.to_json(), "ci95_mbb": [1]}):
        assert OpponentResult.from_json(bad) is None

"""Match configuration files: everything the flags give, and clear errors naming the key."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.errors import ConfigError
from showdown.matches.config import AgentSpec, DealerSettings, load_match_config, merge_config


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "match.yaml"
    path.write_text(text)
    return path


def test_a_full_config(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
game: leduc
hands: 500
seed: 9
fixed-seats: true
out: logs
name: my-match
agents:
  - rules
  - {name: random, seed: 3, options: {sizing: pot}}
  - {command: "./mybot --fast", label: mine}
dealer: {t_response_ms: 1000, start_timeout_ms: 2000, on_timeout: call}
""",
    )
    fields = load_match_config(path)
    assert fields["game"] == "leduc" and fields["hands"] == 500 and fields["seed"] == 9
    assert fields["fixed_seats"] is True and fields["out"] == Path("logs") and fields["name"] == "my-match"
    assert fields["agents"] == (
        AgentSpec(name="rules"),
        AgentSpec(name="random", seed=3, options={"sizing": "pot"}),
        AgentSpec(command="./mybot --fast", label="mine"),
    )
    assert fields["dealer"] == DealerSettings(t_response_ms=1000, start_timeout_ms=2000, on_timeout="call")
    assert fields["agents"][2].display == "mine"
    assert AgentSpec(command="/usr/bin/my_bot.py -x").display == "my_bot"


def test_flags_override_the_file(tmp_path: Path) -> None:
    fields = load_match_config(write(tmp_path, "game: kuhn\nhands: 10\nagents: [random, call]\n"))
    config = merge_config(fields, hands=99, seed=None, agents=(AgentSpec(name="rules"), AgentSpec(name="bluff")))
    assert config.game == "kuhn" and config.hands == 99 and config.seed == 0
    assert [a.name for a in config.agents] == ["rules", "bluff"]


def test_a_flag_can_say_false_over_the_file_s_true(tmp_path: Path) -> None:
    # 'flags given win over the file', but a file's duplicate, fixed_seats, until_separated or force
    # true could not be turned off from the command line (the flags had no --no- form)
    from showdown.cli.main import build_parser
    from showdown.matches.settings import MATCH_SETTINGS, flag_values

    path = write(tmp_path, "game: kuhn\nhands: 10\nduplicate: true\nfixed_seats: true\nuntil_separated: true\nforce: true\n"
                           "agents: [random, call]\n")
    no = ["--no-duplicate", "--no-fixed-seats", "--no-until-separated", "--no-force"]
    args = build_parser("match").parse_args(["match", "--config", str(path), *no])
    config = merge_config(load_match_config(path), **flag_values(args, MATCH_SETTINGS, "match"))
    assert not (config.duplicate or config.fixed_seats or config.until_separated or config.force)
    args = build_parser("match").parse_args(["match", "--config", str(path)])
    config = merge_config(load_match_config(path), **flag_values(args, MATCH_SETTINGS, "match"))
    assert config.duplicate and config.fixed_seats and config.until_separated and config.force


@pytest.mark.parametrize(
    "text,message",
    [
        ("gmae: kuhn\n", r"match.yaml:1: gmae: unknown key 'gmae': did you mean 'game'\? \(known keys: address, agents, chance_boards, dealer, duplicate"),
        ("game: kuhn\nhands: -3\n", r"match.yaml:2: hands: expected an integer 1 to 4294967295, got -3"),
        ("hands: many\n", r"hands: expected an integer"),
        ("game: kuhn\nhands: 5000000000\n", r"match.yaml:2: hands: expected an integer 1 to 4294967295, got 5000000000"),
        ("seed: 1.5\n", r"seed: expected an integer"),
        ("fixed_seats: yes please\n", r"fixed_seats: expected true or false"),
        ("agents: random\n", r"agents: expected a list of agents"),
        ("agents: [{name: random, command: x}]\n", r"agents\[0\]: give exactly one of 'name'"),
        ("agents: [{name: random, sizing: pot}]\n", r"agents\[0\].sizing: unknown key 'sizing'.*agent settings go under 'options'"),
        ("agents:\n  - random\n  - name: call\n    seed: x\n", r"match.yaml:4: agents\[1\].seed: expected a seed from 0"),
        ("estimator: best\n", r"match.yaml:1: estimator: expected one of plain, duplicate, aivat"),
        ("jobs: 0\n", r"jobs: expected an integer >= 1"),
        ("agents: [{name: random, seed: -1}]\n", r"agents\[0\].seed: expected a seed from 0 to 4294967295, got -1"),
        # beyond 32 bits: the agent process (showdown agent --seed) refuses it, as every command does
        ("agents: [{name: random, seed: 4294967296}]\n", r"agents\[0\].seed: expected a seed from 0 to 4294967295"),
        ("agents: [{name: random, options: [1]}]\n", r"agents\[0\].options: expected a mapping"),
        ("agents: [{command: ./bot, options: {a: 1}}]\n", r"agents\[0\].options: a command agent takes no options"),
        ("agents: [{name: random, label: 'a b'}]\n", r"agents\[0\].label"),
        ("agents: [3]\n", r"agents\[0\]: an agent is a name or a mapping"),
        ("agents: [{command: 'sh -c \"x'}]\n", r"match.yaml:1: agents\[0\].command: command .* cannot be read: no closing quotation"),
        ("dealer: {t_response: 5}\n", r"dealer: unknown key 't_response': did you mean 't_response_ms'\? \(dealer keys:"),
        ("dealer: {on_timeout: explode}\n", r"dealer.on_timeout: expected one of fold, call, abort"),
        ("- just\n- a list\n", r"expected a mapping of settings"),
        ("game: kuhn\nname: ../../etc\n", r"match.yaml:2: name: '../../etc' may use only letters"),  # (was 'match:', no line)
        ("game: kuhn\nhands: 3\n5: 3\n", r"match.yaml:3: \[5\]: unknown key 5"),  # (a key read as a number or null was said at line 1)
        ("game: kuhn\nhands: 3\n~: 3\n", r"match.yaml:3: None: unknown key None"),
        ("game: kuhn\nhands: 3\nqwxz: 3\n", r"qwxz: unknown key 'qwxz' \(known keys: "),  # (was "'qwxz': (known keys", a colon before nothing)
        ("game: kuhn\nhands: [1\n", r"match.yaml:3: not valid YAML"),
        # a text YAML read as a number: 'label: 2023' was told "2023 may use only letters and digits"
        ("agents: [{name: random, label: 2023}]\n", r"agents\[0\].label: expected a label, got 2023 \(YAML read a number: put the text in quotes\)"),
        ("game: kuhn\nname: 0755\n", r"match.yaml:2: name: expected a match name, got 493 \(YAML read a number: put the text in quotes\)"),
    ],
)
def test_errors_name_the_file_and_the_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_match_config(write(tmp_path, text))


@pytest.mark.parametrize("raw", [b"game: caf\xe9\n", b"game: kuhn\n\x00\x01\xff\xfe\n"])
def test_a_file_that_is_not_utf8_is_one_error_naming_its_line(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "match.yaml"
    path.write_bytes(raw)
    line = raw.count(b"\n", 0, raw.index(b"\xe9") if b"\xe9" in raw else raw.index(b"\xff")) + 1
    with pytest.raises(ConfigError, match=rf"match.yaml:{line}: not UTF-8 text .*save the config file as UTF-8"):
        load_match_config(path)


def test_a_command_no_shell_could_read_is_refused_before_the_match() -> None:
    from showdown.matches.config import MatchConfig

    for command, says in (("./bot 'unclosed", "no closing quotation"), ("  ", "the command is empty")):
        config = MatchConfig(game="kuhn", agents=(AgentSpec(command=command), AgentSpec(name="call")))
        with pytest.raises(ConfigError, match=f"match: seat 1: .*{says}"):
            config.check()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_no_one_writes_to_is_read_as_empty_not_waited_for(tmp_path: Path) -> None:
    # open() waited for a writer: the command hung, silent, for ever
    os.mkfifo(tmp_path / "pipe.yaml")
    done = subprocess.run([sys.executable, "-m", "showdown", "match", "--config", str(tmp_path / "pipe.yaml")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.startswith("showdown match: error: no game given"), done.stderr
    fed = subprocess.run([sys.executable, "-m", "showdown", "match", "--config", "/dev/stdin"],
                         input="game: kuhn\nhands: 0\nagents: [random, call]\n", capture_output=True, text=True, timeout=60)
    assert fed.returncode == 2 and "/dev/stdin:2: hands: expected an integer" in fed.stderr  # a pipe with a writer is read


def test_an_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"cannot read config file .*nothing.yaml"):
        load_match_config(tmp_path / "nothing.yaml")


def test_missing_game_or_agents() -> None:
    with pytest.raises(ConfigError, match="no game given"):
        merge_config({}, agents=(AgentSpec(name="call"), AgentSpec(name="call")))
    with pytest.raises(ConfigError, match="no agents given"):
        merge_config({"game": "kuhn"})
    with pytest.raises(ConfigError, match="at least two agents"):
        merge_config({"game": "kuhn", "agents": (AgentSpec(name="call"),)})


_LAUGHS = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10))


@pytest.mark.parametrize(
    "text, message",
    [
        # 9^10 values once expanded: walking them for the lines of the keys was a hang without end
        (_LAUGHS + "game: kuhn\n", r"match.yaml:\d+: this value holds more than 100,000 values"),
        # an alias inside its own anchor: was a RecursionError traceback
        ("game: kuhn\nagents: &x [random, *x]\n", r"match.yaml:2: an alias refers to a value that holds it"),
        # nesting deeper than Python's recursion limit: was a RecursionError traceback from PyYAML itself
        ("game: kuhn\nagents: " + "[" * 3000 + "]" * 3000 + "\n", r"match.yaml: values are nested more than 64 deep"),
        ("game: kuhn\nagents: " + "[" * 100 + "]" * 100 + "\n", r"match.yaml:2: values are nested more than 64 deep"),
        # PyYAML kept the last of two equal keys without a word: the user's first 'game' was ignored
        ("game: kuhn\nhands: 3\ngame: leduc\n", r"match.yaml:3: game: this key is given twice in the same mapping"),
        ("agents: [{name: call, seed: 1, seed: 2}]\n", r"match.yaml:1: seed: this key is given twice"),
    ],
)
def test_hostile_yaml_is_one_error_at_once(tmp_path: Path, text: str, message: str) -> None:
    import time

    started = time.perf_counter()
    with pytest.raises(ConfigError, match=message):
        load_match_config(write(tmp_path, text))
    assert time.perf_counter() - started < 5


def test_a_merge_key_may_be_overridden(tmp_path: Path) -> None:
    """``<<: *base`` then a key of the merged mapping is YAML's override, not a repeated key."""
    path = write(tmp_path, "game: kuhn\nagents: [random, {<<: {name: call, seed: 1}, seed: 2}]\n")
    assert load_match_config(path)["agents"][1] == AgentSpec(name="call", seed=2)


def test_a_file_far_too_large_for_a_config_is_refused_unread(tmp_path: Path) -> None:
    """A 1 GB log given as --config by mistake (or /dev/zero) was read whole, then parsed for minutes:
    now the first MiB is enough to say it is no config file."""
    path = tmp_path / "match.log"
    path.write_text("STATE:0:cc:Ks|As:-1|1:a|b\n" * 60_000)  # 1.6 MB
    with pytest.raises(ConfigError, match=r"match.log: over 1 MiB: not a config file"):
        load_match_config(path)
    with pytest.raises(ConfigError, match=r"/dev/zero: over 1 MiB: not a config file"):
        load_match_config("/dev/zero")


@pytest.mark.parametrize("line", ["hands: {d}", "seed: {d}", "dealer: {{t_response_ms: {d}}}"])
def test_a_number_of_thousands_of_digits_is_one_line_naming_it(tmp_path: Path, line: str) -> None:
    """Python's int() refuses more than 4,300 digits: PyYAML's ValueError was a traceback from match and tournament."""
    path = tmp_path / "m.yaml"
    path.write_text("game: kuhn\nagents: [random, call]\n" + line.format(d="9" * 5000) + "\n")
    with pytest.raises(ConfigError, match=r"m\.yaml:3: a number of 5,000 digits \(Python reads at most 4,300\)"):
        load_match_config(path)


def test_an_agent_option_of_thousands_of_digits_is_one_short_line() -> None:
    """-o seed=<5,000 digits>: YAML's reading of the value was a ValueError traceback; it is now the text, refused as
    the int it is not, quoted in at most 60 characters."""
    from showdown.agents.registry import check_options
    from showdown.matches.agent_words import parse_option

    seat, key, value = parse_option("seed=" + "9" * 5000)
    assert (seat, key, value) == (None, "seed", "9" * 5000)
    with pytest.raises(ConfigError, match="option 'seed' must be int") as caught:
        check_options("random", {"seed": value})
    assert len(str(caught.value)) < 150


def test_a_strategy_file_beside_the_config_is_found_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a command's files were taken from the YAML file's folder, an option's file from the current folder
    # only: 'strategy: s.json' beside the file failed ('strategy file s.json does not exist') run from elsewhere
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "s.json").write_text("{}")
    (tmp_path / "cfg" / "match.yaml").write_text(
        "game: kuhn\nagents:\n  - {name: equilibrium, options: {strategy: s.json}}\n"
        "  - {name: exploiter, options: {opponent_strategy: missing.json}}\n")
    monkeypatch.chdir(tmp_path)
    agents = load_match_config(Path("cfg/match.yaml"))["agents"]
    assert agents[0].options == {"strategy": str((tmp_path / "cfg" / "s.json").resolve())}
    assert agents[1].options == {"opponent_strategy": "missing.json"}  # not there: from the current folder, as before


def test_a_game_file_beside_the_match_file_is_found_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a tournament file's 'game: my.game' was looked for beside it, a match file's in the current folder only:
    # run from elsewhere it was "unknown game 'my.game'"
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "my.game").write_text("GAMEDEF\nlimit\nEND GAMEDEF\n")
    (tmp_path / "cfg" / "match.yaml").write_text("game: my.game\nagents: [rules, random]\n")
    (tmp_path / "cfg" / "other.yaml").write_text("game: kuhn\nagents: [rules, random]\n")
    monkeypatch.chdir(tmp_path)
    assert load_match_config(Path("cfg/match.yaml"))["game"] == str((tmp_path / "cfg" / "my.game").resolve())
    assert load_match_config(Path("cfg/other.yaml"))["game"] == "kuhn"


def test_a_match_file_saying_executor_local_is_played_without_duplicate(tmp_path: Path) -> None:
    # 'executor: local' (the default) in a plain match's file was refused: '--executor and --address say where
    # duplicate halves run: add --duplicate'; a Ray executor or address without --duplicate still is
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    for executor, status in (("local", 0), ("ray", 2)):
        path = write(tmp_path, f"game: kuhn\nhands: 5\nexecutor: {executor}\nout: out\nforce: true\nagents: [rules, call]\n")
        done = subprocess.run([sys.executable, "-m", "showdown", "match", "--config", str(path)], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == status, done.stderr
    assert "add --duplicate" in done.stderr

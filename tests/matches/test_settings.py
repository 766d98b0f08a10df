"""One declaration per setting: the flags, the files' keys, the JSON round trip, the API's keywords
and the README's table all come from ``matches.settings``, and agree with each other."""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
from pathlib import Path

import pytest

from showdown.errors import ConfigError
from showdown.evaluation.estimators import Estimator
from showdown.matches.config import (
    AgentSpec,
    DealerSettings,
    MatchConfig,
    config_from_json,
    config_to_json,
    load_match_config,
    merge_config,
    parse_limits,
)
from showdown.matches.sandbox import Limits
from showdown.matches.settings import (
    DEALER_SETTINGS,
    LIMIT_SETTINGS,
    MATCH_SETTINGS,
    ExecutorName,
    Setting,
    keys_table,
)
from showdown.matches.tournament_config import TournamentConfig, load_tournament_config
from showdown.server.dealer import OnTimeout
from showdown.server.tcp import DealerOptions

ROOT = Path(__file__).resolve().parents[2]


def _parser(add: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers()
    if add == "match":
        from showdown.cli.match import add_match_parser

        return add_match_parser(subparsers)
    if add == "tournament":
        from showdown.cli.tournament import add_tournament_parser

        return add_tournament_parser(subparsers)
    from showdown.cli.dealer import add_dealer_parser

    return add_dealer_parser(subparsers)


def _long_flags(parser: argparse.ArgumentParser) -> set[str]:
    """Each option's first long spelling (aliases such as ``--t_response`` are the same flag)."""
    out = set()
    for action in parser._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        if longs and action.dest != "help":
            out.add(longs[0])
    return out


def test_the_declarations_are_the_dataclasses_fields_one_to_one() -> None:
    assert [s.key for s in MATCH_SETTINGS] == [f.name for f in dataclasses.fields(MatchConfig)]
    assert [s.key for s in DEALER_SETTINGS] == [f.name for f in dataclasses.fields(DealerSettings)]
    assert [s.key for s in LIMIT_SETTINGS] == [f.name for f in dataclasses.fields(Limits)]
    tournament_fields = {f.name for f in dataclasses.fields(TournamentConfig)}
    assert {s.key for s in MATCH_SETTINGS if "tournament" in s.scopes} <= tournament_fields


@pytest.mark.parametrize("settings", [MATCH_SETTINGS, DEALER_SETTINGS, LIMIT_SETTINGS])
def test_a_setting_without_a_flag_or_a_key_says_why(settings: tuple[Setting, ...]) -> None:
    for s in settings:
        assert s.help, s.key
        assert s.flag or s.no_flag, f"{s.key}: no flag and no reason"
        if s.flag:
            assert not s.no_flag, f"{s.key}: a flag and a reason for none"


def test_every_match_flag_is_a_setting_or_a_command_flag_that_says_why() -> None:
    from showdown.cli.match import COMMAND_FLAGS

    declared = {s.flag for s in (*MATCH_SETTINGS, *DEALER_SETTINGS) if s.flags_of("match")}
    flags = _long_flags(_parser("match"))
    assert flags == declared | set(COMMAND_FLAGS)
    assert not declared & set(COMMAND_FLAGS)
    assert all(COMMAND_FLAGS.values())


def test_every_match_key_has_its_flag_unless_the_declaration_says_why() -> None:
    flags = _long_flags(_parser("match"))
    for s in (*MATCH_SETTINGS, *DEALER_SETTINGS):
        if s.no_key:
            continue
        assert s.flag in flags or s.no_flag, s.key


def test_the_flags_that_a_match_file_rejected_are_keys_now(tmp_path: Path) -> None:
    """until_ci, until_separated, executor and address were flags a match file refused."""
    path = tmp_path / "m.yaml"
    path.write_text("game: kuhn\nagents: [rules, call]\nduplicate: true\nexecutor: local\naddress: 10.0.0.5:6379\n")
    config = merge_config(load_match_config(path))
    assert config.executor is ExecutorName.LOCAL and config.address == "10.0.0.5:6379"
    path.write_text("game: kuhn\nagents: [rules, call]\nuntil_ci: 12.5\nuntil_separated: true\n")
    config = merge_config(load_match_config(path))
    assert config.until_ci == 12.5 and config.until_separated is True
    path.write_text("game: kuhn\nagents: [rules, call]\nuntil_ci: 0\n")
    with pytest.raises(ConfigError, match="until_ci: expected a half-width in chips per 100 hands, above 0"):
        load_match_config(path)


def test_every_tournament_flag_is_a_setting_or_a_command_flag() -> None:
    from showdown.cli.tournament import COMMAND_FLAGS

    declared = {s.flag for s in (*MATCH_SETTINGS, *DEALER_SETTINGS) if s.flags_of("tournament")}
    assert _long_flags(_parser("tournament")) == declared | set(COMMAND_FLAGS)
    for s in (*MATCH_SETTINGS, *DEALER_SETTINGS):
        if "tournament" in s.scopes and not s.flags_of("tournament"):
            assert s.no_flag or s.no_flag_in.get("tournament"), s.key


def test_the_dealers_time_flags_are_the_declared_ones_with_the_references_defaults() -> None:
    parser = _parser("dealer")
    flags = _long_flags(parser)
    assert {s.flag for s in DEALER_SETTINGS} <= flags
    from showdown.cli.dealer import options_from_args

    args = parser.parse_args(["m", "kuhn", "10", "3", "a", "b"])
    options = options_from_args(args)
    reference = DealerOptions()
    for s in DEALER_SETTINGS:
        assert getattr(options, s.key) == getattr(reference, s.key), s.key
    args = parser.parse_args(["m", "kuhn", "10", "3", "a", "b", "--on-timeout", "abort", "--start-timeout", "-1"])
    options = options_from_args(args)
    assert options.on_timeout is OnTimeout.ABORT and options.start_timeout_ms is None


def test_a_match_flag_beats_the_file_and_dealer_flags_join_the_files_dealer_section(tmp_path: Path) -> None:
    from showdown.cli.match import match_config

    path = tmp_path / "m.yaml"
    path.write_text("game: kuhn\nagents: [rules, call]\nhands: 50\ndealer: {t_hand_ms: 900, on_timeout: call}\n")
    parser = _parser("match")
    args = parser.parse_args(["--config", str(path), "--hands", "70", "--t-response", "300", "--estimator", "duplicate",
                              "--out", str(tmp_path / "logs")])
    config = match_config(args)
    assert config.hands == 70 and config.duplicate and config.estimator is Estimator.DUPLICATE
    assert config.dealer == DealerSettings(t_response_ms=300, t_hand_ms=900, on_timeout=OnTimeout.CALL)


def test_enums_are_typed_from_the_file_and_through_json(tmp_path: Path) -> None:
    path = tmp_path / "m.yaml"
    path.write_text("game: kuhn\nagents: [rules, call]\nestimator: plain\ndealer: {on_timeout: call}\n")
    config = merge_config(load_match_config(path))
    assert config.estimator is Estimator.PLAIN and config.dealer.on_timeout is OnTimeout.CALL
    again = config_from_json(json.loads(json.dumps(config_to_json(config))))
    assert again.estimator is Estimator.PLAIN and again.dealer.on_timeout is OnTimeout.CALL


def test_every_setting_survives_the_json_round_trip() -> None:
    """Each declared setting set away from its default, through JSON text and back."""
    config = MatchConfig(
        game="leduc",
        agents=(AgentSpec(name="rules", seed=3, options={"a": 1}), AgentSpec(command="./bot x", token=False, limits=Limits(cpu_s=9))),
        hands=77, seed=5, fixed_seats=True, out=Path("x/y"), name="n", progress=True, duplicate=True,
        estimator=Estimator.AIVAT, jobs=3, force=True, resume=True, executor=ExecutorName.RAY, until_ci=3.5,
        until_separated=True, address="h:1", max_replaced=0.5, sandbox=True, in_memory=True, chance_boards=500,
        dealer=DealerSettings(t_response_ms=1, t_hand_ms=2, t_per_hand_ms=3, start_timeout_ms=None, reconnect_ms=4,
                              on_timeout=OnTimeout.ABORT, spin_us=5),
    )
    doc = config_to_json(config)
    assert set(doc) == {s.key for s in MATCH_SETTINGS}
    assert config_from_json(json.loads(json.dumps(doc))) == config
    for s in MATCH_SETTINGS:
        default = MatchConfig.__dataclass_fields__[s.key].default
        if s.key not in ("game", "agents", "dealer"):
            assert getattr(config, s.key) != default, f"{s.key} is left at its default: the test would not see it lost"


def test_the_api_takes_the_files_keys_as_keywords_and_names_a_misspelt_one() -> None:
    from showdown.api import _config

    config = _config("kuhn", ["rules", "call"], {"hands": 9, "estimator": "plain", "dealer": {"t_response_ms": 500},
                                                 "until_ci": 4.0, "out": Path("o")}, logs=True)
    assert config.hands == 9 and config.estimator is Estimator.PLAIN and config.dealer.t_response_ms == 500
    assert config.out == Path("o") and config.until_ci == 4.0 and config.progress is False
    assert _config("kuhn", ["rules", "call"], {"dealer": DealerSettings(spin_us=0)}, logs=False).dealer.spin_us == 0
    with pytest.raises(ConfigError, match=r"run_match: hnds: unknown key 'hnds': did you mean 'hands'\?"):
        _config("kuhn", ["rules", "call"], {"hnds": 9}, logs=True)
    with pytest.raises(ConfigError, match=r"run_match: hands: expected an integer 1 to 4294967295, got 0"):
        _config("kuhn", ["rules", "call"], {"hands": 0}, logs=True)


def test_a_misspelt_limit_names_the_nearest() -> None:
    with pytest.raises(ConfigError, match=r"x: unknown limit 'memry_mb': did you mean 'memory_mb'\?"):
        parse_limits({"memry_mb": 1}, "x")
    assert parse_limits({"cpu_s": 9.0, "network": True}, "x") == Limits(cpu_s=9, network=True)


def test_a_tournament_file_takes_the_marked_keys(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("game: kuhn\nhands: 10\nagents: [rules, call]\nprogress: false\nexecutor: local\n"
                    "dealer: {t_response_ms: 100}\n")
    cfg = load_tournament_config(path)
    assert cfg.progress is False and cfg.executor is ExecutorName.LOCAL and cfg.dealer.t_response_ms == 100
    path.write_text("game: kuhn\nhands: 10\nagents: [rules, call]\nfixed_seats: true\n")
    with pytest.raises(ConfigError, match="fixed_seats: .fixed_seats. is a key of a match file, not of a tournament file"):
        load_tournament_config(path)


def test_the_readme_table_of_keys_is_the_declarations() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = keys_table([("", MATCH_SETTINGS, MatchConfig), ("dealer.", DEALER_SETTINGS, DealerSettings)])
    assert table in readme, "regenerate the README's table of keys from matches.settings.keys_table"


def test_the_readme_table_of_limits_lists_the_declared_limits() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| [^|]+ \| [^|]+ \|$", readme.split("| limit | default | how |", 1)[1].split("\n\n", 1)[0], re.M)
    assert rows == [s.key for s in LIMIT_SETTINGS]

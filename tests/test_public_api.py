"""Each package's public names: listed once, all importable, and loaded only when used."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from showdown._lazy import _typing_imports

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["showdown", *sorted(f"showdown.{p.parent.name}" for p in ROOT.joinpath("showdown").glob("*/__init__.py"))]


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_is_listed_once_and_resolves(package: str) -> None:
    module = importlib.import_module(package)
    public = set(module.__all__)
    assert len(public) == len(module.__all__), f"{package}.__all__ repeats a name"
    assert public, f"{package} lists no public names"
    source = Path(module.__file__ or "").read_text(encoding="utf-8")
    lazy = _typing_imports(source) if "lazy_exports(" in source else {}
    assert set(lazy) <= public, f"{package}: imported for type checkers but not in __all__: {set(lazy) - public}"
    for name in sorted(public):
        assert getattr(module, name) is not None, f"{package}.{name}"
        assert name in dir(module)


@pytest.mark.parametrize("package", [p for p in PACKAGES if p != "showdown.cli"])  # cli binds main eagerly, after its module
def test_no_public_name_is_also_a_submodule(package: str) -> None:
    # importing the submodule would replace the package's attribute of that name with the module
    folder = Path(importlib.import_module(package).__file__ or "").parent
    submodules = {p.stem for p in folder.glob("*.py")} | {p.parent.name for p in folder.glob("*/__init__.py")}
    assert not set(importlib.import_module(package).__all__) & submodules


def test_an_unknown_name_is_an_attribute_error() -> None:
    import showdown.games

    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        showdown.games.nothing_here  # noqa: B018


def test_the_typed_marker_ships_with_the_package() -> None:
    assert ROOT.joinpath("showdown", "py.typed").is_file()
    assert '"showdown" = ["py.typed"]' in ROOT.joinpath("pyproject.toml").read_text()


@pytest.mark.parametrize(("where", "parameter", "takes"), [
    ("showdown:run_match", "game", "Path"), ("showdown:run_match_async", "game", "Path"),
    ("showdown.games:get_game", "spec", "PurePath"),
    ("showdown.games:State.initial", "game", "str"), ("showdown.games:CardDealer.__init__", "game", "str"),
])
def test_a_game_parameter_is_typed_as_what_it_takes(where: str, parameter: str, takes: str) -> None:
    """A path or a name works at run time, so a type checker must not refuse it (it was typed str, or GameDef)."""
    import inspect

    module, _, name = where.partition(":")
    function: Any = importlib.import_module(module)
    for part in name.split("."):
        function = getattr(function, part)
    assert takes in str(inspect.signature(function).parameters[parameter].annotation).split(" | ")


def test_the_rules_protocol_and_dealer_packages_load_without_numpy() -> None:
    code = (
        "import sys, showdown, showdown.games, showdown.protocol, showdown.server\n"
        "from showdown.games import State, get_game\n"
        "assert 'numpy' not in sys.modules, 'numpy was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_importing_a_submodule_from_its_package_does_not_read_the_exports() -> None:
    # ``from showdown import argtypes`` asks the package for the name first: a submodule is answered
    # without parsing the package's exports (which would import ast on every command's start)
    code = "import sys\nfrom showdown import argtypes\nfrom showdown.games import cards\nassert 'ast' not in sys.modules, 'ast was imported'\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr

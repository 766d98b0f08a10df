"""Lazy package exports: a package names what it offers once, and pays for a module only when used.

A package ``__init__`` lists its public names as imports under ``if TYPE_CHECKING:`` (so type
checkers and readers see exactly where each comes from) and calls ``lazy_exports``, which reads
those imports from the file's own syntax tree and loads a name's module the first time the name is
asked for (PEP 562's module ``__getattr__``). So ``import showdown.games.cards`` stays cheap (the
dealer never imports numpy), while ``from showdown.solvers import CFRSolver`` works.
"""

from __future__ import annotations

import os  # os and sys: loaded with the interpreter, free to import
import sys

TYPE_CHECKING = False  # nothing else at start-up (see showdown/__init__.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["lazy_exports"]


def _typing_imports(source: str) -> dict[str, str]:
    """``name -> module`` for every ``from M import name`` inside an ``if TYPE_CHECKING:`` block."""
    import ast

    where: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0:
                    for alias in stmt.names:
                        where[alias.asname or alias.name] = stmt.module
    return where


def lazy_exports(package: str, init_file: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``, whose ``__init__`` is ``init_file``.

    The file is read at the first look-up, not at import: code that imports submodules directly (the
    dealer does) never pays for it.
    """

    read: dict[str, str] = {}
    folder = os.path.dirname(init_file)

    def _is_submodule(name: str) -> bool:
        return os.path.exists(os.path.join(folder, name + ".py")) or os.path.isdir(os.path.join(folder, name))

    def where() -> dict[str, str]:
        if not read:
            with open(init_file, encoding="utf-8") as f:
                read.update(_typing_imports(f.read()))
        return read

    def __getattr__(name: str) -> Any:
        if name.startswith("__") or _is_submodule(name):
            # import machinery probes (__path__, __wrapped__...), and ``from package import submodule``,
            # which asks the package first: never ours, and answered without reading the file
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = where().get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)  # the next look-up is an ordinary attribute
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where()))

    return __getattr__, __dir__

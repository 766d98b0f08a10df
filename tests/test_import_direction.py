"""The package's layers, checked on every import (function-level ones too).

games <- protocol <- server; games <- solvers <- agents; evaluation, matches and view use the layers
below them; nothing below imports the command line (the ``showdown.cli`` package and ``__main__.py``,
which may use everything).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "showdown"
BASE = {"errors", "cache", "status", "_lazy", "argtypes", "workers"}
ALLOWED: dict[str, set[str]] = {
    "_lazy": set(),
    "argtypes": set(),
    "errors": set(),
    "cache": {"errors"},  # its one-line error for a cache folder that cannot be made
    "workers": {"errors"},  # Terminated, the SIGTERM that shuts a pool down (terminate_as_exit)
    "status": set(),
    "games": {"errors", "cache", "_lazy"},
    "protocol": {"games", "errors", "_lazy"},
    "server": {"games", "protocol"} | BASE,
    "solvers": {"games"} | BASE,
    "agents": {"games", "protocol", "solvers"} | BASE,
    "evaluation": {"games", "protocol", "solvers", "agents"} | BASE,
    "matches": {"games", "protocol", "server", "solvers", "agents", "evaluation"} | BASE,
    "view": {"games", "protocol", "server", "solvers", "agents", "evaluation", "matches"} | BASE,
    "interchange": {"games", "protocol", "solvers", "agents", "evaluation"} | BASE,
    "env": {"games", "protocol", "solvers", "agents"} | BASE,
    "api": {"games", "protocol", "server", "solvers", "agents", "evaluation", "matches"} | BASE,
}
CLI_TOP = {"cli", "__main__"}


def _is_cli(path: Path) -> bool:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0] in CLI_TOP or rel.stem in CLI_TOP


def _imports(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return [(line, m) for line, m in out if m == "showdown" or m.startswith("showdown.")]


def test_every_import_follows_the_layers() -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        layer = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        for line, module in _imports(path):
            parts = module.split(".")
            target = parts[1] if len(parts) > 1 else ""
            if target in CLI_TOP:
                if not _is_cli(path):
                    wrong.append(f"{rel}:{line} imports the command line ({module})")
                continue
            if _is_cli(path) or target in ("", layer) or layer == "__init__":
                continue
            if target not in ALLOWED.get(layer, set()):
                wrong.append(f"{rel}:{line} ({layer}) imports {module} ({target}): against the layers")
    assert not wrong, "\n".join(wrong)


def test_the_layers_have_no_cycle() -> None:
    seen: dict[str, int] = {}

    def visit(layer: str) -> None:
        assert seen.get(layer) != 1, f"a cycle through {layer}"
        if seen.get(layer) == 2:
            return
        seen[layer] = 1
        for below in ALLOWED[layer]:
            visit(below)
        seen[layer] = 2

    for layer in ALLOWED:
        visit(layer)


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _module_imports(path: Path, modules: set[str]) -> set[str]:
    """The package's modules ``path`` imports, function-level too; ``from pkg import sub`` is ``pkg.sub``."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in modules}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in modules:
            subs = {f"{node.module}.{a.name}" for a in node.names} & modules
            out |= subs or {node.module}
    return out


def test_no_module_imports_itself_back() -> None:
    """No import circle between the package's modules, function-level imports included (runner ->
    duplicate -> parallel -> runner was one; so were strategy <-> multiplayer <-> cfr)."""
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {m: _module_imports(p, set(paths)) for m, p in paths.items()}
    layer = list(graph)
    state: dict[str, int] = {}
    trail: list[str] = []

    def visit(m: str) -> None:
        if state.get(m) == 1:
            raise AssertionError("import circle: " + " -> ".join(trail[trail.index(m):] + [m]))
        if state.get(m) == 2:
            return
        state[m] = 1
        trail.append(m)
        for dep in sorted(graph[m]):
            if dep in layer:
                visit(dep)
        trail.pop()
        state[m] = 2

    for m in sorted(layer):
        visit(m)

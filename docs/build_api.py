"""Build the API reference from the docstrings with pdoc: ``python docs/build_api.py [OUT]``.

Every public module is documented; a docstring that pdoc cannot resolve (a name in ``__all__`` that
does not exist, a module that fails to import) is an error, so CI (``make check``) catches a broken
reference. The packages' lazily loaded names are loaded first, so pdoc sees them as it sees any.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import warnings
from pathlib import Path

import pdoc

import showdown


def public_modules() -> list[str]:
    """Every module of the package whose name has no leading underscore."""
    names = ["showdown"]
    for info in pkgutil.walk_packages(showdown.__path__, "showdown."):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append(info.name)
    return names


def main(out: Path) -> int:
    modules = public_modules()
    for name in modules:
        module = importlib.import_module(name)
        for attribute in getattr(module, "__all__", ()):
            getattr(module, attribute)  # loads a lazily exported name into the module
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # showdown.cli exports main, the function of the module showdown.cli.main: one page is right
        warnings.filterwarnings("ignore", message=".*a module with this name has already been added")
        # annotations of names imported only for type checkers cannot be evaluated; pdoc shows them as text
        warnings.filterwarnings("ignore", message="(Error parsing type annotation|Failed to run TYPE_CHECKING code)")
        pdoc.pdoc(*modules, output_directory=out)
    print(f"API reference of {len(modules)} modules in {out}/index.html")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "build/api")))

"""A command's start-up without the cyclic garbage collector: paused while modules load, then their
objects frozen out of its way.

Loading numpy, the solvers and the command line creates some 100,000 objects that live as long as
the process (modules, classes, functions). The collector runs every 700 allocations while they are
made, and then keeps walking them in its older generations, to free nothing: in a whole
``showdown solve cfr kuhn``, about a tenth of its time (0.86x the CPU without it,
``benchmarks/bench_startup.py``). So the program's entry pauses the collector (``begin``), and once
a command has loaded (``loaded``, or the end of a ``loading`` block) what exists is moved to the
permanent generation (``gc.freeze``) and collection resumes for everything made afterwards.

Only the program itself does this (``showdown ...``, ``python -m showdown ...``): ``main([...])``
called from Python (the tests, a notebook) leaves the caller's collector alone, since freezing
would also keep whatever unreachable cycles the caller still had.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["begin", "loaded", "loading"]

_program = [False]


def begin() -> None:
    """Called first by the program's entry point: pause the collector until the command has loaded."""
    _program[0] = True
    gc.disable()


def loaded() -> None:
    """The command's modules are loaded: freeze them and resume collecting (a no-op unless ``begin``)."""
    if _program[0]:
        gc.freeze()
        gc.enable()


@contextmanager
def loading() -> Iterator[None]:
    """Around a handler's own imports and set-up (``solve cfr`` loads numpy once it knows the game):
    the collector paused inside, ``loaded`` at the end."""
    if _program[0]:
        gc.disable()
    try:
        yield
    finally:
        loaded()

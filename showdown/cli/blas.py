"""numpy for small arrays: OpenBLAS loaded without its thread pool.

OpenBLAS starts a thread per core the moment numpy is imported (its library constructor reads
``OPENBLAS_NUM_THREADS`` then, and only then). A tabular CFR solve gains nothing from it: its
products are matrix-vector ones over a few thousand cells at most, and on a busy machine the pool's
threads fight the solver for the cores (``solve cfr kuhn-1000``, 100 iterations: 3.5x the CPU with
the pool). Without it, ``import numpy`` takes 0.55x the CPU and 0.84x the wall time
(``benchmarks/bench_startup.py``). Only the command line decides this, for the command it runs:
a program that imports showdown keeps its own BLAS settings.
"""

from __future__ import annotations

import os
import sys

__all__ = ["THREAD_VARIABLES", "load_numpy_single_threaded"]

THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
"""What OpenBLAS reads for its thread count, in its order: a user who set one keeps that choice."""


def load_numpy_single_threaded() -> bool:
    """Import numpy with OpenBLAS on the calling thread alone; True if this import did so.

    Nothing changes when numpy is already loaded (too late: the pool exists) or when the user set
    any of ``THREAD_VARIABLES``. The variable is removed again once numpy is loaded, so processes
    started later (and scipy's own OpenBLAS) see the environment the user gave.
    """
    if "numpy" in sys.modules or any(name in os.environ for name in THREAD_VARIABLES):
        return False
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        import numpy  # noqa: F401
    finally:
        del os.environ["OPENBLAS_NUM_THREADS"]
    return True

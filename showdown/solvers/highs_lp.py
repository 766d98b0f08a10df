"""Linear programs handed to HiGHS in one call, without ``scipy.optimize`` (its import and its overhead).

``linprog`` costs a one-round solve three ways: importing ``scipy.optimize`` (and ``scipy.sparse``)
takes about 0.3 s of CPU, a third of the whole solve; it copies the program into a ``HighsLp`` field
by field, element by element; and it reads the bound multipliers back column by column in Python.
On the 169 x 170 pricing programs the last two were 60% of each call. Here the program is plain CSR
arrays, passed to HiGHS's array form of ``passModel``, and only the primal values and row duals are
read back. The bindings come from ``highspy`` (HiGHS's own package, the ``fast`` extra: imported in
0.03 s) or else from the copy scipy >= 1.15 ships (``scipy.optimize._highspy._core``, same API);
with neither, the same program goes through ``linprog``. ``tests/solvers/test_highs_lp.py`` checks
that the three agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal

import numpy as np

__all__ = ["LinearProgram", "LpAnswer", "solve_lp"]

Route = Literal["auto", "highspy", "scipy", "linprog"]

_SIMPLEX_DUAL = 1
"""HiGHS's ``simplex_strategy`` for the dual simplex (``linprog``'s ``"highs-ds"``)."""


@dataclass(frozen=True)
class LinearProgram:
    """``min cost @ x`` s.t. ``row_lower <= A x <= row_upper``, ``lower <= x <= upper``.

    ``A`` is CSR: row ``r`` has values ``data[indptr[r]:indptr[r + 1]]`` in columns ``indices[...]``.
    The first ``n_ineq`` rows are inequalities (``row_lower`` is ``-inf``), the others equalities.
    """

    cost: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray
    row_lower: np.ndarray
    row_upper: np.ndarray
    n_ineq: int


@dataclass(frozen=True)
class LpAnswer:
    """A solve's outcome: ``optimal`` or not (HiGHS's ``message``), the primal values ``x``, the duals
    of the inequality rows (``linprog``'s ``ineqlin.marginals``: <= 0 in a minimisation), the
    objective and the iterations."""

    optimal: bool
    message: str
    x: np.ndarray
    ineq_duals: np.ndarray
    objective: float
    iterations: int


def _bindings(route: Route) -> ModuleType | None:
    """HiGHS's Python bindings for ``route`` (``"auto"``: highspy, else scipy's copy), or ``None``."""
    if route in ("auto", "highspy"):
        try:
            from highspy import _core  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            if route == "highspy":
                return None
        else:
            return _core  # type: ignore[no-any-return,unused-ignore]
    if route in ("auto", "scipy"):
        try:
            from scipy.optimize._highspy import _core as scipy_core  # type: ignore[import-untyped]
        except ImportError:  # scipy < 1.15
            return None
        return scipy_core  # type: ignore[no-any-return]
    return None


def solve_lp(
    program: LinearProgram, method: str = "highs-ds", options: dict[str, Any] | None = None, *, route: Route = "auto"
) -> LpAnswer:
    """Solve ``program`` with HiGHS's ``method`` (``"highs-ds"``, ``"highs-ipm"`` or ``"highs"``).

    ``options`` are HiGHS options (``presolve`` a bool); ``route`` picks the bindings (``"linprog"``
    forces ``scipy.optimize.linprog``; the default takes the fastest one installed).
    """
    options = dict(options or {})
    core = None if route == "linprog" else _bindings(route)
    if core is None:
        return _solve_linprog(program, method, options)
    n_cols, n_rows = len(program.cost), len(program.row_upper)
    highs = core._Highs()
    highs.setOptionValue("output_flag", False)
    if method == "highs-ds":
        highs.setOptionValue("solver", "simplex")
        highs.setOptionValue("simplex_strategy", _SIMPLEX_DUAL)
    elif method == "highs-ipm":
        highs.setOptionValue("solver", "ipm")
    for key, value in options.items():
        highs.setOptionValue(key, ("on" if value else "off") if key == "presolve" else value)
    # the array form of passModel: numpy straight into HiGHS; the last array is the integrality (none)
    passed = highs.passModel(
        n_cols,
        n_rows,
        len(program.data),
        int(core.MatrixFormat.kRowwise),
        int(core.ObjSense.kMinimize),
        0.0,
        *(np.ascontiguousarray(a, dtype=np.float64) for a in (program.cost, program.lower, program.upper)),
        *(np.ascontiguousarray(a, dtype=np.float64) for a in (program.row_lower, program.row_upper)),
        np.ascontiguousarray(program.indptr[:-1], dtype=np.int32),
        np.ascontiguousarray(program.indices, dtype=np.int32),
        np.ascontiguousarray(program.data, dtype=np.float64),
        np.zeros(n_cols, dtype=np.int32),
    )
    if passed == core.HighsStatus.kError:
        return LpAnswer(False, "HiGHS refused the program", np.empty(0), np.empty(0), float("nan"), 0)
    highs.run()
    status = highs.getModelStatus()
    info = highs.getInfo()
    iterations = int(info.simplex_iteration_count) + int(info.ipm_iteration_count)
    if status != core.HighsModelStatus.kOptimal:
        return LpAnswer(False, highs.modelStatusToString(status), np.empty(0), np.empty(0), float("nan"), iterations)
    solution = highs.getSolution()
    return LpAnswer(
        optimal=True,
        message="Optimization terminated successfully.",
        x=np.asarray(solution.col_value),
        ineq_duals=np.asarray(solution.row_dual)[: program.n_ineq],
        objective=float(info.objective_function_value),
        iterations=iterations,
    )


def _solve_linprog(program: LinearProgram, method: str, options: dict[str, Any]) -> LpAnswer:
    """The same program through ``scipy.optimize.linprog`` (no bindings importable)."""
    import scipy.sparse as sp  # type: ignore[import-untyped]
    from scipy.optimize import linprog  # type: ignore[import-untyped]

    rows = sp.csr_matrix(
        (program.data, program.indices, program.indptr), shape=(len(program.row_upper), len(program.cost))
    )
    k = program.n_ineq
    equalities = {"A_eq": rows[k:], "b_eq": program.row_upper[k:]} if k < rows.shape[0] else {}
    result = linprog(
        program.cost,
        A_ub=rows[:k],
        b_ub=program.row_upper[:k],
        bounds=np.column_stack([program.lower, program.upper]),
        method=method,
        options=options,
        **equalities,
    )
    optimal = result.status == 0
    return LpAnswer(
        optimal=optimal,
        message=str(result.message),
        x=np.asarray(result.x) if optimal else np.empty(0),
        ineq_duals=np.asarray(result.ineqlin.marginals) if optimal else np.empty(0),
        objective=float(result.fun) if optimal else float("nan"),
        iterations=int(getattr(result, "nit", 0) or 0),
    )

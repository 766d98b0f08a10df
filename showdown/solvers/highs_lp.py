"""Linear programs handed to HiGHS without ``scipy.optimize.linprog``'s per-call overhead.

``linprog`` copies the program into a ``HighsLp`` field by field (element by element) and reads the
answer back column by column in Python (the bound multipliers); on the one-round LP's pricing
programs (169 x 170) that is about 60% of each call's CPU, and 0.05-0.1 s on a 21-bet master
program. This module passes the CSR arrays in one call to the HiGHS that scipy (>= 1.15) ships,
``scipy.optimize._highspy._core``, and reads only the primal values and the row duals. Where that module is missing (an older scipy,
or a renamed private module) the same program goes through ``linprog``: the answers are the same
(``tests/solvers/test_highs_lp.py`` checks both paths).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["LpAnswer", "solve_lp"]

_SIMPLEX_DUAL = 1
"""HiGHS's ``simplex_strategy`` for the dual simplex (``linprog``'s ``"highs-ds"``)."""


@dataclass(frozen=True)
class LpAnswer:
    """What a solve returns: ``optimal`` or not (with HiGHS's ``message``), the primal values ``x``,
    the duals of the inequality rows (``linprog``'s ``ineqlin.marginals``: <= 0 in a minimisation),
    the objective and the simplex iterations."""

    optimal: bool
    message: str
    x: np.ndarray
    ineq_duals: np.ndarray
    objective: float
    iterations: int


def solve_lp(
    program: dict[str, Any], method: str = "highs-ds", options: dict[str, Any] | None = None, *, direct: bool = True
) -> LpAnswer:
    """Minimise ``c @ x`` s.t. ``A_ub x <= b_ub``, ``A_eq x = b_eq`` (optional), ``bounds`` (``(n, 2)``).

    ``program`` holds ``linprog``'s keywords with ``A_ub`` and ``A_eq`` as scipy CSR matrices;
    ``method`` is ``"highs-ds"``, ``"highs-ipm"`` or ``"highs"``; ``options`` are HiGHS options
    (``presolve`` a bool). ``direct=False`` (or a scipy without the bindings) uses ``linprog``.
    """
    options = dict(options or {})
    if direct:
        try:
            from scipy.optimize._highspy import _core  # type: ignore[import-untyped]
        except ImportError:  # scipy < 1.15: no bindings to call directly
            pass
        else:
            return _solve_direct(_core, program, method, options)
    from scipy.optimize import linprog  # type: ignore[import-untyped]

    result = linprog(method=method, options=options, **program)
    optimal = result.status == 0
    return LpAnswer(
        optimal=optimal,
        message=str(result.message),
        x=np.asarray(result.x) if optimal else np.empty(0),
        ineq_duals=np.asarray(result.ineqlin.marginals) if optimal else np.empty(0),
        objective=float(result.fun) if optimal else float("nan"),
        iterations=int(getattr(result, "nit", 0) or 0),
    )


def _solve_direct(core: Any, program: dict[str, Any], method: str, options: dict[str, Any]) -> LpAnswer:
    """The program passed as CSR arrays to a ``_Highs`` object; inequality rows first, then equalities."""
    import scipy.sparse as sp  # type: ignore[import-untyped]

    a_ub, b_ub = program["A_ub"], np.asarray(program["b_ub"], dtype=np.float64)
    rows, lower, upper = [a_ub], [np.full(len(b_ub), -np.inf)], [b_ub]
    if program.get("A_eq") is not None:
        b_eq = np.asarray(program["b_eq"], dtype=np.float64)
        rows.append(program["A_eq"])
        lower.append(b_eq)
        upper.append(b_eq)
    matrix = sp.csr_matrix(sp.vstack(rows, format="csr")) if len(rows) > 1 else sp.csr_matrix(a_ub)
    bounds = np.asarray(program["bounds"], dtype=np.float64)
    n_rows, n_cols = matrix.shape

    highs = core._Highs()
    highs.setOptionValue("output_flag", False)
    if method == "highs-ds":
        highs.setOptionValue("solver", "simplex")
        highs.setOptionValue("simplex_strategy", _SIMPLEX_DUAL)
    elif method == "highs-ipm":
        highs.setOptionValue("solver", "ipm")
    for key, value in options.items():
        highs.setOptionValue(key, ("on" if value else "off") if key == "presolve" else value)
    # the array form of passModel: numpy arrays straight into HiGHS (a HighsLp's fields copy element by
    # element: 2.6 of the 5.3 ms of a pricing LP); the last array is the integrality (all continuous)
    passed = highs.passModel(
        n_cols,
        n_rows,
        matrix.nnz,
        int(core.MatrixFormat.kRowwise),
        int(core.ObjSense.kMinimize),
        0.0,
        np.ascontiguousarray(program["c"], dtype=np.float64),
        np.ascontiguousarray(bounds[:, 0]),
        np.ascontiguousarray(bounds[:, 1]),
        np.concatenate(lower),
        np.concatenate(upper),
        matrix.indptr[:-1].astype(np.int32),
        matrix.indices.astype(np.int32),
        matrix.data.astype(np.float64),
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
        ineq_duals=np.asarray(solution.row_dual)[: len(b_ub)],
        objective=float(info.objective_function_value),
        iterations=iterations,
    )

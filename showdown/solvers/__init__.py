"""Offline computation: game trees, sequence-form LPs, the CFR family, best response, abstraction, strategy files.

Library functions only (no command line); the ``showdown solve`` and ``showdown exploit`` commands call them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from showdown._lazy import lazy_exports

if TYPE_CHECKING:
    from showdown.solvers.best_response import best_response_values, exploitability, nash_conv
    from showdown.solvers.cfr import CFRSolver, make_solver
    from showdown.solvers.multiplayer import MultiCFRSolver
    from showdown.solvers.one_round import OneRoundGame, OneRoundSolution, solve_one_round
    from showdown.solvers.pcs import PCSSolver
    from showdown.solvers.sequence_lp import SequenceLPSolution, game_value, solve_sequence_lp
    from showdown.solvers.solve import SolveResult
    from showdown.solvers.strategy import Strategy, load_strategy, save_strategy
    from showdown.solvers.training import TrainResult, train
    from showdown.solvers.tree import GameTree, build_tree

__all__ = [
    "CFRSolver",
    "GameTree",
    "MultiCFRSolver",
    "OneRoundGame",
    "OneRoundSolution",
    "PCSSolver",
    "SequenceLPSolution",
    "SolveResult",
    "Strategy",
    "TrainResult",
    "best_response_values",
    "build_tree",
    "exploitability",
    "game_value",
    "load_strategy",
    "make_solver",
    "nash_conv",
    "save_strategy",
    "solve_one_round",
    "solve_sequence_lp",
    "train",
]

__getattr__, __dir__ = lazy_exports(__name__, __file__)

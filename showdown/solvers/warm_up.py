"""Compile every solver kernel once (numba caches the machine code): what ``make install`` runs.

``python -c 'from showdown.solvers.warm_up import compile_kernels; compile_kernels()'`` after an
install spares the first solve the compilation (about half a minute on a busy 2-core machine).
"""

from __future__ import annotations


def compile_kernels() -> None:
    """One tiny run of each compiled solver: PCS on Leduc, exact CFR+ on 3-player and 2-player Kuhn, the
    re-solving pass, and the hand-ranking kernels of local best response."""
    from showdown.games.catalog import get_game
    from showdown.solvers.abstraction import RankAbstraction
    from showdown.solvers.cfr import make_solver
    from showdown.solvers.hand_kernels import warm_up as hand_kernels_warm_up
    from showdown.solvers.pcs import PCSSolver
    from showdown.solvers.subgame_kernels import warm_up as subgame_warm_up

    leduc = get_game("leduc")
    PCSSolver(leduc, RankAbstraction(leduc)).iterate(1)
    make_solver(get_game("kuhn3p"), "cfr+").iterate(1)
    make_solver(get_game("kuhn"), "cfr+").iterate(1)
    subgame_warm_up()
    hand_kernels_warm_up()

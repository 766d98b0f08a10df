"""The hold'em card abstraction: exact, deterministic, suit-blind, and the same for solver and agent."""

from __future__ import annotations

import functools
import signal
from collections.abc import Callable

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.games.catalog import get_game
from showdown.solvers import holdem_buckets
from showdown.solvers.holdem_buckets import (
    HoldemAbstraction,
    build_flop_table,
    canonical_flop,
    canonical_flops,
    expected_hs2,
    load_tables,
    river_strength,
    river_strengths,
)
from showdown.solvers.holdings import RankedBoard, holdings_of

GAME = get_game("holdem-limit")
DECK = tuple(range(52))


def test_there_are_1755_flops_up_to_suits():
    flops, weights, _ = canonical_flops()
    assert len(flops) == 1755 and weights.sum() == 22100


def test_the_canonical_flops_at_once_are_each_flops_least_image():
    """The vectorised table against ``canonical_flop`` flop by flop (its 24 images compared as tuples)."""
    import itertools

    counts: dict[tuple[int, ...], int] = {}
    for flop in itertools.combinations(DECK, 3):
        canon, perm = canonical_flop(flop)
        assert canon == tuple(sorted((c & ~3) | perm[c & 3] for c in flop))
        counts[canon] = counts.get(canon, 0) + 1
    flops, weights, index = canonical_flops()
    assert flops == tuple(sorted(counts)) and all(type(c) is int for f in flops for c in f)
    assert weights.dtype == np.int64 and weights.tolist() == [counts[f] for f in flops]
    assert index == {f: i for i, f in enumerate(flops)}


def test_the_shipped_flop_table_is_what_the_build_computes():
    rebuilt = build_flop_table(jobs=1, limit=2)
    shipped = load_tables()["flop"][:2]
    assert np.array_equal(np.round(rebuilt * 65535).astype(np.uint16), shipped)


def test_river_strength_equals_the_general_showdown_sums():
    rng = np.random.default_rng(1)
    for _ in range(3):
        board = tuple(int(c) for c in rng.choice(52, 5, replace=False))
        ranked = RankedBoard(holdings_of(DECK, 2), board)
        assert np.allclose(river_strength(board), ranked.strength_share())


def test_batched_river_strengths_equal_board_by_board():
    rng = np.random.default_rng(2)
    boards = np.array([rng.choice(52, 5, replace=False) for _ in range(70)])
    boards[0] = [0, 4, 8, 12, 16]  # a straight flush on the board: every holding ties
    boards[1] = [48, 49, 50, 51, 44]  # quad aces
    together = river_strengths(boards)
    for board, row in zip(boards, together):
        ranked = RankedBoard(holdings_of(DECK, 2), tuple(int(c) for c in board))
        assert np.allclose(row, ranked.strength_share(), atol=1e-12)


def test_turn_ehs2_is_the_mean_over_rivers_of_hs_squared():
    board = (0, 13, 26, 51)
    h = holdings_of(DECK, 2)
    i = h.index((12, 50))
    rivers = [c for c in DECK if c not in board + (12, 50)]
    want = np.mean([river_strength(board + (c,))[i] ** 2 for c in rivers])
    assert abs(expected_hs2(board)[i] - want) < 1e-12


cards = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)


@settings(max_examples=25, deadline=None)
@given(cards, st.permutations(range(4)))
def test_isomorphic_hands_share_buckets_and_agent_agrees_with_solver(seven, perm):
    ab = HoldemAbstraction(GAME)
    hole, board = tuple(seven[:2]), tuple(seven[2:])
    image = tuple((c & ~3) | perm[c & 3] for c in seven)
    table = ab.buckets(board)
    i = holdings_of(DECK, 2).index(hole)
    for r in range(4):
        b = ab.bucket(hole, board, r)
        assert b == table[r, i]
        if r:
            assert ab.board_buckets(board, r)[i] == b
        assert b == ab.bucket(image[:2], image[2:], r)
        assert 0 <= b < ab.num_buckets[r]


def test_buckets_are_percentiles_roughly_equal_in_size():
    ab = HoldemAbstraction(GAME)
    rng = np.random.default_rng(7)
    counts = np.zeros(ab.num_buckets[3])
    h = holdings_of(DECK, 2)
    for _ in range(40):
        board = ab.sample_board(rng)
        ok = ~h.blocked(board)
        counts += np.bincount(ab.buckets(board)[3][ok], minlength=len(counts))
    share = counts / counts.sum()
    assert share.max() < 3 / len(counts) and share.min() > 0.2 / len(counts)


def test_river_buckets_read_from_the_turns_work_equal_those_worked_out_anew() -> None:
    """The river strengths the turn's E[HS^2] computed are kept and read back for the river board:
    the same numbers, bit for bit, as the river worked out on its own."""
    abstraction = HoldemAbstraction(get_game("holdem-nolimit"))
    rng = np.random.default_rng(11)
    for _ in range(3):
        board = tuple(int(c) for c in rng.choice(52, size=5, replace=False))
        abstraction.board_buckets(board[:4], 2)
        kept = abstraction._river_values(board)
        assert kept is not None and np.array_equal(kept, river_strength(board))
        assert np.array_equal(abstraction.board_buckets(board, 3), abstraction._cut(3, river_strength(board)))


def _born_with_ctrl_c_held_back(then: Callable[[int], None], parent: int) -> None:
    if signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, []):
        raise RuntimeError("a worker was forked able to take a Ctrl-C before its initializer ignored it")
    then(parent)


def test_the_flop_workers_are_forked_with_ctrl_c_held_back(monkeypatch) -> None:
    """A Ctrl-C between a worker's fork and its initializer was a KeyboardInterrupt traceback from
    that worker; they are now forked with SIGINT blocked."""
    from showdown import workers

    monkeypatch.setattr(workers, "ignore_interrupts", functools.partial(_born_with_ctrl_c_held_back, workers.ignore_interrupts))
    assert build_flop_table(jobs=2, limit=9).shape == (9, 1326)
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # the parent's own mask given back


def test_ctrl_c_stops_the_flop_workers_at_once() -> None:
    """Ctrl-C (here from the progress callback, as the parent takes it) left the executor waiting for
    every chunk already submitted: `solve buckets` went on to the end of its 7 minutes."""
    import multiprocessing
    import time

    import pytest

    def interrupt(done: int, n: int) -> None:
        if done:
            raise KeyboardInterrupt

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        build_flop_table(jobs=2, limit=240, progress=interrupt)  # 30 chunks: about 25 s of work on this machine
    assert time.monotonic() - started < 8
    assert multiprocessing.active_children() == []


def test_a_sigterm_while_the_flop_workers_run_shuts_them_down_and_says_one_line(monkeypatch, tmp_path, capsys) -> None:
    """`kill PID` of `solve buckets` killed the parent at once and left its workers waiting for work for
    ever (orphans holding the caller's pipes); now the pool is shut down and the command exits 143."""
    import multiprocessing
    import os

    import pytest

    from showdown.cli.main import main
    from showdown.errors import Terminated

    before = signal.signal(signal.SIGTERM, lambda *_: None)  # without the fix: swallowed, the build goes on
    try:
        with pytest.raises(Terminated):
            build_flop_table(jobs=2, limit=17, progress=lambda done, n: os.kill(os.getpid(), signal.SIGTERM))
    finally:
        signal.signal(signal.SIGTERM, before)
    assert multiprocessing.active_children() == []

    def stopped(**_: object) -> None:
        raise Terminated(143)

    monkeypatch.setattr(holdem_buckets, "build_tables", stopped)
    assert main(["solve", "buckets", "-o", str(tmp_path / "t.npz")]) == 143
    assert capsys.readouterr().err == "showdown solve: stopped (SIGTERM)\n"


def test_two_builds_saving_the_tables_at_once_each_write_their_own_temporary_file(tmp_path, monkeypatch) -> None:
    """Two ``showdown solve buckets`` started together end together: both wrote one ``.tmp.npz``, and
    the second's rename was a FileNotFoundError traceback (the first had renamed their shared file)."""
    import os

    tables = {"flop": np.arange(6, dtype=np.uint16), "quantiles": np.ones((3, 4))}
    path = tmp_path / "tables.npz"
    real = np.savez_compressed
    other = [True]

    def savez(file, **arrays):  # the other process saves just as this one has written its file
        real(file, **arrays)
        if other and other.pop():
            with monkeypatch.context() as m:
                m.setattr(os, "getpid", lambda: 1)
                holdem_buckets.save_tables(tables, path)

    monkeypatch.setattr(np, "savez_compressed", savez)
    holdem_buckets.save_tables(tables, path)
    with np.load(path) as data:
        assert np.array_equal(data["flop"], tables["flop"])
    assert [p.name for p in tmp_path.iterdir()] == ["tables.npz"]


def test_a_damaged_table_names_the_command_that_rebuilds_it(tmp_path) -> None:
    """It said "rebuild it with 'showdown solve abstraction'", a command that does not exist."""
    import pytest

    from showdown.cli.main import build_parser
    from showdown.cli.pcs import buckets_handler
    from showdown.errors import SolverError

    path = tmp_path / "holdem-flop-ehs2.npz"
    path.write_bytes(holdem_buckets.packaged_tables_path().read_bytes()[:1000])  # cut by a full disk
    with pytest.raises(SolverError, match=r"rebuild it with 'showdown solve buckets' \(or delete it") as caught:
        load_tables(path)
    command = str(caught.value).split("rebuild it with 'showdown ")[1].split("'")[0].split()
    assert build_parser(command[0], command[1]).parse_args(command).handler is buckets_handler

"""Every .npz a user may hand us (strategies, CFR checkpoints, tables) that is empty, cut off or not
a zip archive at all is one ``ShowdownError`` naming the file, never numpy's or zipfile's traceback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from showdown.errors import ShowdownError
from showdown.games.catalog import get_game
from showdown.solvers.cfr import CFRSolver, load_solver
from showdown.solvers.equity import load_equity_table
from showdown.solvers.holdem_buckets import load_tables
from showdown.solvers.multiplayer import MultiCFRSolver
from showdown.solvers.pcs import AbstractStrategy, PCSSolver
from showdown.solvers.strategy import load_strategy

LOADERS: dict[str, Callable[[Path], Any]] = {
    "load_solver": load_solver,
    "CFRSolver.load": CFRSolver.load,
    "MultiCFRSolver.load": MultiCFRSolver.load,
    "load_strategy": lambda p: load_strategy(p, get_game("kuhn")),
    "AbstractStrategy.load": AbstractStrategy.load,
    "PCSSolver.load_checkpoint": PCSSolver.load_checkpoint,
    "load_equity_table": load_equity_table,
    "load_tables": load_tables,
}


def damaged_files(folder: Path) -> dict[str, Path]:
    whole = folder / "whole.npz"
    np.savez_compressed(whole, a=np.arange(10_000))
    raw = whole.read_bytes()
    files = {"empty": b"", "cut in half": raw[: len(raw) // 2], "its first 100 bytes": raw[:100], "text": b"hello\n"}
    start = raw.index(b"PK\x03\x04") + 30 + len("a.npy")  # the first member's compressed data
    files["a damaged member"] = raw[:start + 40] + bytes(b ^ 0xFF for b in raw[start + 40:start + 80]) + raw[start + 80:]
    paths = {}
    for name, data in files.items():
        path = folder / f"{name.replace(' ', '_')}.npz"
        path.write_bytes(data)
        paths[name] = path
    return paths


@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_a_damaged_npz_is_one_error_naming_the_file(tmp_path: Path, loader: str) -> None:
    for what, path in damaged_files(tmp_path).items():
        with pytest.raises(ShowdownError, match=path.name) as caught:
            LOADERS[loader](path)
        assert "\n" not in str(caught.value), (what, caught.value)


def zip_bomb(path: Path, shape: tuple[int, ...], zero_bytes: int) -> Path:
    """A .npz whose one array ``meta`` declares ``shape`` of float64 but holds ``zero_bytes`` zeros."""
    import io
    import zipfile

    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": shape})
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("meta.npy", header.getvalue() + bytes(zero_bytes))
    return path


@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_a_zip_bomb_is_refused_by_its_declared_shape_before_reading(tmp_path: Path, loader: str) -> None:
    path = zip_bomb(tmp_path / "bomb.npz", (10**10,), 1 << 16)
    with pytest.raises(ShowdownError, match=r"bomb.npz.*claims shape \(10000000000,\)") as caught:
        LOADERS[loader](path)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_an_object_array_is_refused_without_unpickling(tmp_path: Path, loader: str) -> None:
    path = tmp_path / "objects.npz"
    np.savez(path, meta=np.array([{"a": 1}], dtype=object))
    with pytest.raises(ShowdownError, match="objects.npz.*Python objects"):
        LOADERS[loader](path)


def test_arrays_needing_more_memory_than_there_is_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import showdown.solvers.npz as npz

    monkeypatch.setattr(npz, "memory_limit", lambda: 1 << 20)
    path = zip_bomb(tmp_path / "big.npz", (1 << 18,), 1 << 21)  # 2 MB of zeros, honestly compressed
    with pytest.raises(ShowdownError, match=r"big.npz.*need 2.0 MB of memory, more than the 1.0 MB available"):
        load_solver(path)

"""DataCopy with SliceInfo (akgen_sim/data_copy_slice.h) against a numpy model of the documented slicing (GM与UB切片数据搬运):
bursts of burstLen blocks stride elements apart from [startIndex, endIndex] of the rows startIndex..endIndex taken
every (stride + 1) rows, GM -> UB packed and UB -> GM back to the same places; a slice set without shapeValue is
reported."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, assert_finding_at, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "basic3.cpp"


def run(write_manifest, tmp_path: Path, mode: int, rows: int, cols: int, start: int, end: int, stride: int,
        burst: int, r0: int, r1: int, rstride: int) -> tuple[SimResult, np.ndarray, list[int], list[int]]:
    per = burst * 8
    bursts = (end - start + 1 + stride) // (per + stride)
    col_idx = [start + b * (per + stride) + j for b in range(bursts) for j in range(per)]
    row_idx = list(range(r0, r1 + 1, rstride + 1))
    x = np.arange(rows * cols, dtype=np.float32).reshape(rows, cols) + 1
    out_cols, out_rows = len(col_idx), len(row_idx)
    m = write_manifest(SRC, "slice", [
        {"name": "src", "input": x.ravel()},
        {"name": "packed", "output": "packed.npy", "dtype": "float32", "shape": [out_rows * out_cols]},
        {"name": "dst", "output": "dst.npy", "dtype": "float32", "shape": [rows * cols]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "rows", "scalar": rows, "type": "int32_t"}, {"name": "cols", "scalar": cols, "type": "int32_t"},
        {"name": "start", "scalar": start, "type": "int32_t"}, {"name": "end", "scalar": end, "type": "int32_t"},
        {"name": "stride", "scalar": stride, "type": "int32_t"}, {"name": "burst", "scalar": burst, "type": "int32_t"},
        {"name": "r0", "scalar": r0, "type": "int32_t"}, {"name": "r1", "scalar": r1, "type": "int32_t"},
        {"name": "rstride", "scalar": rstride, "type": "int32_t"},
        {"name": "outCols", "scalar": out_cols, "type": "int32_t"},
        {"name": "outRows", "scalar": out_rows, "type": "int32_t"},
    ])
    return run_manifest(m, tmp_path / f"slice_{mode}_{stride}", confine=False), x, row_idx, col_idx


@pytest.mark.parametrize(("cols", "start", "end", "stride"), [(87, 16, 70, 7), (96, 8, 87, 16)])
def test_slices_go_to_ub_packed_and_back(write_manifest, tmp_path: Path, cols: int, start: int, end: int,
                                         stride: int) -> None:
    # stride 7 floats (28 B): the DataCopyPad path; 16 floats (64 B): whole blocks, the DataCopy path
    res, x, rows, cols_idx = run(write_manifest, tmp_path, 0, 5, cols, start, end, stride, 3, 0, 4, 1)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    packed = np.load(res.outputs["packed"]).reshape(len(rows), len(cols_idx))
    np.testing.assert_array_equal(packed, x[np.ix_(rows, cols_idx)])
    dst = np.load(res.outputs["dst"]).reshape(x.shape)
    want = np.zeros_like(x)
    want[np.ix_(rows, cols_idx)] = x[np.ix_(rows, cols_idx)]
    np.testing.assert_array_equal(dst, want)


def test_slices_without_shape_value_are_reported(write_manifest, tmp_path: Path) -> None:
    res, *_ = run(write_manifest, tmp_path, 1, 3, 87, 16, 70, 7, 3, 0, 2, 1)
    assert_finding_at(res, "SIM-NOT-EMULATED", SRC)

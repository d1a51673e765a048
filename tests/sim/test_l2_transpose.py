"""TransDataTo5HD against numpy in 16- and 32-bit types: one repeat transposes 16 blocks (b16: 16 x 16; b32: 16 x 8,
element j of the sources filling destination blocks 2j and 2j + 1), the NCHW -> NC1HWC0 form over repeats, and an
in-place transpose through the library's TransDataTo5HDImpl entry."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "l2_transpose.cpp"
N = 4096
CTYPE = {"float32": "float", "float16": "half", "int32": "int32_t", "int16": "int16_t"}


def run(write_manifest, tmp_path: Path, dtype: str, mode: int, hw: int = 0, rep: int = 0
        ) -> tuple[SimResult, np.ndarray, np.ndarray | None]:
    x = np.random.default_rng(mode).uniform(-1000, 1000, N).astype(dtype)
    m = write_manifest(SRC, "l2_transpose", [
        {"name": "x", "input": x},
        {"name": "z", "output": "z.npy", "dtype": dtype, "shape": [N]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "hw", "scalar": hw, "type": "int32_t"},
        {"name": "rep", "scalar": rep, "type": "int32_t"},
    ], defines={"DTYPE_X": CTYPE[dtype]})
    res = run_manifest(m, tmp_path / f"o{mode}_{dtype}_{hw}_{rep}", confine=False)
    return res, x, (np.load(res.outputs["z"]) if res.status == "ok" else None)


def clean(res: SimResult) -> None:
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is not Severity.INFO], [f.message for f in res.findings]


@pytest.mark.parametrize("dtype", ["float16", "int16", "float32", "int32"])
def test_one_repeat_transposes_sixteen_blocks(write_manifest, tmp_path: Path, dtype: str) -> None:
    blk = 32 // np.dtype(dtype).itemsize
    res, x, z = run(write_manifest, tmp_path, dtype, 0)
    clean(res)
    assert z is not None
    np.testing.assert_array_equal(z[:16 * blk], x[:16 * blk].reshape(16, blk).T.reshape(-1))
    assert not z[16 * blk:].any()


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_nchw_to_nc1hwc0_over_repeats(write_manifest, tmp_path: Path, dtype: str) -> None:
    blk = 32 // np.dtype(dtype).itemsize
    hw = 8 * blk
    res, x, z = run(write_manifest, tmp_path, dtype, 1, hw=hw, rep=hw // blk)
    clean(res)
    assert z is not None
    np.testing.assert_array_equal(z[:16 * hw], x[:16 * hw].reshape(16, hw).T.reshape(-1))


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_in_place_through_the_impl_entry(write_manifest, tmp_path: Path, dtype: str) -> None:
    blk = 32 // np.dtype(dtype).itemsize
    res, x, z = run(write_manifest, tmp_path, dtype, 2)
    clean(res)
    assert z is not None
    np.testing.assert_array_equal(z[:16 * blk], x[:16 * blk].reshape(16, blk).T.reshape(-1))
    np.testing.assert_array_equal(z[16 * blk:], x[16 * blk:])

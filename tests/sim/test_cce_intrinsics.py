"""Raw CCE intrinsics (akgen_sim/cce_intrinsics.h) against numpy: vor / vadd with the mask register as it stands
(normal and counter mode), vector_dup, copy_ubuf_to_ubuf, vtranspose, set_va_reg_sb + scatter_vnchwconv_b16; an
unset VA register and a pointer outside UB are reported at the caller's line. FusedMulAdd (dst = src0 * dst + src1)
in its count and mask forms for float and half, and its tensor-size check."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "cce_intrinsics.cpp"
N = 2048
M = 1024


def run_cce(write_manifest, tmp_path: Path, mode: int) -> tuple[SimResult, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    a, b, init = (rng.integers(-30000, 30000, N).astype(np.int16) for _ in range(3))
    m = write_manifest(SRC, "cce", [
        {"name": "a", "input": a},
        {"name": "b", "input": b},
        {"name": "init", "input": init},
        {"name": "z", "output": "z.npy", "dtype": "int16", "shape": [N]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
    ], defines={"DTYPE_X": "float"})
    return run_manifest(m, tmp_path / f"cce{mode}", confine=False), a, b, init


def test_intrinsics_match_numpy(write_manifest, tmp_path: Path) -> None:
    res, a, b, init = run_cce(write_manifest, tmp_path, 0)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is Severity.ERROR]
    z = np.load(res.outputs["z"])
    want = init.copy()
    want[0:256] = a[0:256] | b[0:256]
    want[256:272] = 7  # mask of 16 elements: the first block of each repeat
    want[384:400] = 7
    want[512:528] = a[0:16]  # burst 1
    want[560:576] = a[32:48]  # burst 2: source skips 1 block, destination 2
    want[768:1024] = a[0:256].reshape(16, 16).T.ravel()
    want[1024:1280] = a[0:256].reshape(16, 16).T.ravel()
    want[1280:1536] = a[256:512].reshape(16, 16).T.ravel()
    want[1536:1636] = (a[0:100].astype(np.int32) + b[0:100]).astype(np.int16)  # counter mode: 100 elements
    np.testing.assert_array_equal(z, want)


@pytest.mark.parametrize(("mode", "code"), [(1, "SIM-VA-UNSET"), (2, "SIM-UB-OOB")])
def test_misuse_is_reported_at_the_callers_line(write_manifest, tmp_path: Path, mode: int, code: str) -> None:
    res, *_ = run_cce(write_manifest, tmp_path, mode)
    assert res.status == "runtime_error"
    hits = [f for f in res.findings if f.code == code]
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.path == str(SRC) and hits[0].span.line == marker_line(SRC, code)


def run_fma(write_manifest, tmp_path: Path, dtype: str, mode: int, count: int = M):
    rng = np.random.default_rng(9)
    x, y, z0 = (rng.uniform(-4, 4, M).astype(dtype) for _ in range(3))
    m = write_manifest(SRC, "fused_mul_add", [
        {"name": "x", "input": x},
        {"name": "y", "input": y},
        {"name": "z0", "input": z0},
        {"name": "z", "output": "z.npy", "dtype": dtype, "shape": [M]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "count", "scalar": count, "type": "int32_t"},
    ], defines={"DTYPE_X": {"float32": "float", "float16": "half"}[dtype]})
    res = run_manifest(m, tmp_path / f"fma_{dtype}_{mode}_{count}", confine=False)
    return res, x, y, z0


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_fused_mul_add_count_and_mask_forms(write_manifest, tmp_path: Path, dtype: str) -> None:
    res, x, y, z0 = run_fma(write_manifest, tmp_path, dtype, 0, count=1000)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    z = np.load(res.outputs["z"])
    want = z0.copy()
    want[:1000] = (x[:1000].astype(np.float32) * z0[:1000] + y[:1000]).astype(dtype)  # float math, rounded once
    np.testing.assert_allclose(z.astype(np.float64), want.astype(np.float64), rtol=1e-6 if dtype == "float32" else 0,
                               atol=0)
    res, x, y, z0 = run_fma(write_manifest, tmp_path, dtype, 1)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    z = np.load(res.outputs["z"])
    per = 256 // np.dtype(dtype).itemsize
    want = z0.copy()
    for r in range(2):
        s = slice(r * per, r * per + 40)
        want[s] = (x[s].astype(np.float32) * z0[s] + y[s]).astype(dtype)
    np.testing.assert_allclose(z.astype(np.float64), want.astype(np.float64), rtol=1e-6 if dtype == "float32" else 0,
                               atol=0)


def test_fused_mul_add_past_the_buffer_is_reported(write_manifest, tmp_path: Path) -> None:
    res, *_ = run_fma(write_manifest, tmp_path, "float32", 2)
    hits = [f for f in res.findings if f.code == "SIM-UB-SIZE"]  # CANN's CPU check of the tensor's size
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.line == marker_line(SRC, "FMA-OOB")

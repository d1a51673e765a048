"""The high-level Matmul (REGIST_MATMUL_OBJ, SetTensorA/B with transposes, SetBias, SetTail, IterateAll with and
without enAtomic, Iterate + GetTensorC to GM and to UB in both iterate orders) against numpy with float accumulation,
for half and float inputs and float / half outputs, across blocks; and its checks at the caller's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "matmul.cpp"
M, N, K = 40, 48, 56
CT = {"float16": "half", "float32": "float", "int8": "int8_t"}


def data(dtype: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    a = rng.integers(-4, 5, (M, K)).astype(dtype)
    b = rng.integers(-4, 5, (K, N)).astype(dtype)
    bias = rng.integers(-20, 20, N).astype(np.float32)
    c0 = rng.integers(-9, 9, (M, N)).astype(np.float32)
    return a, b, bias, c0


def run(write_manifest, tmp_path: Path, mode: int, dtype: str = "float16", out: str = "float32", blocks: int = 1,
        base: tuple[int, int] = (32, 32), trans: tuple[bool, bool] = (False, False),
        order: int = 0, policy: str = "") -> tuple[SimResult, np.ndarray]:
    a, b, bias, c0 = data(dtype)
    m = write_manifest(SRC, "matmul_custom", [
        {"name": "a", "input": np.ascontiguousarray(a.T) if trans[0] else a},
        {"name": "b", "input": np.ascontiguousarray(b.T) if trans[1] else b},
        {"name": "bias", "input": bias},
        {"name": "c", "input": c0.astype(out), "output": "c.npy"},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "M", "scalar": M, "type": "int32_t"},
        {"name": "N", "scalar": N, "type": "int32_t"},
        {"name": "K", "scalar": K, "type": "int32_t"},
        {"name": "baseM", "scalar": base[0], "type": "int32_t"},
        {"name": "baseN", "scalar": base[1], "type": "int32_t"},
        {"name": "transA", "scalar": int(trans[0]), "type": "int32_t"},
        {"name": "transB", "scalar": int(trans[1]), "type": "int32_t"},
        {"name": "order", "scalar": order, "type": "int32_t"},
    ], block_dim=blocks, defines={"DTYPE_X": CT[dtype], "DTYPE_C": CT[out],
                                  **({"MM_POLICY": f"AscendC::Impl::Detail::{policy}"} if policy else {})})
    res = run_manifest(m, tmp_path / "out", confine=False)
    return res, (np.load(res.outputs["c"]) if res.status == "ok" else np.zeros(0))


def ok(res: SimResult) -> None:
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is not Severity.INFO], [f.message for f in res.findings]


def ab(dtype: str) -> np.ndarray:
    a, b, _, _ = data(dtype)
    return a.astype(np.float32) @ b.astype(np.float32)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("trans", [(False, False), (True, True)])
def test_iterate_all_with_transposes_over_blocks(write_manifest, tmp_path: Path, dtype: str,
                                                 trans: tuple[bool, bool]) -> None:
    res, c = run(write_manifest, tmp_path, 0, dtype, blocks=3, trans=trans)  # 40 rows: 14 + 14 + 12 (SetTail)
    ok(res)
    np.testing.assert_array_equal(c, ab(dtype))
    assert res.estimate and res.estimate["pipes"].get("M", {})


def test_bias_half_output_and_atomic_add(write_manifest, tmp_path: Path) -> None:
    _, _, bias, c0 = data("float16")
    res, c = run(write_manifest, tmp_path, 1, out="float16")
    ok(res)
    np.testing.assert_array_equal(c, (ab("float16") + bias).astype(np.float16))
    res, c = run(write_manifest, tmp_path, 4)
    ok(res)
    np.testing.assert_array_equal(c, c0 + ab("float16"))


@pytest.mark.parametrize("order", [0, 1])
@pytest.mark.parametrize("mode", [2, 3])
def test_iterate_and_get_tensor_c_in_base_blocks(write_manifest, tmp_path: Path, mode: int, order: int) -> None:
    res, c = run(write_manifest, tmp_path, mode, base=(16, 32), order=order, blocks=2)
    ok(res)
    np.testing.assert_array_equal(c, ab("float16"))


@pytest.mark.parametrize(("mode", "code", "words"), [
    (7, "SIM-MM-INPUT", "SetTensorB"),
    (8, "SIM-MM-ITERATE", "Iterate()"),
])
def test_checks_at_the_callers_line(write_manifest, tmp_path: Path, mode: int, code: str, words: str) -> None:
    res, _ = run(write_manifest, tmp_path, mode)
    hits = [f for f in res.findings if f.code == code]
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.path == str(SRC) and hits[0].span.line == marker_line(SRC, code)
    assert hits[0].severity is Severity.ERROR and words in hits[0].message
    assert res.status == "runtime_error"


def test_async_iterate_hands_out_each_block_once(write_manifest, tmp_path: Path) -> None:
    res, c = run(write_manifest, tmp_path, 5, base=(16, 32), blocks=2)
    ok(res)
    np.testing.assert_array_equal(c, ab("float16"))
    res, _ = run(write_manifest, tmp_path, 6, base=(16, 32), blocks=2)
    hits = [f for f in res.findings if f.code == "SIM-MM-ITERATE"]
    assert hits and "already fetched" in hits[0].message, [(f.code, f.message) for f in res.findings]
    line = next(i for i, t in enumerate(SRC.read_text().splitlines(), 1) if "// async GetTensorC" in t)
    assert hits[0].span.line == line


def test_int8_dequant_scalar(write_manifest, tmp_path: Path) -> None:
    res, c = run(write_manifest, tmp_path, 9, dtype="int8", out="float16")
    ok(res)
    a, b, _, _ = data("int8")
    acc = a.astype(np.int32) @ b.astype(np.int32)
    # the scale keeps 1 sign, 8 exponent and 10 mantissa bits
    scale = (np.array([0.1], np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)[0]
    np.testing.assert_array_equal(c, (acc.astype(np.float32) * scale).astype(np.float16))
    assert scale != np.float32(0.1)


@pytest.mark.parametrize("mode", [0, 2])
@pytest.mark.parametrize("policy", ["TrianUpperMatmulPolicy", "TrianLowerMatmulPolicy", "NBuffer33MatmulPolicy"])
def test_policies_and_the_triangular_blocks(write_manifest, tmp_path: Path, mode: int, policy: str) -> None:
    # a triangular policy computes the base blocks (mi, ni) with mi <= ni (upper) or mi >= ni (lower) and leaves the
    # rest of C as it was (CANN's scheduler_base.h IsInTrianMatmul); NBuffer33 changes only the buffering
    _, _, _, c0 = data("float16")
    res, c = run(write_manifest, tmp_path, mode, base=(16, 16), policy=policy)
    ok(res)
    want = ab("float16")
    mi, ni = np.arange(M)[:, None] // 16, np.arange(N)[None, :] // 16
    if policy != "NBuffer33MatmulPolicy":
        keep = mi > ni if policy.startswith("TrianUpper") else mi < ni
        want = np.where(keep, c0, want)
    np.testing.assert_array_equal(c, want)

"""The cube path end to end (ND2NZ into L1, LoadData2D into L0A/L0B with and without fractal transpose, Mmad, Fixpipe
NZ2ND / NZ / F322F16 / ReLU) against numpy for half, float and int8 inputs, and its checks at the caller's line.
One binary per dtype pair (kernels/cube.cpp); M, N, K are not multiples of the fractal sizes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "cube.cpp"
M, N, K = 40, 48, 72
CFG = {  # input dtype -> (DTYPE_X, DTYPE_C, accumulator numpy dtype)
    "float16": ("half", "float", np.float32),
    "float32": ("float", "float", np.float32),
    "int8": ("int8_t", "int32_t", np.int32),
}


def inputs(dtype: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    a = rng.integers(-4, 5, (M, K)).astype(dtype)
    b = rng.integers(-4, 5, (K, N)).astype(dtype)
    bias = rng.integers(-50, 50, N).astype(np.float32)
    return a, b, bias


def run(write_manifest, tmp_path: Path, dtype: str, mode: int,
        checks: str = "npu") -> tuple[SimResult, dict[str, np.ndarray]]:
    a, b, bias = inputs(dtype)
    x, c, acc = CFG[dtype]
    mal, nb = -(-M // 16) * 16, -(-N // 16)
    m = write_manifest(SRC, "cube", [
        {"name": "a", "input": a},
        {"name": "b", "input": b},
        {"name": "bt", "input": np.ascontiguousarray(b.T)},
        {"name": "bias", "input": bias},
        # each mode writes and compares the outputs (or the rows of them) it tests: the rest stays unwritten
        {"name": "c", "output": "c.npy", "dtype": np.dtype(acc).name, "shape": [M, N], "compared": False},
        {"name": "ch", "output": "ch.npy", "dtype": "float16", "shape": [M, N], "compared": False},
        {"name": "cz", "output": "cz.npy", "dtype": np.dtype(acc).name, "shape": [nb, mal, 16], "compared": False},
        {"name": "c2", "output": "c2.npy", "dtype": np.dtype(acc).name, "shape": [2, M, N], "compared": False},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "M", "scalar": M, "type": "int32_t"},
        {"name": "N", "scalar": N, "type": "int32_t"},
        {"name": "K", "scalar": K, "type": "int32_t"},
    ], defines={"DTYPE_X": x, "DTYPE_C": c}, checks=checks)
    res = run_manifest(m, tmp_path / "out", confine=False)
    outs = {k: np.load(v) for k, v in res.outputs.items()} if res.status == "ok" else {}
    return res, outs


def ok(res: SimResult) -> None:
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is not Severity.INFO], [f.message for f in res.findings]


def ref(dtype: str) -> np.ndarray:
    a, b, _ = inputs(dtype)
    acc = CFG[dtype][2]
    return a.astype(acc) @ b.astype(acc)


@pytest.mark.parametrize("dtype", ["float16", "float32", "int8"])
def test_matmul_through_l1_l0_and_fixpipe(write_manifest, tmp_path: Path, dtype: str) -> None:
    res, out = run(write_manifest, tmp_path, dtype, 1)  # B^T in GM: the zN image needs no fractal transpose
    ok(res)
    np.testing.assert_array_equal(out["c"], ref(dtype))
    pipes = res.estimate["pipes"] if res.estimate else {}
    assert {"MTE1", "M", "FIX"} <= set(pipes), pipes


def test_fractal_transpose_accumulate_relu_half(write_manifest, tmp_path: Path) -> None:
    c = ref("float16")
    res, out = run(write_manifest, tmp_path, "float16", 0)  # B as ND K x N: LoadData ifTranspose
    ok(res)
    np.testing.assert_array_equal(out["c"], c)
    res, out = run(write_manifest, tmp_path, "float16", 2)  # cmatrixInitVal false accumulates in L0C
    ok(res)
    np.testing.assert_array_equal(out["c"], 2 * c)
    res, out = run(write_manifest, tmp_path, "float16", 8)
    ok(res)
    np.testing.assert_array_equal(out["c"], np.maximum(c, 0))


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_bias_half_output_and_nz_output(write_manifest, tmp_path: Path, dtype: str) -> None:
    c = ref(dtype)
    _, _, bias = inputs(dtype)
    res, out = run(write_manifest, tmp_path, dtype, 3)
    ok(res)
    np.testing.assert_array_equal(out["c"], c + bias)
    res, out = run(write_manifest, tmp_path, dtype, 4)
    ok(res)
    np.testing.assert_array_equal(out["ch"], c.astype(np.float16))
    res, out = run(write_manifest, tmp_path, dtype, 5)
    ok(res)
    cz = out["cz"]
    for j in range(cz.shape[0]):  # NZ: block j holds columns 16j..16j+15 of all M rows
        np.testing.assert_array_equal(cz[j, :M, :], c[:, 16 * j:16 * j + 16])


def test_c_from_the_bias_table_and_the_deprecated_is_bias(write_manifest, tmp_path: Path) -> None:
    c = ref("float16")
    _, _, bias = inputs("float16")
    res, out = run(write_manifest, tmp_path, "float16", 14)  # cmatrixInitVal false, cmatrixSource true: C = BT + AB
    ok(res)
    np.testing.assert_array_equal(out["c"], c + bias)
    res, out = run(write_manifest, tmp_path, "float16", 15)  # isBias: the second Mmad adds to C
    ok(res)
    np.testing.assert_array_equal(out["c"], 2 * c)


@pytest.mark.parametrize("mode", [9, 10])
def test_bias_through_the_bias_table_counts_64_byte_units(write_manifest, tmp_path: Path, mode: int) -> None:
    # L1 -> C2 DataCopyParams: blockLen (and dstGap) in 64-byte units on A2/A3, srcGap in 32-byte units; read as
    # 32-byte units, only half of the bias would arrive.
    c = ref("float16")
    _, _, bias = inputs("float16")
    res, out = run(write_manifest, tmp_path, "float16", mode)
    ok(res)
    np.testing.assert_array_equal(out["c"], c + bias)


@pytest.mark.parametrize(("mode", "code", "words"), [
    (6, "SIM-MMAD-RANGE", "[0, 4095]"),
    (7, "SIM-POSITION", "L0A (A2)"),
])
def test_checks_at_the_callers_line(write_manifest, tmp_path: Path, mode: int, code: str, words: str) -> None:
    res, _ = run(write_manifest, tmp_path, "float16", mode)
    hits = [f for f in res.findings if f.code == code]
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.path == str(SRC) and hits[0].span.line == marker_line(SRC, code)
    assert hits[0].severity is Severity.ERROR and words in hits[0].message
    assert res.status == "runtime_error"


def test_m1_is_gemv_with_a_read_as_nd(write_manifest, tmp_path: Path) -> None:
    dtype = "float16"  # B goes through the transposing LoadData of mode 0 (16-bit types)
    res, out = run(write_manifest, tmp_path, dtype, 11)
    ok(res)
    a, b, _ = inputs(dtype)
    want = a[:1].astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_array_equal(out["c"][:1], want)


def size_line(api: str) -> int:
    return next(i for i, t in enumerate(SRC.read_text().splitlines(), 1) if f"EXPECT SIM-CUBE-SIZE ({api})" in t)


@pytest.mark.parametrize("checks", ["npu", "cpu-debug"])
def test_mmad_past_its_dst_tensor_is_a_warning(write_manifest, tmp_path: Path, checks: str) -> None:
    # CANN's Mmad checks positions, alignment and m/n/k ranges, not tensor sizes (kernel_operator_mm_check.h): the
    # cube writes the L0C bytes past the tensor (asc-devkit's mmad example, int8 with n aligned to 32, does)
    res, out = run(write_manifest, tmp_path, "float16", 12, checks)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    hits = [f for f in res.findings if f.code == "SIM-CUBE-SIZE"]
    assert len(hits) == 1 and hits[0].severity is Severity.WARNING and hits[0].span.line == size_line("Mmad")
    np.testing.assert_array_equal(out["c"], ref("float16"))


def test_an_l1_copy_past_its_tensor_is_a_cpu_debug_check(write_manifest, tmp_path: Path) -> None:
    res, out = run(write_manifest, tmp_path, "float16", 13)  # npu: a warning, the copy lands as on the NPU
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    hits = [f for f in res.findings if f.code == "SIM-CUBE-SIZE"]
    assert len(hits) == 1 and hits[0].severity is Severity.WARNING and hits[0].span.line == size_line("DataCopy")
    np.testing.assert_array_equal(out["c"], ref("float16"))
    res, _ = run(write_manifest, tmp_path, "float16", 13, "cpu-debug")
    assert res.status == "runtime_error"
    hits = [f for f in res.findings if f.code == "SIM-CUBE-SIZE"]
    assert hits and hits[0].severity is Severity.ERROR and hits[0].span.line == size_line("DataCopy")


def test_k_direction_align_reads_float_rows_of_k_rounded_to_16(write_manifest, tmp_path: Path) -> None:
    # K = 72 floats: rows of 9 fractals of 8 without kDirectionAlign, of 10 (K to 80) with it (Mmad.md)
    res, out = run(write_manifest, tmp_path, "float32", 16)
    ok(res)
    np.testing.assert_array_equal(out["c"], ref("float32"))


@pytest.mark.parametrize("dtype", ["float16", "int8"])
def test_fixpipe_moves_nd_num_matrices(write_manifest, tmp_path: Path, dtype: str) -> None:
    # ndNum 2: the second NZ matrix srcNdStride fractals further in L0C, written dstNdStride elements further
    res, out = run(write_manifest, tmp_path, dtype, 17)
    ok(res)
    c = ref(dtype)
    np.testing.assert_array_equal(out["c2"], np.stack([c, 2 * c]))


def test_unit_flags_and_set_fix_pipe_config(write_manifest, tmp_path: Path) -> None:
    # the emulation runs Mmad and Fixpipe in order: unit flags and the FPC reset leave C as it is; the FPC tensor must
    # be in the fixpipe buffer or L0C
    res, _ = run(write_manifest, tmp_path, "float16", 18)
    hits = [f for f in res.findings if f.code == "SIM-POSITION"]
    line = next(i for i, t in enumerate(SRC.read_text().splitlines(), 1) if "SIM-POSITION (SetFixPipeConfig)" in t)
    assert hits and hits[0].span.line == line and "SetFixPipeConfig" in hits[0].message
    c = np.load(tmp_path / "out" / "c.npy")
    np.testing.assert_array_equal(c, ref("float16"))

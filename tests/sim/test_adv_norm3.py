"""RmsNorm, WelfordUpdate and WelfordFinalize (akgen_sim/adv_normalization.h) against the A2/A3 library's formulas
(rmsnorm_common_impl.h, layernorm_common_impl.h, welfordfinalize_common_impl.h), their parameter and buffer checks at
the call, and the host GetWelfordUpdateMaxMinTmpSize sizes (layernorm_tiling_impl.cpp)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, assert_finding_at, build_host_program, marker_line, needs_gxx, run_host_program

pytestmark = needs_gxx

SRC = KERNELS / "adv_norm3.cpp"
M = 6
EPS = 1e-5


def run_rms(write_manifest, tmp_path: Path, dtype: str, mode: int, h: int, valid: int
            ) -> tuple[SimResult, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    x = rng.uniform(-2, 2, (M, h)).astype(dtype)
    x[:, valid:] = 0
    g = rng.uniform(0.5, 1.5, h).astype(dtype)
    m = write_manifest(SRC, "rmsnorm", [
        {"name": "src", "input": x.ravel()},
        {"name": "gamma", "input": g},
        {"name": "dst", "output": "dst.npy", "dtype": dtype, "shape": [M * h]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "m", "scalar": M, "type": "int32_t"},
        {"name": "h", "scalar": h, "type": "int32_t"},
        {"name": "valid", "scalar": valid, "type": "int32_t"},
        {"name": "eps", "scalar": EPS, "type": "float"},
    ], defines={"DTYPE_X": {"float32": "float", "float16": "half"}[dtype]})
    return run_manifest(m, tmp_path / f"rms_{dtype}_{mode}_{h}_{valid}", confine=False), x, g


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("mode", [0, 1])
def test_rmsnorm_over_the_valid_columns(write_manifest, tmp_path: Path, dtype: str, mode: int) -> None:
    h, valid = 64, 50
    res, x, g = run_rms(write_manifest, tmp_path, dtype, mode, h, valid)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    y = np.load(res.outputs["dst"]).reshape(M, h).astype(np.float64)
    xv = x.astype(np.float64)
    rstd = 1.0 / np.sqrt((xv[:, :valid] ** 2).sum(-1, keepdims=True) / valid + EPS)
    want = xv * rstd * g.astype(np.float64)
    tol = 1e-5 if dtype == "float32" else 2e-3
    np.testing.assert_allclose(y, want, rtol=tol, atol=tol)


@pytest.mark.parametrize(("mode", "code"), [(2, "SIM-UB-SIZE"), (3, "SIM-RMSNORM-SHAPE")])
def test_rmsnorm_small_buffer_and_unaligned_row_are_reported(write_manifest, tmp_path: Path, mode: int,
                                                             code: str) -> None:
    res, _, _ = run_rms(write_manifest, tmp_path, "float32", mode, 64, 64)
    hits = [f for f in res.findings if f.code == code]
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.line == marker_line(SRC, code)
    if code == "SIM-RMSNORM-SHAPE":
        assert res.status == "runtime_error"


AB = 64


def run_welford(write_manifest, tmp_path: Path, mode: int, cnt: int, nrec: float, count: int, rrec: float
                ) -> tuple[SimResult, dict[str, np.ndarray]]:
    rng = np.random.default_rng(11)
    data = {
        "x": rng.uniform(-3, 3, AB).astype(np.float32),
        "mean": rng.uniform(-1, 1, AB).astype(np.float32),
        "var": rng.uniform(0, 2, AB).astype(np.float32),
        "om": np.full(AB, 7.0, np.float32),
        "ov": np.full(AB, 9.0, np.float32),
    }
    m = write_manifest(SRC, "welford", [
        {"name": "x", "input": data["x"]},
        {"name": "mean", "input": data["mean"]},
        {"name": "var", "input": data["var"]},
        {"name": "om", "input": data["om"], "output": "om.npy"},
        {"name": "ov", "input": data["ov"], "output": "ov.npy"},
        {"name": "fm", "output": "fm.npy", "dtype": "float32", "shape": [8]},
        {"name": "fv", "output": "fv.npy", "dtype": "float32", "shape": [8]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "ab", "scalar": AB, "type": "int32_t"},
        {"name": "cnt", "scalar": cnt, "type": "int32_t"},
        {"name": "nrec", "scalar": nrec, "type": "float"},
        {"name": "count", "scalar": count, "type": "int32_t"},
        {"name": "rrec", "scalar": rrec, "type": "float"},
    ])
    return run_manifest(m, tmp_path / f"wf_{mode}_{cnt}", confine=False), data


def update_ref(d: dict[str, np.ndarray], cnt: int, nrec: float) -> tuple[np.ndarray, np.ndarray]:
    x, m0, v0 = (d[k].astype(np.float64) for k in ("x", "mean", "var"))
    delta = x - m0
    m1 = delta * nrec + m0
    return m1[:cnt], (delta * (x - m1) + v0)[:cnt]


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_welford_update_then_finalize(write_manifest, tmp_path: Path, mode: int) -> None:
    cnt, nrec, count, rrec = 45, 1.0 / 3, 3, 1.0 / (3 * AB)
    res, d = run_welford(write_manifest, tmp_path, mode, cnt, nrec, count, rrec)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    om, ov = np.load(res.outputs["om"]), np.load(res.outputs["ov"])
    wm, wv = update_ref(d, cnt, nrec)
    np.testing.assert_allclose(om[:cnt], wm, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ov[:cnt], wv, rtol=1e-5, atol=1e-6)
    # the tail: in place copies the input's last block-aligned part; otherwise the outputs keep their contents
    tail_start = AB - (AB - cnt + 7) // 8 * 8
    if mode == 1:
        np.testing.assert_array_equal(om[cnt:], d["mean"][cnt:])
        np.testing.assert_array_equal(ov[cnt:], d["var"][cnt:])
        assert tail_start <= cnt
    else:
        np.testing.assert_array_equal(om[cnt:], d["om"][cnt:])
        np.testing.assert_array_equal(ov[cnt:], d["ov"][cnt:])
    mean = (om.astype(np.float64) * count * rrec).sum()
    var = (((om.astype(np.float64) - mean) ** 2 * count + ov) * rrec).sum()
    fm, fv = np.load(res.outputs["fm"]), np.load(res.outputs["fv"])
    np.testing.assert_allclose(fm[0], mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(fv[0], var, rtol=1e-5, atol=1e-6)


def test_welford_update_rnlength_other_than_one_is_reported(write_manifest, tmp_path: Path) -> None:
    res, _ = run_welford(write_manifest, tmp_path, 3, 64, 0.5, 1, 1.0)
    assert_finding_at(res, "SIM-WELFORD-PARA", SRC)


HOST = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    for (uint32_t ts : {2u, 4u}) {
        for (int reuse = 0; reuse < 2; ++reuse) {
            uint32_t mx = 0, mn = 0;
            AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 200}), ts, 4, reuse, true, mx, mn);
            std::printf("%u %d %u %u\n", ts, reuse, mx, mn);
        }
    }
    uint32_t mx = 5, mn = 5;
    AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({200}), 4, 4, false, false, mx, mn);
    std::printf("bad %u %u\n", mx, mn);
}
"""


def test_host_welford_update_sizes(tmp_path: Path) -> None:
    out = run_host_program(tmp_path, HOST, "h")
    reps = (200 + 63) // 64
    want = [f"2 0 {reps * 768} 768", f"2 1 {reps * 768} 768", f"4 0 {reps * 512} 512", f"4 1 {reps * 256} 256",
            "bad 5 5"]
    assert out.stdout.splitlines() == want
    assert "srcShape dims must be 2" in out.stderr


def run_normalize(write_manifest, tmp_path: Path, mode: int) -> tuple[SimResult, dict[str, np.ndarray]]:
    a, r, rp = 5, 20, 24
    rng = np.random.default_rng(2)
    d = {"x": rng.uniform(-2, 2, (a, rp)).astype(np.float32), "mean": rng.uniform(-1, 1, 16).astype(np.float32),
         "var": rng.uniform(0.1, 2, 16).astype(np.float32), "gamma": rng.uniform(0.5, 1.5, rp).astype(np.float32),
         "beta": rng.uniform(-1, 1, rp).astype(np.float32)}
    m = write_manifest(SRC, "normalize", [
        {"name": "x", "input": d["x"].ravel()},
        {"name": "mean", "input": d["mean"]},
        {"name": "var", "input": d["var"]},
        {"name": "gamma", "input": d["gamma"]},
        {"name": "beta", "input": d["beta"]},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [a * rp]},
        {"name": "rstd", "output": "rstd.npy", "dtype": "float32", "shape": [16]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "a", "scalar": a, "type": "int32_t"},
        {"name": "r", "scalar": r, "type": "int32_t"},
        {"name": "rp", "scalar": rp, "type": "int32_t"},
        {"name": "eps", "scalar": EPS, "type": "float"},
    ], defines={"DTYPE_X": "float"})
    return run_manifest(m, tmp_path / f"norm_{mode}", confine=False), d


@pytest.mark.parametrize("mode", [0, 1])
def test_normalize_with_given_mean_and_variance(write_manifest, tmp_path: Path, mode: int) -> None:
    res, d = run_normalize(write_manifest, tmp_path, mode)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    a, r = 5, 20
    rstd = 1.0 / np.sqrt(d["var"][:a].astype(np.float64) + EPS)
    want = (d["x"][:, :r] - d["mean"][:a, None]) * rstd[:, None] * d["gamma"][:r]
    if mode == 0:
        want = want + d["beta"][:r]
    y = np.load(res.outputs["y"]).reshape(a, 24)
    np.testing.assert_allclose(y[:, :r], want, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(y[:, r:], d["x"][:, r:])  # the padding columns are not written
    np.testing.assert_allclose(np.load(res.outputs["rstd"])[:a], rstd, rtol=1e-6)


def test_normalize_unaligned_padding_is_reported(write_manifest, tmp_path: Path) -> None:
    res, _ = run_normalize(write_manifest, tmp_path, 2)
    assert_finding_at(res, "SIM-NORMALIZE-SHAPE", SRC)


HOST_LN = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    uint32_t mx = 0, mn = 0;
    AscendC::GetNormalizeMaxMinTmpSize(ge::Shape({5, 20}), 4, 4, false, true, false, mx, mn);
    std::printf("norm %u %u\n", mx, mn);
    AscendC::GetLayerNormMaxMinTmpSize(ge::Shape({5, 20}), 4, false, true, false, mx, mn);
    std::printf("ln %u %u\n", mx, mn);
    AscendC::tiling::LayerNormSeparateTiling t;
    AscendC::GetLayerNormNDTilingInfo(ge::Shape({5, 20}), mn, 4, false, true, t);
    std::printf("tiling %u %u %u %u %u %u %u\n", t.aLength, t.inputXSize, t.oneTmpSize, t.loopRound, t.inputTailSize,
                t.meanVarRoundSize, t.firstTmpStartPos);
}
"""


def test_host_layernorm_and_normalize_sizes(tmp_path: Path) -> None:
    out = run_host_program(tmp_path, HOST_LN, "h")
    rp = 24
    nmax = 2 * rp * 4 + 2 * (8 * rp * 4)  # rows rounded up to 8
    nmin = max(32, 2 * rp * 4)
    mv = 32
    lmax = max(2 * 5 * rp * 4 + mv, nmax + mv)
    lmin = max(2 * rp * 4 + mv, nmin + mv)
    one = (lmin // 4 - 8) // 2 // rp * rp
    assert out.stdout.splitlines() == [f"norm {nmax} {nmin}", f"ln {lmax} {lmin}",
                                       f"tiling 5 {5 * rp} {one} {5 * rp // one} {5 * rp % one} {one // rp} 8"]


HOST_DN = r"""
#include <cstdio>
#include <cstdlib>
#include "tiling/tiling_api.h"
int main(int argc, char** argv) {
    const int64_t rows = std::atoll(argv[1]), h = std::atoll(argv[2]);
    uint32_t mx = 0, mn = 0;
    const bool ok = AscendC::GetDeepNormMaxMinTmpSize(ge::Shape({1, rows, h}), 4, false, false, mx, mn);
    optiling::DeepNormTiling t;
    const bool tok = AscendC::GetDeepNormTilingInfo(ge::Shape({1, rows, h}), ge::Shape({1, rows, h}), mn, 4, false,
                                                    false, t);
    std::printf("%d %d %u %u\n", ok, tok, mx, mn);
    const uint32_t* w = reinterpret_cast<const uint32_t*>(&t);
    for (size_t i = 0; i < sizeof(t) / 4; ++i) std::printf("%u ", w[i]);
    std::printf("\n");
    uint32_t a = 7, b = 7;
    std::printf("bad %d %u %u\n", AscendC::GetDeepNormMaxMinTmpSize(ge::Shape({1, rows, 12}), 4, false, false, a, b),
                a, b);
}
"""


def test_deepnorm_against_numpy_and_host_tiling(write_manifest, tmp_path: Path) -> None:
    rows, h = 6, 32
    exe = build_host_program(tmp_path, HOST_DN, "d")
    out = subprocess.run([str(exe), str(rows), str(h)], capture_output=True, text=True, check=True)
    head, words, bad = out.stdout.splitlines()
    mx_want = 3 * rows * h * 4 + 2 * 32
    mn_want = 3 * h * 4 + 2 * 32
    assert head == f"1 1 {mx_want} {mn_want}"
    assert bad == "bad 0 7 7" and "32-byte aligned" in out.stderr
    tiling = np.array([int(v) for v in words.split()], dtype=np.uint32)
    assert list(tiling[:4]) == [1, rows, h, h] and tiling[12] == (mn_want // 4) // 3 // h * h  # oneTmpSize
    rng = np.random.default_rng(4)
    x = rng.uniform(-2, 2, (rows, h)).astype(np.float32)
    gx = rng.uniform(-2, 2, (rows, h)).astype(np.float32)
    g = rng.uniform(0.5, 1.5, h).astype(np.float32)
    b = rng.uniform(-1, 1, h).astype(np.float32)
    alpha = 0.7
    for mode in (0, 1, 2):
        m = write_manifest(SRC, "deepnorm", [
            {"name": "x", "input": x.ravel()}, {"name": "gx", "input": gx.ravel()},
            {"name": "gamma", "input": g}, {"name": "beta", "input": b}, {"name": "tilingGm", "input": tiling},
            {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [rows * h]},
            {"name": "mean", "output": "mean.npy", "dtype": "float32", "shape": [16]},
            {"name": "var", "output": "var.npy", "dtype": "float32", "shape": [16]},
            {"name": "mode", "scalar": mode, "type": "int32_t"}, {"name": "rows", "scalar": rows, "type": "int32_t"},
            {"name": "h", "scalar": h, "type": "int32_t"}, {"name": "alpha", "scalar": alpha, "type": "float"},
            {"name": "eps", "scalar": EPS, "type": "float"}, {"name": "tmp", "scalar": mn_want, "type": "int32_t"},
        ], defines={"DTYPE_X": "float"})
        res = run_manifest(m, tmp_path / f"dn_{mode}", confine=False)
        if mode == 2:
            assert_finding_at(res, "SIM-DEEPNORM-TILING", SRC)
            continue
        assert res.status == "ok", [(f.code, f.message) for f in res.findings]
        x1 = alpha * x.astype(np.float64) + gx
        mu = x1.mean(-1)
        var = ((x1 - mu[:, None]) ** 2).mean(-1)
        want = (x1 - mu[:, None]) / np.sqrt(var[:, None] + EPS) * g + b
        np.testing.assert_allclose(np.load(res.outputs["y"]).reshape(rows, h), want, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(np.load(res.outputs["mean"])[:rows], mu, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(np.load(res.outputs["var"])[:rows], var, rtol=1e-5, atol=1e-6)

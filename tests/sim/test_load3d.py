"""LoadData with LoadData3DParamsV2 (cube_load3d.h): im2col of an NC1HWC0 feature map into L0A / L0B, checked through
the cube (kernels/load3d.cpp multiplies the loaded block with a known ND operand) against numpy's im2col of the
reference CANN ships (asc-devkit's load_data_l12l0/scripts/load3d.py): padding with the pad value, strides,
dilations, a K and M window; L0A plain and transposed, L0B; the FMATRIX registers of SetFmatrix."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "load3d.cpp"
TYPES = {"float16": ("half", "float", np.float32), "float32": ("float", "float", np.float32),
         "int8": ("int8_t", "int32_t", np.int32)}
PAD_VALUE = 3


def im2col(fm: np.ndarray, fh: int, fw: int, sh: int, sw: int, dh: int, dw: int, pads: tuple) -> np.ndarray:
    """load3d.py's nc1hwc0_im2col for N = 1 as its 2-D view: rows = output positions, columns = (c1, kh, kw, c0)."""
    c1, h, w, c0 = fm.shape
    pl, pr, pt, pb = pads
    padded = np.pad(fm, ((0, 0), (pt, pb), (pl, pr), (0, 0)), constant_values=PAD_VALUE)
    hout = (h + pt + pb - ((fh - 1) * dh + 1)) // sh + 1
    wout = (w + pl + pr - ((fw - 1) * dw + 1)) // sw + 1
    out = np.zeros((hout * wout, c1, fh * fw, c0), fm.dtype)
    for ho in range(hout):
        for wo in range(wout):
            for kh in range(fh):
                for kw in range(fw):
                    out[ho * wout + wo, :, kh * fw + kw, :] = padded[:, ho * sh + kh * dh, wo * sw + kw * dw, :]
    return out.reshape(hout * wout, -1)


def run(write_manifest, tmp_path: Path, dtype: str, mode: int, geo: dict) -> tuple[object, np.ndarray]:
    x, cty, acc = TYPES[dtype]
    c0 = 32 // np.dtype(dtype).itemsize
    rng = np.random.default_rng(7)
    fm = rng.integers(-4, 5, (geo["c1"], geo["h"], geo["w"], c0)).astype(dtype)
    cols = im2col(fm, geo["fh"], geo["fw"], geo["sh"], geo["sw"], geo["dh"], geo["dw"], geo["pads"])
    block = cols[geo["mstart"]:geo["mstart"] + geo["mext"], geo["kstart"]:geo["kstart"] + geo["kext"]].astype(acc)
    M = N = 24
    if mode == 2:
        other = rng.integers(-3, 4, (M, geo["mext"])).astype(dtype)
        want = other.astype(acc) @ block
    else:
        a = block.T if mode == 1 else block
        other = rng.integers(-3, 4, (N, a.shape[1])).astype(dtype)  # B^T
        want = a @ other.astype(acc).T
    g = [geo["h"], geo["w"], geo["c1"], geo["fh"], geo["fw"], geo["sh"], geo["sw"], geo["dh"], geo["dw"],
         *geo["pads"], geo["kstart"], geo["mstart"], geo["kext"] | geo["mext"] << 16]
    m = write_manifest(SRC, "load3d", [
        {"name": "fmap", "input": fm.reshape(-1)},
        {"name": "other", "input": other},
        {"name": "c", "output": "c.npy", "dtype": np.dtype(acc).name, "shape": list(want.shape)},
        {"name": "geo", "input": np.array(g, np.int32)},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "M", "scalar": M, "type": "int32_t"},
        {"name": "N", "scalar": N, "type": "int32_t"},
    ], defines={"DTYPE_X": x, "DTYPE_C": cty})
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is Severity.ERROR]
    return res, (np.load(res.outputs["c"]), want)


# a 3x3 filter, stride 2, dilation 1 and 2, padding 1 (filled with the pad value), a window into K and M
CONV = {"c1": 2, "h": 13, "w": 10, "fh": 3, "fw": 3, "sh": 2, "sw": 1, "dh": 1, "dw": 2, "pads": (1, 1, 1, 0),
        "kstart": 0, "mstart": 16, "kext": 64, "mext": 32}


@pytest.mark.parametrize("dtype", ["float16", "float32", "int8"])
def test_im2col_into_l0a(write_manifest, tmp_path: Path, dtype: str) -> None:
    geo = dict(CONV, kext=128 if dtype == "int8" else 64)
    _, (got, want) = run(write_manifest, tmp_path, dtype, 0, geo)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_im2col_transposed_into_l0a_and_into_l0b(write_manifest, tmp_path: Path, dtype: str) -> None:
    geo = dict(CONV, kstart=32 if dtype == "float16" else 16, kext=32)
    _, (got, want) = run(write_manifest, tmp_path, dtype, 1, geo)
    np.testing.assert_array_equal(got, want)
    _, (got, want) = run(write_manifest, tmp_path, dtype, 2, geo)
    np.testing.assert_array_equal(got, want)


def test_the_feature_map_from_set_fmatrix(write_manifest, tmp_path: Path) -> None:
    _, (got, want) = run(write_manifest, tmp_path, "float16", 3, CONV)
    np.testing.assert_array_equal(got, want)

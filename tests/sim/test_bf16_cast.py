"""bfloat16 emulation against a bit-level numpy model: Cast float -> bfloat16 with every RoundMode (CAST_NONE is
CAST_RINT for a lossy conversion, CAST_ROUND rounds half away from zero, CAST_ODD picks the odd neighbour), ties
included; bfloat16 -> float widens exactly; and the add / round / scale / round chain the AddRmsNorm bf16 kernels
use gives the same bits as numpy doing those steps in float32 with a round-to-nearest-even after each Cast."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "bf16_cast.cpp"
N = 512
MODES = {0: "none", 1: "rint", 2: "floor", 3: "ceil", 4: "round", 5: "trunc", 6: "odd"}


def to_bf16(x: np.ndarray, mode: str) -> np.ndarray:
    """float32 -> bfloat16 bits (uint16) under a RoundMode, from the float's bits."""
    u = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    neg = (u >> 31).astype(bool)
    down = u >> 16  # magnitude truncated: toward zero
    rem = u & 0xFFFF
    exact = rem == 0
    if mode in ("none", "rint"):
        up = (rem > 0x8000) | ((rem == 0x8000) & ((down & 1) == 1))
    elif mode == "round":
        up = rem >= 0x8000
    elif mode == "trunc":
        up = np.zeros_like(exact)
    elif mode == "floor":
        up = neg & ~exact
    elif mode == "ceil":
        up = ~neg & ~exact
    else:  # odd: the neighbour whose last bit is 1
        up = ~exact & ((down & 1) == 0)
    return (down + up.astype(np.uint64)).astype(np.uint16)


def bf16_to_f32(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    x = rng.uniform(-100, 100, N).astype(np.float32)
    # exact ties (low half 0x8000) with even and odd upper halves, both signs, and exactly representable values
    base = rng.integers(0x3F00, 0x4300, 64).astype(np.uint32) << 16
    x[:64] = (base | 0x8000).view(np.float32)
    x[64:96] = -x[:32]
    x[96:128] = base[:32].view(np.float32)
    y = to_bf16(rng.uniform(0, 2, N).astype(np.float32), "rint")
    return x, y


def run(write_manifest, tmp_path: Path, mode: int):
    x, y = inputs()
    m = write_manifest(SRC, "bf16_cast", [
        {"name": "x", "input": x},
        {"name": "y", "input": y},
        {"name": "z", "output": "z.npy", "dtype": "bfloat16", "shape": [N]},
        {"name": "w", "output": "w.npy", "dtype": "float32", "shape": [N]},
        {"name": "v", "output": "v.npy", "dtype": "bfloat16", "shape": [N]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
    ])
    res = run_manifest(m, tmp_path / f"o{mode}", confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    return x, y, {k: np.load(res.outputs[k]) for k in ("z", "w", "v")}


@pytest.mark.parametrize("mode", sorted(MODES))
def test_cast_float_to_bf16_round_modes(write_manifest, tmp_path: Path, mode: int) -> None:
    x, _, out = run(write_manifest, tmp_path, mode)
    want = to_bf16(x, MODES[mode])
    got = out["z"].view(np.uint16)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [(float(x[i]), hex(int(got[i])), hex(int(want[i]))) for i in bad[:5]]


def test_ties_separate_the_modes() -> None:
    # the model itself: a tie goes to even under RINT, away from zero under ROUND
    tie = np.array([np.uint32(0x3F818000)]).view(np.float32)  # 1.01171875: upper half 0x3F81 is odd
    assert to_bf16(tie, "rint")[0] == 0x3F82 and to_bf16(tie, "round")[0] == 0x3F82
    tie2 = np.array([np.uint32(0x3F808000)]).view(np.float32)  # upper half even
    assert to_bf16(tie2, "rint")[0] == 0x3F80 and to_bf16(tie2, "round")[0] == 0x3F81
    assert to_bf16(-tie2, "floor")[0] == 0xBF81 and to_bf16(-tie2, "ceil")[0] == 0xBF80


def test_bf16_widening_and_add_scale_chain(write_manifest, tmp_path: Path) -> None:
    x, y, out = run(write_manifest, tmp_path, 1)
    yf = bf16_to_f32(y)
    np.testing.assert_array_equal(out["w"].view(np.float32), yf)
    t = to_bf16((yf + x).astype(np.float32), "rint")
    v = to_bf16((bf16_to_f32(t) * x).astype(np.float32), "rint")
    np.testing.assert_array_equal(out["v"].view(np.uint16), v)

"""`TILING_KEY_IS(k)` in `if constexpr`: CANN's NPU build compiles a kernel once per tiling key with
-DTILING_KEY_VAR=<key>, so a kernel may dispatch on its key at compile time (ops-nn's fused_patch_mlp does); the sim
builds such a kernel once per key too (sim/tiling_key.py), and a run whose key is not the build's stops with
SIM-TILING-KEY instead of running none of the branches."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.build import compile_kernel
from akgen_lsp.sim.manifest import load_manifest
from akgen_lsp.sim.runner import run_build
from akgen_lsp.sim.tiling_key import keys_tested, needs_key_build
from akgen_lsp.sim.toolchain import options_for

from .conftest import needs_gxx

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
template <typename T, int SCALE> struct Scale {
    __aicore__ static void Run(GlobalTensor<T>& x, GlobalTensor<T>& y, int n) {
        for (int i = 0; i < n; ++i) y.SetValue(i, x.GetValue(i) * SCALE);
    }
};
template <typename T> __aicore__ inline void Dispatch(GlobalTensor<T>& x, GlobalTensor<T>& y, int n) {
    if constexpr (TILING_KEY_IS(2)) {
        Scale<T, 2>::Run(x, y, n);
    } else if constexpr (TILING_KEY_IS(3)) {
        Scale<T, 3>::Run(x, y, n);
    } else {
        static_assert(sizeof(T) == 0, "no branch for this tiling key");  // discarded: never instantiated
    }
}
extern "C" __global__ __aicore__ void keyed(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int32_t*)x, 16);
    yGm.SetGlobalBuffer((__gm__ int32_t*)y, 16);
    Dispatch(xGm, yGm, 16);
}
"""


def _manifest(write_manifest, tmp_path: Path, key: int) -> Path:
    src = tmp_path / "keyed.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    x = np.arange(-8, 8, dtype=np.int32)
    return write_manifest(src, "keyed", [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": "int32", "shape": [16]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}],
        tiling_key=key)


def test_which_sources_are_built_per_key(tmp_path: Path) -> None:
    keyed = tmp_path / "a.cpp"
    keyed.write_text(KERNEL, encoding="utf-8")
    plain = tmp_path / "b.cpp"
    plain.write_text("void f() { if (TILING_KEY_IS(1)) {} }\n// if constexpr (TILING_KEY_IS(9))\n", encoding="utf-8")
    assert needs_key_build([keyed]) and keys_tested([keyed]) == [2, 3]
    assert not needs_key_build([plain])  # a run-time test, and one in a comment


@needs_gxx
def test_constexpr_tiling_key_runs_the_key_branch(write_manifest, tmp_path: Path) -> None:
    x = np.arange(-8, 8, dtype=np.int32)
    for key, scale in ((2, 2), (3, 3)):
        res = run_manifest(_manifest(write_manifest, tmp_path, key), tmp_path / f"out{key}")
        assert res.status == "ok", [f.message for f in res.findings]
        np.testing.assert_array_equal(np.load(res.outputs["y"]), x * scale)


@needs_gxx
def test_a_run_of_another_key_stops(write_manifest, tmp_path: Path) -> None:
    path = _manifest(write_manifest, tmp_path, 3)
    m = load_manifest(path)
    build = compile_kernel(list(m.sources), options_for(m, tiling_key=2))
    assert build.ok, [f.message for f in build.findings]
    run = run_build(build, m, tmp_path / "out")
    assert run.status != "ok"
    found = [f for f in run.findings if f.code == "SIM-TILING-KEY"]
    assert found, [(f.code, f.message) for f in run.findings]
    assert "for key 2" in found[0].message and "key is 3" in found[0].message
    line = KERNEL.splitlines().index("    if constexpr (TILING_KEY_IS(2)) {") + 1
    assert Path(found[0].span.path).name == "keyed.cpp" and found[0].span.line == line, found[0].span

"""APIs the public CANN samples use that the simulator lacked: FasterGelu (against a numpy model of the library's
steps), DumpTensor with a ShapeInfo and DumpAccChkPoint, host GetBroadCastMaxMinTmpSize (the library's formulas),
the `graph/tensor.h` and `acl/acl_base.h` include names, and the generated `aclrtlaunch_<kernel>.h` launch header of
NPU-mode mains (`ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...)`)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.program import run_program

from .conftest import KERNELS, needs_gxx, run_host_program

pytestmark = needs_gxx

N = 512


def faster_gelu_model(x: np.ndarray, hp: bool, hperf: bool) -> np.ndarray:
    c = np.float32 if (hp or x.dtype == np.float32) else x.dtype.type
    xf = x.astype(c)
    t = (xf * c(-1.702)).astype(c)
    t = np.exp(t.astype(np.float32)).astype(c)
    t = (t + c(1)).astype(c)
    y = (xf * (c(1) / t).astype(c)).astype(c) if hperf else (xf / t).astype(c)
    return y.astype(x.dtype)


@pytest.mark.parametrize("dtype,hp,hperf", [("float32", False, False), ("float16", False, False),
                                            ("float16", True, False), ("float32", False, True)])
def test_faster_gelu_follows_the_library_steps(write_manifest, tmp_path: Path, dtype: str, hp: bool,
                                               hperf: bool) -> None:
    x = np.linspace(-6, 6, N).astype(dtype)
    m = write_manifest(KERNELS / "faster_gelu.cpp", "faster_gelu", [
        {"name": "x", "input": x}, {"name": "z", "output": "z.npy", "dtype": dtype, "shape": [N]},
        {"name": "n", "scalar": N, "type": "int32_t"},
    ], defines={"DTYPE_X": "float" if dtype == "float32" else "half", "HP": str(hp).lower(),
                "HPERF": str(hperf).lower()})
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is Severity.ERROR]
    z = np.load(res.outputs["z"])
    want = faster_gelu_model(x, hp, hperf)
    np.testing.assert_allclose(z.astype(np.float64), want.astype(np.float64), rtol=2e-3 if dtype == "float16" else
                               1e-6, atol=1e-3 if dtype == "float16" else 1e-6)
    ref = x.astype(np.float64) / (1 + np.exp(-1.702 * x.astype(np.float64)))  # and it is FasterGelu
    np.testing.assert_allclose(z.astype(np.float64), ref, rtol=1e-2, atol=1e-2)


def test_npu_mode_main_with_the_generated_launch_header(tmp_path: Path) -> None:
    res = run_program(Path(__file__).parent / "programs" / "npu_main", tmp_path)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    values = [float(v) for v in res.stdout.split("tensor")[0].split() if v.replace(".", "").isdigit()]
    assert values[-16:] == [float(i + 1) for i in range(16)], res.stdout
    assert len(res.launches) == 1 and res.launches[0]["blocks"] == 2
    assert "tensor 0" in res.stdout  # ge::Tensor of graph/tensor.h
    # DumpTensor with a ShapeInfo prints the data in rows of the last dim; DumpAccChkPoint from its offset
    # (in CANN's print format: scripts such as the DumpTensor sample's run.sh grep it for "desc=N")
    assert re.search(r"DumpTensor: desc=7, addr=0x[0-9a-f]+, data_type=float32, position=UB, dump_size=8\n"
                     r"\[1\.000000, 2\.000000, 3\.000000, 4\.000000\]\n\[5\.000000, 6\.000000, 7\.000000, "
                     r"8\.000000\]", res.stdout), res.stdout
    # DumpAccChkPoint prints as a DumpTensor whose desc is its index, from element countOff on (6 of 8: 2 left)
    assert re.search(r"DumpTensor: desc=3, addr=0x[0-9a-f]+, data_type=float32, position=UB, dump_size=2\n"
                     r"\[7\.000000, 8\.000000\]", res.stdout), res.stdout


HOST = r"""
#include <cstdio>
#include "acl/acl_base.h"
#include "graph/tensor.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"
static void show(const char* soc, std::vector<int64_t> s, std::vector<int64_t> d, uint32_t ts) {
    auto* p = platform_ascendc::PlatformAscendCManager::GetInstance(soc);
    uint32_t mx = 7, mn = 7;
    AscendC::GetBroadCastMaxMinTmpSize(*p, ge::Shape(s), ge::Shape(d), ts, false, mx, mn);
    std::printf("%u %u\n", mn, mx);
}
int main() {
    show("Ascend910B2", {16, 1}, {16, 64}, 2);
    show("Ascend910B2", {1, 64}, {16, 64}, 4);
    show("Ascend910B2", {8, 1}, {8, 20}, 4);
    show("Ascend910B2", {4, 1}, {4, 32}, 1);
    show("Ascend910B2", {16, 64}, {16, 64}, 2);
    show("Ascend910B2", {3, 5}, {4, 5}, 2);
    platform_ascendc::platform_profile().soc = platform_ascendc::SocVersion::ASCEND310P;  // the run's arch
    show("Ascend310P3", {16, 1}, {16, 64}, 2);
    return 0;
}
"""


def test_host_broadcast_tmp_sizes(tmp_path: Path) -> None:
    res = run_host_program(tmp_path, HOST)
    rows = [tuple(int(v) for v in line.split()) for line in res.stdout.splitlines()]
    # min, max: Brcb scratch for a broadcast last axis; one block for axis 0; the copy scratch when dim 1 is not
    # 32-byte aligned; int8 adds its cast to half; a copy needs nothing; a bad shape leaves the outputs (7, 7); the
    # 310P formula on a 310P
    assert rows == [(512, 512), (32, 32), (1024, 1024), (800, 544), (0, 0), (7, 7), (288, 2080)]
    assert "cannot broadcast" in res.stderr

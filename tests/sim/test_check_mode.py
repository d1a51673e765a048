"""Check modes (manifest `checks`): "npu" (the default) warns at the checks only CANN's CPU-debug library makes and goes
on as the NPU does; "cpu-debug" ends the block there. What the hardware cannot do (an access past the physical UB or
L1) ends the block in both modes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.manifest import ManifestError, parse_manifest

from .conftest import marker_line, needs_gxx

# The scalar `mode` picks one case; a line's `// EXPECT <code>` marker is where its finding must point. Each case
# that the NPU runs through writes z = x + k for a known k (the correct result for the kernel as the NPU runs it).
KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TILE = 256;  // floats: 1 KiB

extern "C" __global__ __aicore__ void check_mode(GM_ADDR x, GM_ADDR z, int32_t mode)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, TILE);
    zGm.SetGlobalBuffer((__gm__ float*)z, TILE);
    pipe.InitBuffer(inQ, 1, TILE * sizeof(float));
    pipe.InitBuffer(outQ, 1, TILE * sizeof(float));
    if (mode == 1 || mode == 2) {
        pipe.InitBuffer(tmpBuf, 200 * 1024);  // EXPECT SIM-UB-LIMIT
    } else if (mode == 4) {
        pipe.InitBuffer(tmpBuf, 512);
    } else {
        pipe.InitBuffer(tmpBuf, TILE * sizeof(float));
    }
    LocalTensor<float> xl = inQ.AllocTensor<float>();
    DataCopy(xl, xGm, TILE);
    inQ.EnQue(xl);
    xl = inQ.DeQue<float>();
    LocalTensor<float> yl = outQ.AllocTensor<float>();
    if (mode == 1) {
        // the buffer past UB is never touched: the NPU runs this kernel correctly
        Adds(yl, xl, 1.0f, TILE);
    } else if (mode == 2) {
        LocalTensor<float> big = tmpBuf.Get<float>();
        Duplicate(big, 0.0f, 200 * 256);  // EXPECT SIM-UB-OOB@2
        Adds(yl, xl, 1.0f, TILE);
    } else if (mode == 3) {
        LocalTensor<float> t = tmpBuf.Get<float>(0);  // EXPECT SIM-TBUF-LEN
        Duplicate(t, 2.0f, TILE);
        Add(yl, xl, t, TILE);
    } else if (mode == 4) {
        LocalTensor<float> t = tmpBuf.Get<float>(TILE);  // EXPECT SIM-TBUF-SIZE
        Duplicate(t, 3.0f, TILE);
        Add(yl, xl, t, TILE);
    } else if (mode == 5) {
        xl.SetSize(TILE / 2);
        Adds(yl, xl, 4.0f, TILE);  // EXPECT SIM-UB-SIZE
    } else if (mode == 6) {
        // use after free: the buffer is handed out again and overwritten; the stale tensor sees the new bytes
        TQue<QuePosition::VECCALC, 1> tmpQ;
        pipe.InitBuffer(tmpQ, 1, TILE * sizeof(float));
        LocalTensor<float> a = tmpQ.AllocTensor<float>();
        Duplicate(a, 5.0f, TILE);
        tmpQ.FreeTensor(a);
        LocalTensor<float> b = tmpQ.AllocTensor<float>();
        Duplicate(b, 7.0f, TILE);
        Add(yl, xl, a, TILE);  // EXPECT SIM-TENSOR-FREED
        tmpQ.FreeTensor(b);
    } else if (mode == 7) {
        LocalTensor<float> t = tmpBuf.Get<float>(8);
        t.SetValue(100, 9.0f);  // EXPECT SIM-UB-OOB@7
        float v = t.GetValue(100);
        Adds(yl, xl, v, TILE);
    } else if (mode == 8) {
        LocalTensor<float> t = tmpBuf.Get<float>(8);
        t.SetValue(60000, 1.0f);  // EXPECT SIM-UB-OOB@8
        Adds(yl, xl, 1.0f, TILE);
    } else if (mode == 9) {
        TQue<QuePosition::A1, 1> l1Q;
        pipe.InitBuffer(l1Q, 1, 600 * 1024);
        LocalTensor<float> l1 = l1Q.AllocTensor<float>();
        DataCopy(l1, xGm, TILE);
        DataCopy(l1[150000], xGm, TILE);  // EXPECT SIM-MEM-OOB
        l1Q.FreeTensor(l1);
        Adds(yl, xl, 1.0f, TILE);
    } else if (mode == 10) {
        // Compare writes its bits into an int8_t tensor, and Select takes that as its mask
        TQue<QuePosition::VECCALC, 1> maskQ;
        pipe.InitBuffer(maskQ, 1, 256);
        LocalTensor<int8_t> m = maskQ.AllocTensor<int8_t>();
        LocalTensor<float> t = tmpBuf.Get<float>();
        Duplicate(t, 100.0f, TILE);
        Compare(m, xl, t, CMPMODE::LT, TILE);
        Select(yl, m, xl, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, TILE);  // EXPECT SIM-DTYPE
        maskQ.FreeTensor(m);
    } else if (mode == 11) {
        // far past UB, and past everything the simulator maps: still a finding, never a crash
        LocalTensor<float> t = tmpBuf.Get<float>(8);
        float v = t.GetValue(100000000);  // EXPECT SIM-UB-OOB@11
        Adds(yl, xl, v, TILE);
    } else if (mode == 12) {
        // freed through another queue: the NPU frees the tensor's own buffer, so it can be allocated again
        TQue<QuePosition::VECCALC, 1> aQ, bQ;
        pipe.InitBuffer(aQ, 1, TILE * sizeof(float));
        pipe.InitBuffer(bQ, 1, TILE * sizeof(float));
        LocalTensor<float> a = aQ.AllocTensor<float>();
        Duplicate(a, 6.0f, TILE);
        Add(yl, xl, a, TILE);
        bQ.FreeTensor(a);  // EXPECT SIM-QUE-FOREIGN
        LocalTensor<float> again = aQ.AllocTensor<float>();
        aQ.FreeTensor(again);
    }
    outQ.EnQue(yl);
    inQ.FreeTensor(xl);
    yl = outQ.DeQue<float>();
    DataCopy(zGm, yl, TILE);
    outQ.FreeTensor(yl);
}
"""

pytestmark = needs_gxx


@pytest.fixture
def kernel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.getbasetemp() / "check_mode.cpp"
    if not path.is_file():
        path.write_text(KERNEL.lstrip(), encoding="utf-8")
    return path


def run(write_manifest: Any, kernel: Path, tmp_path: Path, mode: int, checks: str | None) -> Any:
    extra = {} if checks is None else {"checks": checks}
    m = write_manifest(kernel, "check_mode", [
        {"name": "x", "input": np.arange(256, dtype=np.float32)},
        {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [256]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
    ], **extra)
    return run_manifest(m, tmp_path / f"out-{mode}-{checks}", confine=False)


def _plus(k: float) -> Callable[[np.ndarray], np.ndarray]:
    return lambda x: x + np.float32(k)


# mode, marker (the code, and where one code marks several lines, @mode), what the NPU computes from x
RELAXED: list[tuple[int, str, Callable[[np.ndarray], np.ndarray]]] = [
    (1, "SIM-UB-LIMIT", _plus(1.0)),
    (3, "SIM-TBUF-LEN", _plus(2.0)),
    (4, "SIM-TBUF-SIZE", _plus(3.0)),
    (5, "SIM-UB-SIZE", _plus(4.0)),
    (6, "SIM-TENSOR-FREED", _plus(7.0)),
    (7, "SIM-UB-OOB@7", _plus(9.0)),
    (10, "SIM-DTYPE", lambda x: np.where(x < 100, x, np.float32(0))),
    (12, "SIM-QUE-FOREIGN", _plus(6.0)),
]


@pytest.mark.parametrize(("mode", "marker", "expect"), RELAXED, ids=[c[1] for c in RELAXED])
def test_npu_mode_warns_and_goes_on(write_manifest: Any, kernel: Path, tmp_path: Path, mode: int, marker: str,
                                    expect: Callable[[np.ndarray], np.ndarray]) -> None:
    res = run(write_manifest, kernel, tmp_path, mode, None)  # npu is the default
    assert res.status == "ok", [(f.code, f.severity, f.message) for f in res.findings]
    code = marker.split("@")[0]
    hits = [f for f in res.findings if f.code == code and f.span.line == marker_line(kernel, marker)]
    assert hits, [(f.code, f.span.line, f.message) for f in res.findings]
    assert hits[0].severity is Severity.WARNING
    assert "the NPU does not check this" in hits[0].message
    assert "sim.checks to cpu-debug" in hits[0].message
    assert not [f for f in res.findings if f.severity is Severity.ERROR]
    np.testing.assert_array_equal(np.load(res.outputs["z"]), expect(np.arange(256, dtype=np.float32)))


@pytest.mark.parametrize(("mode", "marker", "expect"), RELAXED, ids=[c[1] for c in RELAXED])
def test_cpu_debug_mode_stops(write_manifest: Any, kernel: Path, tmp_path: Path, mode: int, marker: str,
                              expect: Callable[[np.ndarray], np.ndarray]) -> None:
    res = run(write_manifest, kernel, tmp_path, mode, "cpu-debug")
    assert res.status == "runtime_error"
    errors = [f for f in res.findings if f.severity is Severity.ERROR]
    assert [(f.code, f.span.line) for f in errors] == [(marker.split("@")[0], marker_line(kernel, marker))], \
        [(f.code, f.span.line, f.message) for f in res.findings]
    assert "the NPU does not check this" not in errors[0].message


@pytest.mark.parametrize(("mode", "marker"), [(2, "SIM-UB-OOB@2"), (8, "SIM-UB-OOB@8"), (9, "SIM-MEM-OOB"),
                                              (11, "SIM-UB-OOB@11")])
@pytest.mark.parametrize("checks", ["npu", "cpu-debug"])
def test_physical_bound_fails_in_both_modes(write_manifest: Any, kernel: Path, tmp_path: Path, mode: int,
                                            marker: str, checks: str) -> None:
    res = run(write_manifest, kernel, tmp_path, mode, checks)
    assert res.status == "runtime_error"
    errors = [f for f in res.findings if f.severity is Severity.ERROR]
    if checks == "cpu-debug" and mode in (2, 9):
        # CPU debug already stops at the over-sized InitBuffer
        assert [f.code for f in errors] == ["SIM-UB-LIMIT"]
        return
    assert [(f.code, f.span.line) for f in errors] == [(marker.split("@")[0], marker_line(kernel, marker))], \
        [(f.code, f.span.line, f.message) for f in res.findings]
    assert "out of bounds" in errors[0].message


def test_over_allocation_warns_at_init_buffer(write_manifest: Any, kernel: Path, tmp_path: Path) -> None:
    res = run(write_manifest, kernel, tmp_path, 2, "npu")
    warn = [f for f in res.findings if f.code == "SIM-UB-LIMIT"]
    assert warn and warn[0].severity is Severity.WARNING
    assert "does not exist, and an access to it fails" in warn[0].message
    oob = next(f for f in res.findings if f.code == "SIM-UB-OOB")
    assert oob.span.line == marker_line(kernel, "SIM-UB-OOB@2")
    assert "UB has 196608 bytes" in oob.message


def _raw(tmp_path: Path, **extra: Any) -> dict[str, Any]:
    src = tmp_path / "k.cpp"
    src.write_text("// empty\n", encoding="utf-8")
    return {"sources": [str(src)], "kernel": "k", "args": [], **extra}


def test_manifest_checks_default_and_values(tmp_path: Path) -> None:
    assert parse_manifest(_raw(tmp_path), tmp_path).checks == "npu"
    assert parse_manifest(_raw(tmp_path, checks="cpu-debug"), tmp_path).checks == "cpu-debug"
    assert parse_manifest(_raw(tmp_path, checks="npu"), tmp_path).checks == "npu"


@pytest.mark.parametrize("value", ["NPU", "cpu_debug", "", 1, None])
def test_manifest_checks_rejects_other_values(tmp_path: Path, value: Any) -> None:
    with pytest.raises(ManifestError, match=r"manifest\.checks: .*\"npu\".*\"cpu-debug\""):
        parse_manifest(_raw(tmp_path, checks=value), tmp_path)


TWO_PIPES = r"""
#include "kernel_operator.h"
using namespace AscendC;

// Catlass's pattern: a TPipe that is destroyed, then another; each hands out its memories from address 0.
extern "C" __global__ __aicore__ void two_pipes(GM_ADDR x, GM_ADDR z)
{
    GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 256);
    zGm.SetGlobalBuffer((__gm__ float*)z, 256);
    {
        TPipe first;
        TBuf<TPosition::VECCALC> big;
        first.InitBuffer(big, 150 * 1024);
        LocalTensor<float> t = big.Get<float>();
        Duplicate(t, 1.0f, 256);
    }
    TPipe pipe;
    TBuf<TPosition::VECCALC> big, small;
    pipe.InitBuffer(big, 150 * 1024);
    pipe.InitBuffer(small, 1024);
    LocalTensor<float> t = big.Get<float>();
    LocalTensor<float> s = small.Get<float>();
    DataCopy(s, xGm, 256);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Adds(t, s, 1.0f, 256);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(zGm, t, 256);
}
"""


@pytest.mark.parametrize("checks", ["npu", "cpu-debug"])
def test_a_new_tpipe_starts_its_memories_at_address_zero(write_manifest: Any, tmp_path: Path, checks: str) -> None:
    src = tmp_path / "two_pipes.cpp"
    src.write_text(TWO_PIPES.lstrip(), encoding="utf-8")
    m = write_manifest(src, "two_pipes", [
        {"name": "x", "input": np.arange(256, dtype=np.float32)},
        {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [256]},
    ], checks=checks)
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.code == "SIM-UB-LIMIT"]
    np.testing.assert_array_equal(np.load(res.outputs["z"]), np.arange(256, dtype=np.float32) + 1)


def test_cli_checks_option_overrides_the_manifest(write_manifest: Any, kernel: Path, tmp_path: Path) -> None:
    import json

    from typer.testing import CliRunner

    from akgen_lsp.cli import app

    local = tmp_path / kernel.name  # `akgen sim run` confines a manifest to its folder: the source sits beside it
    local.write_text(kernel.read_text(encoding="utf-8"), encoding="utf-8")
    m = write_manifest(local, "check_mode", [
        {"name": "x", "input": np.arange(256, dtype=np.float32)},
        {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [256]},
        {"name": "mode", "scalar": 5, "type": "int32_t"},
    ])
    runner = CliRunner()
    npu = runner.invoke(app, ["sim", "run", str(m), "--json"])
    assert npu.exit_code == 0, npu.output
    assert json.loads(npu.output)["status"] == "ok"
    cpu = runner.invoke(app, ["sim", "run", str(m), "--json", "--checks", "cpu-debug"])
    assert cpu.exit_code == 1
    assert [f["code"] for f in json.loads(cpu.output)["findings"] if f["severity"] == "error"] == ["SIM-UB-SIZE"]
    bad = runner.invoke(app, ["sim", "run", str(m), "--checks", "strict"])
    assert bad.exit_code == 2 and "--checks must be npu or cpu-debug" in bad.output


def test_setting_sim_checks() -> None:
    from akgen_lsp.config import SettingsError, defaults

    assert defaults()["sim.checks"] == "npu"
    assert defaults().with_overrides({"sim": {"checks": "cpu-debug"}}, "test")["sim.checks"] == "cpu-debug"
    with pytest.raises(SettingsError, match=r"sim\.checks"):
        defaults().with_overrides({"sim.checks": "off"}, "test")


PROGRAM = r"""
#include "acl/acl.h"
#include "kernel_operator.h"

constexpr int32_t kN = 256;

__global__ __vector__ void half_size(__gm__ uint8_t* x)
{
    AscendC::GlobalTensor<float> xg;
    xg.SetGlobalBuffer((__gm__ float*)x, kN);
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ub;
    AscendC::LocalTensor<float> a = ub.Alloc<float, kN>();
    AscendC::DataCopy(a, xg, kN);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    a.SetSize(kN / 2);
    AscendC::Adds(a, a, 1.0f, kN);  // EXPECT SIM-UB-SIZE
}

int32_t main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    uint8_t* xDev = nullptr;
    aclrtMalloc((void**)&xDev, kN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    half_size<<<1, nullptr, stream>>>(xDev);
    aclrtSynchronizeStream(stream);
    aclrtFree(xDev);
    return 0;
}
"""


@pytest.mark.parametrize(("checks", "status", "severity"), [("npu", "ok", Severity.WARNING),
                                                            ("cpu-debug", "runtime_error", Severity.ERROR)])
def test_run_program_takes_the_check_mode(tmp_path: Path, checks: str, status: str, severity: Severity) -> None:
    from akgen_lsp.sim.program import run_program

    src = tmp_path / "half_size.asc"
    src.write_text(PROGRAM.lstrip(), encoding="utf-8")
    res = run_program(src, tmp_path, checks=checks)
    assert res.status == status, [(f.code, f.message) for f in res.findings]
    hits = [f for f in res.findings if f.code == "SIM-UB-SIZE"]
    assert hits and hits[0].severity is severity and hits[0].span.line == marker_line(src, "SIM-UB-SIZE")

"""TBufPool (kernels/tbufpool.cpp): pools of a TPipe's memory whose buffers queues and TBufs take from and that hand
the same bytes out again; a pool that shares another's bytes sees what was written there; a child pool cut from a
parent starts past the parent's buffers; a user's pool class written with EXTERN_IMPL_BUFPOOL gives a queue its
buffers; a buffer past a pool's end is reported (a warning in npu mode, as the NPU places it there; an error in
cpu-debug mode, as CANN's CPU debug asserts)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "tbufpool.cpp"
N = 64


def run(write_manifest, tmp_path: Path, mode: int, checks: str = "npu") -> SimResult:
    x = np.arange(N, dtype=np.float32) - 7
    outs = [{"name": n, "output": f"{n}.npy", "dtype": "float32", "shape": [N]} for n in "abcd"]
    m = write_manifest(SRC, "tbufpool", [{"name": "x", "input": x}, *outs,
                                         {"name": "mode", "scalar": mode, "type": "int32_t"}], checks=checks)
    return run_manifest(m, tmp_path / f"out{mode}{checks}", confine=False)


def test_pools_share_subdivide_and_serve_a_user_pool(write_manifest, tmp_path: Path) -> None:
    res = run(write_manifest, tmp_path, 0)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is not Severity.INFO], [(f.code, f.message) for f in res.findings]
    x = np.arange(N, dtype=np.float32) - 7
    np.testing.assert_array_equal(np.load(res.outputs["a"]), 3 * x)  # pool2's buffer is pool1's
    np.testing.assert_array_equal(np.load(res.outputs["b"]), x + 1)
    np.testing.assert_array_equal(np.load(res.outputs["c"]), np.full(N, N * 4, np.float32))  # past q3's buffer
    np.testing.assert_array_equal(np.load(res.outputs["d"]), 2 * x)


@pytest.mark.parametrize("checks", ["npu", "cpu-debug"])
def test_a_buffer_past_the_pools_end_is_reported(write_manifest, tmp_path: Path, checks: str) -> None:
    res = run(write_manifest, tmp_path, 1, checks)
    f = next(f for f in res.findings if f.code == "SIM-BUFPOOL-SIZE")
    assert f.span.line == marker_line(SRC, "SIM-BUFPOOL-SIZE")
    assert "2 x 256 bytes do not fit in the TBufPool (256 bytes" in f.message, f.message
    assert f.severity is (Severity.WARNING if checks == "npu" else Severity.ERROR)

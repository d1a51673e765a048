"""A dtype the arch profile does not support (limits.unsupported_dtypes) fails where its tensor is allocated."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "arch_dtype.cpp"


@pytest.mark.parametrize("arch", ["Ascend910B2", "Ascend310P"])
def test_bfloat16_only_where_the_arch_has_it(write_manifest, tmp_path: Path, arch: str) -> None:
    n = 256
    bits = (np.arange(n, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)
    m = write_manifest(SRC, "bf16_copy", [
        {"name": "x", "input": bits}, {"name": "y", "output": "y.npy", "dtype": "uint16", "shape": [n]},
        {"name": "n", "scalar": n, "type": "uint32_t"}], arch=arch)
    res = run_manifest(m, tmp_path / arch, confine=False)
    if arch == "Ascend910B2":
        assert res.status == "ok", [f.message for f in res.findings]
        assert np.array_equal(np.load(res.outputs["y"]), bits)
    else:
        bad = [f for f in res.findings if f.code == "SIM-DTYPE"]
        assert res.status == "runtime_error" and bad, [f.message for f in res.findings]
        assert bad[0].span.line == marker_line(SRC, "SIM-DTYPE") and "Ascend310P" in bad[0].message

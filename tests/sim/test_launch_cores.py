"""Never silently fewer cores: a kernel that is MIX on the chip (cube and cross-core code: one cube core and two
vector cores per block) but that the simulator must build in one pass (a header of its own uses `#pragma once`) runs
with one core per block, and says so at the kernel's entry (SIM-LAUNCH-CORES); the split build says nothing. (A
program's SetKernelMode(AIV_MODE) on a MIX kernel: tests/sim/test_mix_launch.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx


def run(write_manifest, tmp_path: Path, pragma_once: bool):
    text = (KERNELS / "split_launch.cpp").read_text(encoding="utf-8")
    if pragma_once:
        (tmp_path / "own.h").write_text("#pragma once\nconstexpr int kOwn = 1;\n", encoding="utf-8")
        text = '#include "own.h"\n' + text
    src = tmp_path / "split_launch.cpp"
    src.write_text(text, encoding="utf-8")
    m = write_manifest(src, "split_launch", [
        {"name": "sq", "input": np.ones((16, 16), np.float16)},
        {"name": "eye", "input": np.eye(16, dtype=np.float16)},
        {"name": "ws", "input": np.zeros(256, np.float32)},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [1, 16, 16]},
        {"name": "z", "output": "z.npy", "dtype": "int32", "shape": [1, 8]},
        {"name": "broken", "scalar": 0, "type": "int32_t"},
    ], block_dim=1)
    return src, run_manifest(m, tmp_path / "out", confine=False)


def test_a_mix_kernel_built_in_one_pass_warns_at_its_entry(write_manifest, tmp_path: Path) -> None:
    src, res = run(write_manifest, tmp_path, pragma_once=True)
    hits = [f for f in res.findings if f.code == "SIM-LAUNCH-CORES"]
    assert hits, [(f.code, f.message) for f in res.findings]
    entry = next(i for i, ln in enumerate(src.read_text().splitlines(), 1) if re.search(r"\bsplit_launch\s*\(", ln))
    assert hits[0].span.path == str(src) and hits[0].span.line == entry
    assert "two vector cores" in hits[0].message


def test_the_split_build_does_not_warn(write_manifest, tmp_path: Path) -> None:
    _, res = run(write_manifest, tmp_path, pragma_once=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.code == "SIM-LAUNCH-CORES"]

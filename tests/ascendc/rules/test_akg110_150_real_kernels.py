"""AKG110-AKG150 on real kernels: the 153 NPUKernelBench reference answers and the asc-devkit examples.

False positives are bugs. The only findings are the three queue leaks below (true positives: a tensor taken from a
queue that its function never gives back); everything else must lint clean. Skipped where the reference checkouts
are absent (CI builds from scratch without them).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.config import defaults

from .conftest import rules_named

REF = Path("/work/ref")
BENCH = REF / "NPUKernelBench" / "tasks"
DEVKIT = REF / "asc-devkit" / "examples"

KNOWN_TRUE_POSITIVES = {
    # CopyInAddBiasAllCast dequeues tmpLocal2 and never frees it; with BUFFER_NUM = 1 the next call's AllocTensor
    # on tmpQueFp32 has no free buffer
    ("level2/Norm/AddLayerNorm/answer/0/op_kernel/add_layer_norm.cpp", 1865, "AKG120"),
    # ProcessSlice dequeues bias_local (IS_BIAS_BROADCAST) and never frees it (runs once per core: harmless there)
    ("level2/Norm/AddLayerNorm/answer/0/op_kernel/add_layer_norm.cpp", 2356, "AKG120"),
    # Compute allocates resForGammaLocal from tmpQueueResForGamma and neither enqueues nor frees it
    ("01_simd_cpp_api/04_advanced_api/02_normalization/layernorm/layernorm.asc", 199, "AKG120"),
}


def _kernels() -> list[tuple[Path, Path]]:
    out = [(p, BENCH) for p in sorted(BENCH.glob("*/*/*/answer/0/op_kernel/*.cpp"))]
    out += [(p, DEVKIT) for p in sorted(DEVKIT.rglob("*")) if p.suffix in (".cpp", ".asc") and p.is_file()]
    return out


@pytest.mark.skipif(not BENCH.is_dir() or not DEVKIT.is_dir(), reason="reference checkouts not present")
def test_real_kernels_only_show_known_true_positives() -> None:
    kernels = _kernels()
    assert len(kernels) > 400
    rules = rules_named("AKG110", "AKG120", "AKG130", "AKG140", "AKG150")
    settings, catalog = defaults(), load_catalog()
    found = set()
    for path, root in kernels:
        text = path.read_text(encoding="utf-8", errors="replace")
        for f in lint_text(text, str(path), settings, catalog, rules):
            found.add((path.relative_to(root).as_posix(), f.span.line, f.code))
    assert found == KNOWN_TRUE_POSITIVES

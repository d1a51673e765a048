"""Kernel UTs in ops-nn's layout (our own fixture repository tests/sim/ops_repo_nn, see its README): what ops-nn's
UTs rely on beyond ops-math's. clamp_scale's tiling header (-include'd into the cases and the separately compiled
kernel) includes CANN's CPU-debug kernel_log.h, spells its type float_t and defines its own scalar `min`; its kernel
includes a header of another operator through the folder the repository's cmake/ut.cmake gives every kernel UT, and
names an output type (DTYPE_Y) the UT does not define."""

from __future__ import annotations

from pathlib import Path

import pytest

from akgen_lsp.sim.op_test import OpTestResult, run_op_test
from tests.sim.test_op_test import needs_ut_tools, ut_tools  # noqa: F401 - the fixture

REPO = Path(__file__).resolve().parent / "ops_repo_nn"
CLAMP_SCALE = REPO / "activation" / "clamp_scale"


@pytest.fixture(scope="module")
def clamp_scale(tmp_path_factory: pytest.TempPathFactory) -> OpTestResult:
    from tests.sim.test_op_test import _ut_tools

    _ut_tools()
    return run_op_test(CLAMP_SCALE, work=tmp_path_factory.mktemp("clamp_scale") / "work")


def test_an_ops_nn_tiling_header_with_kernel_log_float_t_and_its_own_min(clamp_scale: OpTestResult) -> None:
    r = clamp_scale
    assert r.built and r.ran, r.reason + r.log[-3000:]
    assert [(c.name, c.passed) for c in r.cases] == [("ClampScaleTest.first_limit_elements_scaled", True)]
    assert r.ok, [f.message for f in r.findings]
    # the kernel's output type DTYPE_Y, which the UT leaves out, came from the op definition, and the result says so
    notes = [f for f in r.findings if f.code == "OP-UT-DTYPE"]
    assert len(notes) == 1 and "DTYPE_Y=float" in notes[0].message, [f.message for f in r.findings]
    assert notes[0].path.endswith("clamp_scale/tests/ut/op_kernel/CMakeLists.txt") and notes[0].span.line == 4

"""Kernel UTs in ops-nn's layout (our own fixture repository tests/sim/ops_repo_nn, see its README): what ops-nn's
UTs rely on beyond ops-math's. clamp_scale's tiling header (-include'd into the cases and the separately compiled
kernel) includes CANN's CPU-debug kernel_log.h, spells its type float_t and defines its own scalar `min`; its kernel
includes a header of another operator through the folder the repository's cmake/ut.cmake gives every kernel UT, and
names an output type (DTYPE_Y) the UT does not define."""

from __future__ import annotations

from pathlib import Path

import pytest

from akgen_lsp.sim.op_layout import find_op, has_a2a3_ut, ut_socs
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


def test_an_op_named_ascend_star_registers_its_case_for_a_soc_of_that_name(tmp_path: Path) -> None:
    # ops-nn's AddOpTestCase reads a first argument that starts with "ascend" as the SoC list (the op name may be
    # left out), so AddOpTestCase(ascend_foo "ascend910B1" ...) adds no A2/A3 case there: nor here, and the result
    # says why
    op = tmp_path / "quant" / "ascend_foo"
    (op / "op_kernel").mkdir(parents=True)
    (op / "tests" / "ut" / "op_kernel").mkdir(parents=True)
    (op / "tests" / "ut" / "op_kernel" / "CMakeLists.txt").write_text(
        'AddOpTestCase(ascend_foo "ascend910B1" "-DDTYPE_X=float")\n', encoding="utf-8")
    layout = find_op(op)
    assert layout is not None and ut_socs(layout) == ["ascend_foo"] and not has_a2a3_ut(layout)
    res = run_op_test(op)
    assert res.stage == "no-ut" and "needs its SoCs first" in res.reason, res.reason
    assert ut_socs(find_op(CLAMP_SCALE)) == ["ascend910B1"]  # type: ignore[arg-type]


@needs_ut_tools
def test_a_ut_on_ops_nn_s_tiling_harness_runs_the_tiling_func(tmp_path: Path) -> None:
    # scale_rows's UT includes the repository's tiling_case_executor.h, whose context holder holds a ContextHolder of
    # every context kind (op_tiling_parse_context_builder.h, op_infer_shape_range_context_builder.h, ...) and whose
    # faker fills tensors field by field (SetDataType, Mutable*Shape, SetData(TensorData)), takes TensorV2 lists and
    # appends attributes through OpContextBuilderBase; the TilingFunc reads the attribute, a const input's value and
    # the SoC's NpuArch through platform/soc_spec.h; the test names ::dec
    r = run_op_test(REPO / "norm" / "scale_rows", work=tmp_path / "work")
    assert r.built and r.ran, r.reason + r.log[-3000:]
    assert [(c.name, c.passed) for c in r.cases] == [("ScaleRowsTest.tiling_func_then_kernel", True)], r.cases
    assert r.ok, [f.message for f in r.findings]

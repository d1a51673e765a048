"""Kernel UTs that run their operator's TilingFunc (tests/ut/common's ExecuteTiling on CANN's tiling context builder)
and UTs with no compare script checked against the operator's tests/assets/golden.py (akgen_lsp/sim/op_golden.py,
ut_golden.py): our own operator tests/sim/ops_repo/math/twice, y = x + x, in the ops-math layout."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from akgen_lsp.sim.op_golden import def_inputs, golden_spec, kernel_params, ut_dtypes
from akgen_lsp.sim.op_test import OpTestResult, run_op_test
from tests.sim.test_op_test import copy_repo, needs_ut_tools, ut_tools  # noqa: F401 - the fixture

REPO = Path(__file__).resolve().parent / "ops_repo"
TWICE = REPO / "math" / "twice"


def test_the_golden_spec_from_the_operators_files(tmp_path: Path) -> None:
    assert kernel_params(TWICE / "op_kernel" / "twice.cpp", "twice") == ["x", "y", "workspace", "tiling"]
    assert def_inputs(TWICE) is None  # twice has no op definition: golden.py's own parameters tell the inputs
    assert ut_dtypes('AddOpTestCase(t "ascend910b" "-DDTYPE_SELF=half -DDTYPE_OUT=bfloat16_t" "")') == {
        "self": "float16", "out": "bfloat16"}
    spec = golden_spec("twice", TWICE, TWICE / "tests" / "ut" / "op_kernel" / "CMakeLists.txt")
    assert spec["dtypes"] == {"x": "float32", "y": "float32", "workspace": "float32", "tiling": "float32"}
    host = tmp_path / "op" / "op_host"
    host.mkdir(parents=True)
    (host / "op_def.cpp").write_text('this->Input("self")\n.DataType({ge::DT_FLOAT});\nthis->Input("other");\n'
                                     'this->Output("out");\n', encoding="utf-8")
    assert def_inputs(tmp_path / "op") == ["self", "other"]


@pytest.fixture(scope="module")
def twice_work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("twice") / "work"


@pytest.fixture(scope="module")
def twice_result(twice_work: Path) -> OpTestResult:
    from tests.sim.test_op_test import _ut_tools

    _ut_tools()
    return run_op_test(TWICE, work=twice_work)


def test_a_ut_that_runs_the_ops_tiling_func_builds_and_runs(twice_result: OpTestResult, twice_work: Path) -> None:
    # ExecuteTiling (our harness in tests/ut/common, on include/opbase's OpTilingContextBuilder and
    # DefaultOpImplSpaceRegistryV2) runs twice's IMPL_OP_OPTILING TilingFunc: its tiling key, block count and
    # workspace are asserted by the case. The TilingFunc includes op_host/tiling_base_util.h (EnsureNotScalar,
    # CeilDiv), its header log/log.h (include/opbase) and a header of op_host/arch22/ by name; the kernel includes
    # "../inc/twice_util.h" (CANN's ascendc/ layout of links); the InferShape source, whose include does not exist,
    # is not built; exe_graph/runtime/storage_shape.h is one of metadef's names for gert's types.
    r = twice_result
    assert r.built and r.ran, r.reason + r.log[-3000:]
    assert [(c.name, c.passed) for c in r.cases] == [("TwiceTest.tiling_then_kernel", True)]
    # the UT's own step, hung on opkernel_twice (ops-nn's name of the cases' object library), ran before the build
    assert (twice_work / "root" / "build" / "tests" / "ut" / "op_kernel" / "synced").is_file()


def test_a_ut_without_compare_script_is_compared_with_golden_py(twice_result: OpTestResult) -> None:
    assert twice_result.golden == "match", twice_result.golden_detail
    assert "1 launch(es) of twice match golden.py" in twice_result.golden_detail
    assert twice_result.ok


@needs_ut_tools
def test_a_wrong_kernel_is_a_golden_mismatch_though_its_case_passes(tmp_path: Path) -> None:
    repo = copy_repo(tmp_path)
    util = repo / "common" / "inc" / "op_kernel" / "twice_util.h"
    util.write_text(util.read_text(encoding="utf-8").replace(
        "AscendC::Add(y, x, x, count);", "AscendC::Add(y, x, x, count);\n    AscendC::Adds(y, y, (T)1, count);"),
        encoding="utf-8")
    r = run_op_test(repo / "math" / "twice", work=tmp_path / "work")
    assert r.ran and r.cases_passed == r.cases_total == 1
    assert r.golden == "mismatch" and "512 of 512 elements differ" in r.golden_detail, r.golden_detail
    assert not r.ok


@needs_ut_tools
def test_without_golden_py_the_result_says_there_is_none(tmp_path: Path) -> None:
    repo = copy_repo(tmp_path)
    shutil.rmtree(repo / "math" / "twice" / "tests" / "assets")
    r = run_op_test(repo / "math" / "twice", work=tmp_path / "work")
    assert r.ran and r.golden == "none" and "no golden data" in r.summary()


def _dump(folder: Path, launches: list[dict[int, tuple[bytes, bytes]]], kernel: str = "k") -> Path:
    """A dump folder as tikicpulib's ICPU_RUN_KF writes it: per launch, per argument, the bytes before and after."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for n, args in enumerate(launches, 1):
        for i, (before, after) in args.items():
            (folder / f"{n}.{i}.0.bin").write_bytes(before)
            (folder / f"{n}.{i}.1.bin").write_bytes(after)
            lines.append(f"{n}\t{i}\t{kernel}\t{len(before)}\n")
    (folder / "launches.tsv").write_text("".join(lines), encoding="utf-8")
    return folder


def test_the_golden_check_rules(tmp_path: Path) -> None:
    import numpy as np

    from akgen_lsp.sim.ut_golden import check

    x = np.arange(8, dtype=np.float32)
    zero = np.zeros(8, dtype=np.float32).tobytes()
    spec = {"params": ["x", "y", "workspace", "tiling"], "inputs": None, "dtypes": {"x": "float32", "y": "float32"}}
    golden = tmp_path / "golden.py"
    golden.write_text("def k_golden(x, **kw):\n    return x * 2\n", encoding="utf-8")
    good = _dump(tmp_path / "good", [{0: (x.tobytes(), x.tobytes()), 1: (zero, (x * 2).tobytes())}])
    assert check(good, golden, "k", spec)["verdict"] == "match"
    # a padded output whose tail the kernel left alone: compared up to the last element it changed
    tail = np.concatenate([x[:6] * 2, np.zeros(2, dtype=np.float32)])
    assert check(_dump(tmp_path / "tail", [{0: (x.tobytes(), x.tobytes()), 1: (zero, tail.tobytes())}]),
                 golden, "k", spec)["verdict"] == "match"
    bad = _dump(tmp_path / "bad", [{0: (x.tobytes(), x.tobytes()), 1: (zero, (x * 3).tobytes())}])
    res = check(bad, golden, "k", spec)
    assert res["verdict"] == "mismatch" and "7 of 8 elements differ" in res["detail"]  # 0 * 3 == 0 * 2
    # not elementwise: sizes differ, or golden.py works on shapes, or needs an attribute
    small = _dump(tmp_path / "small", [{0: (x.tobytes(), x.tobytes()), 1: (zero[:16], (x[:4] * 2).tobytes())}])
    assert "differ in size" in check(small, golden, "k", spec)["detail"]
    golden.write_text("def k_golden(x, **kw):\n    return x.sum(axis=0)\n", encoding="utf-8")
    assert "works on shapes (axis)" in check(good, golden, "k", spec)["detail"]
    golden.write_text("def k_golden(x, alpha, **kw):\n    return x * alpha\n", encoding="utf-8")
    res = check(good, golden, "k", {**spec, "inputs": ["x"]})  # the op definition names x its only input
    assert res["verdict"] == "not-compared" and "needs alpha" in res["detail"]

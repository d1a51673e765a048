"""The kernel unit tests of an operator repository on the simulator (akgen_lsp/sim/op_test.py, `akgen sim op-test`):
our own operator tests/sim/ops_repo/math/axpb in the ops-math layout, its UT registered with AddOpTestCase, built
with its own CMakeLists and run in the box, its data scripts through system()."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from akgen_lsp.cli import app
from akgen_lsp.sandbox import probe
from akgen_lsp.sim.kernel_ut import run_op_kernel_ut
from akgen_lsp.sim.op_test import OpTestError, find_op, run_op_test, tiling_data_header, ut_socs

REPO = Path(__file__).resolve().parent / "ops_repo"
AXPB = REPO / "math" / "axpb"

def _ut_tools() -> None:
    missing = [t for t in ("g++", "cmake", "make") if shutil.which(t) is None]
    if not Path("/usr/include/gtest/gtest.h").is_file():
        missing.append("libgtest-dev")
    if missing:
        pytest.fail(f"{', '.join(missing)} not installed: .ci/run installs them (apt-get install cmake make g++ "
                    "libgtest-dev)", pytrace=False)
    why = probe()
    if why is not None:
        pytest.fail(f"the sandbox cannot start: {why}", pytrace=False)


needs_ut_tools = pytest.mark.usefixtures("ut_tools")


@pytest.fixture
def ut_tools() -> None:
    _ut_tools()


def copy_repo(tmp_path: Path) -> Path:
    dest = tmp_path / "repo"
    shutil.copytree(REPO, dest)
    return dest


def test_find_op_from_the_folder_a_kernel_a_header_and_a_test() -> None:
    for start in (AXPB, AXPB / "op_kernel" / "axpb.cpp", AXPB / "op_kernel" / "axpb_common.h",
                  AXPB / "tests" / "ut" / "op_kernel" / "test_axpb.cpp"):
        layout = find_op(start)
        assert layout is not None, start
        assert layout.op == "axpb" and layout.op_dir == AXPB
        assert layout.repo_root == REPO  # the folder above with tests/ut/
        assert layout.golden == AXPB / "tests" / "assets" / "golden.py"
    assert find_op(REPO / "README.md") is None


def test_ut_socs_reads_add_op_test_case() -> None:
    layout = find_op(AXPB)
    assert layout is not None
    assert ut_socs(layout) == ["ascend910b", "ascend950"]


def test_an_operator_without_an_a2_case_is_said_so(tmp_path: Path) -> None:
    repo = copy_repo(tmp_path)
    cm = repo / "math" / "axpb" / "tests" / "ut" / "op_kernel" / "CMakeLists.txt"
    cm.write_text(cm.read_text(encoding="utf-8").replace("ascend910b;", ""), encoding="utf-8")
    res = run_op_test(repo / "math" / "axpb")
    assert not res.has_ut and res.stage == "no-ut" and not res.ok
    assert "no case for Ascend910B1" in res.reason and "ascend950" in res.reason


def test_a_folder_that_is_no_operator_is_an_error_that_says_the_layout(tmp_path: Path) -> None:
    with pytest.raises(OpTestError, match=r"tests/ut/op_kernel/CMakeLists\.txt"):
        run_op_test(tmp_path)


def test_tiling_data_header_from_op_host(tmp_path: Path) -> None:
    repo = copy_repo(tmp_path)
    host = repo / "math" / "axpb" / "op_host"
    (host / "arch35").mkdir(parents=True)
    (host / "axpb_tiling.h").write_text(
        '#include "register/tilingdata_base.h"\nnamespace optiling {\nconstexpr uint32_t MAX_DIM = 4;\n'
        "#define TWICE (MAX_DIM * 2)\n"
        "BEGIN_TILING_DATA_DEF(AxpbShape)\nTILING_DATA_FIELD_DEF_ARR(int64_t, TWICE, dims);\nEND_TILING_DATA_DEF;\n"
        "BEGIN_TILING_DATA_DEF(AxpbTilingDef)\nTILING_DATA_FIELD_DEF(uint32_t, n); // count\n"
        "TILING_DATA_FIELD_DEF_STRUCT(AxpbShape, shape);\nTILING_DATA_FIELD_DEF_ARR(float, UNKNOWN, w);\n"
        "END_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(Axpb, AxpbTilingDef)\n"
        "BEGIN_TILING_DATA_DEF(AxpbTilingData)\nTILING_DATA_FIELD_DEF(uint32_t, n);\nEND_TILING_DATA_DEF;\n}\n",
        encoding="utf-8")
    (host / "arch35" / "axpb_tiling_arch35.h").write_text("BEGIN_TILING_DATA_DEF(Other)\n", encoding="utf-8")
    layout = find_op(host.parent)
    assert layout is not None
    text = tiling_data_header(layout, tmp_path / "gen").read_text(encoding="utf-8")
    # plain structs at global scope, as CANN generates them; array lengths from the header's constants
    assert "struct AxpbShape {\n    int64_t dims[8];\n};" in text
    assert "Other" not in text  # arch35/ is the Ascend 950's
    assert "AxpbTilingDef left out" in text and "'UNKNOWN'" in text  # a length it cannot know: said
    assert "struct AxpbTilingData" not in text  # the kernel's own header defines it: theirs wins
    assert "using akgen_tiling_struct_t" not in text  # the registered struct was left out


@needs_ut_tools
def test_the_kernel_ut_builds_with_its_cmakelists_and_runs_with_its_data_scripts() -> None:
    res = run_op_test(AXPB)
    assert res.built and res.ran and res.stage == "done", res.log[-3000:]
    assert [c.name for c in res.cases] == ["AxpbTest.test_case_float32_1", "AxpbTest.test_case_float32_2"]
    assert res.cases_passed == 2
    assert res.golden == "match" and "2 compare runs passed" in res.golden_detail  # compare_data.py ran in the box
    assert res.ok and res.findings == []
    assert res.summary() == "axpb: 2/2 cases pass; golden data match"


@needs_ut_tools
def test_a_wrong_kernel_whose_cases_pass_is_not_ok_when_compare_data_fails(tmp_path: Path) -> None:
    repo = copy_repo(tmp_path)
    assert run_op_test(repo / "math" / "axpb").ok  # built once: the edit below must rebuild, not reuse
    header = repo / "math" / "axpb" / "op_kernel" / "axpb_common.h"
    header.write_text(header.read_text(encoding="utf-8").replace("Adds(y, y, b,", "Adds(y, y, a,"), encoding="utf-8")
    res = run_op_test(repo / "math" / "axpb")
    assert res.ran and res.cases_passed == res.cases_total == 2  # the cases ignore system()'s status
    assert res.golden == "mismatch" and "2 of 2 compare runs failed" in res.golden_detail
    assert not res.ok and "MISMATCH" in res.summary()


@needs_ut_tools
def test_a_compile_error_in_a_header_is_at_the_header(tmp_path: Path) -> None:
    repo = copy_repo(tmp_path)
    header = repo / "math" / "axpb" / "op_kernel" / "axpb_common.h"
    lines = header.read_text(encoding="utf-8").splitlines()
    at = next(i for i, s in enumerate(lines) if "Muls(" in s)
    lines[at] = lines[at].replace("Muls(y, x, a, count);", "Muls(y, x, a, count)")  # missing semicolon
    header.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = run_op_test(repo / "math" / "axpb")
    assert not res.built and res.stage == "build"
    assert any(f.span.path == str(header.resolve()) for f in res.findings), [f.span for f in res.findings]
    assert str(header.resolve()) in res.reason


@needs_ut_tools
def test_the_benchmark_function_and_the_cli(tmp_path: Path) -> None:
    row = run_op_kernel_ut(AXPB, REPO, "Ascend910B1", tmp_path / "work")
    assert row["built"] and row["ran"] and row["golden"] == "match" and row["cases_passed"] == 2
    assert (tmp_path / "work" / "root" / "build" / "CMakeCache.txt").is_file()  # the work folder asked for
    # where the binary ran: ${CMAKE_BINARY_DIR}/tests/ut/op_kernel, which the UT's own custom target wrote into
    assert (tmp_path / "work" / "root" / "build" / "tests" / "ut" / "op_kernel" / "note").is_file()
    out = CliRunner().invoke(app, ["sim", "op-test", str(AXPB / "op_kernel" / "axpb.cpp")])
    assert out.exit_code == 0, out.output
    assert "PASS AxpbTest.test_case_float32_1" in out.output and "2/2 cases pass" in out.output

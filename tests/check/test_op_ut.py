"""Check on save in an operator repository with no configuration (akgen_lsp/check/op_ut.py): check_kernel on a
kernel or a header of our own operator tests/sim/ops_repo/math/axpb runs its kernel UT on the simulator."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pygls.workspace.position_codec import PositionCodec

from akgen_lsp.check.kernel import check_kernel
from akgen_lsp.check.op_ut import OpUtTextDiffers, op_layout_for, related_include
from akgen_lsp.check.result import Figures, Status
from akgen_lsp.findings import Finding, Span
from akgen_lsp.sandbox import probe
from akgen_lsp.server.convert import Lines, to_diagnostic
from akgen_lsp.server.features.save_check import figures_message, split_findings

REPO = Path(__file__).resolve().parents[1] / "sim" / "ops_repo"

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


def test_the_operator_is_found_from_a_kernel_and_a_header_and_not_elsewhere(tmp_path: Path) -> None:
    assert op_layout_for(REPO / "math" / "axpb" / "op_kernel" / "axpb_common.h") is not None
    assert op_layout_for(REPO / "tests" / "ut" / "op_kernel" / "data_utils.cpp") is None
    (tmp_path / "k.cpp").write_text("// nothing\n", encoding="utf-8")
    res = check_kernel(tmp_path / "k.cpp")
    assert res.findings == () and res.figures.task is None


def test_related_include_finds_the_including_line() -> None:
    text = '#include "kernel_operator.h"\n#include "axpb_tiling_data.h"\n#include "axpb_common.h"\n'
    assert related_include(text, "/x/op_kernel/axpb_common.h") == 3
    assert related_include(text, "/x/other.h") is None


def test_a_header_finding_is_shown_at_the_including_line_with_its_place_as_related_information() -> None:
    text = '#include "kernel_operator.h"\n#include "axpb_common.h"\nvoid f() {}\n'
    header = str(REPO / "math" / "axpb" / "op_kernel" / "axpb_common.h")
    f = Finding("CXX", "expected ';'", Span(header, 10, 36, 10, 36), source="akgen-build")
    placed = split_findings("/x/axpb.cpp", text, [f], Figures.no_task())["build"]
    assert placed[0].span.line == 2 and placed[0].span.path == "/x/axpb.cpp"
    assert "axpb_common.h:10" in placed[0].message
    diag = to_diagnostic(placed[0], Lines(text, PositionCodec()))
    assert diag.related_information is not None
    rel = diag.related_information[0]
    assert rel.location.uri == Path(header).as_uri() and rel.location.range.start.line == 9


@needs_ut_tools
def test_saving_a_header_runs_the_operators_kernel_ut(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(REPO, repo)
    header = repo / "math" / "axpb" / "op_kernel" / "axpb_common.h"
    res = check_kernel(header)
    assert res.findings == () and res.figures.status is Status.PASS
    assert res.figures.timings["golden"] == "match" and res.figures.passed_case_ids() == {0, 1}
    message = figures_message(res.figures)
    assert message is not None and "2/2 cases pass" in message and "estimate" in message
    header.write_text(header.read_text(encoding="utf-8").replace("Adds(y, y, b,", "Adds(y, y, a,"), encoding="utf-8")
    res = check_kernel(header)
    assert res.figures.status is Status.WRONG_ANSWER and res.figures.passed_cases == 2  # cases pass, golden not
    golden = [f for f in res.findings if f.code == "OP-UT-GOLDEN"]
    assert golden and golden[0].span.path == str((repo / "math" / "axpb" / "op_kernel" / "axpb.cpp").resolve())
    with pytest.raises(OpUtTextDiffers):  # a check ahead of unsaved text: the save checks instead
        check_kernel(header, text="// not saved\n")


@needs_ut_tools
def test_an_operator_without_a_ut_runs_the_configured_test_command_in_the_box(tmp_path: Path) -> None:
    kernel = tmp_path / "repo" / "math" / "foo" / "op_kernel" / "foo.cpp"
    kernel.parent.mkdir(parents=True)
    kernel.write_text('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void foo() {}\n', encoding="utf-8")
    assert check_kernel(kernel).figures.task is None  # no UT, no command: no task, as before
    passing = {"ops.test_command": 'test -f "{op_dir}/op_kernel/{op}.cpp" && test -n "$ASCEND_HOME_PATH"'}
    res = check_kernel(kernel, passing)
    assert res.figures.status is Status.PASS and res.figures.task == "test command of foo", res.findings
    failing = {"ops.test_command": 'echo "$OP_DIR/op_kernel/foo.cpp:2:1: error: wrong answer"; exit 1'}
    res = check_kernel(kernel, failing)
    assert res.figures.status is Status.WRONG_ANSWER
    assert [(f.span.path, f.span.line, f.message) for f in res.findings] == [(str(kernel), 2, "wrong answer")]
    write_repo = {"ops.test_command": 'touch "{op_dir}/written"'}  # the repository is read-only in the box
    assert check_kernel(kernel, write_repo).figures.status is Status.WRONG_ANSWER
    assert not (kernel.parent.parent / "written").exists()
    check_kernel(kernel, {"ops.test_command": f"touch {tmp_path}/outside"})  # the box's own /tmp, not ours
    assert not (tmp_path / "outside").exists()

"""The `op_test` tool of `akgen mcp` (akgen_lsp/mcp/op_tool.py), called by the MCP SDK's own client over stdio: the
kernel UT of our own operator tests/sim/ops_repo/math/axpb (the ops-math layout) built and run on the simulator,
a wrong header edit seen as the golden mismatch at the kernel entry, a compile error at the header's line, and the
paths an agent gives confined to its roots."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from mcp import types
from mcp_helpers import REPO, mcp_session, needs_gxx

OPS_REPO = REPO / "tests" / "sim" / "ops_repo"
HEADER = "math/axpb/op_kernel/axpb_common.h"


def data(result: types.CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content[0].text if result.content else result
    assert result.content and result.content[0].text
    assert result.structured_content is not None
    return result.structured_content


@pytest.fixture
def ops_repo(tmp_path: Path) -> Path:
    missing = [t for t in ("cmake", "make") if shutil.which(t) is None]
    if not Path("/usr/include/gtest/gtest.h").is_file():
        missing.append("libgtest-dev")
    if missing:
        pytest.fail(f"{', '.join(missing)} not installed: apt-get install cmake make libgtest-dev", pytrace=False)
    dest = tmp_path / "ops-repo"
    shutil.copytree(OPS_REPO, dest)
    return dest


@needs_gxx
@pytest.mark.slow
async def test_op_test_runs_the_kernel_ut_and_reports_findings_at_their_lines(ops_repo: Path) -> None:
    header = ops_repo / HEADER
    good = header.read_text(encoding="utf-8")
    progress: list[str] = []

    async def seen(_done: float, _total: float | None, message: str | None) -> None:
        progress.append(message or "")

    async with mcp_session(ops_repo, [ops_repo], "--no-warm") as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        assert tools["op_test"].input_schema["required"] == ["op_dir"]
        assert {"cases_passed", "golden", "findings", "verdict"} <= set(tools["op_test"].output_schema["properties"])

        ok = data(await s.call_tool("op_test", {"op_dir": "math/axpb"}, progress_callback=seen))
        assert ok["ok"] and ok["built"] and ok["ran"] and ok["stage"] == "done"
        assert (ok["cases_passed"], ok["cases_total"]) == (2, 2) and ok["golden"] == "match"
        assert [c["name"] for c in ok["cases"]] == ["AxpbTest.test_case_float32_1", "AxpbTest.test_case_float32_2"]
        assert not ok["findings"] and "2/2 cases pass" in ok["verdict"]
        assert any("running the kernel UT of axpb" in m for m in progress)

        # y = a*x + a instead of a*x + b: every case passes (they ignore the compare script), the golden data differ
        header.write_text(good.replace("Adds(y, y, b,", "Adds(y, y, a,"), encoding="utf-8")
        wrong = data(await s.call_tool("op_test", {"op_dir": "math/axpb/op_kernel/axpb.cpp"}))
        assert not wrong["ok"] and wrong["golden"] == "mismatch" and wrong["cases_passed"] == 2
        [gold] = [f for f in wrong["findings"] if f["code"] == "OP-UT-GOLDEN"]
        assert gold["path"] == str(ops_repo / "math/axpb/op_kernel/axpb.cpp") and gold["line"] == 42

        line = next(i for i, t in enumerate(good.splitlines(), 1) if "Muls(y, x, a, count);" in t)
        header.write_text(good.replace("Muls(y, x, a, count);", "Muls(y, x, a, count)"), encoding="utf-8")
        broken = data(await s.call_tool("op_test", {"op_dir": "math/axpb"}))
        assert not broken["built"] and not broken["ok"]
        assert any(f["path"] == str(header) and f["line"] in (line, line + 1) and f["severity"] == "error"
                   for f in broken["findings"]), broken["findings"]


async def test_op_test_is_confined_to_the_roots_and_names_what_an_operator_needs(ops_repo: Path,
                                                                               tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(ops_repo / "math", elsewhere)
    async with mcp_session(ops_repo, [ops_repo / "math"], "--no-warm") as s:
        for args in ({"op_dir": str(elsewhere / "axpb")}, {"op_dir": "../tests"},
                     {"op_dir": "axpb", "include_dirs": [str(tmp_path)]}):
            res = await s.call_tool("op_test", args)
            assert res.is_error and "outside the client's roots" in res.content[0].text, (args, res.content)
        (ops_repo / "math" / "plain").mkdir()
        res = await s.call_tool("op_test", {"op_dir": "plain"})
        assert res.is_error and "tests/ut/op_kernel/CMakeLists.txt" in res.content[0].text, res.content[0].text

"""Every tool of `akgen mcp`, called by the MCP SDK's own client over stdio, on a copy of the samples samples_copy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import types
from mcp_helpers import mcp_session, needs_gxx

TOOLS = {"lint", "check", "fix", "explain", "report", "sim_run", "run_program", "bench", "op_test"}
AKG120 = "broken/akg120_dequeued_not_freed.cpp"


def data(result: types.CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content[0].text if result.content else result
    assert result.content and result.content[0].text  # the short summary an agent reads first
    assert result.structured_content is not None
    return result.structured_content


async def test_every_tool_and_resource_is_listed_with_its_schemas(samples_copy: Path) -> None:
    async with mcp_session(samples_copy, [samples_copy], "--no-warm") as s:
        tools = {t.name: t for t in (await s.list_tools()).tools}
        assert set(tools) == TOOLS
        for t in tools.values():
            assert t.description and t.input_schema["type"] == "object"
            assert t.output_schema and t.output_schema["type"] == "object", t.name
            assert "roots" not in t.input_schema.get("properties", {}), t.name  # filled by the server, not the agent
        assert tools["check"].input_schema["required"] == ["path"]
        assert {"findings", "verdict", "trace", "estimate_us"} <= set(tools["check"].output_schema["properties"])
        uris = {str(r.uri) for r in (await s.list_resources()).resources}
        assert {"akgen://catalog", "akgen://arch", "akgen://rules"} <= uris
        templates = {t.uri_template for t in (await s.list_resource_templates()).resource_templates}
        assert {"akgen://catalog/{name}", "akgen://arch/{name}"} <= templates
        arch = json.loads((await s.read_resource("akgen://arch/Ascend910B2")).contents[0].text)
        assert arch["memory"]["ub"] == 196608
        entry = json.loads((await s.read_resource("akgen://catalog/DataCopy")).contents[0].text)
        assert entry["entries"][0]["name"] == "AscendC::DataCopy"


async def test_lint_explain_and_report(samples_copy: Path) -> None:
    async with mcp_session(samples_copy, [samples_copy], "--no-warm") as s:
        by_path = data(await s.call_tool("lint", {"path": AKG120}))
        [f] = [f for f in by_path["findings"] if f["code"] == "AKG120"]
        assert f["line"] == 46 and f["path"] == str(samples_copy / AKG120) and f["fixes"]
        text = (samples_copy / AKG120).read_text(encoding="utf-8")
        by_text = data(await s.call_tool("lint", {"text": text}))
        assert [g["code"] for g in by_text["findings"]] == [g["code"] for g in by_path["findings"]]
        clean = data(await s.call_tool("lint", {"path": "kernels/add_custom.cpp"}))
        assert clean["counts"]["error"] == 0

        api = data(await s.call_tool("explain", {"query": "DataCopy"}))
        assert api["kind"] == "api" and api["data"]["entries"][0]["pipe"] == "MTE2"
        assert api["data"]["entries"][0]["signatures"]
        typo = data(await s.call_tool("explain", {"query": "DataCopi"}))
        assert not typo["found"] and "DataCopy" in typo["suggestions"] and "Did you mean" in typo["text"]
        rule = data(await s.call_tool("explain", {"query": "AKG120"}))
        assert rule["kind"] == "rule" and rule["data"]["name"] == "queue-protocol"
        code = data(await s.call_tool("explain", {"query": "507015"}))
        assert code["kind"] == "npu_error_code" and code["data"]["name"] == "ACL_ERROR_RT_AICORE_EXCEPTION"
        sim = data(await s.call_tool("explain", {"query": "SIM-QUE-DOUBLE-FREE"}))
        assert sim["kind"] == "finding_code" and sim["data"]["error_class"]["id"] == "memory"
        ub = data(await s.call_tool("explain", {"query": "Ascend910B2 ub"}))
        assert ub["kind"] == "arch" and ub["data"]["facts"]["memory.ub"] == 196608

        rep = data(await s.call_tool("report", {"finding": f, "path": AKG120}))
        assert len(rep["reports"]) == 1 and "AKG120" in rep["reports"][0]["markdown"]
        log = (f"{samples_copy / 'kernels/add_custom.cpp'}:61:19: error: 'xLocall' was not declared in this scope; "
               "did you mean 'xLocal'?\n")
        rep = data(await s.call_tool("report", {"log_text": log, "sources": ["kernels"]}))
        assert rep["reports"] and "xLocall" in rep["reports"][0]["markdown"]


@needs_gxx
@pytest.mark.slow
async def test_check_and_fix_on_the_warm_worker(samples_copy: Path) -> None:
    kernel = samples_copy / "kernels/add_custom.cpp"
    good = kernel.read_text(encoding="utf-8")
    broken = good.replace("Add(zLocal, xLocal, yLocal", "Add(zLocal, xLocall, yLocal")
    assert broken != good
    progress: list[str] = []

    async def seen(_done: float, _total: float | None, message: str | None) -> None:
        progress.append(message or "")

    async with mcp_session(samples_copy, [samples_copy]) as s:
        ok = data(await s.call_tool("check", {"path": "kernels/add_custom.cpp"}, progress_callback=seen))
        assert ok["passes"] and ok["status"] == "pass" and ok["task"]
        assert ok["cases"] >= 1 and ok["passed_cases"] == ok["cases"] and ok["estimate_us"] > 0
        assert ok["trace"] and Path(ok["trace"]).is_file()
        assert any("checking add_custom.cpp" in m for m in progress)

        bad = data(await s.call_tool("check", {"path": "kernels/add_custom.cpp", "text": broken}))
        assert not bad["passes"] and bad["status"] == "compile_error"
        assert any(f["line"] == 61 and "xLocall" in f["message"] and f["path"] == str(kernel)
                   for f in bad["findings"])
        assert kernel.read_text(encoding="utf-8") == good  # `text` is checked as the file, never written

        run_err = data(await s.call_tool("check", {"path": "broken/runtime/double_free_tensor.cpp"}))
        assert run_err["status"] == "runtime_error"
        assert any(f["code"] == "SIM-QUE-DOUBLE-FREE" and f["line"] == 51 for f in run_err["findings"])

        kernel.write_text(broken, encoding="utf-8")
        proposed = data(await s.call_tool("fix", {"path": "kernels/add_custom.cpp", "use_model": False}))
        assert proposed["before"]["status"] == "compile_error" and proposed["passes"]
        assert "-        Add(zLocal, xLocall, yLocal" in proposed["diff"] and "+        Add(zLocal, xLocal, yLocal" \
            in proposed["diff"]
        assert not proposed["applied"] and kernel.read_text(encoding="utf-8") == broken
        applied = data(await s.call_tool("fix", {"path": "kernels/add_custom.cpp", "use_model": False,
                                                  "apply": True}))
        assert applied["applied"] and kernel.read_text(encoding="utf-8") == good


@needs_gxx
@pytest.mark.slow
async def test_sim_run_and_run_program(samples_copy: Path) -> None:
    import numpy as np

    tests = Path(__file__).resolve().parents[1]
    folder = samples_copy / "run"
    folder.mkdir()
    (folder / "add.cpp").write_text((tests / "sim/kernels/add_queue.cpp").read_text(encoding="utf-8"))
    x = np.arange(2048, dtype=np.float32)
    np.save(folder / "x.npy", x)
    manifest = {"sources": ["add.cpp"], "kernel": "add_custom", "block_dim": 1, "arch": "Ascend910B2",
                "defines": {"DTYPE_X": "float"},
                "args": [{"name": "x", "input": "x.npy"}, {"name": "y", "input": "x.npy"},
                         {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [2048]},
                         {"name": "n", "scalar": 2048, "type": "uint32_t"},
                         {"name": "t", "scalar": 1, "type": "uint32_t"}]}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (folder / "args.asc").write_text((tests / "sim/programs/args.asc").read_text(encoding="utf-8"))
    async with mcp_session(samples_copy, [samples_copy], "--no-warm") as s:
        run = data(await s.call_tool("sim_run", {"manifest": "run/manifest.json"}))
        assert run["ok"] and run["status"] == "ok" and run["result"]["estimate"]["us"] > 0
        np.testing.assert_array_equal(np.load(run["result"]["outputs"]["z"]), 2 * x)
        prog = data(await s.call_tool("run_program", {"program": "run/args.asc", "args": ["a", "b c"]}))
        assert "arg2=[b c]" in prog["result"]["stdout"] and prog["result"]["exit_code"] == 2


@needs_gxx
@pytest.mark.slow
async def test_bench_runs_a_task_subset(samples_copy: Path) -> None:
    async with mcp_session(samples_copy, [samples_copy], "--no-warm") as s:
        res = data(await s.call_tool("bench", {"tasks": ["AddMath"], "max_cases": 1, "out": "bench-out",
                                               "jobs": 1}))
        assert res["out"] == str(samples_copy / "bench-out") and (samples_copy / "bench-out/summary.json").is_file()
        [(level, row)] = res["summary"]["levels"].items()
        assert level == "1" and row["tasks"] == 1 and row["passed"] == 1
        refused = await s.call_tool("bench", {})
        assert refused.is_error and "name the tasks" in refused.content[0].text
        unknown = await s.call_tool("bench", {"tasks": ["NoSuchTask"]})
        said = unknown.content[0].text
        assert unknown.is_error and "no task" in said and "NoSuchTask" in said and "akgen bench list" in said

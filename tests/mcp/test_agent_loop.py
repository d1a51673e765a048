"""The agent loop of skills/akgen-ascendc/SKILL.md, driven through the MCP SDK's client by a scripted agent that
reads only the tools' structured results: lint, check, explain what failed, fix (apply), check again, until every
case passes. (A real agent, OpenCode over a local model: benchmarks/opencode_agent.py, docs/agents.md.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import types
from mcp.client.session import ClientSession
from mcp_helpers import mcp_session, needs_gxx


async def call(s: ClientSession, name: str, args: dict[str, Any], log: list[str]) -> dict[str, Any]:
    res: types.CallToolResult = await s.call_tool(name, args)
    assert not res.is_error, res.content[0].text
    log.append(f"{name}: {res.content[0].text.splitlines()[0]}")
    assert res.structured_content is not None
    return res.structured_content


@needs_gxx
@pytest.mark.slow
async def test_a_scripted_agent_repairs_a_broken_kernel_through_the_tools(samples_copy: Path) -> None:
    kernel = samples_copy / "kernels/add_custom.cpp"
    good = kernel.read_text(encoding="utf-8")
    kernel.write_text(good.replace("Add(zLocal, xLocal, yLocal", "Add(zLocal, xLocall, yLocal"), encoding="utf-8")
    path = "kernels/add_custom.cpp"
    log: list[str] = []
    async with mcp_session(samples_copy, [samples_copy]) as s:
        for _round in range(4):
            lint = await call(s, "lint", {"path": path}, log)
            assert lint["counts"]["error"] == 0  # the typo is a name the compiler finds, not the static rules
            checked = await call(s, "check", {"path": path}, log)
            if checked["passes"]:
                break
            first = checked["findings"][0]
            await call(s, "explain", {"query": first["code"]}, log)  # what the agent reads before it edits
            report = await call(s, "report", {"finding": first, "path": path}, log)
            assert report["reports"]
            fixed = await call(s, "fix", {"path": path, "use_model": False, "apply": True}, log)
            assert fixed["diff"], "the loop needs a verified repair to go on"
        else:
            pytest.fail("the kernel did not pass in 4 rounds:\n" + "\n".join(log))
    assert checked["status"] == "pass" and checked["passed_cases"] == checked["cases"], log
    assert kernel.read_text(encoding="utf-8") == good
    assert [line.split(":")[0] for line in log] == ["lint", "check", "explain", "report", "fix", "lint", "check"]

"""The MCP Inspector's CLI (npm @modelcontextprotocol/inspector, installed by scripts/install-e2e.sh) starts
`akgen mcp` over stdio, lists its tools (with its schema portability checks) and calls them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import REPO

pytestmark = pytest.mark.e2e

TOOLS = {"lint", "check", "fix", "explain", "report", "sim_run", "run_program", "bench", "op_test"}


def inspector() -> Path:
    default = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "akgen-e2e"
    cli = Path(os.environ.get("AKGEN_E2E_TOOLS") or default) / "inspector/node_modules/.bin/mcp-inspector"
    if not cli.exists():
        pytest.fail(f"the MCP Inspector is not installed ({cli} is missing): run `bash scripts/install-e2e.sh`",
                    pytrace=False)
    return cli


def run(cwd: Path, *method: str, status: int = 0) -> Any:
    """The Inspector's JSON answer; `status`: its exit status (5: the tool answered isError)."""
    # --connect-timeout: a bound, not a pause (the Inspector's default 15 s ran out for a fresh server at load 12-14)
    cmd = [str(inspector()), "--cli", "--connect-timeout", "300000", "-e", f"PYTHONPATH={REPO}", "--cwd", str(cwd),
           sys.executable, "-m",
           "akgen_lsp", "mcp", "--no-warm", "--method", *method]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == status, done.stderr + done.stdout
    return json.loads(done.stdout)


def test_the_inspector_lists_and_calls_the_tools(samples_copy: Path) -> None:
    listed = run(samples_copy, "tools/list", "--strict")  # --strict: exit 6 on a schema portability error
    assert {t["name"] for t in listed["tools"]} == TOOLS
    assert all(t["outputSchema"]["type"] == "object" for t in listed["tools"])
    explained = run(samples_copy, "tools/call", "--tool-name", "explain", "--tool-arg", "query=DataCopi")
    assert not explained["isError"] and "DataCopy" in explained["structuredContent"]["suggestions"]
    linted = run(samples_copy, "tools/call", "--tool-name", "lint", "--tool-arg",
                 "path=broken/akg120_dequeued_not_freed.cpp")
    assert [f["code"] for f in linted["structuredContent"]["findings"]] == ["AKG120"]
    assert "46:" in linted["content"][0]["text"]
    refused = run(samples_copy, "tools/call", "--tool-name", "lint", "--tool-arg", "path=/etc/passwd", status=5)
    assert refused["isError"] and "outside the server's roots" in refused["content"][0]["text"]
    arch = run(samples_copy, "resources/read", "--uri", "akgen://arch/Ascend910B2")
    assert json.loads(arch["contents"][0]["text"])["memory"]["ub"] == 196608

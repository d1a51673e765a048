"""VS Code 1.139 (code-server 4.139.1 on Node 24) sees the akgen MCP server the extension registers through the MCP
server definition provider API, with no mcp.json: "MCP: List Servers" lists akgen, and its Start Server action
runs `akgen mcp` (the language server's command with `mcp` in place of `serve`). Driven with playwright-core on
Debian's chromium by tests/editors/vscode_mcp.mjs, on loopback. (code-server 4.100, VS Code 1.100, has no such API:
test_vscode.py's session covers that the extension still starts there.)"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .tools import REPO, code_server_mcp, free_port, playwright, program
from .vscode_session import vsix, wait_http

DRIVER = Path(__file__).with_name("vscode_mcp.mjs")

pytestmark = pytest.mark.e2e


def test_vs_code_lists_and_starts_the_akgen_mcp_server(tmp_path: Path) -> None:
    node, entry = code_server_mcp()
    chromium = program("chromium", "apt-get install chromium")
    pw = playwright()
    shots = Path(os.environ.get("AKGEN_E2E_ARTIFACTS") or tmp_path) / "vscode-mcp-screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    workspace = tmp_path / "samples"
    shutil.copytree(REPO / "samples", workspace)
    assert not (workspace / ".vscode" / "mcp.json").exists()  # the server can only come from the extension
    home, user, extensions = tmp_path / "home", tmp_path / "user", tmp_path / "extensions"
    (user / "User").mkdir(parents=True)
    # the server named in the user's settings (a user-level place), as in test_vscode.py
    (user / "User" / "settings.json").write_text(json.dumps(
        {"akgen.server.command": [str(Path(sys.executable).parent / "akgen"), "serve"]}), encoding="utf-8")
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local" / "share"), "PATH": f"{node.parent}:/usr/bin:/bin",
           "PYTHONPATH": str(REPO)}
    subprocess.run([str(node), str(entry), "--user-data-dir", str(user), "--extensions-dir", str(extensions),
                    "--install-extension", str(vsix(tmp_path))], env=env, check=True, timeout=180,
                   capture_output=True)
    port = free_port()
    log = (tmp_path / "code-server.log").open("wb")
    proc = subprocess.Popen(
        [str(node), str(entry), "--auth", "none", "--bind-addr", f"127.0.0.1:{port}", "--disable-telemetry",
         "--disable-update-check", "--disable-workspace-trust", "--user-data-dir", str(user), "--extensions-dir",
         str(extensions), str(workspace)],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    report_path = tmp_path / "report.json"
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz", proc, timeout=90.0)
        driver = subprocess.run(
            [str(node), str(DRIVER)],
            env={**env, "E2E_URL": f"http://127.0.0.1:{port}/?folder={workspace}", "E2E_PLAYWRIGHT": str(pw),
                 "E2E_SHOTS": str(shots), "E2E_REPORT": str(report_path), "E2E_CHROMIUM": chromium},
            capture_output=True, text=True, timeout=600)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        log.close()
    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else []
    failed = [r for r in report if not r["ok"]]
    assert report and not failed, (failed[0]["detail"][:1500] if failed else driver.stderr[-2000:],
                                   f"code-server log: {tmp_path / 'code-server.log'}")
    details = {r["step"]: r["detail"] for r in report}
    listed = details["MCP: List Servers shows akgen from the extension"]
    assert listed.startswith("akgen, Stopped") and "AscendC kernels without an NPU" in listed
    assert details["Start Server runs akgen mcp"].startswith("akgen, Running")
    assert driver.returncode == 0, driver.stderr[-2000:]

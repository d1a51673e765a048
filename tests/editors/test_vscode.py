"""VS Code for real: code-server 4.100.0 (VS Code 1.100) with the packaged .vsix and default settings, driven as a
person drives it (keys, the DOM, screenshots) by tests/editors/vscode_e2e.mjs with playwright-core on Debian's
chromium, on loopback.

The workspace is a copy of samples/ inside a folder that has the `.venv` of this checkout, as a clone has it: the
extension must find the server by itself (no setting, `akgen` not on the PATH). One editor session runs every step:
diagnostic in the Problems panel -> hover -> completion after `AscendC::` -> the quick fix applied -> save a kernel
with a task -> the estimate line -> a build error -> its code action -> ghost text from the catalog, then from a
tiny GGUF model (real llama.cpp inference, its answer fixed by a GBNF grammar). The screenshots' folder is printed.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from akgen_lsp.model.tiny import write_tiny_gguf

from .tools import REPO, code_server, free_port, playwright, program

DRIVER = Path(__file__).with_name("vscode_e2e.mjs")
EXTENSION = REPO / "editors" / "vscode"

pytestmark = pytest.mark.e2e


def _vsix(tmp: Path) -> Path:
    """The extension as a user gets it: `vsce package` of editors/vscode (or AKGEN_VSIX, a .vsix built already)."""
    given = os.environ.get("AKGEN_VSIX")
    if given:
        return Path(given)
    npm = program("npm", "install Node.js 20 and npm (apt-get install nodejs npm)")
    if not (EXTENSION / "node_modules" / ".bin" / "vsce").exists():
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=EXTENSION, check=True,
                       timeout=600)
    out = tmp / "akgen-lsp.vsix"
    subprocess.run([npm, "exec", "--", "vsce", "package", "--no-dependencies", "-o", str(out)], cwd=EXTENSION,
                   check=True, timeout=600, capture_output=True)
    return out


def _wait_http(url: str, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"code-server exited with {proc.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2)  # loopback only
            return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"code-server did not answer on {url}")


def test_a_new_user_sees_every_feature_in_vs_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    node = program("node", "install Node.js 20 (apt-get install nodejs)")
    chromium = program("chromium", "apt-get install chromium")
    entry = code_server()
    pw = playwright()
    shots = Path(os.environ.get("AKGEN_E2E_ARTIFACTS") or tmp_path) / "vscode-screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    checkout = tmp_path / "checkout"
    shutil.copytree(REPO / "samples", checkout / "samples")
    (checkout / ".venv").symlink_to(Path(sys.prefix))  # a clone's .venv, where discovery looks first
    home = tmp_path / "home"
    user, extensions = tmp_path / "user", tmp_path / "extensions"
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local" / "share"), "PATH": f"{Path(node).parent}:/usr/bin:/bin"}
    env.pop("AKGEN_CXX", None)
    vsix = _vsix(tmp_path)
    subprocess.run([node, str(entry), "--user-data-dir", str(user), "--extensions-dir", str(extensions),
                    "--install-extension", str(vsix)], env=env, check=True, timeout=180, capture_output=True)
    port = free_port()
    log = (tmp_path / "code-server.log").open("wb")
    proc = subprocess.Popen(
        [node, str(entry), "--auth", "none", "--bind-addr", f"127.0.0.1:{port}", "--disable-telemetry",
         "--disable-update-check", "--disable-workspace-trust", "--user-data-dir", str(user), "--extensions-dir",
         str(extensions), str(checkout / "samples")],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    report_path = tmp_path / "report.json"
    started = time.monotonic()
    try:
        _wait_http(f"http://127.0.0.1:{port}/healthz", proc)
        driver = subprocess.run(
            [node, str(DRIVER)],
            env={**env, "E2E_URL": f"http://127.0.0.1:{port}/?folder={checkout / 'samples'}",
                 "E2E_PLAYWRIGHT": str(pw), "E2E_SHOTS": str(shots), "E2E_REPORT": str(report_path),
                 "E2E_TINY_GGUF": str(write_tiny_gguf(tmp_path / "tiny.gguf")), "E2E_CHROMIUM": chromium},
            capture_output=True, text=True, timeout=600,
        )
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        log.close()
    wall = time.monotonic() - started
    with capsys.disabled():
        sys.stderr.write(f"\nVS Code end-to-end: {wall:.0f} s; screenshots in {shots}\n")
    assert report_path.exists(), f"the driver wrote no report: {driver.stderr[-3000:]}"
    report = json.loads(report_path.read_text(encoding="utf-8"))
    failed = [r for r in report if not r["ok"]]
    assert not failed, (f"{failed[0]['step']}: {failed[0]['detail'][:1500]}\nscreenshot: {failed[0].get('screenshot')}"
                        f"\ncode-server log: {tmp_path / 'code-server.log'}")
    steps = [r["step"] for r in report]
    assert len(steps) == 9 and driver.returncode == 0, (steps, driver.stderr[-2000:])
    details = {r["step"]: r["detail"] for r in report}
    assert "1/1 cases pass" in details["saving a kernel with a task shows the estimate"]
    assert "Change 'xLocall' to 'xLocal' (the compiler's fix-it) — verified: compiles, 1/1 cases pass" in \
        details["a build error and its code action"]  # Ctrl+. on a build error applies a verified fix
    assert "PipeBarrier<PIPE_V>();" in details["ghost text from a tiny GGUF model"]

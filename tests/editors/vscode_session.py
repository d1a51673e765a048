"""One session of code-server 4.100.0 (VS Code 1.100) driven by tests/editors/vscode_e2e.mjs, shared by the VS Code
end-to-end tests: the packaged .vsix installed into a fresh user folder, code-server started on loopback on a
workspace, the driver run with the flow's environment, code-server stopped with every process it started. The
driver's report (one entry per step) is returned with the time from code-server's start to the driver's end."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .tools import REPO, code_server, free_port, playwright, program

DRIVER = Path(__file__).with_name("vscode_e2e.mjs")
EXTENSION = REPO / "editors" / "vscode"


def vsix(tmp: Path) -> Path:
    """The extension as a user gets it: `npm run package` of editors/vscode, the README's build (the bundle, the
    akgen-lsp wheel and scripts/vsix.mjs, no vsce), or AKGEN_VSIX, a .vsix built already."""
    given = os.environ.get("AKGEN_VSIX")
    if given:
        return Path(given)
    npm = program("npm", "install Node.js 20 and npm (apt-get install nodejs npm)")
    if not (EXTENSION / "node_modules" / "esbuild").exists():
        subprocess.run([npm, "ci", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"], cwd=EXTENSION,
                       check=True, timeout=600)
    out = tmp / "akgen-lsp.vsix"
    built = subprocess.run([npm, "run", "--silent", "package", "--", "-o", str(out)], cwd=EXTENSION, timeout=600,
                           capture_output=True, text=True)
    if built.returncode != 0:
        raise AssertionError(f"`npm run package` in {EXTENSION} failed ({built.returncode}):\n"
                             f"{built.stdout[-3000:]}{built.stderr[-3000:]}")
    return out


def wait_http(url: str, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
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


@dataclass
class Session:
    report: list[dict[str, Any]]
    driver: subprocess.CompletedProcess[str]
    wall: float
    log: Path
    shots: Path

    def failure(self) -> str:
        """The first failed step with its screenshot and the logs, or '' when every step passed."""
        failed = [r for r in self.report if not r["ok"]]
        if failed:
            return (f"{failed[0]['step']}: {failed[0]['detail'][:1500]}\nscreenshot: {failed[0].get('screenshot')}"
                    f"\ncode-server log: {self.log}")
        return "" if self.report else f"the driver wrote no report: {self.driver.stderr[-3000:]}"

    def steps(self) -> str:
        return ", ".join(f"{r['step']} {r['seconds']:.0f} s" for r in self.report)


def run_session(tmp_path: Path, workspace: Path, env: dict[str, str], flow: dict[str, str], shots_name: str,
                settings: dict[str, Any] | None = None, timeout: float = 1500.0) -> Session:
    """Install the .vsix (user settings `settings` first, when given), start code-server on `workspace` with `env`
    and run the driver with `flow` (its E2E_* variables besides the URL, Playwright, screenshots and report)."""
    node = program("node", "install Node.js 20 (apt-get install nodejs)")
    chromium = program("chromium", "apt-get install chromium")
    entry = code_server()
    pw = playwright()
    shots = Path(os.environ.get("AKGEN_E2E_ARTIFACTS") or tmp_path) / shots_name
    shots.mkdir(parents=True, exist_ok=True)
    user, extensions = tmp_path / "user", tmp_path / "extensions"
    if settings is not None:
        (user / "User").mkdir(parents=True, exist_ok=True)
        (user / "User" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    subprocess.run([node, str(entry), "--user-data-dir", str(user), "--extensions-dir", str(extensions),
                    "--install-extension", str(vsix(tmp_path))], env=env, check=True, timeout=180,
                   capture_output=True)
    port = free_port()
    log_path = tmp_path / "code-server.log"
    log = log_path.open("wb")
    proc = subprocess.Popen(
        [node, str(entry), "--auth", "none", "--bind-addr", f"127.0.0.1:{port}", "--disable-telemetry",
         "--disable-update-check", "--disable-workspace-trust", "--user-data-dir", str(user), "--extensions-dir",
         str(extensions), str(workspace)],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    report_path = tmp_path / "report.json"
    started = time.monotonic()
    try:
        wait_http(f"http://127.0.0.1:{port}/healthz", proc)
        driver = subprocess.run(
            [node, str(DRIVER)],
            env={**env, "E2E_URL": f"http://127.0.0.1:{port}/?folder={workspace}", "E2E_PLAYWRIGHT": str(pw),
                 "E2E_SHOTS": str(shots), "E2E_REPORT": str(report_path), "E2E_CHROMIUM": chromium,
                 "E2E_WORKSPACE": str(workspace), **flow},
            capture_output=True, text=True, timeout=timeout,
        )
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)
        log.close()
    report = json.loads(report_path.read_text(encoding="utf-8")) if report_path.exists() else []
    return Session(report, driver, time.monotonic() - started, log_path, shots)

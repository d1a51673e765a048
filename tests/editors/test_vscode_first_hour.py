"""A new user's first hour in VS Code for real (code-server 4.100.0, the packaged .vsix, default settings): a folder
OUTSIDE any checkout of akgen-lsp (a copy of samples/), no server on the PATH, no Python extension. The extension
installs the server it carries (the akgen-lsp wheel in the .vsix) into the environment it manages, with a progress
notification, and starts it; saving a sample kernel after an edit shows "1/1 cases pass" with the estimate. The
installed environment has no torch (the plain install's references run with NumPy). Prints the time from the
editor's start to the first result."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from .tools import REPO, program
from .vscode_session import run_session

pytestmark = pytest.mark.e2e


def test_outside_the_checkout_the_extension_installs_its_server_and_checks_on_save(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    node = program("node", "install Node.js 20 (apt-get install nodejs)")
    workspace = tmp_path / "elsewhere" / "my-kernels"  # no akgen-lsp checkout around it, no .venv
    shutil.copytree(REPO / "samples", workspace)
    home = tmp_path / "home"
    # no PYTHONPATH (the installed server runs the wheel's code), no akgen on the PATH: the system Python only
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "AKGEN_CXX")}
    env.update({"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
                "XDG_DATA_HOME": str(home / ".local" / "share"), "PATH": f"{Path(node).parent}:/usr/bin:/bin"})
    assert shutil.which("akgen", path=env["PATH"]) is None
    session = run_session(tmp_path, workspace, env, {"E2E_FLOW": "first-hour"}, "vscode-first-hour-screenshots",
                          timeout=1200)
    with capsys.disabled():
        sys.stderr.write(f"\nVS Code first hour: {session.wall:.0f} s from the editor's start to the first result "
                         f"({session.steps()}); screenshots in {session.shots}\n")
    assert not session.failure(), session.failure()
    assert len(session.report) == 2 and session.driver.returncode == 0, session.driver.stderr[-2000:]

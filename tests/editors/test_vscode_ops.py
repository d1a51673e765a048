"""VS Code for real (code-server 4.100.0, the packaged .vsix) on an operator repository with no configuration: a copy
of our own operator tests/sim/ops_repo/math/axpb in the ops-math layout, in a folder outside any checkout of
akgen-lsp, no akgen.toml, no akgen setting but the server's command (a user-level setting, as test_vscode.py names
it: the extension never runs a program inside the opened folder). Saving op_kernel/axpb.cpp runs its kernel UT on
the simulator and the Problems panel shows "2/2 cases pass" with the estimate; a wrong name typed into the kernel
and saved shows the compiler's error at its line; fixing it brings the cases back. Needs no fetched repository."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from .tools import REPO, program
from .vscode_session import run_session

pytestmark = pytest.mark.e2e

KERNEL = "math/axpb/op_kernel/axpb.cpp"


def test_saving_an_operator_kernel_in_vs_code_runs_its_kernel_ut(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("cmake") is None or not Path("/usr/include/gtest/gtest.h").is_file():
        pytest.fail("the kernel UT needs cmake and Debian's libgtest-dev: apt-get install cmake libgtest-dev",
                    pytrace=False)
    workspace = tmp_path / "elsewhere" / "ops-repo"  # no akgen-lsp checkout around it
    shutil.copytree(REPO / "tests" / "sim" / "ops_repo", workspace)
    text = (workspace / KERNEL).read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(text, 1) if "AxpbCompute(yl, xin," in t)
    column = text[line - 1].index("xin,") + len("xin") + 1  # right after the name: a typed "n" makes "xinn"
    home = tmp_path / "home"
    node = program("node", "install Node.js 20 (apt-get install nodejs)")
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local" / "share"), "PATH": f"{Path(node).parent}:/usr/bin:/bin"}
    env.pop("AKGEN_CXX", None)
    session = run_session(tmp_path, workspace, env, {"E2E_FLOW": "ops", "E2E_OPS_KERNEL": KERNEL,
                                                     "E2E_OPS_LINE": str(line), "E2E_OPS_COL": str(column)},
                          "vscode-ops-screenshots",
                          settings={"akgen.server.command": [str(Path(sys.executable).parent / "akgen"), "serve"]},
                          timeout=2400)
    with capsys.disabled():
        sys.stderr.write(f"\nVS Code operator flow: {session.wall:.0f} s ({session.steps()}); screenshots in "
                         f"{session.shots}\n")
    assert not session.failure(), session.failure()
    assert len(session.report) == 3 and session.driver.returncode == 0, session.driver.stderr[-2000:]
    details = {r["step"]: r["detail"] for r in session.report}
    assert "2/2 cases pass" in details["saving the operator's kernel runs its kernel UT"]
    wrong = details["a wrong edit shows the failure at its line"]
    assert f"[Ln {line}, " in wrong and "xinn" in wrong and "2/2 cases pass" in wrong

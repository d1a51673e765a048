"""Neovim for real on an operator repository with no configuration: our own operator tests/sim/ops_repo/math/axpb in
the ops-math layout (no akgen.toml, no task), set up with only the README's lines. Saving its kernel runs its kernel
UT on the simulator ("2/2 cases pass"); saving a header that makes the kernel wrong shows the golden mismatch; a
compile error in the header is shown in the header at its line and in the open kernel at its #include line, with
the header's place as related information.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_nvim import Session, _start, readme_setup
from .tools import REPO, nvim_012

pytestmark = pytest.mark.e2e

OPS_REPO = REPO / "tests" / "sim" / "ops_repo"
KERNEL = "math/axpb/op_kernel/axpb.cpp"
HEADER = "math/axpb/op_kernel/axpb_common.h"


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    if shutil.which("cmake") is None or not Path("/usr/include/gtest/gtest.h").is_file():
        pytest.fail("the kernel UT needs cmake and Debian's libgtest-dev: apt-get install cmake libgtest-dev",
                    pytrace=False)
    tmp = tmp_path_factory.mktemp("nvim-ops")
    checkout = tmp / "akgen-lsp"
    shutil.copytree(REPO / "editors" / "nvim", checkout / "editors" / "nvim")
    (checkout / ".venv").symlink_to(Path(sys.prefix))
    workspace = tmp / "ops-repo"
    shutil.copytree(OPS_REPO, workspace)
    nvim = _start(str(nvim_012()), readme_setup().replace("/path/to/akgen-lsp", str(checkout)), workspace, tmp)
    nvim.command("set columns=160 lines=50")
    s = Session(nvim, workspace)
    s.version = "0.12"
    yield s
    with contextlib.suppress(Exception):
        nvim.command("qa!")


def _diags(s: Session, relative: str) -> list[dict]:
    return s.lua("""
        local buf = vim.fn.bufnr(...)
        local out = {}
        for _, d in ipairs(vim.diagnostic.get(buf)) do
          local lsp = d.user_data and d.user_data.lsp or {}
          local rel = {}
          for _, r in ipairs(lsp.relatedInformation or {}) do
            table.insert(rel, { uri = r.location.uri, line = r.location.range.start.line })
          end
          table.insert(out, { lnum = d.lnum, code = d.code or lsp.code, source = d.source, message = d.message,
                              related = rel })
        end
        return out""", str(s.workspace / relative))


def test_saving_the_kernel_runs_its_kernel_ut(session: Session) -> None:
    s = session
    s.edit(KERNEL)
    s.until("the server attached", lambda: s.lua("return #vim.lsp.get_clients({ bufnr = 0 })") > 0)
    s.nvim.command("write")
    run = s.until("the UT's result", lambda: [d for d in _diags(s, KERNEL) if d["code"] == "AKGEN-ESTIMATE"], 300)
    assert "2/2 cases pass" in run[0]["message"] and "estimate" in run[0]["message"]
    assert run[0]["lnum"] == 41  # the kernel entry (0-based)
    assert not [d for d in _diags(s, KERNEL) if d["source"] in ("akgen-run", "akgen-build") and d["code"] !=
                "AKGEN-ESTIMATE"]


def test_saving_a_header_that_breaks_the_numbers_shows_the_golden_mismatch(session: Session) -> None:
    s = session
    s.edit(HEADER)
    s.nvim.command("%s/Adds(y, y, b,/Adds(y, y, a,/")
    s.nvim.command("write")
    wrong = s.until("the golden mismatch", lambda: [d for d in _diags(s, KERNEL) if d["code"] == "OP-UT-GOLDEN"], 300)
    assert wrong[0]["lnum"] == 41 and "golden" in wrong[0]["message"]
    s.nvim.command("%s/Adds(y, y, a,/Adds(y, y, b,/")
    s.nvim.command("write")
    s.until("the mismatch gone", lambda: not [d for d in _diags(s, KERNEL) if d["code"] == "OP-UT-GOLDEN"], 300)


def test_a_compile_error_in_the_header_is_at_the_header_and_at_the_include(session: Session) -> None:
    s = session
    s.edit(HEADER)
    line = next(i for i, text in enumerate(s.nvim.current.buffer) if "Muls(" in text)
    s.nvim.command("%s/Muls(y, x, a, count);/Muls(y, x, a, count)/")
    s.nvim.command("write")
    here = s.until("the error in the header", lambda: [d for d in _diags(s, HEADER) if d["source"] == "akgen-build"],
                   300)
    assert any(d["lnum"] in (line, line + 1) for d in here), here
    s.edit(KERNEL)  # saving the kernel shows the header's error at its #include, the header's place related
    include_line = next(i for i, text in enumerate(s.nvim.current.buffer) if "axpb_common.h" in text)
    s.nvim.command("write")
    at_include = s.until("the error at the kernel's #include", lambda: [
        d for d in _diags(s, KERNEL) if d["source"] == "akgen-build"], 300)
    assert at_include[0]["lnum"] == include_line
    assert at_include[0]["related"] and at_include[0]["related"][0]["uri"].endswith("axpb_common.h")
    assert any(d["lnum"] in (line, line + 1) for d in _diags(s, HEADER) if d["source"] == "akgen-build")
    s.edit(HEADER)
    s.nvim.command("%s/Muls(y, x, a, count)$/Muls(y, x, a, count);/")
    s.nvim.command("write")
    s.until("the header clean", lambda: not [d for d in _diags(s, HEADER) if d["source"] == "akgen-build"], 300)

"""Neovim for real: Debian's 0.7.2 and a 0.12-dev build, headless, set up with only the README's lines, driven as a
person drives it (keys through the RPC input queue, the screen's floats, popup menu and extmarks read back).

One editor session per version runs every step: diagnostics -> one server for the samples root -> `K` -> omnifunc
completion after `AscendC::` -> the code action applied -> a save check with its result shown -> inline completion
(0.12) -> `:checkhealth akgen` -> `:AkgenInfo`. The workspace is a copy of samples/ beside this checkout's `.venv`, as
a clone has it, so the README's `/path/to/akgen-lsp` is that copy's folder.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pynvim
import pytest

from .tools import REPO, nvim_012, nvim_07

pytestmark = pytest.mark.e2e

DEQUE_LINE = 45  # 0-based: the DeQue line of broken/akg120_dequeued_not_freed.cpp


def readme_setup() -> str:
    """The Lua lines of the README's "Neovim" part, verbatim."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    part = text[text.index("**Neovim**"):]
    m = re.search(r"```lua\n(.*?)```", part, re.S)
    assert m, "README.md has no ```lua block under **Neovim**"
    return m.group(1)


class Session:
    def __init__(self, nvim: pynvim.Nvim, workspace: Path) -> None:
        self.nvim = nvim
        self.workspace = workspace
        self.steps: list[str] = []
        self.version = ""

    def lua(self, code: str, *args: Any) -> Any:
        return self.nvim.exec_lua(code, *args)

    def until(self, what: str, fn: Callable[[], Any], timeout: float = 60.0) -> Any:
        deadline = time.monotonic() + timeout
        last: Any = None
        while time.monotonic() < deadline:
            last = fn()
            if last:
                return last
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what} (last: {last!r}); messages: {self.messages()[-1500:]}")

    def keys(self, keys: str) -> None:
        self.nvim.input(keys)

    def messages(self) -> str:
        return str(self.nvim.command_output("messages"))

    def edit(self, relative: str) -> None:
        self.nvim.command(f"edit {self.workspace / relative}")

    def cursor(self, line: int, column: int) -> None:
        self.nvim.api.win_set_cursor(0, [line + 1, column])

    def diagnostics(self) -> list[dict[str, Any]]:
        return self.lua("""
            local out = {}
            for _, d in ipairs(vim.diagnostic.get(0)) do
              local lsp = d.user_data and d.user_data.lsp or {}
              table.insert(out, { lnum = d.lnum, code = d.code or lsp.code, source = d.source, message = d.message })
            end
            return out""")

    def float_text(self) -> str:
        return str(self.lua("""
            for _, win in ipairs(vim.api.nvim_list_wins()) do
              if vim.api.nvim_win_get_config(win).relative ~= "" then
                local buf = vim.api.nvim_win_get_buf(win)
                return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\\n")
              end
            end
            return "" """))

    def line(self, number: int | None = None) -> str:
        if number is None:
            return str(self.nvim.current.line)
        return str(self.nvim.current.buffer[number])


def _start(binary: str, init: str, cwd: Path, tmp: Path) -> pynvim.Nvim:
    init_file = tmp / "init.lua"
    init_file.write_text(init, encoding="utf-8")
    env = {**os.environ, "HOME": str(tmp), "XDG_CONFIG_HOME": str(tmp / "config"), "XDG_DATA_HOME": str(tmp / "data"),
           "XDG_STATE_HOME": str(tmp / "state"), "PATH": "/usr/bin:/bin"}
    old, here = dict(os.environ), os.getcwd()
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    try:
        return pynvim.attach("child", argv=[binary, "--embed", "--headless", "-n", "-i", "NONE", "-u", str(init_file)])
    finally:
        os.environ.clear()
        os.environ.update(old)
        os.chdir(here)


@pytest.fixture(scope="module", params=["0.7", "0.12"])
def session(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    binary = nvim_07() if request.param == "0.7" else str(nvim_012())
    tmp = tmp_path_factory.mktemp(f"nvim-{request.param}")
    checkout = tmp / "akgen-lsp"
    shutil.copytree(REPO / "samples", checkout / "samples")
    shutil.copytree(REPO / "editors" / "nvim", checkout / "editors" / "nvim")
    (checkout / ".venv").symlink_to(Path(sys.prefix))
    nvim = _start(binary, readme_setup().replace("/path/to/akgen-lsp", str(checkout)), checkout / "samples", tmp)
    nvim.command("set columns=160 lines=50")
    s = Session(nvim, checkout / "samples")
    s.version = request.param
    yield s
    with contextlib.suppress(Exception):  # the connection closes as it quits
        nvim.command("qa!")


def test_diagnostics_arrive_and_one_server_serves_the_samples_root(session: Session) -> None:
    s = session
    s.edit("broken/akg120_dequeued_not_freed.cpp")
    diags = s.until("AKG120", lambda: [d for d in s.diagnostics() if d["code"] == "AKG120"])
    assert diags[0]["lnum"] == DEQUE_LINE and diags[0]["source"] == "akgen-lint"
    s.edit("broken/cann_9_1/akg103_renamed_api.cpp")  # another akgen.toml below the samples root
    s.until("AKG103", lambda: [d for d in s.diagnostics() if d["code"] == "AKG103"])
    clients = s.lua("""local out = {} for _, c in ipairs(require("akgen").clients()) do
                         table.insert(out, c.config.root_dir) end return out""")
    assert clients == [str(s.workspace)]
    assert "initialization options" not in s.messages()  # init_options is an object, even when empty


def test_K_shows_the_api_documentation(session: Session) -> None:
    s = session
    s.edit("broken/akg120_dequeued_not_freed.cpp")
    s.cursor(DEQUE_LINE, 45)
    s.keys("K")
    text = s.until("the hover float", lambda: "DeQue" in s.float_text() and s.float_text())
    assert "LocalTensor<T> DeQue()" in text
    s.keys("<Esc>")
    s.nvim.command("silent! only")


def test_omnifunc_completes_after_the_namespace(session: Session) -> None:
    s = session
    s.edit("broken/akg120_dequeued_not_freed.cpp")
    assert s.nvim.current.buffer.options["omnifunc"] == "v:lua.vim.lsp.omnifunc"
    s.cursor(DEQUE_LINE + 2, 0)
    s.keys("oAscendC::DataC<C-x><C-o>")
    words = s.until("the completion menu", lambda: s.lua(
        "local i = vim.fn.complete_info({'items'}).items local w = {} "
        "for _, x in ipairs(i) do table.insert(w, x.word) end return w"))
    assert any(w.startswith("DataCopy") for w in words), words
    s.keys("<C-e><Esc>")
    s.until("normal mode", lambda: s.nvim.api.get_mode()["mode"] == "n")
    s.nvim.command("normal! dd")
    s.nvim.command("write")  # the text as it was


def test_the_code_action_fixes_the_finding(session: Session) -> None:
    s = session
    s.edit("broken/akg120_dequeued_not_freed.cpp")
    s.until("AKG120", lambda: [d for d in s.diagnostics() if d["code"] == "AKG120"])
    s.cursor(DEQUE_LINE, 60)  # the end of the line: not on the diagnostic's word
    s.keys("gra")
    # vim.ui.select asks with inputlist(): 0.7 blocks on the prompt (only nvim_get_mode answers meanwhile), 0.12
    # shows it in the command line
    s.until("the action menu", lambda: s.nvim.api.get_mode()["blocking"] or s.nvim.api.get_mode()["mode"] == "c", 20)
    s.keys("1<CR>")
    s.until("the FreeTensor inserted", lambda: any("inQueueX.FreeTensor(xLocal);" in x for x in s.nvim.current.buffer))
    s.until("AKG120 gone", lambda: not [d for d in s.diagnostics() if d["code"] == "AKG120"])
    s.nvim.command("write")


def test_saving_a_kernel_with_a_task_shows_its_result(session: Session) -> None:
    s = session
    s.edit("kernels/add_custom.cpp")
    s.nvim.command("write")
    run = s.until("the estimate", lambda: [d for d in s.diagnostics() if d["source"] == "akgen-run"], 180)
    assert "1/1 cases pass" in run[0]["message"] and "estimate" in run[0]["message"]
    status = s.until("the status line component", lambda: "1/1" in s.lua("return require('akgen').statusline()")
                     and s.lua("return require('akgen').statusline()"))
    assert status.startswith("akgen: add_custom.cpp: 1/1 cases pass")
    s.until("the result in the messages", lambda: "akgen: add_custom.cpp: 1/1 cases pass" in s.messages())


def test_inline_completion_on_0_12(session: Session) -> None:
    s = session
    if s.version != "0.12":
        assert not s.lua("return vim.lsp.inline_completion ~= nil")  # 0.7 has none: the omnifunc serves
        return
    s.edit("kernels/add_custom.cpp")
    s.cursor(62, 0)
    s.keys("oAscendC::DataCo")
    ghost = s.until("ghost text", lambda: s.lua("""
        local ns = vim.api.nvim_get_namespaces()["nvim.lsp.inline_completion"]
        if not ns then return false end
        for _, m in ipairs(vim.api.nvim_buf_get_extmarks(0, ns, 0, -1, { details = true })) do
          local vt = m[4].virt_text
          if vt and vt[1] then return vt[1][1] end
        end
        return false"""))
    assert ghost.startswith("py(")
    s.keys("<Tab>")
    s.until("the accepted text", lambda: "AscendC::DataCopy(" in s.line())
    s.keys("<Esc>")
    s.until("normal mode", lambda: s.nvim.api.get_mode()["mode"] == "n")
    s.nvim.command("normal! dd")
    s.nvim.command("write")


def test_checkhealth_and_info_say_what_runs(session: Session) -> None:
    s = session
    s.edit("kernels/add_custom.cpp")
    s.nvim.command("checkhealth akgen")
    report = "\n".join(s.nvim.current.buffer[:])
    assert "server command:" in report and "compiler: " in report and "akgen-lsp" in report, report
    assert "ERROR" not in report, report
    s.nvim.command("bwipeout!")
    s.edit("kernels/add_custom.cpp")
    s.nvim.command("AkgenInfo")
    info = "\n".join(s.nvim.current.buffer[:])
    assert f"root {s.workspace}" in info and "compiler" in info and "last check: add_custom.cpp" in info, info


def test_vim_lsp_config_and_the_lspconfig_entry(tmp_path: Path) -> None:
    """Neovim 0.11+: lsp/akgen.lua with vim.lsp.enable; nvim-lspconfig's configs/akgen.lua loads in its format."""
    binary = str(nvim_012())
    samples = tmp_path / "samples"
    shutil.copytree(REPO / "samples" / "broken", samples / "broken")
    shutil.copyfile(REPO / "samples" / "akgen.toml", samples / "akgen.toml")
    plugin = REPO / "editors" / "nvim"
    akgen = Path(sys.prefix) / "bin" / "akgen"
    nvim = _start(binary, f'vim.opt.rtp:append("{plugin}")\n'
                          f'vim.lsp.config("akgen", {{ cmd = {{ "{akgen}", "serve" }} }})\n'
                          'vim.lsp.enable("akgen")\n', samples, tmp_path)
    s = Session(nvim, samples)
    try:
        s.edit("broken/akg130_ub_budget.cpp")
        s.until("AKG130", lambda: [d for d in s.diagnostics() if d["code"] == "AKG130"])
        assert s.lua("return vim.lsp.get_clients({ bufnr = 0 })[1].config.root_dir") == str(samples)
        shape = s.lua("""
            local c = require("lspconfig.configs.akgen")
            return { cmd = c.default_config.cmd, filetypes = c.default_config.filetypes,
                     root = c.default_config.root_dir(vim.api.nvim_buf_get_name(0)),
                     docs = c.docs.description ~= nil }""")
        assert shape == {"cmd": ["akgen", "serve"], "filetypes": ["cpp", "asc"], "root": str(samples), "docs": True}
    finally:
        with contextlib.suppress(Exception):  # the connection closes as it quits
            nvim.command("qa!")

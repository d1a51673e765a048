"""Headless Neovim (Debian's 0.7.2) with editors/nvim on a kernel with a task: write it with a build error, ask for the
code actions of that diagnostic, apply the verified fix through Neovim's own client, write again: the error is gone
and the cases pass."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .tools import lua_literal as _lua
from .tools import nvim_07

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "editors" / "nvim"
WS = REPO / "tests" / "repair" / "fixtures" / "ws"

pytestmark = pytest.mark.e2e

INIT = r"""
vim.cmd("filetype on")
vim.opt.rtp:prepend({plugin})
require("akgen").setup({{ cmd = {cmd}, settings = {{ lint = {{ debounce_ms = 20 }} }} }})
vim.cmd("edit " .. vim.fn.fnameescape({file}))
local out = {{ steps = {{}} }}
local function note(k, v) out[k] = v; table.insert(out.steps, k) end
local function build_errors()
  local found = {{}}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.source == "akgen-build" and d.severity == vim.diagnostic.severity.ERROR then table.insert(found, d) end
  end
  return found
end
vim.wait(30000, function() return #vim.lsp.buf_get_clients(0) > 0 end, 50)
vim.cmd("write")
note("build_error", vim.wait(180000, function() return #build_errors() > 0 end, 100))
local action = nil
if out.build_error then
  local d = build_errors()[1]
  -- what Neovim's own vim.lsp.buf.code_action() sends: the line's diagnostics in LSP form
  local params = {{ textDocument = vim.lsp.util.make_text_document_params(),
                   range = {{ start = {{ line = d.lnum, character = d.col }},
                             ["end"] = {{ line = d.end_lnum or d.lnum, character = d.end_col or d.col }} }},
                   context = {{ diagnostics = vim.lsp.diagnostic.get_line_diagnostics(0, d.lnum) }} }}
  note("fix_offered", vim.wait(120000, function()
    local replies = vim.lsp.buf_request_sync(0, "textDocument/codeAction", params, 10000) or {{}}
    out.last_titles = {{}}
    out.last_error = nil
    for _, reply in pairs(replies) do
      if reply.err then out.last_error = tostring(reply.err.message) end
      for _, a in ipairs(reply.result or {{}}) do
        table.insert(out.last_titles, a.title or "?")
        if a.title and a.title:find("verified", 1, true) and a.edit then action = a; return true end
      end
    end
    return false
  end, 500))
end
if action then
  out.title = action.title
  vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
  out.fixed_line = vim.fn.getline(vim.fn.search("inQueueX.AllocTensor", "nw"))
  vim.cmd("write")
  note("cleared", vim.wait(180000, function()
    if #build_errors() > 0 then return false end
    for _, d in ipairs(vim.diagnostic.get(0)) do
      if d.source == "akgen-run" and d.message:find("1/1 cases pass", 1, true) then return true end
    end
    return false
  end, 100))
end
vim.fn.writefile({{ vim.fn.json_encode(out) }}, {result})
vim.cmd("qa!")
"""


def test_a_build_error_gets_its_verified_fix_in_neovim(tmp_path: Path) -> None:
    nvim = nvim_07()
    work = tmp_path / "ws"
    shutil.copytree(WS, work)
    kernel = work / "abs.cpp"
    kernel.write_text(kernel.read_text().replace("inQueueX.AllocTensor<half>()", "inQueueX.AllocTensor()"))
    result = tmp_path / "result.json"
    cmd = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve"]
    init = tmp_path / "init.lua"
    init.write_text(INIT.format(plugin=_lua(PLUGIN), cmd=_lua(cmd), file=_lua(kernel), result=_lua(result)))
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"}
    proc = subprocess.run([nvim, "--headless", "-n", "-i", "NONE", "-u", str(init)], cwd=work, env=env,
                          capture_output=True, text=True, timeout=600)
    assert result.exists(), f"nvim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    out = json.loads(result.read_text())
    assert out["build_error"] and out.get("fix_offered"), out
    assert out["title"].startswith("Write AllocTensor<half>() (inQueueX's element type) — verified: compiles, 1/1")
    assert "inQueueX.AllocTensor<half>()" in out["fixed_line"]
    assert out.get("cleared"), out
    assert "inQueueX.AllocTensor<half>()" in kernel.read_text()

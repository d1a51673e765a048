"""Neovim 0.12 (headless, the plugin's setup with the server of this checkout): after a save, the check's estimate
("estimated ... us on Ascend910B2 ..., 1/1 cases pass") is virtual text on the kernel's entry line, without hovering
(0.11+ shows no diagnostic virtual text by default; the client turns it on for that one diagnostic)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .tools import REPO, nvim_012
from .tools import lua_literal as _lua

pytestmark = pytest.mark.e2e

INIT = r"""
vim.cmd("filetype on")
vim.opt.rtp:prepend({plugin})
local out = {{ notes = {{}} }}
local notify = vim.notify
vim.notify = function(msg, level, opts) table.insert(out.notes, msg); return notify(msg, level, opts) end
require("akgen").setup({{ cmd = {cmd} }})
vim.cmd("edit " .. vim.fn.fnameescape({file}))
out.attached = vim.wait(120000, function() return #vim.lsp.get_clients({{ bufnr = 0 }}) > 0 end, 50)
vim.api.nvim_buf_set_lines(0, -1, -1, false, {{ "// an edit" }})
vim.cmd("write")
out.result = vim.wait(300000, function()
  for _, n in ipairs(out.notes) do if n:find("cases pass", 1, true) then return true end end
  return false
end, 100)
-- the virtual text on screen: every namespace's extmarks with virt_text
local function shown()
  for _, ns in pairs(vim.api.nvim_get_namespaces()) do
    for _, m in ipairs(vim.api.nvim_buf_get_extmarks(0, ns, 0, -1, {{ details = true }})) do
      for _, chunk in ipairs(m[4].virt_text or {{}}) do
        if tostring(chunk[1]):find("cases pass", 1, true) then return {{ line = m[2], text = chunk[1] }} end
      end
    end
  end
  return nil
end
vim.wait(20000, function() out.virtual = shown(); return out.virtual ~= nil end, 100)
local others = 0
for _, ns in pairs(vim.api.nvim_get_namespaces()) do
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(0, ns, 0, -1, {{ details = true }})) do
    if m[4].virt_text and not tostring((m[4].virt_text[1] or {{}})[1]):find("cases pass", 1, true)
       and m[4].virt_text_pos == "eol" then others = others + 1 end
  end
end
out.other_virtual_text = others
vim.fn.writefile({{ vim.fn.json_encode(out) }}, {result})
vim.cmd("qa!")
"""


def test_the_estimate_is_virtual_text_on_the_entry_line(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    shutil.copytree(REPO / "samples", workspace)
    kernel = workspace / "kernels" / "add_custom.cpp"
    entry = next(i for i, line in enumerate(kernel.read_text().splitlines()) if 'extern "C"' in line)
    result = tmp_path / "result.json"
    cmd = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve"]
    init = tmp_path / "init.lua"
    init.write_text(INIT.format(plugin=_lua(REPO / "editors" / "nvim"), cmd=_lua(cmd), file=_lua(kernel),
                                result=_lua(result)))
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
           **{k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ}}
    proc = subprocess.run([str(nvim_012()), "--headless", "-n", "-i", "NONE", "-u", str(init)], cwd=workspace,
                          env=env, capture_output=True, text=True, timeout=600)
    assert result.exists(), f"nvim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    out = json.loads(result.read_text())
    assert out["attached"] and out["result"], out
    shown = out.get("virtual")
    assert shown and shown["line"] == entry and "estimated" in shown["text"] and "1/1 cases pass" in shown["text"], out

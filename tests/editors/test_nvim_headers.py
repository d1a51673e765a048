"""Neovim 0.12 (headless, the plugin's setup with the server of this checkout), a kernel of an akgen.toml task whose
header does not compile: after `:w` of the kernel, the error is a diagnostic of the header's buffer before the header
is ever opened (with the kernel's including line as related information) and one at the kernel's include line;
opened, the header still shows it; fixed and written, the kernel is checked again (the server's watcher) and both
are cleared."""

from __future__ import annotations

import json
import os
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
local header = {header}
local hb = vim.uri_to_bufnr(vim.uri_from_fname(header))
local function build(bufnr)
  local found = {{}}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == "akgen-build" then
      local related = ((d.user_data or {{}}).lsp or {{}}).relatedInformation or {{}}
      table.insert(found, {{ lnum = d.lnum, message = d.message,
        related = related[1] and {{ uri = related[1].location.uri, line = related[1].location.range.start.line }} }})
    end
  end
  return found
end
vim.cmd("edit " .. vim.fn.fnameescape({kernel}))
local kb = vim.api.nvim_get_current_buf()
out.attached = vim.wait(120000, function() return #vim.lsp.get_clients({{ bufnr = 0 }}) > 0 end, 50)
vim.cmd("write")
out.closed_header = vim.wait(300000, function() return #build(hb) > 0 end, 100) and build(hb)
out.header_loaded = vim.api.nvim_buf_is_loaded(hb)
out.kernel = build(kb)
vim.cmd("edit " .. vim.fn.fnameescape(header))
vim.wait(60000, function() return #vim.lsp.get_clients({{ bufnr = 0 }}) > 0 end, 50)
out.open_header = vim.wait(30000, function() return #build(hb) > 0 end, 100) and build(hb)
-- the fix: the header edited and written
local lines = vim.api.nvim_buf_get_lines(hb, 0, -1, false)
for i, line in ipairs(lines) do lines[i] = line:gsub(" %+ undefined_thing", "") end
vim.api.nvim_buf_set_lines(hb, 0, -1, false, lines)
vim.cmd("write")
out.cleared = vim.wait(300000, function() return #build(hb) == 0 and #build(kb) == 0 end, 100)
out.passed = vim.wait(60000, function()
  for _, n in ipairs(out.notes) do if n:find("1/1 cases pass", 1, true) then return true end end
  return false
end, 100)
vim.fn.writefile({{ vim.fn.json_encode(out) }}, {result})
vim.cmd("qa!")
"""

TASK = """
[[task]]
name = "AddCustom"
file = "kernels/add_custom.cpp"
kernel = "add_custom"
mode = "static"
block_dim = 48
reference = "x + y"
inputs = [
    { name = "x", shape = [48, 128, 512], dtype = "float16" },
    { name = "y", shape = [48, 128, 512], dtype = "float16" },
]
outputs = [{ name = "z", shape = [48, 128, 512], dtype = "float16" }]
"""


def _workspace(root: Path) -> tuple[Path, Path]:
    """The add sample split into a kernel and ``add_tiling.h`` (its constants), one constant not compiling."""
    (root / "kernels").mkdir(parents=True)
    (root / "akgen.toml").write_text('arch = "Ascend910B2"\n' + TASK, encoding="utf-8")
    lines = (REPO / "samples" / "kernels" / "add_custom.cpp").read_text("utf-8").splitlines(True)
    first = next(i for i, line in enumerate(lines) if line.startswith("constexpr int32_t TOTAL_LENGTH"))
    last = first
    while lines[last + 1].startswith("constexpr"):
        last += 1
    header = "#pragma once\n#include <cstdint>\n" + "".join(lines[first:last + 1])
    assert "TILE_NUM = 8;" in header
    kernel = root / "kernels" / "add_custom.cpp"
    kernel.write_text("".join(lines[:first]) + '#include "add_tiling.h"\n' + "".join(lines[last + 1:]), "utf-8")
    (root / "kernels" / "add_tiling.h").write_text(header.replace("TILE_NUM = 8;", "TILE_NUM = 8 + undefined_thing;"),
                                                   "utf-8")
    return kernel, root / "kernels" / "add_tiling.h"


def test_a_header_error_is_the_headers_diagnostic_before_it_is_opened(tmp_path: Path) -> None:
    kernel, header = _workspace(tmp_path / "ws")
    include = next(i for i, line in enumerate(kernel.read_text().splitlines()) if "add_tiling.h" in line)
    bad = next(i for i, line in enumerate(header.read_text().splitlines()) if "undefined_thing" in line)
    result = tmp_path / "result.json"
    cmd = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve"]
    init = tmp_path / "init.lua"
    init.write_text(INIT.format(plugin=_lua(REPO / "editors" / "nvim"), cmd=_lua(cmd), kernel=_lua(kernel),
                                header=_lua(header), result=_lua(result)))
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
           **{k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ}}
    proc = subprocess.run([str(nvim_012()), "--headless", "-n", "-i", "NONE", "-u", str(init)], cwd=kernel.parent.parent,
                          env=env, capture_output=True, text=True, timeout=900)
    assert result.exists(), f"nvim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    out = json.loads(result.read_text())
    assert out["attached"] and out["closed_header"], out
    assert out["header_loaded"] is False, out  # published for a file the editor never opened
    [closed] = out["closed_header"]
    assert closed["lnum"] == bad and "undefined_thing" in closed["message"], out
    assert closed["related"]["uri"].endswith("/add_custom.cpp") and closed["related"]["line"] == include, out
    [in_kernel] = out["kernel"]
    assert in_kernel["lnum"] == include and in_kernel["related"]["uri"].endswith("/add_tiling.h"), out
    assert out["open_header"] and out["open_header"][0]["lnum"] == bad, out
    assert out["cleared"] and out["passed"], out

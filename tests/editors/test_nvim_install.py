"""Neovim for real (Debian's 0.7.2, headless), with no server anywhere: the plugin on the runtimepath, `setup({})`,
and `:AkgenInstall` (the server from this plugin's checkout, installed into stdpath("data")/akgen/server-env: no
torch). Then a folder OUTSIDE the checkout (a copy of samples/): saving a sample kernel after an edit shows
"1/1 cases pass" with the estimate."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from .tools import REPO, nvim_07
from .tools import lua_literal as _lua

pytestmark = pytest.mark.e2e

INIT = r"""
vim.cmd("filetype on")
vim.opt.rtp:prepend({plugin})
local out = {{ notes = {{}} }}
local notify = vim.notify
vim.notify = function(msg, level, opts) table.insert(out.notes, msg); return notify(msg, level, opts) end
require("akgen").setup({{}})
vim.cmd("runtime! plugin/akgen.lua")
out.before = require("akgen").command()
local installed = nil
require("akgen.install").install(function(cmd) installed = cmd or false end, {{ wait = 900000 }})
out.installed = installed
out.cmd = require("akgen").command()
vim.cmd("edit " .. vim.fn.fnameescape({file}))
local function clients() return vim.lsp.buf_get_clients(0) end
out.attached = vim.wait(120000, function() return #clients() > 0 end, 50)
vim.api.nvim_buf_set_lines(0, -1, -1, false, {{ "// my first edit" }})
vim.cmd("write")
out.result = vim.wait(300000, function()
  for _, n in ipairs(out.notes) do if n:find("cases pass", 1, true) then return true end end
  return false
end, 100)
vim.fn.writefile({{ vim.fn.json_encode(out) }}, {result})
vim.cmd("qa!")
"""


def test_akgen_install_then_a_save_outside_the_checkout_checks_the_kernel(tmp_path: Path) -> None:
    workspace = tmp_path / "elsewhere" / "my-kernels"
    shutil.copytree(REPO / "samples", workspace)
    kernel = workspace / "kernels" / "add_custom.cpp"
    result = tmp_path / "result.json"
    init = tmp_path / "init.lua"
    init.write_text(INIT.format(plugin=_lua(REPO / "editors" / "nvim"), file=_lua(kernel), result=_lua(result)))
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "AKGEN_CXX")}
    env.update({"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(data),
                "XDG_STATE_HOME": str(tmp_path / "state"), "PATH": "/usr/bin:/bin"})
    assert shutil.which("akgen", path=env["PATH"]) is None
    proc = subprocess.run([nvim_07(), "--headless", "-n", "-i", "NONE", "-u", str(init)], cwd=workspace, env=env,
                          capture_output=True, text=True, timeout=1300)
    assert result.exists(), f"nvim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    out = json.loads(result.read_text())
    env_dir = data / "nvim" / "akgen" / "server-env"
    assert out.get("before") is None and out["installed"] == [str(env_dir / "bin" / "akgen"), "serve"], out
    assert out["cmd"] == out["installed"] and out["attached"] and out["result"], out["notes"]
    said = next(n for n in out["notes"] if "cases pass" in n)
    assert "add_custom.cpp: 1/1 cases pass" in said and "estimate" in said, said
    assert any("install 2/2: installing akgen-lsp" in n for n in out["notes"]), out["notes"]
    python = env_dir / "bin" / "python"
    assert subprocess.run([str(python), "-c", "import torch"], capture_output=True).returncode != 0

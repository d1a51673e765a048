"""Headless Neovim (Debian's 0.7.2) with editors/nvim: :AkgenGenerate on the question kernel of a task folder. The
server's loop asks the tiny GGUF (forced by a grammar: real llama.cpp inference), checks the answer in its worker, and
only then writes it through Neovim's own workspace/applyEdit handler; the message says what was verified."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from akgen_lsp.bench.runner import default_suite
from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf

from .tools import lua_literal as _lua
from .tools import nvim_07

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "editors" / "nvim"
CORRECT = (REPO / "tests" / "generate" / "fixtures" / "abs_case0.cpp").read_text(encoding="utf-8")

pytestmark = pytest.mark.e2e

INIT = r"""
vim.cmd("filetype on")
vim.opt.rtp:prepend({plugin})
local settings = vim.fn.json_decode(table.concat(vim.fn.readfile({settings}), "\n"))
require("akgen").setup({{ cmd = {cmd}, settings = settings }})
local out = {{ notes = {{}} }}
local notify = vim.notify
vim.notify = function(msg, level, opts) table.insert(out.notes, msg); return notify(msg, level, opts) end
vim.cmd("edit " .. vim.fn.fnameescape({file}))
out.attached = vim.wait(30000, function() return #vim.lsp.buf_get_clients(0) > 0 end, 50)
vim.cmd("runtime! plugin/akgen.lua")  -- plugin/ scripts load after init.lua: the user commands now
vim.cmd("AkgenGenerate")
out.written = vim.wait(400000, function()
  return vim.fn.search("Abs(y, x, TILE);", "nw") > 0
end, 200)
out.done = vim.wait(30000, function()
  for _, n in ipairs(out.notes) do if n:find("verified on the simulator before writing", 1, true) then return true end end
  return false
end, 100)
out.text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
vim.fn.writefile({{ vim.fn.json_encode(out) }}, {result})
vim.cmd("qa!")
"""


def test_akgen_generate_writes_the_verified_kernel_in_neovim(tmp_path: Path) -> None:
    nvim = nvim_07()
    task = tmp_path / "ws" / "level1" / "Math" / "AbsMath"
    shutil.copytree(default_suite() / "tasks" / "level1" / "Math" / "AbsMath", task)
    kernel = task / "question" / "op_kernel" / "abs_math.cpp"
    gguf = write_tiny_gguf(tmp_path / "forced.gguf", n_ctx=8192)
    answer = f"<kernel_impl>\n```cpp\n{CORRECT.rstrip()}\n```\n</kernel_impl>\n"
    settings = {"lint": {"debounce_ms": 20},
                "model": {"backend": "llama_cpp", "path": str(gguf), "n_ctx": 8192, "n_threads": 1},
                "generate": {"grammar": [literal_grammar(answer)], "max_tokens": 1800, "memory": False}}
    (tmp_path / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    result = tmp_path / "result.json"
    cmd = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve"]
    init = tmp_path / "init.lua"
    init.write_text(INIT.format(plugin=_lua(PLUGIN), settings=_lua(tmp_path / "settings.json"), cmd=_lua(cmd),
                                file=_lua(kernel), result=_lua(result)))
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"}
    proc = subprocess.run([nvim, "--headless", "-n", "-i", "NONE", "-u", str(init)], cwd=task.parents[2], env=env,
                          capture_output=True, text=True, timeout=600)
    assert result.exists(), f"nvim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    out = json.loads(result.read_text())
    assert out["attached"] and out["written"], out
    assert out["done"], out["notes"]
    # the buffer is the verified kernel (Neovim 0.7's apply_text_edits may leave the buffer's empty last line)
    assert out["text"].rstrip("\n") == CORRECT.rstrip()
    assert any("Generate kernel started" in n for n in out["notes"])

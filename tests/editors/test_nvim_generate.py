"""Headless Neovim (Debian's 0.7.2; 0.12 too for dynamic shape) with editors/nvim: :AkgenGenerate on the question
kernel of a task folder, :AkgenImprove on a passing kernel, and :AkgenGenerate in dynamic shape (the kernel and its
host tiling). The server's loop asks the tiny GGUF (forced by grammars: real llama.cpp inference), checks each answer
in its worker, and only then writes the kept files through Neovim's own workspace/applyEdit handler; the message says
what was verified."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from generate import dynamic

from akgen_lsp.bench.runner import default_suite
from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf

from .forced import CORRECT, MAX_TOKENS, ONE_CORE, SLOWER, WRONG, forced
from .tools import lua_literal as _lua
from .tools import nvim_012, nvim_07

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "editors" / "nvim"
N_CTX = 12288  # the task prompt, the given kernel and three performance rounds

pytestmark = pytest.mark.e2e

# the start of each session's init.lua: the plugin on the server, notifications kept, the kernel opened
PRELUDE = r"""
vim.cmd("filetype on")
vim.opt.rtp:prepend({plugin})
local settings = vim.fn.json_decode(table.concat(vim.fn.readfile({settings}), "\n"))
require("akgen").setup({{ cmd = {cmd}, settings = settings }})
local out = {{ notes = {{}} }}
local notify = vim.notify
vim.notify = function(msg, level, opts) table.insert(out.notes, msg); return notify(msg, level, opts) end
vim.cmd("edit " .. vim.fn.fnameescape({file}))
local function clients() return vim.lsp.get_clients and vim.lsp.get_clients({{ bufnr = 0 }}) or vim.lsp.buf_get_clients(0) end
out.attached = vim.wait(120000, function() return #clients() > 0 end, 50)  -- the server starts slowly on a loaded machine
"""

INIT = PRELUDE + r"""
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


@pytest.fixture(scope="module")
def gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one tiny GGUF of the module (its answers are forced by each session's grammars)."""
    return write_tiny_gguf(tmp_path_factory.mktemp("gguf") / "forced.gguf", n_ctx=N_CTX)


def _task(tmp_path: Path) -> Path:
    """A copy of the bundled AbsMath task folder in a workspace; its question kernel is what the commands write."""
    task = tmp_path / "ws" / "level1" / "Math" / "AbsMath"
    shutil.copytree(default_suite() / "tasks" / "level1" / "Math" / "AbsMath", task)
    return task


def _nvim_session(tmp_path: Path, kernel: Path, settings: dict, init_lua: str, binary: str | None = None,
                  **fmt: str) -> dict:
    """Run headless Neovim (0.7 unless `binary`) on `kernel` (in the workspace of its task folder) with the plugin,
    the server and `settings`; the result table it wrote."""
    (tmp_path / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    result = tmp_path / "result.json"
    cmd = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve"]
    init = tmp_path / "init.lua"
    init.write_text(init_lua.format(plugin=_lua(PLUGIN), settings=_lua(tmp_path / "settings.json"), cmd=_lua(cmd),
                                    file=_lua(kernel), result=_lua(result), **fmt))
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
           # the server is this checkout's (a worktree's when PYTHONPATH names it), not the installed package's
           **{k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ}}
    proc = subprocess.run([binary or nvim_07(), "--headless", "-n", "-i", "NONE", "-u", str(init)], cwd=kernel.parents[5],
                          env=env, capture_output=True, text=True, timeout=600)
    assert result.exists(), f"nvim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    return json.loads(result.read_text())


def test_akgen_generate_writes_the_verified_kernel_in_neovim(tmp_path: Path, gguf: Path) -> None:
    kernel = _task(tmp_path) / "question" / "op_kernel" / "abs_math.cpp"
    settings = {"lint": {"debounce_ms": 20},
                "model": {"backend": "llama_cpp", "path": str(gguf), "n_ctx": N_CTX, "n_threads": 1},
                "generate": {"grammar": [forced(CORRECT)], "max_tokens": MAX_TOKENS, "memory": False}}
    out = _nvim_session(tmp_path, kernel, settings, INIT)
    assert out["attached"] and out["written"], out
    assert out["done"], out["notes"]
    # the buffer is the verified kernel (Neovim 0.7's apply_text_edits may leave the buffer's empty last line)
    assert out["text"].rstrip("\n") == CORRECT.rstrip()
    assert any("Generate kernel started" in n for n in out["notes"])


IMPROVE_INIT = PRELUDE + r"""
vim.cmd("runtime! plugin/akgen.lua")  -- plugin/ scripts load after init.lua: the user commands now
vim.cmd("AkgenImprove")
out.done = vim.wait(500000, function()
  for _, n in ipairs(out.notes) do
    if n:find("Improve performance: verified on the simulator before writing", 1, true)
       or n:find("nothing verified", 1, true) then return true end
  end
  return false
end, 200)
out.written = vim.wait(30000, function() return vim.fn.search({marker}, "nw") > 0 end, 100)
out.text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
vim.fn.writefile({{ vim.fn.json_encode(out) }}, {result})
vim.cmd("qa!")
"""

# "Improve performance" from a kernel on one core (ONE_CORE): the performance rounds answer a slower kernel (one
# core, tiles of 256), a faster but wrong one (-x on every core) and the faster correct one (every core); only the
# last is kept


def test_akgen_improve_keeps_the_faster_correct_kernel_in_neovim(tmp_path: Path, gguf: Path) -> None:
    kernel = _task(tmp_path) / "question" / "op_kernel" / "abs_math.cpp"
    kernel.write_text(ONE_CORE, encoding="utf-8")

    # round 0 is the kernel as it is (no model call); rounds 1, 2, 3 are the performance rounds
    grammars = [forced(SLOWER), forced(SLOWER), forced(WRONG), forced(CORRECT)]
    settings = {"lint": {"debounce_ms": 20},
                "model": {"backend": "llama_cpp", "path": str(gguf), "n_ctx": N_CTX, "n_threads": 1},
                "generate": {"grammar": grammars, "max_tokens": MAX_TOKENS, "memory": False, "perf_rounds": 3}}
    out = _nvim_session(tmp_path, kernel, settings, IMPROVE_INIT, marker=_lua("len = TOTAL / GetBlockNum();"))
    assert out["attached"] and out["done"], out
    (note,) = [n for n in out["notes"] if "Improve performance: verified on the simulator before writing" in n]
    # what was verified: every case of the kept kernel, its estimate against the given one's, and each round
    assert "compiles, 1/1 cases pass" in note and "(round 3 of 4)" in note, note
    m = re.search(r"([\d.]+) us -> ([\d.]+) us", note)
    assert m and float(m.group(2)) < float(m.group(1)), note
    assert "round 1: " in note and "round 2: " in note and "wrong" in note.split("round 2: ")[1], note
    assert out["written"], out["notes"]
    assert out["text"].rstrip("\n") == CORRECT.rstrip()  # the faster, still correct kernel; not SLOWER, not WRONG


DYNAMIC_INIT = PRELUDE + r"""
vim.cmd("runtime! plugin/akgen.lua")  -- plugin/ scripts load after init.lua: the user commands now
vim.cmd("AkgenGenerate")
out.done = vim.wait(500000, function()
  -- window/showMessage is vim.notify in 0.12, the message area in 0.7
  if vim.fn.execute("messages"):find("in the editor; save them", 1, true) then return true end
  for _, n in ipairs(out.notes) do
    if n:find("in the editor; save them", 1, true) or n:find("nothing verified", 1, true)
       or n:find("failed", 1, true) then return true end
  end
  return false
end, 200)
out.text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
out.buffers = {{}}
for _, b in ipairs(vim.api.nvim_list_bufs()) do
  if vim.api.nvim_buf_is_loaded(b) then
    out.buffers[vim.api.nvim_buf_get_name(b)] = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n")
  end
end
out.messages = vim.fn.execute("messages")
vim.cmd("silent! wall")  -- as the message asks: the host files are saved with the kernel
vim.fn.writefile({{ vim.fn.json_encode(out) }}, {result})
vim.cmd("qa!")
"""


@pytest.mark.parametrize("version", ["0.7", "0.12"])
def test_akgen_generate_in_dynamic_shape_writes_kernel_host_and_new_tiling_header(tmp_path: Path, gguf: Path,
                                                                                  version: str) -> None:
    """bench.mode = "dynamic": the answer's three files verified together on every case, then one edit that
    Neovim's own handler applies: the kernel's buffer, the host template's (loaded from disk), and the tiling header
    the edit creates (the question folder has none)."""
    task = dynamic.abs_task(tmp_path / "ws")
    kernel = task / "question" / "op_kernel" / "abs_math.cpp"
    settings = {"lint": {"debounce_ms": 20}, "bench": {"mode": "dynamic"},
                "model": {"backend": "llama_cpp", "path": str(gguf), "n_ctx": N_CTX, "n_threads": 1},
                "generate": {"grammar": [literal_grammar(dynamic.answer())], "max_tokens": dynamic.MAX_TOKENS,
                             "memory": False}}
    binary = nvim_07() if version == "0.7" else str(nvim_012())
    out = _nvim_session(tmp_path, kernel, settings, DYNAMIC_INIT, binary)
    assert out["attached"] and out["done"], out
    # window/showMessage is vim.notify in 0.12, the message area in 0.7
    shown = [*out["notes"], *out["messages"].splitlines()]
    note = next(n for n in shown if "Generate kernel: verified on the simulator before writing" in n)
    assert "compiles, 3/3 cases pass" in note and "op_host/abs_math_tiling.h, every case" in note, note
    host, tiling = task / "question" / "op_host" / "abs_math.cpp", task / "question" / "op_host" / "abs_math_tiling.h"
    assert out["text"].rstrip("\n") == dynamic.KERNEL.rstrip()
    assert out["buffers"][str(host)].rstrip("\n") == dynamic.HOST.rstrip()
    # the new header: created by the edit (0.12) or, for 0.7 without documentChanges, written to disk by the server;
    # either way it is on disk after :wall (below), and a buffer of it holds the same text
    assert out["buffers"].get(str(tiling), dynamic.TILING).rstrip("\n") == dynamic.TILING.rstrip()
    # saved by :wall, as the message asks
    assert kernel.read_text().rstrip() == dynamic.KERNEL.rstrip() and host.read_text().rstrip() == dynamic.HOST.rstrip()
    assert tiling.read_text().rstrip() == dynamic.TILING.rstrip()


CANCEL_INIT = PRELUDE + r"""
vim.cmd("runtime! plugin/akgen.lua")  -- plugin/ scripts load after init.lua: the user commands now
-- the cancel is sent once the server's generation has begun (its $/progress "begin": from then on the server's
-- cancel command finds it), not after a guessed delay that a loaded machine outlasts
local progress = vim.lsp.handlers["$/progress"]
vim.lsp.handlers["$/progress"] = function(err, result, ctx, config)
  local value = result and result.value or {{}}
  if value.kind == "begin" and tostring(value.title or ""):find("Generate kernel", 1, true) then out.began = true end
  if progress then return progress(err, result, ctx, config) end
end
vim.cmd("AkgenGenerate")
out.began_in_time = vim.wait(120000, function() return out.began == true end, 20)
vim.cmd("AkgenGenerateCancel")
-- the generation's own answer comes after its loop has stopped (the server awaits it): no edit can follow it
out.done = vim.wait(120000, function()
  for _, n in ipairs(out.notes) do
    if n:find("was cancelled; nothing was written", 1, true) or n:find("verified", 1, true) then return true end
  end
  return false
end, 100)
out.text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
vim.fn.writefile({{ vim.fn.json_encode(out) }}, {result})
vim.cmd("qa!")
"""


def test_akgen_generate_cancel_stops_the_loop_and_writes_nothing_in_neovim(tmp_path: Path, gguf: Path) -> None:
    """:AkgenGenerateCancel sends the cancel command for the buffer (a $/cancelRequest would not stop the server's
    loop): the generation's own answer says it was cancelled and the buffer keeps the question kernel."""
    kernel = _task(tmp_path) / "question" / "op_kernel" / "abs_math.cpp"
    question = kernel.read_text(encoding="utf-8")
    settings = {"lint": {"debounce_ms": 20},
                "model": {"backend": "llama_cpp", "path": str(gguf), "n_ctx": N_CTX, "n_threads": 1},
                "generate": {"grammar": [forced(CORRECT)], "max_tokens": MAX_TOKENS, "memory": False}}
    out = _nvim_session(tmp_path, kernel, settings, CANCEL_INIT)
    assert out["attached"] and out["began_in_time"] and out["done"], out
    assert any("cancelling the generation" in n for n in out["notes"]), out["notes"]
    assert any("Generate kernel was cancelled; nothing was written." in n for n in out["notes"]), out["notes"]
    assert out["text"].rstrip("\n") == question.rstrip() and kernel.read_text(encoding="utf-8") == question

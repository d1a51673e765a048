"""Headless Neovim with editors/nvim on a broken kernel: the server's diagnostics reach `vim.diagnostic`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from akgen_lsp.ascendc.lint import lint_text

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "editors" / "nvim"
BROKEN = REPO / "tests" / "server" / "fixtures" / "broken_add.cpp"
NVIM = shutil.which("nvim")

pytestmark = pytest.mark.skipif(NVIM is None, reason="nvim is not installed (apt-get install neovim)")

INIT = r"""
vim.cmd("filetype on")  -- a real init enables it before the first buffer; -u <file> runs us earlier
vim.opt.rtp:prepend({plugin})
require("akgen").setup({{
  cmd = {cmd},
  settings = {{ lint = {{ debounce_ms = 20 }} }},
}})
vim.cmd("edit " .. vim.fn.fnameescape({file}))
local ok = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local out = {{ ok = ok, filetype = vim.bo.filetype, diagnostics = {{}} }}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = d.user_data and d.user_data.lsp or {{}}
  table.insert(out.diagnostics, {{
    lnum = d.lnum, col = d.col, message = d.message, source = d.source,
    code = d.code or lsp.code, severity = d.severity,
  }})
end
out.clients = #vim.lsp.buf_get_clients(0)
-- hover on the first DataCopy through Neovim's own client
local row, col = nil, nil
for i, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
  local c = l:find("DataCopy%(")
  if c then row, col = i - 1, c; break end
end
if row then
  local params = {{ textDocument = vim.lsp.util.make_text_document_params(), position = {{ line = row, character = col }} }}
  local replies = vim.lsp.buf_request_sync(0, "textDocument/hover", params, 10000) or {{}}
  for _, reply in pairs(replies) do
    if reply.result and reply.result.contents then out.hover = reply.result.contents.value end
  end
end
vim.fn.writefile({{ vim.fn.json_encode(out) }}, {result})
vim.cmd("qa!")
"""


def _library(path: Path) -> list[tuple[int, str]]:
    """(0-based line, code) of the library's findings: what the editor must show."""
    return sorted((f.span.line - 1, f.code) for f in lint_text(path.read_text(encoding="utf-8"), str(path)))


def _lua(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return "{ " + ", ".join(_lua(v) for v in value) + " }"
    return json.dumps(str(value))  # a JSON string is a valid Lua string literal for these paths


def _run_nvim(tmp_path: Path, source: Path) -> dict:
    work = tmp_path / "ws"
    work.mkdir()
    target = work / source.name
    target.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    result = tmp_path / "result.json"
    cmd = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve"]
    init = tmp_path / "init.lua"
    init.write_text(
        INIT.format(plugin=_lua(PLUGIN), cmd=_lua(cmd), file=_lua(target), result=_lua(result)), encoding="utf-8"
    )
    env = {
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
    }
    proc = subprocess.run(
        [NVIM, "--headless", "-n", "-i", "NONE", "-u", str(init)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert result.exists(), f"nvim wrote no result (exit {proc.returncode}): {proc.stderr[-2000:]}"
    return json.loads(result.read_text(encoding="utf-8"))


def test_diagnostics_and_hover_reach_neovim(tmp_path: Path) -> None:
    out = _run_nvim(tmp_path, BROKEN)
    assert out["ok"] is True, out
    assert out["clients"] == 1
    expected = _library(BROKEN)
    assert expected, "the fixture should have findings"
    assert sorted((d["lnum"], d["code"]) for d in out["diagnostics"]) == expected
    assert {d["source"] for d in out["diagnostics"]} == {"akgen-lint"}
    # and a hover on DataCopy through Neovim's own client shows its signatures
    assert "DataCopy" in out.get("hover", ""), out
    assert "```cpp" in out["hover"]


def test_asc_files_get_their_filetype_and_diagnostics(tmp_path: Path) -> None:
    source = tmp_path / "broken_add.asc"
    source.write_text(BROKEN.read_text(encoding="utf-8"), encoding="utf-8")
    out = _run_nvim(tmp_path, source)
    assert out["filetype"] == "asc"
    assert sorted((d["lnum"], d["code"]) for d in out["diagnostics"]) == _library(BROKEN), out

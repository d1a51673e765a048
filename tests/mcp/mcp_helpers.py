"""Helpers of tests/mcp: `akgen mcp` started as an agent starts it (a child process over stdio), driven by the MCP SDK's own client."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")


def server_env() -> dict[str, str]:
    """The environment the server gets: this checkout first on the path (the worktree wins over an installed copy)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    return env


@contextlib.asynccontextmanager
async def mcp_session(cwd: Path, roots: Sequence[Path] | None, *extra: str) -> AsyncIterator[ClientSession]:
    """A session with `python -m akgen_lsp mcp` run in `cwd`; `roots`: the client's MCP roots (None: the client
    declares no roots capability, so the server's --root / working directory apply)."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "akgen_lsp", "mcp", *extra], env=server_env(),
                                   cwd=str(cwd))

    async def list_roots(_ctx: object) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri=p.resolve().as_uri(), name=p.name) for p in roots or []])

    async with stdio_client(params) as (read, write), ClientSession(
            read, write, list_roots_callback=list_roots if roots is not None else None) as session:
        await session.initialize()
        yield session

"""What every tool of the MCP server shares: the client's roots as an argument, the arguments an agent fills (with
the sentence each schema carries), the tool annotations, registration with the docstring as the description, the
text-plus-structured result, progress notifications, and waiting on a check job with progress and cancellation.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.resolve import ListRoots, Resolve
from mcp.types import CallToolResult, ListRootsResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from akgen_lsp.mcp.checking import CheckFailed

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
RUNS = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)


def _client_roots(ctx: Context) -> ListRoots | None:
    """Ask the client for its roots when it has the roots capability (else the server's roots apply)."""
    caps = ctx.client_capabilities
    return ListRoots() if caps is not None and caps.roots is not None else None


ClientRoots = Annotated[ListRootsResult | None, Resolve(_client_roots)]

# the arguments an agent fills, with the sentence its schema carries
IN_ROOTS = "inside the client's roots (absolute, or relative to the first root)"
KernelPath = Annotated[str, Field(description=f"the kernel source file, {IN_ROOTS}")]
OptKernelPath = Annotated[str | None, Field(description=f"the kernel source file, {IN_ROOTS}")]
Text = Annotated[
    str | None,
    Field(description="code to use as the file's content instead of what is on disk (never written)"),
]
Arch = Annotated[
    str | None,
    Field(
        description="hardware profile: Ascend910B2, Ascend910B4, Ascend310P, ... "
        "(default: the nearest akgen.toml's arch)"
    ),
]
Cann = Annotated[
    str | None, Field(description="the CANN version the code targets, e.g. 8.5 (default: akgen.toml's)")
]
Task = Annotated[
    str | None,
    Field(
        description="the task to check against when akgen.toml or the NPUKernelBench "
        "layout does not say: AddCustom or level1/Math/AddCustom"
    ),
]


def tool(
    server: MCPServer, annotations: ToolAnnotations
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`server.tool` with the function's docstring, dedented, as the tool's description."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        server.tool(description=inspect.cleandoc(fn.__doc__ or ""), annotations=annotations)(fn)
        return fn

    return register


def result(text: str, model: BaseModel) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=model.model_dump(mode="json")
    )


def read_source(path: Path) -> str:
    if not path.is_file():
        raise ToolError(f"{path} is not a file; give the path of an existing kernel source")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ToolError(f"cannot read {path}: {exc}") from None


async def progress(ctx: Context, message: str, done: float = 0.0, total: float | None = None) -> None:
    with contextlib.suppress(Exception):  # a client that left does not fail the tool
        await ctx.report_progress(done, total, message)


async def wait(job: asyncio.Future[Any], ctx: Context, message: str) -> Any:
    """`job`'s result, with a progress notification each second; cancelling the call cancels the job (which kills
    its process tree)."""
    started = time.perf_counter()
    try:
        await progress(ctx, message)
        while True:
            done, _ = await asyncio.wait({job}, timeout=1.0)
            if done:
                break
            elapsed = time.perf_counter() - started
            await progress(ctx, f"{message}: {elapsed:.0f} s", elapsed)
        return job.result()
    except CheckFailed as exc:
        raise ToolError(str(exc)) from None
    except (asyncio.TimeoutError, TimeoutError):
        raise ToolError(
            f"{message} took too long and was stopped; raise toolchain.timeout_s in akgen.toml"
        ) from None
    finally:
        if not job.done():
            job.cancel()
            with anyio.CancelScope(shield=True):
                await asyncio.wait({job}, timeout=10.0)

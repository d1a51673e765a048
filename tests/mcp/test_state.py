"""The MCP server's state (akgen_lsp/mcp/state.py) and what it keeps resident: no simulator in the server process,
the heap trimmed once after a burst of tool calls."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from akgen_lsp.mcp import state as state_module
from akgen_lsp.mcp.state import Akgen


def test_the_server_imports_no_simulator_and_no_numpy() -> None:
    """numpy and the simulator's modules cost the idle server about 12 MB; only the check worker needs them (a
    `fix` imports them when it runs)."""
    code = (
        "import sys; from akgen_lsp.mcp.app import build_server; build_server([], warm=False); "
        "print(sorted(m for m in sys.modules if m == 'numpy' or m.startswith('akgen_lsp.sim')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


async def test_a_burst_of_calls_trims_the_heap_once_after_the_last(monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[int] = []
    monkeypatch.setattr(state_module, "_TRIM", trims.append)
    monkeypatch.setattr(state_module, "IDLE_TRIM_S", 0.2)
    akgen = Akgen([Path.cwd()], warm=False)
    try:
        for i in range(5):
            assert await akgen.run(lambda x: x * 2, i) == 2 * i
            assert trims == []  # not while calls keep coming
        await asyncio.sleep(0.5)
        assert trims == [0]
        await akgen.run(lambda: None)
        await asyncio.sleep(0.5)
        assert trims == [0, 0]
    finally:
        akgen.executor.shutdown(wait=True)


async def test_a_call_that_fails_still_schedules_the_trim(monkeypatch: pytest.MonkeyPatch) -> None:
    trims: list[int] = []
    monkeypatch.setattr(state_module, "_TRIM", trims.append)
    monkeypatch.setattr(state_module, "IDLE_TRIM_S", 0.1)
    akgen = Akgen([Path.cwd()], warm=False)
    try:
        with pytest.raises(ZeroDivisionError):
            await akgen.run(lambda: 1 / 0)
        await asyncio.sleep(0.4)
        assert trims == [0]
        akgen.executor.shutdown(wait=True)
        akgen._submit_trim()  # after close: nothing to run it on, and no error
    finally:
        akgen.executor.shutdown(wait=True)

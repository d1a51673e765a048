"""Tool latency and memory of `akgen mcp` on a warm server, through the MCP SDK's own client over stdio.

    python benchmarks/bench_mcp.py [--runs 20] [--calls 100]

Targets (docs/agents.md): lint of a 2,000-line file <= 60 ms; check of the add sample after an edit <= 0.4 s;
explain <= 20 ms; the server's memory when idle <= 120 MB; 100 tool calls in a row with no growth past 10%.

The server runs on a copy of samples/ (its roots). Latencies are round trips as the client sees them (request,
work, result with its structured content), median and p90 after warm-up: the first check starts the warm worker and
builds the precompiled header, and is not counted. "After an edit" rewrites the kernel with a new comment line
before each check, so each check compiles a new text; the lint is timed on the unchanged file (the server reuses its
last parse and models, so that row is mostly the rules) and after a one-line edit of it (an incremental parse). Memory is the server process's resident set (VmRSS); the
check worker is a process of its own and is printed apart (it is the editor's worker too).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

REPO = Path(__file__).resolve().parents[1]
WORKER = "akgen_lsp.check.process"  # the check worker's module, in its command line


def _bench_lint() -> Any:
    spec = importlib.util.spec_from_file_location("bench_lint", REPO / "benchmarks/bench_lint.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _lint_in_process(text: str, runs: int = 10) -> str:
    from akgen_lsp.ascendc.lint import lint_text

    lint_text(text, "big_kernel.cpp")
    wall, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        lint_text(text, "big_kernel.cpp")
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return f"median {statistics.median(wall):.1f} ms wall, {statistics.median(cpu):.1f} ms CPU"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def children(pid: int) -> list[tuple[int, str]]:
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_bytes()
                cmd = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if int(stat[stat.rfind(b")") + 2:].split()[1]) == pid:
                out.append((int(name), cmd))
    return out


async def timed(call: Callable[[], Awaitable[types.CallToolResult]], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        res = await call()
        out.append((time.perf_counter() - t) * 1000)
        if res.is_error:
            raise SystemExit(f"the tool failed: {res.content[0].text}")
    return out


def cpu_ms(pid: int) -> float:
    """CPU time (user + system) of process `pid` so far, in ms."""
    stat = Path(f"/proc/{pid}/stat").read_bytes()
    fields = stat[stat.rfind(b")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


SERVER = 0  # the server's pid, once known


async def row(name: str, call: Callable[[], Awaitable[types.CallToolResult]], runs: int, target: float) -> None:
    """Wall time of each round trip (median, p90, min) and the server's CPU time per call (the steadier figure on a
    shared machine; a check's compile and run are in the worker's jobs, not counted there)."""
    before = cpu_ms(SERVER)
    ms = await timed(call, runs)
    cpu = (cpu_ms(SERVER) - before) / runs
    med = statistics.median(ms)
    p90 = sorted(ms)[max(0, int(len(ms) * 0.9) - 1)]
    ok = "ok" if med <= target else "OVER"
    print(f"{name:40s} median {med:7.1f} ms  p90 {p90:7.1f} ms  min {min(ms):7.1f} ms  server CPU {cpu:6.1f} ms/call "
          f"(n={len(ms)}; target <= {target:g} ms: {ok})")


async def main(runs: int, calls: int) -> int:
    ws = Path(tempfile.mkdtemp(prefix="akgen-bench-mcp-")) / "samples"
    shutil.copytree(REPO / "samples", ws, ignore=shutil.ignore_patterns(".vscode"))
    big = ws / "big_kernel.cpp"
    big.write_text(_bench_lint().build_file(2000), encoding="utf-8")
    n_lines = big.read_text(encoding="utf-8").count("\n")
    kernel = ws / "kernels/add_custom.cpp"
    original = kernel.read_text(encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])}
    params = StdioServerParameters(command=sys.executable, args=["-m", "akgen_lsp", "mcp"], env=env, cwd=str(ws))

    async def roots(_ctx: object) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri=ws.as_uri())])

    print(f"akgen mcp on {ws} (load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores)")
    print(f"lint_text of the {n_lines}-line file in this process, for comparison: "
          f"{_lint_in_process(big.read_text(encoding='utf-8'))}")
    async with stdio_client(params) as (r, w), ClientSession(r, w, list_roots_callback=roots) as s:
        t = time.perf_counter()
        await s.initialize()
        print(f"initialize: {(time.perf_counter() - t) * 1000:.0f} ms")
        global SERVER
        [(server, _)] = [(p, c) for p, c in children(os.getpid()) if "akgen_lsp mcp" in c]
        SERVER = server
        t = time.perf_counter()
        first = await s.call_tool("check", {"path": "kernels/add_custom.cpp"})
        print(f"first check (worker start, precompiled header): {(time.perf_counter() - t):.2f} s, "
              f"{first.structured_content and first.structured_content['verdict']}")
        await s.call_tool("lint", {"path": "big_kernel.cpp"})
        await s.call_tool("explain", {"query": "DataCopy"})

        await row(f"lint, {n_lines}-line file", lambda: s.call_tool("lint", {"path": "big_kernel.cpp"}), runs, 60)
        # an unchanged file reuses its last parse and models: the row above is mostly the rules. An agent lints
        # after an edit: a one-line comment added in the middle each time (an incremental parse, the models anew)
        big_text = big.read_text(encoding="utf-8")
        mid = big_text.index("\n", len(big_text) // 2) + 1
        lint_edits = iter(range(10**6))

        async def edited_lint() -> types.CallToolResult:
            big.write_text(f"{big_text[:mid]}    // edit {next(lint_edits)}\n{big_text[mid:]}", encoding="utf-8")
            return await s.call_tool("lint", {"path": "big_kernel.cpp"})

        await edited_lint()
        await row("lint after a one-line edit", edited_lint, runs, 60)
        big.write_text(big_text, encoding="utf-8")
        await row("explain DataCopy", lambda: s.call_tool("explain", {"query": "DataCopy"}), runs, 20)
        await row("explain AKG120", lambda: s.call_tool("explain", {"query": "AKG120"}), runs, 20)
        edits = iter(range(10**6))

        async def edited_check() -> types.CallToolResult:
            kernel.write_text(original + f"// edit {next(edits)}\n", encoding="utf-8")
            res = await s.call_tool("check", {"path": "kernels/add_custom.cpp"})
            assert res.structured_content and res.structured_content["passes"], res.content[0].text
            return res

        await edited_check()
        await row("check of the add sample after an edit", edited_check, max(5, runs // 2), 400)

        await asyncio.sleep(2.0)
        idle = rss_mb(server)
        workers = [p for p, c in children(server) if WORKER in c]
        worker = f"{rss_mb(workers[0]):.1f} MB" if workers else "not running"
        print(f"server memory idle: {idle:.1f} MB (target <= 120 MB: {'ok' if idle <= 120 else 'OVER'}); "
              f"check worker (a process of its own): {worker}")

        mix: list[tuple[str, dict[str, Any]]] = [
            ("lint", {"path": "big_kernel.cpp"}), ("explain", {"query": "DataCopy"}),
            ("check", {"path": "kernels/add_custom.cpp"}), ("lint", {"text": original}),
            ("explain", {"query": "DataCopi"})]
        sizes = []
        t = time.perf_counter()
        for i in range(calls):
            name, args = mix[i % len(mix)]
            res = await s.call_tool(name, args)
            if res.is_error:
                raise SystemExit(f"{name} failed: {res.content[0].text}")
            if i + 1 in (10, calls):
                sizes.append(rss_mb(server))
        growth = (sizes[-1] - sizes[0]) / sizes[0] * 100
        print(f"{calls} tool calls in a row (lint, explain, check, lint text, explain typo) in "
              f"{time.perf_counter() - t:.1f} s: server {sizes[0]:.1f} MB after 10 -> {sizes[-1]:.1f} MB after "
              f"{calls} ({growth:+.1f}%; target <= +10%: {'ok' if growth <= 10 else 'OVER'})")
    shutil.rmtree(ws.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--calls", type=int, default=100)
    a = ap.parse_args()
    raise SystemExit(asyncio.run(main(a.runs, a.calls)))

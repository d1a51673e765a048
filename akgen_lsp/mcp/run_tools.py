"""The tools that run `akgen` itself in a child process group of their own (killed on cancel): `sim_run` (a run
manifest), `run_program` (a whole program) and `bench` (a task subset), each with progress once a second.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult
from pydantic import Field

from akgen_lsp.mcp.jobs import JobFailed, run_akgen
from akgen_lsp.mcp.schemas import BenchResult, RunResult
from akgen_lsp.mcp.state import Akgen
from akgen_lsp.mcp.tooling import IN_ROOTS, RUNS, ClientRoots, progress, result, tool


def register_runs(server: MCPServer, state: Akgen) -> None:
    """Add `sim_run`, `run_program` and `bench` to the server."""

    @tool(server, RUNS)
    async def sim_run(
        roots: ClientRoots,
        ctx: Context,
        manifest: Annotated[str, Field(description=f"the run manifest (JSON), {IN_ROOTS}")],
        checks: Annotated[
            Literal["npu", "cpu-debug"] | None,
            Field(
                description="npu: the hardware's rules; cpu-debug: every check of CANN's CPU debug "
                "stops the kernel (default: the manifest's)"
            ),
        ] = None,
    ) -> Annotated[CallToolResult, RunResult]:
        """Compile and run a kernel on the CPU simulator from a run manifest (JSON: sources, kernel, block_dim,
        args), as `akgen sim run`: findings, outputs, the estimate and the trace."""
        file = state.confine(roots, manifest, "manifest")
        if not file.is_file():
            raise ToolError(f"{file} is not a file; give the run manifest's path")
        out_dir = state.outputs / f"sim-{time.time_ns()}"
        args = ["sim", "run", "--json", "--out", str(out_dir), str(file)]
        if checks:
            args += ["--checks", checks]
        return await _run_job(ctx, args, file.parent, f"running {file.name} on the simulator", 600.0)

    @tool(server, RUNS)
    async def run_program(
        roots: ClientRoots,
        ctx: Context,
        program: Annotated[
            str,
            Field(description=f"a single-source .asc, a CPU-debug main or a folder of sources, {IN_ROOTS}"),
        ],
        sources: Annotated[
            list[str] | None,
            Field(description="more sources or folders of the program (each compiled on its own)"),
        ] = None,
        include_dirs: Annotated[list[str] | None, Field(description="header folders")] = None,
        workdir: Annotated[
            str | None, Field(description="the program's working directory (default: the program's folder)")
        ] = None,
        args: Annotated[list[str] | None, Field(description="the program's arguments")] = None,
        defines: Annotated[dict[str, str] | None, Field(description="macros: NAME -> VALUE")] = None,
        timeout_s: Annotated[float, Field(description="wall-clock limit of the run")] = 120.0,
        checks: Literal["npu", "cpu-debug"] = "npu",
    ) -> Annotated[CallToolResult, RunResult]:
        """Compile a whole program (host main() and kernels: a .asc, a CPU-debug main, or a folder) and run it on
        the simulator, as `akgen sim run-program`: its output, findings and each launch's estimate."""
        prog = state.confine(roots, program, "program")
        cmd = ["sim", "run-program", "--json", "--timeout", str(timeout_s), "--checks", checks, str(prog)]
        for s in sources or []:
            cmd += ["--source", str(state.confine(roots, s, "source"))]
        for i in include_dirs or []:
            cmd += ["-I", str(state.confine(roots, i, "include folder"))]
        wd = state.confine(roots, workdir, "workdir") if workdir else (prog if prog.is_dir() else prog.parent)
        cmd += ["--workdir", str(wd)]
        for k, v in (defines or {}).items():
            cmd += ["-D", f"{k}={v}"]
        if args:
            cmd += ["--", *args]
        return await _run_job(ctx, cmd, wd, f"running {prog.name} on the simulator", timeout_s + 300.0)

    # ------------------------------------------------------------------------------------------------ bench

    @tool(server, RUNS)
    async def bench(
        roots: ClientRoots,
        ctx: Context,
        tasks: Annotated[
            list[str] | None, Field(description="task names (AddMath) or ids (level1/Math/AddMath)")
        ] = None,
        level: Annotated[int | None, Field(description="every task of this level")] = None,
        suite: Annotated[
            str | None,
            Field(description="a suite folder (NPUKernelBench's tasks; default: the bundled suite)"),
        ] = None,
        candidates: Annotated[
            str, Field(description="answers (the suite's reference answers) or a folder of generated kernels")
        ] = "answers",
        max_cases: Annotated[int | None, Field(description="only the first N cases per task")] = None,
        mode: Literal["static", "dynamic"] = "static",
        arch: str = "Ascend910B2",
        out: Annotated[str | None, Field(description="the output folder (default: a temporary one)")] = None,
        jobs: Annotated[int | None, Field(description="worker processes")] = None,
    ) -> Annotated[CallToolResult, BenchResult]:
        """A bench run of a task subset on the simulator (`akgen bench run`): the suite's reference answers or a
        folder of generated kernels (`candidates`), scored; times are estimates. Progress counts the results."""
        if not tasks and level is None:
            raise ToolError("name the tasks (`tasks`) or a `level`: a whole suite is hours of simulation")
        out_dir = state.confine(roots, out, "out") if out else state.outputs / f"bench-{time.time_ns()}"
        cmd = [
            "bench",
            "run",
            "--json",
            "--out",
            str(out_dir),
            "--mode",
            mode,
            "--arch",
            arch,
            "--toolchain",
            "sim",
        ]
        if suite:
            cmd += ["--suite", str(state.confine(roots, suite, "suite"))]
        if candidates != "answers":
            cmd += ["--candidates", str(state.confine(roots, candidates, "candidates"))]
        else:
            cmd += ["--candidates", "answers"]
        for t in tasks or []:
            cmd += ["--task", t]
        if level is not None:
            cmd += ["--level", str(level)]
        if max_cases:
            cmd += ["--max-cases", str(max_cases)]
        if jobs:
            cmd += ["--jobs", str(jobs)]
        started = time.perf_counter()

        async def tick(elapsed: float) -> None:
            results = out_dir / "results.jsonl"
            n = sum(1 for _ in results.open(encoding="utf-8")) if results.is_file() else 0
            await progress(ctx, f"bench: {n} results in {elapsed:.0f} s", n)

        res = await _job(cmd, state.server_roots.folders[0], 6 * 3600.0, tick)
        try:
            summary = res.json()
        except JobFailed as exc:
            raise ToolError(str(exc)) from None
        levels = summary.get("levels") or {}
        if not levels:
            raise ToolError(
                f"no task of the suite matches {tasks or []} (level {level}); `akgen bench list` "
                "lists the tasks (op folder names such as AddMath, or ids such as level1/Math/AddMath)"
            )
        text = (
            f"bench ({summary.get('toolchain', 'sim')}; times are estimates): score {summary.get('score')}, "
            + ", ".join(f"level {lv}: {d.get('passed')}/{d.get('tasks')} pass" for lv, d in levels.items())
            + f"; results in {out_dir}"
        )
        return result(
            text,
            BenchResult(summary=summary, out=str(out_dir), seconds=round(time.perf_counter() - started, 3)),
        )


async def _job(cmd: list[str], cwd: Path, timeout_s: float, tick: Any) -> Any:
    try:
        return await run_akgen(cmd, cwd, timeout_s, tick)
    except (TimeoutError, OSError) as exc:
        raise ToolError(str(exc)) from None


async def _run_job(ctx: Context, cmd: list[str], cwd: Path, message: str, timeout_s: float) -> CallToolResult:
    async def tick(elapsed: float) -> None:
        await progress(ctx, f"{message}: {elapsed:.0f} s", elapsed)

    await progress(ctx, message)
    res = await _job(cmd, cwd, timeout_s, tick)
    try:
        payload = res.json()
    except JobFailed as exc:
        raise ToolError(str(exc)) from None
    status = str(payload.get("status", "unknown"))
    findings = payload.get("findings") or []
    lines = [f"status: {status}"] + [
        f"  {f.get('path')}:{f.get('line')}: {f.get('severity')} {f.get('code')}: {f.get('message')}"
        for f in findings[:15]
    ]
    est = payload.get("estimate") or {}
    if est.get("us") is not None:
        lines.append(f"estimate: {est['us']:.2f} us on {est.get('arch')} (an estimate, not a measurement)")
    if payload.get("stdout"):
        lines.append("stdout:\n" + str(payload["stdout"])[-2000:])
    return result(
        "\n".join(lines),
        RunResult(
            status=status,
            ok=bool(payload.get("ok", status == "ok")),
            findings=findings,
            result=payload,
            seconds=round(res.seconds, 3),
        ),
    )

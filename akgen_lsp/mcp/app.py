"""The akgen MCP server (the official SDK's `MCPServer`): tools, resources, roots, progress, the warm check worker.

    server = build_server(roots=[Path.cwd()])      # `akgen mcp` runs it over stdio, or over HTTP (`transport.py`)

Each tool returns a short text (what an agent reads first) and a structured result that follows the tool's output
schema (`schemas.py`). Every path a tool is given is confined to the client's MCP roots, or to the server's own roots
when the client has none (`roots.py`); a path outside is refused with a sentence. Kernels run where they run for the
editor: in the check worker's jobs and the simulator's sandbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from akgen_lsp.mcp import knowledge
from akgen_lsp.mcp.checking import figures_of
from akgen_lsp.mcp.schemas import CheckResultModel, ExplainResult, FixResult, LintResult, ReportResult
from akgen_lsp.mcp.state import Akgen
from akgen_lsp.mcp.tooling import (
    IN_ROOTS,
    READ_ONLY,
    RUNS,
    Arch,
    Cann,
    ClientRoots,
    KernelPath,
    OptKernelPath,
    Task,
    Text,
    progress,
    read_source,
    result,
    tool,
    wait,
)

INSTRUCTIONS = """akgen checks AscendC kernels without an NPU. The loop: write the kernel; `lint` it (static rules,
certain fixes); `check` it against its task on the CPU simulator (compile, run every case, compare, estimate); read
the findings (file and line) and the verdict; `explain` an API, rule, error code or arch fact; `fix` for verified
repairs as a diff; repeat until `check` says every case passes. Estimates are estimates, not NPU measurements."""


def build_server(roots: Sequence[Path] = (), warm: bool = True) -> MCPServer:
    """The MCP server with every tool and resource; `roots`: the server's roots (for clients without MCP roots)."""
    state = Akgen(roots, warm)

    @contextlib.asynccontextmanager
    async def lifespan(_server: MCPServer) -> AsyncIterator[Akgen]:
        preparing = asyncio.ensure_future(state.run(state.prepare))
        preparing.add_done_callback(lambda t: t.cancelled() or t.exception())
        if state.warm_on_start:
            with contextlib.suppress(ToolError):
                state.checks.warm(state.settings(None))
        try:
            yield state
        finally:
            with anyio.CancelScope(shield=True):
                await state.checks.close()
            state.executor.shutdown(wait=False, cancel_futures=True)

    server: MCPServer = MCPServer(
        "akgen",
        title="akgen: AscendC kernels without an NPU",
        version=_version(),
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        log_level="WARNING",
    )
    server.akgen = state  # type: ignore[attr-defined]  # the tests and the benchmark read the worker's pid

    # ------------------------------------------------------------------------------------------------ lint

    @tool(server, READ_ONLY)
    async def lint(
        roots: ClientRoots,
        path: OptKernelPath = None,
        text: Text = None,
        arch: Arch = None,
        cann: Cann = None,
    ) -> Annotated[CallToolResult, LintResult]:
        """Static check of an AscendC kernel: a file (`path`), or `text` (unsaved code; with `path`, linted as that
        file). Findings with file, line, code, message and fixes (`safe` fixes are certain). Milliseconds."""
        if path is None and text is None:
            raise ToolError("give `path` (a kernel file) or `text` (the code to lint)")
        file = state.confine(roots, path, "path") if path is not None else None
        source = text if text is not None else read_source(file)  # type: ignore[arg-type]
        name = str(file) if file is not None else "kernel.cpp"
        settings = state.settings(file.parent if file else None, arch, cann)
        out = await state.run(state.lint, source, name, settings)
        return result(knowledge.lint_summary(out), LintResult.model_validate(out))

    # ------------------------------------------------------------------------------------------------ check

    @tool(server, RUNS)
    async def check(
        roots: ClientRoots,
        ctx: Context,
        path: KernelPath,
        text: Text = None,
        task: Task = None,
        max_cases: Annotated[int | None, Field(description="only the first N cases")] = None,
        arch: Arch = None,
    ) -> Annotated[CallToolResult, CheckResultModel]:
        """The save check of a kernel against its task (akgen.toml [[task]] or the NPUKernelBench layout; or
        `task`): compile on the CPU simulator, run every case in the sandbox, compare with the reference, estimate
        the time. `text` checks that code as the file without writing it. Findings at file and line, the verdict,
        the estimate and the Chrome trace's path. Sends progress; cancelling stops the run."""
        file = state.confine(roots, path, "path")
        if not file.is_file() and text is None:
            raise ToolError(f"{file} is not a file; give the kernel's path (or `text` to check as that file)")
        settings = state.settings(file.parent, arch)
        started = time.perf_counter()
        job = asyncio.ensure_future(
            state.checks.check(file, settings, text=text, task=task, max_cases=max_cases)
        )
        out = await wait(job, ctx, f"checking {file.name} on the simulator")
        fig = figures_of(out)
        passes = fig.get("status") == "pass"
        verdict = _verdict(file.name, out)
        model = CheckResultModel(
            path=str(file),
            passes=passes,
            verdict=verdict,
            findings=out["findings"],
            trace=out.get("trace"),
            seconds=round(time.perf_counter() - started, 3),
            figures=out["figures"],
            **fig,
        )
        lines = [verdict] + [
            f"  {f['path']}:{f['line']}: {f['severity']} {f['code']}: {f['message']}"
            for f in out["findings"][:15]
        ]
        if out.get("trace"):
            lines.append(f"trace: {out['trace']}")
        return result("\n".join(lines), model)

    # ------------------------------------------------------------------------------------------------ fix

    @tool(server, ToolAnnotations(destructive_hint=False, open_world_hint=False))
    async def fix(
        roots: ClientRoots,
        ctx: Context,
        path: KernelPath,
        text: Text = None,
        task: Task = None,
        use_model: Annotated[
            bool,
            Field(
                description="also ask the configured model (akgen.toml's "
                "[model]) when the deterministic fixes do not make it pass"
            ),
        ] = True,
        apply: Annotated[bool, Field(description="write the verified repair to the file")] = False,
    ) -> Annotated[CallToolResult, FixResult]:
        """Verified repairs of a failing kernel as a unified diff: the deterministic fixes (each checked on the
        simulator), then the configured model's repair (verified the same way) when one is configured. Nothing
        is written unless `apply` is true. `text`: repair that code instead of the file's."""
        file = state.confine(roots, path, "path")
        source = text if text is not None else read_source(file)
        settings = state.settings(file.parent)

        async def say(message: str) -> None:
            await progress(ctx, message)

        job = asyncio.ensure_future(
            state.checks.fix(file, source, settings, task=task, use_model=use_model, say=say)
        )
        run = await wait(job, ctx, f"repairing {file.name}")
        out = run.report()
        applied, n_stored = False, 0
        if apply and out["diff"] and out["passes"]:
            file.write_text(run.final, encoding="utf-8")
            applied, n_stored = True, run.remember(settings, "mcp")
        model = FixResult(**out, applied=applied, stored=n_stored)
        before, after = out["before"], out["after"]
        if before["status"] == "pass":
            text_out = f"{file.name}: passes ({before['summary']}); nothing to fix"
        elif out["diff"]:
            state_word = "applied" if applied else "not written (apply=true writes it)"
            text_out = (
                f"{file.name}: {before['summary']} -> {after['summary']}; repair {state_word}\n" + out["diff"]
            )
        else:
            text_out = f"{file.name}: {before['summary']}; no verified repair" + "".join(
                f"\nnote: {n}" for n in out["notes"]
            )
        return result(text_out, model)

    # ------------------------------------------------------------------------------------------------ explain

    @tool(server, READ_ONLY)
    async def explain(
        query: Annotated[
            str,
            Field(
                description="an API (DataCopy, AscendC::TQue::AllocTensor), a rule "
                "(AKG120), an NPU error code (507015), a finding code "
                "(SIM-QUE-DOUBLE-FREE) or error class, or an arch and fact words "
                "(Ascend910B2 ub)"
            ),
        ],
        arch: Arch = None,
        cann: Cann = None,
    ) -> Annotated[CallToolResult, ExplainResult]:
        """What akgen knows of a name: an Ascend C API (signatures, dtypes per arch, pipe, constraints), a rule
        (AKG120), an NPU error code (507015), a finding code or error class (SIM-QUE-DOUBLE-FREE), or an arch fact
        ("Ascend910B2 ub"). Unknown names get "did you mean" suggestions."""
        out = await state.run(knowledge.explain, query, state.settings(None, arch, cann))
        return result(out["text"], ExplainResult.model_validate(out))

    # ------------------------------------------------------------------------------------------------ report

    @tool(server, READ_ONLY)
    async def report(
        roots: ClientRoots,
        finding: Annotated[
            dict[str, Any] | None, Field(description="a finding as lint or check returned it")
        ] = None,
        path: Annotated[str | None, Field(description=f"the finding's source file, {IN_ROOTS}")] = None,
        log: Annotated[str | None, Field(description=f"a log file, {IN_ROOTS}")] = None,
        log_text: Annotated[
            str | None, Field(description="the log's text: compiler, build, simulator or NPU runtime output")
        ] = None,
        sources: Annotated[
            list[str] | None, Field(description=f"folders or files the log points into, {IN_ROOTS}")
        ] = None,
        format: Annotated[
            str,
            Field(description="the log's format: auto, gcc, clang, bisheng, msopgen, sim, lint, bench, ..."),
        ] = "auto",
        arch: Arch = None,
        cann: Cann = None,
    ) -> Annotated[CallToolResult, ReportResult]:
        """The diagnostic report of an error (as `akgen errors report`): the code around it, the real API it
        touched, the hardware facts, similar repairs. Give a `finding` from lint or check (with `path`, its
        source), or a log: `log` (a file) or `log_text` (compiler, build, simulator or NPU runtime output) with
        `sources` (folders or files the log points into)."""
        folder = None
        if finding is not None:
            src = state.confine(roots, path, "path") if path else None
            if src is None and finding.get("path"):
                src = state.confine(roots, str(finding["path"]), "finding's path")
            settings = state.settings(src.parent if src else None, arch, cann)
            try:
                reports = [await state.run(knowledge.report_of_finding, finding, src, settings)]
            except (KeyError, TypeError, ValueError) as exc:
                raise ToolError(
                    f"the finding is not one lint or check gave ({exc}); pass it as they return it"
                ) from None
        elif log is not None or log_text is not None:
            log_file = state.confine(roots, log, "log") if log else None
            if log_file is not None and not log_file.is_file():
                raise ToolError(f"{log_file} is not a file; give the log's path or its text as log_text")
            found = [state.confine(roots, s, "source") for s in sources or []]
            folder = found[0] if found and found[0].is_dir() else (found[0].parent if found else None)
            settings = state.settings(folder, arch, cann)
            try:
                reports = await state.run(
                    knowledge.reports_of_log, log_file, log_text, found, settings, format
                )
            except ValueError as exc:
                raise ToolError(str(exc)) from None
        else:
            raise ToolError("give a `finding` (from lint or check) or a log (`log` or `log_text`)")
        text = "\n\n---\n\n".join(r["markdown"] for r in reports) or "no error found in the log"
        return result(text, ReportResult(reports=reports))

    # ------------------------------------------------------------------------------------------------ sim

    from akgen_lsp.mcp.op_tool import register_op_test  # the operator's own kernel UT (op_tool.py)
    from akgen_lsp.mcp.resources import register_resources
    from akgen_lsp.mcp.run_tools import register_runs  # sim_run, run_program, bench

    register_runs(server, state)
    register_op_test(server, state)
    register_resources(server)
    return server


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("akgen-lsp")
    except Exception:
        return "0.0.0"


def _verdict(name: str, out: dict[str, Any]) -> str:
    fig = out.get("figures") or {}
    if not fig.get("task"):
        problem = next((f["message"] for f in out.get("findings") or []), None)
        return f"{name}: no task to check against" + (
            f" ({problem})" if problem else "; add a [[task]] to akgen.toml or pass task=NAME"
        )
    status = fig.get("status") or "unknown"
    parts = [f"{name}: {status}"]
    if fig.get("cases") is not None:
        parts.append(f"{fig.get('passed_cases', 0)}/{fig['cases']} cases pass")
    if fig.get("estimate_us") is not None:
        parts.append(
            f"{float(fig['estimate_us']):.2f} us on {fig.get('arch')} "
            f"({fig.get('estimate_label') or 'estimate'}; bound: {fig.get('bound') or '?'})"
        )
    return ", ".join(parts)

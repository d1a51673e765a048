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
import functools
import gc
import inspect
import json
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.server.mcpserver.resolve import ListRoots, Resolve
from mcp.types import CallToolResult, ListRootsResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from akgen_lsp.config import Settings, SettingsError, load_settings
from akgen_lsp.mcp import knowledge
from akgen_lsp.mcp.checking import CheckFailed, CheckService, figures_of
from akgen_lsp.mcp.jobs import JobFailed, run_akgen
from akgen_lsp.mcp.roots import OutsideRoots, Roots
from akgen_lsp.mcp.schemas import (
    BenchResult,
    CheckResultModel,
    ExplainResult,
    FixResult,
    LintResult,
    ReportResult,
    RunResult,
)

INSTRUCTIONS = """akgen checks AscendC kernels without an NPU. The loop: write the kernel; `lint` it (static rules,
certain fixes); `check` it against its task on the CPU simulator (compile, run every case, compare, estimate); read
the findings (file and line) and the verdict; `explain` an API, rule, error code or arch fact; `fix` for verified
repairs as a diff; repeat until `check` says every case passes. Estimates are estimates, not NPU measurements."""

T = TypeVar("T")
_READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_RUNS = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)


def _client_roots(ctx: Context) -> ListRoots | None:
    """Ask the client for its roots when it has the roots capability (else the server's roots apply)."""
    caps = ctx.client_capabilities
    return ListRoots() if caps is not None and caps.roots is not None else None


ClientRoots = Annotated[ListRootsResult | None, Resolve(_client_roots)]

# the arguments an agent fills, with the sentence its schema carries
_IN_ROOTS = "inside the client's roots (absolute, or relative to the first root)"
KernelPath = Annotated[str, Field(description=f"the kernel source file, {_IN_ROOTS}")]
OptKernelPath = Annotated[str | None, Field(description=f"the kernel source file, {_IN_ROOTS}")]
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


def _tool(
    server: MCPServer, annotations: ToolAnnotations
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`server.tool` with the function's docstring, dedented, as the tool's description."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        server.tool(description=inspect.cleandoc(fn.__doc__ or ""), annotations=annotations)(fn)
        return fn

    return register


def _result(text: str, model: BaseModel) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=model.model_dump(mode="json")
    )


class Akgen:
    """One server's state: its own roots, the warm check worker, the settings per folder."""

    def __init__(self, roots: Sequence[Path], warm: bool = True) -> None:
        self.server_roots = Roots.of(roots or [Path.cwd()], "server")
        self.checks = CheckService()
        self.warm_on_start = warm
        self._outputs: Path | None = None
        self.parses = knowledge.Parses()
        # lint, explain and report run on one thread of their own: the event loop stays free, and one thread's
        # heap serves every call (a pool's many threads each grow a malloc arena of their own)
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="akgen-mcp")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, functools.partial(fn, *args))

    def prepare(self) -> None:
        """Load the catalog and the rules (the first lint then costs what the next ones cost), then move everything
        loaded so far out of the garbage collector's sight (`gc.freeze`), so that the full collection after each
        lint (`lint`) costs a few milliseconds instead of tens."""
        knowledge.lint("", "prepare.cpp", self.settings(None), None)
        gc.collect()
        gc.freeze()

    def lint(self, text: str, path: str, settings: Settings) -> dict[str, Any]:
        """The lint, then a full collection: a parse's objects sit in reference cycles that hold the tree-sitter
        tree, and without it each lint of a large file left megabytes until Python's rare full collection (the
        server grew 105 -> 150 MB over 160 lints of a 2,000-line file; with it, flat)."""
        try:
            return knowledge.lint(text, path, settings, self.parses)
        finally:
            gc.collect()

    @property
    def outputs(self) -> Path:
        """The folder of this server's run and bench outputs (made on first use)."""
        if self._outputs is None:
            self._outputs = Path(tempfile.mkdtemp(prefix="akgen-mcp-out-"))
        return self._outputs

    def roots(self, listed: ListRootsResult | None) -> Roots:
        """The client's roots when it lists at least one local folder; else (no roots capability, an empty list,
        only remote URIs) the server's own: the folders whoever started the server gave it."""
        client = Roots.from_uris([str(r.uri) for r in listed.roots]) if listed is not None else None
        return client if client is not None and client.folders else self.server_roots

    def settings(self, folder: Path | None, arch: str | None = None, cann: str | None = None) -> Settings:
        try:
            settings = load_settings(folder or self.server_roots.folders[0])
            over = {k: v for k, v in (("arch", arch), ("cann.version", cann)) if v}
            return settings.with_overrides(over, "the tool call") if over else settings
        except SettingsError as exc:
            raise ToolError(str(exc)) from None

    def confine(self, listed: ListRootsResult | None, path: str, what: str) -> Path:
        try:
            return self.roots(listed).confine(path, what)
        except OutsideRoots as exc:
            raise ToolError(str(exc)) from None


def _read(path: Path) -> str:
    if not path.is_file():
        raise ToolError(f"{path} is not a file; give the path of an existing kernel source")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ToolError(f"cannot read {path}: {exc}") from None


async def _progress(ctx: Context, message: str, done: float = 0.0, total: float | None = None) -> None:
    with contextlib.suppress(Exception):  # a client that left does not fail the tool
        await ctx.report_progress(done, total, message)


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

    @_tool(server, _READ_ONLY)
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
        source = text if text is not None else _read(file)  # type: ignore[arg-type]
        name = str(file) if file is not None else "kernel.cpp"
        settings = state.settings(file.parent if file else None, arch, cann)
        out = await state.run(state.lint, source, name, settings)
        return _result(knowledge.lint_summary(out), LintResult.model_validate(out))

    # ------------------------------------------------------------------------------------------------ check

    @_tool(server, _RUNS)
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
        out = await _wait(job, ctx, f"checking {file.name} on the simulator")
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
        return _result("\n".join(lines), model)

    # ------------------------------------------------------------------------------------------------ fix

    @_tool(server, ToolAnnotations(destructive_hint=False, open_world_hint=False))
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
        source = text if text is not None else _read(file)
        settings = state.settings(file.parent)

        async def say(message: str) -> None:
            await _progress(ctx, message)

        job = asyncio.ensure_future(
            state.checks.fix(file, source, settings, task=task, use_model=use_model, say=say)
        )
        run = await _wait(job, ctx, f"repairing {file.name}")
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
        return _result(text_out, model)

    # ------------------------------------------------------------------------------------------------ explain

    @_tool(server, _READ_ONLY)
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
        return _result(out["text"], ExplainResult.model_validate(out))

    # ------------------------------------------------------------------------------------------------ report

    @_tool(server, _READ_ONLY)
    async def report(
        roots: ClientRoots,
        finding: Annotated[
            dict[str, Any] | None, Field(description="a finding as lint or check returned it")
        ] = None,
        path: Annotated[str | None, Field(description=f"the finding's source file, {_IN_ROOTS}")] = None,
        log: Annotated[str | None, Field(description=f"a log file, {_IN_ROOTS}")] = None,
        log_text: Annotated[
            str | None, Field(description="the log's text: compiler, build, simulator or NPU runtime output")
        ] = None,
        sources: Annotated[
            list[str] | None, Field(description=f"folders or files the log points into, {_IN_ROOTS}")
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
        return _result(text, ReportResult(reports=reports))

    # ------------------------------------------------------------------------------------------------ sim

    @_tool(server, _RUNS)
    async def sim_run(
        roots: ClientRoots,
        ctx: Context,
        manifest: Annotated[str, Field(description=f"the run manifest (JSON), {_IN_ROOTS}")],
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

    @_tool(server, _RUNS)
    async def run_program(
        roots: ClientRoots,
        ctx: Context,
        program: Annotated[
            str,
            Field(description=f"a single-source .asc, a CPU-debug main or a folder of sources, {_IN_ROOTS}"),
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

    @_tool(server, _RUNS)
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
            await _progress(ctx, f"bench: {n} results in {elapsed:.0f} s", n)

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
        return _result(
            text,
            BenchResult(summary=summary, out=str(out_dir), seconds=round(time.perf_counter() - started, 3)),
        )

    from akgen_lsp.mcp.op_tool import register_op_test  # the operator's own kernel UT (op_tool.py)

    register_op_test(server, state)
    _resources(server)
    return server


async def _wait(job: asyncio.Future[Any], ctx: Context, message: str) -> Any:
    """`job`'s result, with a progress notification each second; cancelling the call cancels the job (which kills
    its process tree)."""
    started = time.perf_counter()
    try:
        await _progress(ctx, message)
        while True:
            done, _ = await asyncio.wait({job}, timeout=1.0)
            if done:
                break
            elapsed = time.perf_counter() - started
            await _progress(ctx, f"{message}: {elapsed:.0f} s", elapsed)
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


async def _job(cmd: list[str], cwd: Path, timeout_s: float, tick: Any) -> Any:
    try:
        return await run_akgen(cmd, cwd, timeout_s, tick)
    except (TimeoutError, OSError) as exc:
        raise ToolError(str(exc)) from None


async def _run_job(ctx: Context, cmd: list[str], cwd: Path, message: str, timeout_s: float) -> CallToolResult:
    async def tick(elapsed: float) -> None:
        await _progress(ctx, f"{message}: {elapsed:.0f} s", elapsed)

    await _progress(ctx, message)
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
    return _result(
        "\n".join(lines),
        RunResult(
            status=status,
            ok=bool(payload.get("ok", status == "ok")),
            findings=findings,
            result=payload,
            seconds=round(res.seconds, 3),
        ),
    )


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


def _resources(server: MCPServer) -> None:
    from akgen_lsp.ascendc.arch import ArchError, arch_names, load_arch
    from akgen_lsp.ascendc.catalog import load_catalog
    from akgen_lsp.ascendc.rules import all_rules

    @server.resource("akgen://catalog", mime_type="application/json", title="Ascend C API catalog (index)")
    def catalog_index() -> str:
        """Every API of the catalog: name, kind, pipe (read one with akgen://catalog/{name})."""
        return json.dumps([{"name": e.name, "kind": e.kind, "pipe": e.pipe} for e in load_catalog()])

    @server.resource("akgen://catalog/{name}", mime_type="application/json", title="Ascend C API")
    def catalog_entry(name: str) -> str:
        """One catalog entry (qualified, AscendC::DataCopy, or short, DataCopy): signatures, dtypes, constraints."""
        found = knowledge.explain(name, load_settings(None))
        if found["kind"] != "api":
            raise ResourceNotFoundError(found["text"])
        return json.dumps(found["data"])

    @server.resource("akgen://arch", mime_type="application/json", title="Arch profiles (index)")
    def arch_index() -> str:
        """The hardware profiles akgen knows (read one with akgen://arch/{name})."""
        return json.dumps(arch_names())

    @server.resource("akgen://arch/{name}", mime_type="application/json", title="Arch profile")
    def arch_profile(name: str) -> str:
        """One hardware profile: cores, clock, memories, alignment, limits, bandwidths, cost tables."""
        try:
            return json.dumps(load_arch(name).as_dict())
        except (ArchError, OSError, KeyError) as exc:
            raise ResourceNotFoundError(
                f"no arch profile {name!r} ({exc}); read akgen://arch for the names"
            ) from None

    @server.resource("akgen://rules", mime_type="application/json", title="Static rules")
    def rules() -> str:
        """The static checker's rules: code, name, summary, on by default."""
        return json.dumps(
            [
                {"code": r.code, "name": r.name, "summary": r.summary, "default": r.default_enabled}
                for r in all_rules()
            ]
        )

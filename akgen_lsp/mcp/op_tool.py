"""The `op_test` tool: an operator's own kernel unit test (CANN's ops-math / ops-nn layout: `op_kernel/<op>.cpp`,
`tests/ut/op_kernel/` with `AddOpTestCase`) built with the repository's CMakeLists against the simulator's toolkit
and run in the sandbox, its data scripts included, as `akgen sim op-test` does (that command runs in a child process
of its own session: a cancelled call kills the build and the run).

The result: how far it got (built, ran), the cases that pass, the golden verdict of the UT's compare scripts, and the
findings at their file and line (the compiler's errors, the simulator's findings, one per failing case at its test,
a golden mismatch at the kernel entry). akgen.toml's `ops.include_dirs` and `ops.defines` (the operator's nearest)
reach the build, as on a save in the editor.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult
from pydantic import BaseModel, Field

from akgen_lsp.config import find_config_file
from akgen_lsp.mcp.jobs import JobFailed, run_akgen
from akgen_lsp.mcp.schemas import FindingModel
from akgen_lsp.mcp.tooling import IN_ROOTS, RUNS, ClientRoots, progress, result, tool


class CaseModel(BaseModel):
    name: str = Field(description="the gtest case: Suite.name")
    passed: bool
    message: str = ""


class OpTestResultModel(BaseModel):
    op: str
    op_dir: str
    soc: str
    stage: str = Field(description="how far it got: no-ut, configure, build, run, done")
    has_ut: bool = Field(description="the UT registers cases for this SoC")
    built: bool
    ran: bool = Field(description="the test binary ran every case to the end")
    ok: bool = Field(description="built, ran, every case passes, no error found, no golden mismatch")
    cases_total: int
    cases_passed: int
    cases: list[CaseModel]
    golden: str = Field(
        description="match / mismatch (the UT's compare scripts), not-compared (a "
        "tests/assets/golden.py no script compares), none"
    )
    golden_detail: str
    reason: str = Field(description="why it stopped or what failed, in a sentence")
    verdict: str = Field(description="one line: the cases that pass and the golden verdict")
    findings: list[FindingModel]
    seconds: float


def _listed(settings: Any, key: str) -> list[str]:
    try:
        value = settings.get(key, [])
    except (KeyError, TypeError):
        value = []
    return [str(v) for v in value] if isinstance(value, list) else []


def register_op_test(server: MCPServer, state: Any) -> None:
    """Add `op_test` to the server; `state`: the server's Akgen (state.py: its roots and settings)."""

    @tool(server, RUNS)
    async def op_test(
        roots: ClientRoots,
        ctx: Context,
        op_dir: Annotated[
            str,
            Field(
                description="the operator folder (the one with op_kernel/ and "
                f"tests/ut/op_kernel/), or a file in it, {IN_ROOTS}"
            ),
        ],
        soc: Annotated[
            str,
            Field(
                description="the SoC whose AddOpTestCase cases run (an A2/A3 one: "
                "Ascend910B1, Ascend910_9391)"
            ),
        ] = "Ascend910B1",
        include_dirs: Annotated[
            list[str] | None,
            Field(
                description="more header folders for every "
                "compile of the UT (besides akgen.toml's "
                "ops.include_dirs)"
            ),
        ] = None,
        defines: Annotated[
            dict[str, str] | None,
            Field(description="more macros for every compile: NAME -> VALUE (besides ops.defines)"),
        ] = None,
        timeout_s: Annotated[
            float, Field(description="the limit of each step (configure, build, a run)")
        ] = 900.0,
    ) -> Annotated[CallToolResult, OpTestResultModel]:
        """Run an operator's own kernel unit test (CANN's ops-math / ops-nn layout: op_kernel/<op>.cpp and
        tests/ut/op_kernel/ with AddOpTestCase) on the CPU simulator, as `akgen sim op-test`: the repository's
        CMakeLists builds the gtest cases against the simulator's toolkit, and they run in the sandbox with their
        data scripts. Says whether it built and ran, the cases that pass, the golden verdict of the UT's compare
        scripts, and the findings at file and line. Sends progress; cancelling stops the build and the run."""
        target = state.confine(roots, op_dir, "op_dir")
        if not target.exists():
            raise ToolError(
                f"{target} does not exist; give the operator folder (with op_kernel/ and "
                "tests/ut/op_kernel/) or a file in it"
            )
        folder = target if target.is_dir() else target.parent
        settings = state.settings(folder)
        cfg = find_config_file(folder)
        base = cfg.parent if cfg is not None else folder
        cmd = ["sim", "op-test", "--json", "--soc", soc, "--timeout", str(timeout_s)]
        for d in _listed(settings, "ops.include_dirs"):
            cmd += ["-I", str((base / d).resolve())]
        for d in include_dirs or []:
            cmd += ["-I", str(state.confine(roots, d, "include folder"))]
        for d in _listed(settings, "ops.defines"):
            cmd += ["-D", d]
        for k, v in (defines or {}).items():
            cmd += ["-D", f"{k}={v}"]
        cmd.append(str(target))
        message = f"running the kernel UT of {folder.name} on the simulator"
        started = time.perf_counter()

        async def tick(elapsed: float) -> None:
            await progress(ctx, f"{message}: {elapsed:.0f} s", elapsed)

        await progress(ctx, message)
        try:
            res = await run_akgen(cmd, folder, 4 * timeout_s + 300.0, tick)
            out = res.json()
        except (TimeoutError, OSError, JobFailed) as exc:
            raise ToolError(
                str(exc).replace("akgen exited with status 2 and no JSON result: error: ", "")
            ) from None
        model = OpTestResultModel(
            **{k: v for k, v in out.items() if k in OpTestResultModel.model_fields and k != "seconds"},
            verdict=_verdict(out),
            seconds=round(time.perf_counter() - started, 3),
        )
        lines = [model.verdict] + [
            f"  {f.path}:{f.line}: {f.severity} {f.code}: {f.message[:300]}" for f in model.findings[:15]
        ]
        return result("\n".join(lines), model)


def _verdict(out: dict[str, Any]) -> str:
    op = out.get("op", "?")
    if not out.get("has_ut", True):
        return f"{op}: no kernel UT case to run ({out.get('reason', '')})"
    if not out.get("built"):
        return f"{op}: the kernel UT did not build ({out.get('stage')}): {out.get('reason', '')}"
    gold = {
        "match": "golden data match",
        "mismatch": "golden data MISMATCH",
        "not-compared": "golden.py present, not compared",
        "none": "no golden data",
    }.get(out.get("golden", ""), "golden: ?")
    ran = "" if out.get("ran") else "; did not run to completion"
    return (
        f"{op}: {'ok' if out.get('ok') else 'FAILED'}, {out.get('cases_passed', 0)}/{out.get('cases_total', 0)} "
        f"cases pass, {gold}{ran}"
        + (f" ({out['reason']})" if out.get("reason") and not out.get("ok") else "")
    )


__all__ = ["OpTestResultModel", "register_op_test"]

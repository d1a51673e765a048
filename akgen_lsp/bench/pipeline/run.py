"""The run stage on the sim toolchain: one case's build run in the sandbox (host tiling first) with the case's
manifest."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from akgen_lsp.bench.pipeline.record import Timings
from akgen_lsp.findings import Finding, Severity
from akgen_lsp.sim.build_types import Build
from akgen_lsp.sim.manifest import Manifest
from akgen_lsp.sim.runner import Run
from akgen_lsp.sim.toolchain import SimToolchain


def run_case(
    tool: SimToolchain,
    build: Build,
    manifest: Manifest,
    out_dir: Path,
    cr: dict[str, Any],
    findings: list[Finding],
    tm: Timings,
    trace: bool = True,
) -> Run | None:
    """The case's run, or None when it did not end ``ok``: ``cr["status"]`` then says how (``compile_error`` when
    the op_host code did not build, ``timeout``, ``runtime_error``) and the run's errors are added. With `trace`
    False no Chrome trace is written (nobody keeps the work folder it would go to)."""
    t0 = time.perf_counter()
    run = tool.run(build, manifest, out_dir, trace=trace)
    tm.run += time.perf_counter() - t0
    if run.status == "compile_error":  # the op_host code did not build
        findings.extend(run.findings)
        cr["status"] = "compile_error"
        return None
    if run.status != "ok":
        findings.extend(f for f in run.findings if f.severity is Severity.ERROR)
        cr["status"] = "timeout" if run.status == "timeout" else "runtime_error"
        return None
    return run

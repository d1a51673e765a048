"""The compile stage on the sim toolchain: the build options come from the case's manifest (defines, the kernel's
signature, the tiling header), and a candidate is compiled once per distinct set of them (once per dtype set), so
its cases share their builds."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from akgen_lsp.bench.pipeline.record import Settings, Timings, _finding
from akgen_lsp.findings import Finding
from akgen_lsp.sim.build_types import Build
from akgen_lsp.sim.manifest import Manifest
from akgen_lsp.sim.toolchain import SimToolchain, options_for


def compile_case(tool: SimToolchain, manifest: Manifest, settings: Settings, builds: dict[str, Build], kernel: Path,
                 findings: list[Finding], tm: Timings) -> Build | None:
    """The build of the case's kernel (from `builds` when the candidate was built with the same options already), or
    None when the toolchain itself failed (g++ missing, the cache unwritable: a BENCH-TOOLCHAIN finding added). A
    build that failed is returned as it is: its findings say why."""
    opts = dataclasses.replace(options_for(manifest), timeout_s=settings.compile_timeout_s)
    bkey = repr(sorted(opts.defines.items())) + repr(opts.signature) + str(opts.tiling_header)
    t0 = time.perf_counter()
    build = builds.get(bkey)
    if build is None:
        try:
            build = tool.compile(manifest.sources, opts)
        except Exception as exc:  # ToolchainError: g++ missing or the cache unwritable
            findings.append(_finding("BENCH-TOOLCHAIN", str(exc), str(kernel), "toolchain"))
            tm.compile += time.perf_counter() - t0
            return None
        builds[bkey] = build
    tm.compile += time.perf_counter() - t0
    return build

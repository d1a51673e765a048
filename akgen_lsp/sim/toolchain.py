"""The `sim` toolchain: `compile(sources, options) -> Build`, `run(build, case) -> Run`, and `run_manifest(path)`.

This is the interface the bench harness and the server use (design.md, "A toolchain is an interface"); they never
need to know that the kernel ran on our emulation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.findings import Finding, Span, finding_to_json
from akgen_lsp.sim import cost
from akgen_lsp.sim.build import compile_kernel
from akgen_lsp.sim.build_types import Build, BuildOptions
from akgen_lsp.sim.compiler import ToolchainError
from akgen_lsp.sim.manifest import Manifest, ManifestError, load_manifest
from akgen_lsp.sim.runner import Run, host_tiling, run_build
from akgen_lsp.sim.tiling_key import keyed_defines, needs_key_build

STATUSES = ("ok", "compile_error", "runtime_error", "timeout", "crash")


@dataclass
class SimResult:
    """What `akgen sim run` prints: status, findings, outputs, estimate, trace (and a little more)."""

    status: str
    findings: list[Finding]
    outputs: dict[str, str] = field(default_factory=dict)
    estimate: dict[str, Any] | None = None
    trace: str | None = None
    sandbox: dict[str, Any] = field(default_factory=dict)
    build: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    stdout: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "findings": [finding_to_json(f) for f in self.findings],
            "outputs": self.outputs,
            "estimate": self.estimate,
            "trace": self.trace,
            "sandbox": self.sandbox,
            "build": self.build,
            "warnings": self.warnings,
            "stdout": self.stdout,
        }


def options_for(
    manifest: Manifest, use_pch: bool = True, use_cache: bool = True, tiling_key: int | None = None
) -> BuildOptions:
    """The build options of a manifest. A kernel that tests its tiling key in `if constexpr` is built for one key
    (sim/tiling_key.py): `tiling_key`, default the manifest's."""
    tiling = next((a.tiling for a in manifest.args if a.tiling is not None), None)
    defines = dict(manifest.defines)
    if needs_key_build(manifest.sources):
        defines = keyed_defines(defines, manifest.tiling_key if tiling_key is None else tiling_key)
    return BuildOptions(
        kernel=manifest.kernel,
        signature=manifest.signature(),
        defines=defines,
        tiling_header=tiling.header if tiling else None,
        tiling_struct=tiling.struct if tiling else None,
        include_dirs=manifest.include_dirs,
        use_pch=use_pch,
        use_cache=use_cache,
    )


class SimToolchain:
    """g++ plus our headers. Stateless apart from the on-disk build cache."""

    name = "sim"

    def compile(self, sources: Sequence[str | Path], options: BuildOptions) -> Build:
        return compile_kernel([Path(s) for s in sources], options)

    def run(self, build: Build, case: Manifest, out_dir: Path | None = None, trace: bool = True) -> Run:
        return run_build(build, case, out_dir, trace=trace)

    def run_manifest(
        self, manifest: Manifest | str | Path, out_dir: Path | None = None, *, confine: bool = True
    ) -> SimResult:
        """Compile and run; never raises for a bad kernel or manifest: the result says what went wrong. A manifest
        file is confined to its folder (`confine`; only a caller that wrote the manifest itself turns that off)."""
        try:
            m = manifest if isinstance(manifest, Manifest) else load_manifest(manifest, confine=confine)
        except ManifestError as exc:
            where = str(manifest) if not isinstance(manifest, Manifest) else "manifest"
            return SimResult(
                "runtime_error",
                [
                    Finding(
                        "SIM-MANIFEST",
                        str(exc),
                        Span.point(where, 1),
                        source="akgen-run",
                        error_class="manifest",
                    )
                ],
            )
        key = None
        if needs_key_build(m.sources) and m.tiling is not None and m.tiling.host is not None:
            # built once per tiling key: the TilingFunc's key, known before the build (it runs again in the run)
            ht = host_tiling(m, cost.profile_for(m.arch)[0])
            key = ht.tiling_key if ht.ok else None
        try:
            build = self.compile(m.sources, options_for(m, tiling_key=key))
        except ToolchainError as exc:
            return SimResult(
                "compile_error",
                [Finding("SIM-TOOLCHAIN", str(exc), Span.point(str(m.sources[0]), 1), source="akgen-build")],
            )
        binfo = {"cached": build.cached, "seconds": round(build.seconds, 4), "key": build.key}
        if not build.ok:
            return SimResult("compile_error", build.findings, build=binfo)
        run = self.run(build, m, out_dir)
        return SimResult(
            run.status,
            run.findings,
            run.outputs,
            run.estimate,
            run.trace,
            run.sandbox,
            {**binfo, "kernel_us": round(run.kernel_us, 1), "run_wall_s": round(run.wall_s, 4)},
            run.warnings,
            run.stdout,
        )


def run_manifest(path: str | Path, out_dir: str | Path | None = None, *, confine: bool = True) -> SimResult:
    return SimToolchain().run_manifest(path, Path(out_dir) if out_dir else None, confine=confine)

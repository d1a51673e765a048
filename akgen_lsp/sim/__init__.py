"""The `sim` toolchain: compile AscendC kernels with g++ against our header-only emulation of the Ascend C API
(`include/`), run their blocks in a sandbox with runtime checks, and estimate their time on a 910B.

Entry points: `SimToolchain` (`compile`, `run`, `run_manifest`), `run_manifest(path)`, `load_manifest`.
See docs/sim.md.
"""

from akgen_lsp.sim.build_types import Build, BuildOptions
from akgen_lsp.sim.compiler import ToolchainError
from akgen_lsp.sim.manifest import Manifest, ManifestError, load_manifest, parse_manifest
from akgen_lsp.sim.runner import Run
from akgen_lsp.sim.toolchain import SimResult, SimToolchain, run_manifest

__all__ = [
    "Build",
    "BuildOptions",
    "Manifest",
    "ManifestError",
    "Run",
    "SimResult",
    "SimToolchain",
    "ToolchainError",
    "load_manifest",
    "parse_manifest",
    "run_manifest",
]

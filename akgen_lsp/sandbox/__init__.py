"""Confinement of untrusted code: every compile of a kernel's sources and every run of its code (the sim launcher,
an op_host TilingFunc, a run-program host, the cann toolchain's tools) goes through `run_confined(argv, policy)`.

Below sim/ and bench/, above config.py (it reads `sim.sandbox`); it imports nothing else of akgen. See
docs/sim.md, "Security model".
"""

from akgen_lsp.sandbox.box import Confined, run_confined
from akgen_lsp.sandbox.mode import (
    KEY,
    MODES,
    SandboxUnavailable,
    prime,
    probe,
    require,
    sandbox_mode,
    sandbox_warning,
    use_mode,
)
from akgen_lsp.sandbox.policy import RUN_DISK_BYTES, GiB, Limits, MiB, Policy

__all__ = [
    "KEY",
    "MODES",
    "RUN_DISK_BYTES",
    "Confined",
    "GiB",
    "Limits",
    "MiB",
    "Policy",
    "SandboxUnavailable",
    "prime",
    "probe",
    "require",
    "run_confined",
    "sandbox_mode",
    "sandbox_warning",
    "use_mode",
]

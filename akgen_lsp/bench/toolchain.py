"""Which toolchain runs a candidate: ``toolchain.name`` is "sim", "cann", or "auto" (cann when ASCEND_HOME_PATH
points at a CANN install with its compiler, else sim).

This lives in the bench layer because the cann toolchain does (it builds msopgen projects and runs torch_npu); the
sim layer below knows nothing of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from akgen_lsp.bench.cann import select_toolchain
from akgen_lsp.bench.cann.toolchain import CannToolchain
from akgen_lsp.sim.compiler import ToolchainError
from akgen_lsp.sim.toolchain import SimToolchain


def get_toolchain(name: str = "auto", env: Mapping[str, str] | None = None) -> Any:
    """The toolchain object for `name`. Raises ToolchainError (CannUnavailable) when cann is asked for but cannot
    work here; the message says what is missing and what to do."""
    choice = select_toolchain(name, env)
    if choice == "cann":
        return CannToolchain.from_env(env)
    if choice == "none":
        raise ToolchainError(
            'toolchain.name is "none": no toolchain is configured; set it to auto, sim or cann'
        )
    return SimToolchain()

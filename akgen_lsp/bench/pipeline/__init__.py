"""The per-candidate pipeline: parse -> compile (timeout) -> run each case (host tiling first) -> anti-cheat ->
compare -> performance. One call, `evaluate`, returns a JSON-able record; nothing in here raises for a bad kernel.

Modes (NPUKernelBench):
- ``static``: each case is its own instance, scored on its own (task score = passed cases / cases). The tiling of
  the case comes from the candidate's op_host when it has one, else from the task's question/op_host, which only
  sets the block dim (a kernel-only candidate hard-codes its tiling and gets a zeroed tiling buffer).
- ``dynamic``: the candidate's op_host TilingFunc runs for every case on the simulator's host runner; a candidate
  without op_host is a parse error, and success needs every case.

Kernel arguments are mapped by position: the kernel's GM_ADDR parameters are the tensor inputs of
``get_inputs(case)``, then the reference outputs, then ``workspace`` and ``tiling`` when present. ``DTYPE_<NAME>``
macros come from the dtypes of the tensors bound to each parameter.

The modules: `record` (the candidate, the settings, the timings and the record every toolchain fills) and `parse`
(the stage every toolchain shares) at the bottom; on the sim, `binding` (a case's data bound to the kernel's
parameters), `manifest` (the case's sim manifest), `compile`, `run`, `compare` (anti-cheat, then the numbers) and
`perf` (estimate against the roofline baseline), driven by `sim.evaluate_sim`; on CANN, `cann.evaluate_cann`.
"""

from __future__ import annotations

from typing import Any

from akgen_lsp.bench.cann import select_toolchain
from akgen_lsp.bench.pipeline.binding import C_TYPES
from akgen_lsp.bench.pipeline.cann import evaluate_cann
from akgen_lsp.bench.pipeline.parse import kernel_entry, prepare_stage
from akgen_lsp.bench.pipeline.record import (
    NO_ANSWER,
    NO_ANSWER_REASON,
    Candidate,
    RunSettings,
    Timings,
    finish_record,
    new_record,
    summarise_timings,
)
from akgen_lsp.bench.pipeline.sim import evaluate_sim
from akgen_lsp.bench.tasks import Task

__all__ = [
    "C_TYPES",
    "NO_ANSWER",
    "NO_ANSWER_REASON",
    "Candidate",
    "RunSettings",
    "Timings",
    "evaluate",
    "evaluate_cann",
    "evaluate_sim",
    "finish_record",
    "kernel_entry",
    "new_record",
    "prepare_stage",
    "summarise_timings",
]


def evaluate(task: Task, cand: Candidate, settings: RunSettings | None = None) -> dict[str, Any]:
    """Evaluate one candidate on every case of its task, on the toolchain ``settings.toolchain`` selects; returns
    the candidate's record (see docs/bench.md)."""
    settings = settings or RunSettings()
    if select_toolchain(settings.toolchain) == "cann":
        return evaluate_cann(task, cand, settings)
    return evaluate_sim(task, cand, settings)

"""The roofline baseline of a case: the least time the chip could take, from the minimal bytes (every input read
once, every output written once) over the HBM bandwidth and the minimal work over the peak compute of the arch.

Minimal work: a task's ``prepare_inputs.flops(case)`` when it defines one (our matmul tasks: 2·M·N·K), else one
operation per output element. Peaks: vector = AIV cores x clock x 256 bytes per cycle (one full repeat); cube = AIC
cores x clock x 16·16·16·2 flops per cycle (fp16). Both are labelled estimates; the speedup we report is
roofline time / estimated time (1.0 = at the roofline).
"""

from __future__ import annotations

from typing import Any

from akgen_lsp.ascendc.arch import ArchProfile
from akgen_lsp.bench import tensorlist
from akgen_lsp.bench.reference import CaseData, task_python
from akgen_lsp.bench.tasks import Case, Task

CUBE_FLOPS_PER_CYCLE = 16 * 16 * 16 * 2
VECTOR_BYTES_PER_CYCLE = 256


def minimal_bytes(data: CaseData) -> int:
    return int(sum(tensorlist.n_bytes(t) for t in [*data.inputs, *data.outputs]))


def task_flops(task: Task, case: Case, data: CaseData) -> tuple[float, str]:
    if data.flops is not None:  # the task's flops(case), from the box its code ran in
        return data.flops
    from akgen_lsp.bench.reference import boxed

    if boxed():  # the task's code never runs in this process: the default estimate
        return float(sum(tensorlist.n_elements(t) for t in data.outputs)), "vector"
    tp = task_python(task)
    if tp.prepare is not None and hasattr(tp.prepare, "flops"):
        try:
            value: Any = tp.prepare.flops(case)
            kind = "cube" if getattr(tp.prepare, "USES_CUBE", False) else "vector"
            return float(value), kind
        except Exception:  # the task's own code: fall back to the default
            pass
    return float(sum(tensorlist.n_elements(t) for t in data.outputs)), "vector"


def baseline_us(task: Task, case: Case, data: CaseData, arch: ArchProfile) -> float:
    bytes_ = minimal_bytes(data)
    mem_us = bytes_ / (arch.hbm_gbps * 1e9) * 1e6 if arch.hbm_gbps > 0 else 0.0
    flops, kind = task_flops(task, case, data)
    clock = arch.clock_ghz * 1e9
    if kind == "cube":
        peak = arch.aic_cores * clock * CUBE_FLOPS_PER_CYCLE
    else:
        itemsize = max(1, min((tensorlist.first_array(t).itemsize for t in data.outputs), default=4))
        peak = arch.aiv_cores * clock * VECTOR_BYTES_PER_CYCLE / itemsize
    compute_us = flops / peak * 1e6 if peak > 0 else 0.0
    return max(mem_us, compute_us, 1e-6)

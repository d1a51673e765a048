"""The anti-cheat rule: a kernel must do its work in the kernel. One that moves no data through UB/L1 (no GM -> UB
or GM -> L1 copy and no copy back out) fails, however right its numbers look (MultiKernelBench rejects answers that
just call PyTorch for the same reason).

The primary check reads the simulator's per-pipe work from the run's estimate: some data must have moved through
UB/L1 (MTE2 in, MTE1 inside the cube path, MTE3 or FIX out). When a result carries no per-pipe figures, a static check of the source is the fallback: the kernel
must call a data-movement API at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from akgen_lsp.findings import Finding, Severity, Span

MOVE_PIPES = ("MTE2", "MTE1", "MTE3", "FIX")
_MOVE_APIS = re.compile(r"\b(DataCopy|DataCopyPad|LoadData|Fixpipe|IterateAll|GetTensorC|Iterate|SetGlobalBuffer)\b")


def _no_work(message: str, path: str) -> Finding:
    return Finding(code="BENCH-NO-WORK", message=message, span=Span.point(path, 1), severity=Severity.ERROR,
                   source="akgen-run", error_class="anti_cheat")


def has_pipe_figures(estimate: Mapping[str, Any] | None) -> bool:
    return bool(estimate) and isinstance(estimate.get("pipes"), Mapping)  # type: ignore[union-attr]


def check_run(estimate: Mapping[str, Any] | None, path: str, has_inputs: bool = True) -> Finding | None:
    """None when the run moved data through UB/L1 (MTE2, MTE1, MTE3 or FIX work); a finding otherwise. With no
    per-pipe figures in the estimate, returns None (the static check decides). `has_inputs` is accepted for callers
    that know it; reading inputs is not required."""
    if not estimate or not isinstance(estimate.get("pipes"), Mapping):
        return None
    pipes = estimate["pipes"]
    if not pipes and not estimate.get("gm_bytes"):
        return _no_work("the kernel moved no data through UB/L1 (no MTE2/MTE3 work in the simulator): the result "
                        "was not computed by the kernel", path)

    # The estimate lists a pipe only when it did some work (its busy time may still round to 0 us). Any movement
    # through UB/L1 counts: creation ops (Eye) only write, reductions to a scalar may read through UB and store
    # the value with GlobalTensor::SetValue. A kernel that touches GM only with scalar accesses moved nothing.
    del has_inputs
    if not any(p in pipes for p in MOVE_PIPES):
        return _no_work("the kernel moved no data through UB/L1 (no MTE2, MTE1, MTE3 or FIX work in the simulator): "
                        "it read and wrote GM only with scalar accesses, which is not computing on the NPU", path)
    return None


def static_check(source: str, path: str) -> Finding | None:
    """The fallback: a kernel that calls no data-movement API cannot have done the work."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", source, flags=re.DOTALL)
    if _MOVE_APIS.search(code):
        return None
    return _no_work("the kernel calls no data-movement API (DataCopy, DataCopyPad, LoadData, Fixpipe, Matmul "
                    "Iterate): it cannot have computed the result", path)

"""The anti-cheat rule: a kernel must do its work in the kernel. It must read its inputs from GM and write its
outputs to GM itself, by any path: DMA (DataCopy, DataCopyPad, LoadData, Fixpipe, Matmul) or the scalar unit
(``GlobalTensor::GetValue`` / ``SetValue``). A kernel that writes nothing (the launcher's output buffers keep what
they held) or that writes a result without reading a single input byte (a constant, a value baked in at compile
time) fails, however right its numbers look (MultiKernelBench rejects answers that just call PyTorch for the same
reason).

The simulator's launcher reports, per block, the GM bytes read and written by DMA (``gm_read``/``gm_write``) and by
scalar accesses (``gm_scalar_read``/``gm_scalar_write``); `check_blocks` reads them. Scalar-only GM traffic is legal
(Sasum, Eye, Triu, Cross in NPUKernelBench do it) but slow on the NPU: it gets an information finding about
performance. Where a result carries no per-block figures, `check_run` reads the per-pipe work of the estimate, and
without that, `static_check` reads the source: the kernel must call a data-movement API at all.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from akgen_lsp.findings import Finding, Severity, Span

MOVE_PIPES = ("MTE2", "MTE1", "MTE3", "FIX")
_MOVE_APIS = re.compile(
    r"\b(DataCopy|DataCopyPad|LoadData|Fixpipe|IterateAll|GetTensorC|Iterate|SetGlobalBuffer)\b"
)
_SCALAR_KEYS = ("gm_scalar_read", "gm_scalar_write")


def _no_work(message: str, path: str) -> Finding:
    return Finding(
        code="BENCH-NO-WORK",
        message=message,
        span=Span.point(path, 1),
        severity=Severity.ERROR,
        source="akgen-run",
        error_class="anti_cheat",
    )


def must_write(outputs: Sequence[tuple[Any, Any]]) -> bool:
    """Whether "the kernel wrote nothing" is cheating for these outputs, each given as (expected, initial content):
    the initial content is None for a plain output (a fresh buffer), or the values a ref / in-place output starts
    with (the input whose buffer it is: ScatterList's var, an inout argument). A kernel that leaves such an output
    unchanged when the op leaves it unchanged (ScatterList with every mask False) computed it; when any output must
    change (or is a fresh buffer), writing nothing is the anti-cheat failure (and would give wrong numbers too)."""
    for expected, initial in outputs:
        if initial is None:
            return True
        a = np.asarray(expected).reshape(-1)
        b = np.asarray(initial).reshape(-1)
        if a.shape != b.shape or a.dtype != b.dtype:
            return True
        if a.dtype.kind in "fc":
            if not np.array_equal(a, b, equal_nan=True):
                return True
        elif a.tobytes() != b.tobytes():
            return True
    return False


def has_pipe_figures(estimate: Mapping[str, Any] | None) -> bool:
    return bool(estimate) and isinstance(estimate.get("pipes"), Mapping)  # type: ignore[union-attr]


def has_gm_figures(blocks: Sequence[Mapping[str, Any]] | None) -> bool:
    """Whether the launcher reported per-block GM traffic by every path (DMA and scalar)."""
    return bool(blocks) and any(all(k in b for k in _SCALAR_KEYS) for b in blocks or ())


def gm_traffic(blocks: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """GM bytes over all blocks: dma_read, dma_write, scalar_read, scalar_write."""
    out = {"dma_read": 0, "dma_write": 0, "scalar_read": 0, "scalar_write": 0}
    for b in blocks:
        out["dma_read"] += int(b.get("gm_read", 0) or 0)
        out["dma_write"] += int(b.get("gm_write", 0) or 0)
        out["scalar_read"] += int(b.get("gm_scalar_read", 0) or 0)
        out["scalar_write"] += int(b.get("gm_scalar_write", 0) or 0)
    return out


def check_blocks(
    blocks: Sequence[Mapping[str, Any]], path: str, has_inputs: bool = True, has_outputs: bool = True
) -> tuple[Finding | None, Finding | None]:
    """(error, info) from the launcher's per-block GM figures. The error: the kernel wrote none of its outputs, or
    read none of its inputs. The info: all GM traffic went through the scalar unit (legal, slow)."""
    t = gm_traffic(blocks)
    reads = t["dma_read"] + t["scalar_read"]
    writes = t["dma_write"] + t["scalar_write"]
    if has_outputs and writes == 0:
        return _no_work(
            "the kernel wrote nothing to GM (no DataCopy/Fixpipe to GM and no GlobalTensor::SetValue): "
            "its outputs were not computed by the kernel",
            path,
        ), None
    if has_inputs and reads == 0:
        return _no_work(
            f"the kernel wrote {writes} bytes to GM but never read its inputs (no DataCopy/LoadData from "
            "GM and no GlobalTensor::GetValue): an output that does not depend on the inputs was not "
            "computed from them",
            path,
        ), None
    info = None
    if t["dma_read"] + t["dma_write"] == 0 and t["scalar_read"] + t["scalar_write"] > 0:
        info = Finding(
            code="BENCH-SCALAR-GM",
            message=(
                f"the kernel moves all its GM data with scalar GetValue/SetValue ({t['scalar_read']} "
                f"bytes read, {t['scalar_write']} written) and none by DMA: legal, but each access "
                "costs tens of cycles on the scalar unit; copy tiles with DataCopy through UB to "
                "use the vector unit"
            ),
            span=Span.point(path, 1),
            severity=Severity.INFO,
            source="akgen-run",
            error_class="performance",
        )
    return None, info


def check_run(estimate: Mapping[str, Any] | None, path: str, has_inputs: bool = True) -> Finding | None:
    """The fallback for results without per-block GM figures: None when the run moved data through UB/L1 (MTE2,
    MTE1, MTE3 or FIX work) or wrote GM; a finding when it did nothing at all. With no per-pipe figures in the
    estimate, returns None (the static check decides)."""
    del has_inputs
    if not estimate or not isinstance(estimate.get("pipes"), Mapping):
        return None
    pipes = estimate["pipes"]
    if not pipes and not estimate.get("gm_bytes"):
        return _no_work(
            "the kernel moved no data (no DMA and no GM access in the simulator): the result was not "
            "computed by the kernel",
            path,
        )
    if not any(p in pipes for p in MOVE_PIPES) and not estimate.get("gm_bytes"):
        return _no_work(
            "the kernel moved no data through UB/L1 (no MTE2, MTE1, MTE3 or FIX work in the simulator) "
            "and the run reported no GM traffic: the result was not computed by the kernel",
            path,
        )
    return None


def static_check(source: str, path: str) -> Finding | None:
    """The last fallback: a kernel that calls no data-movement API cannot have done the work."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", source, flags=re.DOTALL)
    if _MOVE_APIS.search(code) or re.search(r"\b(GetValue|SetValue)\s*\(", code):
        return None
    return _no_work(
        "the kernel calls no data-movement API (DataCopy, DataCopyPad, LoadData, Fixpipe, Matmul "
        "Iterate) and no GlobalTensor GetValue/SetValue: it cannot have computed the result",
        path,
    )

"""The compare stage: a run that did no work is caught first (`check_work`: the anti-cheat checks over the
simulator's per-block GM figures, its per-pipe figures, or the sources), then the outputs it wrote are compared with
the reference outputs, by the task's own check when it has one (`compare_case`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from akgen_lsp.bench import anticheat, tensorlist
from akgen_lsp.bench.compare import Comparison, as_float, compare_outputs, comparison_finding
from akgen_lsp.bench.pipeline.manifest import _outputs_and_initial
from akgen_lsp.bench.pipeline.record import _finding
from akgen_lsp.bench.reference import CaseData, ReferenceError_
from akgen_lsp.bench.signature import OpDef
from akgen_lsp.bench.tasks import Case, Task
from akgen_lsp.findings import Finding, Severity
from akgen_lsp.sim.runner import Run


def _kernel_sources_text(kernel: Path) -> str:
    """The kernel file and the headers beside it (helpers often hold the data movement)."""
    parts = [kernel.read_text(encoding="utf-8", errors="replace")]
    for p in sorted(kernel.parent.iterdir()):
        if p != kernel and p.suffix in (".h", ".hpp", ".cpp", ".inc") and p.is_file():
            parts.append(p.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(parts)


class _CustomCall:
    """A task's custom check bound to the kernel's outputs; `last_stats` carries its (max abs, max rel)."""

    def __init__(self, check: Any, outs: list[np.ndarray]) -> None:
        self.check, self.outs = check, outs
        self.last_stats: tuple[float, float] | None = None

    def __call__(self) -> bool:
        ok = bool(self.check(self.outs))
        self.last_stats = getattr(self.check, "last_stats", None)
        return ok


class _Decided:
    """The verdict of a custom check that has run, as `compare_outputs` asks for it (not run a second time)."""

    def __init__(self, ok: bool, last_stats: tuple[float, float] | None) -> None:
        self.ok, self.last_stats = ok, last_stats

    def __call__(self) -> bool:
        return self.ok


def _raw_outputs(
    outputs: dict[str, str], written: list[tuple[str, Any]], items: list[np.ndarray] | None
) -> list[np.ndarray]:
    """The kernel's outputs as the default rule compares them: a plain output memory-mapped (compared a chunk at
    a time, so a 1 GiB output is never widened whole), a list's elements concatenated; list elements already read
    for a custom check (`items`, in `load_items`' order) are not read again."""
    out: list[np.ndarray] = []
    pos = 0
    for name, t in written:
        names = tensorlist.output_names(name, t, outputs)
        listed = isinstance(t, tensorlist.TensorList) or len(names) == 1
        count = len(names) if listed else 1
        if name in outputs and not isinstance(t, tensorlist.TensorList):
            out.append(np.load(outputs[name], mmap_mode="r"))
        elif items is not None and listed:
            out.append(np.concatenate([a.reshape(-1) for a in items[pos : pos + count]]))
        elif items is not None:
            out.append(items[pos])  # one expected tensor written as a list in place, already joined
        else:
            out.append(tensorlist.load(outputs, name, t))
        pos += count
    return out


def _nonfinite_where_finite(
    refs: Sequence[Any],
    outs: Sequence[Any],
    names: Sequence[str],
    dtypes: Sequence[str | None],
    chunk: int = 1 << 22,
) -> list[tuple[str, int, int]]:
    """(output name, elements that are NaN/inf in the kernel's output where the reference is finite, size) for each
    plain output that has any; read a chunk at a time (bfloat16 as raw bits, named in `dtypes`)."""
    found: list[tuple[str, int, int]] = []
    for i, (r0, o0) in enumerate(zip(refs, outs, strict=False)):
        if not isinstance(r0, np.ndarray) or not isinstance(o0, np.ndarray) or r0.size != o0.size:
            continue
        dt = dtypes[i] if i < len(dtypes) else None
        r, o = r0.reshape(-1), o0.reshape(-1)
        n = 0
        for s0 in range(0, r.size, chunk):
            rc, oc = as_float(r[s0 : s0 + chunk], dt), as_float(o[s0 : s0 + chunk], dt)
            n += int(np.count_nonzero(np.isfinite(rc) & ~np.isfinite(oc)))
        if n:
            found.append((names[i] if i < len(names) else f"output {i}", n, int(r.size)))
    return found


def check_work(
    run: Run,
    binding: list[tuple[str, str, Any]],
    opdef: OpDef | None,
    host_reads_values: bool,
    kernel: Path,
    findings: list[Finding],
    static_checked: bool,
) -> tuple[Finding | None, bool]:
    """The finding of a run that did no work (read no input, wrote no output), or None; and whether the sources
    have been read for it now or before (they are read once per candidate, when a run has no per-pipe figures)."""
    # An OpDef input that is also an output (a ref such as Eye's y) is the output's buffer: nothing to read.
    refs = (
        ({p.name.lower() for p in opdef.inputs} & {p.name.lower() for p in opdef.outputs}) if opdef else set()
    )
    # An op with no OpDef output (ForeachZeroInplace) writes its inputs in place: they are its outputs too.
    in_place_only = opdef is not None and not opdef.outputs
    # When the TilingFunc reads input values (GetInputTensor(i)->GetData: Fill's dims), an input of one 32-byte
    # block at most is a value the tiling or a __gm__ pointer dereference (unseen by the simulator's GM counters)
    # carries: it does not make "never read its inputs".
    n_in = sum(
        tensorlist.n_elements(t)
        for k, n, t in binding
        if (k == "in" or (k == "inout" and not in_place_only))
        and n.lower() not in refs
        and (not host_reads_values or isinstance(t, tensorlist.TensorList) or tensorlist.n_bytes(t) > 32)
    )
    n_out = sum(tensorlist.n_elements(t) for k, _n, t in binding if k in ("out", "inout", "scratch"))
    # a ref/in-place output the op leaves as it was (ScatterList, every mask False) needs no write
    n_out = n_out if anticheat.must_write(_outputs_and_initial(binding, opdef)) else 0
    if anticheat.has_gm_figures(run.blocks):
        cheat, slow = anticheat.check_blocks(
            run.blocks, str(kernel), has_inputs=n_in > 0, has_outputs=n_out > 0
        )
        if slow is not None and not any(f.code == slow.code for f in findings):
            findings.append(slow)
    else:
        cheat = anticheat.check_run(run.estimate, str(kernel), has_inputs=n_in > 0)
    if (
        cheat is None
        and not anticheat.has_pipe_figures(run.estimate)
        and not anticheat.has_gm_figures(run.blocks)
        and not static_checked
    ):
        static_checked = True  # no per-pipe figures in this result: fall back to reading the sources
        cheat = anticheat.static_check(_kernel_sources_text(kernel), str(kernel))
    return cheat, static_checked


def compare_case(
    task: Task,
    case: Case,
    data: CaseData,
    run: Run,
    binding: list[tuple[str, str, Any]],
    raw: dict[str, Any],
    kernel: Path,
    cr: dict[str, Any],
    findings: list[Finding],
) -> Comparison | None:
    """The comparison of what the run wrote with the case's reference outputs, or None when the run wrote no output
    for some of them (``cr["status"]`` is then ``runtime_error``). The findings of the comparison are added: a
    custom check that failed (the default rule is used), NaN or inf a custom check let through, or the run's
    warnings and the comparison's finding for wrong numbers."""
    written = [(n, t.expected if k == "inout" else t) for k, n, t in binding if k in ("out", "inout")]
    order = {id(t): i for i, t in enumerate(data.outputs)}
    written.sort(key=lambda nt: order.get(id(nt[1]), len(order)))
    missing = [n for n, t in written if not tensorlist.written(run.outputs, n, t)]
    if missing:
        cr["status"] = "runtime_error"
        findings.append(
            _finding(
                "BENCH-OUTPUT",
                f"case {case.case_id}: the run wrote no output for {', '.join(missing)}",
                str(kernel),
                "runtime",
                source="akgen-run",
            )
        )
        return None
    # raw bfloat16 bits are decoded by the dtype each side holds: the kernel's output dtype may be the op's
    wrote = {a["name"]: a.get("dtype") for a in raw["args"] if "output" in a}
    dts = [
        "bfloat16" if wrote.get(n) == "bfloat16" else t.dtype
        for (n, _), t in zip(written, data.outputs, strict=False)
    ] + [t.dtype for t in data.outputs[len(written) :]]
    names = [t.name for t in data.outputs]
    custom: _Decided | None = None
    failed: ReferenceError_ | None = None
    raw_items: list[np.ndarray] | None = None
    if data.custom_check:
        raw_items = tensorlist.load_items(run.outputs, written)  # list outputs element by element
        call = _CustomCall(data.custom_check, raw_items)
        try:
            custom = _Decided(call(), call.last_stats)  # the task's check runs once
        except ReferenceError_ as exc:
            failed = exc
        if (
            custom is not None
            and custom.ok
            and custom.last_stats is not None
            and len(written) == len(data.outputs)
            and all(np.isfinite(v) for v in custom.last_stats)
        ):
            # the task's own check passed and measured finite errors: the outputs need no second reading
            return Comparison(True, max_abs=float(custom.last_stats[0]), max_rel=float(custom.last_stats[1]))
    raw_outs = _raw_outputs(run.outputs, written, raw_items)
    refs = [t.array for t in data.outputs]
    cmp = compare_outputs(refs, raw_outs, data.tolerance, names, custom, dtypes=dts)
    if failed is not None:
        findings.append(
            _finding(
                "BENCH-CUSTOM-CHECK",
                f"the task's custom_check_precision failed ({failed}); used the default rule",
                str(task.validation),
                "harness",
                severity=Severity.WARNING,
            )
        )
    if cmp.ok and custom is not None and not np.isfinite(cmp.max_abs):
        # the task's own check decides, and `abs_diff > tol` is False for NaN: say what it let through
        bad = _nonfinite_where_finite(refs, raw_outs, names, dts)
        if bad:
            what = ", ".join(f"{n}: {k} of {size}" for n, k, size in bad)
            findings.append(
                _finding(
                    "BENCH-NONFINITE-PASS",
                    f"case {case.case_id} passes the task's custom_check_precision, but the kernel's output is "
                    f"NaN or inf where the reference is finite ({what}); the check lets NaN through (a NaN "
                    "difference compares False). The simulator starts UB as all-ones bytes (NaN as a float), so "
                    "this usually means the kernel computes with UB it never wrote (padding a DataCopyPad "
                    "skips): on the NPU that UB holds whatever an earlier kernel left there",
                    str(kernel),
                    "precision",
                    source="akgen-run",
                    severity=Severity.WARNING,
                )
            )
    elif not cmp.ok:
        # the run's warnings may say why the numbers are wrong (SIM-OVERLAP: dst and src of Sigmoid overlap)
        seen = {(f.code, f.span.path, f.span.line) for f in findings}
        findings.extend(
            f
            for f in run.findings
            if f.severity is Severity.WARNING and (f.code, f.span.path, f.span.line) not in seen
        )
        findings.append(comparison_finding(cmp, str(kernel), f"case {case.case_id}", data.tolerance))
    return cmp

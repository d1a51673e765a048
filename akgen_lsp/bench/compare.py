"""Compare a kernel's outputs with the reference.

Default rule (NPUKernelBench): a case fails if any output or reference value is non-finite, or if any element has
abs diff > atol AND rel diff > rtol (rel = abs / (|ref| + 1e-7)), with atol = rtol = 1e-3, the differences computed in
the dtype torch promotes the reference and the output to (`check_dtype`), as framework/utils.py does. A task may set its own
`Tolerance` (``mode="both"`` as above with other numbers, or ``mode="scaled"``: fail if abs > rtol * max(1, |ref|),
NPUKernelBench's custom checks), or a `custom_check_precision` function that decides pass/fail itself; either way the
finding reports the max abs and rel error and the first bad element (flat and N-d index).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from akgen_lsp.findings import Finding, Severity, Span

REL_EPS = 1e-7


@dataclass(frozen=True)
class Tolerance:
    atol: float = 1e-3
    rtol: float = 1e-3
    mode: str = "both"  # both | scaled | exact

    def describe(self) -> str:
        if self.mode == "scaled":
            return f"|diff| <= {self.rtol:g} * max(1, |ref|)"
        if self.mode == "exact":
            return "exact equality"
        return f"abs diff <= {self.atol:g} or rel diff <= {self.rtol:g}"


@dataclass
class Comparison:
    ok: bool
    max_abs: float = 0.0
    max_rel: float = 0.0
    first_bad: int | None = None  # flat index in the output that failed
    first_bad_index: tuple[int, ...] | None = None
    output: int = 0  # which output
    output_name: str = ""
    expected: float | None = None
    actual: float | None = None
    bad_count: int = 0
    reason: str = ""
    part: str = ""  # "real" or "imag" for a complex output
    details: dict[str, Any] = field(default_factory=dict)
    custom: bool = (
        False  # the task's custom_check_precision decided pass/fail (the statistics are the default's)
    )

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "max_abs": _num(self.max_abs),
            "max_rel": _num(self.max_rel),
            "first_bad": self.first_bad,
            "first_bad_index": list(self.first_bad_index) if self.first_bad_index is not None else None,
            "output": self.output_name or self.output,
            "expected": _num(self.expected),
            "actual": _num(self.actual),
            "bad_count": self.bad_count,
            "reason": self.reason,
            "part": self.part or None,
        }


def _num(v: float | None) -> float | str | None:
    if v is None:
        return None
    if np.isfinite(v):
        return float(v)
    return str(v)


def as_float(a: np.ndarray, dtype: str | None = None) -> np.ndarray:
    """Outputs as float64 for comparison: bfloat16 (raw uint16 bits) widened, bools and ints cast."""
    arr = np.asarray(a)
    if dtype == "bfloat16" and arr.dtype == np.uint16:
        arr = (arr.astype(np.uint32) << 16).view(np.float32)
    if np.iscomplexobj(arr):
        return arr.astype(np.complex128)
    return arr.astype(np.float64)


def _all_finite_raw(a: np.ndarray, dtype: str | None) -> bool:
    """Whether every value of a raw chunk is finite, without widening it (bfloat16 as its uint16 bits). The 16-bit
    floats are tested on their bits (exponent not all ones: numpy's float16 arithmetic is emulated, 7x slower)."""
    if a.size == 0:
        return True
    if dtype == "bfloat16" and a.dtype == np.uint16:
        return bool((a & 0x7FFF).max() < 0x7F80)
    if a.dtype == np.float16:
        return bool((a.view(np.uint16) & 0x7FFF).max() < 0x7C00)
    if np.issubdtype(a.dtype, np.floating):
        return bool(np.isfinite(a).all())
    return True


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two chunks of one dtype hold the same bits (float16 compared as its uint16 bits: see above)."""
    if a.dtype == np.float16:
        return np.array_equal(a.view(np.uint16), b.view(np.uint16))
    return np.array_equal(a, b)


_FLOAT_RANK = {"float16": 1, "bfloat16": 1, "float32": 2, "float64": 3}


def check_dtype(ref_dtype: str, out_dtype: str) -> str | None:
    """The dtype NPUKernelBench's default check (framework/utils.py ``check_precision``) computes ``|ref - out|`` and
    ``abs / (|ref| + 1e-7)`` in: torch's promotion of the reference's and the output's dtypes (float16 with bfloat16
    is float32). None (float64 here) for integer, bool and complex outputs."""
    a, b = _FLOAT_RANK.get(ref_dtype), _FLOAT_RANK.get(out_dtype)
    if a is None or b is None:
        return None
    if ref_dtype == out_dtype:
        return ref_dtype
    return {1: "float32", 2: "float32", 3: "float64"}[max(a, b, 2)]


def _round_to(x: np.ndarray, dtype: str | None) -> np.ndarray:
    """float64 values rounded to `dtype` (nearest even; past the range: inf), kept as float64."""
    if dtype == "float16":
        return x.astype(np.float16).astype(np.float64)
    if dtype == "float32":
        return x.astype(np.float32).astype(np.float64)
    if dtype == "bfloat16":
        f = np.ascontiguousarray(x, dtype=np.float32)
        u = f.view(np.uint32).astype(np.uint64)
        r = (((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16).astype(np.uint32).view(np.float32)
        return np.where(np.isnan(f), f, r).astype(np.float64)
    return x


def _compare_one(
    ref: np.ndarray, out: np.ndarray, tol: Tolerance, compute: str | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """Per-element (abs diff, rel diff, bad) and the reason. In the default mode the pass/fail decision follows
    NPUKernelBench's check in the `compute` dtype (`check_dtype`): the differences rounded to it, and a relative
    error past its range (float16: above 65504, where the reference is 0 and the error above ~0.008) fails, as the
    original's isfinite(rel) check does. The returned diffs stay float64 for the report."""
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        abs_d = np.abs(ref - out)
        rel_d = abs_d / (np.abs(ref) + REL_EPS)
        nonfinite = ~np.isfinite(ref) | ~np.isfinite(out)
        if tol.mode == "scaled":
            bad = abs_d > tol.rtol * np.maximum(1.0, np.abs(ref))
        elif tol.mode == "exact":
            bad = abs_d > 0
        elif compute in ("float16", "bfloat16", "float32"):
            abs_c = _round_to(abs_d, compute)
            rel_c = _round_to(abs_c / _round_to(np.abs(ref) + REL_EPS, compute), compute)
            bad = ((abs_c > tol.atol) & (rel_c > tol.rtol)) | ~np.isfinite(abs_c) | ~np.isfinite(rel_c)
        else:
            bad = (abs_d > tol.atol) & (rel_d > tol.rtol)
    bad = bad | nonfinite
    reason = "non-finite value" if nonfinite.any() else ("out of tolerance" if bad.any() else "")
    return abs_d, rel_d, bad, reason


CHUNK = 1 << 22  # elements compared at a time: the float64 working set stays ~100 MB for any output size


def compare_outputs(
    refs: Sequence[np.ndarray],
    outs: Sequence[np.ndarray],
    tol: Tolerance | None = None,
    names: Sequence[str] = (),
    custom: Callable[[], bool] | None = None,
    dtypes: Sequence[str | None] = (),
) -> Comparison:
    """Compare every output. `custom`, when given, decides pass/fail (a task's custom_check_precision); when it
    passes and exposes ``custom.last_stats`` = (max abs, max rel) from its own pass, those are the statistics;
    otherwise they are computed here (a failing custom check gets the first bad element too). The arrays may be raw (bfloat16 as uint16 bits, named in `dtypes`)
    and memory-mapped: they are widened to float64 a chunk at a time, so a 1 GiB output needs no 8 GiB copy."""
    tol = tol or Tolerance()
    if len(refs) != len(outs):
        return Comparison(False, reason=f"the kernel produced {len(outs)} outputs, the reference {len(refs)}")
    custom_ok: bool | None = None
    if custom is not None:
        custom_ok = bool(custom())
        stats = getattr(custom, "last_stats", None)
        if custom_ok and stats is not None:
            # the task's own check passed and measured the errors: no second pass over the outputs
            return Comparison(True, max_abs=float(stats[0]), max_rel=float(stats[1]))
    result = Comparison(True)
    first: Comparison | None = None
    for i, (r0, o0) in enumerate(zip(refs, outs, strict=True)):
        name = names[i] if i < len(names) else f"output {i}"
        dt = dtypes[i] if i < len(dtypes) else None
        r_arr = np.asarray(r0)
        o_arr = np.asarray(o0)
        if r_arr.size != o_arr.size:
            return Comparison(
                False,
                output=i,
                output_name=name,
                reason=f"{name}: {o_arr.size} elements, the reference has {r_arr.size} "
                f"(shape {list(r_arr.shape)})",
            )
        shape = r_arr.shape
        r = r_arr.reshape(-1)
        o = o_arr.reshape(-1)
        is_complex = np.iscomplexobj(r) or np.iscomplexobj(o)
        bad_total = 0
        nonfinite = False
        hit: tuple[int, float, float, str] | None = None
        same_kind = r.dtype == o.dtype and not is_complex
        for s0 in range(0, max(r.size, 1), CHUNK):
            r_raw, o_raw = r[s0 : s0 + CHUNK], o[s0 : s0 + CHUNK]
            if same_kind and _same_bits(r_raw, o_raw) and _all_finite_raw(r_raw, dt):
                result.max_abs = _worst(result.max_abs, 0.0)  # bit-identical and finite: nothing to widen
                continue
            rc = as_float(r_raw, dt)
            oc = as_float(o_raw, dt)
            compute = None if is_complex else check_dtype(_dtype_name(r_raw, dt), _dtype_name(o_raw, dt))
            if is_complex:
                # complex: the real and the imaginary parts are compared as two numbers each, by the same rule
                rc = np.stack([np.real(rc), np.imag(rc)], axis=-1).astype(np.float64)
                oc = np.stack([np.real(oc), np.imag(oc)], axis=-1).astype(np.float64)
            abs_d, rel_d, bad, reason = _compare_one(rc, oc, tol, compute)
            if abs_d.size:
                result.max_abs = _worst(result.max_abs, float(np.max(abs_d)))
                result.max_rel = _worst(result.max_rel, float(np.max(rel_d)))
            nonfinite = nonfinite or reason == "non-finite value"
            bad_el = bad.any(axis=-1) if is_complex else bad
            n_bad = int(bad_el.sum())
            bad_total += n_bad
            if n_bad and hit is None:
                k = int(np.flatnonzero(bad_el)[0])
                if is_complex:
                    part = 0 if bad[k, 0] else 1
                    hit = (s0 + k, _scalar(rc[k, part]), _scalar(oc[k, part]), ("real", "imag")[part])
                else:
                    hit = (s0 + k, _scalar(rc[k]), _scalar(oc[k]), "")
        if hit is not None and first is None:
            flat, exp, act, part = hit
            idx = tuple(int(x) for x in np.unravel_index(flat, shape)) if shape else ()
            first = Comparison(
                False,
                first_bad=flat,
                first_bad_index=idx,
                output=i,
                output_name=name,
                expected=exp,
                actual=act,
                bad_count=bad_total,
                reason="non-finite value" if nonfinite else "out of tolerance",
                part=part,
            )
    ok = first is None if custom_ok is None else custom_ok
    result.ok = ok
    result.custom = custom_ok is not None
    if first is not None:
        result.first_bad, result.first_bad_index = first.first_bad, first.first_bad_index
        result.output, result.output_name = first.output, first.output_name
        result.expected, result.actual, result.bad_count, result.reason = (
            first.expected,
            first.actual,
            first.bad_count,
            first.reason,
        )
        result.part = first.part
    elif not ok:
        result.reason = "the task's custom precision check failed"
    return result


def _dtype_name(a: np.ndarray, dtype: str | None) -> str:
    """The dtype of a raw chunk: ``bfloat16`` for uint16 bits named so, else numpy's name."""
    return "bfloat16" if dtype == "bfloat16" and a.dtype == np.uint16 else str(a.dtype)


def _worst(a: float, b: float) -> float:
    """The larger of two errors, where NaN counts as the worst."""
    if np.isnan(a) or np.isnan(b):
        return float("nan")
    return max(a, b)


def _scalar(v: Any) -> float:
    return float(np.abs(v)) if np.iscomplexobj(v) else float(v)


def comparison_finding(cmp: Comparison, path: str, case_label: str, tol: Tolerance | None = None) -> Finding:
    """The `Finding` for a failed comparison (source akgen-run, error class precision)."""
    tol = tol or Tolerance()
    where = ""
    if cmp.first_bad is not None:
        idx = ", ".join(str(i) for i in (cmp.first_bad_index or ()))
        part = f" ({cmp.part} part)" if cmp.part else ""
        where = (
            f"; first bad element {cmp.output_name}[{idx}] (flat {cmp.first_bad}){part}: expected "
            f"{cmp.expected:.6g}, got {cmp.actual:.6g}; {cmp.bad_count} element(s) fail"
        )
        if cmp.custom:
            # the custom check names no elements: these are past the default tolerance, which may be stricter
            where = (
                f"; first element past the default tolerance (not the custom check's, which names none): "
                f"{cmp.output_name}[{idx}] (flat {cmp.first_bad}){part}: expected {cmp.expected:.6g}, got "
                f"{cmp.actual:.6g}; {cmp.bad_count} element(s) past it"
            )
    allowed = "as the task's custom_check_precision decides" if cmp.custom else tol.describe()
    msg = (
        f"wrong result for {case_label}: {cmp.reason or 'mismatch'}; max abs error {cmp.max_abs:.4g}, "
        f"max rel error {cmp.max_rel:.4g} (allowed: {allowed}){where}"
    )
    return Finding(
        code="BENCH-PRECISION",
        message=msg,
        span=Span.point(path, 1),
        severity=Severity.ERROR,
        source="akgen-run",
        error_class="precision",
        data={"case": case_label, **cmp.to_json()},
    )

"""The per-candidate pipeline: parse -> compile (timeout) -> run each case (host tiling first) -> compare ->
anti-cheat -> performance. One call, `evaluate`, returns a JSON-able record; nothing in here raises for a bad kernel.

Modes (NPUKernelBench):
- ``static``: each case is its own instance, scored on its own (task score = passed cases / cases). The tiling of
  the case comes from the candidate's op_host when it has one, else from the task's question/op_host, which only
  sets the block dim (a kernel-only candidate hard-codes its tiling and gets a zeroed tiling buffer).
- ``dynamic``: the candidate's op_host TilingFunc runs for every case on the simulator's host runner; a candidate
  without op_host is a parse error, and success needs every case.

Kernel arguments are mapped by position: the kernel's GM_ADDR parameters are the tensor inputs of
``get_inputs(case)``, then the reference outputs, then ``workspace`` and ``tiling`` when present. ``DTYPE_<NAME>``
macros come from the dtypes of the tensors bound to each parameter.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from akgen_lsp.ascendc.arch import ArchProfile, load_arch
from akgen_lsp.bench import anticheat, roofline, tensorlist
from akgen_lsp.bench.compare import as_float, compare_outputs, comparison_finding
from akgen_lsp.bench.extract import ExtractError, extract_answer
from akgen_lsp.bench.metrics import error_class_of, task_score
from akgen_lsp.bench.reference import CaseData, ReferenceError_, Skip, Tensor, load_case
from akgen_lsp.bench.signature import (
    OpDef,
    PybindCall,
    aclnn_optional_fills,
    dtype_defines,
    exec_api,
    opdef_column,
    opdef_for_host,
    pybind_for_task,
    scalar_inputs,
)
from akgen_lsp.bench.tasks import Case, Task
from akgen_lsp.findings import Finding, Severity, Span, finding_to_json

C_TYPES = {"float16": "half", "float32": "float", "bfloat16": "bfloat16_t", "int8": "int8_t", "uint8": "uint8_t",
           "int16": "int16_t", "uint16": "uint16_t", "int32": "int32_t", "uint32": "uint32_t", "int64": "int64_t",
           "uint64": "uint64_t", "bool": "bool", "float64": "double", "complex64": "complex64"}

NO_ANSWER = "no_answer"  # Candidate.origin of a task whose checkout has no reference answer
NO_ANSWER_REASON = "the checkout has no reference answer for this task"

_ENTRY = re.compile(r"__global__\s+(?:__aicore__\s+)?void\s+(\w+)\s*\(([^)]*)\)", re.DOTALL)


@dataclass
class Candidate:
    """One kernel to evaluate for one task: files on disk (a reference answer or a generated sample), or the raw text
    of a model answer (parsed by `extract_answer`)."""

    task_id: str
    sample: int = 0
    kernel: Path | None = None
    host_dir: Path | None = None  # a folder with <op>.cpp and its *_tiling.h
    text: str | None = None
    origin: str = "answer"

    @property
    def key(self) -> str:
        return f"{self.task_id}#{self.sample}"


@dataclass
class Settings:
    mode: str = "static"
    arch: str = "Ascend910B2"
    compile_timeout_s: float = 120.0
    run_timeout_s: float = 60.0
    max_cases: int | None = None
    case_ids: tuple[int, ...] | None = None
    work_dir: Path | None = None
    keep_work: bool = False
    block_dim: int | None = None  # launch size for a kernel without host tiling (default: every vector core)
    toolchain: str = "auto"  # sim | cann | auto (cann when ASCEND_HOME_PATH points at a CANN install)
    checks: str = "npu"  # the sim's check mode (setting sim.checks): npu or cpu-debug; see docs/sim.md "Check modes"


@dataclass
class Timings:
    parse: float = 0.0
    reference: float = 0.0
    compile: float = 0.0
    run: float = 0.0
    compare: float = 0.0
    total: float = 0.0

    @property
    def harness(self) -> float:
        """Time spent outside compile and run (the harness's own overhead)."""
        return max(0.0, self.total - self.compile - self.run)


def kernel_entry(source: str, op: str | None = None) -> tuple[str, list[str]] | None:
    """(name, parameter names) of the kernel entry: the one named `op`, else the only ``__global__`` function."""
    found = [(m.group(1), m.group(2)) for m in _ENTRY.finditer(source)]
    if not found:
        return None
    pick = next((f for f in found if op and f[0] == op), found[0] if len(found) == 1 or not op else found[-1])
    params = []
    for p in pick[1].split(","):
        p = p.strip()
        if not p:
            continue
        m = re.search(r"(\w+)\s*(?:\[\s*\])?$", p)
        params.append(m.group(1) if m else p)
    return pick[0], params


def _kernel_sources_text(kernel: Path) -> str:
    """The kernel file and the headers beside it (helpers often hold the data movement)."""
    parts = [kernel.read_text(encoding="utf-8", errors="replace")]
    for p in sorted(kernel.parent.iterdir()):
        if p != kernel and p.suffix in (".h", ".hpp", ".cpp", ".inc") and p.is_file():
            parts.append(p.read_text(encoding="utf-8", errors="replace"))
    return "\n".join(parts)


def _host_source(host_dir: Path, op: str) -> Path | None:
    """The op_host source to hand to the host runner: ``<op>.cpp``, else the file that registers the TilingFunc
    (``SetTiling``), else the OpDef's file; NPUKernelBench splits some hosts into ``<op>_def.cpp`` /
    ``<op>_tiling.cpp`` / ``<op>_proto.cpp`` (the runner builds the sibling sources too)."""
    direct = host_dir / f"{op}.cpp"
    if direct.is_file():
        return direct
    cpps = sorted(host_dir.glob("*.cpp")) if host_dir.is_dir() else []
    for marker in ("SetTiling", "OpDef", "TilingFunc"):
        for p in cpps:
            if marker in p.read_text(encoding="utf-8", errors="replace"):
                return p
    return cpps[0] if cpps else None


class _CustomCall:
    """A task's custom check bound to the kernel's outputs; `last_stats` carries its (max abs, max rel)."""

    def __init__(self, check: Any, outs: list[np.ndarray]) -> None:
        self.check, self.outs = check, outs
        self.last_stats: tuple[float, float] | None = None

    def __call__(self) -> bool:
        ok = bool(self.check(self.outs))
        self.last_stats = getattr(self.check, "last_stats", None)
        return ok


def _nonfinite_where_finite(refs: Sequence[Any], outs: Sequence[Any], names: Sequence[str],
                            dtypes: Sequence[str | None], chunk: int = 1 << 22) -> list[tuple[str, int, int]]:
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
            rc, oc = as_float(r[s0:s0 + chunk], dt), as_float(o[s0:s0 + chunk], dt)
            n += int(np.count_nonzero(np.isfinite(rc) & ~np.isfinite(oc)))
        if n:
            found.append((names[i] if i < len(names) else f"output {i}", n, int(r.size)))
    return found


def _remove_later(path: Path) -> None:
    """Delete a candidate's work folder on a background thread (not a daemon: the process waits for it at exit),
    so the record is returned without waiting for the file system."""
    threading.Thread(target=shutil.rmtree, args=(path,), kwargs={"ignore_errors": True},
                     name="akgen-bench-cleanup").start()


def _finding(code: str, message: str, path: str, error_class: str, source: str = "akgen-bench",
             severity: Severity = Severity.ERROR) -> Finding:
    return Finding(code=code, message=message, span=Span.point(path, 1), severity=severity, source=source,
                   error_class=error_class)


@dataclass
class _Prepared:
    kernel: Path
    host: Path | None
    entry: str
    params: list[str]
    work: Path


def _prepare(task: Task, cand: Candidate, settings: Settings, work: Path) -> _Prepared | Finding:
    host_dir = cand.host_dir
    if cand.text is not None:
        try:
            ex = extract_answer(cand.text, task.op)
        except ExtractError as exc:
            return _finding("BENCH-PARSE", str(exc), f"{task.id}#{cand.sample}", "parse")
        kdir = work / "op_kernel"
        kdir.mkdir(parents=True, exist_ok=True)
        kernel = kdir / f"{task.op}.cpp"
        kernel.write_text(ex.kernel + "\n", encoding="utf-8")
        if ex.host:
            hdir = work / "op_host"
            hdir.mkdir(parents=True, exist_ok=True)
            (hdir / f"{task.op}.cpp").write_text(ex.host + "\n", encoding="utf-8")
            if ex.tiling_header:
                (hdir / f"{task.op}_tiling.h").write_text(ex.tiling_header + "\n", encoding="utf-8")
                shutil.copy(hdir / f"{task.op}_tiling.h", kdir / f"{task.op}_tiling.h")
            host_dir = hdir
    else:
        if cand.kernel is None or not cand.kernel.is_file():
            return _finding("BENCH-PARSE", f"no kernel file for {task.id} sample {cand.sample}: expected "
                            f"op_kernel/{task.op}.cpp", str(cand.kernel or task.root), "parse")
        kernel = cand.kernel
    source = kernel.read_text(encoding="utf-8", errors="replace")
    entry = kernel_entry(source, task.op)
    if entry is None:
        return _finding("BENCH-ENTRY", f"no kernel entry (`extern \"C\" __global__ __aicore__ void {task.op}(...)`) "
                        "in the candidate", str(kernel), "parse")
    host = _host_source(host_dir, task.op) if host_dir is not None else None
    if host is None and settings.mode == "dynamic":
        return _finding("BENCH-NO-HOST", f"dynamic mode needs the candidate's host tiling (op_host/{task.op}.cpp and "
                        "its tiling header); run with --mode static for a kernel-only candidate", str(kernel),
                        "parse")
    if host is None and task.question_host.is_file():
        host = task.question_host
    return _Prepared(kernel, host, entry[0], entry[1], work)


def _tail(params: list[str], n_t: int) -> list[str] | None:
    """The parameters after the `n_t` tensors (workspace, tiling); None when the counts cannot fit."""
    if len(params) >= n_t + 2 or len(params) == n_t + 1:
        return params[n_t:]
    return [] if len(params) == n_t else None


def _fits(params: list[str], plan: Sequence[Any]) -> bool:
    """Whether `plan`'s tensors leave only workspace and tiling (at most two parameters) of the kernel unbound."""
    tail = _tail(params, len(plan))
    return tail is not None and len(tail) <= 2


def _scalar_value(arr: np.ndarray) -> Any:
    flat = np.asarray(arr).reshape(-1)
    return flat[0].item() if flat.size == 1 else flat.tolist()


def _plan_pybind(data: CaseData, call: PybindCall, opdef: OpDef | None = None) -> list[tuple[str, Tensor]] | None:
    """The op's tensors in order from the task's pybind.cpp: (kind, tensor), kind in/inout/out/scratch. Scalar
    parameters the task passes as 1-element tensors become attributes (under the pybind name). An op output the
    reference does not return (AddRmsNormQuant returns y1 of y1, y2, x) is a ``scratch`` output: allocated (shape of
    the tensor it is ``empty_like`` of, dtype from the OpDef) and not compared. None when the call does not match the
    case's values (the positional rule applies then)."""
    by_pos = {t.index: t for t in data.inputs}
    for i, p in enumerate(call.params):
        # an absent optional tensor (None): no tensor for the op (aclnn passes nullptr; the TilingFunc's
        # GetOptionalInputShape answers nullptr), unless the task's own aclnn fills it (LayerNorm's weight of ones)
        if p.is_tensor and i not in by_pos and i < data.n_raw and data.attrs.get(f"in{i}", 0) is None:
            by_pos[i] = _filled_optional(p.name, i, call, by_pos, data) or \
                Tensor(p.name, np.zeros(0, np.float32), "float32", index=i, absent=True)
    plan = call.kernel_tensors()
    if any(k == "array" for _, k, _ in plan):
        plan = _arrays_as_inputs(plan, by_pos, data, opdef)
        if plan is None:
            return None
    outs = [n for n, k, _ in plan if k in ("out", "inout")]
    if len(outs) < len(data.outputs) or not data.outputs or any(k != "out" and pos not in by_pos
                                                                 for _, k, pos in plan):
        return None
    # an if/else on a bool parameter may pick what comes back (AddLayerNorm's additionalOut: {xOut, yOut} or {yOut})
    flags = {p.name: data.attrs.get(f"in{i}", data.attrs.get(p.name)) for i, p in enumerate(call.params)
             if not p.is_tensor}
    returned = [r for r in call.returned_for(flags) if r in outs]
    hints: dict[str, Tensor] = {}
    if call.conditional:
        # the call returns the conditional outputs only when their flag is set (CrossEntropyLoss's zloss and
        # lse_for_zloss under returnZloss); NPUKernelBench compares the reference's outputs with the returned ones
        # pairwise (zip), so the reference outputs past the returned ones are not compared: those outputs are scratch
        for cond, name in call.conditional:
            pos = call.position(cond)
            if name in outs and pos is not None and bool(data.attrs.get(f"in{pos}", False)):
                returned.append(name)
        if returned and len(returned) < len(data.outputs):
            # an output not returned keeps its reference's shape (lse_for_zloss is (batch,)) as a scratch buffer
            hints = dict(zip([o for o in outs if o not in returned], data.outputs[len(returned):], strict=False))
            data.outputs = data.outputs[: len(returned)]
    ref_for: dict[str, Tensor] = {}
    if len(returned) == len(data.outputs):
        ref_for = dict(zip(returned, data.outputs, strict=True))
    else:
        ref_for = dict(zip(outs, data.outputs, strict=False))
    out: list[tuple[str, Tensor]] = []
    for name, kind, pos in plan:
        if kind == "out" and name not in ref_for:
            out.append(("scratch", _scratch(name, call, by_pos, data, opdef, _opdef_output_index(name, plan, opdef, outs), hints.get(name))))
            continue
        t = ref_for[name] if kind == "out" else by_pos[pos]  # type: ignore[index]
        if kind == "inout":
            t.expected = ref_for.get(name)
            if t.expected is None:
                kind = "in"
        out.append((kind, t))
    for i, p in enumerate(call.params):
        if not p.is_tensor and i in by_pos:
            data.attrs[p.name] = _scalar_value(by_pos[i].array)
        elif i not in by_pos and f"in{i}" in data.attrs:
            data.attrs.setdefault(p.name, data.attrs[f"in{i}"])
    if opdef is not None and opdef.attrs:
        # aclnn passes the op's attributes by position: the k-th attribute argument of the call is the OpDef's
        # k-th Attr, whatever the pybind calls it (DeepNorm's alphaOptional is `alpha`)
        def fold(n: str) -> str:
            return n.replace("_", "").lower()

        tensors = {fold(n) for n in opdef.names}
        args = [a for a in call.attr_args() if fold(a) not in tensors]
        by_name = {fold(a) for a in opdef.attrs}
        named = {fold(a) for a in args} & by_name
        for name, attr in zip(args, opdef.attrs, strict=False):
            # an argument whose name is an attribute's is matched by name (by the host runner); positionally only
            # one that names none, onto an attribute no argument names
            if fold(name) in by_name or fold(attr) in named:
                continue
            if name in data.attrs and data.attrs[name] is not None:
                data.attrs[attr] = data.attrs[name]
    return out


def _filled_optional(name: str, pos: int, call: PybindCall, by_pos: dict[int, Tensor], data: CaseData
                     ) -> Tensor | None:
    """The tensor the task's own aclnn function makes for an absent optional input (`signature.OptionalFill`:
    LayerNorm's weight of ones shaped like normalized_shape, in the bias's dtype, else the input's); None when it
    makes none or the case lacks the shape."""
    fill = call.fills.get(name)
    if fill is None:
        return None
    shape_pos = call.position(fill.shape_arg)
    shape = data.attrs.get(f"in{shape_pos}", data.attrs.get(fill.shape_arg)) if shape_pos is not None else None
    if isinstance(shape, int):
        shape = [shape]
    if not isinstance(shape, (list, tuple)) or not all(isinstance(d, int) and d >= 0 for d in shape):
        return None
    dtype = None
    for arg in fill.dtype_args:
        p = call.position(arg)
        t = by_pos.get(p) if p is not None else None
        if t is not None and not t.absent:
            dtype = t.dtype
            break
    if dtype is None or dtype not in C_TYPES:
        return None
    values = np.full(tuple(shape), fill.value, dtype=np.float32)
    return Tensor(name, _as_dtype(values, dtype), dtype, index=pos)


def _arrays_as_inputs(plan: list[tuple[str, str, int | None]], by_pos: dict[int, Tensor], data: CaseData,
                      opdef: OpDef | None) -> list[tuple[str, str, int | None]] | None:
    """An int list the pybind converts to an aclIntArray (LayerNormV4's ``normalized_shape``) reaches the op as the
    value-depend input at its place: a 1-D tensor of the OpDef input's dtype holding the values (its data is what
    the TilingFunc reads). None when the OpDef does not say which dtype, or the case has no such list."""
    if opdef is None:
        return None
    ins = [(n, k, pos) for n, k, pos in plan if k in ("in", "inout", "array")]
    if len(ins) != len(opdef.inputs):
        # the lists are attributes of the op (ExpandV2's ``shape``), not inputs
        plain = [e for e in plan if e[1] != "array"]
        return plain if len(ins) - (len(plan) - len(plain)) == len(opdef.inputs) else None
    bound = {p.name: by_pos[pos].dtype for p, (_, k, pos) in zip(opdef.inputs, ins, strict=True)
             if k != "array" and pos in by_pos}
    col = opdef_column(opdef, bound)
    out: list[tuple[str, str, int | None]] = []
    for name, kind, pos in plan:
        if kind != "array":
            out.append((name, kind, pos))
            continue
        p = opdef.inputs[[e[0] for e in ins].index(name)]
        dt = p.dtypes[col] if col is not None and col < len(p.dtypes) else ""
        value = data.attrs.get(f"in{pos}", data.attrs.get(name))
        if pos is None or not dt or dt not in ("int32", "int64", "uint32", "uint64") or value is None:
            return None
        try:
            arr = np.ascontiguousarray(np.asarray(value, dtype=dt).reshape(-1))
        except (TypeError, ValueError):
            return None
        by_pos[pos] = Tensor(p.name, arr, dt, index=pos)
        out.append((name, "in", pos))
    return out


def _opdef_output_index(name: str, plan: Sequence[tuple[str, str, int | None]], opdef: OpDef | None,
                        outs: list[str]) -> int:
    """Which OpDef output the call's local output `name` is: aclnn takes the outputs in the OpDef's order, less the
    ref outputs (named like an input: the input's own tensor), so the call's k-th local output is the k-th of the
    others (InplaceAddLayerNorm's meanOut, rstdOut: mean, rstd after x1). Its place among the call's outputs when
    the counts differ."""
    local = [n for n, k, _ in plan if k == "out"]
    if opdef is not None and name in local:
        in_names = {p.name for p in opdef.inputs}
        own = [j for j, p in enumerate(opdef.outputs) if p.name not in in_names]
        if len(own) == len(local):
            return own[local.index(name)]
    return outs.index(name)


def _scratch(name: str, call: PybindCall, by_pos: dict[int, Tensor], data: CaseData, opdef: OpDef | None,
             k: int, hint: Tensor | None = None) -> Tensor:
    like_pos = call.position(call.likes.get(name, ""))
    like = by_pos.get(like_pos) if like_pos is not None else hint
    shape = like.array.shape if like is not None else data.outputs[0].array.shape
    dtype = like.dtype if like is not None else data.outputs[0].dtype
    if opdef is not None and k < len(opdef.outputs):
        bound = {opdef.inputs[t.index].name: t.dtype for t in by_pos.values() if 0 <= t.index < len(opdef.inputs)}
        col = opdef_column(opdef, bound)
        if col is not None and col < len(opdef.outputs[k].dtypes) and opdef.outputs[k].dtypes[col]:
            dtype = opdef.outputs[k].dtypes[col]
    store = "uint16" if dtype == "bfloat16" else dtype
    t = Tensor(name, np.zeros(shape, dtype=store), dtype)
    if like is None:
        # nothing sizes it (AddLayerNorm's mean: the pybind computes its shape): the op's InferShape decides, once the
        # case's manifest is known (`_size_by_infershape`); the first reference's shape stands until then
        t.guessed_shape = True  # type: ignore[attr-defined]
    return t


def _size_by_infershape(binding: list[tuple[str, str, Any]], manifest: Any) -> bool:
    """Give each scratch output that nothing sized (`_scratch`) the shape the op's own InferShape gives for the
    case's inputs and attributes, as CANN's aclnn allocates it (AddLayerNorm's mean and rstd: (rows, 1), not x's
    shape). True when a shape changed (the manifest is then written again); False, changing nothing, when the op has
    no host source or no InferShape that answers."""
    guessed = [t for k, _n, t in binding if k == "scratch" and getattr(t, "guessed_shape", False)]
    spec_t = manifest.tiling
    if not guessed or spec_t is None or spec_t.host is None:
        return False
    from akgen_lsp.sim.host import infer_outputs

    ins, outs = manifest.host_io()
    inferred = infer_outputs(spec_t.host, ins, outs, dict(spec_t.attrs), spec_t.op, values=manifest.host_values(),
                             absent=manifest.absent_inputs())
    if inferred is None or len(inferred) != len(outs):
        return False
    names = [o[0] for o in outs]
    changed = False
    for t in guessed:
        shape = inferred[names.index(t.name)][0] if t.name in names else None
        if shape is not None and tuple(shape) != t.array.shape:
            t.array = np.zeros(shape, dtype=t.array.dtype)
            changed = True
        t.guessed_shape = False  # type: ignore[attr-defined]
    return changed


def _plan_opdef(data: CaseData, opdef: OpDef, kernel_params: list[str]) -> list[tuple[str, Tensor]] | None:
    """The op's tensors from the OpDef, when the kernel's parameters are the OpDef's inputs and outputs (by name)
    and the task's values fill its inputs in order: a list or number at an input's position (``dims`` of Fill) is
    passed as a tensor of the OpDef's dtype, as the generated aclnn API does for a value-depend input, and an
    input the task does not pass (GeluGrad's ``y``) gets an empty GM buffer (a kernel that reads it fails)."""
    names = [n.lower() for n in opdef.names]
    if [k.lower() for k in kernel_params[: len(names)]] != names or len(kernel_params) > len(names) + 2:
        return None
    if data.n_raw > len(opdef.inputs) or len(data.outputs) != len(opdef.outputs):
        return None
    if len(data.inputs) == data.n_raw == len(opdef.inputs):
        return None  # every input already a tensor: the positional rule is the same
    by_pos = {t.index: t for t in data.inputs}
    bound = {opdef.inputs[t.index].name: t.dtype for t in data.inputs if 0 <= t.index < len(opdef.inputs)}
    col = opdef_column(opdef, bound)
    out: list[tuple[str, Tensor]] = []
    for i, p in enumerate(opdef.inputs):
        if i in by_pos:
            out.append(("in", by_pos[i]))
            continue
        dt = p.dtypes[col] if col is not None and col < len(p.dtypes) and p.dtypes[col] else None
        value = data.attrs.get(f"in{i}") if i < data.n_raw else []
        if dt is None or value is None or (dt == "bfloat16" and value != []):
            return None
        try:
            arr = np.ascontiguousarray(np.asarray(value, dtype="uint16" if dt == "bfloat16" else dt).reshape(-1))
        except (TypeError, ValueError):
            return None
        out.append(("in", Tensor(p.name, arr, dt, index=i)))
    out.extend(("out", t) for t in data.outputs)
    return out


def _with_ref_outputs(plan: list[tuple[str, Any]], opdef: OpDef | None, params: list[str]
                      ) -> list[tuple[str, Any]] | None:
    """A pybind plan completed with the op's ref outputs, or None. An OpDef output named like an input
    (InplaceAddLayerNorm's x1 and x2) is that input's own buffer on CANN: the aclnn call takes the tensor once (the
    pybind passes x1, returns x1) and the kernel gets its address twice, as the input and as the output. So the plan's
    inputs come first, then the OpDef outputs in order: a ref output is the reference output its input was returned
    as (`inout`), or a scratch copy of the input when the call does not return it; the other outputs are the
    pybind's own, in order."""
    if opdef is None or any(isinstance(t, tensorlist.TensorList) for _, t in plan):
        return None
    in_names = [p.name for p in opdef.inputs]
    ref = [p.name in in_names for p in opdef.outputs]
    ins = [(k, t) for k, t in plan if k in ("in", "inout")]
    outs = [(k, t) for k, t in plan if k in ("out", "scratch")]
    if not any(ref) or len(ins) != len(in_names) or len(outs) != ref.count(False):
        return None
    new: list[tuple[str, Any]] = [("in", t) for _, t in ins]
    rest = iter(outs)
    for p, is_ref in zip(opdef.outputs, ref, strict=True):
        if not is_ref:
            new.append(next(rest))
            continue
        kind, src = ins[in_names.index(p.name)]
        if kind == "inout" and src.expected is not None:
            new.append(("out", src.expected))  # starts with the input's values (`_ref_outputs`)
        else:
            new.append(("scratch", Tensor(p.name, np.array(src.array, copy=True), src.dtype)))
    return new if _fits(params, new) else None


def _call_data(data: CaseData) -> CaseData | None:
    """The case as ModelNew calls the op (see reference.CaseData.call_view), or None."""
    if data.call_view is None:
        return None
    inputs, attrs, n = data.call_view
    kept = {k: v for k, v in data.attrs.items() if k.startswith("init")}
    return dataclasses.replace(data, inputs=list(inputs), attrs={**kept, **attrs}, n_raw=n, call_view=None)


def _use_view(data: CaseData, view: CaseData) -> None:
    data.inputs, data.attrs, data.n_raw, data.outputs = view.inputs, view.attrs, view.n_raw, view.outputs


def _converted_by_model(data: CaseData, view: CaseData) -> bool:
    """Whether ModelNew hands the op the same arguments as get_inputs (same count, tensors at the same positions)
    but converted: another dtype (StridesliceNegConcatV2's ``input.to(torch.float16)``), another shape or other
    values. NPUKernelBench's test calls ModelNew, so the op gets the converted tensors; get_inputs' are only the
    model's input."""
    if view.n_raw != data.n_raw:
        return False
    mine = {t.index: t for t in data.inputs}
    theirs = {t.index: t for t in view.inputs}
    if set(mine) != set(theirs) or not mine or any(not isinstance(getattr(t, "array", None), np.ndarray)
                                                   for t in [*mine.values(), *theirs.values()]):
        return False
    for i, t in mine.items():
        v = theirs[i]
        if t.dtype != v.dtype or t.array.shape != v.array.shape:
            return True
        if not np.shares_memory(t.array, v.array) and not np.array_equal(t.array, v.array, equal_nan=
                                                                          t.array.dtype.kind in "fc"):
            return True
    return False


def _scalars_in_op_dtype(plan: list[tuple[str, Any]], call: PybindCall, opdef: OpDef) -> None:
    """A tensor the pybind hands to aclnn as a scalar (Muls's float64 ``value``) reaches the op's value-depend
    input in that input's dtype: the OpDef column the other inputs pick (aclnn converts the scalar)."""
    ins = [t for k, t in plan if k in ("in", "inout") and isinstance(t, Tensor)]
    if len(ins) != len(opdef.inputs):
        return
    scalar = [0 <= t.index < len(call.params) and call.params[t.index].name in call.scalars for t in ins]
    bound = {p.name: t.dtype for p, t, sc in zip(opdef.inputs, ins, scalar, strict=True) if not sc}
    column = opdef_column(opdef, bound) if bound else None
    if column is None:
        return
    for p, t, sc in zip(opdef.inputs, ins, scalar, strict=True):
        want = p.dtypes[column] if column < len(p.dtypes) else ""
        if sc and want and want != t.dtype and want in C_TYPES:
            t.array = _as_dtype(as_float(t.array, t.dtype), want)
            t.dtype = want


def _as_dtype(values: np.ndarray, dtype: str) -> np.ndarray:
    """float64 values in `dtype` (bfloat16 as raw uint16 bits, rounded to nearest even)."""
    if dtype == "bfloat16":
        bits = values.astype(np.float32).view(np.uint32)
        return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    return values.astype(dtype)


def _bind(prep: _Prepared, data: CaseData, opdef: OpDef | None = None, call: PybindCall | None = None
          ) -> tuple[list[tuple[str, str, Any]], str | None]:
    """Map kernel parameters to ('in'|'inout'|'out'|'workspace'|'tiling', name, tensor). The task's pybind.cpp
    decides the op's tensors when it has one, else the OpDef (value-depend inputs), else position: the tensor
    inputs of get_inputs, then the reference outputs. An in/out tensor carries its reference in ``.expected``."""
    params = list(prep.params)
    view = _call_data(data)
    if view is not None and _converted_by_model(data, view):
        data.inputs = view.inputs  # what the op really gets; the attributes and outputs stay get_inputs'
    # A pybind plan that leaves kernel parameters over (ref outputs such as var_ref share their input's buffer on
    # CANN) is not used: the rules below bind those.
    plan = _plan_pybind(data, call, opdef) if call is not None else None
    if plan is not None and not _fits(params, plan):
        plan = _with_ref_outputs(plan, opdef, params)
    if plan is None and call is not None and view is not None:
        plan = _plan_pybind(view, call, opdef)
        if plan is not None and not _fits(params, plan):
            plan = _with_ref_outputs(plan, opdef, params)
        if plan is not None:
            _use_view(data, view)
    if plan is None and opdef is not None:
        plan = _plan_opdef(data, opdef, params)
    if plan is None:
        plan = [("in", t) for t in data.inputs] + [("out", t) for t in data.outputs]
        plan = tensorlist.fit_plan(data, plan, len(params), Tensor, opdef) or plan  # lists: scalars, in place
        tail0 = _tail(params, len(plan))
        if (tail0 is None or len(tail0) > 2) and view is not None:
            # the get_inputs view leaves kernel parameters unbound: the op call's view may fill them exactly
            alt = [("in", t) for t in view.inputs] + [("out", t) for t in view.outputs]
            alt_tail = _tail(params, len(alt))
            if alt_tail is not None and len(alt_tail) <= 2:
                plan = alt
                _use_view(data, view)
    if call is not None and opdef is not None and call.scalars:
        _scalars_in_op_dtype(plan, call, opdef)
    tail = _tail(params, len(plan))
    if tail is None:
        n_in = sum(1 for k, _ in plan if k in ("in", "inout"))
        n_out = sum(1 for k, _ in plan if k in ("out", "inout"))
        return [], (f"the kernel {prep.entry} has {len(params)} parameters; the task passes {n_in} tensor input(s) "
                    f"and {n_out} output(s) (+ workspace, tiling): cannot map them")
    out: list[tuple[str, str, Any]] = []
    for i, (kind, t) in enumerate(plan):
        t.name = params[i]
        if kind == "inout" and t.expected is not None:
            t.expected.name = params[i]
        out.append((kind, params[i], t))
    for k, name in enumerate(tail):
        kind = "tiling" if (k == len(tail) - 1 and ("tiling" in name.lower() or len(tail) >= 2)) else "workspace"
        out.append((kind, name, None))
    return out, None


def _defines(binding: list[tuple[str, str, Any]], opdef: OpDef | None = None) -> dict[str, str]:
    """DTYPE_<NAME> / ORIG_DTYPE_<NAME>: for every OpDef input and output (its dtype from the OpDef column that
    matches the call's tensors, as CANN does), and for every bound kernel parameter."""
    d: dict[str, str] = {}
    # an absent optional input has no dtype of its own: the OpDef column the other tensors pick gives its DTYPE_
    tensors = [(name, t) for kind, name, t in binding if kind in ("in", "inout", "out", "scratch") and t is not None
               and not getattr(t, "absent", False)]
    if opdef is not None:
        names = opdef.names
        by_name = {n.lower(): n for n in names}
        bound: dict[str, str] = {}
        passed = {name for kind, name, t in binding if kind in ("in", "inout")}
        for i, (name, t) in enumerate(tensors):
            key = by_name.get(name.lower()) or (names[i] if len(tensors) == len(names) else None)
            if key:
                bound[key] = t.dtype
        # the column that also fits the reference outputs' dtypes (Cast: y picks it); else the passed tensors
        # alone pick it: an output's reference dtype is then the task Model's (torch.eq(...).to(int)), not the op's
        if opdef_column(opdef, bound) is None and passed:
            by_param = {(by_name.get(n.lower()) or (names[i] if len(tensors) == len(names) else None)): n
                        for i, (n, _) in enumerate(tensors)}
            bound = {k: v for k, v in bound.items() if by_param.get(k) in passed}
        d.update(dtype_defines(opdef, bound, C_TYPES))
    for name, t in tensors:
        ctype = C_TYPES.get(t.dtype)
        if ctype:
            d.setdefault(f"DTYPE_{name.upper()}", ctype)
            d.setdefault(f"ORIG_DTYPE_{name.upper()}", ctype)
    first = C_TYPES.get(tensors[0][1].dtype) if tensors else None
    for _, name, t in binding:
        if getattr(t, "absent", False) and first:  # no OpDef column says: the first tensor's dtype
            d.setdefault(f"DTYPE_{name.upper()}", first)
            d.setdefault(f"ORIG_DTYPE_{name.upper()}", first)
    return d


def _manifest(prep: _Prepared, binding: list[tuple[str, str, Any]], attrs: dict[str, Any], op_name: str,
              arch: ArchProfile, settings: Settings, case_dir: Path, opdef: OpDef | None = None) -> dict[str, Any]:
    """The sim manifest of one case. With an op_host source, the simulator runs its TilingFunc for the case's
    shapes, dtypes and attributes (block dim, tiling key, workspace and tiling bytes); without one (a kernel-only
    candidate whose task has no host), the kernel runs on every vector core with an empty tiling."""
    args: list[dict[str, Any]] = []
    defines = _defines(binding, opdef)
    ref_of = _ref_outputs(binding, opdef)
    for kind, name, t in binding:
        if isinstance(t, tensorlist.TensorList):
            args.append(tensorlist.manifest_arg(kind, name, t, case_dir, ref_of.get(name)))
        elif kind in ("in", "inout"):
            p = case_dir / f"{name}.npy"
            np.save(p, t.array)
            args.append({"name": name, "input": str(p), "dtype": t.dtype})
            if getattr(t, "absent", False):
                args[-1]["absent"] = True  # the TilingFunc sees no tensor there
            if kind == "inout":
                args[-1]["output"] = str(case_dir / f"{name}.out.npy")
        elif kind in ("out", "scratch"):
            args.append({"name": name, "output": str(case_dir / f"{name}.out.npy"),
                         "dtype": _op_output_dtype(kind, name, t.dtype, opdef, defines, binding),
                         "shape": [int(d) for d in t.array.shape]})
            if name in ref_of:
                args[-1]["init"] = str(case_dir / f"{ref_of[name]}.npy")
        elif kind == "workspace":
            args.append({"name": name, "workspace_bytes": 0})
        elif prep.host is not None:
            args.append({"name": name, "tiling": {"host": str(prep.host), "attrs": _json_attrs(attrs),
                                                  "op": op_name}})
        else:
            # No host: the kernel gets a zeroed tiling buffer (a kernel-only candidate hard-codes its tiling).
            args.append({"name": name, "workspace_bytes": 64})
    raw: dict[str, Any] = {"sources": [str(prep.kernel)], "kernel": prep.entry, "arch": arch.name,
                           "defines": defines, "args": args, "timeout_s": settings.run_timeout_s,
                           "checks": settings.checks}
    if prep.host is None or not any(k == "tiling" for k, _, _ in binding):
        raw["block_dim"] = int(settings.block_dim or arch.aiv_cores)
    return raw


def _ref_outputs(binding: list[tuple[str, str, Any]], opdef: OpDef | None) -> dict[str, str]:
    """Output parameter -> the input parameter whose buffer it is. An OpDef output named like an input
    (StridedSliceAssignV2's ``var``) is a ref: CANN's aclnn API takes one tensor for both (``varRef``) and the kernel
    gets its address twice, so the output starts with the input's values and the kernel writes only what it
    changes. Mapped by position when the kernel's tensors are the OpDef's inputs then outputs; only a plain input of
    the output's dtype and size qualifies."""
    if opdef is None:
        return {}
    tensors = [(k, n, t) for k, n, t in binding if k in ("in", "inout", "out", "scratch") and t is not None]
    names = opdef.names
    if len(tensors) != len(names):
        return {}
    in_names = [p.name for p in opdef.inputs]
    out: dict[str, str] = {}
    for j in range(len(in_names), len(names)):
        kind, name, t = tensors[j]
        if kind not in ("out", "scratch") or names[j] not in in_names:  # a scratch ref too (not returned)
            continue
        k_in, n_in, t_in = tensors[in_names.index(names[j])]
        if k_in != "in":
            continue
        if (isinstance(t_in, Tensor) and isinstance(t, Tensor) and t_in.dtype == t.dtype
                and t_in.array.nbytes == t.array.nbytes):
            out[name] = n_in
        elif (isinstance(t_in, tensorlist.TensorList) and isinstance(t, tensorlist.TensorList)
              and len(t_in.items) == len(t.items)
              and all(a.dtype == b.dtype and a.array.nbytes == b.array.nbytes
                      for a, b in zip(t_in.items, t.items, strict=True))):
            out[name] = n_in  # a ref list (ScatterList's var): element k starts with input element k
    return out


def _outputs_and_initial(binding: list[tuple[str, str, Any]], opdef: OpDef | None) -> list[tuple[Any, Any]]:
    """(expected, initial content) of each output the kernel writes: a ref output starts with its input's values, an
    inout argument with its own input values, a plain output or scratch buffer with nothing (None)."""
    ref_of = _ref_outputs(binding, opdef)
    by_name = {n: t for _k, n, t in binding}
    out: list[tuple[Any, Any]] = []
    for kind, name, t in binding:
        if kind == "out":
            init = by_name.get(ref_of[name]) if name in ref_of else None
            out.append((t.array, None if init is None else init.array))
        elif kind == "inout":
            out.append((t.expected.array, t.array) if t.expected is not None else (t.array, None))
        elif kind == "scratch":
            out.append((t.array, None))
    return out


def _op_output_dtype(kind: str, name: str, ref_dtype: str, opdef: OpDef | None, defines: dict[str, str],
                     binding: list[tuple[str, str, Any]]) -> str:
    """The dtype the kernel writes an output in: the op's (the OpDef column CANN picks for the call, as in
    DTYPE_<NAME>), which can differ from the reference result's: Equal/IsFinite/IsInf write bool where the task's
    Model returns ``.to(int)`` / ``.to(x.dtype)``, Muls writes x's dtype where ``x * value`` promotes to float64. The
    comparison widens both to float64, as the task's check does after its pybind converts. The kernel parameter is
    the OpDef parameter of the same name, else of the same position (as in `_defines`)."""
    if kind != "out" or opdef is None:
        return ref_dtype
    names = opdef.names
    tensors = [n for k, n, t in binding if k in ("in", "inout", "out", "scratch") and t is not None]
    key = {n.lower(): n for n in names}.get(name.lower())
    if key is None and len(tensors) == len(names) and name in tensors:
        key = names[tensors.index(name)]
    by_ctype = {c: d for d, c in C_TYPES.items()}
    return by_ctype.get(defines.get(f"DTYPE_{(key or name).upper()}", ""), ref_dtype)


def _host_reads_values(host: Path | None) -> bool:
    """Whether the op_host sources read an input's data (``GetInputTensor(i)`` / ``GetOptionalInputTensor``)."""
    if host is None:
        return False
    for f in [host, *sorted(host.parent.glob("*.cpp")), *sorted(host.parent.glob("*.cc"))]:
        try:
            if re.search(r"\bGet(?:Optional|Dynamic)?InputTensor\s*\(", f.read_text(encoding="utf-8",
                                                                                 errors="replace")):
                return True
        except OSError:
            continue
    return False


def _op_def_name(host: Path | None, default: str) -> str:
    """The OpDef registered by the op_host source (``OP_ADD(Name)``); the task's name when there is none."""
    if host is None:
        return default
    m = re.search(r"OP_ADD\s*\(\s*(\w+)", host.read_text(encoding="utf-8", errors="replace"))
    return m.group(1) if m else default


def _json_attrs(attrs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in attrs.items():
        if isinstance(v, (bool, int, float, str)):
            out[k] = v
        elif isinstance(v, (list, tuple)) and all(isinstance(e, (int, float)) for e in v):
            out[k] = list(v)
        elif hasattr(v, "item"):
            try:
                out[k] = v.item()
            except (ValueError, RuntimeError):
                continue  # a tensor of many elements is not an attribute
    return out


def _attrs(data: CaseData, case: Case) -> dict[str, Any]:
    """Attributes for the host TilingFunc: the case's non-shape, non-dtype columns (NaN cells dropped), then the
    non-tensor values of get_inputs / get_init_inputs."""
    attrs: dict[str, Any] = {}
    for k, v in case.items():
        if k == "case_id" or "shape" in k.lower() or "dtype" in k.lower() or v is None:
            continue
        if isinstance(v, float) and v != v:
            continue
        attrs[k] = v
    attrs.update(data.attrs)
    return attrs


def prepare_stage(task: Task, cand: Candidate, settings: Settings, work: Path, rec: dict[str, Any],
                  findings: list[Finding], tm: Timings) -> tuple[_Prepared, list[Case]] | str:
    """The parse stage every toolchain shares: place the candidate's files, read the task's cases and select those
    `settings` asks for. Returns (prepared, cases), or the status to finish the record with (a finding added)."""
    t0 = time.perf_counter()
    prep = _prepare(task, cand, settings, work)
    tm.parse = time.perf_counter() - t0
    if isinstance(prep, Finding):
        findings.append(prep)
        return "parse_error"
    rec["parsed"] = True
    try:
        cases = task.cases()
    except Exception as exc:  # a malformed CSV is the task's problem, reported as such
        findings.append(_finding("BENCH-TASK", str(exc), str(task.validation), "harness"))
        return "harness_error"
    if settings.case_ids is not None:
        cases = [c for c in cases if c.case_id in settings.case_ids]
    if settings.max_cases is not None:
        cases = cases[: settings.max_cases]
    rec["cases"] = len(cases)
    return prep, cases


def new_record(task: Task, cand: Candidate, settings: Settings, **extra: Any) -> dict[str, Any]:
    """A candidate's record before evaluation (the shape docs/bench.md describes); `extra` adds toolchain keys."""
    return {"task": task.id, "name": task.name, "level": task.level_number, "category": task.category,
            "sample": cand.sample, "origin": cand.origin, "mode": settings.mode, **extra, "status": "pending",
            "parsed": False, "compiled": False, "ran": False, "correct": False, "passed_cases": 0, "cases": 0,
            "case_results": [], "findings": [], "estimate_us": None, "baseline_us": None, "speedup": None}


def finish_record(rec: dict[str, Any], findings: Sequence[Finding], status: str, tm: Timings,
                  t_start: float) -> dict[str, Any]:
    """Close a record: status, the first 20 findings, error class, score and timings."""
    tm.total = time.perf_counter() - t_start
    rec["status"] = status
    rec["findings"] = [finding_to_json(f) for f in findings[:20]]
    rec["error_class"] = error_class_of(rec["findings"], status)
    rec["score"] = task_score(rec["passed_cases"], rec["cases"])
    rec["timings"] = {**{k: round(v, 4) for k, v in dataclasses.asdict(tm).items()}, "harness": round(tm.harness, 4)}
    return rec


def evaluate(task: Task, cand: Candidate, settings: Settings | None = None) -> dict[str, Any]:
    """Evaluate one candidate on every case of its task; returns the candidate's record (see docs/bench.md)."""
    from akgen_lsp.sim import SimToolchain
    from akgen_lsp.sim.manifest import ManifestError, parse_manifest
    from akgen_lsp.sim.toolchain import options_for

    settings = settings or Settings()
    from akgen_lsp.bench.cann import select_toolchain

    if select_toolchain(settings.toolchain) == "cann":
        from akgen_lsp.bench.cann_toolchain import evaluate_cann

        return evaluate_cann(task, cand, settings)
    t_start = time.perf_counter()
    tm = Timings()
    arch = load_arch(settings.arch)
    rec = new_record(task, cand, settings, checks=settings.checks)
    findings: list[Finding] = []
    work = Path(tempfile.mkdtemp(prefix="akgen-bench-", dir=settings.work_dir))

    def finish(status: str) -> dict[str, Any]:
        finish_record(rec, findings, status, tm, t_start)
        if not settings.keep_work:
            _remove_later(work)
        return rec

    if cand.origin == NO_ANSWER:
        findings.append(_finding("BENCH-NO-ANSWER", f"{task.id} skipped: {NO_ANSWER_REASON} (only question/ and "
                                 "validation/); evaluate it with generated candidates (--candidates DIR)",
                                 str(task.root), NO_ANSWER, severity=Severity.WARNING))
        rec["skip_reason"] = NO_ANSWER_REASON
        done = finish("skipped")
        done["error_class"] = NO_ANSWER
        return done
    staged = prepare_stage(task, cand, settings, work, rec, findings, tm)
    if isinstance(staged, str):
        return finish(staged)
    prep, cases = staged
    tool = SimToolchain()
    builds: dict[str, Any] = {}
    compile_failed = False
    first_fail: str | None = None
    estimates: list[float] = []
    baselines: list[float] = []
    static_checked = False
    opdef = opdef_for_host(prep.host)
    call = pybind_for_task(task.validation)
    if call is not None and prep.host is not None:
        api = exec_api((task.validation / "pybind.cpp").read_text(encoding="utf-8", errors="replace"))
        call = dataclasses.replace(call, fills=aclnn_optional_fills(prep.host.parent, api, call))
    if call is not None:
        call = scalar_inputs(call, opdef)  # pybind scalars the OpDef declares as Inputs (TopKV3's k)
    host_reads_values = _host_reads_values(prep.host)
    for case in cases:
        cr: dict[str, Any] = {"case_id": case.case_id, "status": "pending"}
        rec["case_results"].append(cr)
        t0 = time.perf_counter()
        try:
            data = load_case(task, case)
        except Skip as exc:
            cr["status"] = "skipped"
            findings.append(_finding("BENCH-SKIP", f"case {case.case_id} skipped: {exc}", str(task.validation),
                                     "skipped", severity=Severity.WARNING))
            tm.reference += time.perf_counter() - t0
            first_fail = first_fail or "skipped"
            continue
        except ReferenceError_ as exc:
            cr["status"] = "harness_error"
            findings.append(_finding("BENCH-REFERENCE", f"case {case.case_id}: the task's reference failed: {exc}",
                                     str(task.validation), "harness"))
            tm.reference += time.perf_counter() - t0
            first_fail = first_fail or "harness_error"
            continue
        tm.reference += time.perf_counter() - t0
        binding, err = _bind(prep, data, opdef, call)
        if err:
            cr["status"] = "harness_error"
            findings.append(_finding("BENCH-ARGS", err, str(prep.kernel), "harness"))
            first_fail = first_fail or "harness_error"
            break
        case_dir = work / f"case{case.case_id}"
        case_dir.mkdir(parents=True, exist_ok=True)
        raw = _manifest(prep, binding, _attrs(data, case), _op_def_name(prep.host, task.name), arch, settings,
                        case_dir, opdef)
        try:
            manifest = parse_manifest(raw, case_dir)
            if _size_by_infershape(binding, manifest):
                raw = _manifest(prep, binding, _attrs(data, case), _op_def_name(prep.host, task.name), arch,
                                settings, case_dir, opdef)
                manifest = parse_manifest(raw, case_dir)
        except ManifestError as exc:
            cr["status"] = "harness_error"
            findings.append(_finding("BENCH-MANIFEST", f"case {case.case_id}: {exc}", str(prep.kernel), "harness"))
            first_fail = first_fail or "harness_error"
            continue
        opts = dataclasses.replace(options_for(manifest), timeout_s=settings.compile_timeout_s)
        bkey = repr(sorted(opts.defines.items())) + repr(opts.signature) + str(opts.tiling_header)
        t0 = time.perf_counter()
        build = builds.get(bkey)
        if build is None:
            try:
                build = tool.compile(manifest.sources, opts)
            except Exception as exc:  # ToolchainError: g++ missing or the cache unwritable
                findings.append(_finding("BENCH-TOOLCHAIN", str(exc), str(prep.kernel), "toolchain"))
                tm.compile += time.perf_counter() - t0
                return finish("harness_error")
            builds[bkey] = build
        tm.compile += time.perf_counter() - t0
        if not build.ok:
            findings.extend(build.findings)
            cr["status"] = "compile_error"
            compile_failed = True
            break
        rec["compiled"] = True
        t0 = time.perf_counter()
        run = tool.run(build, manifest, case_dir / "out")
        tm.run += time.perf_counter() - t0
        if run.status == "compile_error":  # the op_host code did not build
            findings.extend(run.findings)
            cr["status"] = "compile_error"
            compile_failed = True
            break
        if run.status != "ok":
            findings.extend(f for f in run.findings if f.severity is Severity.ERROR)
            cr["status"] = "timeout" if run.status == "timeout" else "runtime_error"
            first_fail = first_fail or cr["status"]
            continue
        rec["ran"] = True
        t0 = time.perf_counter()
        # An OpDef input that is also an output (a ref such as Eye's y) is the output's buffer: nothing to read.
        refs = ({p.name.lower() for p in opdef.inputs} & {p.name.lower() for p in opdef.outputs}) if opdef else set()
        # An op with no OpDef output (ForeachZeroInplace) writes its inputs in place: they are its outputs too.
        in_place_only = opdef is not None and not opdef.outputs
        # When the TilingFunc reads input values (GetInputTensor(i)->GetData: Fill's dims), an input of one 32-byte
        # block at most is a value the tiling or a __gm__ pointer dereference (unseen by the simulator's GM counters)
        # carries: it does not make "never read its inputs".
        n_in = sum(int(t.array.size) for k, n, t in binding
                   if (k == "in" or (k == "inout" and not in_place_only)) and n.lower() not in refs
                   and (not host_reads_values or isinstance(t, tensorlist.TensorList) or int(t.array.nbytes) > 32))
        n_out = sum(int(t.array.size) for k, _n, t in binding if k in ("out", "inout", "scratch"))
        # a ref/in-place output the op leaves as it was (ScatterList, every mask False) needs no write
        n_out = n_out if anticheat.must_write(_outputs_and_initial(binding, opdef)) else 0
        if anticheat.has_gm_figures(run.blocks):
            cheat, slow = anticheat.check_blocks(run.blocks, str(prep.kernel), has_inputs=n_in > 0,
                                                 has_outputs=n_out > 0)
            if slow is not None and not any(f.code == slow.code for f in findings):
                findings.append(slow)
        else:
            cheat = anticheat.check_run(run.estimate, str(prep.kernel), has_inputs=n_in > 0)
        if cheat is None and not anticheat.has_pipe_figures(run.estimate) and not anticheat.has_gm_figures(
                run.blocks) and not static_checked:
            static_checked = True  # no per-pipe figures in this result: fall back to reading the sources
            cheat = anticheat.static_check(_kernel_sources_text(prep.kernel), str(prep.kernel))
        if cheat is not None:
            findings.append(cheat)
            cr["status"] = "no_work"
            first_fail = first_fail or "no_work"
            tm.compare += time.perf_counter() - t0
            continue
        written = [(n, t.expected if k == "inout" else t) for k, n, t in binding if k in ("out", "inout")]
        order = {id(t): i for i, t in enumerate(data.outputs)}
        written.sort(key=lambda nt: order.get(id(nt[1]), len(order)))
        missing = [n for n, t in written if not tensorlist.written(run.outputs, n, t)]
        if missing:
            cr["status"] = "runtime_error"
            findings.append(_finding("BENCH-OUTPUT", f"case {case.case_id}: the run wrote no output for "
                                     f"{', '.join(missing)}", str(prep.kernel), "runtime", source="akgen-run"))
            first_fail = first_fail or "runtime_error"
            continue
        # a plain output is memory-mapped and compared a chunk at a time (a 1 GiB output is never widened whole)
        raw_outs = [np.load(run.outputs[n], mmap_mode="r") if n in run.outputs and not isinstance(t, tensorlist.TensorList)
                    else tensorlist.load(run.outputs, n, t) for n, t in written]
        refs = [t.array for t in data.outputs]
        # raw bfloat16 bits are decoded by the dtype each side holds: the kernel's output dtype may be the op's
        wrote = {a["name"]: a.get("dtype") for a in raw["args"] if "output" in a}
        dts = ["bfloat16" if wrote.get(n) == "bfloat16" else t.dtype
               for (n, _), t in zip(written, data.outputs, strict=False)] + [t.dtype for t in data.outputs[len(written):]]
        names = [t.name for t in data.outputs]
        custom = None
        if data.custom_check:
            raw_items = tensorlist.load_items(run.outputs, written)  # list outputs element by element
            custom = _CustomCall(data.custom_check, raw_items)
        try:
            cmp = compare_outputs(refs, raw_outs, data.tolerance, names, custom, dtypes=dts)
        except ReferenceError_ as exc:
            cmp = compare_outputs(refs, raw_outs, data.tolerance, names, dtypes=dts)
            findings.append(_finding("BENCH-CUSTOM-CHECK", f"the task's custom_check_precision failed ({exc}); "
                                     "used the default rule", str(task.validation), "harness",
                                     severity=Severity.WARNING))
        tm.compare += time.perf_counter() - t0
        cr.update({"max_abs": cmp.to_json()["max_abs"], "max_rel": cmp.to_json()["max_rel"]})
        est = (run.estimate or {}).get("us")
        base = roofline.baseline_us(task, case, data, arch)
        cr["estimate_us"] = est
        cr["baseline_us"] = base
        cr["bound"] = (run.estimate or {}).get("bound")
        if cmp.ok:
            cr["status"] = "pass"
            rec["passed_cases"] += 1
            if custom is not None and not np.isfinite(cmp.max_abs):
                # the task's own check decides, and `abs_diff > tol` is False for NaN: say what it let through
                bad = _nonfinite_where_finite(refs, raw_outs, names, dts)
                if bad:
                    what = ", ".join(f"{n}: {k} of {size}" for n, k, size in bad)
                    findings.append(_finding(
                        "BENCH-NONFINITE-PASS",
                        f"case {case.case_id} passes the task's custom_check_precision, but the kernel's output is "
                        f"NaN or inf where the reference is finite ({what}); the check lets NaN through (a NaN "
                        "difference compares False). The simulator starts UB as all-ones bytes (NaN as a float), so "
                        "this usually means the kernel computes with UB it never wrote (padding a DataCopyPad "
                        "skips): on the NPU that UB holds whatever an earlier kernel left there",
                        str(prep.kernel), "precision", source="akgen-run", severity=Severity.WARNING))
            if est:
                estimates.append(float(est))
                baselines.append(base)
        else:
            cr["status"] = "wrong_answer"
            # the run's warnings may say why the numbers are wrong (SIM-OVERLAP: dst and src of Sigmoid overlap)
            seen = {(f.code, f.span.path, f.span.line) for f in findings}
            findings.extend(f for f in run.findings if f.severity is Severity.WARNING
                            and (f.code, f.span.path, f.span.line) not in seen)
            findings.append(comparison_finding(cmp, str(prep.kernel), f"case {case.case_id}", data.tolerance))
            first_fail = first_fail or "wrong_answer"
    if compile_failed:
        return finish("compile_error")
    if estimates:
        rec["estimate_us"] = round(sum(estimates) / len(estimates), 4)
        rec["baseline_us"] = round(sum(baselines) / len(baselines), 4)
        rec["speedup"] = round(sum(b / e for b, e in zip(baselines, estimates, strict=True)) / len(estimates), 4)
    bounds = [c["bound"] for c in rec["case_results"] if c.get("status") == "pass" and c.get("bound")]
    rec["bound"] = max(set(bounds), key=bounds.count) if bounds else None  # what limits most passing cases
    all_pass = rec["cases"] > 0 and rec["passed_cases"] == rec["cases"]
    rec["correct"] = all_pass
    if all_pass:
        return finish("pass")
    return finish(first_fail or "harness_error")


def summarise_timings(records: list[Mapping[str, Any]]) -> dict[str, float]:
    keys = ("parse", "reference", "host", "compile", "run", "compare", "total", "harness")
    return {k: round(sum(float(r.get("timings", {}).get(k, 0.0)) for r in records), 4) for k in keys}



"""A case's data bound to the kernel: the case loaded from the task's reference (`case_data`), the op's interface
read from the task and the candidate's host (`op_interface`: the OpDef and the task's pybind call), and the kernel's
parameters mapped to the case's tensors (`_bind`).

Kernel arguments are mapped by position: the kernel's GM_ADDR parameters are the tensor inputs of
``get_inputs(case)``, then the reference outputs, then ``workspace`` and ``tiling`` when present. The task's
pybind.cpp and the op's OpDef refine that where they say more (absent optional inputs, scalars passed as tensors, ref
outputs, outputs the call does not return).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from akgen_lsp.bench import tensorlist
from akgen_lsp.bench.compare import as_float
from akgen_lsp.bench.pipeline.parse import _Prepared
from akgen_lsp.bench.pipeline.record import Timings, _finding, skipped_case
from akgen_lsp.bench.reference import CaseData, ReferenceError_, Skip, Tensor, load_case
from akgen_lsp.bench.signature import (
    OpDef,
    PybindCall,
    aclnn_optional_fills,
    exec_api,
    opdef_column,
    opdef_for_host,
    pybind_for_task,
    scalar_inputs,
)
from akgen_lsp.bench.tasks import Case, Task
from akgen_lsp.findings import Finding

C_TYPES = {
    "float16": "half",
    "float32": "float",
    "bfloat16": "bfloat16_t",
    "int8": "int8_t",
    "uint8": "uint8_t",
    "int16": "int16_t",
    "uint16": "uint16_t",
    "int32": "int32_t",
    "uint32": "uint32_t",
    "int64": "int64_t",
    "uint64": "uint64_t",
    "bool": "bool",
    "float64": "double",
    "complex64": "complex64",
}


def case_data(
    task: Task, case: Case, cr: dict[str, Any], findings: list[Finding], tm: Timings
) -> CaseData | None:
    """The case's inputs and reference outputs (the task's reference run, or its cache), or None: the case is
    skipped or the reference failed (``cr["status"]`` says which, a finding added)."""
    t0 = time.perf_counter()
    try:
        data = load_case(task, case)
    except Skip as exc:
        cr["status"] = "skipped"
        findings.append(skipped_case(task, case.case_id, exc))
        tm.reference += time.perf_counter() - t0
        return None
    except ReferenceError_ as exc:
        cr["status"] = "harness_error"
        findings.append(
            _finding(
                "BENCH-REFERENCE",
                f"case {case.case_id}: the task's reference failed: {exc}",
                str(task.validation),
                "harness",
            )
        )
        tm.reference += time.perf_counter() - t0
        return None
    tm.reference += time.perf_counter() - t0
    return data


def op_interface(task: Task, prep: _Prepared) -> tuple[OpDef | None, PybindCall | None]:
    """The op's OpDef (from the candidate's host) and the task's pybind call, with the optional inputs its aclnn
    fills and the scalars the OpDef declares as inputs."""
    opdef = opdef_for_host(prep.host)
    call = pybind_for_task(task.validation)
    if call is not None and prep.host is not None:
        api = exec_api((task.validation / "pybind.cpp").read_text(encoding="utf-8", errors="replace"))
        call = dataclasses.replace(call, fills=aclnn_optional_fills(prep.host.parent, api, call))
    if call is not None:
        call = scalar_inputs(call, opdef)  # pybind scalars the OpDef declares as Inputs (TopKV3's k)
    return opdef, call


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


def _plan_pybind(
    data: CaseData, call: PybindCall, opdef: OpDef | None = None
) -> list[tuple[str, Tensor]] | None:
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
            by_pos[i] = _filled_optional(p.name, i, call, by_pos, data) or Tensor(
                p.name, np.zeros(0, np.float32), "float32", index=i, absent=True
            )
    plan = call.kernel_tensors()
    if any(k == "array" for _, k, _ in plan):
        plan = _arrays_as_inputs(plan, by_pos, data, opdef)
        if plan is None:
            return None
    outs = [n for n, k, _ in plan if k in ("out", "inout")]
    if (
        len(outs) < len(data.outputs)
        or not data.outputs
        or any(k != "out" and pos not in by_pos for _, k, pos in plan)
    ):
        return None
    # an if/else on a bool parameter may pick what comes back (AddLayerNorm's additionalOut: {xOut, yOut} or {yOut})
    flags = {
        p.name: data.attrs.get(f"in{i}", data.attrs.get(p.name))
        for i, p in enumerate(call.params)
        if not p.is_tensor
    }
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
            hints = dict(
                zip([o for o in outs if o not in returned], data.outputs[len(returned) :], strict=False)
            )
            data.outputs = data.outputs[: len(returned)]
    ref_for: dict[str, Tensor] = {}
    if len(returned) == len(data.outputs):
        ref_for = dict(zip(returned, data.outputs, strict=True))
    else:
        ref_for = dict(zip(outs, data.outputs, strict=False))
    out: list[tuple[str, Tensor]] = []
    for name, kind, pos in plan:
        if kind == "out" and name not in ref_for:
            out.append(
                (
                    "scratch",
                    _scratch(
                        name,
                        call,
                        by_pos,
                        data,
                        opdef,
                        _opdef_output_index(name, plan, opdef, outs),
                        hints.get(name),
                    ),
                )
            )
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


def _filled_optional(
    name: str, pos: int, call: PybindCall, by_pos: dict[int, Tensor], data: CaseData
) -> Tensor | None:
    """The tensor the task's own aclnn function makes for an absent optional input (`signature.OptionalFill`:
    LayerNorm's weight of ones shaped like normalized_shape, in the bias's dtype, else the input's); None when it
    makes none or the case lacks the shape."""
    fill = call.fills.get(name)
    if fill is None:
        return None
    shape_pos = call.position(fill.shape_arg)
    shape = (
        data.attrs.get(f"in{shape_pos}", data.attrs.get(fill.shape_arg)) if shape_pos is not None else None
    )
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


def _arrays_as_inputs(
    plan: list[tuple[str, str, int | None]], by_pos: dict[int, Tensor], data: CaseData, opdef: OpDef | None
) -> list[tuple[str, str, int | None]] | None:
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
    bound = {
        p.name: by_pos[pos].dtype
        for p, (_, k, pos) in zip(opdef.inputs, ins, strict=True)
        if k != "array" and pos in by_pos
    }
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


def _opdef_output_index(
    name: str, plan: Sequence[tuple[str, str, int | None]], opdef: OpDef | None, outs: list[str]
) -> int:
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


def _scratch(
    name: str,
    call: PybindCall,
    by_pos: dict[int, Tensor],
    data: CaseData,
    opdef: OpDef | None,
    k: int,
    hint: Tensor | None = None,
) -> Tensor:
    like_pos = call.position(call.likes.get(name, ""))
    like = by_pos.get(like_pos) if like_pos is not None else hint
    shape = like.array.shape if like is not None else data.outputs[0].array.shape
    dtype = like.dtype if like is not None else data.outputs[0].dtype
    if opdef is not None and k < len(opdef.outputs):
        bound = {
            opdef.inputs[t.index].name: t.dtype for t in by_pos.values() if 0 <= t.index < len(opdef.inputs)
        }
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
            arr = np.ascontiguousarray(
                np.asarray(value, dtype="uint16" if dt == "bfloat16" else dt).reshape(-1)
            )
        except (TypeError, ValueError):
            return None
        out.append(("in", Tensor(p.name, arr, dt, index=i)))
    out.extend(("out", t) for t in data.outputs)
    return out


def _with_ref_outputs(
    plan: list[tuple[str, Any]], opdef: OpDef | None, params: list[str]
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
    if (
        set(mine) != set(theirs)
        or not mine
        or any(
            not isinstance(getattr(t, "array", None), np.ndarray) for t in [*mine.values(), *theirs.values()]
        )
    ):
        return False
    for i, t in mine.items():
        v = theirs[i]
        if t.dtype != v.dtype or t.array.shape != v.array.shape:
            return True
        if not np.shares_memory(t.array, v.array) and not np.array_equal(
            t.array, v.array, equal_nan=t.array.dtype.kind in "fc"
        ):
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


def _bind(
    prep: _Prepared, data: CaseData, opdef: OpDef | None = None, call: PybindCall | None = None
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
        return [], (
            f"the kernel {prep.entry} has {len(params)} parameters; the task passes {n_in} tensor input(s) "
            f"and {n_out} output(s) (+ workspace, tiling): cannot map them"
        )
    out: list[tuple[str, str, Any]] = []
    for i, (kind, t) in enumerate(plan):
        t.name = params[i]
        if kind == "inout" and t.expected is not None:
            t.expected.name = params[i]
        out.append((kind, params[i], t))
    for k, name in enumerate(tail):
        kind = (
            "tiling" if (k == len(tail) - 1 and ("tiling" in name.lower() or len(tail) >= 2)) else "workspace"
        )
        out.append((kind, name, None))
    return out, None

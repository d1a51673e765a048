"""Tensor lists in the bench harness: a task that passes ``List[torch.Tensor]`` (NPUKernelBench's Foreach tasks,
NonFiniteCheckOp, ScatterList) binds each list to ONE kernel parameter, as CANN's custom-op build does for a
``ParamType(DYNAMIC)`` input or output.

`TensorList` stands where a `reference.Tensor` stands in `CaseData.inputs` / `CaseData.outputs` and in the binding
(same ``name``, ``dtype``, ``array``, ``index``, ``expected``): its ``array`` is the concatenation of its flattened
elements, so byte counts (roofline) and element-wise comparison work unchanged; renaming it names its elements
``y[0]``, ``y[1]``... which is how the simulator's result lists the outputs of a list (`akgen_lsp.sim.manifest`).

Which outputs form a list: the reference returns a Python list of tensors, the task passes at least one tensor list,
and the returned tensors pair with the elements of that input list (same count; each output has its input's shape,
or every output is a single value, as ForeachNorm's per-tensor norms are).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

Converter = Callable[[Any], "tuple[np.ndarray, str] | None"]


@dataclass
class TensorList:
    """The tensors of one list argument, in order (each a `reference.Tensor`)."""

    items: list[Any]
    index: int = -1  # position in get_inputs (inputs); -1 for outputs
    expected: TensorList | None = None
    write_dtype: str | None = (
        None  # an output list: the dtype the kernel writes when it is not the reference's
    )
    _name: str = field(default="", repr=False)

    @property
    def name(self) -> str:
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        self._name = value
        for k, t in enumerate(self.items):
            t.name = f"{value}[{k}]"

    @property
    def dtype(self) -> str:
        return str(self.items[0].dtype)

    @property
    def array(self) -> np.ndarray:
        """The elements flattened and concatenated, made once and kept while the elements' arrays stay the same
        objects (a Foreach case's list is 67M+ elements: the anti-cheat, the roofline and the comparison each
        used to concatenate it again)."""
        arrays = [t.array for t in self.items]
        cached = self.__dict__.get("_joined")
        if (
            cached is not None
            and len(cached[0]) == len(arrays)
            and all(a is b for a, b in zip(cached[0], arrays, strict=True))
        ):
            return cached[1]
        joined = np.concatenate([np.asarray(a).reshape(-1) for a in arrays])
        self.__dict__["_joined"] = (arrays, joined)
        return joined

    @property
    def size(self) -> int:
        return sum(int(np.asarray(t.array).size) for t in self.items)

    @property
    def nbytes(self) -> int:
        return sum(int(np.asarray(t.array).nbytes) for t in self.items)

    def __getstate__(self) -> dict[str, Any]:
        # the reference cache pickles case data: the joined copy is not stored (it is made again on use)
        state = dict(self.__dict__)
        state.pop("_joined", None)
        return state

    @property
    def shapes(self) -> list[tuple[int, ...]]:
        return [tuple(int(d) for d in t.array.shape) for t in self.items]


def is_tensor_list(x: Any, convert: Converter) -> bool:
    """A get_inputs value (or reference output) that is a list/tuple holding tensors."""
    return isinstance(x, (list, tuple)) and bool(x) and all(convert(e) is not None for e in x)


def make_list(
    name: str, values: Sequence[Any], convert: Converter, tensor_type: type, index: int = -1
) -> TensorList:
    """A TensorList of `tensor_type` (reference.Tensor) elements from torch tensors or numpy arrays; one dtype."""
    items = []
    dtypes = set()
    for k, v in enumerate(values):
        conv = convert(v)
        if conv is None:
            raise ValueError(f"element {k} of list {name} is a {type(v).__name__}, not a tensor")
        items.append(tensor_type(f"{name}[{k}]", np.ascontiguousarray(conv[0]), conv[1]))
        dtypes.add(conv[1])
    if len(dtypes) > 1:
        raise ValueError(
            f"the tensors of list {name} have different dtypes ({', '.join(sorted(dtypes))}); a "
            "TensorList holds one dtype"
        )
    tl = TensorList(items, index=index)
    tl.name = name
    return tl


def _paired_input(ref: Any, inputs: Sequence[Any], convert: Converter) -> Any:
    """The input list the reference's output list pairs with (see the module docstring), or None."""
    if not isinstance(ref, list) or not is_tensor_list(ref, convert):
        return None
    for x in inputs:
        if not is_tensor_list(x, convert) or len(x) != len(ref):
            continue
        out_shapes = [tuple(convert(r)[0].shape) for r in ref]  # type: ignore[index]
        in_shapes = [tuple(convert(e)[0].shape) for e in x]  # type: ignore[index]
        if out_shapes == in_shapes or all(int(np.prod(s)) == 1 for s in out_shapes):
            return x
    return None


def list_output(ref: Any, inputs: Sequence[Any], convert: Converter) -> bool:
    """Whether the reference's outputs are ONE tensor list (see the module docstring)."""
    return _paired_input(ref, inputs, convert) is not None


def output_list(
    name: str, ref: Any, inputs: Sequence[Any], convert: Converter, tensor_type: type
) -> TensorList:
    """The reference's output list. The kernel writes it in the dtype of the input list it pairs with, as the
    tasks' pybind allocates it (``torch::empty_like(x[i])``): ForeachMaximumScalar's bf16 list maxed with a float32
    scalar tensor gives a float32 reference, the op writes bf16 (the comparison widens both)."""
    tl = make_list(name, ref, convert, tensor_type)
    paired = _paired_input(ref, inputs, convert)
    conv = convert(paired[0]) if paired else None
    if conv is not None and conv[1] != tl.dtype:
        tl.write_dtype = conv[1]
    return tl


def manifest_arg(
    kind: str, name: str, tl: TensorList, case_dir: Path, init_from: str | None = None
) -> dict[str, Any]:
    """The simulator manifest argument of a bound list (kind in, inout or out); inputs are saved as .npy files. An
    output list that is a ref of input list `init_from` (saved before it) starts with that list's elements."""
    elems: list[dict[str, Any]] = []
    for k, t in enumerate(tl.items):
        if kind in ("in", "inout"):
            p = case_dir / f"{name}.{k}.npy"
            np.save(p, t.array)
            e: dict[str, Any] = {"input": str(p), "dtype": t.dtype}
            if kind == "inout":
                e["output"] = str(case_dir / f"{name}.{k}.out.npy")
        else:
            e = {
                "output": str(case_dir / f"{name}.{k}.out.npy"),
                "dtype": tl.write_dtype or t.dtype,
                "shape": [int(d) for d in t.array.shape],
            }
            if init_from is not None:
                e["init"] = str(case_dir / f"{init_from}.{k}.npy")
        elems.append(e)
    return {"name": name, "list": elems}


def output_names(name: str, t: Any, outputs: Mapping[str, str] | None = None) -> list[str]:
    """The simulator output names of a bound output: ``name``, or ``name[0]``... for a list (also when the expected
    value is one tensor, the list's elements concatenated, and the kernel wrote the list in place)."""
    if isinstance(t, TensorList):
        return [f"{name}[{k}]" for k in range(len(t.items))]
    if outputs is not None and name not in outputs and f"{name}[0]" in outputs:
        n = 0
        while f"{name}[{n}]" in outputs:
            n += 1
        return [f"{name}[{k}]" for k in range(n)]
    return [name]


def written(outputs: Mapping[str, str], name: str, t: Any) -> bool:
    return all(n in outputs for n in output_names(name, t, outputs))


def load(outputs: Mapping[str, str], name: str, t: Any) -> np.ndarray:
    """A bound output as the kernel wrote it: the array, or a list's elements flattened and concatenated (the same
    layout as `TensorList.array`, so it compares element by element with the reference)."""
    names = output_names(name, t, outputs)
    arrays = [_decoded(np.load(outputs[n]), t) for n in names]
    if len(names) == 1 and names[0] == name:
        return arrays[0]
    return np.concatenate([a.reshape(-1) for a in arrays])


def _decoded(a: np.ndarray, t: Any) -> np.ndarray:
    """A list element written in another dtype than the reference's: bfloat16 bits widened to float32, so it
    compares as the reference's dtype."""
    wd = getattr(t, "write_dtype", None)
    if wd == "bfloat16" and a.dtype == np.uint16:
        return (a.astype(np.uint32) << 16).view(np.float32)
    return a


def load_items(outputs: Mapping[str, str], bound: Sequence[tuple[str, Any]]) -> list[np.ndarray]:
    """Every output tensor the kernel wrote, list elements one by one, in order (what a task's
    ``custom_check_precision`` compares with the flattened reference)."""
    out: list[np.ndarray] = []
    for name, t in bound:
        names = output_names(name, t, outputs)
        if isinstance(t, TensorList) or len(names) == 1:
            out.extend(_decoded(np.load(outputs[n]), t) for n in names)
        else:  # one expected tensor written as a list in place: compare it whole
            out.append(load(outputs, name, t))
    return out


def n_elements(t: Any) -> int:
    """Elements of a bound tensor or list, without joining a list's elements."""
    return t.size if isinstance(t, TensorList) else int(np.asarray(t.array).size)


def n_bytes(t: Any) -> int:
    """Bytes of a bound tensor or list, without joining a list's elements."""
    return t.nbytes if isinstance(t, TensorList) else int(np.asarray(t.array).nbytes)


def first_array(t: Any) -> np.ndarray:
    """A bound tensor's array, or a list's first element's (its dtype and item size, without joining)."""
    return np.asarray(t.items[0].array if isinstance(t, TensorList) else t.array)


def has_lists(tensors: Sequence[Any]) -> bool:
    return any(isinstance(t, TensorList) for t in tensors)


def _same(out: Any, inp: Any) -> bool:
    """An output that is the input's buffer written in place: same dtype and the same elements (a list's elements
    concatenated count as the list: NonFiniteCheckAndUnscale returns its grads that way)."""
    if str(out.dtype) != str(inp.dtype):
        return False
    if isinstance(inp, TensorList) and isinstance(out, TensorList):
        return out.shapes == inp.shapes
    if isinstance(inp, TensorList):
        return int(np.asarray(out.array).size) == sum(int(np.prod(s)) for s in inp.shapes)
    return int(np.asarray(out.array).size) == int(np.asarray(inp.array).size)


def _opdef_order(inputs: list[tuple[str, Any]], opdef: Any) -> list[tuple[str, Any]]:
    """The inputs in the OpDef's order (the kernel's parameter order): its DYNAMIC inputs take the tensor lists in
    turn, the others the remaining tensors in turn (ForeachPowScalarAndTensor: the scalar comes before the list). The
    order as given when the OpDef does not account for every input."""
    ins = getattr(opdef, "inputs", None)
    if not ins or len(ins) != len(inputs):
        return inputs
    lists = [b for b in inputs if isinstance(b[1], TensorList)]
    others = [b for b in inputs if not isinstance(b[1], TensorList)]
    if sum(1 for p in ins if p.param_type == "DYNAMIC") != len(lists):
        return inputs
    return [(lists if p.param_type == "DYNAMIC" else others).pop(0) for p in ins]


def fit_plan(
    data: Any, plan: list[tuple[str, Any]], n_params: int, tensor_type: type, opdef: Any = None
) -> list[tuple[str, Any]] | None:
    """A better positional plan for a task with tensor lists when the plain one (tensor inputs, then outputs) does
    not match the kernel's `n_params` parameters (workspace and tiling last), or None:

    - more parameters than tensors: the numbers get_inputs passes at their positions (an aclScalar such as
      ForeachLerpScalar's weight) become 1-element tensors there (float32 for a float, int64 for an int), as the
      aclnn call turns a scalar into a tensor input, and the inputs follow the OpDef's order when it has one;
    - fewer parameters: the op works in place (ForeachZeroInplace, NonFiniteCheckAndUnscale): each reference output
      is written into the input it matches (same dtype and element count), bound as in/out with the output as its
      expected value.
    """
    if not has_lists(data.inputs) and not has_lists(data.outputs):
        return None
    n_tensors = n_params - 2
    if n_tensors == len(plan) or n_tensors <= 0:
        return None
    if n_tensors > len(plan):
        by_pos = {t.index: t for t in data.inputs}
        new: list[tuple[str, Any]] = []
        for i in range(int(getattr(data, "n_raw", 0))):
            if i in by_pos:
                new.append(("in", by_pos[i]))
                continue
            v = data.attrs.get(f"in{i}")
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
            dtype = "float32" if isinstance(v, float) else "int64"
            new.append(("in", tensor_type(f"in{i}", np.array([v], dtype=dtype), dtype, index=i)))
        new = _opdef_order(new, opdef)
        new.extend(("out", t) for t in data.outputs)
        return new if len(new) == n_tensors else None
    if len(data.inputs) != n_tensors:
        return None
    inout: dict[int, Any] = {}
    for out in data.outputs:
        j = next((j for j, t in enumerate(data.inputs) if j not in inout and _same(out, t)), None)
        if j is None:
            return None
        inout[j] = out
    new = []
    for j, t in enumerate(data.inputs):
        if j in inout:
            t.expected = inout[j]
            new.append(("inout", t))
        else:
            new.append(("in", t))
    return new

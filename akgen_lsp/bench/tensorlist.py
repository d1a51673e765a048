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
        return np.concatenate([np.asarray(t.array).reshape(-1) for t in self.items])

    @property
    def shapes(self) -> list[tuple[int, ...]]:
        return [tuple(int(d) for d in t.array.shape) for t in self.items]


def is_tensor_list(x: Any, convert: Converter) -> bool:
    """A get_inputs value (or reference output) that is a list/tuple holding tensors."""
    return isinstance(x, (list, tuple)) and bool(x) and all(convert(e) is not None for e in x)


def make_list(name: str, values: Sequence[Any], convert: Converter, tensor_type: type, index: int = -1) -> TensorList:
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
        raise ValueError(f"the tensors of list {name} have different dtypes ({', '.join(sorted(dtypes))}); a "
                         "TensorList holds one dtype")
    tl = TensorList(items, index=index)
    tl.name = name
    return tl


def list_output(ref: Any, inputs: Sequence[Any], convert: Converter) -> bool:
    """Whether the reference's outputs are ONE tensor list (see the module docstring)."""
    if not isinstance(ref, list) or not is_tensor_list(ref, convert):
        return False
    for x in inputs:
        if not is_tensor_list(x, convert) or len(x) != len(ref):
            continue
        out_shapes = [tuple(convert(r)[0].shape) for r in ref]  # type: ignore[index]
        in_shapes = [tuple(convert(e)[0].shape) for e in x]  # type: ignore[index]
        if out_shapes == in_shapes or all(int(np.prod(s)) == 1 for s in out_shapes):
            return True
    return False


def manifest_arg(kind: str, name: str, tl: TensorList, case_dir: Path) -> dict[str, Any]:
    """The simulator manifest argument of a bound list (kind in, inout or out); inputs are saved as .npy files."""
    elems: list[dict[str, Any]] = []
    for k, t in enumerate(tl.items):
        if kind in ("in", "inout"):
            p = case_dir / f"{name}.{k}.npy"
            np.save(p, t.array)
            e: dict[str, Any] = {"input": str(p), "dtype": t.dtype}
            if kind == "inout":
                e["output"] = str(case_dir / f"{name}.{k}.out.npy")
        else:
            e = {"output": str(case_dir / f"{name}.{k}.out.npy"), "dtype": t.dtype,
                 "shape": [int(d) for d in t.array.shape]}
        elems.append(e)
    return {"name": name, "list": elems}


def output_names(name: str, t: Any) -> list[str]:
    """The simulator output names of a bound output: ``name``, or ``name[0]``... for a list."""
    return [f"{name}[{k}]" for k in range(len(t.items))] if isinstance(t, TensorList) else [name]


def written(outputs: Mapping[str, str], name: str, t: Any) -> bool:
    return all(n in outputs for n in output_names(name, t))


def load(outputs: Mapping[str, str], name: str, t: Any) -> np.ndarray:
    """A bound output as the kernel wrote it: the array, or a list's elements flattened and concatenated (the same
    layout as `TensorList.array`, so it compares element by element with the reference)."""
    arrays = [np.load(outputs[n]) for n in output_names(name, t)]
    if not isinstance(t, TensorList):
        return arrays[0]
    return np.concatenate([a.reshape(-1) for a in arrays])


def load_items(outputs: Mapping[str, str], bound: Sequence[tuple[str, Any]]) -> list[np.ndarray]:
    """Every output tensor the kernel wrote, list elements one by one, in order (what a task's
    ``custom_check_precision`` compares with the flattened reference)."""
    return [np.load(outputs[n]) for name, t in bound for n in output_names(name, t)]

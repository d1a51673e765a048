"""Inputs and reference outputs of a task's cases, on the CPU.

For a task we load ``validation/prepare_inputs.py`` (``get_inputs(case)``, ``get_init_inputs(case)``, optional
``custom_check_precision`` and, in our bundled suite, ``tolerance(case)``) and the reference: ``validation/
reference_np.py`` (``reference(case, *inputs)``, numpy, no torch needed) when the task has one, else ``Model`` from
``validation/module.py`` run on the CPU. NPUKernelBench's modules import ``torch_npu``, ``torch_npu.contrib.
transfer_to_npu`` and ``kernel_gen_ops``; those imports are neutralised (inert stand-in modules) before loading.

Where a task needs torch and torch is not installed, `load_case` raises `Skip` with that reason; nothing is
skipped silently.

Inputs are made under a deterministic seed per (task, case): Python's, numpy's and torch's generators are seeded
with `case_seed(task_id, case_id)`.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import random
import sys
import types
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from akgen_lsp.bench import refcache, tensorlist
from akgen_lsp.bench.compare import Tolerance
from akgen_lsp.bench.cpu_torch import install_cpu_shims, neutralise_npu_imports, torch_available, torch_fix
from akgen_lsp.bench.tasks import Case, Task


class Skip(Exception):
    """This case cannot be evaluated here (for example torch is missing); the message says why."""


class ReferenceError_(Exception):
    """The task's own Python (prepare_inputs, module, reference) failed; the message carries the cause."""


def case_seed(task_id: str, case_id: int) -> int:
    return zlib.crc32(f"{task_id}#{case_id}".encode()) & 0x7FFFFFFF


def _load(path: Path, name: str) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ReferenceError_(f"cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "torch":
            raise Skip(f"{path.name} needs torch, which is not installed here: {torch_fix()}") from None
        raise ReferenceError_(f"{path}: {exc}") from None
    except Exception as exc:  # the task's own code: report, never crash the harness
        raise ReferenceError_(f"{path}: {type(exc).__name__}: {exc}") from None
    install_cpu_shims()
    return mod


@dataclass
class TaskPython:
    """The Python side of a task, loaded once per process."""

    prepare: types.ModuleType | None
    module: types.ModuleType | None
    reference_np: types.ModuleType | None
    skip_reason: str | None = None


_cache: dict[str, TaskPython] = {}


def task_python(task: Task) -> TaskPython:
    key = str(task.root)
    if key in _cache:
        return _cache[key]
    neutralise_npu_imports()
    v = task.validation
    tag = f"akgen_task_{zlib.crc32(key.encode()):08x}"
    skip = None
    prepare = module = ref_np = None
    try:
        if (v / "reference_np.py").is_file():
            ref_np = _load(v / "reference_np.py", tag + "_refnp")
        if (v / "prepare_inputs.py").is_file():
            prepare = _load(v / "prepare_inputs.py", tag + "_prep")
        if ref_np is None and (v / "module.py").is_file():
            module = _load(v / "module.py", tag + "_module")
        if prepare is None and module is not None and hasattr(module, "get_inputs"):
            prepare = module
    except Skip as exc:
        skip = str(exc)
    tp = TaskPython(prepare, module, ref_np, skip)
    _cache[key] = tp
    return tp


@dataclass
class Tensor:
    """A named array for the kernel. `dtype` is the numpy-style name (``bfloat16`` arrays hold raw uint16 bits)."""

    name: str
    array: np.ndarray
    dtype: str
    index: int = -1  # position in get_inputs (inputs); -1 for outputs
    expected: Tensor | None = None  # an in/out tensor's reference output
    # an optional input the call leaves out (None): the op gets no tensor (aclnn's nullptr; the TilingFunc's
    # GetOptionalInputShape returns nullptr); `array` is then empty
    absent: bool = False
    # an input served by the reference cache: its .npy file there and the array it holds (that very object: a tensor
    # made from this one with another array is not that file), so a case folder links the file instead of writing it
    stored: tuple[Path, np.ndarray] | None = field(default=None, compare=False, repr=False)


@dataclass
class CaseData:
    case: Case
    inputs: list[Tensor]
    attrs: dict[str, Any]
    outputs: list[Tensor]  # the reference outputs (their shapes and dtypes are what the kernel must write)
    tolerance: Tolerance
    custom_check: Callable[[Sequence[np.ndarray]], bool] | None = None
    notes: list[str] = field(default_factory=list)
    n_raw: int = 0  # how many values get_inputs returned (tensors and attributes)
    # The same case as ModelNew calls the op (kernel_gen_ops.<op>(...)): tensors, attributes, count. It differs from
    # get_inputs when ModelNew adds its own tensors (AddRmsNormQuant's gamma, scales from get_init_inputs).
    call_view: tuple[list[Tensor], dict[str, Any], int] | None = None
    # the task's own flops(case) and whether it uses the cube, computed where the task's code runs (the box)
    flops: tuple[float, str] | None = None


def _seed(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    if sys.modules.get("torch") is not None:
        sys.modules["torch"].manual_seed(seed)


def _to_numpy(x: Any) -> tuple[np.ndarray, str] | None:
    """A torch tensor or numpy array -> (array, dtype name); bfloat16 as raw bits. None for non-tensors."""
    if isinstance(x, np.ndarray):
        from akgen_lsp.bench.npref import Bf16

        if isinstance(x, Bf16):
            return np.asarray(x).view(np.uint16), "bfloat16"
        return np.asarray(x), str(x.dtype)
    if isinstance(x, (np.bool_, np.number)):
        return None
    mod = type(x).__module__
    if mod.startswith("torch") and hasattr(x, "detach"):
        import torch

        if getattr(x, "is_sparse", False) or x.layout != torch.strided:
            raise ReferenceError_(f"a {x.layout} tensor: only dense tensors can be passed to a kernel")
        t = x.detach().cpu().contiguous()
        if t.dtype == torch.bfloat16:
            return t.view(torch.int16).numpy().view(np.uint16), "bfloat16"
        if t.dtype == torch.bool:
            return t.numpy().astype(np.bool_), "bool"
        return t.numpy(), str(t.numpy().dtype)
    return None


def _flatten(x: Any) -> list[Any]:
    if isinstance(x, (list, tuple)):
        out: list[Any] = []
        for e in x:
            out.extend(_flatten(e))
        return out
    return [x]


def _call(fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    try:
        return fn(*args, **kw)
    except (Skip, _KernelCall):
        raise
    except Exception as exc:
        raise ReferenceError_(
            f"{getattr(fn, '__module__', '')}.{getattr(fn, '__name__', 'call')}: {type(exc).__name__}: {exc}"
        ) from None


def load_case(
    task: Task, case: Case, input_names: Sequence[str] = (), output_names: Sequence[str] = ()
) -> CaseData:
    """Make the inputs (seeded) and the reference outputs of one case. Raises Skip or ReferenceError_.

    Served from the on-disk reference cache (bench/refcache.py) when the same validation files, case and seed were
    computed before, by any process; computed and stored otherwise."""
    key = None
    if refcache.enabled():
        try:
            key = refcache.case_key(
                task.validation, case, case_seed(task.id, case.case_id), input_names, output_names
            )
        except OSError:
            key = None
    if key is not None:
        hit = refcache.get(key)
        if isinstance(hit, dict) and isinstance(hit.get("data"), CaseData):
            data = hit["data"]
            _link_stored_inputs(key, data)
            if hit.get("custom"):
                if boxed():
                    from akgen_lsp.bench import ref_box

                    data.custom_check = ref_box.custom_check(
                        sys.modules[__name__], task, case, input_names, output_names
                    )
                    return data
                tp = task_python(task)
                if tp.prepare is None or not hasattr(tp.prepare, "custom_check_precision"):
                    return _compute_case(task, case, input_names, output_names)[0]
                data.custom_check = _custom_adapter(tp.prepare.custom_check_precision, case, hit.get("ref"))
            return data
    if boxed():  # the task's code runs in the sandbox (bench/ref_box.py); only arrays and numbers come out
        from akgen_lsp.bench import ref_box

        data, ref = ref_box.compute_case(sys.modules[__name__], task, case, input_names, output_names)
    else:
        data, ref = _compute_case(task, case, input_names, output_names)
    if key is not None:
        custom = data.custom_check is not None
        size = sum(
            tensorlist.n_bytes(t) for t in [*data.inputs, *data.outputs]
        )  # a list is not joined for it
        refcache.put(
            key,
            {
                "data": dataclasses.replace(data, custom_check=None),
                "custom": custom,
                "ref": ref if custom else None,
            },
            size_hint=size * (2 if custom else 1),
        )
    return data


def boxed() -> bool:
    """Whether task code runs in the sandbox: always, unless the user switched the sandbox off (user-level
    configuration) or this process is the box itself."""
    if os.environ.get("AKGEN_IN_REF_BOX") == "1":
        return False
    from akgen_lsp.sandbox import sandbox_mode

    return sandbox_mode() == "on"


def _link_stored_inputs(key: str, data: CaseData) -> None:
    """Give each plain input of a cached case its .npy file in the reference cache (written on first use)."""
    for i, t in enumerate(data.inputs):
        if isinstance(t, Tensor) and not t.absent and isinstance(t.array, np.ndarray):
            path = refcache.input_file(key, i, t.array)
            t.stored = (path, t.array) if path is not None else None


def _compute_case(
    task: Task, case: Case, input_names: Sequence[str] = (), output_names: Sequence[str] = ()
) -> tuple[CaseData, Any]:
    """load_case without the cache: (case data, the reference's own return value)."""
    tp = task_python(task)
    if tp.skip_reason:
        raise Skip(tp.skip_reason)
    if tp.prepare is None or not hasattr(tp.prepare, "get_inputs"):
        raise ReferenceError_(f"{task.validation}: no get_inputs(case) in prepare_inputs.py")
    _seed(case_seed(task.id, case.case_id))
    raw_inputs = (
        _call(tp.prepare.get_inputs, case, device=None)
        if _accepts_device(tp.prepare.get_inputs)
        else _call(tp.prepare.get_inputs, case)
    )
    init = []
    if hasattr(tp.prepare, "get_init_inputs"):
        init = (
            _call(tp.prepare.get_init_inputs, case, device=None)
            if _accepts_device(tp.prepare.get_init_inputs)
            else _call(tp.prepare.get_init_inputs, case)
        )
    init = list(init or [])
    raw_inputs = list(raw_inputs) if isinstance(raw_inputs, (list, tuple)) else [raw_inputs]
    if tp.reference_np is not None:
        ref = _call(tp.reference_np.reference, case, *raw_inputs)
    elif tp.module is not None:
        ref = _run_torch_model(tp.module, init, raw_inputs)
    else:
        raise ReferenceError_(f"{task.validation}: neither reference_np.py nor module.py with a Model")
    call_raw: list[Any] | None = None
    if tp.module is not None and hasattr(tp.module, "ModelNew"):
        try:
            call_raw = _kernel_call_inputs(tp.module, init, raw_inputs)
        except ReferenceError_:
            if any(_is_sparse(x) for x in raw_inputs):
                raise
    if any(_is_sparse(x) for x in raw_inputs):
        # A sparse tensor never reaches a kernel: ModelNew turns it into dense tensors before calling
        # kernel_gen_ops (CoalesceSparse passes unique/inverse indices, the indices and the values). Those are the
        # kernel's inputs; the reference stays Model's output on the original inputs.
        raw_inputs, call_raw = call_raw or [], None
    inputs: list[Tensor] = []
    attrs: dict[str, Any] = {}
    for i, x in enumerate(raw_inputs):
        name = input_names[i] if i < len(input_names) else f"in{i}"
        if tensorlist.is_tensor_list(
            x, _to_numpy
        ):  # a TensorList: one kernel parameter (bench/tensorlist.py)
            try:
                inputs.append(tensorlist.make_list(name, x, _to_numpy, Tensor, index=i))  # type: ignore[arg-type]
            except ValueError as exc:
                raise ReferenceError_(str(exc)) from None
            continue
        conv = _to_numpy(x)
        if conv is None:
            attrs[name] = x.item() if hasattr(x, "item") else x
        else:
            inputs.append(Tensor(name, np.ascontiguousarray(conv[0]), conv[1], index=i))
    for j, x in enumerate(init):
        attrs.setdefault(f"init{j}", x.item() if hasattr(x, "item") and not hasattr(x, "shape") else x)
    outputs: list[Tensor] = []
    if tensorlist.list_output(ref, raw_inputs, _to_numpy):
        name = output_names[0] if output_names else "out0"
        try:
            outputs.append(tensorlist.output_list(name, ref, raw_inputs, _to_numpy, Tensor))  # type: ignore[arg-type]
        except ValueError as exc:
            raise ReferenceError_(str(exc)) from None
        ref_flat: list[Any] = []
    else:
        ref_flat = _flatten(ref)
    for k, x in enumerate(ref_flat):
        conv = _to_numpy(x)
        if conv is None:
            raise ReferenceError_(f"the reference returned a {type(x).__name__}, not an array")
        name = output_names[k] if k < len(output_names) else f"out{k}"
        outputs.append(Tensor(name, np.ascontiguousarray(conv[0]), conv[1]))
    tol = Tolerance()
    if hasattr(tp.prepare, "tolerance"):
        t = _call(tp.prepare.tolerance, case)
        tol = t if isinstance(t, Tolerance) else Tolerance(**t)
    custom = None
    if hasattr(tp.prepare, "custom_check_precision"):
        custom = _custom_adapter(tp.prepare.custom_check_precision, case, ref)
    data = CaseData(case, inputs, attrs, outputs, tol, custom, n_raw=len(raw_inputs))
    if call_raw is not None:
        data.call_view = _call_view(call_raw)
    return data, ref


def _call_view(raw: list[Any]) -> tuple[list[Tensor], dict[str, Any], int]:
    """(tensors, attributes, count) of the arguments ModelNew passes to the op; an absent optional tensor (None)
    is an attribute ``in<i>`` = None."""
    inputs: list[Tensor] = []
    attrs: dict[str, Any] = {}
    for i, x in enumerate(raw):
        conv = None if x is None or isinstance(x, (list, tuple)) else _to_numpy(x)
        if conv is None:
            attrs[f"in{i}"] = x.item() if hasattr(x, "item") else x
        else:
            inputs.append(Tensor(f"in{i}", np.ascontiguousarray(conv[0]), conv[1], index=i))
    return inputs, attrs, len(raw)


def _is_sparse(x: Any) -> bool:
    return type(x).__module__.startswith("torch") and getattr(x, "is_sparse", False)


class _KernelCall(Exception):
    def __init__(self, args: tuple[Any, ...]) -> None:
        super().__init__("kernel_gen_ops call captured")
        self.call_args = args


class _CaptureOps(types.ModuleType):
    """A stand-in for ``kernel_gen_ops`` whose every function records its arguments and stops ModelNew there."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)

        def op(*args: Any, **kwargs: Any) -> Any:
            raise _KernelCall(tuple(args) + tuple(kwargs.values()))

        return op


def _kernel_call_inputs(module: types.ModuleType, init: list[Any], inputs: list[Any]) -> list[Any]:
    """The arguments ModelNew passes to ``kernel_gen_ops.<op>(...)`` for these inputs: what the task's pybind hands
    to the NPU op. Raises ReferenceError_ when the module has no ModelNew or it never calls the op."""
    cls = getattr(module, "ModelNew", None)
    if cls is None:
        raise ReferenceError_("a sparse input and no ModelNew in module.py to show how it reaches the kernel")
    saved = module.__dict__.get("kernel_gen_ops")
    saved_mod = sys.modules.get("kernel_gen_ops")
    module.kernel_gen_ops = sys.modules["kernel_gen_ops"] = _CaptureOps("kernel_gen_ops")  # type: ignore[attr-defined]
    try:
        _call(cls(*init), *inputs)  # stops at the op call, before any result is used
    except _KernelCall as call:
        return list(call.call_args)
    except ReferenceError_ as exc:
        raise ReferenceError_(f"ModelNew failed before calling the op: {exc}") from None
    finally:
        if saved is not None:
            module.kernel_gen_ops = saved  # type: ignore[attr-defined]
        if saved_mod is not None:
            sys.modules["kernel_gen_ops"] = saved_mod
        else:
            sys.modules.pop("kernel_gen_ops", None)
    raise ReferenceError_("ModelNew never called kernel_gen_ops: the kernel's inputs are unknown")


def _accepts_device(fn: Callable[..., Any]) -> bool:
    import inspect

    try:
        return "device" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def _run_torch_model(module: types.ModuleType, init: list[Any], inputs: list[Any]) -> Any:
    if not torch_available():
        raise Skip(f"the reference Model needs torch, which is not installed here: {torch_fix()}")
    import copy

    model_cls = getattr(module, "Model", None)
    if model_cls is None:
        raise ReferenceError_("validation/module.py has no Model class")
    model = _call(model_cls, *init)
    if hasattr(model, "to"):
        model = model.to("cpu")
    return _call(model, *copy.deepcopy(inputs))


def _custom_adapter(fn: Callable[..., Any], case: Case, ref: Any) -> Callable[[Sequence[np.ndarray]], bool]:
    """Wrap NPUKernelBench's ``custom_check_precision(case, ref_output, test_output)`` (torch tensors in, (is_pass,
    abs, rel) out) as a function of the kernel's numpy outputs."""

    def check(outs: Sequence[np.ndarray]) -> bool:
        test: Any
        if torch_available() and not isinstance(_flatten(ref)[0], np.ndarray):
            import torch

            refs = _flatten(ref)
            conv = []
            for r, o in zip(refs, outs, strict=False):
                if o.dtype == np.uint16 and r.is_floating_point():
                    # bfloat16 bits: the kernel's output is bf16 (the op's dtype), also when the reference is float
                    # (Muls: a bf16 x times a float64 value tensor of shape [1] is float64 in torch)
                    conv.append(torch.from_numpy(o.astype(np.int16)).view(torch.bfloat16).reshape(r.shape))
                elif np.iscomplexobj(o) and not r.is_complex():
                    # the op's complex output as it is (AbsMath writes |x| into a complex64 tensor like x): the
                    # task's check subtracts it from the real reference, so its imaginary part counts
                    conv.append(torch.from_numpy(np.ascontiguousarray(o)).reshape(r.shape))
                else:
                    conv.append(torch.from_numpy(np.ascontiguousarray(o)).to(r.dtype).reshape(r.shape))
            test = conv[0] if not isinstance(ref, (list, tuple)) else conv
        else:
            test = list(outs) if isinstance(ref, (list, tuple)) else outs[0]
        res = _call(fn, case, ref, test)
        ok = res[0] if isinstance(res, (list, tuple)) else res
        check.last_stats = _max_stats(res)  # type: ignore[attr-defined]
        return bool(ok)

    return check


def _max_stats(res: Any) -> tuple[float, float] | None:
    """(max abs, max rel) from a custom check's (is_pass, abs diffs, rel diffs), when it returned them."""
    if not isinstance(res, (list, tuple)) or len(res) < 3:
        return None
    out = []
    for x in res[1:3]:
        try:
            n = int(x.numel()) if hasattr(x, "numel") else int(np.size(x))
            if not n:
                out.append(0.0)
            elif hasattr(x, "float"):
                # the max of a float tensor is one of its values: taken in its own dtype, then widened exactly
                native = str(x.dtype) in ("torch.float16", "torch.bfloat16", "torch.float32")
                out.append(float(x.max()) if native else float(x.float().max()))
            else:
                out.append(float(np.max(x)))
        except (TypeError, ValueError, RuntimeError, AttributeError):
            return None
    return out[0], out[1]

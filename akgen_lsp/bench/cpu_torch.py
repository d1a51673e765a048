"""NPUKernelBench's task Python on a CPU without torch_npu: what `reference` needs before it loads a task.

- `neutralise_npu_imports`: ``torch_npu`` (and its ``contrib``/``npu`` modules), ``kernel_gen_ops`` and ``torchair``
  become inert modules, and ``framework.utils.check_precision`` (which 29 tasks import) is `check_precision`, the
  default check under NPUKernelBench's name;
- `install_cpu_shims`: the random draws into integer tensors that the NPU accepts and CPU torch refuses;
- `torch_available` and `torch_fix`: whether torch is here, and how to get its CPU build when it is not.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from collections.abc import Callable
from typing import Any

_NEUTRALISED = (
    "torch_npu",
    "torch_npu.contrib",
    "torch_npu.contrib.transfer_to_npu",
    "torch_npu.npu",
    "kernel_gen_ops",
    "torchair",
)


class _Inert(types.ModuleType):
    """A module whose every attribute is a callable no-op, so ``torch_npu.npu.synchronize()`` and
    ``import kernel_gen_ops`` load without an NPU."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _InertObj()


class _InertObj:
    def __call__(self, *a: Any, **k: Any) -> _InertObj:
        return self

    def __getattr__(self, name: str) -> _InertObj:
        return self


def check_precision(outputs: Any, outputs_new: Any, max_abs_error: float, max_rel_error: float) -> Any:
    """The default check under NPUKernelBench's name (``framework.utils.check_precision``), which 29 tasks import:
    returns (1 or 0, abs diffs, rel diffs), the diffs as torch tensors. As the original (framework/utils.py), the
    differences are computed in the outputs' own dtype, and a non-finite output, abs diff or rel diff fails (in
    float16, rel = abs / (|ref| + 1e-7) overflows where the reference is 0 and the error above ~0.008)."""
    import torch

    outs = outputs if isinstance(outputs, list) else [outputs]
    news = outputs_new if isinstance(outputs_new, list) else [outputs_new]
    ok = True
    all_abs, all_rel = [], []
    for o, n in zip(outs, news, strict=False):
        if n.dtype == torch.bool:
            o, n = o.to(torch.int), n.to(torch.int)
        a = torch.abs(o - n)
        r = a / (torch.abs(o) + 1e-7)
        all_abs.append(a.reshape(-1))
        all_rel.append(r.reshape(-1))
        # the original tests o, n, a and r for non-finite values; r alone answers the same: a NaN or inf in o or n
        # makes a = |o - n| NaN or inf, which makes r = a / (|o| + 1e-7) NaN or inf (one pass over 67M elements, not
        # four: the Foreach tasks' outputs)
        if ok and not bool(torch.isfinite(r).all()):
            ok = False
        if ok and bool(((a > max_abs_error) & (r > max_rel_error)).any()):
            ok = False
    return (1 if ok else 0), _joined(all_abs), _joined(all_rel)


def _joined(parts: list[Any]) -> Any:
    """torch.cat of the parts; one part as it is (the same values, no copy)."""
    import torch

    return parts[0] if len(parts) == 1 else torch.cat(parts)


def neutralise_npu_imports() -> None:
    for name in _NEUTRALISED:
        if name not in sys.modules:
            sys.modules[name] = _Inert(name)
    if "framework.utils" not in sys.modules:
        fw = types.ModuleType("framework")
        utils = types.ModuleType("framework.utils")
        utils.check_precision = check_precision  # type: ignore[attr-defined]
        fw.utils = utils  # type: ignore[attr-defined]
        sys.modules.setdefault("framework", fw)
        sys.modules["framework.utils"] = utils


_SHIMMED = False


def install_cpu_shims() -> None:
    """CPU compatibility for what tasks do on the NPU and CPU torch refuses: random draws into integer or bool
    tensors. ``torch.rand(shape, dtype=torch.int32)`` (ClipByValue, AddRmsNormQuant) and ``torch.randn(...,
    dtype=torch.int8)`` (Cross) work on the NPU but raise NotImplementedError ("check_uniform_bounds" /
    "normal_kernel_cpu" not implemented for 'Int') on the CPU. The shim draws the same distribution in float32 and
    converts to the requested dtype (truncation toward zero, as a cast does). Only calls that CPU torch rejects are
    affected; everything else runs the original function. Installed once per process, when torch is loaded."""
    global _SHIMMED
    if _SHIMMED or sys.modules.get("torch") is None:  # not loaded (None: a blocked import)
        return
    import torch

    def not_float(dtype: Any) -> bool:
        return isinstance(dtype, torch.dtype) and not (dtype.is_floating_point or dtype.is_complex)

    def factory(orig: Callable[..., Any]) -> Callable[..., Any]:
        def fn(*args: Any, **kwargs: Any) -> Any:
            dtype = kwargs.get("dtype")
            if not_float(dtype):
                out = orig(*args, **{**kwargs, "dtype": torch.float32})
                return out.to(dtype)
            return orig(*args, **kwargs)

        fn.__wrapped__ = orig  # type: ignore[attr-defined]
        return fn

    def inplace(orig: Callable[..., Any]) -> Callable[..., Any]:
        def fn(self: Any, *args: Any, **kwargs: Any) -> Any:
            if not_float(self.dtype):
                tmp = orig(torch.empty(self.shape, dtype=torch.float32, device=self.device), *args, **kwargs)
                with torch.no_grad():
                    self.copy_(tmp.to(self.dtype))
                return self
            return orig(self, *args, **kwargs)

        fn.__wrapped__ = orig  # type: ignore[attr-defined]
        return fn

    for name in ("rand", "randn", "rand_like", "randn_like"):
        setattr(torch, name, factory(getattr(torch, name)))
    for name in ("uniform_", "normal_"):
        setattr(torch.Tensor, name, inplace(getattr(torch.Tensor, name)))
    _SHIMMED = True


def torch_available() -> bool:
    return importlib.util.find_spec("torch") is not None


TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def torch_fix() -> str:
    """What to run to get torch for a reference that needs it: the CPU build (the default wheel on PyPI for Linux is
    the CUDA one, several GB), its size first."""
    return (
        f"install the CPU build of torch (a download of about 190 MB, 0.7 GB installed) with "
        f"`bash scripts/setup.sh --torch` in akgen's checkout, or `{sys.executable} -m pip install torch "
        f"--index-url {TORCH_CPU_INDEX}`"
    )

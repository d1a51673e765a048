"""akgen's NPU runner for the cann toolchain: runs one candidate's cases through torch_npu and times them.

This file is copied next to a candidate's build and executed as ``python cann_npu_runner.py spec.json`` in a
subprocess (the akgen process never imports torch_npu). It imports only the standard library and numpy at module
level; torch and torch_npu are imported in `main`. For each case it:
1. loads the inputs the harness saved (``.npy``; bfloat16 as raw uint16 bits) onto the NPU, in get_inputs order;
2. calls the op: through the task's ``ModelNew`` (NPUKernelBench's way: it imports ``kernel_gen_ops`` itself),
   or ``kernel_gen_ops.<op>`` directly (the task's pybind returns the outputs; akgen's generated pybind takes
   preallocated outputs last); synchronises and saves the outputs as ``.npy``;
3. times the kernel as NPUKernelBench does: `warmup` calls, then `repeats` calls between two
   ``torch.npu.Event(enable_timing=True)``, mean milliseconds; and the task's reference ``Model`` (the torch_npu
   op) the same way, for the speedup.
It prints one line per case, ``AKGEN-CANN {json}``, so that CANN's own log lines on stdout cannot be mistaken for
results; the comparison with the reference is done by the harness (akgen_lsp.bench.compare), not here.

Never executed on an NPU in akgen's own CI (there is none); its logic is tested on the CPU with stand-ins for
torch_npu and kernel_gen_ops (tests/bench/cann/test_runner.py).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
import traceback
from collections.abc import Callable
from typing import Any

import numpy as np

PREFIX = "AKGEN-CANN "
EXIT_FATAL = 3


def emit(obj: dict[str, Any]) -> None:
    print(PREFIX + json.dumps(obj, allow_nan=True), flush=True)


def torch_dtype(torch: Any, name: str) -> Any:
    table = {
        "float16": torch.float16,
        "float32": torch.float32,
        "bfloat16": torch.bfloat16,
        "float64": torch.float64,
        "int8": torch.int8,
        "uint8": torch.uint8,
        "int16": torch.int16,
        "int32": torch.int32,
        "int64": torch.int64,
        "bool": torch.bool,
    }
    if name not in table:
        raise ValueError(f"dtype {name!r} is not supported by the runner")
    return table[name]


def load_tensor(torch: Any, path: str, dtype: str, device: str) -> Any:
    arr = np.load(path)
    if dtype == "bfloat16":
        t = torch.from_numpy(np.ascontiguousarray(arr).view(np.int16)).view(torch.bfloat16)
    else:
        t = torch.from_numpy(np.ascontiguousarray(arr))
    return t.to(device)


def save_tensor(torch: Any, t: Any, path: str) -> str:
    c = t.detach().to("cpu").contiguous()
    if c.dtype == torch.bfloat16:
        np.save(path, c.view(torch.int16).numpy().view(np.uint16))
        return "bfloat16"
    np.save(path, c.numpy())
    return str(c.numpy().dtype)


def build_args(torch: Any, case: dict[str, Any], device: str) -> list[Any]:
    """The call's positional arguments: {"tensor": path, "dtype": name} or {"value": v}, in get_inputs order."""
    out: list[Any] = []
    for a in case.get("args", []):
        if "tensor" in a:
            out.append(load_tensor(torch, a["tensor"], a["dtype"], device))
        else:
            out.append(a.get("value"))
    return out


def flatten(x: Any) -> list[Any]:
    if isinstance(x, (list, tuple)):
        items: list[Any] = []
        for e in x:
            items.extend(flatten(e))
        return items
    return [x]


def time_calls(
    call: Callable[[], Any], event: Callable[[], Any], sync: Callable[[], Any], warmup: int, repeats: int
) -> float:
    """Mean milliseconds of `repeats` calls after `warmup` calls, measured by two device events."""
    for _ in range(max(0, warmup)):
        call()
    sync()
    start, end = event(), event()
    start.record()
    for _ in range(max(1, repeats)):
        call()
    end.record()
    sync()
    return float(start.elapsed_time(end)) / max(1, repeats)


def load_module(name: str, path: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_case(
    torch: Any,
    fn: Callable[..., Any],
    case: dict[str, Any],
    spec: dict[str, Any],
    model_cls: Any | None,
    model_new_cls: Any | None = None,
) -> dict[str, Any]:
    device = spec.get("device", "npu:0")
    npu = torch.npu
    args = build_args(torch, case, device)
    if (
        spec.get("call") == "model_new"
    ):  # NPUKernelBench's way: the task's ModelNew calls kernel_gen_ops itself
        if model_new_cls is None:
            return {"status": "error", "error": "validation/module.py has no ModelNew class"}
        fn = model_new_cls(*case.get("init", []))
        if hasattr(fn, "to"):
            fn = fn.to(device)
    outs: list[Any] = []
    if spec.get("call") == "out_args":
        outs = [
            torch.zeros(o["shape"], dtype=torch_dtype(torch, o["dtype"]), device=device)
            for o in case["outputs"]
        ]

    def call() -> Any:
        return fn(*args, *outs)

    with torch.no_grad():
        res = call()
        npu.synchronize()
        got = outs if outs else flatten(res)
        if len(got) != len(case["outputs"]):
            return {
                "status": "error",
                "error": f"the op returned {len(got)} output(s), the reference has {len(case['outputs'])}",
            }
        paths = []
        for t, o in zip(got, case["outputs"]):  # noqa: B905  (runs on the user's Python, maybe < 3.10)
            save_tensor(torch, t, o["path"])
            paths.append(o["path"])

        def event() -> Any:
            return npu.Event(enable_timing=True)

        warmup, repeats = int(spec.get("warmup", 1)), int(spec.get("repeats", 100))
        kernel_ms = time_calls(call, event, npu.synchronize, warmup, repeats)
        reference_ms = None
        note = None
        if model_cls is not None:
            try:
                model = model_cls(*case.get("init", []))
                if hasattr(model, "to"):
                    model = model.to(device)
                reference_ms = time_calls(lambda: model(*args), event, npu.synchronize, warmup, repeats)
            except Exception as exc:  # the reference's own failure only loses the speedup
                note = f"the reference Model could not be timed: {type(exc).__name__}: {exc}"
    return {
        "status": "ok",
        "outputs": paths,
        "kernel_ms": kernel_ms,
        "reference_ms": reference_ms,
        "note": note,
    }


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        emit({"event": "fatal", "error": "usage: cann_npu_runner.py SPEC.json"})
        return 2
    try:
        with open(argv[1], encoding="utf-8") as fh:
            spec = json.load(fh)
    except (OSError, ValueError) as exc:
        emit({"event": "fatal", "error": f"cannot read the runner spec {argv[1]}: {exc}"})
        return 2
    try:
        import torch
        import torch_npu  # noqa: F401  (registers torch.npu)
    except Exception as exc:
        emit(
            {
                "event": "fatal",
                "error": f"cannot import torch_npu in {sys.executable} ({type(exc).__name__}: "
                f"{exc}): install torch and the matching torch_npu there, and source CANN's set_env.sh",
            }
        )
        return EXIT_FATAL
    try:
        sys.path.insert(0, spec["module_dir"])
        mod = importlib.import_module(spec.get("module", "kernel_gen_ops"))
        fn = getattr(mod, spec["function"])
    except Exception as exc:
        emit(
            {
                "event": "fatal",
                "error": f"cannot load the built op {spec.get('module', 'kernel_gen_ops')}."
                f"{spec.get('function')} from {spec.get('module_dir')} ({type(exc).__name__}: {exc}); "
                f"ASCEND_CUSTOM_OPP_PATH={os.environ.get('ASCEND_CUSTOM_OPP_PATH', '(unset)')}",
            }
        )
        return EXIT_FATAL
    if spec.get("device_index") is not None:
        torch.npu.set_device(int(spec["device_index"]))
    model_cls = model_new_cls = None
    note = None
    if spec.get("reference_module"):
        try:
            ref = load_module("akgen_reference_module", spec["reference_module"])
            model_cls, model_new_cls = getattr(ref, "Model", None), getattr(ref, "ModelNew", None)
        except Exception as exc:
            note = f"the reference module could not be loaded: {type(exc).__name__}: {exc}"
    for case in spec.get("cases", []):
        try:
            rec = run_case(torch, fn, case, spec, model_cls, model_new_cls)
        except Exception as exc:
            rec = {
                "status": "error",
                "error": f"{type(exc).__name__}: {exc}",
                "traceback": traceback.format_exc(limit=4),
            }
        if note and not rec.get("note"):
            rec["note"] = note
        emit({"event": "case", "case_id": case.get("case_id"), **rec})
    emit({"event": "done"})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

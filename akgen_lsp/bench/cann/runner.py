"""The harness side of the NPU runner (`npu_runner.py`, copied beside a build as `cann_npu_runner.py`): the spec it reads, the environment it runs in, and the
parsing of what it prints. The runner itself executes in a subprocess with the user's torch_npu Python."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from akgen_lsp.bench.reference import CaseData

RUNNER_SCRIPT = Path(__file__).with_name("npu_runner.py")
RUNNER_NAME = "cann_npu_runner.py"  # the name it has beside a build (the one its usage line and docs give)
PREFIX = "AKGEN-CANN "
WARMUP = 1  # NPUKernelBench: one warm-up call,
REPEATS = 100  # then 100 timed calls (eval.num_perf_trials)

_POS = re.compile(r"^in(\d+)$")


@dataclass
class RunnerOutput:
    """What one runner process said: a fatal error (nothing ran), per-case records, whether it finished."""

    fatal: str | None = None
    cases: dict[int, dict[str, Any]] = field(default_factory=dict)
    done: bool = False
    malformed: list[str] = field(default_factory=list)


def parse_runner_output(text: str) -> RunnerOutput:
    """The ``AKGEN-CANN {json}`` lines of the runner's stdout; other lines (CANN and torch_npu logs) are ignored."""
    out = RunnerOutput()
    for raw in text.splitlines():
        line = raw.strip()
        if not line.startswith(PREFIX):
            continue
        try:
            obj = json.loads(line[len(PREFIX) :])
        except ValueError:
            out.malformed.append(line[:200])
            continue
        if not isinstance(obj, dict):
            out.malformed.append(line[:200])
            continue
        ev = obj.get("event")
        if ev == "fatal":
            out.fatal = str(obj.get("error", "the runner failed"))
        elif ev == "case":
            try:
                out.cases[int(obj.get("case_id"))] = obj
            except (TypeError, ValueError):
                out.malformed.append(line[:200])
        elif ev == "done":
            out.done = True
    return out


def call_params(data: CaseData) -> list[tuple[str, str]]:
    """("tensor"|"scalar", name) for each get_inputs argument, in order (the harness names them in0, in1, ...)."""
    found: dict[int, tuple[str, str]] = {}
    for t in data.inputs:
        m = _POS.match(t.name)
        if m:
            found[int(m.group(1))] = ("tensor", t.name)
    for k in data.attrs:
        m = _POS.match(k)
        if m:
            found[int(m.group(1))] = ("scalar", k)
    return [found[i] for i in sorted(found)]


def _json_value(v: Any) -> Any:
    if hasattr(v, "item") and not hasattr(v, "__len__"):
        v = v.item()
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    if isinstance(v, (list, tuple)) and all(isinstance(e, (bool, int, float)) for e in v):
        return list(v)
    raise ValueError(f"an argument of type {type(v).__name__} cannot be passed to the NPU runner")


def case_spec(case_id: int, data: CaseData, case_dir: Path) -> dict[str, Any]:
    """One case for the runner: the same inputs the CPU reference saw (saved as .npy), the arguments in order, where
    to write each output, and its shape and dtype (for preallocated outputs)."""
    case_dir.mkdir(parents=True, exist_ok=True)
    tensors = {t.name: t for t in data.inputs}
    args: list[dict[str, Any]] = []
    for kind, name in call_params(data):
        if kind == "tensor":
            p = case_dir / f"{name}.npy"
            np.save(p, tensors[name].array)
            args.append({"tensor": str(p), "dtype": tensors[name].dtype})
        else:
            args.append({"value": _json_value(data.attrs[name])})
    init = [
        _json_value(data.attrs[k])
        for k in sorted((k for k in data.attrs if re.fullmatch(r"init\d+", k)), key=lambda k: int(k[4:]))
    ]
    outputs = [
        {
            "name": t.name,
            "shape": [int(d) for d in t.array.shape],
            "dtype": t.dtype,
            "path": str(case_dir / f"{t.name}.npu.npy"),
        }
        for t in data.outputs
    ]
    return {"case_id": int(case_id), "args": args, "init": init, "outputs": outputs}


def runner_spec(
    cases: Sequence[dict[str, Any]],
    module_dir: Path,
    function: str,
    call: str,
    reference_module: Path | None,
    device_index: int | None = None,
    warmup: int = WARMUP,
    repeats: int = REPEATS,
    device: str | None = None,
) -> dict[str, Any]:
    return {
        "module_dir": str(module_dir),
        "module": "kernel_gen_ops",
        "function": function,
        "call": call,
        "reference_module": str(reference_module) if reference_module else None,
        "device": device or f"npu:{device_index or 0}",
        "device_index": device_index,
        "warmup": warmup,
        "repeats": repeats,
        "cases": list(cases),
    }


def runner_env(vendor: Path | None, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The runner's environment: ASCEND_CUSTOM_OPP_PATH names the custom op package's vendor folder first (what the
    package's bin/set_env.bash does), and its op_api/lib is on LD_LIBRARY_PATH for libcust_opapi.so."""
    env = dict(os.environ if base is None else base)
    if vendor is not None:
        old = env.get("ASCEND_CUSTOM_OPP_PATH", "")
        env["ASCEND_CUSTOM_OPP_PATH"] = f"{vendor}:{old}" if old else str(vendor)
        lib = vendor / "op_api" / "lib"
        ld = env.get("LD_LIBRARY_PATH", "")
        env["LD_LIBRARY_PATH"] = f"{lib}:{ld}" if ld else str(lib)
    return env

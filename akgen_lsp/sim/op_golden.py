"""The golden check of an operator's kernel UT that runs no compare script: what op_test.py hands to ut_golden.py
(run in the box with the tests' Python) and how its answers become the UT's golden verdict.

What the check needs, all read from the operator's own files: the kernel entry's parameter names
(`op_kernel/<op>.cpp`: `extern "C" __global__ __aicore__ void <op>(GM_ADDR x, GM_ADDR y, ...)`), the op
definition's inputs (`op_host/*_def.cpp`: `this->Input("x")`, in order; without one, golden.py's parameters without
a default are the inputs) and each parameter's dtype (the `-DDTYPE_<NAME>=<type>` of the UT's AddOpTestCase).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).resolve().parent / "ut_golden.py"

# C++ element types of the UTs' DTYPE defines -> numpy dtype names
_NUMPY = {
    "half": "float16",
    "float16_t": "float16",
    "float": "float32",
    "float32_t": "float32",
    "bfloat16_t": "bfloat16",
    "bfloat16": "bfloat16",
    "double": "float64",
    "bool": "bool",
    "int8_t": "int8",
    "uint8_t": "uint8",
    "int16_t": "int16",
    "uint16_t": "uint16",
    "int32_t": "int32",
    "uint32_t": "uint32",
    "int64_t": "int64",
    "uint64_t": "uint64",
}


def kernel_params(kernel: Path, op: str) -> list[str]:
    """The parameter names of the kernel entry `op` in `kernel` (empty when not found)."""
    try:
        text = kernel.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    m = re.search(rf"__global__\s+(?:__aicore__\s+)?void\s+{re.escape(op)}\s*\(([^)]*)\)", text)
    if m is None:
        return []
    names = []
    for piece in m.group(1).split(","):
        words = re.findall(r"[A-Za-z_]\w*", piece)
        if words:
            names.append(words[-1])
    return names


def def_inputs(op_dir: Path) -> list[str] | None:
    """The op definition's input names in order (op_host/*_def.cpp), or None without a definition."""
    defs = sorted((op_dir / "op_host").glob("*_def.cpp")) if (op_dir / "op_host").is_dir() else []
    for d in defs:
        text = d.read_text(encoding="utf-8", errors="replace")
        first_out = re.search(
            r"\bOutput\s*\(", text
        )  # the op's own list, not a later per-SoC config's repeat
        names = re.findall(r"\bInput\s*\(\s*\"(\w+)\"", text[: first_out.start()] if first_out else text)
        if names:
            return list(dict.fromkeys(names))
    return None


def ut_dtypes(cmake_text: str) -> dict[str, str]:
    """DTYPE_<NAME>=<type> of the UT's AddOpTestCase options -> {name (lower case): numpy dtype name}."""
    out: dict[str, str] = {}
    for name, ctype in re.findall(r"-DDTYPE_(\w+)=([\w:]+)", cmake_text):
        np_name = _NUMPY.get(ctype.split("::")[-1])
        if np_name:
            out.setdefault(name.lower(), np_name)
    return out


def golden_spec(op: str, op_dir: Path, ut_cmake: Path) -> dict[str, Any]:
    """The spec ut_golden.py takes: the kernel's parameters, the op's inputs and each parameter's dtype."""
    params = kernel_params(op_dir / "op_kernel" / f"{op}.cpp", op)
    declared = ut_dtypes(ut_cmake.read_text(encoding="utf-8", errors="replace")) if ut_cmake.is_file() else {}
    dtypes = {p: declared[p.lower()] for p in params if p.lower() in declared}
    if params and len(set(declared.values())) == 1:  # one dtype for all (-DDTYPE_X=half -DDTYPE_Y=half, named
        only = next(iter(declared.values()))  # after the def rather than the kernel's parameters)
        dtypes = {p: dtypes.get(p, only) for p in params}
    return {"params": params, "inputs": def_inputs(op_dir), "dtypes": dtypes}


def golden_verdict(
    op: str, golden: Path, spec: dict[str, Any], dumps: Sequence[Path], run_box: Callable[[list[str]], Any]
) -> tuple[str, str]:
    """("match" | "mismatch" | "not-compared", detail) over the dump folders of the UT's binaries; `run_box(argv)`
    runs a command in the box and returns its result (output, returncode)."""
    if not spec["params"]:
        return "not-compared", f"op_kernel/{op}.cpp has no kernel entry named {op}"
    verdicts: list[dict[str, Any]] = []
    for dump in dumps:
        if not (dump / "launches.tsv").is_file():
            continue
        out = run_box([str(SCRIPT), str(dump), str(golden), op, json.dumps(spec)])
        lines = [s for s in out.output.strip().splitlines() if s.startswith("{")]
        try:
            verdicts.append(json.loads(lines[-1]))
        except (IndexError, ValueError):
            tail = out.output.strip().splitlines()[-1:] or ["no output"]
            return "not-compared", f"the golden check did not finish: {tail[0][:200]}"
    if not verdicts:
        return "not-compared", f"the UT launched no {op} kernel on GmAlloc buffers"
    for kind in ("mismatch", "match"):
        hit = [v for v in verdicts if v.get("verdict") == kind]
        if hit:
            return kind, "golden.py: " + "; ".join(str(v.get("detail", "")) for v in hit)[:500]
    return "not-compared", "golden.py not compared: " + str(verdicts[0].get("detail", ""))[:300]

"""How many NPUKernelBench reference answers build on the simulator (kernel and op_host TilingFunc), with the first
error of each failure grouped by message. Local only: point it at a checkout of NPUKernelBench; nothing of it is
copied here.

Run: `python benchmarks/bench_sim_npukernelbench.py /path/to/NPUKernelBench/tasks --level level1 [--show 40] [--run]`

With --run, element-wise tasks whose first test case is one `shape` and one `dtype` also run on the simulator
(host TilingFunc, then the kernel) on random inputs, and tasks with a numpy reference below are compared with
NPUKernelBench's tolerance (|diff| <= rtol * max(1, |ref|): rtol 1/512 for float16, 1/2048 + 1/16384 for float32, as akgen_lsp.bench.npref).

The kernel's signature comes from its `extern "C" __global__` entry; DTYPE_<NAME> defines from the first dtype of
each Input/Output in the OpDef (as the custom-op build does for its first dtype combination).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import tempfile
import time
from pathlib import Path

import numpy as np

ENTRY = re.compile(r'extern\s+"C"\s+__global__\s+__aicore__\s+void\s+(\w+)\s*\(([^)]*)\)', re.S)
PARAM = re.compile(r'this->(Input|Output)\("(\w+)"\)(.*?);', re.S)
DTYPE = re.compile(r"ge::(DT_\w+)")
GE_TO_C = {"DT_FLOAT16": "half", "DT_FLOAT": "float", "DT_BF16": "bfloat16_t", "DT_INT32": "int32_t",
           "DT_INT8": "int8_t", "DT_UINT8": "uint8_t", "DT_INT16": "int16_t", "DT_INT64": "int64_t",
           "DT_BOOL": "bool", "DT_UINT32": "uint32_t", "DT_UINT16": "uint16_t", "DT_UINT64": "uint64_t",
           "DT_DOUBLE": "double", "DT_COMPLEX64": "int64_t"}


def signature(params: str) -> list[dict]:
    out = []
    for p in (x.strip() for x in params.split(",") if x.strip()):
        ctype = p.rsplit(None, 1)[0] if " " in p else p
        if "GM_ADDR" in ctype or "*" in ctype:
            out.append({"kind": "gm_in", "ctype": "GM_ADDR"})
        else:
            out.append({"kind": "scalar", "ctype": ctype.replace("const", "").strip()})
    return out


def dtype_defines(host_text: str) -> dict[str, str]:
    defs: dict[str, str] = {}
    for _kind, name, body in PARAM.findall(host_text):
        m = DTYPE.search(body)
        if m and m.group(1) in GE_TO_C:
            defs[f"DTYPE_{name.upper()}"] = GE_TO_C[m.group(1)]
            defs[f"ORIG_DTYPE_{name.upper()}"] = GE_TO_C[m.group(1)]
    return defs


REFS = {
    "AddCustom": lambda x, y: x + y, "UnalignAdd": lambda x, y: x + y, "AbsMath": np.abs, "Neg": np.negative,
    "Sqrt": np.sqrt, "Rsqrt": lambda x: 1 / np.sqrt(x), "SinMath": np.sin, "CosMath": np.cos, "TanhMath": np.tanh,
    "Lerp": None, "Addcmul": None,
}


def first_case(task: Path) -> dict[str, str]:
    lines = (task / "validation" / "test_cases.csv").read_text().splitlines()
    head = lines[0].split(";")
    return dict(zip(head, lines[1].split(";"), strict=False)) if len(lines) > 1 else {}


def run_task(ans: Path, kernel: Path, host: Path, entry: str, params: str, tmp: Path) -> tuple[str, str]:
    """(outcome, detail): outcome is pass, fail, ran, skipped or an error status."""
    import ast
    import json

    from akgen_lsp.sim import run_manifest

    task = ans.parent.parent
    case = first_case(task)
    shape_cols = [k for k in case if "shape" in k.lower()]
    if len(shape_cols) != 1 or "dtype" not in case:
        return "skipped", "not one shape and one dtype"
    try:
        shape = ast.literal_eval(case[shape_cols[0]])
    except (ValueError, SyntaxError):
        return "skipped", "shape not a list"
    if not isinstance(shape, list) or not all(isinstance(d, int) for d in shape):
        return "skipped", "shape not flat"
    dtype = case["dtype"].strip()
    if dtype not in ("float16", "float32"):
        return "skipped", f"dtype {dtype}"
    host_text = host.read_text(errors="replace")
    ins = [n for k, n, _ in PARAM.findall(host_text) if k == "Input"]
    outs = [n for k, n, _ in PARAM.findall(host_text) if k == "Output"]
    attrs = re.findall(r'Attr\("(\w+)"\)', host_text)
    rng = np.random.default_rng(0)
    args, arrays = [], {}
    names = [p.strip().split()[-1].lstrip("*") for p in params.split(",") if p.strip()]
    for n in names:
        if n in ins:
            arrays[n] = rng.uniform(0.1, 2.0, shape).astype(dtype)
            np.save(tmp / f"{n}.npy", arrays[n])
            args.append({"name": n, "input": f"{n}.npy"})
        elif n in outs:
            args.append({"name": n, "output": f"{n}.out.npy", "dtype": dtype, "shape": shape})
        elif "workspace" in n.lower():
            args.append({"name": n, "workspace_bytes": 0})
        elif "tiling" in n.lower():
            vals = {}
            for a in attrs:
                for k, v in case.items():
                    if k.lower() == a.lower():
                        try:
                            vals[a] = ast.literal_eval(v)
                        except (ValueError, SyntaxError):
                            vals[a] = v
            args.append({"name": n, "tiling": {"host": str(host), "attrs": vals}})
        else:
            return "skipped", f"parameter {n} is neither an input nor an output"
    (tmp / "m.json").write_text(json.dumps({"sources": [str(kernel)], "kernel": entry, "args": args,
                                            "include_dirs": [str(ans / "op_kernel")], "timeout_s": 60}))
    res = run_manifest(tmp / "m.json", tmp / "out", confine=False)
    if res.status != "ok":
        first = res.findings[0] if res.findings else None
        return res.status, (f"{first.code}: {first.message[:100]}" if first else "")
    ref = REFS.get(task.name)
    if ref is None or len(outs) != 1:
        return "ran", "no numpy reference here"
    got = np.load(res.outputs[outs[0]]).astype(np.float32)
    want = ref(*[arrays[n].astype(np.float32) for n in ins]).astype(np.float32)
    tol = 1 / 512 if dtype == "float16" else 1 / 2048 + 1 / 16384
    bad = np.abs(got - want) > tol * np.maximum(1.0, np.abs(want))
    return ("pass", "") if not bad.any() else ("fail", f"{int(bad.sum())} of {bad.size} elements off")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("tasks", type=Path)
    ap.add_argument("--level", default="level1")
    ap.add_argument("--show", type=int, default=30)
    ap.add_argument("--run", action="store_true", help="also run element-wise tasks and compare with numpy")
    ns = ap.parse_args()
    os.environ.setdefault("AKGEN_CACHE_DIR", tempfile.mkdtemp(prefix="akgen-nkb-cache-"))
    from akgen_lsp.sim.build import compile_kernel
    from akgen_lsp.sim.build_types import BuildOptions
    from akgen_lsp.sim.host import build_host, tiling_header_of

    answers = sorted((ns.tasks / ns.level).glob("*/*/answer/0"))
    kernel_ok = host_ok = 0
    runs: collections.Counter[str] = collections.Counter()
    causes: collections.Counter[str] = collections.Counter()
    where: dict[str, list[str]] = collections.defaultdict(list)
    t0 = time.perf_counter()
    for ans in answers:
        task = ans.parent.parent.name
        kernels = sorted((ans / "op_kernel").glob("*.cpp"))
        hosts = sorted((ans / "op_host").glob("*.cpp"))
        if not kernels:
            causes["no op_kernel/*.cpp"] += 1
            continue
        ktext = kernels[0].read_text(errors="replace")
        m = ENTRY.search(ktext)
        if not m:
            causes["no extern \"C\" __global__ __aicore__ entry"] += 1
            where["no entry"].append(task)
            continue
        host_text = hosts[0].read_text(errors="replace") if hosts else ""
        header = tiling_header_of(hosts[0]) if hosts else None
        opts = BuildOptions(kernel=m.group(1), signature=signature(m.group(2)), defines=dtype_defines(host_text),
                            tiling_header=header, tiling_struct=None, include_dirs=[ans / "op_kernel"])
        b = compile_kernel(kernels, opts)
        if b.ok:
            kernel_ok += 1
        else:
            msg = (b.findings[0].message if os.environ.get("AKGEN_RAW") else re.sub(r"'[^']*'", "'…'", b.findings[0].message))[:150] if b.findings else "unknown"
            causes["kernel: " + msg] += 1
            where["kernel: " + msg].append(task)
        if ns.run and b.ok and hosts:
            with tempfile.TemporaryDirectory() as td:
                outcome, detail = run_task(ans, kernels[0], hosts[0], m.group(1), m.group(2), Path(td))
            runs[outcome] += 1
            print(f"  run {task}: {outcome} {detail}")
        if hosts:
            binary, findings = build_host(hosts[0])
            if binary is not None:
                host_ok += 1
            else:
                msg = (findings[0].message if os.environ.get("AKGEN_RAW") else re.sub(r"'[^']*'", "'…'", findings[0].message))[:150] if findings else "unknown"
                causes["host: " + msg] += 1
                where["host: " + msg].append(task)
    n = len(answers)
    print(f"{ns.level}: {n} answers; kernels compile: {kernel_ok}/{n}; op_host compiles: {host_ok}/{n} "
          f"({time.perf_counter() - t0:.0f} s)")
    if ns.run:
        print("runs: " + ", ".join(f"{k} {v}" for k, v in runs.most_common()))
    for cause, count in causes.most_common(ns.show):
        print(f"  {count:3d}  {cause}   [{', '.join(where[cause][:4])}]")


if __name__ == "__main__":
    main()

"""How many NPUKernelBench reference answers build on the simulator (kernel and op_host TilingFunc), with the first
error of each failure grouped by message. Local only: point it at a checkout of NPUKernelBench; nothing of it is
copied here.

Run: `python benchmarks/bench_sim_npukernelbench.py /path/to/NPUKernelBench/tasks --level level1 [--show 40]`

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("tasks", type=Path)
    ap.add_argument("--level", default="level1")
    ap.add_argument("--show", type=int, default=30)
    ns = ap.parse_args()
    os.environ.setdefault("AKGEN_CACHE_DIR", tempfile.mkdtemp(prefix="akgen-nkb-cache-"))
    from akgen_lsp.sim.build import BuildOptions, compile_kernel
    from akgen_lsp.sim.host import build_host, tiling_header_of

    answers = sorted((ns.tasks / ns.level).glob("*/*/answer/0"))
    kernel_ok = host_ok = 0
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
    for cause, count in causes.most_common(ns.show):
        print(f"  {count:3d}  {cause}   [{', '.join(where[cause][:4])}]")


if __name__ == "__main__":
    main()

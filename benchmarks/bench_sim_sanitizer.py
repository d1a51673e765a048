"""What the sanitizer checks cost (initcheck of UB and GM, racecheck, outputs never written): each sample kernel run
with them (the default) and without (`"sanitize": false` in the manifest), the same build, alternating, and the
median ratio of the time the blocks ran (`kernel_us`) and of the whole run (`run_wall_s`) printed per kernel.

Run: `python benchmarks/bench_sim_sanitizer.py [--repeat 5]`. Uses a fresh cache dir under /tmp unless
AKGEN_CACHE_DIR is set. Prints the figures; asserts nothing (target: <= 1.3x run time).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
K = REPO / "samples" / "kernels"
rng = np.random.default_rng(0)

# name: (source, kernel, block_dim, inputs, outputs)
CASES = {
    "add_custom fp16 48x128x512": ("add_custom.cpp", "add_custom", 48,
                                   {"x": rng.standard_normal((48, 128, 512)).astype(np.float16),
                                    "y": rng.standard_normal((48, 128, 512)).astype(np.float16)},
                                   {"z": ("float16", [48, 128, 512])}),
    "exp_half 48x8192": ("exp_half.cpp", "exp_half", 48, {"x": rng.standard_normal((48, 8192)).astype(np.float16)},
                         {"y": ("float16", [48, 8192])}),
    "row_reduce_sum 3072x1024": ("row_reduce_sum.cpp", "row_reduce_sum", 48,
                                 {"x": rng.standard_normal((3072, 1024)).astype(np.float32)},
                                 {"y": ("float32", [3072])}),
    "basic_matmul 512^3 fp16": ("matmul_cube.cpp", "basic_matmul", 16,
                                {"a": rng.standard_normal((512, 512)).astype(np.float16),
                                 "b": rng.standard_normal((512, 512)).astype(np.float16)},
                                {"c": ("float16", [512, 512])}),
}


def manifest(work: Path, name: str, sanitize: bool) -> Path:
    src, kernel, blocks, inputs, outputs = CASES[name]
    args = []
    for k, v in inputs.items():
        np.save(work / f"{k}.npy", v)
        args.append({"name": k, "input": f"{k}.npy"})
    args += [{"name": k, "output": f"{k}.npy", "dtype": d, "shape": s} for k, (d, s) in outputs.items()]
    args += [{"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "workspace_bytes": 0}]
    path = work / f"m_{int(sanitize)}.json"
    path.write_text(json.dumps({"sources": [str(K / src)], "kernel": kernel, "block_dim": blocks, "args": args,
                                "sanitize": sanitize, "timeout_s": 300, "cpu_s": 300}), encoding="utf-8")
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ns = ap.parse_args()
    os.environ.setdefault("AKGEN_CACHE_DIR", tempfile.mkdtemp(prefix="akgen-bench-cache-"))
    from akgen_lsp.sim import run_manifest

    print(f"{'kernel':32} {'kernel_us on/off':>24} {'ratio':>6} {'run_s on/off':>18} {'ratio':>6}")
    ratios_k, ratios_w = [], []
    for name in CASES:
        work = Path(tempfile.mkdtemp(prefix="akgen-san-"))
        paths = {s: manifest(work, name, s) for s in (True, False)}
        for s in (True, False):  # build once (cached), and check the kernel runs cleanly
            res = run_manifest(paths[s], work / "warm", confine=False)
            assert res.status == "ok", [f.message for f in res.findings]
        k: dict[bool, list[float]] = {True: [], False: []}
        w: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(ns.repeat):
            for s in (True, False):
                res = run_manifest(paths[s], work / "out", confine=False)
                k[s].append(float(res.build["kernel_us"]))
                w[s].append(float(res.build["run_wall_s"]))
        km = {s: statistics.median(v) for s, v in k.items()}
        wm = {s: statistics.median(v) for s, v in w.items()}
        rk, rw = km[True] / km[False], wm[True] / wm[False]
        ratios_k.append(rk)
        ratios_w.append(rw)
        print(f"{name:32} {km[True]:11.0f} /{km[False]:11.0f} {rk:6.2f} {wm[True]:8.3f} /{wm[False]:8.3f} {rw:6.2f}")
    print(f"median ratio: kernel time {statistics.median(ratios_k):.2f}x, run time {statistics.median(ratios_w):.2f}x; "
          f"worst {max(ratios_k):.2f}x / {max(ratios_w):.2f}x (target <= 1.3x run time)")


if __name__ == "__main__":
    main()

"""Simulator figure: GFLOP/s of the emulated high-level Matmul (lib/matmul_intf.h) on one vector core, fp16 A x fp16 B
into float C, for an M = N = K = SIZE problem (default 1024: 2.1 GFLOP), computed with IterateAll and, apart, base
block by base block with Iterate + GetTensorC.

Run: `python benchmarks/bench_sim_matmul.py [--size 1024] [--repeat 3]`. The kernel is compiled once (a fresh cache
dir under /tmp unless AKGEN_CACHE_DIR is set); the time of a run of a 16^3 problem (process start, launch, checks) is
subtracted from the big one, so the figure is the matmul's own rate. Checks C against numpy; asserts nothing about
speed. The bench harness runs each case under the manifest's limits (cpu_s 20 by default, timeout_s 60 in
`akgen bench run`): the figure says how many GFLOP a case can afford.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

KERNEL = r"""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void bench_mm(GM_ADDR a, GM_ADDR b, GM_ADDR c, int32_t n, int32_t blocks)
{
    TPipe pipe;
    TCubeTiling tiling;
    tiling.usedCoreNum = 1;
    tiling.M = n;
    tiling.N = n;
    tiling.Ka = n;
    tiling.Kb = n;
    tiling.singleCoreM = n;
    tiling.singleCoreN = n;
    tiling.singleCoreK = n;
    tiling.baseM = n < 128 ? n : 128;
    tiling.baseN = n < 256 ? n : 256;
    tiling.baseK = 64;
    matmul::Matmul<AT, BT, CT> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    if (GetBlockIdx() != 0) return;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, n * n);
    bGm.SetGlobalBuffer((__gm__ half*)b, n * n);
    cGm.SetGlobalBuffer((__gm__ float*)c, n * n);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    if (blocks) {
        while (mm.Iterate()) mm.GetTensorC(cGm);
    } else {
        mm.IterateAll(cGm);
    }
    mm.End();
}
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=3)
    ns = ap.parse_args()
    os.environ.setdefault("AKGEN_CACHE_DIR", tempfile.mkdtemp(prefix="akgen-bench-cache-"))
    from akgen_lsp.sim import run_manifest

    work = Path(tempfile.mkdtemp(prefix="akgen-bench-mm-"))
    (work / "bench_mm.cpp").write_text(KERNEL, encoding="utf-8")

    def run(n: int, blocks: int) -> tuple[float, np.ndarray, np.ndarray]:
        rng = np.random.default_rng(n)
        a = rng.uniform(-1, 1, (n, n)).astype(np.float16)
        b = rng.uniform(-1, 1, (n, n)).astype(np.float16)
        np.save(work / "a.npy", a)
        np.save(work / "b.npy", b)
        m = work / f"m{n}_{blocks}.json"
        m.write_text(json.dumps({
            "sources": ["bench_mm.cpp"], "kernel": "bench_mm", "block_dim": 1, "arch": "Ascend910B2",
            "timeout_s": 600, "cpu_s": 600,
            "args": [{"name": "a", "input": "a.npy"}, {"name": "b", "input": "b.npy"},
                     {"name": "c", "output": "c.npy", "dtype": "float32", "shape": [n, n]},
                     {"name": "n", "scalar": n, "type": "int32_t"},
                     {"name": "blocks", "scalar": blocks, "type": "int32_t"}]}), encoding="utf-8")
        t0 = time.perf_counter()
        res = run_manifest(m, work / f"out{n}_{blocks}", confine=False)
        dt = time.perf_counter() - t0
        if res.status != "ok":
            raise SystemExit(f"the {n}^3 run failed: {res.status}: {[f.message for f in res.findings][:3]}")
        return dt, np.load(res.outputs["c"]), a.astype(np.float32) @ b.astype(np.float32)

    run(16, 0)  # compile
    flop = 2.0 * ns.size ** 3
    for blocks, label in ((0, "IterateAll"), (1, "Iterate+GetTensorC")):
        small = statistics.median(run(16, blocks)[0] for _ in range(ns.repeat))
        times = []
        err = 0.0
        for _ in range(ns.repeat):
            dt, c, ref = run(ns.size, blocks)
            times.append(dt - small)
            err = max(err, float(np.max(np.abs(c - ref))))
        t = statistics.median(times)
        print(f"matmul {label} fp16 {ns.size}^3: {t:.3f} s (launch {small:.3f} s subtracted), "
              f"{flop / t / 1e9:.2f} GFLOP/s, max |C - numpy| = {err:.2e}")


if __name__ == "__main__":
    main()

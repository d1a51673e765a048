"""What a kernel launch costs the simulator besides the kernel's own work: a program of N launches of a small kernel
(per launch: fibers, on-chip memories, the cost model's tables, the events), and the add sample's whole run
(one launch of 48 blocks in its own process: GM buffers, inputs, outputs, exit) as CPU time and page faults.

Run: `python benchmarks/bench_sim_launches.py [--launches 2000] [--repeat 10]`. Uses a fresh cache dir under /tmp
unless AKGEN_CACHE_DIR is set. Prints the figures with the load average; asserts nothing. The program's loop times
itself (std::chrono around the launches, as CANN samples' timing loops do), so compile and process start are not in
the per-launch figure; the add sample's run is its launcher binary started directly on its run spec, CPU time
(user + sys, what `perf stat` calls task-clock) and minor page faults of the process, median of the repeats.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]

PROGRAM = r"""
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"
#include "kernel_operator.h"

constexpr int32_t kPerBlock = 256;

__global__ __vector__ void tiny_add(__gm__ uint8_t* x, __gm__ uint8_t* z)
{
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kPerBlock * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * kPerBlock, kPerBlock);
    zg.SetGlobalBuffer((__gm__ float*)z + GetBlockIdx() * kPerBlock, kPerBlock);
    DataCopy(t, xg, kPerBlock);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Adds(t, t, 1.0f, kPerBlock);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(zg, t, kPerBlock);
}

int32_t main(int32_t argc, char* argv[])
{
    const int launches = argc > 1 ? std::atoi(argv[1]) : 1000;
    const uint32_t blocks = argc > 2 ? static_cast<uint32_t>(std::atoi(argv[2])) : 1;
    const size_t bytes = blocks * kPerBlock * sizeof(float);
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    uint8_t *x, *z;
    aclrtMalloc((void**)&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc((void**)&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemset(x, bytes, 0, bytes);
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < launches; ++i) {
        tiny_add<<<blocks, nullptr, stream>>>(x, z);
    }
    aclrtSynchronizeStream(stream);
    auto t1 = std::chrono::steady_clock::now();
    double us = std::chrono::duration<double, std::micro>(t1 - t0).count();
    std::printf("launches=%d blocks=%u total_us=%.1f\n", launches, blocks, us);
    aclrtFree(x);
    aclrtFree(z);
    aclFinalize();
    return 0;
}
"""


def program_figures(work: Path, launches: int) -> None:
    from akgen_lsp.sim.program import run_program

    src = work / "launches.asc"
    src.write_text(PROGRAM)
    for blocks in (1, 8):
        res = run_program(src, work, args=[str(launches), str(blocks)], timeout_s=600, cpu_s=600)
        m = re.search(r"launches=(\d+) blocks=(\d+) total_us=([\d.]+)", res.stdout)
        if res.status != "ok" or m is None:
            raise SystemExit(f"the launch program did not run: {res.status} "
                             f"{[f.message for f in res.findings][:3]} {res.stdout[-500:]}")
        per = float(m.group(3)) / launches
        print(f"program, {launches} launches of a {blocks}-block vector kernel: {per:.1f} us per launch "
              f"({1e6 / per:.0f} launches/s)")


def add_sample_figures(work: Path, repeat: int) -> None:
    from akgen_lsp.sim import cost, load_manifest
    from akgen_lsp.sim.build import compile_kernel
    from akgen_lsp.sim.runner import _write_spec
    from akgen_lsp.sim.toolchain import options_for

    n = 48 * 128 * 512
    x = np.random.default_rng(0).standard_normal(n).astype(np.float16)
    np.save(work / "x.npy", x)
    np.save(work / "y.npy", x)
    (work / "m.json").write_text(json.dumps({
        "sources": [str(REPO / "samples" / "kernels" / "add_custom.cpp")], "kernel": "add_custom", "block_dim": 48,
        "args": [{"name": "x", "input": "x.npy"}, {"name": "y", "input": "y.npy"},
                 {"name": "z", "output": "z.npy", "dtype": "float16", "shape": [n]},
                 {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "workspace_bytes": 0}]}))
    m = load_manifest(work / "m.json", confine=False)
    build = compile_kernel(m.sources, options_for(m))
    if not build.ok or build.binary is None:
        raise SystemExit(f"the add sample did not build: {[f.message for f in build.findings][:3]}")
    profile, _ = cost.profile_for(m.arch)
    params, _ = cost.launcher_params(profile)
    run_dir = work / "run"
    run_dir.mkdir()
    spec, _, _ = _write_spec(m, run_dir, params, None)
    cpu, faults = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([str(build.binary), str(spec)], check=True, capture_output=True, timeout=120)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        faults.append(after.ru_minflt - before.ru_minflt)
    events = (run_dir / "events.jsonl").read_text()
    if '"kind":"done"' not in events:
        raise SystemExit("the add sample's launcher did not finish its run")
    print(f"add sample run (48 blocks, 3 x 6 MiB GM), launcher process: CPU {statistics.median(cpu) * 1e3:.1f} ms "
          f"median of {repeat} (min {min(cpu) * 1e3:.1f}), {statistics.median(faults):.0f} page faults")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--launches", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=10)
    ns = ap.parse_args()
    os.environ.setdefault("AKGEN_CACHE_DIR", tempfile.mkdtemp(prefix="akgen-bench-cache-"))
    work = Path(tempfile.mkdtemp(prefix="akgen-bench-launches-"))
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    add_sample_figures(work, ns.repeat)
    program_figures(work, ns.launches)
    print(f"load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()

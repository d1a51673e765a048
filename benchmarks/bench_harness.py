"""Wall time of the bundled suite's reference answers on the sim toolchain, and the harness's own overhead per
candidate (time outside compile and run, which must stay <= 10% of the candidate's time).

    python benchmarks/bench_harness.py [--jobs 2] [--mode static|dynamic|both] [--suite PATH] [--task NAME ...]
                                       [--passes cold,warm]

Each pass runs the whole selection into a fresh output folder:
- ``cold``: an empty cache folder (AKGEN_CACHE_DIR in a temporary folder): every kernel, host runner and precompiled
  header is built, and every task reference (inputs + reference outputs) is computed;
- ``warm``: the same cache folder again: builds and references come from the caches (what a rerun, a second sample
  or a second mode sees).
- ``refcold``: the build cache as it is (warm builds) but an empty reference cache: what a first run of a
  suite costs when the kernels were built before (NPUKernelBench: its torch references).
Without ``cold`` in --passes, ``warm`` uses the user's cache folder as it is.

Per pass it prints the wall time, per-candidate medians, and the harness overhead: the time outside compile and
run over the candidate's time (median over candidates and summed over all of them), with the reference time apart.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def _pass(label: str, args: argparse.Namespace, mode: str) -> dict[str, Any]:
    from akgen_lsp.bench.executor import ResultStore
    from akgen_lsp.bench.runner import RunOptions, default_suite, run_bench

    out = Path(tempfile.mkdtemp(prefix=f"akgen-bench-{mode}-{label}-"))
    if label == "refcold":
        os.environ["AKGEN_BENCH_REF_CACHE_DIR"] = tempfile.mkdtemp(prefix="akgen-bench-refcache-")
    opts = RunOptions(suite=Path(args.suite) if args.suite else default_suite(), tasks=tuple(args.task or ()),
                      mode=mode, jobs=args.jobs, out=out)
    t0 = time.perf_counter()
    summary = run_bench(opts)
    wall = time.perf_counter() - t0
    recs = [r for r in ResultStore(out / "results.jsonl").load() if r.get("timings", {}).get("total")]
    ratios = [r["timings"]["harness"] / r["timings"]["total"] for r in recs]
    per_cand = [r["timings"]["total"] for r in recs]
    lv = summary["levels"]
    t = summary["timings"]
    res = {"wall": wall, "tasks": sum(v["tasks"] for v in lv.values()), "passed": sum(v["passed"] for v in lv.values()),
           "median_total": statistics.median(per_cand) if per_cand else 0.0,
           "median_ratio": statistics.median(ratios) if ratios else 0.0, "max_ratio": max(ratios, default=0.0),
           "ratio": t["harness_overhead_ratio"], **{k: t[k] for k in ("compile", "run", "reference", "harness",
                                                                    "total")}}
    print(f"[{label}] mode={mode} jobs={args.jobs}: {res['tasks']} tasks, {res['passed']} passed, wall {wall:.1f} s")
    print(f"  per candidate: median {res['median_total']:.2f} s, max {max(per_cand, default=0.0):.2f} s")
    print(f"  harness overhead outside compile+run: median {res['median_ratio']:.1%}, max {res['max_ratio']:.1%}, "
          f"all candidates {res['ratio']:.1%}")
    print(f"  summed: compile {t['compile']:.1f} s, run {t['run']:.1f} s, reference {t['reference']:.1f} s, "
          f"harness {t['harness']:.1f} s of {t['total']:.1f} s")
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--mode", choices=("static", "dynamic", "both"), default="dynamic")
    ap.add_argument("--suite", default="", help="a suite folder (default: the bundled suite)")
    ap.add_argument("--task", action="append", help="only these tasks (repeatable)")
    ap.add_argument("--passes", default="cold,warm", help="comma-separated: cold, warm")
    args = ap.parse_args()
    passes = [p.strip() for p in args.passes.split(",") if p.strip()]
    if "cold" in passes:
        os.environ["AKGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="akgen-bench-cache-")
    modes = ("static", "dynamic") if args.mode == "both" else (args.mode,)
    for mode in modes:
        results = {label: _pass(label, args, mode) for label in passes}
        first = next((results[k] for k in ("cold", "refcold") if k in results), None)
        if first is not None and "warm" in results:
            c, w = first, results["warm"]
            print(f"  first -> warm: wall {c['wall']:.1f} s -> {w['wall']:.1f} s; harness share (all candidates) "
                  f"{c['ratio']:.1%} -> {w['ratio']:.1%}; reference {c['reference']:.1f} s -> {w['reference']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

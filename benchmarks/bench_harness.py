"""Wall time of the bundled suite's reference answers on the sim toolchain, and the harness's own overhead per
candidate (time outside compile and run, which must stay <= 10% of the candidate's time).

    python benchmarks/bench_harness.py [--jobs 2] [--mode static|dynamic|both] [--cold]

--cold uses an empty build cache (AKGEN_CACHE_DIR in a temporary folder), so compiles are counted in full.
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--mode", choices=("static", "dynamic", "both"), default="both")
    ap.add_argument("--cold", action="store_true", help="start from an empty sim build cache")
    args = ap.parse_args()
    if args.cold:
        os.environ["AKGEN_CACHE_DIR"] = tempfile.mkdtemp(prefix="akgen-bench-cache-")
    from akgen_lsp.bench.executor import ResultStore
    from akgen_lsp.bench.runner import RunOptions, run_bench

    modes = ("static", "dynamic") if args.mode == "both" else (args.mode,)
    for mode in modes:
        out = Path(tempfile.mkdtemp(prefix=f"akgen-bench-{mode}-"))
        t0 = time.perf_counter()
        summary = run_bench(RunOptions(mode=mode, jobs=args.jobs, out=out))
        wall = time.perf_counter() - t0
        recs = ResultStore(out / "results.jsonl").load()
        ratios = [r["timings"]["harness"] / r["timings"]["total"] for r in recs
                  if r.get("timings", {}).get("total")]
        per_cand = [r["timings"]["total"] for r in recs if r.get("timings")]
        lv = summary["levels"]
        passed = sum(v["passed"] for v in lv.values())
        tasks = sum(v["tasks"] for v in lv.values())
        print(f"mode={mode} jobs={args.jobs} cold={args.cold}: {tasks} tasks, {passed} passed, wall {wall:.1f} s")
        print(f"  per candidate: median {statistics.median(per_cand):.2f} s, max {max(per_cand):.2f} s")
        print(f"  harness overhead outside compile+run: median {statistics.median(ratios):.1%}, "
              f"max {max(ratios):.1%}, all candidates {summary['timings']['harness_overhead_ratio']:.1%}")
        t = summary["timings"]
        print(f"  summed: compile {t['compile']:.1f} s, run {t['run']:.1f} s, reference {t['reference']:.1f} s, "
              f"harness {t['harness']:.1f} s of {t['total']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

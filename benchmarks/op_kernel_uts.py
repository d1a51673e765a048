"""The kernel unit tests of an operator repository (hicann/ops-math, ops-nn layout) on the simulator: for every
operator whose tests/ut/op_kernel/CMakeLists.txt registers an A2/A3 case (AddOpTestCase with an ascend910b* or
ascend910_93* SoC), build and run it (akgen_lsp.sim.op_test, in the box) and print how many build, run to
completion, have every case pass, and compare with golden data (match / mismatch), with the top failure reasons.

    python benchmarks/op_kernel_uts.py REPO [--only OP|CATEGORY/OP,...] [--results FILE.jsonl] [--soc Ascend910B1] [--jobs N]
                                            [--retry-failed] [--shuffle SEED] [--summary]

Resumable: operators already in --results are not run again (--retry-failed: except those that did not run to
completion; the last row of an operator counts). --jobs N runs N operators at a time (each has its own work folder). The corpus benchmark (benchmarks/ops_repos.py) calls
the same function per operator for its UT columns (akgen_lsp.sim.kernel_ut).
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import random
import re
import sys
from pathlib import Path

from akgen_lsp.findings import Severity
from akgen_lsp.sim.op_test import OpTestError, find_op, has_a2a3_ut, run_op_test


def operators(repo: Path) -> list[Path]:
    found = []
    for cm in sorted(repo.glob("**/tests/ut/op_kernel/CMakeLists.txt")):
        op = cm.parents[3]
        if op == repo or "arch35" in cm.parts:
            continue
        layout = find_op(op)
        if layout is not None and layout.op_dir == op and has_a2a3_ut(layout):
            found.append(op)
    return found


def reason_key(reason: str) -> str:
    """A failure reason with paths and numbers taken out, for counting."""
    r = re.sub(r"/\S+/", "", reason)
    r = re.sub(r"\b\d+(:\d+)*\b", "N", r)
    return r[:140]


def run_one(op: Path, soc: str, timeout: float) -> dict:
    try:
        r = run_op_test(op, soc=soc, timeout_s=timeout)
        errors = [f for f in r.findings if f.severity == Severity.ERROR]
        reason = r.reason
        if not reason and r.ran and not r.ok:
            reason = (f"finding {errors[0].code}: {errors[0].message}"[:200] if errors
                      else "no case ran (the UT has no TEST_F)" if r.cases_total == 0 else "")
        return {"op_dir": str(op), "op": r.op, "stage": r.stage, "built": r.built, "ran": r.ran,
                "cases_total": r.cases_total, "cases_passed": r.cases_passed, "golden": r.golden,
                "golden_detail": r.golden_detail, "ok": r.ok, "errors": len(errors), "reason": reason,
                "dtype_from_opdef": any(f.code == "OP-UT-DTYPE" for f in r.findings),
                "seconds": round(r.seconds, 1)}
    except OpTestError as exc:
        return {"op_dir": str(op), "op": op.name, "stage": "error", "built": False, "ran": False,
                "cases_total": 0, "cases_passed": 0, "golden": "none", "ok": False, "reason": str(exc)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repo", type=Path)
    ap.add_argument("--only", default="")
    ap.add_argument("--results", type=Path, default=None)
    ap.add_argument("--soc", default="Ascend910B1")
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--retry-failed", action="store_true")
    ap.add_argument("--summary", action="store_true", help="only print the figures of --results (run nothing)")
    ap.add_argument("--shuffle", type=int, default=None, metavar="SEED",
                    help="run the operators in a random order (a partial run is then a fair sample)")
    args = ap.parse_args()
    ops = operators(args.repo.resolve())
    if args.only:
        wanted = set(args.only.split(","))
        ops = [o for o in ops if o.name in wanted or str(o.relative_to(args.repo.resolve())) in wanted]
    done: dict[str, dict] = {}
    if args.results and args.results.is_file():
        for line in args.results.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                done[row["op_dir"]] = row
    todo = [op for op in ops if str(op) not in done or (args.retry_failed and not done[str(op)]["ran"])]
    if args.summary:
        todo = []
    if args.shuffle is not None:
        random.Random(args.shuffle).shuffle(todo)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(run_one, op, args.soc, args.timeout) for op in todo]
        for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            row = fut.result()
            done[row["op_dir"]] = row
            if args.results:
                with args.results.open("a", encoding="utf-8") as fh:
                    fh.write(json.dumps(row) + "\n")
            print(f"[{i}/{len(todo)}] {row['op']}: {row['stage']} {row['cases_passed']}/{row['cases_total']} "
                  f"golden={row['golden']} {row['reason'][:120]}", file=sys.stderr, flush=True)
    rows = [done[str(o)] for o in ops if str(o) in done]
    n = len(rows)
    built = sum(r["built"] for r in rows)
    ran = sum(r["ran"] for r in rows)
    passed = sum(r["ran"] and r["cases_total"] > 0 and r["cases_passed"] == r["cases_total"] for r in rows)
    gold = collections.Counter(r["golden"] for r in rows if r["ran"])
    ok_but_mismatch = sum(r["ok"] and r["golden"] == "mismatch" for r in rows)
    print(f"{args.repo.name}: {n} of {len(ops)} operators with an A2/A3 kernel UT measured; built {built}; ran to completion {ran}; every "
          f"case passed {passed}; golden compared {gold['match'] + gold['mismatch']} (match {gold['match']}, "
          f"mismatch {gold['mismatch']}), golden.py not compared {gold['not-compared']}, no golden {gold['none']}; "
          f"ok while a golden comparison failed: {ok_but_mismatch}")
    filled = sum(r["ran"] and r.get("dtype_from_opdef", False) for r in rows)
    if filled:
        print(f"  of those that ran, {filled} built with DTYPE_<X> types from the op definition that the UT does not "
              "define (OP-UT-DTYPE)")
    for stage in ("configure", "build", "run", "error"):
        reasons = collections.Counter(reason_key(r["reason"]) for r in rows if r["stage"] == stage)
        for reason, count in reasons.most_common(8):
            print(f"  {stage}: {count} x {reason}")
    failing = collections.Counter(reason_key(r["reason"]) or ("no case ran (the UT has no TEST_F)"
                                                              if not r["cases_total"] else "an error finding")
                                  for r in rows if r["ran"] and not r["ok"] and r["golden"] != "mismatch")
    for reason, count in failing.most_common(5):
        print(f"  ran, not ok: {count} x {reason}")
    for golden in ("mismatch", "not-compared"):
        why = collections.Counter(reason_key(r.get("golden_detail", ""))[:100] for r in rows
                                  if r["ran"] and r["golden"] == golden)
        for reason, count in why.most_common(5):
            print(f"  golden {golden}: {count} x {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

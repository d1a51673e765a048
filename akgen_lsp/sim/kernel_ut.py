"""The corpus benchmark's view of an operator's kernel unit test (benchmarks/ops_repos.py, agreed in the helpers'
coordination): one call per operator, a plain dict of the UT columns. The work is op_test.run_op_test's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from akgen_lsp.findings import Severity
from akgen_lsp.sim.op_test import run_op_test


def run_op_kernel_ut(
    op_dir: Path, repo_root: Path, soc: str, work: Path, timeout_s: float = 900.0
) -> dict[str, Any]:
    """Build and run the kernel UT of the operator at `op_dir` for `soc` in `work`: {"has_ut", "built", "ran",
    "golden" ("match" / "mismatch" / "not-compared" / "none"), "reason", "stage", "cases_total", "cases_passed",
    "findings" (errors found), "seconds"}. `repo_root` is accepted for the caller's symmetry; the root is found
    from `op_dir` (the same folder for a checkout in the ops-math / ops-nn layout)."""
    del repo_root
    res = run_op_test(op_dir, soc=soc, timeout_s=timeout_s, work=work)
    return {
        "has_ut": res.has_ut,
        "built": res.built,
        "ran": res.ran,
        "golden": res.golden,
        "reason": res.reason,
        "stage": res.stage,
        "cases_total": res.cases_total,
        "cases_passed": res.cases_passed,
        "findings": sum(f.severity == Severity.ERROR for f in res.findings),
        "seconds": round(res.seconds, 1),
    }

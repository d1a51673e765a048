"""The performance stage on the sim toolchain: each case's estimate (the simulator's cost model, labelled as one)
against its roofline baseline, and the candidate's means over its passing cases."""

from __future__ import annotations

from typing import Any

from akgen_lsp.ascendc.arch import ArchProfile
from akgen_lsp.bench import roofline
from akgen_lsp.bench.reference import CaseData
from akgen_lsp.bench.tasks import Case, Task
from akgen_lsp.sim.runner import Run


def case_perf(
    task: Task, case: Case, data: CaseData, arch: ArchProfile, run: Run, cr: dict[str, Any]
) -> tuple[float | None, float]:
    """(estimate, baseline) in µs of one case, also written into its result with the resource that bounds it."""
    est = (run.estimate or {}).get("us")
    base = roofline.baseline_us(task, case, data, arch)
    cr["estimate_us"] = est
    cr["baseline_us"] = base
    cr["bound"] = (run.estimate or {}).get("bound")
    for key in (
        "pipes",
        "blocks",
        "cores",
    ):  # per-pipe busy time and utilisation, cores used (the loop's feedback)
        cr[key] = (run.estimate or {}).get(key)
    return est, base


def summarise_perf(rec: dict[str, Any], estimates: list[float], baselines: list[float]) -> None:
    """The candidate's estimate, baseline and speedup (means over the passing cases that have an estimate) and the
    resource that bounds most of its passing cases."""
    if estimates:
        rec["estimate_us"] = round(sum(estimates) / len(estimates), 4)
        rec["baseline_us"] = round(sum(baselines) / len(baselines), 4)
        rec["speedup"] = round(
            sum(b / e for b, e in zip(baselines, estimates, strict=True)) / len(estimates), 4
        )
    bounds = [c["bound"] for c in rec["case_results"] if c.get("status") == "pass" and c.get("bound")]
    rec["bound"] = max(set(bounds), key=bounds.count) if bounds else None  # what limits most passing cases

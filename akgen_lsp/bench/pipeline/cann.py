"""One candidate on the cann toolchain (`evaluate_cann`): parse, build once in an msopgen project, run every case
on the NPU in one runner process, compare on the CPU with the same rules as on sim, and the measured times against
the torch_npu reference op. Never run against a real CANN or NPU (see docs/bench.md, "cann toolchain")."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.bench.cann.runner import call_params, case_spec
from akgen_lsp.bench.cann.toolchain import CannOptions, CannToolchain, CannUnavailable
from akgen_lsp.bench.compare import as_float, compare_outputs, comparison_finding
from akgen_lsp.bench.pipeline.parse import _op_def_name, prepare_stage
from akgen_lsp.bench.pipeline.record import (
    Candidate,
    RunSettings,
    Timings,
    _finding,
    finish_record,
    new_record,
    skipped_case,
)
from akgen_lsp.bench.reference import ReferenceError_, Skip, load_case
from akgen_lsp.bench.tasks import Task
from akgen_lsp.findings import Finding, Severity, Span


def template_for(task_root: Path, env: Mapping[str, str] | None = None) -> Path | None:
    """A ready msopgen project to build in: AKGEN_CANN_TEMPLATE, else NPUKernelBench's libs/common_include/msopgen
    when the task lives in a checkout of it; None: run msopgen gen."""
    env = os.environ if env is None else env
    if env.get("AKGEN_CANN_TEMPLATE"):
        return Path(env["AKGEN_CANN_TEMPLATE"])
    for parent in task_root.parents:
        cand = parent / "libs" / "common_include" / "msopgen"
        if (cand / "build.sh").is_file():
            return cand
    return None


def evaluate_cann(
    task: Task, cand: Candidate, settings: RunSettings, toolchain: CannToolchain | None = None
) -> dict[str, Any]:
    """The bench pipeline's `evaluate` on the cann toolchain: parse, build once, run every case on the NPU, compare
    on the CPU with the same rules as on sim, measured times against the torch_npu reference op."""
    t_start = time.perf_counter()
    tm = Timings()
    rec = new_record(task, cand, settings, toolchain="cann")
    rec["measured"] = True
    findings: list[Finding] = []
    work = Path(tempfile.mkdtemp(prefix="akgen-cann-", dir=settings.work_dir))

    def finish(status: str) -> dict[str, Any]:
        finish_record(rec, findings, status, tm, t_start)
        if not settings.keep_work:
            shutil.rmtree(work, ignore_errors=True)
        return rec

    if toolchain is None:
        try:
            toolchain = CannToolchain.from_env()
        except CannUnavailable as exc:
            findings.append(_finding("BENCH-TOOLCHAIN", str(exc), str(task.root), "toolchain"))
            return finish("harness_error")
    staged = prepare_stage(task, cand, settings, work, rec, findings, tm)
    if isinstance(staged, str):
        return finish(staged)
    prep, cases = staged
    datas: dict[int, Any] = {}
    specs: list[dict[str, Any]] = []
    first_fail: str | None = None
    for case in cases:
        cr: dict[str, Any] = {"case_id": case.case_id, "status": "pending"}
        rec["case_results"].append(cr)
        t0 = time.perf_counter()
        try:
            data = load_case(task, case)
            specs.append(case_spec(case.case_id, data, work / f"case{case.case_id}"))
            datas[case.case_id] = data
        except Skip as exc:
            cr["status"] = "skipped"
            findings.append(skipped_case(task, case.case_id, exc))
            first_fail = first_fail or "skipped"
        except (ReferenceError_, ValueError) as exc:
            cr["status"] = "harness_error"
            findings.append(
                _finding("BENCH-REFERENCE", f"case {case.case_id}: {exc}", str(task.validation), "harness")
            )
            first_fail = first_fail or "harness_error"
        tm.reference += time.perf_counter() - t0
    host = prep.host
    question_host = host is not None and host.resolve() == task.question_host.resolve()
    sources = [prep.kernel] + ([host] if host else [])
    if host is not None:
        sources += sorted(
            p
            for p in host.parent.iterdir()
            if p.is_file() and p != host and p.suffix in (".h", ".cpp", ".cc")
        )
    pybind = task.validation / "pybind.cpp"
    first = next(iter(datas.values()), None)
    options = CannOptions(
        op_type=_op_def_name(host, task.name),
        op_snake=task.op,
        work=work / "cann",
        soc=load_arch(settings.arch).soc,
        template=template_for(task.root),
        pybind_source=pybind.read_text(encoding="utf-8") if pybind.is_file() else None,
        pybind_params=call_params(first) if first is not None else (),
        kernel_only=question_host,
    )
    t0 = time.perf_counter()
    build = toolchain.compile(sources, options)
    tm.compile = time.perf_counter() - t0
    rec["build"] = {
        "status": build.status,
        "seconds": round(build.seconds, 3),
        "artifacts": build.artifacts,
        "stages": build.stages,
        "warnings": build.warnings,
    }
    if not build.ok:
        findings.extend(build.findings)
        for cr in rec["case_results"]:
            if cr["status"] == "pending":
                cr["status"] = "compile_error"
        return finish("compile_error")
    rec["compiled"] = True
    if not specs:
        return finish(first_fail or "harness_error")
    module = task.validation / "module.py"
    if (
        build.call == "returns"
        and module.is_file()
        and "class ModelNew" in module.read_text(errors="replace")
    ):
        build.call = "model_new"  # NPUKernelBench calls the op through the task's ModelNew
    t0 = time.perf_counter()
    runs = toolchain.run_cases(build, specs, module if module.is_file() else None)
    tm.run = time.perf_counter() - t0
    times: list[tuple[float, float | None]] = []
    by_id = {int(s["case_id"]): r for s, r in zip(specs, runs, strict=True)}
    for cr in rec["case_results"]:
        run = by_id.get(int(cr["case_id"]))
        if run is None:
            continue
        data = datas[int(cr["case_id"])]
        if run.status != "ok":
            findings.extend(run.findings)
            cr["status"] = "timeout" if run.status == "timeout" else "runtime_error"
            first_fail = first_fail or cr["status"]
            continue
        rec["ran"] = True
        t0 = time.perf_counter()
        try:
            raw_outs = [np.load(run.outputs[t.name]) for t in data.outputs]
        except (KeyError, OSError, ValueError) as exc:
            cr["status"] = "runtime_error"
            findings.append(
                Finding(
                    "CANN-OUTPUT",
                    f"case {cr['case_id']}: the NPU run wrote no readable output ({exc})",
                    Span.point(str(prep.kernel), 1),
                    Severity.ERROR,
                    "akgen-run",
                    "runtime",
                )
            )
            first_fail = first_fail or "runtime_error"
            continue
        outs = [as_float(o, t.dtype) for o, t in zip(raw_outs, data.outputs, strict=True)]
        refs = [as_float(t.array, t.dtype) for t in data.outputs]
        custom = (lambda d=data, r=raw_outs: d.custom_check(r)) if data.custom_check else None
        try:
            cmp = compare_outputs(refs, outs, data.tolerance, [t.name for t in data.outputs], custom)
        except ReferenceError_:
            cmp = compare_outputs(refs, outs, data.tolerance, [t.name for t in data.outputs])
        tm.compare += time.perf_counter() - t0
        est = run.estimate or {}
        cr.update(
            {
                "max_abs": cmp.to_json()["max_abs"],
                "max_rel": cmp.to_json()["max_rel"],
                "measured_us": est.get("us"),
                "reference_us": est.get("reference_us"),
            }
        )
        if cmp.ok:
            cr["status"] = "pass"
            rec["passed_cases"] += 1
            if est.get("us"):
                times.append((float(est["us"]), est.get("reference_us")))
        else:
            cr["status"] = "wrong_answer"
            findings.append(
                comparison_finding(cmp, str(prep.kernel), f"case {cr['case_id']}", data.tolerance)
            )
            first_fail = first_fail or "wrong_answer"
    if times:
        rec["estimate_us"] = round(sum(k for k, _ in times) / len(times), 4)
        refs_t = [(k, r) for k, r in times if r]
        if refs_t:
            rec["baseline_us"] = round(sum(r for _, r in refs_t) / len(refs_t), 4)
            rec["speedup"] = round(sum(r / k for k, r in refs_t) / len(refs_t), 4)
    all_pass = rec["cases"] > 0 and rec["passed_cases"] == rec["cases"]
    rec["correct"] = all_pass
    return finish("pass" if all_pass else (first_fail or "harness_error"))

"""One candidate on the sim toolchain (`evaluate_sim`): parse -> for each case: its data -> bind -> manifest ->
compile (once per dtype set) -> run -> anti-cheat -> compare -> estimate; then the candidate's figures. Nothing in
here raises for a bad kernel: each stage adds its findings and the record says where the candidate stopped."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.bench.pipeline.binding import _bind, case_data, op_interface
from akgen_lsp.bench.pipeline.compare import check_work, compare_case
from akgen_lsp.bench.pipeline.compile import compile_case, compile_variants, has_build
from akgen_lsp.bench.pipeline.manifest import _attrs, _host_reads_values, case_manifest
from akgen_lsp.bench.pipeline.parse import _op_def_name, prepare_stage
from akgen_lsp.bench.pipeline.perf import case_perf, summarise_perf
from akgen_lsp.bench.pipeline.record import (
    NO_ANSWER,
    NO_ANSWER_REASON,
    Candidate,
    RunSettings,
    Timings,
    _finding,
    finish_record,
    new_record,
)
from akgen_lsp.bench.pipeline.run import run_case
from akgen_lsp.bench.tasks import Task
from akgen_lsp.findings import Finding, Severity
from akgen_lsp.sim.build_types import Build
from akgen_lsp.sim.later import remove_later
from akgen_lsp.sim.manifest import ManifestError
from akgen_lsp.sim.toolchain import SimToolchain


def _one_per_kind(cases: list[Any]) -> list[Any]:
    """One case of each kind among `cases` (the same values in every column but the shapes: the same dtypes), the
    one with the shortest shape text: the case whose manifest (its inputs written, its reference loaded) tells the
    dtype set of its kind for the shared build. A case of a kind whose defines differ after all builds on its own
    turn, as any case does."""
    best: dict[tuple[Any, ...], tuple[int, Any]] = {}
    for c in cases:
        kind = tuple(
            sorted((k, repr(v)) for k, v in c.items() if k != "case_id" and "shape" not in k.lower())
        )
        size = sum(len(str(v)) for k, v in c.items() if "shape" in k.lower())
        if kind not in best or size < best[kind][0]:
            best[kind] = (size, c)
    return [c for _size, c in best.values()]


def evaluate_sim(task: Task, cand: Candidate, settings: RunSettings) -> dict[str, Any]:
    """Evaluate one candidate on every case of its task on the simulator; returns the candidate's record."""
    t_start = time.perf_counter()
    tm = Timings()
    arch = load_arch(settings.arch)
    rec = new_record(task, cand, settings, checks=settings.checks)
    findings: list[Finding] = []
    work = Path(tempfile.mkdtemp(prefix="akgen-bench-", dir=settings.work_dir))

    def finish(status: str) -> dict[str, Any]:
        finish_record(rec, findings, status, tm, t_start)
        if not settings.keep_work:
            remove_later(work)
        return rec

    if cand.origin == NO_ANSWER:
        findings.append(
            _finding(
                "BENCH-NO-ANSWER",
                f"{task.id} skipped: {NO_ANSWER_REASON} (only question/ and "
                "validation/); evaluate it with generated candidates (--candidates DIR)",
                str(task.root),
                NO_ANSWER,
                severity=Severity.WARNING,
            )
        )
        rec["skip_reason"] = NO_ANSWER_REASON
        done = finish("skipped")
        done["error_class"] = NO_ANSWER
        return done
    staged = prepare_stage(task, cand, settings, work, rec, findings, tm)
    if isinstance(staged, str):
        return finish(staged)
    prep, cases = staged
    tool = SimToolchain()
    builds: dict[str, Build] = {}
    compile_failed = False
    first_fail: str | None = None
    estimates: list[float] = []
    baselines: list[float] = []
    static_checked = False
    opdef, call = op_interface(task, prep)
    host_reads_values = _host_reads_values(prep.host)
    variants_tried = False

    def manifest_ahead(case: Any) -> Any:
        """The manifest of a later case, made now for its defines only (its own turn makes it again, as always)."""
        scratch: list[Finding] = []
        data = case_data(task, case, {"case_id": case.case_id}, scratch, tm)
        if data is None:
            return None
        binding, err = _bind(prep, data, opdef, call)
        if err:
            return None
        folder = work / f"ahead{case.case_id}"
        folder.mkdir(parents=True, exist_ok=True)
        try:
            return case_manifest(
                prep,
                binding,
                _attrs(data, case),
                _op_def_name(prep.host, task.name),
                arch,
                settings,
                folder,
                opdef,
            )[1]
        except ManifestError:
            return None

    for pos, case in enumerate(cases):
        if first_fail and (
            settings.stop_at_failure
            or any(c["case_id"] in settings.required and c["status"] != "pass" for c in rec["case_results"])
        ):
            break
        cr: dict[str, Any] = {"case_id": case.case_id, "status": "pending"}
        rec["case_results"].append(cr)
        data = case_data(task, case, cr, findings, tm)
        if data is None:
            first_fail = first_fail or cr["status"]
            continue
        binding, err = _bind(prep, data, opdef, call)
        if err:
            cr["status"] = "harness_error"
            findings.append(_finding("BENCH-ARGS", err, str(prep.kernel), "harness"))
            first_fail = first_fail or "harness_error"
            break
        case_dir = work / f"case{case.case_id}"
        case_dir.mkdir(parents=True, exist_ok=True)
        try:
            raw, manifest = case_manifest(
                prep,
                binding,
                _attrs(data, case),
                _op_def_name(prep.host, task.name),
                arch,
                settings,
                case_dir,
                opdef,
            )
        except ManifestError as exc:
            cr["status"] = "harness_error"
            findings.append(
                _finding("BENCH-MANIFEST", f"case {case.case_id}: {exc}", str(prep.kernel), "harness")
            )
            first_fail = first_fail or "harness_error"
            continue
        if builds and not variants_tried and not has_build(manifest, settings, builds):
            # a second dtype set: this one and those of the cases after it in one build (pipeline/compile.py)
            variants_tried = True
            later = [m for m in (manifest_ahead(c) for c in _one_per_kind(cases[pos + 1 :])) if m is not None]
            compile_variants(tool, [manifest, *later], settings, builds, tm)
        build = compile_case(tool, manifest, settings, builds, prep.kernel, findings, tm)
        if build is None:
            return finish("harness_error")
        if not build.ok:
            findings.extend(build.findings)
            cr["status"] = "compile_error"
            compile_failed = True
            break
        rec["compiled"] = True
        run = run_case(tool, build, manifest, case_dir / "out", cr, findings, tm, trace=settings.keep_work)
        if run is None:
            if cr["status"] == "compile_error":
                compile_failed = True
                break
            first_fail = first_fail or cr["status"]
            continue
        rec["ran"] = True
        t0 = time.perf_counter()
        cheat, static_checked = check_work(
            run, binding, opdef, host_reads_values, prep.kernel, findings, static_checked
        )
        if cheat is not None:
            findings.append(cheat)
            cr["status"] = "no_work"
            first_fail = first_fail or "no_work"
            tm.compare += time.perf_counter() - t0
            continue
        cmp = compare_case(task, case, data, run, binding, raw, prep.kernel, cr, findings)
        if cmp is None:
            first_fail = first_fail or cr["status"]
            continue
        tm.compare += time.perf_counter() - t0
        cr.update({"max_abs": cmp.to_json()["max_abs"], "max_rel": cmp.to_json()["max_rel"]})
        est, base = case_perf(task, case, data, arch, run, cr)
        if cmp.ok:
            cr["status"] = "pass"
            rec["passed_cases"] += 1
            if (
                settings.run_warnings
            ):  # right numbers, yet the run warned (a check only CANN's CPU debug makes)
                seen = {(f.code, f.span.path, f.span.line) for f in findings}
                findings.extend(
                    f
                    for f in run.findings
                    if f.severity is Severity.WARNING and (f.code, f.span.path, f.span.line) not in seen
                )
            if est:
                estimates.append(float(est))
                baselines.append(base)
        else:
            cr["status"] = "wrong_answer"
            first_fail = first_fail or "wrong_answer"
    if compile_failed:
        return finish("compile_error")
    summarise_perf(rec, estimates, baselines)
    all_pass = rec["cases"] > 0 and rec["passed_cases"] == rec["cases"]
    rec["correct"] = all_pass
    if all_pass:
        return finish("pass")
    return finish(first_fail or "harness_error")

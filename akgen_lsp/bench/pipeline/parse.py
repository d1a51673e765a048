"""The parse stage every toolchain shares: the candidate's files placed in its work folder (a model answer's text
extracted), its kernel entry and op_host source found, and the task's cases selected (`prepare_stage`)."""

from __future__ import annotations

import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from akgen_lsp.bench.extract import ExtractError, extract_answer
from akgen_lsp.bench.pipeline.record import Candidate, RunSettings, Timings, _finding
from akgen_lsp.bench.tasks import Case, Task
from akgen_lsp.findings import Finding

_ENTRY = re.compile(r"__global__\s+(?:__aicore__\s+)?void\s+(\w+)\s*\(([^)]*)\)", re.DOTALL)


def kernel_entry(source: str, op: str | None = None) -> tuple[str, list[str]] | None:
    """(name, parameter names) of the kernel entry: the one named `op`, else the only ``__global__`` function."""
    found = [(m.group(1), m.group(2)) for m in _ENTRY.finditer(source)]
    if not found:
        return None
    pick = next((f for f in found if op and f[0] == op), found[0] if len(found) == 1 or not op else found[-1])
    params = []
    for p in pick[1].split(","):
        p = p.strip()
        if not p:
            continue
        m = re.search(r"(\w+)\s*(?:\[\s*\])?$", p)
        params.append(m.group(1) if m else p)
    return pick[0], params


def _host_source(host_dir: Path, op: str) -> Path | None:
    """The op_host source to hand to the host runner: ``<op>.cpp``, else the file that registers the TilingFunc
    (``SetTiling``), else the OpDef's file; NPUKernelBench splits some hosts into ``<op>_def.cpp`` /
    ``<op>_tiling.cpp`` / ``<op>_proto.cpp`` (the runner builds the sibling sources too)."""
    direct = host_dir / f"{op}.cpp"
    if direct.is_file():
        return direct
    cpps = sorted(host_dir.glob("*.cpp")) if host_dir.is_dir() else []
    for marker in ("SetTiling", "OpDef", "TilingFunc"):
        for p in cpps:
            if marker in p.read_text(encoding="utf-8", errors="replace"):
                return p
    return cpps[0] if cpps else None


@dataclass
class _Prepared:
    kernel: Path
    host: Path | None
    entry: str
    params: list[str]
    work: Path


def _prepare(task: Task, cand: Candidate, settings: RunSettings, work: Path) -> _Prepared | Finding:
    host_dir = cand.host_dir
    if cand.text is not None:
        try:
            ex = extract_answer(cand.text, task.op)
        except ExtractError as exc:
            return _finding("BENCH-PARSE", str(exc), f"{task.id}#{cand.sample}", "parse")
        kdir = work / "op_kernel"
        kdir.mkdir(parents=True, exist_ok=True)
        kernel = kdir / f"{task.op}.cpp"
        kernel.write_text(ex.kernel + "\n", encoding="utf-8")
        if ex.host:
            hdir = work / "op_host"
            hdir.mkdir(parents=True, exist_ok=True)
            (hdir / f"{task.op}.cpp").write_text(ex.host + "\n", encoding="utf-8")
            if ex.tiling_header:
                (hdir / f"{task.op}_tiling.h").write_text(ex.tiling_header + "\n", encoding="utf-8")
                shutil.copy(hdir / f"{task.op}_tiling.h", kdir / f"{task.op}_tiling.h")
            host_dir = hdir
    else:
        if cand.kernel is None or not cand.kernel.is_file():
            return _finding(
                "BENCH-PARSE",
                f"no kernel file for {task.id} sample {cand.sample}: expected op_kernel/{task.op}.cpp",
                str(cand.kernel or task.root),
                "parse",
            )
        kernel = cand.kernel
    source = kernel.read_text(encoding="utf-8", errors="replace")
    entry = kernel_entry(source, task.op)
    if entry is None:
        return _finding(
            "BENCH-ENTRY",
            f'no kernel entry (`extern "C" __global__ __aicore__ void {task.op}(...)`) in the candidate',
            str(kernel),
            "parse",
        )
    host = _host_source(host_dir, task.op) if host_dir is not None else None
    if host is None and settings.mode == "dynamic":
        return _finding(
            "BENCH-NO-HOST",
            f"dynamic mode needs the candidate's host tiling (op_host/{task.op}.cpp and "
            "its tiling header); run with --mode static for a kernel-only candidate",
            str(kernel),
            "parse",
        )
    if host is None and task.question_host.is_file():
        host = task.question_host
    return _Prepared(kernel, host, entry[0], entry[1], work)


def _op_def_name(host: Path | None, default: str) -> str:
    """The OpDef registered by the op_host source (``OP_ADD(Name)``); the task's name when there is none."""
    if host is None:
        return default
    m = re.search(r"OP_ADD\s*\(\s*(\w+)", host.read_text(encoding="utf-8", errors="replace"))
    return m.group(1) if m else default


def prepare_stage(
    task: Task,
    cand: Candidate,
    settings: RunSettings,
    work: Path,
    rec: dict[str, Any],
    findings: list[Finding],
    tm: Timings,
) -> tuple[_Prepared, list[Case]] | str:
    """The parse stage every toolchain shares: place the candidate's files, read the task's cases and select those
    `settings` asks for. Returns (prepared, cases), or the status to finish the record with (a finding added)."""
    t0 = time.perf_counter()
    prep = _prepare(task, cand, settings, work)
    tm.parse = time.perf_counter() - t0
    if isinstance(prep, Finding):
        findings.append(prep)
        return "parse_error"
    rec["parsed"] = True
    try:
        cases = task.cases()
    except Exception as exc:  # a malformed CSV is the task's problem, reported as such
        findings.append(_finding("BENCH-TASK", str(exc), str(task.validation), "harness"))
        return "harness_error"
    if settings.case_ids is not None:
        cases = [c for c in cases if c.case_id in settings.case_ids]
    if settings.max_cases is not None:
        cases = cases[: settings.max_cases]
    if settings.required:  # the cases a candidate must pass run first (the rest keep their order)
        cases = sorted(cases, key=lambda c: c.case_id not in settings.required)
    rec["cases"] = len(cases)
    return prep, cases

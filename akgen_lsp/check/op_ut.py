"""Check on save in a CANN operator repository (ops-math / ops-nn layout) with no configuration: a saved
`op_kernel/<op>.cpp`, a header it includes or the operator's kernel UT finds the operator's tests/ut/op_kernel and runs
it on the simulator (akgen_lsp/sim/op_test.py, in the box), as `check_kernel`'s CheckResult.

The figures say "N/M cases pass" and the estimate of the UT's busiest launch; findings are the compiler's errors and
the simulator's findings at their own file and line (a header's at the header), one error per failing case at its
test, and one at the kernel entry when the UT's compare script found the outputs differ from the golden data
(the cases themselves ignore it). akgen.toml's `ops.include_dirs` and `ops.defines` reach the build; an operator
folder whose UT the layout does not show takes `ops.test_command`, run in the box in the operator's folder.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from akgen_lsp.check.result import CheckResult, Figures, Status
from akgen_lsp.findings import Finding, Severity, Span
from akgen_lsp.logs.gcc import parse_gcc_output
from akgen_lsp.sim.build_cache import generated_roots
from akgen_lsp.sim.op_test import (
    OpLayout,
    OpTestError,
    OpTestResult,
    find_op,
    findings_of,
    has_a2a3_ut,
    run_op_test,
    run_test_command,
)

_LAUNCH = re.compile(r"akgen sim: launch \d+ at .*?; ([0-9.]+) us on (\S+) \(estimate")


class OpUtTextDiffers(RuntimeError):
    """A check of editor text that is not the saved file: the UT builds from the repository's files, so this check
    is made on save instead."""


def op_layout_for(path: Path) -> OpLayout | None:
    """The operator around `path` when it has a kernel UT for an A2/A3 SoC."""
    layout = find_op(path)
    if layout is None or not has_a2a3_ut(layout):
        return None
    return layout


def op_folder(path: Path) -> Path | None:
    """The operator folder around a kernel source or header (the folder above its op_kernel/), whatever its tests."""
    p = path.resolve()
    for d in p.parents:
        if d.name == "op_kernel":
            return d.parent
    return None


def check_op_command(path: Path, op_dir: Path, command: str, timeout_s: float) -> CheckResult:
    """`ops.test_command` for an operator whose layout shows no kernel UT: run in the box (the compiler profile:
    no network, the operator's repository read-only, a work folder writable, the simulator's toolkit on PATH) from
    the work folder, with {op} and {op_dir} replaced and OP_DIR / ASCEND_HOME_PATH set. Exit status 0 passes; the
    compiler-style `file:line:col: error: message` lines it prints are findings."""
    started = time.perf_counter()
    try:
        res = run_test_command(op_dir, command, timeout_s)
    except OpTestError as exc:
        return _not_run(path, str(exc), started)
    findings = [
        f
        for f in parse_gcc_output(res.output, {}, str(path), generated_roots())
        if f.severity == Severity.ERROR
    ][:50]
    ok = res.returncode == 0 and not res.timed_out
    if not ok and not findings:
        tail = " ".join(res.output.strip().splitlines()[-3:])[:300] if res.output.strip() else "no output"
        why = (
            f"took more than {timeout_s:.0f} s" if res.timed_out else f"exit status {res.returncode}: {tail}"
        )
        findings.append(
            Finding(
                "OP-UT-COMMAND",
                f"the operator's test command failed ({why})",
                Span.point(str(path), 1),
                source="akgen-run",
                error_class="runtime",
            )
        )
    figures = Figures(
        task=f"test command of {op_dir.name}",
        status=Status.PASS if ok else Status.WRONG_ANSWER,
        mode="op-command",
        passed_cases=1 if ok else 0,
        cases=1,
        timings={"op_ut_s": round(time.perf_counter() - started, 2)},
    )
    return CheckResult(tuple(findings), figures, time.perf_counter() - started)


def _not_run(path: Path, msg: str, started: float) -> CheckResult:
    """The result of a UT or test command that could not be run (its setup is wrong): one OP-UT finding at the
    file's first line that says why, and no task figures."""
    return CheckResult(
        (Finding("OP-UT", msg, Span.point(str(path), 1), source="akgen-bench", error_class="harness"),),
        Figures.no_task(msg),
        time.perf_counter() - started,
    )


def _config_root(path: Path) -> Path:
    from akgen_lsp.config import find_config_file

    cfg = find_config_file(path.parent)
    return cfg.parent if cfg is not None else path.parent


def _list(settings: Any, key: str) -> list[str]:
    try:
        value = settings.get(key, []) if settings is not None else []
    except (KeyError, TypeError):
        value = []
    return [str(v) for v in value] if isinstance(value, list) else []


def check_op_ut(
    path: Path, layout: OpLayout, settings: Any, soc: str, timeout_s: float, text: str | None = None
) -> CheckResult:
    """Run the operator's kernel UT for a save of `path`, as check_kernel's result."""
    started = time.perf_counter()
    if text is not None and _disk_text(path) != text:
        raise OpUtTextDiffers(f"{path.name}: the kernel UT checks the saved files")
    root = _config_root(path)
    includes = [(root / d).resolve() for d in _list(settings, "ops.include_dirs")]
    defines = _list(settings, "ops.defines")
    try:
        res = run_op_test(
            layout.op_dir,
            soc=soc,
            timeout_s=max(timeout_s, 300.0),
            include_dirs=includes,
            defines=defines,
            jobs=min(4, os.cpu_count() or 1),  # a first build's objects side by side
        )
    except OpTestError as exc:
        return _not_run(path, str(exc), started)
    return CheckResult(
        tuple(op_ut_findings(res, layout)), op_ut_figures(res, layout), time.perf_counter() - started
    )


def _disk_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def op_ut_findings(res: OpTestResult, layout: OpLayout) -> list[Finding]:
    out = findings_of(res)  # the run's, the failing cases', a golden mismatch's and an unfinished run's
    if not res.built and not any(f.severity == Severity.ERROR for f in out):
        out.append(
            Finding(
                "OP-UT-BUILD",
                f"the kernel UT did not build: {res.reason}",
                Span.point(str(layout.ut_dir / "CMakeLists.txt"), 1),
                severity=Severity.ERROR,
                source="akgen-build",
                error_class="harness",
            )
        )
    return out


def op_ut_figures(res: OpTestResult, layout: OpLayout) -> Figures:
    """'N/M cases pass' and the estimate of the UT's slowest launch; the status a bench check would give."""
    estimates = [(float(m.group(1)), m.group(2)) for m in _LAUNCH.finditer(res.log)]
    worst = max(estimates, default=None)
    if not res.built:
        status = Status.COMPILE_ERROR
    elif res.ok:
        status = Status.PASS
    elif res.ran and (res.golden == "mismatch" or res.cases_passed < res.cases_total):
        status = Status.WRONG_ANSWER
    elif res.ran and res.cases_total == 0:
        status = Status.NO_WORK
    else:
        status = Status.RUNTIME_ERROR
    return Figures(
        task=f"kernel UT of {layout.op}",
        status=status,
        mode="op-ut",
        passed_cases=res.cases_passed,
        cases=res.cases_total,
        estimate_us=worst[0] if worst else None,
        arch=worst[1] if worst else res.soc,
        estimate_label="estimate, the UT's slowest launch",
        timings={"op_ut_s": round(res.seconds, 2), "golden": res.golden},
        case_results=tuple(
            {"case_id": i, "name": c.name, "status": "pass" if c.passed else "fail"}
            for i, c in enumerate(res.cases)
        ),
    )


def related_include(text: str, header: str) -> int | None:
    """The 1-based line of `text` that includes the file named `header` (by its name), or None."""
    name = Path(header).name
    for i, line in enumerate(text.splitlines(), 1):
        m = re.match(r'\s*#\s*include\s*["<]([^">]+)[">]', line)
        if m and Path(m.group(1)).name == name:
            return i
    return None


__all__: Sequence[str] = (
    "OpUtTextDiffers",
    "check_op_command",
    "check_op_ut",
    "op_folder",
    "op_layout_for",
    "related_include",
)

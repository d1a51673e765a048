"""The run of an operator's built kernel unit test in the box (op_test.py): the box's policy of a step, the test
binaries run where the repository's build runs them, gtest's verdicts, the simulator's findings and the golden
verdict of the data scripts' compare runs (or of the operator's tests/assets/golden.py, op_golden.py)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from akgen_lsp.sandbox import GiB, Limits, MiB, Policy, run_confined
from akgen_lsp.sim.build_cache import cache_dir
from akgen_lsp.sim.compiler import HEADER_SUFFIXES
from akgen_lsp.sim.events import EventCheck, dedupe, read_events
from akgen_lsp.sim.op_golden import golden_spec, golden_verdict
from akgen_lsp.sim.op_layout import OpLayout
from akgen_lsp.sim.op_result import CaseResult, OpTestResult
from akgen_lsp.sim.ut_broker import ScriptBroker, seal_key
from akgen_lsp.sim.ut_python import SCRIPT_LOG, write_shims


def policy(
    work: Path,
    read: Sequence[Path],
    cwd: Path,
    env: dict[str, str],
    timeout_s: float,
    runs: bool = False,
    writable: Sequence[Path] = (),
) -> Policy:
    """The box of a step: the compiler profile; a step that runs the UT (`runs`) also gets /dev/urandom, which the
    data scripts' numpy and the kernels' std::random_device read (a compile never does); `writable`: folders it
    may write besides `work`."""
    return Policy(
        "compiler",
        Limits(
            wall_s=timeout_s,
            cpu_s=None,
            as_bytes=8 * GiB,
            fsize_bytes=2 * GiB,
            output_bytes=4 * MiB,
            disk_bytes=16 * GiB,
        ),
        read_only=list(read),
        writable=[work, *writable],
        cwd=cwd,
        env=env,
        tmp_bytes=1 * GiB,
        devices=[Path("/dev/urandom")] if runs else [],
    )


def first_error(log: str) -> str:
    for pat in (
        r"^.*: (?:fatal )?error: .*$",
        r"^CMake Error.*(?:\n.*\S.*){0,2}",
        r"^\w*Error: .*$",
        r"^.*\b\w+Error\b.*$",
        r"^.*undefined reference.*$",
        r"^.*No such file.*$",
        r"^.*\berror\b.*$",
    ):
        m = re.search(pat, log, re.MULTILINE)
        if m:
            return " ".join(m.group(0).split())[:300]
    tail = [s for s in log.strip().splitlines() if s.strip()]
    return tail[-1][:300] if tail else "no output"


def _run_root(work: Path, repo: Path) -> Path:
    """`<work>/root`: links to the repository's top-level entries and a real build/tests/ut/op_kernel, where the
    test runs (its data paths are relative to the repository's build folder)."""
    root = work / "root"
    root.mkdir(exist_ok=True)
    for entry in repo.iterdir():
        if entry.name == "build":
            continue
        link = root / entry.name
        if not link.is_symlink() or os.readlink(link) != str(entry):
            if link.is_symlink() or link.exists():
                link.unlink()
            link.symlink_to(entry)
    run = root / "build" / "tests" / "ut" / "op_kernel"
    run.mkdir(parents=True, exist_ok=True)
    for old in (*run.glob("*.gtest.json"), *run.glob("*.events.jsonl"), run / SCRIPT_LOG):
        old.unlink(missing_ok=True)  # the last run's reports
    return run


def run_cases(
    res: OpTestResult,
    layout: OpLayout,
    work: Path,
    build: Path,
    targets: Sequence[str],
    read: Sequence[Path],
    env: dict[str, str],
    python: Path | None,
    timeout_s: float,
) -> None:
    run = _run_root(work, layout.repo_root)
    shims = work / "shims"
    log = run / SCRIPT_LOG
    if python is not None:
        write_shims(shims, python, log, reuse=True)
    files = [
        p for p in layout.op_dir.rglob("*") if p.suffix in (*HEADER_SUFFIXES, ".cpp", ".cc") and p.is_file()
    ]
    check = EventCheck(
        files, str(layout.kernel if layout.kernel.is_file() else layout.ut_dir / "CMakeLists.txt")
    )
    reasons: list[str] = []
    completed = 0
    dumps: list[Path] = []
    for target in targets:
        binary = build / "tests" / "ut" / "op_kernel" / target
        report, events = run / f"{target}.gtest.json", run / f"{target}.events.jsonl"
        benv = {
            **env,
            "PATH": f"{shims}:/usr/local/bin:/usr/bin:/bin",
            "AKGEN_SIM_EVENTS": str(events),
            "AKGEN_SIM_ARGS": f"--gtest_output=json:{report}",
            "AKGEN_UT_SCRIPT_BROKER": str(work / "pyrun"),
        }
        if layout.golden is not None:  # the launches' buffers, for a golden check when no compare script runs
            dump = run / f"{target}.dump"
            shutil.rmtree(dump, ignore_errors=True)
            dump.mkdir()
            dumps.append(dump)
            benv["AKGEN_UT_DUMP"] = str(dump)
        with _broker(work, read, env, python, timeout_s):  # the data scripts' replays, decided out here
            out = run_confined([str(binary)], policy(work, read, run, benv, timeout_s, runs=True))
        res.log += out.output
        evs, _bad = read_events(events)
        for ev in evs:
            if ev.get("kind") == "finding":
                f = check.finding(ev)
                if f is not None:
                    res.findings.append(f)
        cases = _gtest_cases(report)
        res.cases += cases
        if out.timed_out:
            reasons.append(f"{target} took more than {timeout_s:.0f} s")
        elif not report.is_file():
            reasons.append(f"{target} ended before finishing its cases ({_end_of(out)})")
        else:
            completed += 1
    summary = check.summary()
    if summary is not None:
        res.findings.append(summary)
    res.findings = dedupe(res.findings)
    res.ran = completed == len(targets)
    if res.ran:
        res.stage = "done"
    _golden_verdict(res, layout, log, python)
    if res.golden == "not-compared" and python is not None and res.ran and layout.golden is not None:

        def box(argv: list[str]) -> Any:
            return run_confined(
                [str(python), *argv],
                policy(work, read, run, {**env, "PATH": "/usr/bin:/bin"}, timeout_s, runs=True),
            )

        spec = golden_spec(layout.op, layout.op_dir, layout.ut_dir / "CMakeLists.txt")
        assert layout.golden is not None
        res.golden, res.golden_detail = golden_verdict(layout.op, layout.golden, spec, dumps, box)
    failed = [c.name for c in res.cases if not c.passed]
    if failed:
        reasons.append(f"{len(failed)} case(s) fail: {', '.join(failed[:5])}")
    res.reason = "; ".join(reasons)


def _end_of(out: Any) -> str:
    if out.signal:
        return f"signal {out.signal}"
    return f"exit status {out.returncode}: {first_error(out.output)}"


def _gtest_cases(report: Path) -> list[CaseResult]:
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    cases: list[CaseResult] = []
    for suite in data.get("testsuites", []) if isinstance(data, dict) else []:
        for t in suite.get("testsuite", []) if isinstance(suite, dict) else []:
            if not isinstance(t, dict) or t.get("status") == "NOTRUN" or t.get("result") == "SKIPPED":
                continue
            fails = t.get("failures") or []
            msg = "; ".join(str(f.get("failure", ""))[:300] for f in fails if isinstance(f, dict))
            cases.append(CaseResult(f"{suite.get('name', '')}.{t.get('name', '')}", not fails, msg))
    return cases


def _golden_verdict(res: OpTestResult, layout: OpLayout, log: Path, python: Path | None) -> None:
    """match / mismatch from the data scripts' compare steps (a script named compare*.py), else what golden.py's
    presence allows. A compare run failed when it exited non-zero or printed a line saying so (FAILED!: many
    compare scripts exit 0 regardless); when a data script that makes the golden data failed, the compare runs had
    none to compare with, so they are no match: "not-compared", saying which script failed."""
    if python is None:
        res.golden_detail = "no Python with numpy for the data scripts (install numpy in akgen's environment)"
        return
    runs: list[
        tuple[int, str, str]
    ] = []  # exit status, the arguments (with stderr's last line), a FAILED line
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for line in text.splitlines():
        parts = line.split("\t", 4)
        if len(parts) >= 3 and parts[0].isdigit():
            said = parts[3].strip() if len(parts) >= 4 and int(parts[0]) != 0 else ""
            failed_line = parts[4].strip() if len(parts) == 5 else ""
            runs.append((int(parts[0]), parts[2] + (f" -> {said[:200]}" if said else ""), failed_line))
    compares = [r for r in runs if re.search(r"compare\w*\.py", r[1])]
    failed_gen = [args for rc, args, _ in runs if rc != 0 and not re.search(r"compare\w*\.py", args)]
    bad = [
        (args + (f" -> printed {fl[:100]!r}" if fl and rc == 0 else ""))
        for rc, args, fl in compares
        if rc or fl
    ]
    if bad:
        res.golden = "mismatch"
        res.golden_detail = f"{len(bad)} of {len(compares)} compare runs failed (python3 {bad[0][:400]})"
    elif compares and failed_gen:
        res.golden = "not-compared"
        res.golden_detail = (
            f"a data script failed (python3 {failed_gen[0][:300]}), so its {len(compares)} compare run(s) had "
            "no golden data to compare with"
        )
    elif compares:
        res.golden = "match"
        res.golden_detail = f"{len(compares)} compare runs passed"
    elif layout.golden is not None:
        res.golden = "not-compared"  # op_golden's check of the launches against golden.py may compare it
        res.golden_detail = "the UT runs no compare script" + (
            f"; a data script failed: python3 {failed_gen[0][:200]}" if failed_gen else ""
        )
    else:
        res.golden = "none"
        res.golden_detail = f"a data script failed: python3 {failed_gen[0][:200]}" if failed_gen else ""


def _broker(
    work: Path, read: Sequence[Path], env: dict[str, str], python: Path | None, timeout_s: float
) -> contextlib.AbstractContextManager[object]:
    """The broker of the data scripts' runs (ut_broker.py) beside a test binary's box: the records in the user's
    cache outside every box's writable folders, sealed; a script's recorded run in a box of its own (the test's
    view, no shims of the broker on its PATH)."""
    # the records of before the broker, in the work folder a box writes
    shutil.rmtree(work / "scripts", ignore_errors=True)
    base = cache_dir().parent  # the seal's key: never in a box's view
    if python is None or any(base.is_relative_to(r) for r in read):
        return contextlib.nullcontext()
    store = cache_dir() / "op-ut-scripts" / hashlib.sha256(str(work).encode()).hexdigest()[:16]
    direct = work / "shims-direct"  # a script's own `python3 x.py`: run and logged, never asked of the broker
    write_shims(direct, python, work / "root" / "build" / "tests" / "ut" / "op_kernel" / SCRIPT_LOG)
    senv = {**env, "PATH": f"{direct}:/usr/local/bin:/usr/bin:/bin"}

    def run_script(argv: Sequence[str], cwd: Path, staging: Path) -> Any:
        return run_confined(
            list(argv), policy(work, read, cwd, senv, timeout_s, runs=True, writable=[staging])
        )

    return ScriptBroker(store, work, read, python, run_script, seal_key(base))

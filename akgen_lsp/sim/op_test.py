"""The kernel unit tests of CANN's operator repositories (hicann/ops-math, ops-nn layout) on the simulator:
`akgen sim op-test OPDIR`, the corpus benchmark's UT columns and the check on save of such a repository.

An operator folder `<repo>/<category>/<op>/` holds `op_kernel/<op>.cpp`, `op_host/` and `tests/ut/op_kernel/` with a
CMakeLists.txt that registers gtest cases with `AddOpTestCase(op "socs" "-DDTYPE_X=..." tiling_srcs)`. The
repository's own top-level build needs CANN's CMake and libraries; here a small driver project (written into the
work folder) finds the toolkit's tikicpulib and Debian's GTest, includes the toolkit's `akgen/op_ut.cmake` (our
AddOpTestCase) and adds the operator's tests/ut/op_kernel/CMakeLists.txt unchanged. Every compile goes through the
toolkit's akgen-cxx, so the cases run the kernel on the simulator (ICPU_RUN_KF: blocks as fibers, the API checks,
the cost model).

Both steps run in the box (sandbox profile `compiler`: processes and exec allowed, no network, the system's /usr
read-only, the work folder the only writable one): cmake + make on the repository's CMakeLists, and the test
binary. The test runs where the repository's build runs it (`<root>/build/tests/ut/op_kernel`, so its relative data
paths such as "../../../../math/<op>/tests/ut/op_kernel/<op>_data" resolve: `<root>` is a folder of links to the
repository's top-level entries), and its `system()` calls reach a `python3` with numpy (the interpreter akgen runs
on, or the first python3 on PATH that has numpy, mounted read-only) through a shim that records each script's exit
status: a compare_data.py that fails makes the golden verdict "mismatch" even though the case, which ignores
system()'s status, passes. Case verdicts are gtest's own (its JSON report), findings come from the simulator's
events file. Where no data script compares, the operator's tests/assets/golden.py is reported as present but not
compared, or its absence is said.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.findings import Finding, Severity, Span
from akgen_lsp.logs.gcc import parse_gcc_output
from akgen_lsp.sandbox import GiB, Limits, MiB, Policy, SandboxUnavailable, run_confined
from akgen_lsp.sim import op_rebuild
from akgen_lsp.sim.build_cache import cache_dir, generated_roots
from akgen_lsp.sim.compiler import HEADER_SUFFIXES, INCLUDE_DIR, ToolchainError, find_cxx
from akgen_lsp.sim.events import EventCheck, dedupe, read_events
from akgen_lsp.sim.op_golden import golden_spec, golden_verdict
from akgen_lsp.sim.op_tiling_gen import tiling_data_text
from akgen_lsp.sim.program import ensure_program_runtime
from akgen_lsp.sim.repo_layout import kernel_layout
from akgen_lsp.sim.toolkit import ToolkitError, ensure_toolkit
from akgen_lsp.sim.ut_python import SCRIPT_LOG, box_python, python_roots, write_shims

DEFAULT_SOC = "Ascend910B1"
A2A3 = re.compile(r"^ascend910(b|_93)", re.IGNORECASE)
_ADD_CASE = re.compile(r"^\s*AddOps?TestCase\s*\(([^)]*)\)", re.MULTILINE)


class OpTestError(RuntimeError):
    """The folder is not an operator with a kernel unit test, or the toolkit cannot be made; the message says what
    to do."""


@dataclass(frozen=True)
class OpLayout:
    """An operator folder of an ops-math / ops-nn style repository."""

    op: str
    op_dir: Path
    repo_root: Path
    ut_dir: Path  # tests/ut/op_kernel of the operator
    golden: Path | None  # tests/assets/golden.py

    @property
    def kernel(self) -> Path:
        return self.op_dir / "op_kernel" / f"{self.op}.cpp"


def find_op(path: str | Path) -> OpLayout | None:
    """The operator that `path` (its folder, or a file in it: op_kernel/x.cpp, a header, a test) belongs to: the
    nearest folder above it with op_kernel/ and tests/ut/op_kernel/CMakeLists.txt. The repository root is the nearest
    folder above that with tests/ut/ or a .git, else two levels up (<repo>/<category>/<op>)."""
    p = Path(path).resolve()
    for d in [p, *p.parents] if p.is_dir() else list(p.parents):
        if (d / "op_kernel").is_dir() and (d / "tests" / "ut" / "op_kernel" / "CMakeLists.txt").is_file():
            root = next(
                (r for r in d.parents if (r / "tests" / "ut").is_dir() or (r / ".git").exists()),
                d.parent.parent,
            )
            golden = d / "tests" / "assets" / "golden.py"
            return OpLayout(
                d.name, d, root, d / "tests" / "ut" / "op_kernel", golden if golden.is_file() else None
            )
    return None


def ut_socs(layout: OpLayout) -> list[str]:
    """The SoCs the operator's kernel UT registers cases for (AddOpTestCase's second argument, all calls)."""
    text = (layout.ut_dir / "CMakeLists.txt").read_text(encoding="utf-8", errors="replace")
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    socs: list[str] = []
    for m in _ADD_CASE.finditer(text):
        args = m.group(1)
        named = re.search(r"SOC_VERSION\s+\"?([^\"\s)]+)", args)
        quoted = re.findall(r'"([^"]*)"', args)
        value = named.group(1) if named else (quoted[0] if quoted else "")
        socs += [s.strip() for s in value.split(";") if s.strip()]
    return list(dict.fromkeys(socs))


def has_a2a3_ut(layout: OpLayout) -> bool:
    return any(A2A3.match(s) for s in ut_socs(layout))


@dataclass
class CaseResult:
    name: str
    passed: bool
    message: str = ""


@dataclass
class OpTestResult:
    """What one operator's kernel UT did. `stage`: how far it got ("no-ut", "configure", "build", "run", "done");
    `ran`: the test binary ran to completion (gtest wrote its report); `golden`: "match" / "mismatch" (the data
    scripts' compare_data.py), "not-compared" (a tests/assets/golden.py, but no script compared), "none" (neither)."""

    op: str
    op_dir: str
    soc: str
    stage: str = "configure"
    has_ut: bool = True
    built: bool = False
    ran: bool = False
    cases: list[CaseResult] = field(default_factory=list)
    golden: str = "none"
    golden_detail: str = ""
    reason: str = ""
    findings: list[Finding] = field(default_factory=list)
    log: str = ""
    seconds: float = 0.0

    @property
    def cases_total(self) -> int:
        return len(self.cases)

    @property
    def cases_passed(self) -> int:
        return sum(c.passed for c in self.cases)

    @property
    def ok(self) -> bool:
        """Built, ran, every case passed, no error finding and no golden mismatch."""
        errors = any(f.severity == Severity.ERROR for f in self.findings)
        return (
            self.ran
            and self.cases_total > 0
            and self.cases_passed == self.cases_total
            and not errors
            and self.golden != "mismatch"
        )

    def summary(self) -> str:
        if not self.has_ut:
            return f"{self.op}: {self.reason}"
        if not self.ran:
            return f"{self.op}: {self.stage} failed: {self.reason}"
        gold = {
            "match": "golden data match",
            "mismatch": "golden data MISMATCH: " + self.golden_detail,
            "not-compared": "golden.py present, not compared: " + self.golden_detail,
            "none": "no golden data",
        }[self.golden]
        return f"{self.op}: {self.cases_passed}/{self.cases_total} cases pass; {gold}" + (
            f"; {self.reason}" if self.reason else ""
        )

    def to_json(self) -> dict[str, Any]:
        from akgen_lsp.findings import finding_to_json

        out = asdict(self)
        out["findings"] = [finding_to_json(f) for f in findings_of(self)]  # as the editor shows them
        out.update(cases_total=self.cases_total, cases_passed=self.cases_passed, ok=self.ok)
        out.pop("log")
        return out


# ------------------------------------------------------------------------------------------------ the build
def tiling_data_header(layout: OpLayout, out: Path) -> Path:
    """`<op>_tiling_data.h`, what CANN generates from the built tiling library: the kernel-side tiling structs of
    op_host's BEGIN_TILING_DATA_DEF headers (op_tiling_gen.py)."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{layout.op}_tiling_data.h"
    for name, for_kernel in ((path.name, False), (f"{layout.op}_tiling_data_kernel.h", True)):
        text = tiling_data_text(layout.op, layout.op_dir, layout.ut_dir, for_kernel)
        target = out / name
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
    return path


def driver_cmake(
    layout: OpLayout,
    soc: str,
    toolkit: Path,
    generated: Path,
    include_dirs: Sequence[Path],
    defines: Sequence[str] = (),
) -> str:
    incs = " ".join(f'"{d}"' for d in include_dirs)
    # the kernels' relative includes of other operators' folders resolve in CANN's ascendc/ layout, as in the kernel
    # check (repo_layout.py); an operator outside such a repository has none
    kl = kernel_layout(layout.kernel, cache_dir()) if layout.kernel.is_file() else None
    defs = " ".join('"' + d.removeprefix("-D").replace('"', '\\"') + '"' for d in defines if d.strip())
    return (
        f"# akgen op-test: the driver of {layout.op}'s kernel unit test (akgen_lsp/sim/op_test.py)\n"
        "cmake_minimum_required(VERSION 3.16)\nproject(akgen_op_ut LANGUAGES C CXX)\n"
        "set(CMAKE_EXPORT_COMPILE_COMMANDS ON)\n"  # the warm rebuild's plan (op_rebuild.py)
        f'set(AKGEN_OP_UT_SOC "{soc}")\nset(AKGEN_OP_UT_DIR "{layout.op_dir}")\n'
        f'set(AKGEN_OP_UT_REPO "{layout.repo_root}")\nset(AKGEN_OP_UT_GENERATED "{generated}")\n'
        f"set(AKGEN_OP_UT_INCLUDES {incs})\n"
        + (f'set(AKGEN_OP_UT_LAYOUT "{kl / "_"}")\n' if kl else "")
        + f'set(PROJECT_SOURCE_DIR "{layout.repo_root}")\n'
        + (f"add_compile_definitions({defs})\n" if defs else "")
        + "find_package(tikicpulib REQUIRED)\nfind_package(GTest REQUIRED)\n"
        f'include("{toolkit}/akgen/op_ut.cmake")\n'
        f'add_subdirectory("{layout.ut_dir}" tests/ut/op_kernel)\n'
    )


def work_dir(layout: OpLayout, soc: str) -> Path:
    key = hashlib.sha256(f"{layout.op_dir}|{soc}".encode()).hexdigest()[:16]
    return cache_dir() / "op-ut" / f"{layout.op}-{key}"


def _pkg_parent() -> Path:
    return Path(__file__).resolve().parents[2]


def _policy(
    work: Path, read: Sequence[Path], cwd: Path, env: dict[str, str], timeout_s: float, runs: bool = False
) -> Policy:
    """The box of a step: the compiler profile; a step that runs the UT (`runs`) also gets /dev/urandom, which the
    data scripts' numpy and the kernels' std::random_device read (a compile never does)."""
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
        writable=[work],
        cwd=cwd,
        env=env,
        tmp_bytes=1 * GiB,
        devices=[Path("/dev/urandom")] if runs else [],
    )


def _first_error(log: str) -> str:
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


def _targets(build: Path) -> list[str]:
    cache = build / "CMakeCache.txt"
    if not cache.is_file():
        return []
    m = re.search(
        r"^AKGEN_OP_UT_CASES:INTERNAL=(.*)$",
        cache.read_text(encoding="utf-8", errors="replace"),
        re.MULTILINE,
    )
    return [t for t in (m.group(1).split(";") if m else []) if t]


def run_op_test(
    op_dir: str | Path,
    soc: str = DEFAULT_SOC,
    timeout_s: float = 900.0,
    include_dirs: Sequence[Path] = (),
    jobs: int = 1,
    work: Path | None = None,
    defines: Sequence[str] = (),
) -> OpTestResult:
    """Build and run the kernel unit test of the operator at (or around) `op_dir` for `soc`, in the box. Raises
    OpTestError when the folder is no operator with a kernel UT or the toolkit cannot be made; every other outcome
    (no A2/A3 case, a configure or compile error, a crash, a failing case) is in the result. `work`: the folder
    of the build and the run (default: under the cache, per operator and SoC); `include_dirs` and `defines`
    (NAME=VALUE) reach every compile of the UT (akgen.toml's ops.include_dirs, ops.defines)."""
    t0 = time.perf_counter()
    layout = find_op(op_dir)
    if layout is None:
        raise OpTestError(
            f"{op_dir} is not an operator folder with a kernel unit test: expected op_kernel/ and "
            "tests/ut/op_kernel/CMakeLists.txt (the ops-math / ops-nn layout) in it or above it"
        )
    res = OpTestResult(layout.op, str(layout.op_dir), soc, golden="not-compared" if layout.golden else "none")
    socs = ut_socs(layout)
    if not any(A2A3.match(s) for s in socs) or not A2A3.match(soc):
        res.has_ut, res.stage = False, "no-ut"
        res.reason = (
            f"its kernel UT registers no case for {soc} (AddOpTestCase SoCs: {', '.join(socs) or 'none'})"
        )
        return res
    work = (work or work_dir(layout, soc)).resolve()
    work.mkdir(parents=True, exist_ok=True)
    # one build of a work folder at a time (a save of the kernel and of its header check the same operator)
    with open(work / ".lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _run_locked(res, layout, soc, timeout_s, include_dirs, jobs, work, defines, t0)


def _run_locked(
    res: OpTestResult,
    layout: OpLayout,
    soc: str,
    timeout_s: float,
    include_dirs: Sequence[Path],
    jobs: int,
    work: Path,
    defines: Sequence[str],
    t0: float,
) -> OpTestResult:
    try:
        toolkit = ensure_toolkit()
        cxx = find_cxx()
        ensure_program_runtime(cxx)  # built here (our own code) so the box only reads it
    except (ToolkitError, ToolchainError) as exc:
        raise OpTestError(str(exc)) from None
    python = box_python()
    # the build folder is <root>/build, as the repository's is: a UT's CMakeLists may copy its data scripts to
    # ${CMAKE_BINARY_DIR}/tests/ut/op_kernel, where its binary is made and runs
    src, build, generated = work / "src", work / "root" / "build", work / "generated"
    for d in (src, build, generated):
        d.mkdir(parents=True, exist_ok=True)
    tiling_data_header(layout, generated)
    driver = driver_cmake(layout, soc, toolkit.resolve(), generated, include_dirs, defines)
    configured = (build / "CMakeCache.txt").is_file() and (build / "Makefile").is_file()
    if (
        not (src / "CMakeLists.txt").is_file()
        or (src / "CMakeLists.txt").read_text(encoding="utf-8") != driver
    ):
        (src / "CMakeLists.txt").write_text(driver, encoding="utf-8")
        configured = False
        # another toolkit (a new version of our headers) or other options: a fresh build folder, as CMake's cache
        # keeps the packages it found
        shutil.rmtree(build, ignore_errors=True)
        build.mkdir(parents=True)
    read = [
        layout.repo_root,
        toolkit.resolve(),
        _pkg_parent(),
        INCLUDE_DIR,
        cache_dir(),
        *include_dirs,
        *python_roots(Path(sys.executable)),
        *(python_roots(python) if python else []),
    ]
    env = {
        "PATH": f"{toolkit.resolve()}/bin:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C",
        "LC_ALL": "C",
        "HOME": str(work),
        "TMPDIR": "/tmp",
        "AKGEN_CACHE_DIR": str(cache_dir().parent),
        "ASCEND_HOME_PATH": str(toolkit.resolve()),
        "CMAKE_PREFIX_PATH": str(toolkit.resolve()),
    }
    key = op_rebuild.plan_key(cxx, toolkit.resolve(), driver)
    inside = [layout.repo_root, generated, *include_dirs]
    pch = op_rebuild.ut_pch(
        cxx, soc
    )  # once per machine and SoC (built aside the first time): every UT compile
    if pch is not None:
        env["AKGEN_UT_PCH"] = str(pch)  # akgen-cxx's compiles in CMake's build

    def boxed(argv: Sequence[str], cwd: Path) -> Any:
        return run_confined(list(argv), _policy(work, read, cwd, env, timeout_s))

    try:
        plan = op_rebuild.usable(work, build, key, layout.ut_dir) if configured else None
        if (
            plan is not None
        ):  # nothing CMake read changed: recompile what changed and relink, as the wrapper would
            res.stage = "build"
            rebuilt = op_rebuild.rebuild(
                plan, build, inside, toolkit.resolve(), cxx, boxed, str(pch) if pch else None
            )
            res.log += rebuilt.log
            if not rebuilt.ok:
                res.reason = _first_error(rebuilt.log)
                res.findings += _build_findings(rebuilt.log, layout)
                return _done(res, t0)
        else:
            void = (work / op_rebuild.PLAN).is_file()  # CMake's inputs changed: configure again
            (work / op_rebuild.PLAN).unlink(missing_ok=True)
            if not _cmake_build(
                res, layout, work, build, src, cxx, read, env, timeout_s, jobs, configured and not void
            ):
                return _done(res, t0)
            op_rebuild.record(work, build, key, _targets(build), layout.ut_dir, inside)
        res.built = True
        targets = _targets(build)
        if not targets:
            said = re.search(r"akgen: AddOpTestCase\(.*?(?=\n\n|$)", res.log, re.S)
            res.reason = "the UT's CMakeLists added no case for this SoC" + (
                f" ({' '.join(said.group(0).split())})" if said else ""
            )
            return _done(res, t0)
        res.stage = "run"
        _run_cases(res, layout, work, build, targets, read, env, python, timeout_s)
    except SandboxUnavailable as exc:
        raise OpTestError(str(exc)) from None
    return _done(res, t0)


def _cmake_build(
    res: OpTestResult,
    layout: OpLayout,
    work: Path,
    build: Path,
    src: Path,
    cxx: str,
    read: Sequence[Path],
    env: dict[str, str],
    timeout_s: float,
    jobs: int,
    configured: bool,
) -> bool:
    """CMake's configure (unless `configured`) and build steps in the box; False (with the reason and the
    compiler's findings in `res`) when one fails."""
    # the compiler the program runtime was built with (its cache key names it)
    steps = [
        [
            "cmake",
            "-S",
            str(src),
            "-B",
            str(build),
            "-DCMAKE_BUILD_TYPE=Debug",
            f"-DCMAKE_CXX_COMPILER={shutil.which(cxx) or cxx}",
        ],
        ["cmake", "--build", str(build), "--", f"-j{max(1, jobs)}", "-k"],
    ]
    # a configured build folder reconfigures itself when a CMakeLists it read changed (make's own rule); a void
    # plan (the UT folder's files changed: its CMakeLists globs them) configures again
    for stage, argv in zip(("configure", "build"), steps, strict=True):
        if stage == "configure" and configured:
            continue
        res.stage = stage
        out = run_confined(argv, _policy(work, read, work, env, timeout_s))
        res.log += out.output
        if out.timed_out or out.returncode != 0:
            res.reason = (
                f"{stage} took more than {timeout_s:.0f} s" if out.timed_out else _first_error(out.output)
            )
            res.findings += _build_findings(out.output, layout)
            return False
    return True


def run_test_command(op_dir: Path, command: str, timeout_s: float) -> Any:
    """Run a per-operator test command (akgen.toml's `ops.test_command`) in the box, from a work folder of its own,
    {op} and {op_dir} replaced; the box's Confined result. Raises OpTestError when the box or toolkit is missing."""
    op_dir = op_dir.resolve()
    root = next(
        (r for r in op_dir.parents if (r / "tests" / "ut").is_dir() or (r / ".git").exists()),
        op_dir.parent.parent,
    )
    try:
        toolkit = ensure_toolkit().resolve()
        ensure_program_runtime(find_cxx())
    except (ToolkitError, ToolchainError) as exc:
        raise OpTestError(str(exc)) from None
    work = cache_dir() / "op-cmd" / f"{op_dir.name}-{hashlib.sha256(str(op_dir).encode()).hexdigest()[:16]}"
    work.mkdir(parents=True, exist_ok=True)
    python = box_python()
    read = [
        root,
        toolkit,
        _pkg_parent(),
        INCLUDE_DIR,
        cache_dir(),
        *python_roots(Path(sys.executable)),
        *(python_roots(python) if python else []),
    ]
    shims = work / "shims"
    if python is not None:
        write_shims(shims, python, work / SCRIPT_LOG)
    env = {
        "PATH": f"{shims}:{toolkit}/bin:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C",
        "LC_ALL": "C",
        "HOME": str(work),
        "TMPDIR": "/tmp",
        "AKGEN_CACHE_DIR": str(cache_dir().parent),
        "OP_DIR": str(op_dir),
        "ASCEND_HOME_PATH": str(toolkit),
        "ASCEND_INSTALL_PATH": str(toolkit),
        "CMAKE_PREFIX_PATH": str(toolkit),
    }
    text = command.replace("{op_dir}", str(op_dir)).replace("{op}", op_dir.name)
    try:
        return run_confined(["/bin/sh", "-c", text], _policy(work, read, work, env, timeout_s, runs=True))
    except SandboxUnavailable as exc:
        raise OpTestError(str(exc)) from None


def _done(res: OpTestResult, t0: float) -> OpTestResult:
    res.seconds = time.perf_counter() - t0
    return res


def _build_findings(log: str, layout: OpLayout) -> list[Finding]:
    """The compiler's errors of a failed build, at their files and lines (our generated units name the user's file
    through #line)."""
    fallback = str(layout.kernel if layout.kernel.is_file() else layout.ut_dir / "CMakeLists.txt")
    found = parse_gcc_output(log, {}, fallback, generated_roots())
    return [f for f in found if f.severity == Severity.ERROR][:50]


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


def _run_cases(
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
            "AKGEN_UT_SCRIPT_CACHE": str(work / "scripts"),
        }
        if layout.golden is not None:  # the launches' buffers, for a golden check when no compare script runs
            dump = run / f"{target}.dump"
            shutil.rmtree(dump, ignore_errors=True)
            dump.mkdir()
            dumps.append(dump)
            benv["AKGEN_UT_DUMP"] = str(dump)
        out = run_confined([str(binary)], _policy(work, read, run, benv, timeout_s, runs=True))
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
    if res.golden == "not-compared" and python is not None and res.ran:

        def box(argv: list[str]) -> Any:
            return run_confined(
                [str(python), *argv],
                _policy(work, read, run, {**env, "PATH": "/usr/bin:/bin"}, timeout_s, runs=True),
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
    return f"exit status {out.returncode}: {_first_error(out.output)}"


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
    """match / mismatch from the data scripts' compare steps (a script named compare*.py, or any script that
    printed nothing but failed with a golden file beside it), else what golden.py's presence allows."""
    if python is None:
        res.golden_detail = "no Python with numpy for the data scripts (install numpy in akgen's environment)"
        return
    runs: list[tuple[int, str]] = []
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for line in text.splitlines():
        parts = line.split("\t", 3)
        if len(parts) >= 3 and parts[0].isdigit():
            said = parts[3].strip() if len(parts) == 4 and int(parts[0]) != 0 else ""
            runs.append((int(parts[0]), parts[2] + (f" -> {said[:200]}" if said else "")))
    compares = [(rc, args) for rc, args in runs if re.search(r"compare\w*\.py", args)]
    failed_gen = [args for rc, args in runs if rc != 0 and not re.search(r"compare\w*\.py", args)]
    if failed_gen:
        res.reason = f"a data script failed: python3 {failed_gen[0][:200]}"
    if compares:
        bad = [args for rc, args in compares if rc != 0]
        res.golden = "mismatch" if bad else "match"
        res.golden_detail = (
            f"{len(bad)} of {len(compares)} compare runs failed (python3 {bad[0][:400]})"
            if bad
            else f"{len(compares)} compare runs passed"
        )
    elif layout.golden is not None:
        res.golden = "not-compared"  # op_golden's check of the launches against golden.py may compare it
        res.golden_detail = "the UT runs no compare script"
    else:
        res.golden = "none"


def findings_of(result: OpTestResult) -> list[Finding]:
    """The result as findings for the editor and agents: the run's findings, one per failing case (at its test),
    one at the kernel entry when the UT's compare script found the outputs differ from the golden data (the cases
    themselves ignore it), and one there when the built UT did not run to completion."""
    out = list(result.findings)
    ut = Path(result.op_dir) / "tests" / "ut" / "op_kernel"
    for c in result.cases:
        if not c.passed:
            out.append(
                Finding(
                    "SIM-UT-CASE",
                    f"kernel unit test {c.name} failed: {c.message}",
                    Span.point(str(_case_file(ut, c.name)), 1),
                    severity=Severity.ERROR,
                    source="akgen-run",
                    error_class="runtime",
                )
            )
    kernel = Path(result.op_dir) / "op_kernel" / f"{result.op}.cpp"
    if result.golden == "mismatch":
        out.append(
            Finding(
                "OP-UT-GOLDEN",
                f"the kernel's output differs from the golden data: "
                f"{result.golden_detail}; the UT's cases pass because they ignore the compare script's "
                "exit status",
                Span.point(str(kernel), entry_line(kernel)),
                severity=Severity.ERROR,
                source="akgen-run",
                error_class="numeric",
            )
        )
    if result.built and not result.ran:
        out.append(
            Finding(
                "OP-UT-RUN",
                f"the kernel UT did not run to completion: {result.reason}",
                Span.point(str(kernel), entry_line(kernel)),
                severity=Severity.ERROR,
                source="akgen-run",
                error_class="runtime",
            )
        )
    return out


_ENTRY = re.compile(r'(?:extern\s*"C"\s*)?__global__\s+__aicore__\s+void\s+\w+\s*\(')


def entry_line(path: Path) -> int:
    """The 1-based line of the first kernel entry (`__global__ __aicore__ void name(`) of `path`, else 1."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 1
    for i, line in enumerate(text.splitlines(), 1):
        if _ENTRY.search(line):
            return i
    return 1


def _case_file(ut: Path, name: str) -> Path:
    tests = sorted(ut.glob("test_*.cpp"))
    test = name.split(".", 1)[-1]
    for t in tests:
        if re.search(rf"\b{re.escape(test)}\b", t.read_text(encoding="utf-8", errors="replace")):
            return t
    return tests[0] if tests else ut / "CMakeLists.txt"

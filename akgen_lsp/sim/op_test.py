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
import re
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from akgen_lsp.findings import Finding, Severity
from akgen_lsp.logs.gcc import parse_gcc_output
from akgen_lsp.sandbox import SandboxUnavailable, run_confined
from akgen_lsp.sim import op_rebuild
from akgen_lsp.sim.build_cache import cache_dir, generated_roots
from akgen_lsp.sim.compiler import INCLUDE_DIR, ToolchainError, find_cxx
from akgen_lsp.sim.op_layout import A2A3, DEFAULT_SOC, OpLayout, OpTestError, find_op, has_a2a3_ut, ut_socs
from akgen_lsp.sim.op_result import CaseResult, OpTestResult, entry_line, findings_of
from akgen_lsp.sim.op_run import first_error, policy, run_cases
from akgen_lsp.sim.op_tiling_gen import tiling_data_text
from akgen_lsp.sim.program import ensure_program_runtime
from akgen_lsp.sim.repo_layout import kernel_layout
from akgen_lsp.sim.toolkit import ToolkitError, ensure_toolkit
from akgen_lsp.sim.ut_dtypes import dtype_note, missing_dtype_defines
from akgen_lsp.sim.ut_python import SCRIPT_LOG, box_python, python_roots, write_shims

# the operator model and the result live in op_layout.py / op_result.py; their names stay importable from here
__all__ = [
    "A2A3",
    "DEFAULT_SOC",
    "CaseResult",
    "OpLayout",
    "OpTestError",
    "OpTestResult",
    "driver_cmake",
    "entry_line",
    "find_op",
    "findings_of",
    "has_a2a3_ut",
    "run_op_test",
    "run_test_command",
    "tiling_data_header",
    "ut_socs",
    "work_dir",
]


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
    main: Path | None = None,
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
        + (f'set(AKGEN_OP_UT_MAIN "{main}")\n' if main else "")
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
        if any(not re.match(r"ascend\d", s, re.IGNORECASE) for s in socs if s.lower().startswith("ascend")):
            res.reason += (
                "; the repository's AddOpTestCase reads a first argument that starts with 'ascend' as the SoC "
                'list, so an operator named ascend_* needs its SoCs first: AddOpTestCase("ascend910B1" ...)'
            )
        return res
    work = (work or work_dir(layout, soc)).resolve()
    work.mkdir(parents=True, exist_ok=True)
    # DTYPE_<X> the kernel names and the UT leaves out, from the op definition (said on the result)
    given = {d.removeprefix("-D").split("=", 1)[0] for d in defines}
    filled = {k: v for k, v in missing_dtype_defines(layout.op_dir, layout.ut_dir).items() if k not in given}
    # one build of a work folder at a time (a save of the kernel and of its header check the same operator)
    with open(work / ".lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        out = _run_locked(
            res,
            layout,
            soc,
            timeout_s,
            include_dirs,
            jobs,
            work,
            [*defines, *(f"{k}={v}" for k, v in filled.items())],
            t0,
        )
    if filled:
        out.findings.append(dtype_note(layout.ut_dir, filled))
    return out


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
    main = op_rebuild.ensure_ut_main(cxx, soc, toolkit.resolve(), defines)  # once per machine and SoC
    driver = driver_cmake(layout, soc, toolkit.resolve(), generated, include_dirs, defines, main)
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
        return run_confined(list(argv), policy(work, read, cwd, env, timeout_s))

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
                res.reason = first_error(rebuilt.log)
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
        run_cases(res, layout, work, build, targets, read, env, python, timeout_s)
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
        out = run_confined(argv, policy(work, read, work, env, timeout_s))
        res.log += out.output
        if out.timed_out or out.returncode != 0:
            res.reason = (
                f"{stage} took more than {timeout_s:.0f} s" if out.timed_out else first_error(out.output)
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
        return run_confined(["/bin/sh", "-c", text], policy(work, read, work, env, timeout_s, runs=True))
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

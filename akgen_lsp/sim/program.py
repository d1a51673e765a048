"""Run a program on the CPU simulator: a single-source `.asc` (a host `main()` using the AscendCL runtime plus its
kernels, as CANN 9's examples are written), a CANN CPU-debug main, or a sample's several sources (each its own
translation unit: program_units.py): `run_program(path_or_paths, workdir) -> ProgramResult`. The rewrite of the
source described below is program_rewrite.py.

How: the program is compiled whole with g++ against our headers (the precompiled header and flags of
`akgen_lsp.sim.build`), after a line-keeping rewrite of a shadow copy (`#line 1 "<the .asc>"`, so diagnostics,
`__FILE__` and the findings of runtime checks name the user's file and line): bisheng's attribute lists are blanked
(`build.bisheng_shadow_text`) and each launch `kernel<<<blockDim, l2ctrl, stream>>>(args)` becomes
`::akgen_sim::program_launch_kernel("kernel", blockDim, l2ctrl, stream, [&]() { kernel(args); })`. It is linked with
`launcher/program_main.cpp`, which runs each launch's blocks through the simulator's block runtime (the kernel
launcher's fibers, checks and cost model) and emulates nothing else: the AscendCL calls are
`include/akgen_sim/acl_runtime.h` (device memory is simulator GM with guard zones). The program runs in the sandbox
of sim runs (rlimits, wall-clock timeout, scrubbed environment, its own process group, seccomp without process
creation or sockets) with `workdir` as its working directory, so its relative `ReadFile`/`WriteFile` paths work.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.findings import Finding, Severity, Span, finding_from_json, finding_to_json
from akgen_lsp.logs.gcc import parse_gcc_output
from akgen_lsp.sandbox import RUN_DISK_BYTES, Limits, MiB, Policy, SandboxUnavailable, run_confined
from akgen_lsp.sim import cache_prune, cost
from akgen_lsp.sim.build_cache import (
    atomic_dir,
    cache_dir,
    generated_roots,
    headers_hash,
    publish,
    reusable,
    seal,
)
from akgen_lsp.sim.build_types import Build
from akgen_lsp.sim.compiler import (
    BASE_FLAGS,
    HEADER_SUFFIXES,
    INCLUDE_DIR,
    LAUNCHER_SRC,
    ToolchainError,
    compiler_id,
    find_cxx,
    run_compiler,
)
from akgen_lsp.sim.events import EventCheck, box_outcome, dedupe, kernel_files, read_events, valid_block
from akgen_lsp.sim.pch import ensure_object, ensure_pch
from akgen_lsp.sim.program_rewrite import (
    cube_kernels,
    flag_defines,
    launch_wrappers,
    main_returns,
    project_root,
    relative_include_dirs,
    rewrite_launches,
    shadow_program,
)
from akgen_lsp.sim.program_units import (
    UnitsError,
    collect_units,
    defines_main,
    digests,
    kernel_signatures,
    launch_header,
    read_depfile,
    still_current,
    user_dependencies,
)
from akgen_lsp.sim.shadow import shadow_sources
from akgen_lsp.sim.toolchain import SimResult

# the rewrite's names other modules import from here (they live in program_rewrite)
__all__ = [
    "DISK_BYTES",
    "MAX_LAUNCHES",
    "ProgramError",
    "ProgramResult",
    "compile_program",
    "cube_kernels",
    "ensure_program_runtime",
    "flag_defines",
    "launch_wrappers",
    "main_returns",
    "program_policy",
    "project_root",
    "relative_include_dirs",
    "rewrite_launches",
    "run_program",
    "shadow_program",
]

PROGRAM_MAIN = LAUNCHER_SRC.parent / "program_main.cpp"


class ProgramError(ValueError):
    """The program file itself is unusable (missing, not a source file); the message says what to do."""


@dataclass
class ProgramResult(SimResult):
    """A program run: SimResult's fields plus the program's exit status, its launches and working directory."""

    exit_code: int | None = None
    launches: list[dict[str, Any]] = field(default_factory=list)
    workdir: str = ""
    wall_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out.update(
            {
                "exit_code": self.exit_code,
                "launches": self.launches,
                "workdir": self.workdir,
                "wall_s": round(self.wall_s, 4),
            }
        )
        return out


# --------------------------------------------------------------------------------------------------- build


def ensure_program_runtime(cxx: str, timeout: float = 300.0) -> Path:
    """The object of launcher/program_main.cpp (the launcher reused per launch, the file watch, the sandbox)."""
    return ensure_object(cxx, PROGRAM_MAIN, "program_runtime", "the program runtime", timeout)


def _folder_headers(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in HEADER_SUFFIXES)


def _cached_build(final: Path, units: Sequence[Path], key: str, t0: float) -> Build | None:
    """The cached build in `final` when every file its compile read (g++'s dependency list) is unchanged."""
    meta = reusable(final, "program")  # a successful entry's binary still has the hash it was built with
    if meta is None:
        return None
    if not still_current(meta.get("deps") or {}):
        shutil.rmtree(final, ignore_errors=True)  # stale: a header, included .cpp or -I file changed
        return None
    cache_prune.touch(final)
    found = [finding_from_json(f) for f in meta.get("findings", [])]
    return Build(
        ok=bool(meta.get("ok")),
        binary=(final / "program") if meta.get("ok") else None,
        findings=found,
        sources=tuple(units),
        key=key,
        cached=True,
        seconds=time.perf_counter() - t0,
        command=meta.get("command", []),
        log=meta.get("log", ""),
    )


def compile_program(
    path: str | Path | Sequence[str | Path],
    use_cache: bool = True,
    timeout_s: float = 180.0,
    defines: Mapping[str, str] | None = None,
    include_dirs: Sequence[str | Path] = (),
) -> Build:
    """Compile and link the program: one source (a single-source `.asc`, a CPU-debug main), or several sources or
    folders (a CANN sample's main.cpp, kernel .cpp and host tiling .cpp), each its own translation unit, with the
    macros `defines` and the include folders `include_dirs` (what a CMakeLists' target_compile_definitions and
    target_include_directories give). The cache key covers the sources, the headers beside the first one and every
    other file g++ read (its -MD list: headers in subfolders or -I folders, included .cpp files), so an edit anywhere
    the compile looked rebuilds. Raises ProgramError for missing or unusable sources and ToolchainError when g++
    itself cannot work; a program that does not compile gives a Build with ok=False and findings at the user's
    lines (an error in an included .cpp or a header at its own file and line)."""
    t0 = time.perf_counter()
    paths = [path] if isinstance(path, (str, Path)) else list(path)
    try:
        units = collect_units(paths)
    except UnitsError as exc:
        raise ProgramError(str(exc)) from None
    texts = {u: u.read_text(encoding="utf-8", errors="surrogateescape") for u in units}
    mains = [u for u in units if defines_main(texts[u])]
    if len(units) > 1 and len(mains) != 1:
        what = (
            "none of them defines main()"
            if not mains
            else "several define main(): " + ", ".join(m.name for m in mains)
        )
        raise ProgramError(
            f"the program's sources are {', '.join(u.name for u in units)}, and {what}; give exactly "
            "one host main and the kernel sources"
        )
    main_unit = mains[0] if mains else units[0]
    src = main_unit
    cxx = find_cxx()
    incs = [Path(d).resolve() for d in include_dirs]
    for d in incs:
        if not d.is_dir():
            raise ProgramError(f"-I {d}: no such folder; give the folder that holds the sample's headers")
    # each kernel's aclrtlaunch_<kernel> (what CANN's ascendc_library generates for NPU-mode mains) is defined in its
    # unit, and its header is generated into the build (`#include "aclrtlaunch_<kernel>.h"`)
    flags = [*BASE_FLAGS, *(f"-D{k}={v}" for k, v in sorted((defines or {}).items())), "-I", str(INCLUDE_DIR)]
    macros = flag_defines(flags)
    shadows = {
        u: shadow_program(u, texts[u], has_main=u == main_unit, macros=macros)[0] + launch_wrappers(texts[u])
        for u in units
    }
    headers = sorted({h for u in units for h in _folder_headers(u.parent)})
    h = hashlib.sha256()
    h.update(f"{compiler_id(cxx)}|{headers_hash()}|{flags}|{incs}|program".encode())
    for u in units:
        h.update(f"|{u}|".encode())
        h.update(shadows[u].encode("utf-8", errors="surrogateescape"))
    for p in headers:
        h.update(str(p).encode())
        h.update(p.read_bytes())
    key = h.hexdigest()[:32]
    final = cache_dir() / "programs" / key
    if use_cache and (hit := _cached_build(final, units, key, t0)) is not None:
        return hit
    runtime = ensure_program_runtime(cxx)
    pch = ensure_pch(cxx)
    tmp = atomic_dir(final) if use_cache else Path(tempfile.mkdtemp(prefix="akgen-program-"))
    folders = list(dict.fromkeys([*(u.parent for u in units), *incs, *relative_include_dirs(units, texts)]))
    _, shadow_dirs = shadow_sources([], folders, tmp / "shadow")
    for d in shadow_dirs:
        flags += ["-I", str(d)]
    for d in folders:
        flags += ["-I", str(d)]
    launch_dir = tmp / "launch_headers"
    launch_dir.mkdir()
    for u in units:
        for name, params in kernel_signatures(texts[u]):
            (launch_dir / f"aclrtlaunch_{name}.h").write_text(launch_header(name, params), encoding="utf-8")
    flags += ["-I", str(launch_dir)]
    log = ""
    objects: list[str] = []
    depfiles: list[Path] = []
    cmd: list[str] = []
    ok = True
    for i, u in enumerate(units):
        unit_path = tmp / f"{i}_{u.stem}.program.cpp"
        unit_path.write_text(shadows[u], encoding="utf-8", errors="surrogateescape")
        obj, dep = tmp / f"{i}_{u.stem}.o", tmp / f"{i}_{u.stem}.d"
        cmd = [
            cxx,
            *flags,
            "-include",
            str(pch),
            "-Winvalid-pch",
            "-MD",
            "-MF",
            str(dep),
            "-c",
            str(unit_path),
            "-o",
            str(obj),
        ]
        res = run_compiler(cmd, timeout_s, tmp, [*folders, runtime.parent, pch.parent])
        log += (res.stderr or "") + (res.stdout or "")
        depfiles.append(dep)
        objects.append(str(obj))
        ok = ok and res.returncode == 0 and obj.is_file()
    if ok:
        link = ["-fuse-ld=gold"] if shutil.which("ld.gold") else []
        cmd = [cxx, *link, "-rdynamic", *objects, str(runtime), "-ldl", "-o", str(tmp / "program")]
        res = run_compiler(cmd, timeout_s, tmp, [*folders, runtime.parent, pch.parent])
        log += (res.stderr or "") + (res.stdout or "")
        ok = res.returncode == 0 and (tmp / "program").is_file()
    deps: list[Path] = []
    for dep in depfiles:
        with contextlib.suppress(OSError):
            deps += read_depfile(dep.read_text(encoding="utf-8", errors="replace"))
    read = user_dependencies(deps, [tmp, cache_dir()])
    user_files = {os.path.normpath(str(u)): str(u) for u in units}
    for p in [*headers, *read]:
        user_files[os.path.normpath(str(p))] = str(p)
    findings = [] if ok else parse_gcc_output(log, user_files, str(src), generated_roots([tmp]))
    meta = {
        "ok": ok,
        "findings": [finding_to_json(f) for f in findings],
        "command": cmd,
        "log": log[-20000:],
        "deps": digests(read),
        "units": [str(u) for u in units],
    }
    (tmp / "build.json").write_text(json.dumps(meta), encoding="utf-8")
    if ok:
        seal(tmp, "program")
    out_dir = tmp
    if use_cache:
        shutil.rmtree(final, ignore_errors=True)  # a stale entry of the same sources (its deps changed)
        publish(tmp, final)
        out_dir = final if final.is_dir() else tmp
    return Build(
        ok=ok,
        binary=(out_dir / "program") if ok else None,
        findings=findings,
        sources=tuple(units),
        key=key,
        cached=False,
        seconds=time.perf_counter() - t0,
        command=cmd,
        log=log,
    )


# --------------------------------------------------------------------------------------------------- run


def _spec_lines(run_dir: Path, params: list[str], cpu_s: float, memory_mb: int) -> list[str]:
    return [
        f"events {run_dir / 'events.jsonl'}",
        f"cpu_s {int(max(1, cpu_s))}",
        f"as_bytes {memory_mb * 1024 * 1024}",
        f"fsize_bytes {1 << 30}",
        *params,
    ]


def _summarise(
    events: list[dict[str, Any]], check: EventCheck, profile: Any
) -> tuple[list[Finding], list[dict[str, Any]], dict[str, Any] | None]:
    """Findings, launches (with their blocks and estimate) and the terminal event (crash/timeout), each checked."""
    findings: list[Finding] = []
    launches: list[dict[str, Any]] = []
    terminal: dict[str, Any] | None = None
    for ev in events:
        kind = ev.get("kind")
        if kind == "launch" and len(launches) < MAX_LAUNCHES:
            launches.append(
                {
                    "launch": ev.get("launch") if isinstance(ev.get("launch"), int) else len(launches) + 1,
                    "line": ev.get("line") if isinstance(ev.get("line"), int) else None,
                    "blocks": ev.get("blocks") if isinstance(ev.get("blocks"), int) else 0,
                    "block_results": [],
                    "kernel_us": 0.0,
                }
            )
        elif kind == "finding":
            f = check.finding(ev)
            if f is not None:
                findings.append(f)
        elif kind == "block" and launches:
            if valid_block(ev):
                launches[-1]["block_results"].append(ev)
            else:
                check.reject("a malformed block summary")
        elif kind == "done" and launches:
            us = ev.get("kernel_us")
            launches[-1]["kernel_us"] = float(us) if isinstance(us, (int, float)) else 0.0
        elif kind in ("crash", "timeout", "forbidden"):
            terminal = check.terminal(ev)
    for la in launches:
        blocks = la.pop("block_results")
        la["failed_blocks"] = sum(1 for b in blocks if b.get("status") != "ok")
        la["estimate"] = cost.estimate(blocks, profile) if blocks else None
    return findings, launches, terminal


MAX_LAUNCHES = 100_000
DISK_BYTES = RUN_DISK_BYTES  # all the program's writes together, its working directory included


def program_policy(
    build: Build,
    workdir: Path,
    run_dir: Path,
    timeout_s: float,
    cpu_s: float,
    memory_mb: int,
    env: Mapping[str, str],
) -> Policy:
    """A program's box: its binary read-only, its working directory and the run folder (spec, events) writable."""
    assert build.binary is not None
    limits = Limits(
        wall_s=timeout_s,
        cpu_s=cpu_s + 1,
        as_bytes=(memory_mb + 512) * MiB,
        fsize_bytes=1 << 30,
        disk_bytes=DISK_BYTES,
    )
    return Policy(
        "program",
        limits,
        read_only=[build.binary.parent],
        writable=[workdir.resolve(), run_dir],
        cwd=workdir.resolve(),
        env=env,
    )


def run_program(
    path: str | Path | Sequence[str | Path],
    workdir: str | Path | None = None,
    *,
    arch: str = "Ascend910B2",
    timeout_s: float = 120.0,
    cpu_s: float = 60.0,
    memory_mb: int = 4096,
    use_cache: bool = True,
    defines: Mapping[str, str] | None = None,
    args: Sequence[str] = (),
    checks: str = "npu",
    include_dirs: Sequence[str | Path] = (),
) -> ProgramResult:
    """Compile the program at `path` (one source, or several sources / folders: `compile_program`) and run it with
    `workdir` (default: the current directory) as its working directory and `args` as its command-line arguments;
    `defines` and `include_dirs` are the compile's -D macros and -I folders (what a CMakeLists'
    target_compile_definitions and target_include_directories give); `checks` is the check mode, "npu" or
    "cpu-debug" (docs/sim.md, "Check modes"). Never raises for a bad program: the result's status and findings say
    what happened (status "ok", "compile_error", "runtime_error", "timeout" or "crash")."""
    src = Path(path if isinstance(path, (str, Path)) else (list(path) or ["."])[0])
    wd = Path(workdir) if workdir is not None else Path.cwd()
    fallback = str(src.resolve()) if src.exists() else str(src)
    if not wd.is_dir():
        return ProgramResult(
            "runtime_error",
            [
                Finding(
                    "SIM-PROGRAM",
                    f"the working directory {wd} does not exist: create it (with the program's input files) "
                    "or pass an existing folder as --workdir",
                    Span.point(fallback, 1),
                    source="akgen-run",
                )
            ],
            workdir=str(wd),
        )
    try:
        build = compile_program(path, use_cache=use_cache, defines=defines, include_dirs=include_dirs)
    except ProgramError as exc:
        return ProgramResult(
            "compile_error",
            [Finding("SIM-PROGRAM", str(exc), Span.point(fallback, 1), source="akgen-build")],
            workdir=str(wd),
        )
    except ToolchainError as exc:
        return ProgramResult(
            "compile_error",
            [Finding("SIM-TOOLCHAIN", str(exc), Span.point(fallback, 1), source="akgen-build")],
            workdir=str(wd),
        )
    binfo: dict[str, Any] = {"cached": build.cached, "seconds": round(build.seconds, 4), "key": build.key}
    if not build.ok or build.binary is None:
        return ProgramResult("compile_error", build.findings, build=binfo, workdir=str(wd))
    profile, warnings = cost.profile_for(arch)
    params, more = cost.launcher_params(profile)
    params.append(f"checks {checks}")
    warnings += more
    run_dir = Path(tempfile.mkdtemp(prefix="akgen-program-run-"))
    spec = run_dir / "spec.txt"
    spec.write_text("\n".join(_spec_lines(run_dir, params, cpu_s, memory_mb)) + "\n", encoding="utf-8")
    env = {"AKGEN_SIM_SPEC": str(spec), "AKGEN_SIM_ARGS": "\x1f".join(args)}
    if any("\x1f" in a or "\0" in a for a in args):
        shutil.rmtree(run_dir, ignore_errors=True)
        return ProgramResult(
            "runtime_error",
            [
                Finding(
                    "SIM-PROGRAM",
                    "a program argument contains a control character (\\x1f or NUL); pass plain text",
                    Span.point(fallback, 1),
                    source="akgen-run",
                )
            ],
            build=binfo,
            workdir=str(wd),
        )
    t0 = time.perf_counter()
    try:
        res = run_confined(
            [str(build.binary)], program_policy(build, wd, run_dir, timeout_s, cpu_s, memory_mb, env)
        )
    except (SandboxUnavailable, OSError, RuntimeError) as exc:
        shutil.rmtree(run_dir, ignore_errors=True)
        code = "SIM-SANDBOX-UNAVAILABLE" if isinstance(exc, SandboxUnavailable) else "SIM-PROGRAM"
        return ProgramResult(
            "crash",
            [Finding(code, f"cannot start the program: {exc}", Span.point(fallback, 1), source="akgen-run")],
            build=binfo,
            workdir=str(wd),
        )
    stdout = res.output
    wall = time.perf_counter() - t0
    events, bad_lines = read_events(run_dir / "events.jsonl")
    shutil.rmtree(run_dir, ignore_errors=True)
    check = EventCheck(
        kernel_files([Path(s) for s in build.sources], [Path(d) for d in include_dirs]), fallback
    )
    if bad_lines:
        check.reject(f"{bad_lines} line(s) that are not simulator records")
    findings, launches, terminal = _summarise(events, check, profile)
    sandbox = dict(res.sandbox)
    sandbox["file_system"] = f"the working directory {wd.resolve()} (read-write) and the program's own files"
    status, last = box_outcome(res, terminal, False, fallback, what="program", exit_is_crash=False)
    if last is not None and (
        terminal is None or terminal.get("kind") == "forbidden" or terminal["block"] < 0
    ):
        # outside a kernel: the host code did it
        msg = last.message.replace("the kernel", "the program")
        if terminal is not None and terminal.get("kind") == "forbidden":
            msg = msg.replace(
                "device code may not open files, start processes or use the network",
                "a program run on the simulator may not start processes or use the network",
            )
        last = Finding(
            last.code, msg, last.span, last.severity, last.source, last.error_class, last.fixes, last.data
        )
    if last is not None:
        findings.append(last)
    elif res.returncode != 0:
        findings.append(
            Finding(
                "SIM-PROGRAM-EXIT",
                f"the program ended with exit status {res.returncode}; its output is in `stdout`",
                Span.point(fallback, 1),
                severity=Severity.ERROR,
                source="akgen-run",
                error_class="runtime",
            )
        )
        status = "runtime_error"
    if (forged := check.summary()) is not None:
        findings.append(forged)
    findings = dedupe(findings)
    if status == "ok" and any(f.severity is Severity.ERROR for f in findings):
        status = "runtime_error"
    if status == "ok" and any(la.get("failed_blocks") for la in launches):
        status = "runtime_error"
    if not launches and status == "ok":
        warnings.append("the program made no kernel launch (no `<<<...>>>` was reached)")
    us = [la["estimate"]["us"] for la in launches if la.get("estimate")]
    estimate = (
        {
            "label": "estimate",
            "us": round(sum(us), 4),
            "arch": arch,
            "launches": len(launches),
            "bound": launches[-1]["estimate"]["bound"] if us and launches[-1].get("estimate") else None,
            "blocks": sum(int(la.get("blocks") or 0) for la in launches),
            "waves": max((la["estimate"]["waves"] for la in launches if la.get("estimate")), default=0),
        }
        if us
        else None
    )
    binfo.update(
        {
            "kernel_us": round(sum(la.get("kernel_us", 0.0) for la in launches), 1),
            "run_wall_s": round(wall, 4),
        }
    )
    return ProgramResult(
        status,
        findings,
        {},
        estimate,
        None,
        sandbox,
        binfo,
        warnings,
        stdout,
        exit_code=None if res.timed_out else res.returncode,
        launches=launches,
        workdir=str(wd),
        wall_s=wall,
    )

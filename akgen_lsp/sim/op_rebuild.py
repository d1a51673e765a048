"""The warm rebuild of an operator's kernel unit test (op_test.py): after CMake built the UT once, a save recompiles
only the objects whose inputs changed and relinks, as the toolkit's compiler wrapper would, without CMake, make and
the wrapper's own Python start for each step.

After a build through CMake, `record` writes the plan (`akgen_plan.json` in the work folder): every object's compile
command (CMake's compile_commands.json) with the content hash of every file its compile read (g++'s dependency list:
the source, the operator's headers, the generated tiling header; our own headers are keyed by their version), and
each test binary's link command (CMake's link.txt). The plan is void, and CMake runs again, when anything CMake read
changed (CMAKE_MAKEFILE_DEPENDS: the CMakeLists files, the toolkit's .cmake), when the files of the UT's folder are
not the same (its CMakeLists globs test_<op>*.cpp), or when the compiler, our headers, the toolkit or the driver
project changed. Correctness first: an object is reused only when every file its last compile read has the same
content.

Every compile of a UT, CMake's and these, includes a precompiled header of the API (`ensure_ut_pch`: once per
machine and SoC, built by a process of its own the first time, so no save waits for it) when its source defines no
macro before its first #include (such a macro could change what the API headers declare).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from akgen_lsp.sim.build_cache import (
    SYSTEM_ROOTS,
    atomic_dir,
    cache_dir,
    deps_unchanged,
    file_digest,
    headers_hash,
    publish,
    read_depfile,
    user_deps,
)
from akgen_lsp.sim.compiler import INCLUDE_DIR, OPT_FLAGS, compiler_id, run_compiler
from akgen_lsp.sim.toolkit_cxx import compile_args, link_args

PLAN = "akgen_plan.json"
# the relink through gold where it is installed: the same binary's link in ~40% of ld.bfd's CPU time (a UT's objects
# carry -g's debug sections, which bfd copies slowly)
_FAST_LD = ["-fuse-ld=gold"] if shutil.which("ld.gold") else []
Run = Callable[[Sequence[str], Path], Any]  # (argv, cwd) -> the box's Confined result


@dataclass
class Rebuilt:
    """What the warm rebuild did: `ok` (False: a compile or link failed, `log` has the compiler's words),
    the objects it compiled and the binaries it linked."""

    ok: bool
    log: str
    compiled: list[str]
    linked: list[str]


def plan_key(cxx: str, toolkit: Path, driver: str) -> str:
    return hashlib.sha256(f"{compiler_id(cxx)}|{headers_hash()}|{toolkit}|{driver}".encode()).hexdigest()[:24]


def _listing(ut_dir: Path) -> list[str]:
    return sorted(p.name for p in ut_dir.iterdir()) if ut_dir.is_dir() else []


def _cmake_inputs(build: Path) -> dict[str, str]:
    """The files CMake read to write this build folder (CMAKE_MAKEFILE_DEPENDS), each with its content hash; the
    system's own modules (under /usr) are left out."""
    text = (build / "CMakeFiles" / "Makefile.cmake").read_text(encoding="utf-8", errors="replace")
    m = re.search(r"set\(CMAKE_MAKEFILE_DEPENDS\s+(.*?)\)", text, re.S)
    out: dict[str, str] = {}
    for name in re.findall(r'"([^"]+)"', m.group(1) if m else ""):
        p = Path(name) if Path(name).is_absolute() else build / name
        if p.name == "CMakeCache.txt" or any(p.is_relative_to(r) for r in SYSTEM_ROOTS) or not p.is_file():
            continue
        out[str(p)] = file_digest(p)
    return out


def _strip_launcher(args: list[str]) -> list[str]:
    """The compiler command without the toolkit's RULE_LAUNCH prefix (`.../akgen-cxx launch`)."""
    if len(args) > 2 and Path(args[0]).name == "akgen-cxx" and args[1] == "launch":
        return args[2:]
    return args


def _object_deps(obj: dict[str, Any], inside: Sequence[Path], build: Path) -> dict[str, str]:
    deps = read_depfile(Path(obj["depfile"]), Path(obj["directory"]))
    return {
        obj["source"]: file_digest(Path(obj["source"])),
        **user_deps(deps, [*SYSTEM_ROOTS, INCLUDE_DIR, build], inside),
    }


def _absolute_output(args: Sequence[str], out: str | Path) -> list[str]:
    i = list(args).index("-o")
    return [*args[: i + 1], str(out), *args[i + 2 :]]


def record(
    work: Path, build: Path, key: str, targets: Sequence[str], ut_dir: Path, inside: Sequence[Path]
) -> None:
    """Write the plan of a build folder CMake just built (every target's objects, compile and link commands, the
    content hashes of what they read). A build folder without compile_commands.json gets no plan."""
    plan_path = work / PLAN
    plan_path.unlink(missing_ok=True)
    try:
        entries = json.loads((build / "compile_commands.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    objects: dict[str, dict[str, Any]] = {}
    for e in entries:
        directory = Path(e["directory"])
        args = _strip_launcher(e.get("arguments") or shlex.split(e["command"]))
        out = Path(e.get("output") or args[args.index("-o") + 1])
        out = out if out.is_absolute() else directory / out
        obj = {
            "directory": str(directory),
            "args": args,
            "output": str(out),
            "depfile": f"{out}.d",
            "source": str(Path(e["file"]).resolve()),
        }
        if not out.is_file() or not Path(obj["depfile"]).is_file():
            continue  # not built (a library nothing links): a link that needs it voids the plan below
        obj["deps"] = _object_deps(obj, inside, build)
        objects[str(out)] = obj
    links: list[dict[str, Any]] = []
    for t in targets:
        folder = build / "tests" / "ut" / "op_kernel"
        link = folder / "CMakeFiles" / f"{t}.dir" / "link.txt"
        if not link.is_file():
            return
        args = _strip_launcher(shlex.split(link.read_text(encoding="utf-8").strip()))
        objs = [str(folder / a) if not Path(a).is_absolute() else a for a in args if a.endswith(".o")]
        if any(o not in objects and not Path(o).is_relative_to(cache_dir() / MAIN) for o in objs):
            return  # an object CMake compiles in a way the plan does not know (our gtest main's is fixed)
        links.append(
            {"target": t, "directory": str(folder), "args": args, "objects": objs, "binary": str(folder / t)}
        )
    plan = {
        "key": key,
        "cmake": _cmake_inputs(build),
        "listing": _listing(ut_dir),
        "objects": objects,
        "links": links,
    }
    tmp = plan_path.with_suffix(".tmp")
    tmp.write_text(json.dumps(plan), encoding="utf-8")
    tmp.replace(plan_path)


def usable(work: Path, build: Path, key: str, ut_dir: Path) -> dict[str, Any] | None:
    """The plan, when nothing CMake read (nor the UT folder's file names, nor the compiler, headers, toolkit or
    driver) changed since it was written; None: CMake must run."""
    try:
        plan = json.loads((work / PLAN).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if plan.get("key") != key or plan.get("listing") != _listing(ut_dir):
        return None
    if not deps_unchanged({"deps": plan.get("cmake") or {}}) or not (build / "Makefile").is_file():
        return None
    plan["path"] = str(work / PLAN)
    return plan


def rebuild(
    plan: dict[str, Any],
    build: Path,
    inside: Sequence[Path],
    toolkit: Path,
    cxx: str,
    run: Run,
    pch: str | None = None,
) -> Rebuilt:
    """Recompile the plan's objects whose inputs changed (or that are gone) and relink the binaries that link one,
    each step in the box through `run` (`pch`: the UT's precompiled header); the plan is updated with what the new
    compiles read."""
    log, compiled, linked = "", [], []
    try:
        for out, obj in plan["objects"].items():
            if Path(out).is_file() and deps_unchanged(obj):
                continue
            args = list(obj["args"])
            new, _unit = compile_args(_absolute_output(args[1:], out), False, toolkit=str(toolkit), pch=pch)
            # the dependency file as CMake's rule writes it (compile_commands.json leaves these flags out)
            dep = ["-MD", "-MT", str(Path(out).relative_to(build)), "-MF", obj["depfile"]]
            res = run([args[0], *new, *dep], Path(obj["directory"]))
            log += res.output
            if res.timed_out or res.returncode != 0:
                Path(out).unlink(missing_ok=True)  # make's next run recompiles it too
                return Rebuilt(False, log, compiled, linked)
            obj["deps"] = _object_deps(obj, inside, build)
            compiled.append(out)
        for link in plan["links"]:
            if Path(link["binary"]).is_file() and not any(o in compiled for o in link["objects"]):
                continue
            args = link["args"]
            res = run([args[0], *_FAST_LD, *link_args(args[1:], cxx)], Path(link["directory"]))
            log += res.output
            if res.timed_out or res.returncode != 0:
                Path(link["binary"]).unlink(missing_ok=True)  # relinked on the next save
                return Rebuilt(False, log, compiled, linked)
            linked.append(link["target"])
        return Rebuilt(True, log, compiled, linked)
    finally:
        # what the objects compiled now read, even when a later step failed: an object on disk is never paired
        # with the hashes of an older compile (a revert to those would reuse it)
        tmp = Path(plan["path"] + ".tmp")
        tmp.write_text(json.dumps(plan), encoding="utf-8")
        tmp.replace(plan["path"])


# ------------------------------------------------------------------------------------------------ the gtest main
MAIN = "op-ut-main"


def ensure_ut_main(
    cxx: str, soc: str, toolkit: Path, defines: Sequence[str] = (), timeout_s: float = 600.0
) -> Path | None:
    """The object of our gtest main (the toolkit's akgen_ut_main.cpp) for the UTs of `soc` with `defines`
    (akgen.toml's ops.defines), compiled as CMake's build through the toolkit's wrapper would (tikicpulib's
    defines, -g, gtest's; the system's gtest, which the UTs link), once per machine, compiler, header version,
    toolkit, SoC and defines, outside the box (our own code, as the program runtime); None when it cannot be built
    (then CMake compiles it for the operator)."""
    src = toolkit / "akgen" / "akgen_ut_main.cpp"
    if not src.is_file():
        return None
    flags = [
        "-D__NPU_ARCH__=2201",
        f"-DAKGEN_SIM_SOC={soc}",
        "-DASCENDC_CPU_DEBUG=1",
        "-D__CCE_KT_TEST__=1",
        *("-D" + d.strip().removeprefix("-D") for d in defines if d.strip()),
        "-g",
        "-DGTEST_HAS_PTHREAD=1",
    ]
    key = hashlib.sha256(
        f"{compiler_id(cxx)}|{headers_hash()}|{toolkit}|{file_digest(src)}|{shlex.join(flags)}".encode()
    ).hexdigest()[:24]
    final = cache_dir() / MAIN / key
    if (final / "akgen_ut_main.o").is_file():
        return final / "akgen_ut_main.o"
    final.parent.mkdir(parents=True, exist_ok=True)
    with open(final.parent / f".{key}.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time; who waited finds it made
        if (final / "akgen_ut_main.o").is_file():
            return final / "akgen_ut_main.o"
        tmp = atomic_dir(final)
        args, _unit = compile_args(
            [*flags, "-o", str(tmp / "akgen_ut_main.o"), "-c", str(src)], False, toolkit=str(toolkit), pch=""
        )
        res = run_compiler([cxx, *args], timeout_s, tmp)
        if res.returncode != 0 or not (tmp / "akgen_ut_main.o").is_file():
            shutil.rmtree(tmp, ignore_errors=True)
            return None
        publish(tmp, final)
    return final / "akgen_ut_main.o"


# ------------------------------------------------------------------------------------------------ precompiled header
def ut_pch(cxx: str, soc: str) -> Path | None:
    """The UT precompiled header of `soc` when it is built; else None, and a process of its own (which outlives the
    caller, a save's job) builds it, so that no save waits for it: the next compile uses it."""
    header = ensure_ut_pch(cxx, soc, build=False)
    if header is None:
        with contextlib.suppress(OSError):
            subprocess.Popen(
                [sys.executable, "-m", "akgen_lsp.sim.op_rebuild", cxx, soc],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
    return header


def ensure_ut_pch(
    cxx: str, soc: str, arch: str = "2201", timeout_s: float = 600.0, build: bool = True
) -> Path | None:
    """The precompiled header of a kernel UT's compiles for `soc` (`akgen_sim/program.h` and `kernel_operator.h`
    with the flags the toolkit gives every compile of a UT: C++20, our headers, the optimisation, tikicpulib's
    defines, CMake's Debug -g), built once per machine, compiler, header version and SoC; None when it cannot be
    built (the compiles work without it). GCC checks a header's fit at each use (the defines it reads, -g, the
    target flags) and compiles without it when it does not fit; another -I folder does not change it, so a header
    of the operator's own named like one of ours (kernel_operator.h) loses to ours."""
    flags = [
        "-std=c++20",
        *OPT_FLAGS,
        "-isystem",
        str(INCLUDE_DIR),
        f"-D__NPU_ARCH__={arch}",
        f"-DAKGEN_SIM_SOC={soc}",
        "-DASCENDC_CPU_DEBUG=1",
        "-D__CCE_KT_TEST__=1",
        "-g",
    ]
    key = hashlib.sha256(f"{compiler_id(cxx)}|{headers_hash()}|{shlex.join(flags)}".encode()).hexdigest()[:24]
    final = cache_dir() / "op-ut-pch" / key
    header = final / "akgen_ut_pch.h"
    if (final / "akgen_ut_pch.h.gch").is_file():
        return header
    if not build:
        return None
    final.parent.mkdir(parents=True, exist_ok=True)
    with open(final.parent / f".{key}.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time; who waited finds it made
        if (final / "akgen_ut_pch.h.gch").is_file():
            return header
        tmp = atomic_dir(final)
        (tmp / "akgen_ut_pch.h").write_text(
            '#include "akgen_sim/program.h"\n#include "kernel_operator.h"\n', encoding="utf-8"
        )
        res = run_compiler(
            [
                cxx,
                *flags,
                "-x",
                "c++-header",
                str(tmp / "akgen_ut_pch.h"),
                "-o",
                str(tmp / "akgen_ut_pch.h.gch"),
            ],
            timeout_s,
            tmp,
        )
        if res.returncode != 0 or not (tmp / "akgen_ut_pch.h.gch").is_file():
            shutil.rmtree(tmp, ignore_errors=True)
            return None
        publish(tmp, final)
    return header


if (
    __name__ == "__main__"
):  # `python -m akgen_lsp.sim.op_rebuild CXX SOC`: build the UT precompiled header (ut_pch)
    ensure_ut_pch(sys.argv[1], sys.argv[2])

"""The compiler of the simulator's CANN toolkit (`akgen sim toolkit`): what CMake runs for every compile and link of a
project configured against the toolkit, so that a CANN sample's own CMakeLists builds for the CPU simulator.

    akgen-cxx launch <compiler> <args...>    CMake's RULE_LAUNCH_COMPILE / RULE_LAUNCH_LINK (C++ sources)
    akgen-cxx asc <args...>                  the ASC language's compiler (`find_package(ASC)`, `.asc` sources)
    akgen-cxx cce <args...>                  ccec, the CCE language's compiler of CANN 6/7 projects

A compile of a C++ or `.asc` source is done on a generated unit next to the object: the program unit of
`akgen sim run-program` (the line-keeping rewrite of bisheng syntax and `<<<>>>` launches, the kernels' kinds, the
core type, `main` renamed), behind `#line 1 "<the source>"` so diagnostics and findings name the user's file and
line. The flags get C++20 (our headers need it; a sample's `-std=c++17` is raised), our headers as a system folder
(no warnings of ours under the sample's `-Wall -Werror`), the source's folder for its quoted includes and bisheng
shadow copies of headers beside it. A link of an executable adds the program runtime (launcher/program_main.cpp),
whose `main` runs the sample's; CANN's own libraries that the sample names (ascendcl, tiling_api, register,
platform, ...) are ours, inside that runtime, and are dropped from the link line.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from akgen_lsp.sim.compiler import INCLUDE_DIR, OPT_FLAGS, find_cxx
from akgen_lsp.sim.program import ensure_program_runtime, flag_defines, launch_wrappers, shadow_program
from akgen_lsp.sim.program_units import defines_main, kernel_signatures, launch_header
from akgen_lsp.sim.shadow import shadow_sources

SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".asc", ".cce", ".C", ".c++")
# CANN libraries a sample links by name; the simulator's runtime provides what they would
CANN_LIBS = frozenset(
    {
        "ascendcl",
        "acl_rtc",
        "tiling_api",
        "register",
        "platform",
        "unified_dlog",
        "graph",
        "graph_base",
        "ge_common",
        "exe_graph",
        "c_sec",
        "runtime",
        "nnopbase",
        "opapi",
        "error_manager",
        "ascendalog",
        "ascendc_runtime",
        "tikcpp_debug",
        "_pvmodel",
        "pem_davinci",
        "ascend_dump",
        "profapi",
        "msprof",
        "host_intf_pub",
        "alog",
        "tikicpulib_stubreg",
        "tikicpulib_cceprint",
        "tikicpulib_npuchk",
        "mmpa",
        "acl_op_compiler",
        "ascend_hal",
        "drvdsmi_host",
        "opp_registry",
        "metadef",
    }
)
_STD = re.compile(r"^-std=(?:c|gnu)\+\+(?:98|03|0x|11|1y|14|1z|17)$")
_NPU_ARCH = re.compile(r"^--npu-arch=dav-(\d+)$")
_ARCH_SOC = {"2201": "Ascend910B2", "2002": "Ascend310P3"}
_DEFINE_FIRST = re.compile(r"^\s*#\s*(?:define|undef)\b")
_INCLUDE = re.compile(r"^\s*#\s*include\b")


def _source_of(args: Sequence[str]) -> int:
    """The index of the source file in a compile command (`-c SRC` or the one source argument), or -1."""
    for i, a in enumerate(args):
        if a == "-c" and i + 1 < len(args) and args[i + 1].endswith(SOURCE_SUFFIXES):
            return i + 1
    for i, a in enumerate(args):
        if (
            not a.startswith("-")
            and a.endswith(SOURCE_SUFFIXES)
            and (i == 0 or args[i - 1] not in ("-o", "-MF", "-MT", "-MQ"))
        ):
            return i
    return -1


def _output_of(args: Sequence[str]) -> str | None:
    for i, a in enumerate(args):
        if a == "-o" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("-o") and len(a) > 2:
            return a[2:]
    return None


def compile_args(
    args: Sequence[str], asc: bool, toolkit: str | None = None, pch: str | None = None
) -> tuple[list[str], Path | None]:
    """The compile command for our generated unit instead of the user's source (arguments after the compiler), and the
    unit written; the arguments unchanged (and None) for what is not a C++ compile. `toolkit`: the toolkit's folder
    (default: $AKGEN_TOOLKIT, which the wrapper's script sets); `pch`: a precompiled header of the API for this
    compile's flags (default: $AKGEN_UT_PCH, which `akgen sim op-test` sets for a kernel UT's build), included first
    unless the source defines a macro before its first #include."""
    src_i = _source_of(args)
    out = _output_of(args)
    if src_i < 0 or "-c" not in args or out is None:
        return list(args), None
    src = Path(args[src_i]).resolve()
    if src.suffix == ".c":
        return list(args), None
    text = src.read_text(encoding="utf-8", errors="surrogateescape")
    macros = flag_defines(
        args
    )  # the command's -D macros decide the #if branches the kernel kinds are read from
    macros.setdefault("__NPU_ARCH__", next((m.group(1) for a in args if (m := _NPU_ARCH.match(a))), "2201"))
    unit_text, _ = shadow_program(src, text, has_main=defines_main(text), macros=macros)
    obj = Path(out)
    if not obj.is_absolute():
        obj = Path.cwd() / obj
    unit = obj.with_name(obj.name + ".akgen.cpp")
    unit.parent.mkdir(parents=True, exist_ok=True)
    _, shadow_dirs = shadow_sources([], [src.parent], obj.parent / (obj.name + ".akgen-shadow"))
    arch = "2201"
    soc = ""
    new: list[str] = []
    for i, a in enumerate(args):
        if i == src_i:
            new.append(str(unit))
        elif _STD.match(a) or a in ("-D_GLIBCXX_USE_CXX11_ABI=0", "-xasc", "-xcce"):
            continue  # C++20 for our headers; one C++ ABI with the program runtime (CANN's libraries are not linked)
        elif (m := _NPU_ARCH.match(a)) is not None:
            arch = m.group(1)
        elif a.startswith(("--npu-arch", "--cce-")):
            continue
        else:
            if a.startswith("-DAKGEN_SIM_SOC="):
                soc = a.split("=", 1)[1]
            new.append(a)
    # the simulator's optimisation first: a Debug build (CMake's -g alone, what samples' run.sh builds) runs the
    # kernels at -O0 otherwise, and an -O the sample gives comes later and wins
    head = ["-std=c++20", *OPT_FLAGS, "-isystem", str(INCLUDE_DIR), "-iquote", str(src.parent)]
    if not any(a.startswith("-D__NPU_ARCH__") for a in new):
        head.append(f"-D__NPU_ARCH__={arch}")
    soc = soc or _ARCH_SOC.get(arch, "Ascend910B2")
    toolkit = toolkit or os.environ.get("AKGEN_TOOLKIT")
    if toolkit:  # a directly started binary reads the run configuration of the SoC it was built for
        spec = Path(toolkit) / "akgen" / "specs" / f"{soc}.spec"
        unit_text += f'static const bool akgen_default_spec = ::akgen_sim::program_default_spec("{spec}");\n'
    unit.write_text(unit_text + launch_wrappers(text), encoding="utf-8", errors="surrogateescape")
    for d in shadow_dirs:
        head += ["-I", str(d)]
    head += ["-I", str(src.parent)]
    if asc:
        head += ["-x", "c++"]
    head += pch_for_source(pch or os.environ.get("AKGEN_UT_PCH"), src)
    return head + new, unit


def _defines_first(source: str) -> bool:
    """Whether the source defines or undefines a macro before its first #include (the API headers could read it)."""
    try:
        text = Path(source).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True
    for line in text.splitlines():
        if _INCLUDE.match(line):
            return False
        if _DEFINE_FIRST.match(line):
            return True
    return False


def pch_for_source(pch: str | None, source: Path) -> list[str]:
    """`-include PCH` for a compile of `source`, or nothing when there is no header or the source defines a macro
    before its first #include (the header would come before that macro)."""
    return ["-include", pch, "-Winvalid-pch"] if pch and not _defines_first(str(source)) else []


def link_args(args: Sequence[str], cxx: str) -> list[str]:
    """A link command with CANN's libraries dropped and, for an executable, the program runtime added."""
    out: list[str] = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        m = re.match(r"^-l(.+)$", a)
        if m and m.group(1) in CANN_LIBS:
            continue
        if a.endswith((".so", ".a")) and re.sub(r"^lib|\.(so|a)$", "", Path(a).name) in CANN_LIBS:
            continue
        out.append(a)
    if "-shared" not in out and "-c" not in out:
        out += ["-rdynamic", str(ensure_program_runtime(cxx)), "-ldl"]
    return out


def launch_headers(out_dir: Path, sources: Sequence[str]) -> int:
    """Write aclrtlaunch_<kernel>.h of every kernel the sources define into `out_dir` (ascendc_library's step)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for s in sources:
        path = Path(s)
        if not path.is_file():
            print(f"akgen-cxx launch-headers: {s}: no such source", file=sys.stderr)
            return 1
        for name, params in kernel_signatures(path.read_text(encoding="utf-8", errors="replace")):
            target = out_dir / f"aclrtlaunch_{name}.h"
            text = launch_header(name, params)
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                target.write_text(text, encoding="utf-8")
    return 0


_CCE_VALUE_FLAGS = frozenset({"-mllvm", "--cce-aicore-arch", "--dependent-libraries"})


def cce_args(args: Sequence[str]) -> list[str]:
    """ccec's arguments without what only the NPU compiler reads: `-mllvm X` pairs, `--cce-*` options (and the
    value of those given apart), `-x cce` / `-xcce` (the source is C++ here), `--cce-fatobj-link`."""
    out: list[str] = []
    skip = False
    for i, a in enumerate(args):
        if skip:
            skip = False
            continue
        if a in _CCE_VALUE_FLAGS or (a == "-x" and i + 1 < len(args) and args[i + 1] == "cce"):
            skip = True
            continue
        if a.startswith("--cce-") or a == "-xcce":
            continue
        out.append(a)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "launch-headers" and len(argv) >= 2:
        return launch_headers(Path(argv[1]), argv[2:])
    if not argv or argv[0] not in ("launch", "asc", "cce"):
        print(
            "usage: akgen-cxx launch <compiler> <args...> | akgen-cxx asc <args...> | akgen-cxx cce <args...> | "
            "akgen-cxx launch-headers <dir> <sources...>",
            file=sys.stderr,
        )
        return 2
    asc = argv[0] in ("asc", "cce")  # a language of its own: compiled as C++ by the C++ compiler
    if asc:
        cxx, args = find_cxx(), (cce_args(argv[1:]) if argv[0] == "cce" else argv[1:])
    else:
        if len(argv) < 2:
            print("akgen-cxx launch: no compiler command", file=sys.stderr)
            return 2
        cxx, args = argv[1], argv[2:]
        if Path(cxx).name in (
            "akgen-asc",
            "akgen-cxx",
            "ccec",
        ):  # the ASC / CCE rule: its compiler does the work
            return subprocess.run([cxx, *args]).returncode
    if "-c" in args:
        new, _ = compile_args(args, asc)
    elif any(a.endswith((".o", ".obj", ".a")) for a in args) or _output_of(args):
        new = link_args(args, find_cxx() if asc else cxx)
    else:
        new = list(args)
    if asc and not any(a in ("--version", "-v", "-dumpversion") for a in args):
        new = [a for a in new if not _NPU_ARCH.match(a)]
    env = dict(os.environ)
    return subprocess.run([cxx, *new], env=env).returncode


if __name__ == "__main__":
    raise SystemExit(main())

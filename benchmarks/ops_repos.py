"""CANN's open operator repositories on the simulator: which A2/A3 kernels compile unchanged, which TilingFuncs build,
and (with the kernel-UT runner, when it is there) which kernel UTs build, run and match their golden.

    python benchmarks/ops_repos.py [REPO ...] [--results FILE] [--jobs N] [--executor local|ray] [--only TEXT]
                                   [--limit N] [--no-host] [--no-ut] [--fresh] [--top N] [--json OUT]

REPO: local checkouts of hicann/ops-math and hicann/ops-nn (default: /work/ext/ops-math /work/ext/ops-nn); nothing
is written into them. An operator counts when its `tests/ut/op_kernel/CMakeLists.txt` registers a case with
`AddOpTestCase(op "soc" "-D..." tiling_srcs)` for a 910B-class soc (ascend910b*, ascend910_93: the A2/A3 parts;
arch35 / ascend950 is another issue's). Per operator, with the first such case:

- kernel: `op_kernel/<op>.cpp` compiled and linked against the simulator's headers with the case's -D defines, the
  entry the UT launches (`ICPU_RUN_KF(acos<float>, ...)` or `auto func = acos<float>;`), the op_host tiling header
  when the UT's own `<op>_tiling.h` or op_host's BEGIN_TILING_DATA_DEF header gives the struct (as CANN's UT build
  does with `-include`), and the repository's kernel include folders (`common/inc/op_kernel`);
- host: the case's tiling sources built with the simulator's host runner (`sim.host.build_host_units`);
- ut: `akgen_lsp.sim.kernel_ut.run_op_kernel_ut` when that module exists (the kernel-UT runner): built, ran,
  golden (match / mismatch / none).

Results go to a JSON-lines file, one line per operator (`--results`, default ops_repos_results.jsonl in the current
folder): a rerun skips the operators it already has (`--fresh` starts again), so a long run can stop and go on.
The summary prints per repository the counts and the top failure reasons of each column, with their counts.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_REPOS = (Path("/work/ext/ops-math"), Path("/work/ext/ops-nn"))
A2A3_SOC = re.compile(r"\bascend910(?:b\d*|_93)\b", re.I)
_ADD_CASE = re.compile(r'AddOpTestCase\s*\(\s*(\w+)\s+"([^"]*)"\s*"([^"]*)"\s*"?([^")]*)"?\s*\)', re.S)
_SET = re.compile(r"set\s*\(\s*(\w+)\s+([^)]*)\)", re.S)
_RUN_KF = re.compile(r"ICPU_RUN_KF\s*\(\s*\(?\s*([A-Za-z_]\w*(?:\s*<[^;()]*?>)?)\s*\)?\s*,")
_AUTO_FUNC = re.compile(r"\bauto\s+(\w+)\s*=\s*&?\s*([A-Za-z_]\w*(?:\s*<[^;]*?>)?)\s*;")
_ENTRY = re.compile(r"__global__\s+(?:__aicore__\s+)?(?:__\w+__\s+)*void\s+([A-Za-z_]\w*)\s*\(")


@dataclass
class OpCase:
    repo: str
    op: str
    op_dir: str
    soc: str
    defines: dict[str, str]
    tiling_srcs: list[str]
    ut_dir: str


@dataclass
class OpResult:
    repo: str
    op: str
    kernel: str = "-"          # ok / fail / missing
    kernel_reason: str = ""
    host: str = "-"            # ok / fail / none (no tiling sources) / skipped
    host_reason: str = ""
    ut_built: str = "-"        # filled by the kernel-UT runner: ok / fail / -
    ut_ran: str = "-"
    ut_golden: str = "-"       # match / mismatch / none / -
    ut_reason: str = ""
    entry: str = ""
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def _cmake_value(text: str, value: str, cml: Path) -> list[str]:
    """A CMake argument with ${VAR} of the file's own set() and ${CMAKE_CURRENT_SOURCE_DIR} replaced, split into
    items (spaces, semicolons)."""
    sets = {m.group(1): m.group(2) for m in _SET.finditer(text)}
    for _ in range(3):
        value = re.sub(r"\$\{(\w+)\}", lambda m: sets.get(m.group(1), "") if m.group(1) != "CMAKE_CURRENT_SOURCE_DIR"
                       else str(cml.parent), value)
    return [v for v in re.split(r"[\s;]+", value) if v]


def op_tiling_sources(op_dir: Path) -> list[Path]:
    """The TilingFunc sources of an operator as CANN's build of ops-nn takes them: op_host's *tiling*.cpp and those
    of its A2/A3 tiling folder (arch22/, op_tiling/: not arch35/)."""
    host = op_dir / "op_host"
    if not host.is_dir():
        return []
    out = [p for p in sorted(host.glob("*.cpp")) if "tiling" in p.name]
    for sub in sorted(p for p in host.iterdir() if p.is_dir() and p.name not in ("arch35", "config")):
        out += [p for p in sorted(sub.glob("*.cpp")) if "tiling" in p.name or sub.name == "arch22"]
    return out


def discover(repo: Path) -> list[OpCase]:
    """The operators of `repo` with an A2/A3 kernel UT, each with its first A2/A3 AddOpTestCase."""
    cases: dict[tuple[str, str], OpCase] = {}
    for cml in sorted(repo.glob("**/tests/ut/op_kernel/CMakeLists.txt")):
        text = re.sub(r"#[^\n]*", "", cml.read_text(encoding="utf-8", errors="replace"))
        for m in _ADD_CASE.finditer(text):
            op, soc, opts, tiling = m.groups()
            if not A2A3_SOC.search(soc):
                continue
            op_dir = cml.parent.parent.parent.parent
            defines: dict[str, str] = {}
            for opt in opts.split():
                if opt.startswith("-D"):
                    k, _, v = opt[2:].partition("=")
                    defines[k] = v or "1"
            items = _cmake_value(text, tiling, cml)
            srcs = [str(Path(os.path.normpath(s))) for s in items if s.endswith((".cpp", ".cc"))]
            if not srcs:  # ops-nn: the op's own op_host tiling sources and those of the operators it names
                srcs = [str(s) for s in op_tiling_sources(op_dir)]
                for dep in items:
                    found = sorted(repo.glob(f"**/{dep}/op_host"))
                    srcs += [str(s) for s in op_tiling_sources(found[0].parent)] if found else []
            cases.setdefault((str(op_dir), op), OpCase(repo.name, op, str(op_dir), soc.split(";")[0].strip(),
                                                       defines, srcs, str(cml.parent)))
    return list(cases.values())


_TARGET_SOURCES = re.compile(r"target_sources\s*\(\s*(\w+?)_(Ascend910\w*)_cases_obj\s+PRIVATE\s+([^)]*)\)", re.S)


def ut_kernel_source(case: OpCase) -> Path | None:
    """The kernel source the UT's CMakeLists adds to an A2/A3 cases target itself (`target_sources(<op>_Ascend910B1_
    cases_obj PRIVATE .../op_kernel/<op>_arch22.cpp)`: an operator whose entry CANN's glob does not find, or whose
    A2/A3 entry is not `<op>.cpp`)."""
    cml = Path(case.ut_dir) / "CMakeLists.txt"
    try:
        text = cml.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for op, _soc, files in _TARGET_SOURCES.findall(text):
        if op != case.op:
            continue
        for f in files.split():
            path = Path(f.replace("${CMAKE_CURRENT_SOURCE_DIR}", str(case.ut_dir)))
            if path.suffix == ".cpp" and path.is_file():
                return path.resolve()
    return None


def kernel_file(case: OpCase) -> Path | None:
    """The kernel source the UT adds to its A2/A3 target itself, else `op_kernel/<op>.cpp` of the operator, else of
    another folder of the repository (CANN's UT globs `*/<op>/op_kernel/<op>.cpp`)."""
    added = ut_kernel_source(case)
    if added is not None:
        return added
    own = Path(case.op_dir) / "op_kernel" / f"{case.op}.cpp"
    if own.is_file():
        return own
    root = Path(case.op_dir)
    while root.parent != root and not (root / "cmake").is_dir():
        root = root.parent
    found = sorted(root.glob(f"**/{case.op}/op_kernel/{case.op}.cpp"))
    return found[0] if found else None


def ut_entry(case: OpCase, kernel_text: str) -> str:
    """The kernel the UT launches: `ICPU_RUN_KF(name<args>, ...)`, through `auto func = name<args>;`, else the
    first entry the kernel file defines."""
    names: list[str] = []
    for f in sorted(Path(case.ut_dir).glob("*.cpp")):
        text = f.read_text(encoding="utf-8", errors="replace")
        funcs = {m.group(1): m.group(2) for m in _AUTO_FUNC.finditer(text)}
        for m in _RUN_KF.finditer(text):
            name = " ".join(m.group(1).split())
            names.append(funcs.get(name, name))
    defined = set(_ENTRY.findall(kernel_text))
    for n in names:
        if n.split("<")[0].strip() in defined:
            return n
    # a launch through a wrapper: `auto k = [](...) { ::name<0>(args); }; ICPU_RUN_KF(k, ...)`
    for f in sorted(Path(case.ut_dir).glob("*.cpp")):
        text = f.read_text(encoding="utf-8", errors="replace")
        for name in sorted(defined):
            m = re.search(rf"(?<![\w.]){re.escape(name)}\s*(<[^;(){{}}]*>)\s*\(", text)
            if m:
                return name + " ".join(m.group(1).split())
    entries = _ENTRY.findall(kernel_text)
    return entries[0] if entries else case.op


_TPL_SEL = re.compile(r"ASCENDC_TPL_(UINT|DTYPE|BOOL|FORMAT|DATATYPE)_(?:SEL|DECL)\s*\(\s*(\w+)\s*,([^()]*)\)")


def tpl_first_args(op_kernel: Path, name: str, kernel_text: str) -> str | None:
    """`name<v1, v2>` with the first value each template parameter of the kernel `name` may take, from the
    operator's tiling-key declarations (`ASCENDC_TPL_UINT_SEL(schMode, ASCENDC_TPL_UI_LIST, 0, 1)`, DTYPE / BOOL /
    FORMAT, a UI_RANGE's low end): one of the instantiations CANN's kernel build compiles. None when the kernel is not
    a template or a parameter has no declaration."""
    m = re.search(rf"template\s*<([^<>]*)>\s*(?:#[^\n]*\n\s*|extern\s+\"C\"\s*)*__global__[^;{{(]*\bvoid\s+"
                  rf"{re.escape(name)}\s*\(", kernel_text)
    if not m:
        return None
    params = [p.split("=")[0].split()[-1] for p in m.group(1).split(",") if p.split()]
    # a type parameter (`template <typename D_T>`) declared by a data type (C_DT_FLOAT16) takes its C++ type
    types = {p.split("=")[0].split()[-1] for p in m.group(1).split(",") if p.split()[:1] in (["typename"], ["class"])}
    decls: dict[str, str] = {}
    # the op_kernel folder's headers first, then its sub-folders' (arch22/), never arch35's
    sub = [h for h in sorted(op_kernel.glob("*/**/*.h")) if "arch35" not in h.relative_to(op_kernel).parts]
    for h in sorted(op_kernel.glob("*.h")) + sorted(op_kernel.glob("*.cpp")) + sub:
        for d in _TPL_SEL.finditer(re.sub(r"//[^\n]*", "", h.read_text(encoding="utf-8", errors="replace"))):
            kind, pname, rest = d.groups()
            vals = [v.strip() for v in rest.split(",") if v.strip()]
            if kind == "UINT" and len(vals) >= 2:
                first = vals[1] if vals[0] == "ASCENDC_TPL_UI_LIST" else vals[2] if len(vals) > 2 else None
                if vals[0] == "ASCENDC_TPL_UI_MIX" and len(vals) > 1:
                    first = None
                if first is not None:
                    decls.setdefault(pname, first)
            elif vals:
                decls.setdefault(pname, vals[0])
    if not params or any(p not in decls for p in params):
        return None
    args = [f"TypeFromId<{decls[p]}>::type" if p in types and decls[p].startswith("C_DT_") else decls[p]
            for p in params]
    return f"{name}<{', '.join(args)}>"


_ENUM = re.compile(r"\benum\s+(?:class\s+)?\w*\s*(?::\s*\w+\s*)?\{([^{}]*)\}")
_CONST = re.compile(r"\bconstexpr\s+[\w:]+\s+(\w+)\s*=\s*(-?\w+)\s*;")


def resolve_ut_names(case: OpCase, entry: str) -> str:
    """The entry's template arguments with the names the UT defines for them replaced by their values (an enum or a
    constexpr of the test file: `log_softmax_grad<kNoNeedReduce, false, true>`), which the kernel build does not see."""
    if "<" not in entry:
        return entry
    values: dict[str, str] = {}
    for f in sorted(Path(case.ut_dir).glob("*.cpp")):
        text = re.sub(r"//[^\n]*", "", f.read_text(encoding="utf-8", errors="replace"))
        for m in _ENUM.finditer(text):
            nxt = 0
            for item in m.group(1).split(","):
                name, _, val = (x.strip() for x in item.partition("="))
                if not re.fullmatch(r"\w+", name or "-"):
                    continue
                if val:
                    try:
                        nxt = int(val, 0)
                    except ValueError:
                        continue
                values.setdefault(name, str(nxt))
                nxt += 1
        for m in _CONST.finditer(text):
            values.setdefault(m.group(1), m.group(2))
    base, _, args = entry.partition("<")
    return base + "<" + re.sub(r"\b[A-Za-z_]\w*\b", lambda m: values.get(m.group(0), m.group(0)), args)


def _params(text: str, name: str) -> list[tuple[str, str]]:
    m = re.search(rf"__global__[^;{{]*?\bvoid\s+{re.escape(name)}\s*\(([^)]*)\)", text)
    if not m:
        return []
    out = []
    for p in m.group(1).split(","):
        p = " ".join(p.split())
        pm = re.match(r"^(.*?)([A-Za-z_]\w*)$", p)
        if pm and pm.group(1).strip():
            out.append((pm.group(1).strip(), pm.group(2)))
    return out


def _tiling_defs(start: list[Path], search: list[Path], depth: int = 3) -> list[Path]:
    """The headers with BEGIN_TILING_DATA_DEF that `start` include (quoted, found beside the includer or in
    `search`), breadth first."""
    seen: set[Path] = set()
    found: list[Path] = []
    layer = list(start)
    for _ in range(depth):
        nxt: list[Path] = []
        for f in layer:
            if f in seen or not f.is_file():
                continue
            seen.add(f)
            text = f.read_text(encoding="utf-8", errors="replace")
            if f.suffix == ".h" and "BEGIN_TILING_DATA_DEF" in text and f not in found:
                found.append(f)
            for name in re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M):
                for base in [f.parent, *search]:
                    c = (base / name)
                    if c.is_file():
                        nxt.append(c.resolve())
                        break
        layer = nxt
    return found


def ut_tiling_header(case: OpCase) -> Path | None:
    """The UT's own tiling header that the kernel column -includes: ops-math's `<op>_tiling.h` (its ut.cmake
    -includes it instead of the generated one). None in ops-nn, whose ut.cmake -includes `<op>_tiling_def.h` or the
    generated header and never `<op>_tiling.h`: a `_tiling_def.h` is written for the CPU-debug build (__CCE_KT_TEST__,
    with CANN's kernel_log.h / kernel_fp16.h; it often defines the struct the kernel's NPU path defines too), which the
    kernel column does not make, so it takes the generated header's struct (op_host's)."""
    try:
        text = (repo_root(case) / "cmake" / "ut.cmake").read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    if "_tiling_def.h" in text:
        return None
    ut = Path(case.ut_dir) / f"{case.op}_tiling.h"
    return ut if ut.is_file() else None


def tiling_header(case: OpCase) -> Path | None:
    """The header CANN's UT build -includes for the kernel: the UT's own (`ut_tiling_header`), else the header with
    BEGIN_TILING_DATA_DEF that the case's tiling sources include (what its generated `<op>_tiling_data.h` is made
    from: the one registering the op's struct first), else one in op_host/."""
    ut = ut_tiling_header(case)
    if ut is not None:
        return ut
    host = Path(case.op_dir) / "op_host"
    defs = _tiling_defs([Path(s) for s in case.tiling_srcs], [host, *host_include_dirs(case)])
    key = case.op.replace("_", "").lower()
    for h in defs:
        regs = re.findall(r"REGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)", h.read_text(encoding="utf-8", errors="replace"))
        if any(r.replace("_", "").lower() == key for r in regs):
            return h
    if defs:
        return defs[0]
    for h in sorted(host.glob("**/*.h")) if host.is_dir() else []:
        if "arch35" in h.parts:
            continue
        try:
            if "BEGIN_TILING_DATA_DEF" in h.read_text(encoding="utf-8", errors="replace"):
                return h
        except OSError:
            continue
    return None


def repo_root(case: OpCase) -> Path:
    root = Path(case.op_dir)
    while root.parent != root and not (root / "cmake").is_dir():
        root = root.parent
    return root


def include_dirs(case: OpCase) -> list[Path]:
    """The repository's kernel include folders (what CANN's build copies beside the kernels)."""
    root = repo_root(case)
    dirs = [root / "common" / "inc" / "op_kernel"]
    return [d for d in dirs if d.is_dir()]


def reason_of(findings: Iterable[Any], log: str = "") -> str:
    """The first error, without paths and line numbers: what the summary counts."""
    for f in findings:
        if getattr(f, "severity", None) is not None and str(getattr(f.severity, "value", f.severity)) != "error":
            continue
        msg = re.sub(r"/[\w./+-]+/", "", f.message)
        return " ".join(msg.split())[:160]
    line = next((ln for ln in log.splitlines() if "error" in ln), log.strip().splitlines()[-1] if log.strip() else "")
    return " ".join(re.sub(r"/[\w./+-]+/", "", line).split())[:160]


def kernel_defines(case: OpCase) -> dict[str, str]:
    """The case's -D defines, completed as CANN's kernel build completes them from the OpDef (op_host/*_def.cpp):
    DTYPE_<NAME> / ORIG_DTYPE_<NAME> of every input and output in the dtype column that agrees with the case's own
    (the first column when it gives none). ops-nn's AddOpTestCase mostly gives no define: its UT build takes them
    from the op's binary configuration."""
    from akgen_lsp.bench.signature import dtype_defines, opdef_for_host
    from akgen_lsp.sim.manifest import DTYPES

    defs = sorted((Path(case.op_dir) / "op_host").glob("*_def.cpp"))
    opdef = opdef_for_host(defs[0]) if defs else None
    if opdef is None:
        return dict(case.defines)
    c_types = {k: v[1] for k, v in DTYPES.items()}
    by_ctype = {v[1]: k for k, v in DTYPES.items()}
    bound = {p.name: by_ctype[case.defines[f"DTYPE_{p.name.upper()}"]] for p in [*opdef.inputs, *opdef.outputs]
             if by_ctype.get(case.defines.get(f"DTYPE_{p.name.upper()}", ""))}
    if not bound:  # nothing given: the first column of the dtype table
        bound = {p.name: p.dtypes[0] for p in opdef.inputs[:1] if p.dtypes and p.dtypes[0]}
    return {**dtype_defines(opdef, bound, c_types), **case.defines}


def compile_case(case: OpCase) -> tuple[str, str, str]:
    """(status, reason, entry) of the kernel's compile."""
    from akgen_lsp.sim.build import compile_kernel
    from akgen_lsp.sim.build_types import BuildOptions
    from akgen_lsp.sim.compiler import ToolchainError
    from akgen_lsp.sim.tiling_key import keyed_defines, keys_tested, needs_key_build

    src = kernel_file(case)
    if src is None:
        return "missing", f"no op_kernel/{case.op}.cpp", ""
    text = src.read_text(encoding="utf-8", errors="replace")
    entry = resolve_ut_names(case, ut_entry(case, text))
    params = _params(text, entry.split("<")[0].strip())
    # an entry defined in one of the op's headers (sometimes by a macro: its line continuations joined)
    for header in sorted(h for h in src.parent.rglob("*.h") if "arch35" not in h.parts) if not params else []:
        htext = header.read_text(encoding="utf-8", errors="replace").replace("\\\n", " ")
        params = _params(htext, entry.split("<")[0].strip())
        if params:
            break
    signature = []
    for i, (ctype, pname) in enumerate(params):
        if i == len(params) - 1 and "tiling" in pname.lower():
            signature.append({"kind": "tiling", "ctype": ctype, "fields": []})
        elif "GM_ADDR" in ctype or "*" in ctype:
            signature.append({"kind": "gm_in", "ctype": ctype})
        else:
            signature.append({"kind": "scalar", "ctype": ctype})
    header = tiling_header(case)
    defines = kernel_defines(case)
    if needs_key_build([src]):
        # a kernel that tests its tiling key in `if constexpr` compiles once per key (CANN's NPU build does it with
        # -DTILING_KEY_VAR=<key>): built for each key it tests, as CANN builds each of them
        keys = keys_tested([src]) or [0]
        for key in keys[1:]:
            opts = BuildOptions(kernel=entry, signature=signature, defines=keyed_defines(defines, key),
                                tiling_header=header, include_dirs=tuple(include_dirs(case)), timeout_s=300.0)
            try:
                other = compile_kernel([src], opts)
            except ToolchainError as exc:
                return "fail", f"toolchain: {exc}", entry
            if not other.ok:
                return "fail", f"tiling key {key}: {reason_of(other.findings, other.log)}", entry
        defines = keyed_defines(defines, keys[0])

    def build_with(kernel: str) -> Any:
        opts = BuildOptions(kernel=kernel, signature=signature, defines=defines, tiling_header=header,
                            include_dirs=tuple(include_dirs(case)), timeout_s=300.0)
        return compile_kernel([src], opts)

    try:
        build = build_with(entry)
        # The UT's launch did not name a kernel this build has (`hinge_loss<schMode>` inside a test template, a
        # template the UT declares as a plain extern "C" function): the entry as CANN's kernel build instantiates
        # it, with the first value of each tiling-key parameter, else the plain name.
        if not build.ok and "glue.cpp" in build.log:
            base = entry.split("<")[0].strip()
            for alt in (tpl_first_args(src.parent, base, text), base):
                if alt and alt != entry:
                    again = build_with(alt)
                    if again.ok:
                        return "ok", "", alt
    except ToolchainError as exc:
        return "fail", f"toolchain: {exc}", entry
    if build.ok:
        return "ok", "", entry
    return "fail", reason_of(build.findings, build.log), entry


def host_case(case: OpCase) -> tuple[str, str]:
    from akgen_lsp.sim.compiler import ToolchainError
    from akgen_lsp.sim.host import build_host_units

    srcs = [Path(s) for s in case.tiling_srcs if Path(s).is_file()]
    if not srcs:
        return "none", "the case names no tiling source that exists"
    try:
        binary, findings = build_host_units(srcs, tuple(host_include_dirs(case)))
    except ToolchainError as exc:
        return "fail", f"toolchain: {exc}"
    return ("ok", "") if binary is not None else ("fail", reason_of(findings))


def host_include_dirs(case: OpCase) -> list[Path]:
    """The repository's include folders an op_host TilingFunc sees (its CMake's OP_TILING_INCLUDE)."""
    root = repo_root(case)
    dirs = [root / "common" / "inc", root / "common" / "inc" / "op_host", Path(case.op_dir)]
    return [d for d in dirs if d.is_dir()]


def ut_runner() -> Callable[..., dict[str, Any]] | None:
    """The kernel-UT runner (`akgen_lsp.sim.kernel_ut.run_op_kernel_ut`), or None while it does not exist."""
    try:
        mod = importlib.import_module("akgen_lsp.sim.kernel_ut")
    except ImportError:
        return None
    fn = getattr(mod, "run_op_kernel_ut", None)
    return fn if callable(fn) else None


def evaluate(case_json: dict[str, Any], host: bool = True, ut: bool = True, kernel: bool = True) -> dict[str, Any]:
    """One operator, as a JSON-able dict (runs in a worker process or a Ray task)."""
    case = OpCase(**case_json)
    t0 = time.perf_counter()
    r = OpResult(case.repo, case.op)
    try:
        if kernel:
            r.kernel, r.kernel_reason, r.entry = compile_case(case)
    except Exception as exc:  # a harness fault is a row too, never the end of the run
        r.kernel, r.kernel_reason = "fail", f"harness: {type(exc).__name__}: {exc}"[:200]
    if host:
        try:
            r.host, r.host_reason = host_case(case)
        except Exception as exc:
            r.host, r.host_reason = "fail", f"harness: {type(exc).__name__}: {exc}"[:200]
    else:
        r.host = "skipped"
    runner = ut_runner() if ut else None
    if runner is not None:
        try:
            with tempfile.TemporaryDirectory(prefix="akgen-opsut-") as work:
                res = runner(Path(case.op_dir), repo_root(case), case.soc, Path(work))
            r.ut_built = "ok" if res.get("built") else "fail"
            r.ut_ran = "ok" if res.get("ran") else ("fail" if res.get("built") else "-")
            r.ut_golden = str(res.get("golden") or "-")
            r.ut_reason = str(res.get("reason") or "")[:200]
        except Exception as exc:
            r.ut_built, r.ut_reason = "fail", f"harness: {type(exc).__name__}: {exc}"[:200]
    r.seconds = round(time.perf_counter() - t0, 2)
    return asdict(r)


def load_results(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    done: dict[tuple[str, str], dict[str, Any]] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
                done[(row["repo"], row["op"])] = row
            except (ValueError, KeyError, TypeError):
                continue
    return done


def progress(done: int, total: int, t0: float, last: str) -> None:
    width = 30
    filled = width * done // max(total, 1)
    rate = done / max(time.perf_counter() - t0, 1e-6)
    eta = (total - done) / rate if rate > 0 else 0
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} eta {eta / 60:.0f} min {last[:40]:40}")
    sys.stderr.flush()


def run_all(cases: list[OpCase], results: Path, jobs: int, executor: str, host: bool, ut: bool,
            kernel: bool = True) -> None:
    done = load_results(results)
    todo = [c for c in cases if (c.repo, c.op) not in done]
    t0 = time.perf_counter()
    with results.open("a", encoding="utf-8") as out:
        def record(row: dict[str, Any], n: int) -> None:
            out.write(json.dumps(row) + "\n")
            out.flush()
            progress(n, len(todo), t0, f"{row['repo']}/{row['op']}")

        if executor == "ray":
            from akgen_lsp.bench.ray_executor import _ray

            ray = _ray()
            ray.init(ignore_reinit_error=True, include_dashboard=False, log_to_driver=False, num_cpus=jobs)
            task = ray.remote(num_cpus=1)(evaluate)
            pending = [task.remote(asdict(c), host, ut, kernel) for c in todo]
            n = 0
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                n += 1
                record(ray.get(ready[0]), n)
        elif jobs <= 1:
            for n, c in enumerate(todo, 1):
                record(evaluate(asdict(c), host, ut, kernel), n)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futs = [pool.submit(evaluate, asdict(c), host, ut, kernel) for c in todo]
                for n, fut in enumerate(as_completed(futs), 1):
                    record(fut.result(), n)
    if todo:
        sys.stderr.write("\n")


def summary(rows: list[dict[str, Any]], top: int) -> dict[str, Any]:
    """Per repository: counts of each column and the top failure reasons with their counts."""
    out: dict[str, Any] = {}
    for repo in sorted({r["repo"] for r in rows}):
        mine = [r for r in rows if r["repo"] == repo]
        n = len(mine)
        k_ok = sum(r["kernel"] == "ok" for r in mine)
        k_n = sum(r["kernel"] != "-" for r in mine)
        h_has = [r for r in mine if r["host"] not in ("none", "skipped", "-")]
        h_ok = sum(r["host"] == "ok" for r in h_has)
        ut = [r for r in mine if r["ut_built"] != "-"]
        out[repo] = {
            "operators": n,
            "kernels_compile": k_ok,
            "kernels_tried": k_n,
            "kernels_pct": round(100 * k_ok / k_n, 1) if k_n else 0.0,
            "tilingfuncs": len(h_has),
            "tilingfuncs_build": h_ok,
            "uts": len(ut),
            "uts_build": sum(r["ut_built"] == "ok" for r in ut),
            "uts_run": sum(r["ut_ran"] == "ok" for r in ut),
            "golden_compared": sum(r["ut_golden"] in ("match", "mismatch") for r in ut),
            "golden_match": sum(r["ut_golden"] == "match" for r in ut),
            "kernel_reasons": Counter(r["kernel_reason"] for r in mine if r["kernel"] not in ("ok", "-")).most_common(top),
            "host_reasons": Counter(r["host_reason"] for r in h_has if r["host"] != "ok").most_common(top),
            "ut_reasons": Counter(r["ut_reason"] for r in ut if r["ut_ran"] != "ok").most_common(top),
        }
    return out


def print_summary(s: dict[str, Any]) -> None:
    for repo, d in s.items():
        print(f"\n== {repo}: {d['operators']} operators with an A2/A3 kernel UT")
        print(f"kernels that compile unchanged: {d['kernels_compile']}/{d['kernels_tried']} ({d['kernels_pct']}%)")
        print(f"TilingFuncs that build: {d['tilingfuncs_build']}/{d['tilingfuncs']}")
        if d["uts"]:
            print(f"UTs that build: {d['uts_build']}/{d['uts']}, run: {d['uts_run']}/{d['uts']}, golden compared: "
                  f"{d['golden_compared']}, match: {d['golden_match']}")
        else:
            print("UTs that build / run / golden match: - (no kernel-UT runner)")
        for title, key in (("kernel", "kernel_reasons"), ("TilingFunc", "host_reasons"), ("UT", "ut_reasons")):
            if d[key]:
                print(f"top {title} failures:")
                for reason, count in d[key]:
                    print(f"  {count:4d}  {reason}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("repos", nargs="*", type=Path, default=list(DEFAULT_REPOS))
    ap.add_argument("--results", type=Path, default=Path("ops_repos_results.jsonl"))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--executor", choices=("local", "ray"), default="local")
    ap.add_argument("--only", default="", help="only operators whose name contains this text")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--no-host", action="store_true")
    ap.add_argument("--no-ut", action="store_true")
    ap.add_argument("--no-kernel", action="store_true", help="leave the kernel column out (host / UT only)")
    ap.add_argument("--fresh", action="store_true", help="forget the results file's rows")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--json", type=Path, help="write the summary as JSON here")
    args = ap.parse_args(argv)
    cases = [c for repo in args.repos for c in discover(repo) if args.only in c.op]
    if args.limit:
        cases = cases[:args.limit]
    if args.fresh and args.results.exists():
        args.results.unlink()
    run_all(cases, args.results, args.jobs, args.executor, not args.no_host, not args.no_ut, not args.no_kernel)
    wanted = {(c.repo, c.op) for c in cases}
    rows = [r for k, r in load_results(args.results).items() if k in wanted]
    s = summary(rows, args.top)
    print_summary(s)
    if args.json:
        args.json.write_text(json.dumps(s, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

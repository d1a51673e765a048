"""The real toolchain (`cann`), as far as it can be built without an NPU: detection, the msopgen custom-op project
NPUKernelBench builds in, the command lines, the compile criterion and the parsing of build logs into findings.

What this module does NOT do (and what was never exercised here, where there is no CANN and no NPU): run msopgen,
build.sh, bisheng or CMake for real, load the built op through torch_npu, run cases on a device or time them with
device events. The bench pipeline uses the `sim` toolchain only; `select_toolchain` says which one a user's settings
and environment ask for, so that the CLI can refuse `cann` with a clear message instead of pretending.

Flow on a machine with CANN (NPUKernelBench's, `framework/batch_compile.py`):
1. ``msopgen gen -i <op>.json -c ai_core-<soc> -lan cpp -out <project>`` makes the project skeleton from the op
   description (`op_description`, derived here from the candidate's OpDef);
2. the candidate's ``op_host/<op>.cpp``, ``op_host/<op>_tiling.h`` and ``op_kernel/<op>.cpp`` replace the skeleton's;
3. ``bash build.sh`` in the project (400 s limit);
4. success = the pybind module ``kernel_gen_ops.*.so``, ``op_api/lib/libcust_opapi.so`` and a kernel object
   ``<Op>*.o`` under the custom op package all exist (`compile_succeeded`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from akgen_lsp.findings import Finding, Severity, Span

BUILD_TIMEOUT_S = 400.0

_GE_TO_MSOPGEN = {"DT_FLOAT16": "fp16", "DT_FLOAT": "fp32", "DT_BF16": "bf16", "DT_INT8": "int8", "DT_UINT8": "uint8",
                  "DT_INT16": "int16", "DT_INT32": "int32", "DT_INT64": "int64", "DT_BOOL": "bool",
                  "DT_DOUBLE": "double", "DT_COMPLEX64": "complex64", "DT_UINT32": "uint32", "DT_UINT64": "uint64"}


def cann_home(env: Mapping[str, str] | None = None) -> Path | None:
    """The CANN install `ASCEND_HOME_PATH` points at, if it looks like one (has bin/ or compiler/)."""
    env = os.environ if env is None else env
    home = env.get("ASCEND_HOME_PATH")
    if not home:
        return None
    p = Path(home)
    return p if p.is_dir() and ((p / "bin").is_dir() or (p / "compiler").is_dir()) else None


def select_toolchain(setting: str, env: Mapping[str, str] | None = None) -> str:
    """`toolchain.name`: "auto" picks cann when ASCEND_HOME_PATH points at a CANN install, else sim."""
    if setting in ("sim", "cann", "none"):
        return setting
    return "cann" if cann_home(env) is not None else "sim"


# --------------------------------------------------------------------------------------------------- op description

_PARAM = re.compile(r'this->(Input|Output)\(\s*"(\w+)"\s*\)(.*?);', re.DOTALL)
_ATTR = re.compile(r'this->Attr\(\s*"(\w+)"\s*\)(.*?);', re.DOTALL)
_OP_CLASS = re.compile(r"class\s+(\w+)\s*:\s*public\s+OpDef")
_DTYPES = re.compile(r"\.DataType\(\s*\{([^}]*)\}")
_FORMATS = re.compile(r"\.Format\(\s*\{([^}]*)\}")
_PARAM_TYPE = re.compile(r"\.ParamType\(\s*(\w+)\s*\)")
_ATTR_KIND = re.compile(r"\.(Float|Int|Bool|String|ListInt|ListFloat|ListBool)\(([^)]*)\)")


def op_description(host_source: str) -> list[dict[str, Any]]:
    """The msopgen JSON of the OpDef in an op_host source: inputs, outputs (name, param_type, format, type) and
    attributes (name, param_type, type, default_value). Raises ValueError when there is no OpDef."""
    m = _OP_CLASS.search(host_source)
    if m is None:
        raise ValueError("no `class X : public OpDef` in the op_host source: msopgen needs the op definition")
    op: dict[str, Any] = {"op": m.group(1), "language": "cpp", "input_desc": [], "output_desc": [], "attr": []}
    for kind, name, chain in _PARAM.findall(host_source):
        dts = _DTYPES.search(chain)
        fmts = _FORMATS.search(chain)
        ptype = _PARAM_TYPE.search(chain)
        types = [_GE_TO_MSOPGEN.get(t.strip().removeprefix("ge::"), t.strip().removeprefix("ge::DT_").lower())
                 for t in dts.group(1).split(",")] if dts else []
        formats = [f.strip().removeprefix("ge::FORMAT_") for f in fmts.group(1).split(",")] if fmts else \
            ["ND"] * len(types)
        op["input_desc" if kind == "Input" else "output_desc"].append({
            "name": name, "param_type": (ptype.group(1).lower() if ptype else "required"),
            "format": formats, "type": types})
    for name, chain in _ATTR.findall(host_source):
        ptype = _PARAM_TYPE.search(chain) or re.search(r"\.AttrType\(\s*(\w+)\s*\)", chain)
        kind = _ATTR_KIND.search(chain)
        attr: dict[str, Any] = {"name": name, "param_type": ptype.group(1).lower() if ptype else "required",
                                "type": (kind.group(1).lower() if kind else "float")}
        if kind and kind.group(2).strip():
            attr["default_value"] = kind.group(2).strip().rstrip("f")
        op["attr"].append(attr)
    return [op]


@dataclass(frozen=True)
class ProjectPlan:
    """What building one candidate in an msopgen project takes: files to write and the commands to run, in order."""

    project: Path
    files: dict[str, str]  # path relative to the project -> content
    commands: list[tuple[list[str], Path, float]]  # (argv, cwd, timeout seconds)


def plan_project(work: Path, op_snake: str, host_source: str, kernel_source: str, tiling_header: str | None,
                 soc: str = "ascend910b") -> ProjectPlan:
    """The msopgen project of a candidate under `work`: op JSON, generation, sources in place, build.sh."""
    desc = op_description(host_source)
    project = work / "project"
    json_path = work / f"{op_snake}.json"
    files = {str(json_path): json.dumps(desc, indent=2),
             str(project / "op_host" / f"{op_snake}.cpp"): host_source,
             str(project / "op_kernel" / f"{op_snake}.cpp"): kernel_source}
    if tiling_header is not None:
        files[str(project / "op_host" / f"{op_snake}_tiling.h")] = tiling_header
    commands = [(["msopgen", "gen", "-i", str(json_path), "-c", f"ai_core-{soc}", "-lan", "cpp", "-out",
                  str(project)], work, 120.0),
                (["bash", "build.sh"], project, BUILD_TIMEOUT_S)]
    return ProjectPlan(project, files, commands)


def compile_succeeded(project: Path, op_name: str, build_dir: Path | None = None) -> dict[str, bool]:
    """NPUKernelBench's compile criterion: the pybind module, libcust_opapi.so and the kernel object all exist."""
    build_dir = build_dir or project / "build"
    pybind = any(build_dir.glob("kernel_gen_ops*.so")) if build_dir.is_dir() else False
    opapi = [p for p in project.rglob("libcust_opapi.so") if p.parent.name == "lib" and p.parent.parent.name == "op_api"]
    kernel = bool(opapi) and any(opapi[0].parents[2].rglob(f"{op_name}*.o"))
    return {"pybind_so": pybind, "libcust_opapi_so": bool(opapi), "kernel_o": kernel,
            "ok": pybind and bool(opapi) and kernel}


# --------------------------------------------------------------------------------------------------- build logs

_CLANG = re.compile(r"^(?P<file>/?[^:\s][^:]*\.(?:cpp|cc|h|hpp|asc)):(?P<line>\d+):(?P<col>\d+):\s*"
                    r"(?P<sev>fatal error|error|warning):\s*(?P<msg>.*)$")
_CMAKE = re.compile(r"^CMake Error at (?P<file>[^:]+):(?P<line>\d+)")
_LD = re.compile(r"(?:undefined reference to|undefined symbol:?)\s*[`']?(?P<sym>[^'`\s]+)")
_MAKE = re.compile(r"^(?:g?make|gmake)(?:\[\d+\])?: \*\*\* .*Error \d+")


def parse_build_log(text: str, user_files: Mapping[str, str] | None = None) -> list[Finding]:
    """bisheng (clang-style) diagnostics, CMake errors and link errors of a CANN build log -> findings. Paths are
    mapped through `user_files` (project path -> the user's file) when given; warnings are dropped."""
    from akgen_lsp.sim.build import classify_cxx_error

    user_files = dict(user_files or {})
    out: list[Finding] = []
    lines = text.splitlines()
    for i, raw in enumerate(lines):
        m = _CLANG.match(raw.strip())
        if m:
            if m.group("sev") == "warning":
                continue
            path = user_files.get(m.group("file"), m.group("file"))
            line, col = int(m.group("line")), int(m.group("col"))
            msg = m.group("msg").strip()
            out.append(Finding("CXX", msg, Span(path, line, col, line, col), Severity.ERROR, "akgen-build",
                               classify_cxx_error(msg), data={"compiler": "bisheng", "raw": raw.strip()}))
            continue
        c = _CMAKE.match(raw.strip())
        if c:
            detail = " ".join(ln.strip() for ln in lines[i + 1:i + 4] if ln.strip())
            out.append(Finding("CMAKE", f"CMake error: {detail or raw.strip()}",
                               Span.point(c.group("file"), int(c.group("line"))), Severity.ERROR, "akgen-build",
                               "build_system", data={"raw": raw.strip()}))
            continue
        ld = _LD.search(raw)
        if ld:
            out.append(Finding("LINK", f"undefined symbol {ld.group('sym')}: an API or function that is declared but "
                               "not defined (a wrong name, or a missing source in the project)",
                               Span.point(next(iter(user_files.values()), "build.log"), 1), Severity.ERROR,
                               "akgen-build", "api_mismatch", data={"raw": raw.strip()}))
    if not out and any(_MAKE.match(ln.strip()) for ln in lines):
        last = next(ln for ln in lines if _MAKE.match(ln.strip()))
        out.append(Finding("BUILD", f"the build failed: {last.strip()}", Span.point("build.log", 1), Severity.ERROR,
                           "akgen-build", "build_system"))
    return out

"""The real toolchain (`cann`): detection of a CANN install, the op description msopgen needs, NPUKernelBench's
compile criterion, and (re-exported) the build-log parser. The project generation is in `cann.project`, the NPU
runner in `cann.runner` (the harness side) and `cann.npu_runner` (the script run beside a build), the sandbox box of
its tools in `cann.box`, the toolchain itself (compile, run, evaluate) in `cann.toolchain`.

Nothing here has ever run against a real CANN install or an NPU (this project is developed without either); see
docs/bench.md, "cann toolchain", for exactly what is and is not exercised.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.bench.signature import GE_DTYPES
from akgen_lsp.logs.cann import parse_build_log

__all__ = [
    "BUILD_TIMEOUT_S",
    "CannInstall",
    "cann_home",
    "compile_succeeded",
    "compute_unit",
    "detect_cann",
    "op_description",
    "parse_build_log",
    "select_toolchain",
]

BUILD_TIMEOUT_S = 400.0  # NPUKernelBench's compile limit (base_config.yaml: compile.timeout)

# Where a CANN toolkit keeps its compiler, relative to ASCEND_HOME_PATH (…/ascend-toolkit/latest or …/cann-X.Y).
_BISHENG = (
    "compiler/ccec_compiler/bin/bisheng",
    "bin/bisheng",
    "compiler/ccec_compiler/bin/ccec",
    "bin/ccec",
)
_MSOPGEN = ("python/site-packages/bin/msopgen", "bin/msopgen", "tools/msopgen/bin/msopgen")
_VERSION_FILES = ("compiler/version.info", "runtime/version.info", "version.info", "version.cfg")


@dataclass(frozen=True)
class CannInstall:
    """What was found under ASCEND_HOME_PATH; `problems` says what is missing and what to do, one sentence each."""

    home: Path | None
    bisheng: Path | None = None
    msopgen: Path | None = None
    cmake: str | None = None
    version: str | None = None
    problems: tuple[str, ...] = field(default_factory=tuple)

    @property
    def usable(self) -> bool:
        return not self.problems

    def explain(self) -> str:
        return (
            " ".join(self.problems)
            if self.problems
            else f"CANN {self.version or '(version unknown)'} at {self.home}"
        )


def _version(home: Path) -> str | None:
    for rel in _VERSION_FILES:
        p = home / rel
        if p.is_file():
            m = re.search(r"(?:^|\n)\s*(?:Version|version)\s*=\s*([^\s]+)", p.read_text(errors="replace"))
            if m:
                return m.group(1)
    return None


def detect_cann(env: Mapping[str, str] | None = None) -> CannInstall:
    """Look at ASCEND_HOME_PATH: a CANN toolkit has bisheng (or ccec) under compiler/ccec_compiler/bin; msopgen and
    cmake are needed to build a project (msopgen only when no project template is given)."""
    env = os.environ if env is None else env
    raw = env.get("ASCEND_HOME_PATH", "")
    if not raw:
        return CannInstall(
            None,
            problems=(
                "ASCEND_HOME_PATH is not set: source the set_env.sh of your CANN install "
                "(e.g. `source /usr/local/Ascend/ascend-toolkit/set_env.sh`) or set "
                'toolchain.name = "sim".',
            ),
        )
    home = Path(raw)
    if not home.is_dir():
        return CannInstall(
            home,
            problems=(
                f"ASCEND_HOME_PATH={raw} is not a directory: point it at the CANN toolkit "
                '(the folder with compiler/ and bin/), or set toolchain.name = "sim".',
            ),
        )
    bisheng = next((home / r for r in _BISHENG if (home / r).is_file()), None)
    msopgen = next((home / r for r in _MSOPGEN if (home / r).is_file()), None)
    if msopgen is None and shutil.which("msopgen", path=env.get("PATH")):
        msopgen = Path(shutil.which("msopgen", path=env.get("PATH")) or "msopgen")
    cmake = shutil.which("cmake", path=env.get("PATH"))
    problems: list[str] = []
    if bisheng is None:
        problems.append(
            f"ASCEND_HOME_PATH={raw} has no bisheng compiler ({_BISHENG[0]}): it is not a CANN toolkit "
            'install; install the CANN toolkit or set toolchain.name = "sim".'
        )
    if cmake is None:
        problems.append(
            "cmake is not on PATH: the msopgen project builds with CMake >= 3.16; install it "
            "(`pip install cmake` works)."
        )
    return CannInstall(home, bisheng, msopgen, cmake, _version(home), tuple(problems))


def cann_home(env: Mapping[str, str] | None = None) -> Path | None:
    """The CANN install ASCEND_HOME_PATH points at, when it has a compiler (bisheng/ccec); else None."""
    env = os.environ if env is None else env
    home = env.get("ASCEND_HOME_PATH")
    if not home:
        return None
    p = Path(home)
    return p if p.is_dir() and any((p / r).is_file() for r in _BISHENG) else None


def select_toolchain(setting: str, env: Mapping[str, str] | None = None) -> str:
    """`toolchain.name`: "auto" picks cann when ASCEND_HOME_PATH points at a CANN install, else sim."""
    if setting in ("sim", "cann", "none"):
        return setting
    return "cann" if cann_home(env) is not None else "sim"


def compute_unit(soc: str) -> str:
    """ASCEND_COMPUTE_UNIT / AddConfig name of an arch profile's SoC: Ascend910B2 -> ascend910b, Ascend910_93 ->
    ascend910_93, Ascend310P3 -> ascend310p."""
    s = soc.strip().lower()
    m = (
        re.match(r"(ascend910b)\d*$", s)
        or re.match(r"(ascend310p)\d*$", s)
        or re.match(r"(ascend310b)\d*$", s)
    )
    return m.group(1) if m else s


# --------------------------------------------------------------------------------------------------- op description

# msopgen's JSON spells dtypes as in the CANN docs ("float16", "float", "int32", ...), not as ge::DataType names:
# the ge::DataType table of bench.signature, with the two names the CANN docs spell in C's words.
_GE_TO_MSOPGEN = {
    ge: {"float32": "float", "float64": "double"}.get(name, name) for ge, name in GE_DTYPES.items()
}
_ATTR_TYPES = {
    "Float": "float",
    "Int": "int",
    "Bool": "bool",
    "String": "string",
    "ListInt": "listInt",
    "ListFloat": "listFloat",
    "ListBool": "listBool",
}

_PARAM = re.compile(r'this->(Input|Output)\(\s*"(\w+)"\s*\)(.*?);', re.DOTALL)
_ATTR = re.compile(r'this->Attr\(\s*"(\w+)"\s*\)(.*?);', re.DOTALL)
_OP_CLASS = re.compile(r"class\s+(\w+)\s*:\s*public\s+(?:ops::)?OpDef")
_DTYPES = re.compile(r"\.DataType(?:List)?\(\s*\{([^}]*)\}")
_FORMATS = re.compile(r"\.Format(?:List)?\(\s*\{([^}]*)\}")
_PARAM_TYPE = re.compile(r"\.ParamType\(\s*(\w+)\s*\)")
_ATTR_KIND = re.compile(r"\.(Float|Int|Bool|String|ListInt|ListFloat|ListBool)\(([^)]*)\)")


def _default(kind: str, text: str) -> Any:
    t = text.strip()
    if kind == "Bool":
        return t == "true"
    if kind == "Int":
        try:
            return int(t.rstrip("uUlL"), 0)
        except ValueError:
            return t
    if kind == "Float":
        try:
            return float(t.rstrip("fF"))
        except ValueError:
            return t
    return t.strip('"')


def op_description(host_source: str) -> list[dict[str, Any]]:
    """The msopgen JSON of the OpDef in an op_host source: inputs, outputs (name, param_type, format, type) and
    attributes (name, param_type, type, default_value). Raises ValueError when there is no OpDef."""
    m = _OP_CLASS.search(host_source)
    if m is None:
        raise ValueError(
            "no `class X : public OpDef` in the op_host source: msopgen needs the op definition; "
            "give the candidate's op_host/<op>.cpp with its OpDef"
        )
    op: dict[str, Any] = {"op": m.group(1), "input_desc": [], "output_desc": [], "attr": []}
    for kind, name, chain in _PARAM.findall(host_source):
        dts = _DTYPES.search(chain)
        fmts = _FORMATS.search(chain)
        ptype = _PARAM_TYPE.search(chain)
        types = (
            [
                _GE_TO_MSOPGEN.get(t.strip().removeprefix("ge::"), t.strip().removeprefix("ge::DT_").lower())
                for t in dts.group(1).split(",")
                if t.strip()
            ]
            if dts
            else []
        )
        formats = (
            [f.strip().removeprefix("ge::FORMAT_") for f in fmts.group(1).split(",") if f.strip()]
            if fmts
            else ["ND"] * len(types)
        )
        op["input_desc" if kind == "Input" else "output_desc"].append(
            {
                "name": name,
                "param_type": (ptype.group(1).lower() if ptype else "required"),
                "format": formats,
                "type": types,
            }
        )
    for name, chain in _ATTR.findall(host_source):
        ptype = _PARAM_TYPE.search(chain) or re.search(r"\.AttrType\(\s*(\w+)\s*\)", chain)
        kind = _ATTR_KIND.search(chain)
        attr: dict[str, Any] = {
            "name": name,
            "param_type": ptype.group(1).lower() if ptype else "required",
            "type": _ATTR_TYPES.get(kind.group(1), "float") if kind else "float",
        }
        if kind and kind.group(2).strip():
            attr["default_value"] = _default(kind.group(1), kind.group(2))
        op["attr"].append(attr)
    if not op["attr"]:
        del op["attr"]  # as in the documented examples of ops without attributes
    return [op]


# --------------------------------------------------------------------------------------------------- compile criterion


def find_vendor_dir(root: Path) -> Path | None:
    """The folder X of the first ``X/op_api/lib/libcust_opapi.so`` under `root` (NPUKernelBench's
    `find_custom_lib_path`): the custom op package's vendor folder."""
    if not root.is_dir():
        return None
    for p in sorted(root.rglob("libcust_opapi.so")):
        if p.parent.name == "lib" and p.parent.parent.name == "op_api":
            return p.parent.parent.parent
    return None


def compile_succeeded(project: Path, op_name: str, build_dir: Path | None = None) -> dict[str, bool]:
    """NPUKernelBench's compile criterion (TaskObject.check_compile_success): ``kernel_gen_ops.*.so`` in the build
    folder, ``<vendor>/op_api/lib/libcust_opapi.so`` under the project and a ``<OpName>*.o`` kernel object under
    that vendor folder; all three must exist."""
    build_dir = build_dir or project / "build"
    pybind = any(build_dir.glob("kernel_gen_ops.*.so")) if build_dir.is_dir() else False
    vendor = find_vendor_dir(project)
    kernel = vendor is not None and any(vendor.rglob(f"{op_name}*.o"))
    return {
        "pybind_so": pybind,
        "libcust_opapi_so": vendor is not None,
        "kernel_o": kernel,
        "ok": pybind and vendor is not None and kernel,
    }

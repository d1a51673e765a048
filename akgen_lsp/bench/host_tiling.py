"""Run an op_host TilingFunc on the CPU for one case: block dim, tiling key, workspace sizes and the tiling struct's
fields by name (for the sim manifest's ``tiling.fields``).

ADAPTER: the sim toolchain's manifest does not run op_host code yet (``{"tiling": {"host": ...}}`` is refused), so
the bench builds the op_host source itself against a small CPU stand-in of CANN's host API (``host/include``: ge,
gert::TilingContext, platform_ascendc, OpDef as inert data) and the sim's own tiling macros, runs it, and reads the
tiling struct back field by field. `run_host_tiling` is the one entry; when the sim runs op_host sources, this
module shrinks to a call into it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.ascendc.arch import ArchProfile

HOST_INCLUDE = Path(__file__).resolve().parent / "host" / "include"
SIM_INCLUDE = Path(__file__).resolve().parents[1] / "sim" / "include"

GE_DTYPES = {"float32": 0, "float16": 1, "int8": 2, "int32": 3, "uint8": 4, "int16": 6, "uint16": 7, "uint32": 8,
             "int64": 9, "uint64": 10, "float64": 11, "bool": 12, "complex64": 16, "bfloat16": 27}

_BEGIN = re.compile(r"BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)(.*?)END_TILING_DATA_DEF", re.DOTALL)
_FIELD = re.compile(r"TILING_DATA_FIELD_DEF(_ARR)?\s*\(\s*([\w:]+)\s*,\s*(?:(\w+)\s*,\s*)?(\w+)\s*\)")
_FIELD_STRUCT = re.compile(r"TILING_DATA_FIELD_DEF_STRUCT\s*\(\s*([\w:]+)\s*,\s*(\w+)\s*\)")
_REGISTER = re.compile(r"REGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")


class HostTilingError(RuntimeError):
    """The op_host code could not be built or run here; the message says why."""


@dataclass(frozen=True)
class TilingStruct:
    name: str  # as the kernel names it (qualified with optiling:: where declared there)
    fields: tuple[tuple[str, str, int | None], ...]  # (name, type, array length or None)
    header: Path


@dataclass
class HostTiling:
    block_dim: int
    tiling_key: int
    workspace: list[int]
    fields: dict[str, Any]
    struct: TilingStruct | None
    status: int = 0
    stdout: str = ""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def workspace_bytes(self) -> int:
        return int(sum(self.workspace))


def find_tiling_struct(headers: Sequence[Path], op_name: str | None = None) -> TilingStruct | None:
    """The tiling struct the kernel reads: the registered class for the op, else the first one defined."""
    defs: dict[str, tuple[Path, str, bool]] = {}
    registered: list[tuple[str, str]] = []
    for h in headers:
        text = h.read_text(encoding="utf-8", errors="replace")
        in_ns = bool(re.search(r"namespace\s+optiling\b", text))
        for m in _BEGIN.finditer(text):
            defs[m.group(1)] = (h, m.group(2), in_ns)
        registered += _REGISTER.findall(text)
    if not defs:
        return None
    pick = None
    if op_name:
        for op, cls in registered:
            if op.lower() == op_name.lower() and cls in defs:
                pick = cls
    if pick is None:
        pick = next((cls for _, cls in registered if cls in defs), next(iter(defs)))
    path, body, in_ns = defs[pick]
    if _FIELD_STRUCT.search(body):
        raise HostTilingError(f"{path.name}: {pick} has a struct field (TILING_DATA_FIELD_DEF_STRUCT, e.g. a "
                              "TCubeTiling); the bench's host adapter only reads scalar and array fields")
    fields = tuple((m.group(4), m.group(2), int(m.group(3)) if m.group(1) and m.group(3) and m.group(3).isdigit()
                    else None) for m in _FIELD.finditer(body))
    return TilingStruct(f"optiling::{pick}" if in_ns else pick, fields, path)


def _main_source(host_cpp: Path, struct: TilingStruct | None) -> str:
    lines = [
        '#include "akgen_bench_host.h"',
        '#include "register/op_def_registry.h"',
        '#include "tiling/platform/platform_ascendc.h"',
        f'#include "{host_cpp}"',
        "#include <iostream>",
        "#include <sstream>",
        "template <typename T> static void akgen_dump(std::ostream& o, const T& v) {",
        "    if constexpr (std::is_array_v<T>) { o << '['; for (size_t i = 0; i < std::extent_v<T>; ++i) {",
        "        if (i) o << ','; akgen_dump(o, v[i]); } o << ']'; }",
        "    else if constexpr (std::is_floating_point_v<T>) { o.precision(9); o << static_cast<double>(v); }",
        "    else if constexpr (sizeof(T) == 1) o << static_cast<int>(v);",
        "    else o << v;",
        "}",
        "static bool akgen_same(std::string a, std::string b) {",
        "    auto norm = [](std::string s) { std::string r; for (char c : s) if (c != '_') r += std::tolower(c);"
        " return r; };",
        "    return norm(a) == norm(b);",
        "}",
        "int main() {",
        "    gert::TilingContext ctx;",
        "    std::string kind;",
        "    std::vector<std::pair<std::string, std::string>> attrs;",
        "    while (std::cin >> kind) {",
        "        if (kind == \"name\") { std::cin >> ctx.name_; continue; }",
        "        if (kind == \"attr\") { std::string n, v; std::cin >> n >> v; attrs.push_back({n, v}); continue; }",
        "        int dt = 0; size_t nd = 0; std::cin >> dt >> nd;",
        "        gert::Shape s; for (size_t i = 0; i < nd; ++i) { int64_t d; std::cin >> d; s.AppendDim(d); }",
        "        gert::Tensor t; t.dt_ = static_cast<ge::DataType>(dt); t.shape_ = gert::StorageShape(s);",
        "        gert::CompileTimeTensorDesc desc; desc.dt_ = t.dt_;",
        "        if (kind == \"in\") { ctx.in_.push_back(t); ctx.in_desc_.push_back(desc); }",
        "        else { ctx.out_.push_back(t); ctx.out_desc_.push_back(desc); }",
        "    }",
        "    for (auto& d : akgen_bench_host::attr_decls()) {",
        "        gert::AttrValue v = d.def;",
        "        for (auto& [n, s] : attrs) if (akgen_same(n, d.name)) {",
        "            v.set = true; v.s = s;",
        "            if (s == \"true\" || s == \"false\") { v.b = s == \"true\"; v.i = v.b; v.f = v.i; v.d = v.i; }",
        "            else if (s.find(',') != std::string::npos) { std::stringstream ss(s); std::string e;",
        "                v.li.v_.clear(); v.lf.v_.clear();",
        "                while (std::getline(ss, e, ',')) if (!e.empty()) { v.li.v_.push_back(std::stoll(e));"
        " v.lf.v_.push_back(std::stof(e)); } }",
        "            else { char* end = nullptr; double x = std::strtod(s.c_str(), &end);",
        "                if (end && *end == 0) { v.d = x; v.f = static_cast<float>(x); v.i = static_cast<int64_t>(x);"
        " v.b = x != 0; } }",
        "        }",
        "        ctx.attrs_.v_.push_back(v);",
        "    }",
        "    auto fn = akgen_bench_host::tiling_fn();",
        "    if (!fn) { std::cout << \"{\\\"error\\\": \\\"no TilingFunc registered with "
        "AICore().SetTiling\\\"}\" << std::endl; return 3; }",
        "    ge::graphStatus st = fn(&ctx);",
        "    std::ostringstream o;",
        "    o << \"{\\\"status\\\": \" << (st == ge::GRAPH_SUCCESS ? 0 : 1) << \", \\\"block_dim\\\": \" << "
        "ctx.block_dim_",
        "      << \", \\\"tiling_key\\\": \" << ctx.tiling_key_ << \", \\\"data_size\\\": \" << ctx.tiling_.size_",
        "      << \", \\\"workspace\\\": [\";",
        "    for (size_t i = 0; i < ctx.ws_.size(); ++i) o << (i ? \",\" : \"\") << ctx.ws_[i];",
        "    o << \"], \\\"fields\\\": {\";",
    ]
    if struct is not None:
        lines.append(f"    {struct.name} t{{}};")
        lines.append("    std::memcpy(static_cast<void*>(&t), ctx.tiling_.buf_, sizeof(t));")
        for i, (name, _typ, _n) in enumerate(struct.fields):
            sep = ", " if i else ""
            lines.append(f'    o << "{sep}\\"{name}\\": "; akgen_dump(o, t.{name});')
    lines += ["    o << \"}}\";", "    std::cout << o.str() << std::endl;", "    return 0;", "}"]
    return "\n".join(lines) + "\n"


def _cache_root() -> Path:
    env = os.environ.get("AKGEN_CACHE_DIR")
    if env:
        return Path(env) / "bench-host"
    import platformdirs

    return Path(platformdirs.user_cache_dir("akgen")) / "bench-host"


def _arch_defines(arch: ArchProfile | None) -> list[str]:
    if arch is None:
        return []
    mem = arch.memory
    out = [f"-DAKGEN_AIV_CORES={arch.aiv_cores}", f"-DAKGEN_AIC_CORES={arch.aic_cores}"]
    for key, macro in (("ub", "AKGEN_UB_BYTES"), ("l1", "AKGEN_L1_BYTES"), ("l0a", "AKGEN_L0A_BYTES"),
                       ("l0b", "AKGEN_L0B_BYTES"), ("l0c", "AKGEN_L0C_BYTES")):
        for k, v in mem.items():
            if k.lower().replace("_", "").startswith(key) and isinstance(v, int):
                out.append(f"-D{macro}={v}")
                break
    return out


def build_host(host_cpp: Path, struct: TilingStruct | None, arch: ArchProfile | None = None,
               timeout_s: float = 120.0) -> Path:
    """Compile the op_host source with our stand-in headers; cached by content. Raises HostTilingError."""
    host_cpp = host_cpp.resolve()
    src = _main_source(host_cpp, struct)
    flags = ["-std=c++20", "-O0", "-w", "-fmax-errors=10", *_arch_defines(arch),
             "-I", str(HOST_INCLUDE), "-I", str(SIM_INCLUDE), "-I", str(host_cpp.parent)]
    h = hashlib.sha256(src.encode() + "|".join(flags).encode())
    for p in sorted(host_cpp.parent.glob("*")):
        if p.is_file() and p.suffix in (".cpp", ".h", ".hpp"):
            h.update(p.name.encode() + p.read_bytes())
    for p in sorted(HOST_INCLUDE.rglob("*.h")):
        h.update(p.read_bytes())
    key = h.hexdigest()[:24]
    final = _cache_root() / key
    exe = final / "host"
    if exe.is_file():
        return exe
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=key, dir=final.parent))
    (tmp / "main.cpp").write_text(src, encoding="utf-8")
    cxx = os.environ.get("AKGEN_CXX", "g++")
    try:
        res = subprocess.run([cxx, *flags, str(tmp / "main.cpp"), "-o", str(tmp / "host")], capture_output=True,
                             text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise HostTilingError(f"building the host tiling of {host_cpp.name} took more than {timeout_s:.0f} s") \
            from None
    except OSError as exc:
        raise HostTilingError(f"cannot run the C++ compiler ({exc}); install g++ or set AKGEN_CXX") from None
    if res.returncode != 0:
        first = [ln for ln in res.stderr.splitlines() if "error" in ln][:3]
        raise HostTilingError(f"the op_host code of {host_cpp.name} does not build with the bench's host "
                              f"stand-in: {' | '.join(first) or res.stderr[-300:]}")
    with contextlib.suppress(OSError):
        os.replace(tmp, final)
    return exe if exe.is_file() else tmp / "host"


def run_host_tiling(host_cpp: Path, headers: Sequence[Path], op_name: str,
                    inputs: Sequence[tuple[str, Sequence[int]]], outputs: Sequence[tuple[str, Sequence[int]]],
                    attrs: Mapping[str, Any] | None = None, arch: ArchProfile | None = None,
                    timeout_s: float = 30.0) -> HostTiling:
    """Run the op_host TilingFunc for the given input/output (dtype, shape) and attributes."""
    import time

    t0 = time.perf_counter()
    struct = find_tiling_struct(headers, op_name)
    exe = build_host(host_cpp, struct, arch)
    spec = [f"name {op_name}"]
    for kind, items in (("in", inputs), ("out", outputs)):
        for dt, shape in items:
            code = GE_DTYPES.get(dt)
            if code is None:
                raise HostTilingError(f"dtype {dt} has no ge::DataType in the host adapter")
            spec.append(f"{kind} {code} {len(shape)} {' '.join(str(int(d)) for d in shape)}".rstrip())
    for k, v in (attrs or {}).items():
        if isinstance(v, bool):
            sval = "true" if v else "false"
        elif isinstance(v, (list, tuple)):
            sval = ",".join(str(e) for e in v) + ","
        else:
            sval = str(v).replace(" ", "")
        if sval:
            spec.append(f"attr {k} {sval}")
    try:
        res = subprocess.run([str(exe)], input="\n".join(spec) + "\n", capture_output=True, text=True,
                             timeout=timeout_s)
    except subprocess.TimeoutExpired:
        raise HostTilingError(f"the TilingFunc of {host_cpp.name} ran longer than {timeout_s:.0f} s") from None
    line = next((ln for ln in reversed(res.stdout.splitlines()) if ln.startswith("{")), "")
    if res.returncode not in (0,) or not line:
        raise HostTilingError(f"the TilingFunc of {host_cpp.name} failed (exit {res.returncode}): "
                              f"{(res.stdout + res.stderr)[-300:].strip()}")
    data = json.loads(line)
    if data.get("error"):
        raise HostTilingError(f"{host_cpp.name}: {data['error']}")
    if data.get("status"):
        raise HostTilingError(f"the TilingFunc of {host_cpp.name} returned GRAPH_FAILED for this case")
    return HostTiling(block_dim=int(data.get("block_dim") or 0), tiling_key=int(data.get("tiling_key") or 0),
                      workspace=[int(w) for w in data.get("workspace", [])], fields=dict(data.get("fields", {})),
                      struct=struct, status=0, stdout=res.stdout[-2000:], seconds=time.perf_counter() - t0)

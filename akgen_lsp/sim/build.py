"""Compile a kernel against our headers: glue generation, precompiled header, content-hash build cache, and g++
diagnostics turned into findings at the user's file and line.

Cache layout (``cache_dir()``: ``$AKGEN_CACHE_DIR`` or ``platformdirs.user_cache_dir("akgen")``, then ``sim/``):
``pch/<key>/akgen_pch.h(.gch)``, ``launcher/<key>/launcher.o``, ``builds/<key>/{kernel,build.json}``. The build key
hashes the compiler version, flags, our headers and launcher, the generated glue, the sources and every header file
beside them (``*.h``, ``*.hpp``, ``*.inc`` in the sources' folders). Entries are written to a temporary name and
renamed, so concurrent builds never see half a file.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.findings import Finding, Severity, Span

SIM_DIR = Path(__file__).resolve().parent
INCLUDE_DIR = SIM_DIR / "include"
LAUNCHER_SRC = SIM_DIR / "launcher" / "launcher.cpp"
BASE_FLAGS = ("-std=c++20", "-Og", "-ftree-vectorize", "-fdiagnostics-color=never", "-fno-diagnostics-show-caret", "-fmax-errors=30",
              "-DASCENDC_CPU_DEBUG", "-D__CCE_KT_TEST__", "-D__NPU_ARCH__=2201")
HEADER_SUFFIXES = (".h", ".hpp", ".inc", ".hh")


class ToolchainError(RuntimeError):
    """The toolchain itself cannot work (no compiler, unwritable cache); the message says what to do."""


def cache_dir() -> Path:
    env = os.environ.get("AKGEN_CACHE_DIR")
    if env:
        base = Path(env)
    else:
        import platformdirs

        base = Path(platformdirs.user_cache_dir("akgen"))
    return base / "sim"


def find_cxx() -> str:
    cxx = os.environ.get("AKGEN_CXX") or shutil.which("g++")
    if not cxx:
        raise ToolchainError("g++ not found: install GCC 11 or newer (Debian/Ubuntu: `apt-get install g++`), or set "
                             "AKGEN_CXX to a C++20 compiler")
    return cxx


@functools.lru_cache(maxsize=4)
def compiler_id(cxx: str) -> str:
    try:
        out = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise ToolchainError(f"cannot run the compiler {cxx}: {exc}") from None
    return out.splitlines()[0] if out else cxx


def _hash_files(paths: Iterable[Path], h: Any) -> None:
    for p in sorted(paths):
        h.update(str(p).encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")


_headers_memo: dict[str, tuple[float, str]] = {}


def headers_hash() -> str:
    """Hash of our headers and launcher (memoised on the newest mtime, so a cache hit stays cheap)."""
    files = [p for p in INCLUDE_DIR.rglob("*") if p.is_file()] + [p for p in LAUNCHER_SRC.parent.iterdir() if p.is_file()]
    newest = max(p.stat().st_mtime_ns for p in files)
    memo = _headers_memo.get("h")
    if memo and memo[0] == newest:
        return memo[1]
    h = hashlib.sha256()
    _hash_files(files, h)
    digest = h.hexdigest()[:24]
    _headers_memo["h"] = (newest, digest)
    return digest


# --------------------------------------------------------------------------------------------------- options


@dataclass(frozen=True)
class BuildOptions:
    """What a build depends on besides the sources."""

    kernel: str
    signature: Sequence[Mapping[str, Any]]  # from Manifest.signature(): the argument kinds and C types
    defines: Mapping[str, str] = field(default_factory=dict)
    tiling_header: Path | None = None
    tiling_struct: str | None = None
    include_dirs: Sequence[Path] = ()
    use_pch: bool = True
    use_cache: bool = True
    timeout_s: float = 120.0


@dataclass
class Build:
    ok: bool
    binary: Path | None
    findings: list[Finding]
    sources: tuple[Path, ...]
    key: str
    cached: bool = False
    seconds: float = 0.0
    command: list[str] = field(default_factory=list)
    log: str = ""


# --------------------------------------------------------------------------------------------------- glue

_NS_RE = re.compile(r"namespace\s+optiling\b")
_REG_RE = re.compile(r"REGISTER_TILING_DATA_CLASS\s*\(\s*\w+\s*,\s*(\w+)\s*\)")


def tiling_struct_name(header: Path | None, struct: str | None) -> str:
    """The type GET_TILING_DATA reads: the manifest's struct, else the header's REGISTER_TILING_DATA_CLASS; qualified
    with optiling:: when the header declares it there."""
    text = header.read_text(encoding="utf-8", errors="replace") if header else ""
    name = struct
    if not name:
        m = _REG_RE.search(text)
        name = m.group(1) if m else "TilingData"
    if "::" not in name and _NS_RE.search(text):
        name = f"optiling::{name}"
    return name


def generate_glue(sources: Sequence[Path], opts: BuildOptions) -> str:
    lines = ["// generated by akgen sim: includes the kernel sources and calls the kernel from the launcher",
             '#include "akgen_sim/glue.h"']
    if opts.tiling_header:
        lines.append(f'#include "{opts.tiling_header}"')
    if opts.tiling_header or opts.tiling_struct:
        lines.append(f"using akgen_tiling_struct_t = {tiling_struct_name(opts.tiling_header, opts.tiling_struct)};")
    if opts.tiling_header and _NS_RE.search(opts.tiling_header.read_text(encoding="utf-8", errors="replace")):
        # the kernel-side build of CANN puts the tiling structs at global scope: kernels name them unqualified
        lines.append("using namespace optiling;")
    for s in sources:
        lines.append(f'#include "{s}"')
    params = []
    for i, a in enumerate(opts.signature):
        if a["kind"] == "scalar":
            params.append(f"::akgen_sim::parse_scalar<{a['ctype']}>(static_cast<const char*>(a[{i}]))")
        else:
            params.append(f"static_cast<GM_ADDR>(a[{i}])")
    lines.append('extern "C" void akgen_sim_entry(void* const* a) {')
    lines.append("    (void)a;")
    lines.append(f"    {opts.kernel}({', '.join(params)});")
    lines.append("}")
    lines.append('extern "C" void akgen_sim_fill_tiling(int arg, uint8_t* buf, uint64_t cap, const char* kv) {')
    lines.append("    (void)arg; (void)buf; (void)cap; (void)kv;")
    for i, a in enumerate(opts.signature):
        if a["kind"] != "tiling":
            continue
        lines.append(f"    if (arg == {i}) {{")
        lines.append("        akgen_tiling_struct_t t{};")
        lines.append("        ::akgen_sim::for_each_field(kv, [&](std::string_view k, const char* v) {")
        for f in a.get("fields", []):
            lines.append(f'            if (k == "{f}") ::akgen_sim::parse_into(t.{f}, v);')
        lines.append("        });")
        lines.append("        std::memcpy(buf, &t, sizeof(t) < cap ? sizeof(t) : cap);")
        lines.append("    }")
    lines.append("}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------------- diagnostics

_DIAG = re.compile(r"^(?P<file>[^:\n]+?):(?P<line>\d+):(?:(?P<col>\d+):)?\s*(?P<sev>fatal error|error|warning|note):\s*"
                   r"(?P<msg>.*)$")
_CONTEXT = re.compile(r"^(?:In file included from |\s+from )?(?P<file>[^:\n]+?):(?P<line>\d+)(?::(?P<col>\d+))?[:,]"
                      r"\s*(?P<rest>.*)$")

_CLASSES: tuple[tuple[str, str], ...] = (
    (r"is not a member of|no member named|has no member named|no template named|no matching function|"
     r"too few arguments|too many arguments|no matching member function|cannot be used as a function|"
     r"does not name a type|not a template|wrong number of template arguments|call of overloaded .* is ambiguous|"
     r"no type named", "api_mismatch"),
    (r"Failed to check dtype|cannot convert|invalid conversion|narrowing conversion|conversion from .* to|"
     r"invalid cast|no viable conversion|incompatible types", "dtype"),
    (r"was not declared in this scope|undeclared|redefinition|conflicting declaration|not declared|"
     r"out of scope|shadows", "scope"),
    (r"use of deleted function|lvalue|read-only|discards qualifiers|binding reference", "memory"),
    (r"expected|stray|missing terminating|unterminated", "syntax"),
)


def classify_cxx_error(message: str) -> str:
    for pattern, cls in _CLASSES:
        if re.search(pattern, message):
            return cls
    return "other"


def parse_gcc_output(text: str, user_files: Mapping[str, str], fallback: str) -> list[Finding]:
    """g++ diagnostics -> findings. Errors inside our headers are moved to the user's line that led there (the last
    "required from here" / include location in the user's files); `user_files` maps absolute paths to display paths."""
    findings: list[Finding] = []
    pending: tuple[str, int, int] | None = None

    def user(path: str) -> str | None:
        p = os.path.normpath(path)
        return user_files.get(p)

    for raw in text.splitlines():
        m = _DIAG.match(raw)
        if m is None:
            c = _CONTEXT.match(raw)
            if c and user(c.group("file")):
                pending = (user(c.group("file")) or "", int(c.group("line")), int(c.group("col") or 1))
            continue
        sev = m.group("sev")
        path, line, col = m.group("file"), int(m.group("line")), int(m.group("col") or 1)
        shown = user(path)
        if sev == "note":
            if shown:
                pending = (shown, line, col)
            continue
        if sev == "warning":
            continue
        msg = m.group("msg").strip()
        if shown:
            loc = (shown, line, col)
        elif pending:
            loc = pending
        else:
            loc = (fallback, 1, 1)
        data = {"compiler_file": path, "compiler_line": line} if not shown else {}
        findings.append(Finding(
            code="CXX", message=msg, span=Span(loc[0], loc[1], loc[2], loc[1], loc[2]), severity=Severity.ERROR,
            source="akgen-build", error_class=classify_cxx_error(msg), data=data,
        ))
        pending = None
    if not findings and text.strip():
        # A link error or a crash of the compiler: keep the text so nothing is lost.
        first = next((ln for ln in text.splitlines() if "error" in ln), text.strip().splitlines()[-1])
        findings.append(Finding(code="CXX", message=first.strip(), span=Span.point(fallback, 1), source="akgen-build",
                                error_class=classify_cxx_error(first), data={"log": text[-4000:]}))
    return findings


# --------------------------------------------------------------------------------------------------- compile


def _atomic_dir(final: Path) -> Path:
    final.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=final.name + ".tmp", dir=final.parent))


def _publish(tmp: Path, final: Path) -> None:
    try:
        os.replace(tmp, final)
    except OSError:  # another process won the race: theirs is as good as ours
        shutil.rmtree(tmp, ignore_errors=True)


def _run(cmd: list[str], timeout: float, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                              env=_compiler_env(), start_new_session=True)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, 124, "", f"error: the compiler took more than {timeout:.0f} s")
    except OSError as exc:
        raise ToolchainError(f"cannot run {cmd[0]}: {exc}") from None


def _compiler_env() -> dict[str, str]:
    keep = ("PATH", "HOME", "LANG", "TMPDIR")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env["LC_ALL"] = "C"
    return env


def ensure_pch(cxx: str, timeout: float = 300.0) -> Path:
    """The precompiled header for BASE_FLAGS; built once per compiler and header version."""
    key = hashlib.sha256(f"{compiler_id(cxx)}|{BASE_FLAGS}|{headers_hash()}".encode()).hexdigest()[:24]
    final = cache_dir() / "pch" / key
    header = final / "akgen_pch.h"
    if (final / "akgen_pch.h.gch").is_file():
        return header
    tmp = _atomic_dir(final)
    (tmp / "akgen_pch.h").write_text(f'#include "{INCLUDE_DIR / "akgen_sim" / "pch.h"}"\n', encoding="utf-8")
    res = _run([cxx, *BASE_FLAGS, "-I", str(INCLUDE_DIR), "-x", "c++-header", str(tmp / "akgen_pch.h"),
                "-o", str(tmp / "akgen_pch.h.gch")], timeout)
    if res.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise ToolchainError(f"building the precompiled header failed:\n{res.stderr[-2000:]}")
    _publish(tmp, final)
    return header


def ensure_launcher(cxx: str, timeout: float = 300.0) -> Path:
    key = hashlib.sha256(f"{compiler_id(cxx)}|{BASE_FLAGS}|{headers_hash()}|launcher".encode()).hexdigest()[:24]
    final = cache_dir() / "launcher" / key
    obj = final / "launcher.o"
    if obj.is_file():
        return obj
    tmp = _atomic_dir(final)
    res = _run([cxx, *BASE_FLAGS, "-I", str(INCLUDE_DIR), "-I", str(LAUNCHER_SRC.parent), "-c", str(LAUNCHER_SRC),
                "-o", str(tmp / "launcher.o")],
               timeout)
    if res.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise ToolchainError(f"building the simulator launcher failed:\n{res.stderr[-2000:]}")
    _publish(tmp, final)
    return obj


def _side_headers(sources: Sequence[Path], extra: Sequence[Path]) -> list[Path]:
    seen: set[Path] = set()
    for d in {s.parent for s in sources} | set(extra):
        if d.is_dir():
            for p in d.iterdir():
                if p.suffix in HEADER_SUFFIXES and p.is_file():
                    seen.add(p)
    return sorted(seen)


def build_key(cxx: str, sources: Sequence[Path], glue: str, flags: Sequence[str], opts: BuildOptions) -> str:
    h = hashlib.sha256()
    h.update(f"{compiler_id(cxx)}|{headers_hash()}|{list(flags)}|{opts.use_pch}".encode())
    h.update(glue.encode())
    files = list(sources) + _side_headers(sources, opts.include_dirs)
    if opts.tiling_header:
        files.append(opts.tiling_header)
    _hash_files(set(files), h)
    return h.hexdigest()[:32]


def compile_kernel(sources: Sequence[Path], opts: BuildOptions) -> Build:
    """Compile and link the kernel with the launcher. Never raises for a bad kernel: the Build carries findings."""
    t0 = time.perf_counter()
    cxx = find_cxx()
    sources = tuple(Path(s).resolve() for s in sources)
    user_files = {os.path.normpath(str(s)): str(s) for s in sources}
    for hdr in _side_headers(sources, opts.include_dirs):
        user_files[os.path.normpath(str(hdr.resolve()))] = str(hdr.resolve())
    if opts.tiling_header:
        th = opts.tiling_header.resolve()
        user_files[os.path.normpath(str(th))] = str(th)
    flags = [*BASE_FLAGS]
    flags += [f"-D{k}={v}" for k, v in sorted(opts.defines.items())]
    flags += ["-I", str(INCLUDE_DIR)]
    for d in [*opts.include_dirs, *sorted({s.parent for s in sources})]:
        flags += ["-I", str(d)]
    glue_opts = BuildOptions(**{**opts.__dict__, "tiling_header": opts.tiling_header.resolve()
                                if opts.tiling_header else None})
    glue = generate_glue(sources, glue_opts)
    key = build_key(cxx, sources, glue, flags, opts)
    final = cache_dir() / "builds" / key
    if opts.use_cache and (final / "build.json").is_file():
        meta = json.loads((final / "build.json").read_text(encoding="utf-8"))
        from akgen_lsp.findings import finding_from_json

        found = [finding_from_json(f) for f in meta.get("findings", [])]
        binary = final / "kernel" if meta.get("ok") else None
        return Build(ok=bool(meta.get("ok")), binary=binary, findings=found, sources=sources, key=key, cached=True,
                     seconds=time.perf_counter() - t0, command=meta.get("command", []), log=meta.get("log", ""))
    launcher = ensure_launcher(cxx)
    pch_flags: list[str] = []
    if opts.use_pch:
        pch_flags = ["-include", str(ensure_pch(cxx)), "-Winvalid-pch"]
    tmp = _atomic_dir(final) if opts.use_cache else Path(tempfile.mkdtemp(prefix="akgen-build-"))
    (tmp / "glue.cpp").write_text(glue, encoding="utf-8")
    link = ["-fuse-ld=gold"] if shutil.which("ld.gold") else []  # links in a third of the time of ld.bfd
    cmd = [cxx, *flags, *pch_flags, *link, str(tmp / "glue.cpp"), str(launcher), "-o", str(tmp / "kernel")]
    res = _run(cmd, opts.timeout_s, cwd=tmp)
    log = (res.stderr or "") + (res.stdout or "")
    ok = res.returncode == 0
    findings = [] if ok else parse_gcc_output(log, user_files, str(sources[0]))
    if ok and not (tmp / "kernel").is_file():
        ok = False
    from akgen_lsp.findings import finding_to_json

    meta = {"ok": ok, "findings": [finding_to_json(f) for f in findings], "command": cmd, "log": log[-20000:]}
    (tmp / "build.json").write_text(json.dumps(meta), encoding="utf-8")
    if opts.use_cache:
        _publish(tmp, final)
        out_dir = final if final.is_dir() else tmp
    else:
        out_dir = tmp
    return Build(ok=ok, binary=(out_dir / "kernel") if ok else None, findings=findings, sources=sources, key=key,
                 cached=False, seconds=time.perf_counter() - t0, command=cmd, log=log)

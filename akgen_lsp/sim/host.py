"""Run an op_host TilingFunc on the CPU: the `{"tiling": {"host": "op_host/add_custom.cpp"}}` form of the manifest.

The op_host source is compiled against our host headers (`register/op_def_registry.h`: gert::TilingContext subset,
platform_ascendc from the arch profile, ge:: types, OpDef as inert data) and linked with `launcher/host_main.cpp`,
which fills the context from the manifest's input/output shapes and dtypes and attributes, calls the TilingFunc that
OP_ADD registered, and prints block dim, tiling key, workspace sizes and the tiling bytes. Cached like kernel builds.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.ascendc import ge_dtypes
from akgen_lsp.ascendc.arch import ArchProfile
from akgen_lsp.findings import Finding, Severity, Span, finding_from_json, finding_to_json
from akgen_lsp.logs.gcc import parse_gcc_output
from akgen_lsp.sandbox import GiB, Limits, MiB, Policy, SandboxUnavailable, run_confined
from akgen_lsp.sim.build_cache import (
    DIGESTS,
    SYSTEM_ROOTS,
    atomic_dir,
    cache_dir,
    generated_roots,
    headers_hash,
    publish,
    read_depfile,
    reusable,
    seal,
    user_deps,
)
from akgen_lsp.sim.compiler import (
    BASE_FLAGS,
    INCLUDE_DIR,
    SIM_DIR,
    compiler_id,
    find_cxx,
    run_compiler,
)

HOST_MAIN = SIM_DIR / "launcher" / "host_main.cpp"
_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


@dataclass
class HostTiling:
    ok: bool
    findings: list[Finding]
    block_dim: int = 0
    tiling_key: int = 0
    workspace: list[int] = field(default_factory=list)
    tiling: bytes = b""
    stdout: str = ""
    # with infer=True: what the op's InferShape/InferDataType gave for each output, as (shape, dtype): the shape
    # None when no InferShape is registered or it failed, the dtype (numpy name) None likewise; [] when the op
    # registers neither
    inferred: list[tuple[tuple[int, ...] | None, str | None]] = field(default_factory=list)


def tiling_header_of(host_source: Path) -> Path | None:
    """The header with BEGIN_TILING_DATA_DEF that the op_host source includes (or one beside it)."""
    text = host_source.read_text(encoding="utf-8", errors="replace")
    candidates = [host_source.parent / m.group(1) for m in _INCLUDE.finditer(text)]
    candidates += sorted(host_source.parent.glob("*.h"))
    for c in candidates:
        if c.is_file() and "BEGIN_TILING_DATA_DEF" in c.read_text(encoding="utf-8", errors="replace"):
            return c.resolve()
    return None


_TARGET_SOURCES = re.compile(
    r"target_sources\s*\(\s*([\w-]+)\s+(?:PRIVATE|PUBLIC|INTERFACE)\s+([^)]*)\)", re.S
)
# The libraries of a CANN custom-op project that hold what the runner calls: the TilingFunc (optiling) and the OpDef
# (op_host_aclnn). opsproto (InferShape/InferDataType) only when the inference is asked for (PROTO_TARGETS); the aclnn
# API sources are not needed.
HOST_TARGETS = (
    "optiling",
    "op_host_aclnn",
    "op_host_aclnnInner",
)  # aclnnInner: an OpDef without public aclnn
# With the shape inference (InferShape/InferDataType registered by IMPL_OP_INFERSHAPE in a file of its own).
PROTO_TARGETS = (*HOST_TARGETS, "opsproto")


def cmake_host_groups(op_host: Path, targets: tuple[str, ...] = HOST_TARGETS) -> list[list[Path]]:
    """The op_host sources of the op's CMakeLists.txt (beside op_host/) that CANN builds into the TilingFunc and OpDef
    libraries (`targets`: with PROTO_TARGETS also the InferShape library), one list per library; [] when there is no
    CMakeLists.txt or it names none of them."""
    cml = op_host.parent / "CMakeLists.txt"
    if not cml.is_file():
        return []
    text = re.sub(r"#[^\n]*", "", cml.read_text(encoding="utf-8", errors="replace"))
    groups: dict[str, list[Path]] = {}
    for m in _TARGET_SOURCES.finditer(text):
        if m.group(1) not in targets:
            continue
        for name in m.group(2).split():
            f = (op_host.parent / name).resolve()
            if (
                f.suffix in (".cpp", ".cc") and f.is_file() and f.parent == op_host.resolve()
            ):  # FeedsRepeat: .cc
                groups.setdefault(m.group(1), []).append(f)
    return [sorted(set(g)) for g in groups.values()]


def host_source_units(src: Path, proto: bool = False) -> tuple[list[Path], int]:
    """The sources of the host runner of the op_host source `src` and how many libraries CMake makes of them: the
    sources CMake puts in the TilingFunc and OpDef libraries (with `proto` also its InferShape library); without a
    CMakeLists.txt every .cpp of op_host/ (the OpDef and the TilingFunc may live in different files) except the
    op's InferShape (`*_infershape.cpp`) unless `proto` asks for it: an include there that this build does not have
    must not block a TilingFunc that needs nothing from it."""
    groups = cmake_host_groups(src.parent, HOST_TARGETS)
    if proto:
        groups = cmake_host_groups(src.parent, PROTO_TARGETS)
    if groups:
        units = sorted({q for g in groups for q in g})
    else:
        units = sorted(
            q.resolve()
            for q in src.parent.glob("*.cpp")
            if proto or "infershape" not in q.name.lower() or q.resolve() == src
        )
    if src not in units:
        units.append(src)
    return units, len(groups)


def host_include_dirs(units: Sequence[Path], include_dirs: Sequence[Path] = ()) -> list[Path]:
    """The folders an op_host build searches: each source's folder and its sub-folders (op_host/arch22/,
    op_host/op_tiling/: the repositories include their headers by name from files elsewhere in op_host/), then the
    caller's include folders (a manifest's include_dirs: the repository's common/inc, ...)."""
    dirs: list[Path] = []
    for u in units:
        base = u.parent
        for d in [base, *sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith("."))]:
            if d not in dirs:
                dirs.append(d)
    for d in include_dirs:
        d = Path(d).resolve()
        if d.is_dir() and d not in dirs:
            dirs.append(d)
    return dirs


def build_host(
    host_source: Path, timeout_s: float = 120.0, proto: bool = False, include_dirs: Sequence[Path] = ()
) -> tuple[Path | None, list[Finding]]:
    """The host runner of an op_host source (cached); `proto`: with the sources of CMake's opsproto library too (where
    a project keeps its InferShape); `include_dirs`: the manifest's include folders."""
    src = host_source.resolve()
    units, libraries = host_source_units(src, proto)
    return build_host_units(
        units,
        include_dirs,
        timeout_s,
        main=src,
        several_libraries=libraries > 1,
        tag="proto" if proto else "",
    )


def build_host_units(
    units: Sequence[Path],
    include_dirs: Sequence[Path] = (),
    timeout_s: float = 120.0,
    main: Path | None = None,
    several_libraries: bool = False,
    tag: str = "",
) -> tuple[Path | None, list[Finding]]:
    """The host runner of the op_host sources `units` (a TilingFunc and what registers it), linked with
    host_main.cpp, cached. The key covers the compiler, our headers, the flags, the sources, the headers beside them
    and the include folders; every other file the compiler read (its -MD list: a header in op_host/arch22/, one of
    the repository's include folders) is recorded with its content hash, and a change of any of them builds again."""
    cxx = find_cxx()
    units = [Path(u).resolve() for u in units]
    main = (main or units[0]).resolve()
    dirs = host_include_dirs(units, include_dirs)
    h = hashlib.sha256(
        f"{compiler_id(cxx)}|{headers_hash()}|{BASE_FLAGS}|{tag}|{[str(d) for d in dirs]}".encode()
    )
    beside = {q for u in units for q in u.parent.iterdir() if q.suffix in (".h", ".hpp")}
    for p in sorted({*units, *beside}):
        h.update(str(p).encode() + b"\0" + p.read_bytes())
    final = cache_dir() / "host" / h.hexdigest()[:32]
    meta = reusable(final, "host_runner", meta_name="meta.json")
    if meta is not None:
        if meta.get("ok"):
            return final / "host_runner", []
        return None, [finding_from_json(f) for f in meta.get("findings", [])]
    tmp = atomic_dir(final)
    link = ["-fuse-ld=gold"] if shutil.which("ld.gold") else []
    if several_libraries:
        # CANN links each target into its own shared library, where a non-inline function that a header defines for
        # both (one definition, compiled twice) is legal: the dynamic linker binds every call to one copy. One
        # executable here, so the same choice is made at link time.
        link.append("-Wl,--allow-multiple-definition")
    incs = [a for d in dirs for a in ("-I", str(d))]
    # include/opbase (the operator base library's log/, util/, op_common/ headers) after the op's and the
    # repository's own folders: a repository header of the same name wins
    base = [
        cxx,
        *BASE_FLAGS,
        "-I",
        str(INCLUDE_DIR),
        "-I",
        str(SIM_DIR / "launcher"),
        *incs,
        "-I",
        str(INCLUDE_DIR / "opbase"),
    ]
    box_read = [*{u.parent for u in units}, *dirs]
    # each source on its own (-c, -MD -MF: g++ writes one dependency file per compile, and a link of several sources
    # keeps only the last one's), then one link
    objects: list[str] = []
    res = None
    for i, u in enumerate([HOST_MAIN, *units]):
        obj = tmp / f"u{i}.o"
        res = run_compiler(
            [*base, "-MD", "-MF", str(tmp / f"u{i}.d"), "-c", str(u), "-o", str(obj)],
            timeout_s,
            tmp,
            box_read,
        )
        if res.returncode != 0:
            break
        objects.append(str(obj))
    else:
        res = run_compiler([cxx, *link, *objects, "-o", str(tmp / "host_runner")], timeout_s, tmp, box_read)
    assert res is not None
    ok = res.returncode == 0
    findings = (
        []
        if ok
        else parse_gcc_output(
            res.stderr + res.stdout, {str(u): str(u) for u in units}, str(main), generated_roots()
        )
    )
    read = [p for d in tmp.glob("*.d") for p in read_depfile(d, tmp)]
    deps = user_deps(read, [SIM_DIR, tmp, cache_dir(), *SYSTEM_ROOTS], box_read)
    log = res.stderr + res.stdout
    (tmp / "meta.json").write_text(
        json.dumps(
            {
                "ok": ok,
                "findings": [finding_to_json(f) for f in findings],
                "deps": deps,
                "no_reuse": not ok and "No such file or directory" in log,
            }
        ),
        encoding="utf-8",
    )
    if ok:
        seal(tmp, "host_runner")
    publish(tmp, final)
    out = final if final.is_dir() else tmp
    return (out / "host_runner" if ok else None), findings


def run_host_tiling(
    host_source: Path,
    inputs: list[tuple[str, str, tuple[int, ...]]],
    outputs: list[tuple[str, str, tuple[int, ...]]],
    attrs: dict[str, Any],
    profile: ArchProfile | None,
    op: str | None = None,
    timeout_s: float = 30.0,
    values: dict[str, bytes] | None = None,
    absent: Collection[str] = (),
    infer: bool = False,
    tiling: bool = True,
    include_dirs: Sequence[Path] = (),
) -> HostTiling:
    """inputs/outputs: (name, numpy dtype name, shape). attrs: name -> number, bool, str or list. values: the raw
    bytes of small inputs, which the TilingFunc reads with GetInputTensor(i)->GetData<T>(). absent: the optional
    inputs the call leaves out (no instance: GetOptionalInputShape(ir) is nullptr). infer: also run the op's
    InferShape/InferDataType first (`HostTiling.inferred`; the build then includes CMake's opsproto sources);
    tiling=False (with infer): only those, no TilingFunc."""
    binary, findings = build_host(host_source, proto=infer, include_dirs=include_dirs)
    if binary is None:
        return HostTiling(False, findings)
    lines = []
    if op:
        lines.append(f"op {op}")
    if infer:
        lines.append("infer" if tiling else "infer_only")
    if profile is not None:
        lines += [
            f"aiv {profile.aiv_cores}",
            f"aic {profile.aic_cores}",
            f"ub {profile.ub_bytes}",
            f"l1 {profile.memory.get('l1', 524288)}",
            "soc 310p" if "310" in profile.name else "soc 910b",
        ]
    for kind, items in (("input", inputs), ("output", outputs)):
        for name, dtype, shape in items:
            if kind == "input" and name in absent:
                lines.append(f"absent {name}")
                continue
            lines.append(
                f"{kind} {name} {ge_dtypes.GE_NAMES.get(dtype, 'DT_UNDEFINED')} {' '.join(str(d) for d in shape)}"
            )
            if kind == "input" and values and name in values:
                lines.append(f"data {name} {values[name].hex()}")  # a value-depend input's values (GetData)
    for name, v in attrs.items():
        if isinstance(v, bool):
            lines.append(f"attr {name} bool {int(v)}")
        elif isinstance(v, int):
            lines.append(f"attr {name} int {v}")
        elif isinstance(v, float):
            lines.append(f"attr {name} float {v!r}")
        elif isinstance(v, list):
            kind = "list_int" if all(isinstance(e, int) for e in v) else "list_float"
            lines.append(f"attr {name} {kind} {','.join(str(e) for e in v)}")
        else:
            lines.append(f"attr {name} str {v}")
    where = Span.point(str(host_source.resolve()), 1)
    spec_text = "\n".join(lines) + "\n"
    res = _remembered_run(binary, spec_text, timeout_s)
    if res is None:
        work = Path(tempfile.mkdtemp(prefix="akgen-host-"))
        spec = work / "host_spec.txt"
        spec.write_text(spec_text, encoding="utf-8")
        policy = Policy(
            "host",
            Limits(
                wall_s=timeout_s, cpu_s=timeout_s, as_bytes=4 * GiB, fsize_bytes=64 * MiB, disk_bytes=1 * GiB
            ),
            read_only=[binary.parent],
            writable=[work],
            cwd=work,
        )
        try:
            res = run_confined([str(binary), str(spec)], policy)
        except SandboxUnavailable as exc:
            shutil.rmtree(work, ignore_errors=True)
            return HostTiling(
                False,
                [
                    Finding(
                        "SIM-SANDBOX-UNAVAILABLE", str(exc), where, source="akgen-run", error_class="harness"
                    )
                ],
            )
        finally:
            shutil.rmtree(work, ignore_errors=True)
        _remember_run(binary, spec_text, timeout_s, res)
    if res.timed_out:
        return HostTiling(
            False,
            [
                Finding(
                    "SIM-HOST",
                    f"the TilingFunc did not finish within {timeout_s:g} s",
                    where,
                    source="akgen-run",
                    error_class="runtime",
                )
            ],
        )
    marker = "@@AKGEN_HOST_RESULT@@"
    line = next((ln for ln in res.output.splitlines() if ln.startswith(marker)), None)
    if line is None:
        how = f"signal {res.signal}" if res.signal else f"exit status {res.returncode}"
        msg = f"the TilingFunc crashed ({how})"
        return HostTiling(
            False,
            [Finding("SIM-HOST", msg, where, source="akgen-run", error_class="runtime")],
            stdout=res.output[-4000:],
        )
    try:  # what the runner printed comes from the op's own code: read it as untrusted
        data = json.loads(line[len(marker) :])
        result = HostTiling(
            True,
            [],
            block_dim=_bounded(data.get("block_dim", 0), 0, 65535),
            tiling_key=_bounded(data.get("tiling_key", 0), -(1 << 63), (1 << 64) - 1),
            workspace=[_bounded(w, 0, MAX_WORKSPACE) for w in data.get("workspace", [])[:64]],
            tiling=bytes.fromhex(str(data.get("tiling_hex", ""))[: 2 * MAX_TILING_BYTES]),
            stdout=res.output[-4000:],
            inferred=_inferred(data.get("infer")),
        )
        status, message = data.get("status"), str(data.get("message") or "")[:2000]
    except (ValueError, TypeError, AttributeError) as exc:
        return HostTiling(
            False,
            [
                Finding(
                    "SIM-HOST",
                    f"the TilingFunc's runner printed a result that is not one it "
                    f"writes ({exc}): something in the op_host code wrote over it",
                    where,
                    source="akgen-run",
                    error_class="runtime",
                )
            ],
            stdout=res.output[-4000:],
        )
    if status != "ok":
        msg = message or "the TilingFunc returned ge::GRAPH_FAILED for these shapes and attributes"
        return HostTiling(
            False,
            [
                Finding(
                    "SIM-HOST", msg, where, severity=Severity.ERROR, source="akgen-run", error_class="logic"
                )
            ],
            stdout=res.output[-4000:],
        )
    return result


@dataclass
class _RunOutput:
    """What a finished run of the host runner printed (a `_remembered_run`), in the shape of the box's result."""

    output: str
    timed_out: bool = False
    signal: int = 0
    returncode: int = 0


def _run_key(binary: Path, spec_text: str, timeout_s: float) -> Path | None:
    """The cache entry of one TilingFunc run: the runner's build (its folder is named by the hash of the op_host
    sources, our headers and the compiler) and the spec it reads (shapes, dtypes, attributes, values, the arch
    profile); None for a runner outside the host build cache."""
    if binary.parent.parent != cache_dir() / "host":
        return None
    try:  # the runner's content hash: an entry rebuilt under the same name (a header it read changed) is another one
        sealed = (binary.parent / DIGESTS).read_text(encoding="utf-8")
    except OSError:
        return None
    h = hashlib.sha256(f"{binary.parent.name}|{sealed}|{timeout_s!r}|".encode() + spec_text.encode())
    return cache_dir() / "host-runs" / h.hexdigest()[:32]


def _remembered_run(binary: Path, spec_text: str, timeout_s: float) -> _RunOutput | None:
    """The output of the same runner on the same spec, run before (a TilingFunc reads nothing but its spec, in
    its box): every mutant of a kernel, every repair candidate and every rerun shares its tiling runs, a sandboxed
    process each (about 80 ms per case)."""
    entry = _run_key(binary, spec_text, timeout_s)
    if entry is None:
        return None
    meta = reusable(entry, "output.txt", meta_name="meta.json")
    if meta is None:
        return None
    try:
        return _RunOutput((entry / "output.txt").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return None


def _remember_run(binary: Path, spec_text: str, timeout_s: float, res: Any) -> None:
    """Keep a run that ended with the runner's result line (not one that timed out, crashed or was killed)."""
    entry = _run_key(binary, spec_text, timeout_s)
    if (
        entry is None
        or res.timed_out
        or res.signal
        or res.returncode != 0
        or "@@AKGEN_HOST_RESULT@@" not in res.output
    ):
        return
    try:
        tmp = atomic_dir(entry)
        (tmp / "output.txt").write_text(res.output, encoding="utf-8")
        (tmp / "meta.json").write_text(json.dumps({"ok": True}), encoding="utf-8")
        seal(tmp, "output.txt")
        publish(tmp, entry)
    except OSError:  # a cache that cannot be written only costs the next run its time
        return


MAX_WORKSPACE = 16 << 30  # bytes of one workspace the runner may ask for
MAX_TILING_BYTES = 1 << 20


def _bounded(value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{value!r} is not an integer in [{lo}, {hi}]")
    return value


def _inferred(info: Any) -> list[tuple[tuple[int, ...] | None, str | None]]:
    """The host runner's "infer" member as (shape, dtype) per output; [] when the op registers no inference."""
    if not isinstance(info, dict) or (info.get("shape") == "none" and info.get("dtype") == "none"):
        return []
    shape_ok = info.get("shape") == "ok"
    dtype_ok = info.get("dtype") == "ok"
    out: list[tuple[tuple[int, ...] | None, str | None]] = []
    for o in info.get("outputs", []):
        dims = o.get("shape") if shape_ok else None
        shape = tuple(int(d) for d in dims) if isinstance(dims, list) and all(d >= 0 for d in dims) else None
        out.append((shape, ge_dtypes.GE_DTYPES.get(o.get("dtype") or "") if dtype_ok else None))
    return out


def infer_outputs(
    host_source: Path,
    inputs: list[tuple[str, str, tuple[int, ...]]],
    outputs: list[tuple[str, str, tuple[int, ...]]],
    attrs: dict[str, Any],
    op: str | None = None,
    values: dict[str, bytes] | None = None,
    absent: Collection[str] = (),
    timeout_s: float = 30.0,
) -> list[tuple[tuple[int, ...] | None, str | None]] | None:
    """The output shapes and dtypes the op's own InferShape/InferDataType give for these inputs and attributes (as
    the aclnn API allocates its outputs on CANN), one (shape, dtype) per entry of `outputs` (whose shapes are
    placeholders); None when the op_host does not build with its inference sources, registers no inference, or it
    crashes or fails."""
    ht = run_host_tiling(
        host_source, inputs, outputs, attrs, None, op, timeout_s, values, absent, infer=True, tiling=False
    )
    if not ht.ok or not ht.inferred:
        return None
    return ht.inferred

"""Compile a kernel against our headers: `compile_kernel(sources, options) -> Build`. The pieces live beside it: the
glue (`glue.py`), the precompiled header and launcher object (`pch.py`), bisheng-syntax shadow copies (`shadow.py`),
split AIC/AIV passes (`split.py`), the content-hash cache (`build_cache.py`); g++ diagnostics become findings in
`akgen_lsp/logs/gcc.py`.

Cache layout (``cache_dir()``: ``$AKGEN_CACHE_DIR`` or ``platformdirs.user_cache_dir("akgen")``, then ``sim/``):
``pch/<key>/akgen_pch.h(.gch)``, ``launcher/<key>/launcher.o``, ``builds/<key>/{kernel,build.json}``. The build key
hashes the compiler version, flags, our headers and launcher, the generated glue, the sources and every header file
beside them (``*.h``, ``*.hpp``, ``*.inc`` in the sources' folders). Entries are written to a temporary name and
renamed, so concurrent builds never see half a file.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from akgen_lsp.findings import finding_from_json, finding_to_json
from akgen_lsp.logs.fixits import user_file_resolver, with_fixits
from akgen_lsp.logs.gcc import parse_gcc_output
from akgen_lsp.sim.build_cache import (
    SYSTEM_ROOTS,
    atomic_dir,
    build_key,
    cache_dir,
    generated_roots,
    publish,
    read_depfile,
    reusable,
    seal,
    side_headers,
    user_deps,
)
from akgen_lsp.sim.build_types import Build, BuildOptions
from akgen_lsp.sim.compiler import BASE_FLAGS, INCLUDE_DIR, SIM_DIR, find_cxx, run_compiler
from akgen_lsp.sim.glue import generate_glue, variants_possible
from akgen_lsp.sim.pch import ensure_launcher, ensure_pch
from akgen_lsp.sim.repo_layout import kernel_layout, repository_root
from akgen_lsp.sim.shadow import shadow_sources, with_shadow_dirs
from akgen_lsp.sim.split import can_split, infer_core_type


def compile_kernel(sources: Sequence[Path], opts: BuildOptions) -> Build:
    """Compile and link the kernel with the launcher. Never raises for a bad kernel: the Build carries findings."""
    t0 = time.perf_counter()
    cxx = find_cxx()
    sources = tuple(Path(s).resolve() for s in sources)
    user_files = {os.path.normpath(str(s)): str(s) for s in sources}
    for hdr in side_headers(sources, opts.include_dirs):
        user_files[os.path.normpath(str(hdr.resolve()))] = str(hdr.resolve())
    if opts.tiling_header:
        th = opts.tiling_header.resolve()
        user_files[os.path.normpath(str(th))] = str(th)
    flags = [*BASE_FLAGS]
    flags += [f"-D{k}={v}" for k, v in sorted(opts.defines.items())]
    flags += ["-I", str(INCLUDE_DIR)]
    for d in [*opts.include_dirs, *sorted({s.parent for s in sources})]:
        flags += ["-I", str(d)]
    # a kernel of an operator repository: its relative includes of other operators' headers, in CANN's layout
    layout = kernel_layout(sources[0], cache_dir())
    layout_read: list[Path] = []
    if layout is not None:
        flags += ["-I", str(layout / "_")]
        root = repository_root(sources[0])
        layout_read = [layout, *([root] if root else [])]
    core = opts.core_type
    if core is None:
        texts = []
        for f in [*sources, *side_headers(sources, opts.include_dirs)]:
            try:
                texts.append(f.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
        core = infer_core_type(texts, split=can_split(sources, opts.include_dirs))
    variants = tuple(tuple(sorted(v.items())) for v in opts.variants)
    if variants and (core == "mix" or not variants_possible(sources, opts.include_dirs)):
        # a split (MIX) build, or sources with headers of their own: one build per define set (the caller's)
        return Build(
            ok=False,
            binary=None,
            findings=[],
            sources=sources,
            key="",
            seconds=time.perf_counter() - t0,
            log="these sources cannot be built once per define set in one build",
            variants=variants,
        )
    glue_opts = BuildOptions(
        **{
            **opts.__dict__,
            "core_type": core,
            "tiling_header": opts.tiling_header.resolve() if opts.tiling_header else None,
        }
    )
    glue = generate_glue(sources, glue_opts, opts.include_dirs)
    key = build_key(cxx, sources, glue, flags, opts)
    final = cache_dir() / "builds" / key
    meta = reusable(final, "kernel") if opts.use_cache else None
    if meta is not None:
        found = [finding_from_json(f) for f in meta.get("findings", [])]
        binary = final / "kernel" if meta.get("ok") else None
        return Build(
            ok=bool(meta.get("ok")),
            binary=binary,
            findings=found,
            sources=sources,
            key=key,
            cached=True,
            seconds=time.perf_counter() - t0,
            command=meta.get("command", []),
            log=meta.get("log", ""),
            variants=variants,
            deps=tuple(Path(p) for p in meta.get("deps", {})),
        )
    launcher = ensure_launcher(cxx)
    pch_flags: list[str] = []
    if opts.use_pch:
        pch_flags = ["-include", str(ensure_pch(cxx)), "-Winvalid-pch"]
    tmp = atomic_dir(final) if opts.use_cache else Path(tempfile.mkdtemp(prefix="akgen-build-"))
    mirrored = [*opts.include_dirs, *sorted({s.parent for s in sources})]
    compiled, shadow_dirs = shadow_sources(sources, mirrored, tmp / "shadow", host_launches=True)
    if shadow_dirs:
        glue = generate_glue(compiled, glue_opts, mirrored)
        flags = with_shadow_dirs(flags, mirrored, tmp / "shadow")
    (tmp / "glue.cpp").write_text(glue, encoding="utf-8")
    link = ["-fuse-ld=gold"] if shutil.which("ld.gold") else []  # links in a third of the time of ld.bfd
    # -MD: the compiler lists every file it read; their contents are checked before each reuse (build_cache.reusable)
    cmd = [
        cxx,
        *flags,
        *pch_flags,
        *link,
        "-MD",
        "-MF",
        str(tmp / "deps.d"),
        str(tmp / "glue.cpp"),
        str(launcher),
        "-o",
        str(tmp / "kernel"),
    ]
    read = [
        *mirrored,
        *layout_read,
        launcher.parent,
        *(Path(pch_flags[1]).parent for _ in pch_flags[:1]),
        *([opts.tiling_header.resolve().parent] if opts.tiling_header else []),
    ]
    res = run_compiler(cmd, opts.timeout_s, tmp, read)
    log = (res.stderr or "") + (res.stdout or "")
    ok = res.returncode == 0
    findings = (
        []
        if ok
        else with_fixits(
            parse_gcc_output(log, user_files, str(sources[0]), generated_roots()),
            user_file_resolver(user_files),
        )
    )
    if ok and not (tmp / "kernel").is_file():
        ok = False
    deps = user_deps(
        read_depfile(tmp / "deps.d", tmp),
        [SIM_DIR, tmp, cache_dir(), *SYSTEM_ROOTS],
        [*mirrored, *layout_read[1:], *([opts.tiling_header.resolve().parent] if opts.tiling_header else [])],
    )
    meta = {
        "ok": ok,
        "findings": [finding_to_json(f) for f in findings],
        "command": cmd,
        "log": log[-20000:],
        "deps": deps,
        # a header that was not found may be there by the next build: a failure that says so is not reused
        "no_reuse": not ok and "No such file or directory" in log,
    }
    (tmp / "build.json").write_text(json.dumps(meta), encoding="utf-8")
    if ok:
        seal(tmp, "kernel")
    if opts.use_cache:
        publish(tmp, final)
        out_dir = final if final.is_dir() else tmp
    else:
        out_dir = tmp
    return Build(
        ok=ok,
        binary=(out_dir / "kernel") if ok else None,
        findings=findings,
        sources=sources,
        key=key,
        cached=False,
        seconds=time.perf_counter() - t0,
        command=cmd,
        log=log,
        variants=variants,
        deps=tuple(Path(p) for p in deps),
    )

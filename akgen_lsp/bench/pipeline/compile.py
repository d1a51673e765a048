"""The compile stage on the sim toolchain: the build options come from the case's manifest (defines, the kernel's
signature, the tiling header), and a candidate is compiled once per distinct set of them (once per dtype set), so
its cases share their builds; the dtype sets after the first are compiled together, in one build of several define
sets (`compile_variants`), where the sources allow it."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from pathlib import Path

from akgen_lsp.bench.pipeline.record import RunSettings, Timings, _finding
from akgen_lsp.findings import Finding
from akgen_lsp.sim.build_types import Build, BuildOptions
from akgen_lsp.sim.manifest import Manifest
from akgen_lsp.sim.toolchain import SimToolchain, options_for


def compile_case(
    tool: SimToolchain,
    manifest: Manifest,
    settings: RunSettings,
    builds: dict[str, Build],
    kernel: Path,
    findings: list[Finding],
    tm: Timings,
) -> Build | None:
    """The build of the case's kernel (from `builds` when the candidate was built with the same options already), or
    None when the toolchain itself failed (g++ missing, the cache unwritable: a BENCH-TOOLCHAIN finding added). A
    build that failed is returned as it is: its findings say why."""
    opts = _options(manifest, settings)
    bkey = _key(opts)
    t0 = time.perf_counter()
    build = builds.get(bkey)
    if build is None:
        try:
            build = tool.compile(manifest.sources, opts)
        except Exception as exc:  # ToolchainError: g++ missing or the cache unwritable
            findings.append(_finding("BENCH-TOOLCHAIN", str(exc), str(kernel), "toolchain"))
            tm.compile += time.perf_counter() - t0
            return None
        builds[bkey] = build
    tm.compile += time.perf_counter() - t0
    return build


def has_build(manifest: Manifest, settings: RunSettings, builds: dict[str, Build]) -> bool:
    """Whether `builds` has the build of the case of `manifest` already."""
    return _key(_options(manifest, settings)) in builds


def _options(manifest: Manifest, settings: RunSettings) -> BuildOptions:
    return dataclasses.replace(options_for(manifest), timeout_s=settings.compile_timeout_s)


def _key(opts: BuildOptions) -> str:
    return repr(sorted(opts.defines.items())) + repr(opts.signature) + str(opts.tiling_header)


def compile_variants(
    tool: SimToolchain,
    manifests: Sequence[Manifest],
    settings: RunSettings,
    builds: dict[str, Build],
    tm: Timings,
) -> None:
    """One build for every define set of `manifests` (the cases still to run) not built yet, when there are two or
    more and they differ in their defines only: each set a variant of it (`BuildOptions.variants`), registered in
    `builds` under each set's own key, so `compile_case` finds it. A build that fails or cannot be made is left out:
    the cases then build one set at a time, and a compile error is reported for its own dtype."""
    todo: dict[str, tuple[BuildOptions, Manifest]] = {}
    for m in manifests:
        opts = _options(m, settings)
        if (key := _key(opts)) not in builds:
            todo.setdefault(key, (opts, m))
    if len(todo) < 2:
        return
    (first, m0), *rest = todo.values()
    if any(
        o.signature != first.signature
        or o.tiling_header != first.tiling_header
        or o.tiling_struct != first.tiling_struct
        or list(o.include_dirs) != list(first.include_dirs)
        or list(m.sources) != list(m0.sources)
        for o, m in rest
    ):
        return
    sets = [o.defines for o, _ in todo.values()]
    common = {k: v for k, v in first.defines.items() if all(d.get(k) == v for d in sets)}
    variants = [{k: v for k, v in d.items() if k not in common} for d in sets]
    t0 = time.perf_counter()
    try:
        build = tool.compile(m0.sources, dataclasses.replace(first, defines=common, variants=variants))
    except Exception:  # the toolchain itself: the cases' own builds say what is wrong
        return
    finally:
        tm.compile += time.perf_counter() - t0
    if build.ok:
        builds.update(dict.fromkeys(todo, build))

"""The values of a sim build: what it depends on besides the sources (`BuildOptions`) and what it gave (`Build`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.findings import Finding


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
    core_type: str | None = None  # "aic" / "aiv": one pass (g_coreType); "mix": both; None: infer_core_type
    # several define sets in one build (`defines` holds what they share): the sources once per set, each in a
    # namespace of its own, the run choosing one (`variant N` in its spec; sim/glue.py). One set per dtype set of a
    # task's cases: one compile instead of one per dtype.
    variants: Sequence[Mapping[str, str]] = ()


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
    variants: tuple[tuple[tuple[str, str], ...], ...] = ()  # BuildOptions.variants, each as sorted items
    # the user's files the compiler read (its -MD dependency list less the system's, ours and the build's own): the
    # kernel's own files, wherever they are (a header of a sibling folder included as "../inc/platform.h")
    deps: tuple[Path, ...] = ()

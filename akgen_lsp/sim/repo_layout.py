"""The kernel-side folder layout of CANN's operator repositories (hicann/ops-math, ops-nn), which their kernels'
relative includes assume.

CANN's build copies each operator's `op_kernel/` to `<ascendc>/<op>/` and the repository's `common/inc/op_kernel/`
to `<ascendc>/inc/` (ops-nn also `conv/common/op_kernel/*` and `matmul/common/cmct` to `<ascendc>/common/`), so a
kernel writes `#include "../inc/platform.h"` or `#include "../foreach_utils/foreach_triangle.h"` for a header of
another operator. In the checkout those paths do not exist. A kernel build of a source inside such a repository
gets a folder of links in that shape (`kernel_layout`), in the sim cache, and `-I <layout>/_` after its own include
folders: g++ then finds `<layout>/_/../foreach_utils/foreach_triangle.h`, a link to the operator's real header. The
kernel's own files are never copied or changed; findings and the build's dependency list resolve the links to the
real files.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_memo: dict[str, Path | None] = {}


def repository_root(source: Path) -> Path | None:
    """The operator repository a kernel source is in: its `op_kernel` folder sits at `<category>/<op>/op_kernel`
    (or deeper, `experimental/...`) under a folder with `cmake/`, `common/` and `build.sh`; None otherwise."""
    parts = source.resolve().parts
    if "op_kernel" not in parts:
        return None
    i = len(parts) - 1 - parts[::-1].index("op_kernel")
    for j in range(i - 2, 0, -1):
        root = Path(*parts[:j])
        if (root / "cmake").is_dir() and (root / "common").is_dir() and (root / "build.sh").is_file():
            return root
    return None


def _entries(root: Path) -> dict[str, Path]:
    """Layout name -> real folder: each operator's op_kernel under the operator's name (the first one found for a
    name, outside tests/ and build folders), `inc` and `common` as CANN's build makes them."""
    found: dict[str, Path] = {}
    for dirpath, dirnames, _files in os.walk(root):
        rel = Path(dirpath).relative_to(root)
        if rel.parts and rel.parts[0] in (
            "tests",
            "build",
            "build_out",
            "output",
            ".git",
            "docs",
            "examples",
        ):
            dirnames[:] = []
            continue
        if "op_kernel" in dirnames and len(rel.parts) >= 2:
            found.setdefault(Path(dirpath).name, Path(dirpath) / "op_kernel")
        dirnames[:] = [
            d for d in dirnames if d not in ("op_kernel", "op_host", "op_api", "op_graph", "tests")
        ]
    inc = root / "common" / "inc" / "op_kernel"
    if inc.is_dir():
        found["inc"] = inc
    return found


def kernel_layout(source: Path, cache: Path) -> Path | None:
    """The folder to add as `-I <layout>/_` for a kernel source of an operator repository (made once per
    repository and kept in `cache`), or None for a source elsewhere."""
    root = repository_root(source)
    if root is None:
        return None
    key = str(root)
    if key in _memo and (_memo[key] is None or (_memo[key] / "_").is_dir()):  # type: ignore[operator]
        return _memo[key]
    layout = cache / "layouts" / hashlib.sha256(key.encode()).hexdigest()[:24]
    if not (layout / "_").is_dir():
        tmp = layout.with_name(layout.name + f".tmp{os.getpid()}")
        tmp.mkdir(parents=True, exist_ok=True)
        for name, target in _entries(root).items():
            if name not in ("common", "_"):
                os.symlink(target, tmp / name)
        common = tmp / "common"  # ops-nn: conv/common/op_kernel/* and matmul/common/cmct
        for src in (root / "conv" / "common" / "op_kernel",):
            if src.is_dir():
                common.mkdir(exist_ok=True)
                for e in src.iterdir():
                    if not (common / e.name).exists():
                        os.symlink(e, common / e.name)
        cmct = root / "matmul" / "common" / "cmct"
        if cmct.is_dir():
            common.mkdir(exist_ok=True)
            if not (common / "cmct").exists():
                os.symlink(cmct, common / "cmct")
        (tmp / "_").mkdir()
        try:
            os.replace(tmp, layout)
        except OSError:  # another build made it first
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)
    _memo[key] = layout
    return layout

"""Fixtures for the simulator tests: one build cache for the whole session (compiles are slow on 2 cores), and a
helper that writes a manifest with numpy inputs and runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

KERNELS = Path(__file__).resolve().parent / "kernels"

needs_gxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")


INCLUDE = Path(__file__).resolve().parents[2] / "akgen_lsp" / "sim" / "include"


def build_host_program(folder: Path, source: str, name: str = "h") -> Path:
    """Compile `source`, a host C++ program against the simulator's host headers (tiling functions, tmp sizes), in
    `folder`; returns the executable."""
    gxx = shutil.which("g++")
    assert gxx
    (folder / f"{name}.cpp").write_text(source, encoding="utf-8")
    subprocess.run([gxx, "-std=c++20", "-I", str(INCLUDE), f"{name}.cpp", "-o", name], cwd=folder, check=True,
                   capture_output=True)
    return folder / name


def run_host_program(folder: Path, source: str, name: str = "h") -> subprocess.CompletedProcess[str]:
    """Build `source` (build_host_program) and run it; its stdout/stderr as text."""
    return subprocess.run([str(build_host_program(folder, source, name))], capture_output=True, text=True, check=True)


@pytest.fixture(scope="session", autouse=True)
def sim_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("akgen-cache")
    old = os.environ.get("AKGEN_CACHE_DIR")
    os.environ["AKGEN_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("AKGEN_CACHE_DIR", None)
    else:
        os.environ["AKGEN_CACHE_DIR"] = old


def marker_line(path: Path, code: str) -> int:
    """The 1-based line carrying `// EXPECT <code>`."""
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if f"EXPECT {code}" in line:
            return i
    raise AssertionError(f"no EXPECT {code} marker in {path}")


def assert_finding_at(res: Any, code: str, source: Path) -> Any:
    """The first finding of `code` in a sim result; it must exist and point at the line marked `// EXPECT <code>`."""
    hits = [f for f in res.findings if f.code == code]
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.line == marker_line(source, code), (hits[0].span.line, hits[0].message)
    return hits[0]


ManifestWriter = Callable[..., Path]


@pytest.fixture
def write_manifest(tmp_path: Path) -> ManifestWriter:
    """write_manifest(source, kernel, args=[...], block_dim=1, defines={}, inputs={name: array}) -> manifest path.

    `args` entries are manifest arg objects; for inputs give {"name": n, "input": array} and the array is saved."""

    def write(source: Path, kernel: str, args: list[dict[str, Any]], block_dim: int = 1,
              defines: dict[str, str] | None = None, **extra: Any) -> Path:
        out_args = []
        for a in args:
            a = dict(a)
            if isinstance(a.get("input"), np.ndarray):
                p = tmp_path / f"{a['name']}.npy"
                np.save(p, a["input"])
                a["input"] = p.name
            out_args.append(a)
        # a source inside the manifest's folder is named relatively, so the manifest passes confinement (the CLI)
        name = source.name if source.parent == tmp_path else str(source)
        data = {"sources": [name], "kernel": kernel, "block_dim": block_dim, "arch": "Ascend910B2",
                "defines": defines or {}, "args": out_args, **extra}
        path = tmp_path / "manifest.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        return path

    return write


from .hostile import layout  # noqa: E402, F401  (the hostile suite's fixture)

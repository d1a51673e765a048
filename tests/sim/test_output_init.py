"""An output with initial content (manifest ``"init"``): a ref output (an OpDef output named like an input) shares
its input's buffer on CANN, so a kernel that writes only part of it leaves the input's values in the rest."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.manifest import ManifestError, load_manifest

from .conftest import KERNELS, needs_gxx

SRC = KERNELS / "output_init.cpp"


def _args(tmp_path: Path, init: np.ndarray | None) -> list[dict]:
    x = np.arange(8, dtype=np.float32) + 1
    out: dict = {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [64]}
    if init is not None:
        np.save(tmp_path / "init.npy", init)
        out["init"] = str(tmp_path / "init.npy")
    return [{"name": "x", "input": x}, out]


@needs_gxx
def test_an_output_starts_with_its_init_values(write_manifest, tmp_path: Path) -> None:
    init = np.linspace(-5, 5, 64, dtype=np.float32)
    res = run_manifest(write_manifest(SRC, "output_init", _args(tmp_path, init)), tmp_path / "out", confine=False)
    assert res.status == "ok", [f.message for f in res.findings if f.severity is Severity.ERROR]
    y = np.load(res.outputs["y"])
    want = init.copy()
    want[8:16] = (np.arange(8, dtype=np.float32) + 1) * 2
    np.testing.assert_array_equal(y, want)
    np.testing.assert_array_equal(np.load(tmp_path / "init.npy"), init)  # the init file itself is not written


def test_an_init_of_another_size_is_refused(write_manifest, tmp_path: Path) -> None:
    path = write_manifest(SRC, "output_init", _args(tmp_path, np.zeros(63, np.float32)))
    with pytest.raises(ManifestError, match="init"):
        load_manifest(path, confine=False)

"""The launcher reads an input's .npy file in place (from its data offset, the file shown read-only in the kernel's
box) when the file holds exactly the bytes the kernel takes: no raw copy is written for every run (the add sample's
two 6 MB inputs were loaded and written again on every save). Any other file (Fortran order, another dtype, bytes
after the data) still gets a raw copy, and both run the same."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.runner import npy_data_offset

from .conftest import KERNELS, needs_gxx

ADD = KERNELS / "add_queue.cpp"


def test_the_data_offset_of_an_npy_file(tmp_path: Path) -> None:
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    p = tmp_path / "x.npy"
    np.save(p, x)
    off = npy_data_offset(p, np.dtype(np.float32), x.nbytes)
    assert off is not None and p.read_bytes()[off:] == x.tobytes()
    assert npy_data_offset(p, np.dtype(np.float16), x.nbytes) is None  # another element type: converted
    assert npy_data_offset(p, np.dtype(np.float32), x.nbytes - 4) is None  # not the bytes the kernel takes
    np.save(p, np.asfortranarray(x))
    assert npy_data_offset(p, np.dtype(np.float32), x.nbytes) is None  # Fortran order: copied in C order
    np.save(p, x)
    with p.open("ab") as fh:
        fh.write(b"\0" * 4)
    assert npy_data_offset(p, np.dtype(np.float32), x.nbytes) is None  # bytes after the data
    p.write_bytes(b"not an npy file")
    assert npy_data_offset(p, np.dtype(np.float32), 15) is None


@needs_gxx
@pytest.mark.parametrize("fortran", [False, True])
def test_inputs_read_in_place_or_copied_give_the_same_result(write_manifest, tmp_path: Path, fortran: bool) -> None:
    rng = np.random.default_rng(1)
    n = 4 * 2048
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal((64, n // 64)).astype(np.float32)
    y_in = np.asfortranarray(y) if fortran else y  # a Fortran-order file is copied; the kernel sees C order either way
    m = write_manifest(ADD, "add_custom", [
        {"name": "x", "input": x}, {"name": "y", "input": y_in},
        {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [n]},
        {"name": "n", "scalar": n, "type": "uint32_t"}, {"name": "t", "scalar": 4, "type": "uint32_t"}],
        block_dim=4, defines={"DTYPE_X": "float"})
    res = run_manifest(m, tmp_path / "out", confine=False)  # the kernel in its box: it sees the inputs read-only
    assert res.status == "ok", [f.message for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["z"]), x + y.reshape(-1))
    assert (npy_data_offset(tmp_path / "y.npy", np.dtype(np.float32), y.nbytes) is None) == fortran

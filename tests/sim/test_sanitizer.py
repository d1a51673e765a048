"""The compute-sanitizer-style checks, each a warning at its line with its CWE (kernels/sanitizer.cpp): initcheck of
UB (a vector op reading UB nothing wrote, CWE-457) and of GM (reading a workspace nothing wrote), racecheck (two blocks
writing the same GM bytes with no SyncAll between, CWE-362; none across a barrier), an output whose bytes no block
wrote (CWE-909: a warning where it is certain, an information for an output the caller does not compare or one the
kernel also writes through raw pointers), synccheck (a SetFlag without its WaitFlag at kernel end, CWE-662); a clean run has none, and an
in-place op reads the bytes written before it. The same in cpu-debug check mode. `sanitize 0` in the run spec turns
them off (manifest `sanitize: false`: the cost benchmark's baseline)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, load_manifest, run_manifest
from akgen_lsp.sim.manifest import ManifestError

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "sanitizer.cpp"
N = 256
CHECKS = {"SIM-INIT-UB", "SIM-INIT-GM", "SIM-GM-OVERLAP", "SIM-GM-UNWRITTEN", "SIM-SYNC-UNPAIRED"}


def run(write_manifest, tmp_path: Path, mode: int, checks: str = "npu", sanitize: bool = True,
        compared: bool = True) -> SimResult:
    x = np.arange(2 * N, dtype=np.float32)
    z: dict[str, object] = {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [2 * N]}
    if not compared:
        z["compared"] = False
    m = write_manifest(SRC, "sanitizer", [
        {"name": "x", "input": x}, z,
        {"name": "w", "workspace_bytes": 2 * N * 4}, {"name": "mode", "scalar": mode, "type": "int32_t"},
    ], block_dim=2, checks=checks, sanitize=sanitize)
    res = run_manifest(m, tmp_path / f"out{mode}{checks}", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    return res


def only(res: SimResult, code: str) -> None:
    hits = [f for f in res.findings if f.code in CHECKS]
    assert [f.code for f in hits] == [code], [(f.code, f.message) for f in res.findings]
    f = hits[0]
    assert f.severity is Severity.WARNING, (f.code, f.message)
    assert f.span.line == marker_line(SRC, code), (f.span.line, f.message)


@pytest.mark.parametrize("mode", [0, 7])
def test_a_clean_kernel_has_no_sanitizer_finding(write_manifest, tmp_path: Path, mode: int) -> None:
    res = run(write_manifest, tmp_path, mode)
    assert not [f for f in res.findings if f.code in CHECKS], [(f.code, f.message) for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["z"]), np.arange(2 * N, dtype=np.float32) + 1)


@pytest.mark.parametrize("checks", ["npu", "cpu-debug"])
@pytest.mark.parametrize("mode,code,cwe", [(1, "SIM-INIT-UB", 457), (2, "SIM-INIT-GM", 457),
                                           (3, "SIM-GM-OVERLAP", 362), (5, "SIM-GM-UNWRITTEN", 909),
                                           (6, "SIM-SYNC-UNPAIRED", 662)])
def test_each_check_warns_at_its_line_with_its_cwe(write_manifest, tmp_path: Path, mode: int, code: str, cwe: int,
                                                   checks: str) -> None:
    res = run(write_manifest, tmp_path, mode, checks)
    only(res, code)
    assert next(f for f in res.findings if f.code == code).data["cwe"] == cwe


def test_writes_on_either_side_of_a_barrier_do_not_race(write_manifest, tmp_path: Path) -> None:
    res = run(write_manifest, tmp_path, 4)
    assert not [f for f in res.findings if f.code == "SIM-GM-OVERLAP"], [(f.code, f.message) for f in res.findings]


def test_unwritten_output_names_the_bytes(write_manifest, tmp_path: Path) -> None:
    res = run(write_manifest, tmp_path, 5)
    f = next(f for f in res.findings if f.code == "SIM-GM-UNWRITTEN")
    assert "512 of the 2048 bytes of output 'z'" in f.message and "byte 1536" in f.message


def test_an_unwritten_output_is_an_information_where_it_is_not_certain(write_manifest, tmp_path: Path) -> None:
    # the caller does not compare the output (a scratch output the task does not return)
    res = run(write_manifest, tmp_path, 5, compared=False)
    f = next(f for f in res.findings if f.code == "SIM-GM-UNWRITTEN")
    assert f.severity is Severity.INFO and "does not compare" in f.message, f.message
    # the kernel writes part of the output through a raw pointer: what the simulator sees as unwritten may not be
    res = run(write_manifest, tmp_path, 8)
    f = next(f for f in res.findings if f.code == "SIM-GM-UNWRITTEN")
    assert f.severity is Severity.INFO and "raw pointers" in f.message, f.message
    # the bytes the raw pointer wrote are not counted as unwritten
    assert "508 of the 2048 bytes of output 'z'" in f.message and "byte 2044" in f.message, f.message
    assert np.load(res.outputs["z"])[-1] == np.float32(1.1)


def test_a_bad_compared_field_is_a_manifest_error(write_manifest, tmp_path: Path) -> None:
    m = write_manifest(SRC, "sanitizer", [
        {"name": "x", "input": np.zeros(2 * N, np.float32)},
        {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [2 * N], "compared": "no"},
        {"name": "w", "workspace_bytes": 2 * N * 4}, {"name": "mode", "scalar": 0, "type": "int32_t"}], block_dim=2)
    with pytest.raises(ManifestError, match=r"args\[1\].*compared: expected true or false"):
        load_manifest(m, confine=False)


def test_sanitize_false_turns_them_off(write_manifest, tmp_path: Path) -> None:
    res = run(write_manifest, tmp_path, 1, sanitize=False)
    assert not [f for f in res.findings if f.code == "SIM-INIT-UB"]

"""The cost model's GM side and UB banks (launcher/charge.inc, arch profile [cost.dma]): a DMA instruction's fixed
cost, unaligned bursts, L2 reuse and its bypass, cores reading the same addresses at once, and two-source vector
reads in one bank group. Each compares two runs of one kernel that differ in that respect only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx

BYPASS, SHARED, STAGGER = 1, 2, 4


def gm_pattern(write_manifest, tmp_path: Path, name: str, *, blocks: int = 1, rows: int = 64, cols: int = 1024,
               tile: tuple[int, int] = (64, 1024), passes: int = 1, flags: int = 0) -> dict[str, Any]:
    x = np.zeros(blocks * rows * cols, dtype=np.float16)
    m = write_manifest(KERNELS / "gm_pattern.cpp", "gm_pattern", [
        {"name": "x", "input": x}, {"name": "y", "output": "y.npy", "dtype": "float16", "shape": [blocks * 16]},
        {"name": "rows", "scalar": rows, "type": "uint32_t"}, {"name": "cols", "scalar": cols, "type": "uint32_t"},
        {"name": "tileRows", "scalar": tile[0], "type": "uint32_t"},
        {"name": "tileCols", "scalar": tile[1], "type": "uint32_t"},
        {"name": "passes", "scalar": passes, "type": "uint32_t"}, {"name": "flags", "scalar": flags, "type": "uint32_t"},
    ], block_dim=blocks)
    res = run_manifest(m, tmp_path / name, confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    return res.estimate


def test_many_small_copies_cost_more_than_few_large(write_manifest, tmp_path: Path) -> None:
    # the same 128 KiB: 1024 copies of 128 bytes vs one of 64 rows x 2 KiB (asc-devkit data_copy Scenarios 1 / 3)
    small = gm_pattern(write_manifest, tmp_path, "small", tile=(1, 64))
    large = gm_pattern(write_manifest, tmp_path, "large", tile=(64, 1024))
    assert small["us"] > 1.5 * large["us"], (small["us"], large["us"])


def test_unaligned_rows_cost_an_extra_request_each(write_manifest, tmp_path: Path) -> None:
    # rows of 1023 halves start at 2-byte-aligned GM addresses: 510-byte bursts cost about twice the 512-byte ones
    aligned = gm_pattern(write_manifest, tmp_path, "aligned", cols=1024, tile=(64, 256))
    unaligned = gm_pattern(write_manifest, tmp_path, "unaligned", cols=1023, tile=(64, 255))
    assert unaligned["us"] > 1.5 * aligned["us"], (aligned["us"], unaligned["us"])
    assert unaligned["hbm_bytes"] > aligned["hbm_bytes"]


def test_rereads_hit_the_l2_unless_bypassed(write_manifest, tmp_path: Path) -> None:
    # 128 KiB read four times: from HBM once and then from the L2; with CACHE_MODE_DISABLE four times from HBM
    cached = gm_pattern(write_manifest, tmp_path, "cached", passes=4)
    bypass = gm_pattern(write_manifest, tmp_path, "bypass", passes=4, flags=BYPASS)
    assert bypass["us"] > 1.4 * cached["us"], (cached["us"], bypass["us"])
    assert bypass["hbm_bytes"] == 4 * 64 * 1024 * 2 and cached["hbm_bytes"] == 64 * 1024 * 2


def test_cores_reading_the_same_addresses_at_once_wait(write_manifest, tmp_path: Path) -> None:
    # 8 blocks read the same 8 row tiles: all in the same order vs each starting at its own tile (data_copy 7 / 8)
    same = gm_pattern(write_manifest, tmp_path, "same", blocks=8, rows=16, tile=(16, 1024), flags=SHARED | BYPASS)
    staggered = gm_pattern(write_manifest, tmp_path, "staggered", blocks=8, rows=16, tile=(16, 1024),
                           flags=SHARED | BYPASS | STAGGER)
    assert same["hbm_bytes"] == staggered["hbm_bytes"]
    assert same["us"] > 1.1 * staggered["us"], (same["us"], staggered["us"])


def bank_add_pipes(write_manifest, tmp_path: Path, off: int, **defines: str) -> dict[str, float]:
    """Each pipe's busy time (us) of bank_add.cpp with y `off` bytes after a 32 KiB multiple; its numbers checked."""
    n = 4096
    x = np.arange(n, dtype=np.float32)
    name = f"{off}{''.join(defines)}"
    m = write_manifest(KERNELS / "bank_add.cpp", "bank_add", [
        {"name": "x", "input": x}, {"name": "y", "input": x},
        {"name": "z", "output": f"z{name}.npy", "dtype": "float32", "shape": [n]},
        {"name": "n", "scalar": n, "type": "uint32_t"}], defines={"Y_OFFSET": str(off), **defines})
    res = run_manifest(m, tmp_path / f"bank{name}", confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    assert np.array_equal(np.load(res.outputs["z"]), 2 * x)
    return {p: v["busy_us"] for p, v in res.estimate["pipes"].items()}


def test_two_sources_in_one_bank_group_take_twice_the_vector_time(write_manifest, tmp_path: Path) -> None:
    busy = {off: bank_add_pipes(write_manifest, tmp_path, off)["V"] for off in (0, 256)}
    assert 1.7 < busy[0] / busy[256] < 2.1, busy


def test_a_copy_alongside_a_bank_conflict_waits_for_it(write_manifest, tmp_path: Path) -> None:
    # the beats a two-source op's bank conflict adds hold UB, and an MTE2 copy running alongside waits as long
    # (asc-devkit add_high_performance Case 5 -> 6: with the conflict gone, MTE2 176.0 -> 171.6 us, MTE3 160 -> 121)
    pipes = {off: bank_add_pipes(write_manifest, tmp_path, off, ALONGSIDE="1") for off in (0, 256)}
    held = pipes[0]["V"] - pipes[256]["V"]  # the conflict's extra beats
    assert held > 0
    assert pipes[0]["MTE2"] - pipes[256]["MTE2"] == pytest.approx(held, rel=0.05), pipes
    assert pipes[0]["MTE3"] == pytest.approx(pipes[256]["MTE3"], rel=1e-6)  # the copy out comes after a barrier

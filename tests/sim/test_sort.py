"""The sort APIs (vec_sort.h) against numpy: Region Proposals on Ascend310P (ProposalConcat, RpSort16, MrgSort4,
ProposalExtract), (score, index) pairs on A2/A3 (Sort32, MrgSort, GetMrgSortResult), and each generation's APIs
refused on the other."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "sort_ops.cpp"


def _descending(scores: np.ndarray) -> np.ndarray:
    """Indices of a stable descending sort (ties: the earlier element first)."""
    return np.argsort(-scores.astype(np.float64), kind="stable")


def _proposal_args(x: np.ndarray) -> list[dict]:
    return [{"name": "x", "input": x}, {"name": "idx", "input": np.arange(64, dtype=np.float16)},
            {"name": "y", "output": "y.npy", "dtype": "float16", "shape": [64]},
            {"name": "lab", "output": "lab.npy", "dtype": "float16", "shape": [64]}]


def test_proposal_sort_on_310p(write_manifest, tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(-20, 20, 64).astype(np.float16)  # many ties: the order among equal scores is checked too
    res = run_manifest(write_manifest(SRC, "proposal_sort", _proposal_args(x), arch="Ascend310P"), tmp_path, confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    order = _descending(x)
    assert np.array_equal(np.load(res.outputs["y"]), x[order])
    assert np.array_equal(np.load(res.outputs["lab"]).astype(np.int64), order)


def test_proposal_apis_refused_on_a2(write_manifest, tmp_path: Path) -> None:
    x = np.zeros(64, dtype=np.float16)
    res = run_manifest(write_manifest(SRC, "proposal_sort", _proposal_args(x)), tmp_path, confine=False)
    bad = [f for f in res.findings if f.code == "SIM-ARCH-API"]
    assert res.status == "runtime_error" and bad, [f.message for f in res.findings]
    assert bad[0].span.line == marker_line(SRC, "SIM-ARCH-API")
    assert "ProposalConcat is not supported on current device (Ascend910B2" in bad[0].message


def _pair_args(x: np.ndarray) -> list[dict]:
    return [{"name": "x", "input": x}, {"name": "idx", "input": np.arange(128, dtype=np.uint32)},
            {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [256]}]


def test_sort32_and_mrgsort_on_a2(write_manifest, tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    x = np.round(rng.standard_normal(128), 1).astype(np.float32)
    res = run_manifest(write_manifest(SRC, "pair_sort", _pair_args(x)), tmp_path, confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    pairs = np.load(res.outputs["y"])
    order = _descending(x)
    assert np.array_equal(pairs[0::2], x[order])
    assert np.array_equal(pairs[1::2].view(np.uint32), order.astype(np.uint32))


def test_sort32_refused_on_310p(write_manifest, tmp_path: Path) -> None:
    x = np.zeros(128, dtype=np.float32)
    res = run_manifest(write_manifest(SRC, "pair_sort", _pair_args(x), arch="Ascend310P"), tmp_path, confine=False)
    bad = [f for f in res.findings if f.code == "SIM-ARCH-API"]
    assert res.status == "runtime_error" and bad, [f.message for f in res.findings]
    assert bad[0].span.line == marker_line(SRC, "SORT32-ARCH")
    assert "Sort32 is not supported on current device (Ascend310P" in bad[0].message


@pytest.mark.parametrize("lens", [(5, 20, 30), (30, 3, 12)])
def test_mrgsort_suspension_stops_at_the_first_exhausted_queue(write_manifest, tmp_path: Path,
                                                                lens: tuple[int, int, int]) -> None:
    rng = np.random.default_rng(sum(lens))
    x = np.zeros(192, dtype=np.float32)
    queues = []
    for q, n in enumerate(lens):
        s = -np.sort(-rng.standard_normal(n).astype(np.float32))
        x[q * 64:q * 64 + 2 * n:2] = s
        x[q * 64 + 1:q * 64 + 2 * n:2] = np.arange(n, dtype=np.uint32).view(np.float32)  # index bits
        queues.append(s)
    args = [{"name": "x", "input": x}, {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [192]},
            {"name": "cnt", "output": "cnt.npy", "dtype": "int32", "shape": [8]},
            {"name": "l0", "scalar": lens[0], "type": "uint32_t"}, {"name": "l1", "scalar": lens[1], "type": "uint32_t"},
            {"name": "l2", "scalar": lens[2], "type": "uint32_t"}]
    res = run_manifest(write_manifest(SRC, "pair_merge_suspend", args), tmp_path, confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    # numpy reference: a 3-way merge (lower queue first on ties) that stops when a queue is used up
    used = [0, 0, 0]
    merged: list[float] = []
    while all(used[q] < lens[q] for q in range(3)):
        q = max(range(3), key=lambda k: (queues[k][used[k]], -k))
        merged.append(float(queues[q][used[q]]))
        used[q] += 1
    cnt = np.load(res.outputs["cnt"])
    assert list(cnt[:4]) == [*used, 0]
    y = np.load(res.outputs["y"])
    assert np.array_equal(y[0:2 * len(merged):2], np.array(merged, dtype=np.float32))
    assert not y[2 * len(merged):].any()


def test_mrgsort_overlap_refused(write_manifest, tmp_path: Path) -> None:
    x = np.zeros(256, dtype=np.float32)
    args = [{"name": "x", "input": x}, {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [256]}]
    res = run_manifest(write_manifest(SRC, "pair_merge_overlap", args), tmp_path, confine=False)
    bad = [f for f in res.findings if f.code == "SIM-OVERLAP"]
    assert res.status == "runtime_error" and bad, [f.message for f in res.findings]
    assert bad[0].span.line == marker_line(SRC, "SIM-OVERLAP")


@pytest.mark.parametrize("arch", ["Ascend910B2", "Ascend310P"])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_concat_full_sort_extract(write_manifest, tmp_path: Path, arch: str, dtype: str) -> None:
    rng = np.random.default_rng(11)
    x = rng.integers(-30, 30, 128).astype(dtype)  # ties across groups: the full sort is stable
    args = [{"name": "x", "input": x}, {"name": "idx", "input": np.arange(128, dtype=np.uint32) * 3 + 70000},
            {"name": "y", "output": "y.npy", "dtype": dtype, "shape": [128]},
            {"name": "yi", "output": "yi.npy", "dtype": "uint32", "shape": [128]}]
    kernel = "full_sort_float" if dtype == "float32" else "full_sort_half"
    res = run_manifest(write_manifest(SRC, kernel, args, arch=arch), tmp_path, confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    order = _descending(x)
    assert np.array_equal(np.load(res.outputs["y"]), x[order])
    assert np.array_equal(np.load(res.outputs["yi"]), (order * 3 + 70000).astype(np.uint32))

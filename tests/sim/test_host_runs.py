"""A TilingFunc run is remembered (akgen_lsp/sim/host.py, ``host-runs/`` of the sim cache): the same runner on the
same spec is answered from the cache, without a sandboxed process; another spec runs. Uses kernels/scale_op."""

from __future__ import annotations

import struct
import time

import pytest

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.sim import host
from akgen_lsp.sim.host import run_host_tiling

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx

HOST = KERNELS / "scale_op" / "op_host" / "scale.cpp"


def test_the_same_spec_is_answered_without_a_run_and_another_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[list[str]] = []
    real = host.run_confined

    def counted(argv, policy, **kw):  # the real box, counted
        runs.append(list(argv))
        return real(argv, policy, **kw)

    monkeypatch.setattr(host, "run_confined", counted)
    alpha = float(time.time_ns() % 1_000_000) / 8  # a spec no earlier run had

    def tiling(a: float):
        res = run_host_tiling(HOST, [("x", "float32", (8, 512))], [("y", "float32", (8, 512))],
                              {"alpha": a, "plus_one": True}, load_arch("Ascend910B2"), op="Scale")
        assert res.ok, [f.message for f in res.findings]
        return res

    first = tiling(alpha)
    assert len(runs) == 1 and struct.unpack_from("<f", first.tiling, 4)[0] == alpha
    again = tiling(alpha)
    assert len(runs) == 1  # remembered
    assert (again.tiling, again.block_dim, again.tiling_key, again.workspace) == (
        first.tiling, first.block_dim, first.tiling_key, first.workspace)
    other = tiling(alpha + 1.0)
    assert len(runs) == 2 and struct.unpack_from("<f", other.tiling, 4)[0] == alpha + 1.0

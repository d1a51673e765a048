"""A core's memories and stack are reused from block to block and launch to launch (launcher/fibers.inc): each block
still starts fresh, with UB all-ones, the initcheck shadow cleared and no VA register set (a program of three
launches of two blocks, tests/sim/programs/block_reuse.asc)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim.program import run_program

from .conftest import marker_line, needs_gxx

pytestmark = needs_gxx

PROGRAM = Path(__file__).resolve().parent / "programs" / "block_reuse.asc"


def test_every_block_of_every_launch_starts_fresh_on_reused_memory(tmp_path: Path) -> None:
    res = run_program(PROGRAM, tmp_path)
    assert res.exit_code == 0, res.stdout
    assert [(ln["blocks"], ln["failed_blocks"]) for ln in res.launches] == [(2, 0), (2, 1), (2, 0)]
    raw = np.fromfile(tmp_path / "raw.bin", dtype=np.uint16).reshape(3, 2, 256)
    # every block read all-ones, none the 0x1234 + ... an earlier block on the same memory left
    assert (raw == 0xFFFF).all(), np.unique(raw)
    unset = [f for f in res.findings if f.code == "SIM-VA-UNSET"]
    assert unset and unset[0].span.line == marker_line(PROGRAM, "SIM-VA-UNSET")
    # the initcheck shadow is cleared per block: block 1, on the memory block 0 had written, reports the read too
    uninit = [f for f in res.findings if f.code == "SIM-INIT-UB"]
    assert uninit and uninit[0].span.line == marker_line(PROGRAM, "SIM-INIT-UB"), [f.code for f in res.findings]
    assert uninit[0].data["blocks"] == [0, 1]

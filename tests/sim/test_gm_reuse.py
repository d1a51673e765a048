"""GM (and host) allocations whose address the allocator hands out again after a free: freeing the new buffer is
not a double free (the lookup used to find the dead record first and report SIM-ACL "double free"), while a real
double free still is, at its line (programs/gm_reuse.cpp)."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.sim.program import run_program

from .conftest import marker_line, needs_gxx

pytestmark = needs_gxx

SRC = Path(__file__).resolve().parent / "programs" / "gm_reuse.cpp"


def test_freeing_a_buffer_at_a_reused_address_is_not_a_double_free(tmp_path: Path) -> None:
    res = run_program(SRC, tmp_path)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert "reused" in res.stdout.split()  # the allocator did hand an address out again
    assert not [f for f in res.findings if f.code == "SIM-ACL"], [f.message for f in res.findings]
    assert len(res.launches) == 64


def test_a_real_double_free_is_still_reported_at_its_line(tmp_path: Path) -> None:
    res = run_program(SRC, tmp_path, defines={"DOUBLE_FREE": "1"})
    hits = [f for f in res.findings if f.code == "SIM-ACL"]
    assert len(hits) == 1, [(f.code, f.message) for f in res.findings]
    assert "double free" in hits[0].message
    assert hits[0].span.line == marker_line(SRC, "SIM-ACL")

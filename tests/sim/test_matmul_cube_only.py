"""A MIX 1:2 kernel whose AIC runs the high-level Matmul itself (ASCENDC_CUBE_ONLY, KERNEL_TYPE_MIX_AIC_1_2: CANN's
BareMix sample) and whose two AIVs post-process their halves of C after a cross-core flag. It used to build as a
vector kernel (one core per block, the second half of C never post-processed: status "ok" with wrong numbers), and
as a MIX kernel the AIC returned at REGIST_MATMUL_OBJ as a matmul server (nothing computed, a cross-core deadlock)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim.program import run_program
from akgen_lsp.sim.split import infer_core_type

from .conftest import needs_gxx

pytestmark = needs_gxx

PROGRAMS = Path(__file__).resolve().parent / "programs"


# matmul_by_init.asc: the same with the Matmul set up by mm.Init and no kernel type (CANN's group-matmul sample): it
# built as one pass too (one fiber for both cores, the flags no-ops) and ran "ok" with C never post-processed
@pytest.mark.parametrize("program", ["matmul_cube_only.asc", "matmul_by_init.asc"])
def test_cube_only_matmul_on_the_aic_and_both_aivs_post_process(tmp_path: Path, program: str) -> None:
    rng = np.random.default_rng(7)
    a = rng.uniform(-1, 1, (32, 64)).astype(np.float16)
    b = rng.uniform(-1, 1, (64, 32)).astype(np.float16)
    (tmp_path / "input").mkdir()
    (tmp_path / "output").mkdir()
    a.tofile(tmp_path / "input" / "a.bin")
    b.tofile(tmp_path / "input" / "b.bin")
    res = run_program(PROGRAMS / program, tmp_path)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert res.launches[0]["failed_blocks"] == 0
    c = np.fromfile(tmp_path / "output" / "c.bin", dtype=np.float32).reshape(32, 32)
    np.testing.assert_allclose(c, 2 * (a.astype(np.float32) @ b.astype(np.float32)), rtol=1e-3, atol=1e-3)


def test_a_matmul_impl_set_up_by_init_with_cross_core_flags_is_mixed() -> None:
    # the group-matmul sample's spelling: `using MT = matmul::MatmulImpl<...>; MT mm;` and mm.Init, no REGIST
    text = ("using MT = matmul::MatmulImpl<aT, bT, cT, BiasT, CFG_MDL>;\n"
            "void k() { MT mm; mm.Init(&t); AscendC::CrossCoreSetFlag<2, PIPE_FIX>(3); }\n")
    assert infer_core_type([text], split=True) == "mix"
    assert infer_core_type([text.replace("CrossCoreSetFlag<2, PIPE_FIX>(3)", "mm.End()")], split=True) == "aiv"
    assert infer_core_type(["#define ASCENDC_CUBE_ONLY\n" + text], split=True) == "aiv"

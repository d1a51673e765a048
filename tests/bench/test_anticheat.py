"""The anti-cheat rule: the kernel must read its inputs and write its outputs itself (DMA or scalar)."""

from __future__ import annotations

from akgen_lsp.bench.anticheat import check_blocks, check_run, has_gm_figures, static_check
from akgen_lsp.bench.pipeline import Candidate, RunSettings, evaluate


def _blocks(dma_r: int = 0, dma_w: int = 0, sc_r: int = 0, sc_w: int = 0) -> list[dict[str, int]]:
    return [{"gm_read": dma_r, "gm_write": dma_w, "gm_scalar_read": sc_r, "gm_scalar_write": sc_w},
            {"gm_read": 0, "gm_write": 0, "gm_scalar_read": 0, "gm_scalar_write": 0}]


def test_check_blocks_both_directions() -> None:
    assert check_blocks(_blocks(dma_r=64, dma_w=64), "k.cpp") == (None, None)
    err, info = check_blocks(_blocks(sc_r=8, sc_w=4), "k.cpp")  # Sasum/Eye-style scalar GM work is legal
    assert err is None and info is not None and info.code == "BENCH-SCALAR-GM" and info.error_class == "performance"
    err, _ = check_blocks(_blocks(dma_w=64), "k.cpp")  # writes a constant: never read an input
    assert err is not None and err.code == "BENCH-NO-WORK" and "never read its inputs" in err.message
    assert check_blocks(_blocks(dma_w=64), "k.cpp", has_inputs=False) == (None, None)  # creation ops (Eye)
    err, _ = check_blocks(_blocks(dma_r=64), "k.cpp")  # copies in, writes nothing
    assert err is not None and "wrote nothing" in err.message
    err, _ = check_blocks(_blocks(), "k.cpp")
    assert err is not None and err.error_class == "precision"
    assert has_gm_figures(_blocks()) and not has_gm_figures([{"gm_read": 1}]) and not has_gm_figures([])


def test_fallbacks_without_block_figures() -> None:
    ok = {"pipes": {"MTE2": {"busy_us": 1.0}, "V": {"busy_us": 1.0}}, "gm_bytes": 64}
    assert check_run(ok, "k.cpp") is None
    f = check_run({"pipes": {"S": {"busy_us": 3.0}}, "gm_bytes": 0}, "k.cpp")
    assert f is not None and f.error_class == "precision"
    assert check_run(None, "k.cpp") is None  # no figures: the static check decides
    assert static_check("void k() { DataCopy(a, b, 16); }", "k.cpp") is None
    assert static_check("void k() { g.SetValue(0, g.GetValue(1)); }", "k.cpp") is None
    f = static_check("void k() { /* DataCopy(a, b, 16); */ }", "k.cpp")
    assert f is not None and f.code == "BENCH-NO-WORK"


_HEAD = '#include "kernel_operator.h"\nusing namespace AscendC;\n'
_CONSTANT = _HEAD + '''extern "C" __global__ __aicore__ void add_math(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                               GM_ADDR tiling) {
    GlobalTensor<DTYPE_Z> out;
    out.SetGlobalBuffer((__gm__ DTYPE_Z*)z, 1);
    if (GetBlockIdx() == 0) out.SetValue(0, (DTYPE_Z)(1.0f));
}
'''
_SCALAR = _HEAD + '''extern "C" __global__ __aicore__ void add_math(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                               GM_ADDR tiling) {
    GlobalTensor<DTYPE_X> a;
    GlobalTensor<DTYPE_Y> b;
    GlobalTensor<DTYPE_Z> out;
    a.SetGlobalBuffer((__gm__ DTYPE_X*)x, 1);
    b.SetGlobalBuffer((__gm__ DTYPE_Y*)y, 1);
    out.SetGlobalBuffer((__gm__ DTYPE_Z*)z, 1);
    if (GetBlockIdx() == 0) out.SetValue(0, (DTYPE_Z)((float)a.GetValue(0) + (float)b.GetValue(0)));
}
'''


def test_constant_writer_fails_and_scalar_kernel_passes(task_copy) -> None:
    task = task_copy()
    a = task.answers[0]
    one_element = RunSettings(mode="dynamic", case_ids=(3,))  # fp16 [1]
    a.kernel.write_text(_CONSTANT)
    rec = evaluate(task, Candidate(task.id, 0, a.kernel, a.host.parent), one_element)
    assert rec["status"] == "no_work" and rec["error_class"] == "precision", rec["findings"]
    a.kernel.write_text(_SCALAR)
    rec = evaluate(task, Candidate(task.id, 0, a.kernel, a.host.parent), one_element)
    assert rec["status"] == "pass", rec["findings"]
    assert [f["code"] for f in rec["findings"]] == ["BENCH-SCALAR-GM"]

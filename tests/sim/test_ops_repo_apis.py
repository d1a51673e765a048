"""Kernel-side APIs that A2/A3 kernels of CANN's operator repositories use and the simulator lacked: ReduceSum with a
pattern (AR / RA, no tmp buffer), an assigned TPipe (`pipe_ = pipeIn;` in a kernel class), a Cast to int4b_t and an
atomic store of it in a branch this run does not take, `__bf16`, the kernel-side operator base headers
(`op_kernel/platform_util.h`, `op_kernel/math_util.h`), MulAddDst, PRELOAD and the constants FULL_MASK,
B16/B32_DATA_NUM_PER_BLOCK / _PER_REPEAT, DEFAULT_DATA_COPY_STRIDE. Each kernel is checked against NumPy."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

REDUCE = """
#include "kernel_operator.h"
#include "op_kernel/platform_util.h"
#include "op_kernel/math_util.h"
using namespace AscendC;

class Summer {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, TPipe& pipeIn) {
        pipe_ = pipeIn;  // CANN's TPipe is assignable (ops-nn's layer-norm grads assign theirs so)
        xGm.SetGlobalBuffer((__gm__ float*)x, ROWS * COLS);
        yGm.SetGlobalBuffer((__gm__ float*)y, ROWS + COLS);
        constexpr uint32_t blk = Ops::Base::GetUbBlockSize();
        constexpr uint32_t padded = Ops::Base::CeilAlign(COLS * sizeof(float), blk) / sizeof(float);
        static_assert(padded == 16, "COLS = 13 floats pad to 16");
        pipe_.InitBuffer(inBuf, ROWS * padded * sizeof(float));
        pipe_.InitBuffer(outBuf, 2 * 32 * sizeof(float));
    }
    __aicore__ inline void Process() {
        constexpr uint32_t padded = Ops::Base::CeilAlign(COLS, 8u);
        LocalTensor<float> in = inBuf.Get<float>(), out = outBuf.Get<float>();
        Duplicate(in, 0.0f, ROWS * padded);
        PipeBarrier<PIPE_ALL>();
        for (uint32_t r = 0; r < ROWS; ++r) DataCopyPad(in[r * padded], xGm[r * COLS], {1, COLS * 4, 0, 0, 0}, {});
        PipeBarrier<PIPE_ALL>();
        uint32_t shape[2] = {ROWS, COLS};
        ReduceSum<float, Pattern::Reduce::AR, false>(out, in, shape, true);
        ReduceSum<float, Pattern::Reduce::RA, false>(out[32], in, shape, true);
        PipeBarrier<PIPE_ALL>();
        DataCopyPad(yGm, out, {1, ROWS * 4, 0, 0, 0});
        DataCopyPad(yGm[ROWS], out[32], {1, COLS * 4, 0, 0, 0});
    }
private:
    TPipe& pipe_ = *GetTPipePtr();  // one TPipe at a time (the TPipe page): this names the kernel's
    TBuf<TPosition::VECCALC> inBuf, outBuf;
    GlobalTensor<float> xGm, yGm;
};

extern "C" __global__ __aicore__ void rsum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    Summer op;
    op.Init(x, y, pipe);
    op.Process();
}
"""

INT4 = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void i4(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 16);
    yGm.SetGlobalBuffer((__gm__ half*)y, 16);
    LocalTensor<half> t = buf.Get<half>();
    DataCopy(t, xGm, 16);
    PipeBarrier<PIPE_ALL>();
    if (static_cast<float>(xGm.GetValue(0)) < -100.0f) {  // a branch for other data: it builds, it does not run
        LocalTensor<int4b_t> q = buf.Get<int4b_t>();
        Cast(q, t, RoundMode::CAST_RINT, 16);
        GlobalTensor<int4b_t> qGm;
        SetAtomicAdd<int4b_t>();
        DataCopy(qGm, q, 64);
    }
    bool bf = std::is_same_v<DTYPE_Y, __bf16>;
    Muls(t, t, static_cast<half>(bf ? 3.0f : 2.0f), 16);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, 16);
}
"""


def test_reduce_sum_patterns_and_an_assigned_pipe(write_manifest, tmp_path: Path) -> None:
    src = tmp_path / "rsum.cpp"
    src.write_text(REDUCE, encoding="utf-8")
    x = (np.arange(5 * 13, dtype=np.float32).reshape(5, 13) * 0.25 - 3.0).astype(np.float32)
    m = write_manifest(src, "rsum", [
        {"name": "x", "input": x.reshape(-1)},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [5 + 13]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}],
        defines={"ROWS": "5", "COLS": "13"})
    res = run_manifest(m, tmp_path / "out")
    assert res.status == "ok", [f.message for f in res.findings]
    y = np.load(res.outputs["y"])
    np.testing.assert_allclose(y[:5], x.sum(axis=1), rtol=1e-6)
    np.testing.assert_allclose(y[5:], x.sum(axis=0), rtol=1e-6)


def test_int4_branch_builds_and_bf16_name(write_manifest, tmp_path: Path) -> None:
    src = tmp_path / "i4.cpp"
    src.write_text(INT4, encoding="utf-8")
    x = np.arange(16, dtype=np.float16)
    args = [{"name": "x", "input": x}, {"name": "y", "output": "y.npy", "dtype": "float16", "shape": [16]},
            {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}]
    res = run_manifest(write_manifest(src, "i4", args, defines={"DTYPE_Y": "half"}), tmp_path / "out")
    assert res.status == "ok", [f.message for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["y"]), x * 2)
    res = run_manifest(write_manifest(src, "i4", args, defines={"DTYPE_Y": "bfloat16_t"}), tmp_path / "out2")
    assert res.status == "ok", [f.message for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["y"]), x * 3)
    # a UT's own -Dfloat16_t=uint16_t (ops-nn's log_softmax_grad) does not clash with the library's alias
    res = run_manifest(write_manifest(src, "i4", args, defines={"DTYPE_Y": "half", "float16_t": "uint16_t"}),
                       tmp_path / "out3")
    assert res.status == "ok", [f.message for f in res.findings]


MULADD = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mad(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR out, GM_ADDR workspace,
                                          GM_ADDR tiling)
{
    PRELOAD(2);  // an instruction prefetch: nothing to compute
    static_assert(B32_DATA_NUM_PER_BLOCK == 8 && B16_DATA_NUM_PER_BLOCK == 16 && B32_DATA_NUM_PER_REPEAT == 64 &&
                  B16_DATA_NUM_PER_REPEAT == 128 && DEFAULT_DATA_COPY_STRIDE == 0 && FULL_MASK == ~0ULL, "constants");
    TPipe pipe;
    TBuf<TPosition::VECCALC> ta, tb, tc, tf;
    pipe.InitBuffer(ta, 128 * sizeof(half));
    pipe.InitBuffer(tb, 128 * sizeof(half));
    pipe.InitBuffer(tc, 128 * sizeof(float));
    pipe.InitBuffer(tf, 64 * sizeof(float));
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm, oGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, 128);
    bGm.SetGlobalBuffer((__gm__ half*)b, 128);
    cGm.SetGlobalBuffer((__gm__ float*)c, 128);
    oGm.SetGlobalBuffer((__gm__ float*)out, 192);
    LocalTensor<half> x = ta.Get<half>(), y = tb.Get<half>();
    LocalTensor<float> acc = tc.Get<float>(), sq = tf.Get<float>();
    DataCopy(x, aGm, 128);
    DataCopy(y, bGm, 128);
    DataCopy(acc, cGm, 128);
    DataCopy(sq, cGm, 64);
    PipeBarrier<PIPE_ALL>();
    MulAddDst(acc, x, y, 128);                        // half * half + float
    SetVectorMask<float>(FULL_MASK, FULL_MASK);
    MulAddDst<float, float, false>(sq, sq, sq, 64, 1, {1, 1, 1, 8, 8, 8});  // float repeat form: c * c + c
    ResetMask();
    PipeBarrier<PIPE_ALL>();
    DataCopy(oGm, acc, 128);
    DataCopy(oGm[128], sq, 64);
}
"""


def test_mul_add_dst(write_manifest, tmp_path: Path) -> None:
    src = tmp_path / "mad.cpp"
    src.write_text(MULADD, encoding="utf-8")
    a = (np.arange(128) * 0.125 - 4).astype(np.float16)
    b = (np.arange(128)[::-1] * 0.0625 + 0.5).astype(np.float16)
    c = (np.arange(128) * 0.3 - 7).astype(np.float32)
    m = write_manifest(src, "mad", [
        {"name": "a", "input": a}, {"name": "b", "input": b}, {"name": "c", "input": c},
        {"name": "out", "output": "out.npy", "dtype": "float32", "shape": [192]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}])
    res = run_manifest(m, tmp_path / "out")
    assert res.status == "ok", [f.message for f in res.findings]
    o = np.load(res.outputs["out"])
    np.testing.assert_allclose(o[:128], a.astype(np.float32) * b.astype(np.float32) + c, rtol=1e-6)
    np.testing.assert_allclose(o[128:], c[:64] * c[:64] + c[:64], rtol=1e-6)

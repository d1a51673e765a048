// Test kernel for the Ascend-950-only math APIs (tests/sim/test_adv_math2.py): on the A2/A3 device each call fails
// with SIM-ARCH-API at its line (the CANN library's body is empty there). mode 0..6: BitwiseAnd, Clamp, Fma, IsFinite,
// LogicalAnd, Rint, Where; mode 7: AscendCUtils::SetOverflow(1) then (0) around an Adds (the saturated mode is warned,
// the result is computed as in the inf/nan mode).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void math950(GM_ADDR src, GM_ADDR dst, int32_t mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ab, bb, cb, db;
    constexpr uint32_t n = 64;
    pipe.InitBuffer(ab, n * 4);
    pipe.InitBuffer(bb, n * 4);
    pipe.InitBuffer(cb, n * 4);
    pipe.InitBuffer(db, n * 4);
    LocalTensor<float> a = ab.Get<float>(), b = bb.Get<float>(), c = cb.Get<float>(), d = db.Get<float>();
    GlobalTensor<float> sg, dg;
    sg.SetGlobalBuffer((__gm__ float*)src, n);
    dg.SetGlobalBuffer((__gm__ float*)dst, n);
    DataCopy(a, sg, n);
    DataCopy(b, sg, n);
    DataCopy(c, sg, n);
    DataCopy(d, sg, n);
    PipeBarrier<PIPE_ALL>();
    if (mode == 0) {
        LocalTensor<int32_t> ai = a.ReinterpretCast<int32_t>(), bi = b.ReinterpretCast<int32_t>();
        LocalTensor<int32_t> di = d.ReinterpretCast<int32_t>();
        BitwiseAnd(di, ai, bi, n);  // EXPECT SIM-ARCH-API 0
    } else if (mode == 1) {
        Clamp(d, a, 0.0f, 1.0f, n);  // EXPECT SIM-ARCH-API 1
    } else if (mode == 2) {
        Fma(d, a, b, c, n);  // EXPECT SIM-ARCH-API 2
    } else if (mode == 3) {
        LocalTensor<bool> bo = d.ReinterpretCast<bool>();
        IsFinite(bo, a, n);  // EXPECT SIM-ARCH-API 3
    } else if (mode == 4) {
        LocalTensor<bool> bo = d.ReinterpretCast<bool>();
        LogicalAnd(bo, a, b, n);  // EXPECT SIM-ARCH-API 4
    } else if (mode == 5) {
        Rint(d, a, n);  // EXPECT SIM-ARCH-API 5
    } else if (mode == 6) {
        LocalTensor<bool> cond = c.ReinterpretCast<bool>();
        Where(d, a, b, cond, n);  // EXPECT SIM-ARCH-API 6
    } else {
        AscendCUtils::SetOverflow(1);
        Adds(d, a, 1.0f, n);
        AscendCUtils::SetOverflow(0);  // EXPECT SIM-UNSUPPORTED
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(dg, d, n);
}

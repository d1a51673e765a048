// Test kernel for the vector shifts by a scalar (tests/sim/test_vec_shift.py). Inputs: x32 (64 int32), x16 (128 int16),
// both with negative and positive elements. Outputs, each the shift of its input by `count`:
//   r32: ShiftRight on int32 (arithmetic), l32: ShiftLeft on int32, u32: ShiftRight on the bits as uint32 (logical),
//   r16: ShiftRight on int16, and ab32: |x32| by the sign-mask trick of NPUKernelBench's AbsMath answer
//   (t = x >> 32; y = (x | t) & ~(x & t); y - t), which needs x >> 32 to be the sign mask.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void vec_shift(GM_ADDR x32, GM_ADDR x16, GM_ADDR r32, GM_ADDR l32, GM_ADDR u32,
                                                GM_ADDR r16, GM_ADDR ab32, int32_t count)
{
    constexpr int32_t N32 = 64;
    constexpr int32_t N16 = 128;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bx16, by, by16, bt, bn;
    pipe.InitBuffer(bx, N32 * sizeof(int32_t));
    pipe.InitBuffer(bx16, N16 * sizeof(int16_t));
    pipe.InitBuffer(by, N32 * sizeof(int32_t));
    pipe.InitBuffer(by16, N16 * sizeof(int16_t));
    pipe.InitBuffer(bt, N32 * sizeof(int32_t));
    pipe.InitBuffer(bn, N32 * sizeof(int32_t));
    GlobalTensor<int32_t> gx, gr, gl, gab;
    GlobalTensor<uint32_t> gu;
    GlobalTensor<int16_t> gx16, gr16;
    gx.SetGlobalBuffer((__gm__ int32_t*)x32, N32);
    gx16.SetGlobalBuffer((__gm__ int16_t*)x16, N16);
    gr.SetGlobalBuffer((__gm__ int32_t*)r32, N32);
    gl.SetGlobalBuffer((__gm__ int32_t*)l32, N32);
    gu.SetGlobalBuffer((__gm__ uint32_t*)u32, N32);
    gr16.SetGlobalBuffer((__gm__ int16_t*)r16, N16);
    gab.SetGlobalBuffer((__gm__ int32_t*)ab32, N32);
    LocalTensor<int32_t> x = bx.Get<int32_t>();
    LocalTensor<int16_t> h = bx16.Get<int16_t>();
    LocalTensor<int32_t> y = by.Get<int32_t>();
    LocalTensor<int16_t> y16 = by16.Get<int16_t>();
    LocalTensor<int32_t> t = bt.Get<int32_t>();
    LocalTensor<int32_t> n = bn.Get<int32_t>();
    DataCopy(x, gx, N32);
    DataCopy(h, gx16, N16);
    PipeBarrier<PIPE_ALL>();

    ShiftRight(y, x, count, N32);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gr, y, N32);
    PipeBarrier<PIPE_ALL>();
    ShiftLeft(y, x, count, N32);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gl, y, N32);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<uint32_t> yu = y.ReinterpretCast<uint32_t>();
    ShiftRight(yu, x.ReinterpretCast<uint32_t>(), static_cast<uint32_t>(count), N32);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gu, yu, N32);
    PipeBarrier<PIPE_ALL>();
    ShiftRight(y16, h, static_cast<int16_t>(count / 2), N16);  // count / 2: 16 when count is 32
    PipeBarrier<PIPE_ALL>();
    DataCopy(gr16, y16, N16);
    PipeBarrier<PIPE_ALL>();

    ShiftRight(t, x, static_cast<int32_t>(32), N32);
    PipeBarrier<PIPE_V>();
    Or(y.ReinterpretCast<uint16_t>(), x.ReinterpretCast<uint16_t>(), t.ReinterpretCast<uint16_t>(), N32 * 2);
    And(n.ReinterpretCast<uint16_t>(), x.ReinterpretCast<uint16_t>(), t.ReinterpretCast<uint16_t>(), N32 * 2);
    PipeBarrier<PIPE_V>();
    Not(n.ReinterpretCast<uint16_t>(), n.ReinterpretCast<uint16_t>(), N32 * 2);
    PipeBarrier<PIPE_V>();
    And(y.ReinterpretCast<uint16_t>(), y.ReinterpretCast<uint16_t>(), n.ReinterpretCast<uint16_t>(), N32 * 2);
    PipeBarrier<PIPE_V>();
    Sub(y, y, t, N32);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gab, y, N32);
}

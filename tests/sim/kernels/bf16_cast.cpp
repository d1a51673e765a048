// Test kernel for bfloat16 emulation: x holds N floats, y N bfloat16 values (raw bits). Outputs:
//   z = Cast(x -> bfloat16) with the RoundMode numbered `mode` (0 NONE, 1 RINT, 2 FLOOR, 3 CEIL, 4 ROUND, 5 TRUNC,
//       6 ODD);
//   w = Cast(y -> float, CAST_NONE) (exact widening);
//   v = the add-then-scale chain of the AddRmsNorm bf16 kernels: t = RINT(float(y) + x); v = RINT(float(t) * x).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 512;

extern "C" __global__ __aicore__ void bf16_cast(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w, GM_ADDR v, int32_t mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz, bw, bt;
    pipe.InitBuffer(bx, N * sizeof(float));
    pipe.InitBuffer(by, N * sizeof(bfloat16_t));
    pipe.InitBuffer(bz, N * sizeof(bfloat16_t));
    pipe.InitBuffer(bw, N * sizeof(float));
    pipe.InitBuffer(bt, N * sizeof(float));
    GlobalTensor<float> xGm, wGm;
    GlobalTensor<bfloat16_t> yGm, zGm, vGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, N);
    yGm.SetGlobalBuffer((__gm__ bfloat16_t*)y, N);
    zGm.SetGlobalBuffer((__gm__ bfloat16_t*)z, N);
    wGm.SetGlobalBuffer((__gm__ float*)w, N);
    vGm.SetGlobalBuffer((__gm__ bfloat16_t*)v, N);
    LocalTensor<float> a = bx.Get<float>();
    LocalTensor<bfloat16_t> b = by.Get<bfloat16_t>();
    LocalTensor<bfloat16_t> c = bz.Get<bfloat16_t>();
    LocalTensor<float> d = bw.Get<float>();
    LocalTensor<float> t = bt.Get<float>();
    DataCopy(a, xGm, N);
    DataCopy(b, yGm, N);
    PipeBarrier<PIPE_ALL>();
    static const RoundMode modes[] = {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
                                      RoundMode::CAST_CEIL, RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC,
                                      RoundMode::CAST_ODD};
    Cast(c, a, modes[mode], N);
    Cast(d, b, RoundMode::CAST_NONE, N);
    PipeBarrier<PIPE_V>();
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, c, N);
    DataCopy(wGm, d, N);
    PipeBarrier<PIPE_ALL>();
    Add(t, d, a, N);
    PipeBarrier<PIPE_V>();
    Cast(c, t, RoundMode::CAST_RINT, N);
    PipeBarrier<PIPE_V>();
    Cast(t, c, RoundMode::CAST_NONE, N);
    PipeBarrier<PIPE_V>();
    Mul(t, t, a, N);
    PipeBarrier<PIPE_V>();
    Cast(c, t, RoundMode::CAST_RINT, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(vGm, c, N);
}

// Test kernels for Pad and UnPad (tests/sim/test_adv_misc3.py).
// pad: h x w of DTYPE_X in, tiling from the host PadTilingFunc passed in as words (PadTiling's fields in order);
// out rows of w + left + right (unaligned width) or w (aligned). mode 0 with a shared buffer of `tmp` bytes, 1 from
// the stack.
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void pad(GM_ADDR src, GM_ADDR dst, GM_ADDR tilingGm, int32_t mode, int32_t h,
                                          int32_t w, int32_t ow, int32_t left, int32_t right, int32_t value,
                                          int32_t tmp)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, tb;
    const uint32_t n = h * w, on = h * ow;
    pipe.InitBuffer(xb, (n * sizeof(T) + 31) / 32 * 32);
    pipe.InitBuffer(yb, (on * sizeof(T) + 31) / 32 * 32);
    pipe.InitBuffer(tb, tmp);
    LocalTensor<T> x = xb.Get<T>(), y = yb.Get<T>();
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T*)src, n);
    yg.SetGlobalBuffer((__gm__ T*)dst, on);
    DataCopy(x, xg, (n * sizeof(T) + 31) / 32 * 32 / sizeof(T));
    PipeBarrier<PIPE_ALL>();
    PadTiling tiling;
    uint32_t* words = reinterpret_cast<uint32_t*>(&tiling);
    for (uint32_t i = 0; i < sizeof(PadTiling) / 4; ++i) words[i] = reinterpret_cast<__gm__ uint32_t*>(tilingGm)[i];
    PadParams params(static_cast<uint16_t>(left), static_cast<uint16_t>(right), value);
    if (mode == 0) {
        Pad(y, x, params, tb.Get<uint8_t>(), tiling);
    } else {
        Pad(y, x, params, tiling);  // EXPECT SIM-PAD-TMP
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, y, (on * sizeof(T) + 31) / 32 * 32 / sizeof(T));
}

// unpad: h x w (w 32-byte aligned) in, h x (w - right) packed out; mode 1 passes leftPad 1 (reported).
extern "C" __global__ __aicore__ void unpad(GM_ADDR src, GM_ADDR dst, int32_t mode, int32_t h, int32_t w,
                                            int32_t right)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    const uint32_t n = h * w;
    pipe.InitBuffer(xb, n * sizeof(T));
    pipe.InitBuffer(yb, n * sizeof(T));
    LocalTensor<T> x = xb.Get<T>(), y = yb.Get<T>();
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T*)src, n);
    yg.SetGlobalBuffer((__gm__ T*)dst, n);
    DataCopy(x, xg, n);
    Duplicate(y, static_cast<T>(0), n);
    PipeBarrier<PIPE_ALL>();
    UnPadTiling tiling;
    tiling.srcHeight = h;
    tiling.srcWidth = w;
    UnPadParams params(mode == 1 ? 1 : 0, static_cast<uint16_t>(right));
    UnPad(y, x, params, tiling);  // EXPECT SIM-UNPAD-PARAMS
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, y, n);
}

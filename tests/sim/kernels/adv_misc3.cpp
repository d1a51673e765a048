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

#ifndef DQ_DST
#define DQ_DST float
#endif
#ifndef SCALE_T
#define SCALE_T float
#endif

// dequant: m x n int32_t in, DQ_DST out (rows n rounded up to 32 bytes), SCALE_T deqScale of n; mode 0 tensor scale
// with params {m, n, cal}, 1 the scalar `s` (as SCALE_T), 2 params {1, m * n, n} (single-row mode), 3 a shared buffer
// too small (reported).
extern "C" __global__ __aicore__ void dequant(GM_ADDR src, GM_ADDR scale, GM_ADDR dst, int32_t mode, int32_t m,
                                              int32_t n, int32_t cal, float s)
{
    using D = DQ_DST;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, sb, yb, tb;
    const uint32_t dn = (n * sizeof(D) + 31) / 32 * 32 / sizeof(D);
    pipe.InitBuffer(xb, m * n * 4);
    pipe.InitBuffer(sb, (n * sizeof(SCALE_T) + 31) / 32 * 32);
    pipe.InitBuffer(yb, m * dn * sizeof(D));
    pipe.InitBuffer(tb, 4096);
    LocalTensor<int32_t> x = xb.Get<int32_t>();
    LocalTensor<SCALE_T> sc = sb.Get<SCALE_T>(n);
    LocalTensor<D> y = yb.Get<D>();
    GlobalTensor<int32_t> xg;
    GlobalTensor<SCALE_T> sg;
    GlobalTensor<D> yg;
    xg.SetGlobalBuffer((__gm__ int32_t*)src, m * n);
    sg.SetGlobalBuffer((__gm__ SCALE_T*)scale, n);
    yg.SetGlobalBuffer((__gm__ D*)dst, m * dn);
    DataCopy(x, xg, m * n);
    DataCopy(sc, sg, (n * sizeof(SCALE_T) + 31) / 32 * 32 / sizeof(SCALE_T));
    Duplicate(y, static_cast<D>(0), m * dn);
    PipeBarrier<PIPE_ALL>();
    const uint32_t um = m, un = n, uc = cal;
    if (mode == 0) {
        AscendDequant(y, x, sc, tb.Get<uint8_t>(), {um, un, uc});
    } else if (mode == 1) {
        if constexpr (!std::is_same_v<SCALE_T, uint64_t>) {  // a scalar deqScale is bf16 / float only
            AscendDequant(y, x, static_cast<SCALE_T>(s), {um, un, uc});
        }
    } else if (mode == 2) {
        AscendDequant(y, x, sc, {1, um * un, un});
    } else {
        AscendDequant(y, x, sc, tb.Get<uint8_t>(64), {um, un, uc});  // EXPECT SIM-DEQUANT-TMP
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, y, m * dn);
}

// antiquant: k x n int8_t in, half out; offset / scale of n; mode 0 tensors with a shared buffer, 1 scale only,
// 2 scalars (offset o, scale s), 3 transposed (reported).
extern "C" __global__ __aicore__ void antiquant(GM_ADDR src, GM_ADDR offset, GM_ADDR scale, GM_ADDR dst, int32_t mode,
                                                int32_t k, int32_t n, float o, float s)
{
    using D = half;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ob, sb, yb, tb;
    pipe.InitBuffer(xb, k * n);
    pipe.InitBuffer(ob, n * sizeof(D));
    pipe.InitBuffer(sb, n * sizeof(D));
    pipe.InitBuffer(yb, k * n * sizeof(D));
    pipe.InitBuffer(tb, 8192);
    LocalTensor<int8_t> x = xb.Get<int8_t>();
    LocalTensor<D> off = ob.Get<D>(), sc = sb.Get<D>(), y = yb.Get<D>();
    GlobalTensor<int8_t> xg;
    GlobalTensor<D> og, sg, yg;
    xg.SetGlobalBuffer((__gm__ int8_t*)src, k * n);
    og.SetGlobalBuffer((__gm__ D*)offset, n);
    sg.SetGlobalBuffer((__gm__ D*)scale, n);
    yg.SetGlobalBuffer((__gm__ D*)dst, k * n);
    DataCopy(x, xg, k * n);
    DataCopy(off, og, n);
    DataCopy(sc, sg, n);
    PipeBarrier<PIPE_ALL>();
    uint32_t shape[2] = {1, static_cast<uint32_t>(n)};
    sc.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
    const uint32_t uk = k;
    if (mode == 0) {
        AscendAntiQuant<int8_t, D, false>(y, x, off, sc, tb.Get<uint8_t>(), uk);
    } else if (mode == 1) {
        AscendAntiQuant<int8_t, D, false>(y, x, sc, tb.Get<uint8_t>(), uk);
    } else if (mode == 2) {
        AscendAntiQuant<int8_t, D, false>(y, x, static_cast<D>(o), static_cast<D>(s), tb.Get<uint8_t>(), uk);
    } else {
        AscendAntiQuant<int8_t, D, true>(y, x, off, sc, tb.Get<uint8_t>(), uk);  // EXPECT SIM-NOT-EMULATED
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, y, k * n);
}

// confusion: NZ [B, A1, A3/16, A2/16, 16, 16] half in, the tiling words from the host GetTransposeTilingInfo; mode 0
// TRANSPOSE_NZ2ND_0213 with a shared buffer, 1 TRANSPOSE_NZ2NZ_0213 from the stack, 2 TRANSPOSE_ND2ND_ONLY (reported).
extern "C" __global__ __aicore__ void confusion(GM_ADDR src, GM_ADDR dst, GM_ADDR tilingGm, int32_t mode, int32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, tb;
    pipe.InitBuffer(xb, n * 2);
    pipe.InitBuffer(yb, n * 2);
    pipe.InitBuffer(tb, 1024);
    LocalTensor<half> x = xb.Get<half>(), y = yb.Get<half>();
    GlobalTensor<half> xg, yg;
    xg.SetGlobalBuffer((__gm__ half*)src, n);
    yg.SetGlobalBuffer((__gm__ half*)dst, n);
    DataCopy(x, xg, n);
    PipeBarrier<PIPE_ALL>();
    ConfusionTransposeTiling t;
    uint32_t* words = reinterpret_cast<uint32_t*>(&t);
    for (uint32_t i = 0; i < sizeof(t) / 4; ++i) words[i] = reinterpret_cast<__gm__ uint32_t*>(tilingGm)[i];
    if (mode == 0) {
        Transpose(y, x, tb.Get<uint8_t>(), TransposeType::TRANSPOSE_NZ2ND_0213, t);
    } else if (mode == 1) {
        Transpose(y, x, TransposeType::TRANSPOSE_NZ2NZ_0213, t);
    } else {
        Transpose(y, x, TransposeType::TRANSPOSE_ND2ND_ONLY, t);  // EXPECT SIM-NOT-EMULATED
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, y, n);
}

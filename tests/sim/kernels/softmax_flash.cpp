// SoftmaxFlashV2: the online softmax over two column blocks of the same rows (no update, then update), float and
// half data with float sums; and padded rows whose valid length comes from the tensor's ShapeInfo.
#include "kernel_operator.h"
using namespace AscendC;

constexpr SoftmaxConfig NO_CHECK_CFG = {false};

template <typename T>
__aicore__ inline void flash_two_blocks(GM_ADDR x0, GM_ADDR x1, GM_ADDR d0, GM_ADDR d1, GM_ADDR s, GM_ADDR mx,
                                        GM_ADDR em, uint32_t m, uint32_t k) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb0, xb1, sb, mb, eb, tb;
    pipe.InitBuffer(xb0, m * k * sizeof(T));
    pipe.InitBuffer(xb1, m * k * sizeof(T));
    pipe.InitBuffer(sb, m * 8 * sizeof(float));
    pipe.InitBuffer(mb, m * 8 * sizeof(float));
    pipe.InitBuffer(eb, m * 32);
    pipe.InitBuffer(tb, 8192);
    GlobalTensor<T> x0g, x1g, d0g, d1g, emg;
    GlobalTensor<float> sg, mg;
    x0g.SetGlobalBuffer((__gm__ T*)x0, m * k);
    x1g.SetGlobalBuffer((__gm__ T*)x1, m * k);
    d0g.SetGlobalBuffer((__gm__ T*)d0, m * k);
    d1g.SetGlobalBuffer((__gm__ T*)d1, m * k);
    emg.SetGlobalBuffer((__gm__ T*)em, m * 32 / sizeof(T));
    sg.SetGlobalBuffer((__gm__ float*)s, m * 8);
    mg.SetGlobalBuffer((__gm__ float*)mx, m * 8);
    LocalTensor<T> a = xb0.Get<T>(), b = xb1.Get<T>(), e = eb.Get<T>();
    LocalTensor<float> sum = sb.Get<float>(), max = mb.Get<float>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    DataCopy(a, x0g, m * k);
    DataCopy(b, x1g, m * k);
    pipe_barrier(PIPE_ALL);
    SoftMaxTiling t = SoftMaxFlashV2TilingFuncImpl(m, k, sizeof(T), sizeof(float), tmp.GetSize() / sizeof(float));
    if constexpr (std::is_same_v<T, float>) {
        SoftmaxFlashV2<float, false>(a, sum, max, a, e, sum, max, tmp, t);  // in place: dst = src, sum/max reused
        SoftmaxFlashV2<float, true>(b, sum, max, b, e, sum, max, tmp, t);
    } else {
        SoftmaxFlashV2<half, false>(a, sum, max, a, e, sum, max, tmp, t);
        SoftmaxFlashV2<half, true>(b, sum, max, b, e, sum, max, tmp, t);
    }
    pipe_barrier(PIPE_ALL);
    DataCopy(d0g, a, m * k);
    DataCopy(d1g, b, m * k);
    DataCopy(emg, e, m * 32 / sizeof(T));
    DataCopy(sg, sum, m * 8);
    DataCopy(mg, max, m * 8);
}

extern "C" __global__ __aicore__ void flash_float(GM_ADDR x0, GM_ADDR x1, GM_ADDR d0, GM_ADDR d1, GM_ADDR s,
                                                  GM_ADDR mx, GM_ADDR em, uint32_t m, uint32_t k) {
    flash_two_blocks<float>(x0, x1, d0, d1, s, mx, em, m, k);
}

extern "C" __global__ __aicore__ void flash_half(GM_ADDR x0, GM_ADDR x1, GM_ADDR d0, GM_ADDR d1, GM_ADDR s,
                                                 GM_ADDR mx, GM_ADDR em, uint32_t m, uint32_t k) {
    flash_two_blocks<half>(x0, x1, d0, d1, s, mx, em, m, k);
}

// Rows of k floats of which the first `valid` count (the tensor's original shape); the tiling, not a shape
// argument, gives [m, k] (isCheckTiling false).
extern "C" __global__ __aicore__ void flash_padded(GM_ADDR x, GM_ADDR d, GM_ADDR s, GM_ADDR mx, uint32_t m, uint32_t k,
                                                   uint32_t valid) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, sb, mb, tb;
    pipe.InitBuffer(xb, m * k * sizeof(float));
    pipe.InitBuffer(sb, m * 8 * sizeof(float));
    pipe.InitBuffer(mb, m * 8 * sizeof(float));
    pipe.InitBuffer(tb, 4096);
    GlobalTensor<float> xg, dg, sg, mg;
    xg.SetGlobalBuffer((__gm__ float*)x, m * k);
    dg.SetGlobalBuffer((__gm__ float*)d, m * k);
    sg.SetGlobalBuffer((__gm__ float*)s, m * 8);
    mg.SetGlobalBuffer((__gm__ float*)mx, m * 8);
    LocalTensor<float> a = xb.Get<float>(), sum = sb.Get<float>(), max = mb.Get<float>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    DataCopy(a, xg, m * k);
    pipe_barrier(PIPE_ALL);
    uint32_t shape[] = {m, k};
    uint32_t orig[] = {m, valid};
    a.SetShapeInfo(ShapeInfo(2, shape, 2, orig, DataFormat::ND));
    SoftMaxTiling t = SoftMaxFlashV2TilingFuncImpl(m, k, 4, 4, tmp.GetSize() / 4);
    SoftmaxFlashV2<float, false, false, false, false, NO_CHECK_CFG>(a, sum, max, a, a, sum, max, tmp, t);
    pipe_barrier(PIPE_ALL);
    DataCopy(dg, a, m * k);
    DataCopy(sg, sum, m * 8);
    DataCopy(mg, max, m * 8);
}

// expSumTensor one block too small: refused where SoftmaxFlashV2 is called.
extern "C" __global__ __aicore__ void flash_small_sum(GM_ADDR x, GM_ADDR d) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, sb, mb;
    pipe.InitBuffer(xb, 16 * 64 * sizeof(float));
    pipe.InitBuffer(sb, 15 * 8 * sizeof(float));
    pipe.InitBuffer(mb, 16 * 8 * sizeof(float));
    GlobalTensor<float> xg, dg;
    xg.SetGlobalBuffer((__gm__ float*)x, 16 * 64);
    dg.SetGlobalBuffer((__gm__ float*)d, 16 * 64);
    LocalTensor<float> a = xb.Get<float>(), sum = sb.Get<float>(), max = mb.Get<float>();
    DataCopy(a, xg, 16 * 64);
    pipe_barrier(PIPE_ALL);
    SoftMaxTiling t = SoftMaxFlashV2TilingFuncImpl(16, 64, 4, 4, 2048);
    SoftmaxFlashV2<float, false>(a, sum, max, a, a, sum, max, t);  // EXPECT SIM-UB-SIZE
    pipe_barrier(PIPE_ALL);
    DataCopy(dg, a, 16 * 64);
}

// The kernel-side tiling of a float [m, k] basic block with `work` floats of work space: splitM, rangeM, tailM,
// reduceSize (and the plain split for comparison) into out[0..8).
extern "C" __global__ __aicore__ void flash_tiling(GM_ADDR out, uint32_t m, uint32_t k, uint32_t work) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ob;
    pipe.InitBuffer(ob, 8 * sizeof(uint32_t));
    GlobalTensor<uint32_t> og;
    og.SetGlobalBuffer((__gm__ uint32_t*)out, 8);
    LocalTensor<uint32_t> o = ob.Get<uint32_t>();
    SoftMaxTiling b = SoftMaxFlashV2TilingFuncImpl(m, k, 4, 4, work, true, true);
    SoftMaxTiling p = SoftMaxFlashV2TilingFuncImpl(m, k, 2, 4, work, true, false);
    o.SetValue(0, b.splitM);
    o.SetValue(1, b.rangeM);
    o.SetValue(2, b.tailM);
    o.SetValue(3, b.reduceSize);
    o.SetValue(4, p.splitM);
    o.SetValue(5, p.rangeM);
    o.SetValue(6, p.tailM);
    o.SetValue(7, p.reduceSize);
    pipe_barrier(PIPE_ALL);
    DataCopy(og, o, 8);
}

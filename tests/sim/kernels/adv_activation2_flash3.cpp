// Test kernel for SoftmaxFlashV3 (tests/sim/test_adv_activation2.py): m rows of k half columns, float statistics of
// one 32-byte block per row. mode 0: isUpdate false; 1: isUpdate true with separate input statistics; 2: isUpdate true
// with each output statistic the same tensor as its input (the library's in-place use); 3: k = 256 (reported).
// The expMax tensor comes from TBuf::AllocTensor (as asc-devkit's example takes it).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void flash3(GM_ADDR src, GM_ADDR stats, GM_ADDR dst, GM_ADDR outStats,
                                             GM_ADDR expMaxOut, int32_t mode, int32_t m, int32_t k, int32_t loopCnt)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, ib, ob, eb;
    const uint32_t n = m * k, st = m * 8;
    pipe.InitBuffer(xb, n * sizeof(half));
    pipe.InitBuffer(yb, n * sizeof(half));
    pipe.InitBuffer(ib, 3 * st * sizeof(float));
    pipe.InitBuffer(ob, 3 * st * sizeof(float));
    pipe.InitBuffer(eb, m * 32);
    LocalTensor<half> x = xb.Get<half>(), y = yb.Get<half>();
    LocalTensor<half> em = eb.AllocTensor<half>();
    LocalTensor<float> in = ib.Get<float>(), out = ob.Get<float>();
    GlobalTensor<half> xg, yg, eg;
    GlobalTensor<float> sg, og;
    xg.SetGlobalBuffer((__gm__ half*)src, n);
    yg.SetGlobalBuffer((__gm__ half*)dst, n);
    eg.SetGlobalBuffer((__gm__ half*)expMaxOut, m * 16);
    sg.SetGlobalBuffer((__gm__ float*)stats, 3 * st);
    og.SetGlobalBuffer((__gm__ float*)outStats, 3 * st);
    DataCopy(x, xg, n);
    DataCopy(in, sg, 3 * st);
    DataCopy(out, sg, 3 * st);
    Duplicate(em, static_cast<half>(0), m * 16);
    PipeBarrier<PIPE_ALL>();
    SoftMaxTiling tiling;  // the shape comes from the params
    SoftMaxParams params = {static_cast<uint32_t>(m), static_cast<uint32_t>(k), static_cast<uint32_t>(m),
                            static_cast<uint32_t>(k), static_cast<uint32_t>(loopCnt), 8, 0.9375f};
    // statistics: mean, sum, max, st floats each
    if (mode == 0) {
        SoftmaxFlashV3<half, float, false>(y, out, out[st], out[2 * st], x, em, in, in[st], in[2 * st], tiling, params);
    } else if (mode == 1) {
        SoftmaxFlashV3<half, float, true>(y, out, out[st], out[2 * st], x, em, in, in[st], in[2 * st], tiling, params);
    } else if (mode == 2) {
        SoftmaxFlashV3<half, float, true>(y, out, out[st], out[2 * st], x, em, out, out[st], out[2 * st], tiling,
                                          params);
    } else {
        params.srcK = 256;
        params.oriSrcK = 256;
        SoftmaxFlashV3<half, float, false>(  // EXPECT SIM-SOFTMAX-SHAPE
            y, out, out[st], out[2 * st], x, em, in, in[st], in[2 * st], tiling, params);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, y, n);
    DataCopy(og, out, 3 * st);
    DataCopy(eg, em, m * 16);
    eb.FreeTensor(em);
}

// Test kernel for SoftmaxGrad / SoftmaxGradFront (tests/sim/test_softmax_grad.py): m rows of k columns (k 32-byte
// aligned) of DTYPE_X, of which the first `valid` take part in the row sum (SoftMaxShapeInfo.oriSrcK).
// mode 0: SoftmaxGrad, isFront false, the framework's temp space; 1: the same with a sharedTmpBuffer and dst == src
// (the documented reuse); 2: SoftmaxGrad isFront true (one 32-byte block per row); 3: SoftmaxGradFront;
// 4: k not 32-byte aligned (reported).
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void softmax_grad(GM_ADDR grad, GM_ADDR src, GM_ADDR dst, int32_t mode, int32_t m,
                                                   int32_t k, int32_t valid)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> gb, sb, db, tb;
    const uint32_t n = m * k;
    pipe.InitBuffer(gb, n * sizeof(T));
    pipe.InitBuffer(sb, n * sizeof(T));
    pipe.InitBuffer(db, n * sizeof(T));
    pipe.InitBuffer(tb, 4096);
    LocalTensor<T> g = gb.Get<T>(), s = sb.Get<T>(), d = db.Get<T>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    GlobalTensor<T> gg, sg, dg;
    gg.SetGlobalBuffer((__gm__ T*)grad, n);
    sg.SetGlobalBuffer((__gm__ T*)src, n);
    dg.SetGlobalBuffer((__gm__ T*)dst, n);
    DataCopy(g, gg, n);
    DataCopy(s, sg, n);
    DataCopy(d, sg, n);
    PipeBarrier<PIPE_ALL>();
    SoftMaxTiling tiling;  // the shape comes from the shape info
    SoftMaxShapeInfo info = {static_cast<uint32_t>(m), static_cast<uint32_t>(k), static_cast<uint32_t>(m),
                             static_cast<uint32_t>(valid)};
    if (mode == 0) {
        SoftmaxGrad<T>(d, g, s, tiling, false, info);
    } else if (mode == 1) {
        SoftmaxGrad<T>(s, g, s, tmp, tiling, false, info);
        PipeBarrier<PIPE_V>();
        DataCopy(d, s, n);
    } else if (mode == 2) {
        SoftmaxGrad<T>(d, g, s, tiling, true, info);
    } else if (mode == 3) {
        SoftmaxGradFront<T>(d, g, s, tmp, tiling, info);
    } else {
        SoftMaxShapeInfo bad = {static_cast<uint32_t>(m), static_cast<uint32_t>(k - 1), static_cast<uint32_t>(m),
                                static_cast<uint32_t>(k - 1)};
        SoftmaxGrad<T>(d, g, s, tiling, false, bad);  // EXPECT SIM-SOFTMAX-SHAPE
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(dg, d, n);
}

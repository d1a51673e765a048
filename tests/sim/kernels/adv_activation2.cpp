// Test kernel for LogSoftMax (tests/sim/test_adv_activation2.py): m rows of k columns (k 32-byte aligned) of DTYPE_X,
// of which the first `valid` take part (oriSrcK). Outputs: dst (m * k), sum and max (one 32-byte block per row).
// mode 0: the shape from a SoftMaxShapeInfo; 1: the shape from the source's SetShapeInfo (original shape's last axis
// = valid) and dst == src (the row is read before it is written); 2: k - 1 columns, not 32-byte aligned (reported).
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void logsoftmax(GM_ADDR src, GM_ADDR dst, GM_ADDR sum, GM_ADDR max, int32_t mode,
                                                 int32_t m, int32_t k, int32_t valid)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, sb, mb, tb;
    const uint32_t n = m * k, blk = 32 / sizeof(T);
    pipe.InitBuffer(xb, n * sizeof(T));
    pipe.InitBuffer(yb, n * sizeof(T));
    pipe.InitBuffer(sb, m * 32);
    pipe.InitBuffer(mb, m * 32);
    pipe.InitBuffer(tb, 4096);
    LocalTensor<T> x = xb.Get<T>(), y = yb.Get<T>(), s = sb.Get<T>(), mx = mb.Get<T>();
    LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
    GlobalTensor<T> xg, yg, sg, mg;
    xg.SetGlobalBuffer((__gm__ T*)src, n);
    yg.SetGlobalBuffer((__gm__ T*)dst, n);
    sg.SetGlobalBuffer((__gm__ T*)sum, m * blk);
    mg.SetGlobalBuffer((__gm__ T*)max, m * blk);
    DataCopy(x, xg, n);
    DataCopy(y, xg, n);
    PipeBarrier<PIPE_ALL>();
    LogSoftMaxTiling tiling;  // not read: the library recomputes its tiling
    if (mode == 0) {
        SoftMaxShapeInfo info = {static_cast<uint32_t>(m), static_cast<uint32_t>(k), static_cast<uint32_t>(m),
                                 static_cast<uint32_t>(valid)};
        LogSoftMax<T>(y, s, mx, x, tmp, tiling, info);
    } else if (mode == 1) {
        uint32_t shape[2] = {static_cast<uint32_t>(m), static_cast<uint32_t>(k)};
        uint32_t orig[2] = {static_cast<uint32_t>(m), static_cast<uint32_t>(valid)};
        y.SetShapeInfo(ShapeInfo(2, shape, 2, orig, DataFormat::ND));
        LogSoftMax<T>(y, s, mx, y, tmp, tiling);
    } else {
        SoftMaxShapeInfo bad = {static_cast<uint32_t>(m), static_cast<uint32_t>(k - 1), static_cast<uint32_t>(m),
                                static_cast<uint32_t>(k - 1)};
        LogSoftMax<T>(y, s, mx, x, tmp, tiling, bad);  // EXPECT SIM-SOFTMAX-SHAPE
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, y, n);
    DataCopy(sg, s, m * blk);
    DataCopy(mg, mx, m * blk);
}

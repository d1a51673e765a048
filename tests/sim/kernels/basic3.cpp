// Test kernel for DataCopy with SliceInfo (tests/sim/test_basic3.py): a rows x cols float source in GM; mode 0 picks
// bursts of `burst` blocks `stride` elements apart from [start, end] of every (rstride + 1)-th row of [r0, r1] into a
// packed UB area (GM -> UB), then copies that area back to dst with the same slicing (UB -> GM); mode 1 leaves
// shapeValue 0 (reported).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void slice(GM_ADDR src, GM_ADDR packed, GM_ADDR dst, int32_t mode, int32_t rows,
                                            int32_t cols, int32_t start, int32_t end, int32_t stride, int32_t burst,
                                            int32_t r0, int32_t r1, int32_t rstride, int32_t outCols,
                                            int32_t outRows)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, outRows * outCols * 4);
    LocalTensor<float> u = ub.Get<float>();
    GlobalTensor<float> sg, pg, dg;
    sg.SetGlobalBuffer((__gm__ float*)src, rows * cols);
    pg.SetGlobalBuffer((__gm__ float*)packed, outRows * outCols);
    dg.SetGlobalBuffer((__gm__ float*)dst, rows * cols);
    const uint32_t shapeOr0 = mode == 1 ? 0 : 1;
    SliceInfo srcS[2] = {{static_cast<uint32_t>(start), static_cast<uint32_t>(end), static_cast<uint32_t>(stride),
                          static_cast<uint32_t>(burst), shapeOr0 * cols},
                         {static_cast<uint32_t>(r0), static_cast<uint32_t>(r1), static_cast<uint32_t>(rstride), 1,
                          shapeOr0 * rows}};
    SliceInfo ubS[2] = {{0, static_cast<uint32_t>(outCols - 1), 0, static_cast<uint32_t>(burst),
                         static_cast<uint32_t>(outCols)},
                        {0, static_cast<uint32_t>(outRows - 1), 0, 1, static_cast<uint32_t>(outRows)}};
    DataCopy(u, sg, ubS, srcS, 2);  // EXPECT SIM-NOT-EMULATED
    PipeBarrier<PIPE_ALL>();
    DataCopy(pg, u, outRows * outCols);
    PipeBarrier<PIPE_ALL>();
    if (mode == 0) {
        SliceInfo ubSrc[2] = {{0, static_cast<uint32_t>(outCols - 1), 0, static_cast<uint32_t>(burst),
                               static_cast<uint32_t>(outCols)},
                              {0, static_cast<uint32_t>(outRows - 1), 0, 1, static_cast<uint32_t>(outRows)}};
        DataCopy(dg, u, srcS, ubSrc, 2);
    }
}

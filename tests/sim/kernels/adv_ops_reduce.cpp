// Test kernel for ReduceMax / ReduceMin with Pattern::Reduce::AR / RA (tests/sim/test_adv_ops.py): x is rows x cols
// (cols a whole number of 32-byte blocks, the valid part `valid` wide); mode 0 AR max, 1 AR min, 2 RA max (with
// sharedTmpBuffer), 3 RA min, 4 AR max with srcInnerPad false (rejected on A2/A3).
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void adv_ops_reduce(GM_ADDR x, GM_ADDR y, int32_t mode, int32_t rows, int32_t cols,
                                                     int32_t valid)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, btmp;
    pipe.InitBuffer(bx, rows * cols * sizeof(T));
    pipe.InitBuffer(by, 1024);
    pipe.InitBuffer(btmp, 1024);
    LocalTensor<T> lx = bx.Get<T>(), ly = by.Get<T>();
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, rows * cols);
    yGm.SetGlobalBuffer((__gm__ T*)y, 1024 / sizeof(T));
    DataCopy(lx, xGm, rows * cols);
    Duplicate(ly, static_cast<T>(0), 1024 / sizeof(T));
    PipeBarrier<PIPE_ALL>();
    uint32_t ar[2] = {static_cast<uint32_t>(rows), static_cast<uint32_t>(valid)};
    if (mode == 0) ReduceMax<T, Pattern::Reduce::AR>(ly, lx, ar, true);
    if (mode == 1) ReduceMin<T, Pattern::Reduce::AR>(ly, lx, ar, true);
    if (mode == 2) ReduceMax<T, Pattern::Reduce::RA>(ly, lx, btmp.Get<uint8_t>(), ar, true);
    if (mode == 3) ReduceMin<T, Pattern::Reduce::RA, true>(ly, lx, ar, true);
    if (mode == 4) ReduceMax<T, Pattern::Reduce::AR>(ly, lx, ar, false);  // EXPECT SIM-REDUCE-PAD
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, ly, 1024 / sizeof(T));
}

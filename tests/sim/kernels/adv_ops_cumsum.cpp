// Test kernel for CumSum (tests/sim/test_adv_ops.py): x is rows x cols of DTYPE_X; y the cumulative sums, last the
// last row. mode 0: along the last axis with lastRow, with sharedTmpBuffer; 1: along the first axis, no lastRow.
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

constexpr CumSumConfig kLast{true, false, true};
constexpr CumSumConfig kFirst{false, false, false};

extern "C" __global__ __aicore__ void adv_ops_cumsum(GM_ADDR x, GM_ADDR y, GM_ADDR last, int32_t mode, int32_t rows,
                                                     int32_t cols)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bl, btmp;
    pipe.InitBuffer(bx, rows * cols * sizeof(T));
    pipe.InitBuffer(by, rows * cols * sizeof(T));
    pipe.InitBuffer(bl, cols * sizeof(T));
    pipe.InitBuffer(btmp, 8192);
    LocalTensor<T> lx = bx.Get<T>(), ly = by.Get<T>(), ll = bl.Get<T>();
    GlobalTensor<T> xGm, yGm, lGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, rows * cols);
    yGm.SetGlobalBuffer((__gm__ T*)y, rows * cols);
    lGm.SetGlobalBuffer((__gm__ T*)last, cols);
    DataCopy(lx, xGm, rows * cols);
    Duplicate(ll, static_cast<T>(0), cols);
    PipeBarrier<PIPE_ALL>();
    CumSumInfo info{static_cast<uint32_t>(rows), static_cast<uint32_t>(cols)};
    if (mode == 0) CumSum<T, kLast>(ly, ll, lx, btmp.Get<uint8_t>(), info);
    if (mode == 1) CumSum<T, kFirst>(ly, ll, lx, info);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, ly, rows * cols);
    DataCopy(lGm, ll, cols);
}

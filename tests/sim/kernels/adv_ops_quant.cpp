// Test kernel for the per-tensor AscendQuant (tests/sim/test_adv_ops.py): y (int8) = quant(x (DTYPE_X), scale 2.5,
// offset 0.5), with sharedTmpBuffer and calCount (mode 0) or neither (mode 1).
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void adv_ops_quant(GM_ADDR x, GM_ADDR y, int32_t mode, int32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, btmp;
    pipe.InitBuffer(bx, n * sizeof(T));
    pipe.InitBuffer(by, n);
    pipe.InitBuffer(btmp, 1024);
    LocalTensor<T> lx = bx.Get<T>();
    LocalTensor<int8_t> ly = by.Get<int8_t>();
    GlobalTensor<T> xGm;
    GlobalTensor<int8_t> yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, n);
    yGm.SetGlobalBuffer((__gm__ int8_t*)y, n);
    DataCopy(lx, xGm, n);
    PipeBarrier<PIPE_ALL>();
    if (mode == 0) AscendQuant<T>(ly, lx, btmp.Get<uint8_t>(), 2.5f, 0.5f, n);
    if (mode == 1) AscendQuant<T>(ly, lx, 2.5f, 0.5f);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, ly, n);
}

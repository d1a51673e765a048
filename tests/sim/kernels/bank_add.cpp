// Test kernel for the UB bank-group term (tests/sim/test_cost_gm.py): z = x + y on tensors at fixed UB addresses,
// y Y_OFFSET bytes after a 32 KiB multiple (0: x and y start in the same bank group; 256: 8 groups apart);
// ALONGSIDE: one more GM -> UB copy issued while the adds run.
#include "kernel_operator.h"
using namespace AscendC;
#ifndef Y_OFFSET
#define Y_OFFSET 0
#endif

extern "C" __global__ __aicore__ void bank_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
{
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n);
    yGm.SetGlobalBuffer((__gm__ float*)y, n);
    zGm.SetGlobalBuffer((__gm__ float*)z, n);
    LocalTensor<float> xl(TPosition::VECCALC, 0, n);
    LocalTensor<float> yl(TPosition::VECCALC, 32768 + Y_OFFSET, n);
    LocalTensor<float> zl(TPosition::VECCALC, 98304, n);
    DataCopy(xl, xGm, n);
    DataCopy(yl, yGm, n);
    PipeBarrier<PIPE_ALL>();
    for (int i = 0; i < 8; ++i) Add(zl, xl, yl, n);
#ifdef ALONGSIDE
    // a GM -> UB copy issued while the adds run (no barrier between): it waits while their conflicts hold UB
    LocalTensor<float> wl(TPosition::VECCALC, 131072, n);
    DataCopy(wl, xGm, n);
#endif
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, zl, n);
}

// Test kernel (tests/sim/test_split_launch.py): SyncAll across the two vector cores of a one-block MIX launch. The
// vector core of sub-block 1 writes y[64:128] = x + 1; after SyncAll the one of sub-block 0 writes y[0:64] =
// y[64:128] + 1 (2 + x when the barrier held). Both then signal the cube core, which waits for them.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void syncall_mix(GM_ADDR x, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC {
        CrossCoreWaitFlag(1);
        return;
    }
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    yGm.SetGlobalBuffer((__gm__ float*)y, 128);
    if (GetSubBlockIdx() == 1) {
        DataCopy(t, xGm, 64);
        PipeBarrier<PIPE_ALL>();
        Adds(t, t, 1.0f, 64);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm[64], t, 64);
    }
    SyncAll();
    if (GetSubBlockIdx() == 0) {
        DataCopy(t, yGm[64], 64);
        PipeBarrier<PIPE_ALL>();
        Adds(t, t, 1.0f, 64);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, t, 64);
    }
    CrossCoreSetFlag<2, PIPE_MTE3>(1);
}

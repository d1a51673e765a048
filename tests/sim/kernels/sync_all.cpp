// Test kernel for SyncAll across blocks: every block writes its slice sum into the workspace, all blocks meet at
// SyncAll, then block 0 adds the partial sums. With `skip` = 1, block 1 returns before the barrier (an NPU hang).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t PER_BLOCK = 64;

extern "C" __global__ __aicore__ void sync_all(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, int32_t skip)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, work;
    pipe.InitBuffer(buf, PER_BLOCK * sizeof(float));
    pipe.InitBuffer(work, PER_BLOCK * sizeof(float));
    GlobalTensor<float> xGm, zGm, wsGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + PER_BLOCK * GetBlockIdx(), PER_BLOCK);
    zGm.SetGlobalBuffer((__gm__ float*)z, 8);
    wsGm.SetGlobalBuffer((__gm__ float*)workspace, 64);
    LocalTensor<float> v = buf.Get<float>();
    LocalTensor<float> w = work.Get<float>();
    DataCopy(v, xGm, PER_BLOCK);
    PipeBarrier<PIPE_ALL>();
    ReduceSum(v, v, w, PER_BLOCK);
    PipeBarrier<PIPE_ALL>();
    wsGm.SetValue(GetBlockIdx(), v.GetValue(0));
    if (skip != 0 && GetBlockIdx() == 1) {
        return;
    }
    SyncAll();  // EXPECT SIM-SYNCALL-MISSING
    if (GetBlockIdx() == 0) {
        float total = 0;
        for (int64_t b = 0; b < GetBlockNum(); ++b) {
            total += wsGm.GetValue(b);
        }
        zGm.SetValue(0, total);
    }
}

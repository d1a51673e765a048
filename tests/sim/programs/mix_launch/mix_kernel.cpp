// A MIX (AIC + AIV) kernel for tests/sim/test_mix_launch.py: every core writes what it is into z, one int32 slot
// per core: the vector cores at [GetBlockIdx()] (0 .. 2 * blocks - 1) the value 100 + GetBlockIdx(), the cube core
// of each block at [64 + GetBlockIdx()] the value 200 + GetBlockIdx(). `__mix__(1, 2)` declares it MIX 1:2.
#include "kernel_operator.h"

extern "C" __global__ __mix__(1, 2) void mix_kernel(GM_ADDR z)
{
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)z, 128);
    if ASCEND_IS_AIV {
        g.SetValue(AscendC::GetBlockIdx(), 100 + static_cast<int32_t>(AscendC::GetBlockIdx()));
    }
    if ASCEND_IS_AIC {
        g.SetValue(64 + AscendC::GetBlockIdx(), 200 + static_cast<int32_t>(AscendC::GetBlockIdx()));
    }
    if (g_coreType == AscendC::AIV) {
        g.SetValue(96 + AscendC::GetBlockIdx(), 1);  // g_coreType follows the core too (CANN CPU debug)
    }
}

// a plain vector kernel in the same translation unit: one core per block
extern "C" __global__ __aicore__ void vec_kernel(GM_ADDR z)
{
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)z, 128);
    g.SetValue(AscendC::GetBlockIdx(), 300 + static_cast<int32_t>(AscendC::GetBlockIdx()));
}

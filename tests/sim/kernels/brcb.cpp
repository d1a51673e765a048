// Test kernel for Brcb (tests/sim/test_brcb.py): x holds 64 source elements of DTYPE_X, z (N elements) starts as a
// copy of `init`; `mode` 0 runs Brcb(z, x, repeat, {blkStride, repStride}), 1 passes the same tensor twice (checked),
// 2 is mode 0 after a narrow SetVectorMask followed by a Duplicate that uses the current mask (Brcb resets it),
// 3 sets dstBlkStride 0 (a warning; taken as 1).
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;
constexpr int32_t N = 2048;

extern "C" __global__ __aicore__ void brcb(GM_ADDR x, GM_ADDR init, GM_ADDR z, int32_t mode, int32_t repeat,
                                           int32_t blkStride, int32_t repStride)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufS, bufD;
    pipe.InitBuffer(bufS, 64 * sizeof(T));
    pipe.InitBuffer(bufD, N * sizeof(T));
    LocalTensor<T> s = bufS.Get<T>(), d = bufD.Get<T>();
    GlobalTensor<T> xGm, initGm, zGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, 64);
    initGm.SetGlobalBuffer((__gm__ T*)init, N);
    zGm.SetGlobalBuffer((__gm__ T*)z, N);
    DataCopy(s, xGm, 64);
    DataCopy(d, initGm, N);
    PipeBarrier<PIPE_ALL>();
    if (mode == 1) {
        Brcb(d, d, repeat, BrcbRepeatParams(blkStride, repStride));  // EXPECT SIM-BRCB-SAME
    } else if (mode == 3) {
        Brcb(d, s, repeat, BrcbRepeatParams(0, repStride));  // EXPECT SIM-BRCB-BLKSTRIDE
    } else {
        if (mode == 2) SetVectorMask<T>(0, 0xF);
        Brcb(d, s, repeat, BrcbRepeatParams(blkStride, repStride));
        if constexpr (std::is_same_v<T, float>) {
            if (mode == 2) {
                PipeBarrier<PIPE_V>();
                Duplicate<T, false>(d[1024], 5.0f, MASK_PLACEHOLDER, 1, 1, 8);
            }
        }
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, d, N);
}

// Test kernel for CreateVecIndex (tests/sim/test_create_vec_index.py). z (N elements of DTYPE_Z) is first filled
// with the sentinel -7, then `mode` picks the form: 0 count, 1 continuous mask + repeat, 2 mask bits + repeat,
// 3 a continuous mask smaller than one 32-byte block, 4 a repeat form in counter mask mode (both checked).
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_Z;
constexpr int32_t N = 2048;

extern "C" __global__ __aicore__ void create_vec_index(GM_ADDR z, int32_t mode, int64_t first, uint32_t count,
                                                       uint64_t maskLo, uint64_t maskHi, int32_t repeat,
                                                       int32_t blkStride, int32_t repStride)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(T));
    LocalTensor<T> t = buf.Get<T>();
    GlobalTensor<T> zGm;
    zGm.SetGlobalBuffer((__gm__ T*)z, N);
    T f;
    if constexpr (std::is_integral_v<T>) {
        f = static_cast<T>(first);
    } else {
        f = static_cast<T>(static_cast<float>(first));
    }
    Duplicate(t, static_cast<T>(-7.0f), N);
    PipeBarrier<PIPE_V>();
    if (mode == 0) {
        CreateVecIndex(t, f, count);
    } else if (mode == 1) {
        CreateVecIndex(t, f, maskLo, repeat, blkStride, repStride);
    } else if (mode == 2) {
        uint64_t mask[2] = {maskLo, maskHi};
        CreateVecIndex(t, f, mask, repeat, blkStride, repStride);
    } else if (mode == 3) {
        CreateVecIndex(t, f, maskLo, repeat, blkStride, repStride);  // EXPECT SIM-CVI-MASK
    } else if (mode == 4) {
        SetMaskCount();
        CreateVecIndex(t, f, maskLo, repeat, blkStride, repStride);  // EXPECT SIM-CVI-COUNTER
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, t, N);
}

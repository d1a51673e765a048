// What the Foreach answers need beyond tensor lists: the high-level Power in its three forms, the DT_* macros that
// `#if ORIG_DTYPE_X == DT_...` compares, and CrossCoreWaitFlag (mode 0) as a barrier of all blocks.
//   mode 0: z = x ^ s      mode 1: z = s ^ x      mode 2: z = x ^ y      (s = scalar argument, y = x reversed)
//   mode 3: every block adds (block + 1) into its slot of z, waits at the cross-core barrier, then block 0 writes the
//           sum of all slots into z[32] (wrong without the barrier: block 0 runs first).
// flag[0] says which dtype path the preprocessor took: 1 for DT_INT32, 2 for DT_FLOAT.
#include "kernel_operator.h"

using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void foreach_support(GM_ADDR x, GM_ADDR z, GM_ADDR flag, int32_t mode, float s) {
    GlobalTensor<T> xg, zg;
    GlobalTensor<int32_t> fg;
    xg.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), 64);
    zg.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z), 64);
    fg.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(flag), 8);
#if ORIG_DTYPE_X == DT_INT32
    if (GetBlockIdx() == 0) fg.SetValue(0, 1);
#elif ORIG_DTYPE_X == DT_FLOAT
    if (GetBlockIdx() == 0) fg.SetValue(0, 2);
#endif
    if (mode == 3) {
        zg.SetValue(GetBlockIdx(), static_cast<T>(GetBlockIdx() + 1));
        CrossCoreSetFlag<0, PIPE_MTE3>(1);
        CrossCoreWaitFlag(1);
        if (GetBlockIdx() == 0) {
            T sum = 0;
            for (int64_t b = 0; b < GetBlockNum(); ++b) sum += zg.GetValue(b);
            zg.SetValue(32, sum);
        }
        return;
    }
    if (GetBlockIdx() != 0) return;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * 64 * sizeof(T));
    LocalTensor<T> a = buf.Get<T>();
    LocalTensor<T> b = a[64];
    LocalTensor<T> c = a[128];
    DataCopy(a, xg, 64);
    PipeBarrier<PIPE_ALL>();
    for (int32_t i = 0; i < 64; ++i) b.SetValue(i, a.GetValue(63 - i));
    const T sv = static_cast<T>(s);
    if (mode == 0) Power<T, false>(c, a, sv, 64);
    else if (mode == 1) Power<T, false>(c, sv, a, 64);
    else Power<T, false>(c, a, b, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zg, c, 64);
}

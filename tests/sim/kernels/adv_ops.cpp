// Test kernel for the element-wise adv APIs of akgen_sim/adv_elementwise.h (tests/sim/test_adv_ops.py). DTYPE_X is
// the data type; `mode` picks the API: 0 Fmod, 1 ClampMin, 2 ClampMax, 3 Swish, 4 GeGLU, 5 Arange, 6 Xor (integer
// types), 7 Fmod without calCount, 8 Swish reading 8 elements past the end of src, reported at its line.
#include <type_traits>
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void adv_ops(GM_ADDR a, GM_ADDR b, GM_ADDR y, int32_t mode, int32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, by, btmp;
    pipe.InitBuffer(ba, n * sizeof(T));
    pipe.InitBuffer(bb, n * sizeof(T));
    pipe.InitBuffer(by, n * sizeof(T));
    pipe.InitBuffer(btmp, 4096);
    LocalTensor<T> la = ba.Get<T>(), lb = bb.Get<T>(), ly = by.Get<T>();
    LocalTensor<uint8_t> tmp = btmp.Get<uint8_t>();
    GlobalTensor<T> aGm, bGm, yGm;
    aGm.SetGlobalBuffer((__gm__ T*)a, n);
    bGm.SetGlobalBuffer((__gm__ T*)b, n);
    yGm.SetGlobalBuffer((__gm__ T*)y, n);
    DataCopy(la, aGm, n);
    DataCopy(lb, bGm, n);
    Duplicate(ly, static_cast<T>(0), n);
    PipeBarrier<PIPE_ALL>();
    if constexpr (std::is_integral_v<T>) {
        if (mode == 6) Xor<T, false>(ly, la, lb, tmp, n);
    } else {
        if (mode == 0) Fmod(ly, la, lb, tmp, n);
        if (mode == 1) ClampMin<T, false>(ly, la, tmp, static_cast<T>(0.5f), n);
        if (mode == 2) ClampMax<T, false>(ly, la, static_cast<T>(-0.25f), n);
        if (mode == 3) Swish(ly, la, n, static_cast<T>(1.5f));
        if (mode == 4) GeGLU<T, false>(ly, la, lb, tmp, n);
        if (mode == 5) Arange<T>(ly, static_cast<T>(1.5f), static_cast<T>(0.25f), n - 21);
        if (mode == 7) Fmod(ly, la, lb);
        if (mode == 8) Swish(ly, la[8], n, static_cast<T>(1.0f));  // EXPECT SIM-UB-SIZE
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, ly, n);
}

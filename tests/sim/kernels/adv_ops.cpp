// Test kernel for the element-wise adv APIs of akgen_sim/adv_elementwise.h (tests/sim/test_adv_ops.py). DTYPE_X is
// the data type; `mode` picks the API: 0 Fmod, 1 ClampMin, 2 ClampMax, 3 Swish, 4 GeGLU, 5 Arange, 6 Xor (integer
// types), 7 Fmod without calCount, 8 Swish reading 8 elements past the end of src, reported at its line, 9 SwiGLU,
// 10 Axpy into float from half (b's bytes read as half), 11 DropOut with a byte mask (b's bytes), 12 DropOut with a
// bit mask (b's first bytes; both on 4 rows of 48), 13 DropOut with keepProb 1 (rejected),
// 14 AdjustSoftMaxRes.
#include <type_traits>
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

template <typename U>  // a template, so that the float-only call is discarded for other types
__aicore__ inline void AxpyFromHalf(LocalTensor<U>& ly, LocalTensor<U>& la, LocalTensor<U>& lb,
                                    LocalTensor<uint8_t>& tmp, int32_t n)
{
    if constexpr (std::is_same_v<U, float>) {
        DataCopy(ly, la, n);
        PipeBarrier<PIPE_V>();
        Axpy<float, half, false>(ly, lb.template ReinterpretCast<half>(), static_cast<half>(1.5f), tmp, n);
    }
}

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
        if (mode == 9) SwiGLU<T, false>(ly, la, lb, 0.75f, tmp, n);
        if (mode == 10) AxpyFromHalf(ly, la, lb, tmp, n);
        if (mode == 14) {  // a: 13 rows of 16 results, b: 13 rows' max blocks; rows whose max is 1.0 become -2
            DataCopy(ly, la, n);
            PipeBarrier<PIPE_V>();
            SoftMaxShapeInfo si{13, 16, 13, 16};
            const bool hit = AdjustSoftMaxRes<T, T>(ly, lb, sizeof(T) == 4 ? 0x3f800000u : 0x3c00u,
                                                    static_cast<T>(-2.0f), si);
            ly.SetValue(n - 1, static_cast<T>(hit ? 1.0f : 0.0f));
        }
        DropOutShapeInfo info;
        info.firstAxis = 4;
        info.srcLastAxis = 48;
        info.maskLastAxis = mode == 12 ? 6 : 64;  // bits: 6 bytes a row; bytes: rows padded to 64
        if (mode == 11) DropOut(ly, la, lb.template ReinterpretCast<uint8_t>(), tmp, 0.8f, info);
        if (mode == 12) DropOut<T, false, 3>(ly, la, lb.template ReinterpretCast<uint8_t>(), 0.25f, info);
        if (mode == 13) DropOut(ly, la, lb.template ReinterpretCast<uint8_t>(), 1.0f, info);  // EXPECT SIM-DROPOUT-ARGS
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, ly, n);
}

// Test kernel for the element-wise families against numpy: `op` picks the API and form; x and y hold N elements of
// DTYPE_X; z receives N elements of DTYPE_Z (the Cast target for the Cast cases).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 256;

template <typename T, typename Z>
__aicore__ inline void Compute(LocalTensor<T>& a, LocalTensor<T>& b, LocalTensor<Z>& c, int32_t op)
{
    if constexpr (std::is_same_v<T, Z>) {
        Duplicate(c, T(0), N);
        constexpr uint32_t PER = 256 / sizeof(T);
        switch (op) {
            case 0: Add(c, a, b, N); break;
            case 1: Sub(c, a, b, N); break;
            case 2: Mul(c, a, b, N); break;
            case 3: Div(c, a, b, N); break;
            case 4: Max(c, a, b, N); break;
            case 5: Min(c, a, b, N); break;
            case 6: Exp(c, a, N); break;
            case 7: Abs(c, a, N); break;
            case 8: Sqrt(c, a, N); break;
            case 9: Relu(c, a, N); break;
            case 10: Adds(c, a, T(1.5f), N); break;
            case 11: Muls(c, a, T(0.3f), N); break;
            case 12: Maxs(c, a, T(0.25f), N); break;
            case 13: c = a * b; break;
            case 14: {  // mask + repeat, continuous mask: first 10 elements of each repeat, 2 repeats
                Add(c, a, b, 10, 2, BinaryRepeatParams());
                break;
            }
            case 15: {  // mask bits: mask[0] is the low half: even elements only
                uint64_t mask[2] = {0x5555555555555555ull, PER > 64 ? 0x5555555555555555ull : 0ull};
                Mul(c, a, b, mask, N / PER, BinaryRepeatParams());
                break;
            }
            case 16: {  // counter mode: 100 elements regardless of repeat
                SetMaskCount();
                SetVectorMask<T, MaskMode::COUNTER>(0, 100);
                Sub<T, false>(c, a, b, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
                SetMaskNorm();
                ResetMask();
                break;
            }
            case 17: {  // strides: src0 every other block, dst packed; one repeat
                Add(c, a, b, PER, 1, BinaryRepeatParams(1, 2, 1, 8, 8, 8));
                break;
            }
            case 18: Add(c, a, b, 10, 256, BinaryRepeatParams()); break;  // repeat 256 wraps: error, not run
            case 19: Duplicate(c, T(2.0f), 0); break;                     // count 0: no-op
            case 20: Cast(c, a, RoundMode::CAST_ROUND, N); break;         // same type: round to integral
            case 21: Cast(c, a, RoundMode::CAST_FLOOR, N); break;
            default: break;
        }
    } else {
        static const RoundMode modes[] = {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
                                          RoundMode::CAST_CEIL, RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC,
                                          RoundMode::CAST_ODD};
        Cast(c, a, modes[op], N);
    }
}

extern "C" __global__ __aicore__ void vecops(GM_ADDR x, GM_ADDR y, GM_ADDR z, int32_t op)
{
    using T = DTYPE_X;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, N * sizeof(T));
    pipe.InitBuffer(by, N * sizeof(T));
    pipe.InitBuffer(bz, N * sizeof(DTYPE_Z));
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<DTYPE_Z> zGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, N);
    yGm.SetGlobalBuffer((__gm__ T*)y, N);
    zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z, N);
    LocalTensor<T> a = bx.Get<T>();
    LocalTensor<T> b = by.Get<T>();
    LocalTensor<DTYPE_Z> c = bz.Get<DTYPE_Z>();
    DataCopy(a, xGm, N);
    DataCopy(b, yGm, N);
    Compute(a, b, c, op);
    DataCopy(zGm, c, N);
}

// Test kernel for Compare / Compares / CompareScalar / Select / GetCmpMask / SetCmpMask. One binary per DTYPE_X;
// `mode` picks the case (see tests/sim/test_cmpsel.py). Inputs a, b hold n elements (n a multiple of 256);
// outputs: bits (n / 8 bytes, prefilled with 0xA5 so untouched bits are visible) and z (n elements, prefilled with b).
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void cmpsel(GM_ADDR a, GM_ADDR b, GM_ADDR bits, GM_ADDR z, int32_t mode, int32_t n)
{
    constexpr int32_t PER = 256 / sizeof(T);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufA, bufB, bufZ, bufBits, bufBig;
    GlobalTensor<T> aGm, bGm, zGm;
    GlobalTensor<uint8_t> bitsGm;
    aGm.SetGlobalBuffer((__gm__ T*)a, n);
    bGm.SetGlobalBuffer((__gm__ T*)b, n);
    zGm.SetGlobalBuffer((__gm__ T*)z, n);
    bitsGm.SetGlobalBuffer((__gm__ uint8_t*)bits, n / 8);
    pipe.InitBuffer(bufA, n * sizeof(T));
    pipe.InitBuffer(bufB, n * sizeof(T));
    pipe.InitBuffer(bufZ, n * sizeof(T));
    pipe.InitBuffer(bufBits, n / 8 < 32 ? 32 : n / 8);
    LocalTensor<T> la = bufA.Get<T>();
    LocalTensor<T> lb = bufB.Get<T>();
    LocalTensor<T> lz = bufZ.Get<T>();
    LocalTensor<uint8_t> lbits = bufBits.Get<uint8_t>();
    DataCopy(la, aGm, n);
    DataCopy(lb, bGm, n);
    DataCopy(lz, bGm, n);
    for (int32_t i = 0; i < n / 8; ++i) lbits.SetValue(i, static_cast<uint8_t>(0xA5));
    PipeBarrier<PIPE_ALL>();
    BinaryRepeatParams bp;
    UnaryRepeatParams up;
    const T half_t = static_cast<T>(0.5f);
    switch (mode) {
        case 0:  // count forms, tensor-tensor: z = a < b ? a : b
            Compare(lbits, la, lb, CMPMODE::LT, n);
            Select(lz, lbits, la, lb, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
            break;
        case 1:  // Compares + tensor-scalar Select: z = a >= 0.5 ? a : 0.5
            Compares(lbits, la, half_t, CMPMODE::GE, n);
            Select(lz, lbits, la, half_t, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
            break;
        case 2:  // the deprecated name, EQ against a scalar; z = a == 0.5 ? 0.5 : b
            CompareScalar(lbits, la, half_t, CMPMODE::EQ, n);
            Select(lz, lbits, lz, lz, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
            Select(lz, lbits, la, lb, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
            break;
        case 3:  // mask + repeat forms: bits = a > b; z = a > b ? a : b (mode 2, repeat form)
            Compare(lbits, la, lb, CMPMODE::GT, (uint64_t)PER, n / PER, bp);
            Select(lz, lbits, la, lb, SELMODE::VSEL_TENSOR_TENSOR_MODE, (uint64_t)PER, n / PER, bp);
            break;
        case 4:  // mode 0 count form: every repeat reuses the first PER bits of selMask
            Compare(lbits, la, lb, CMPMODE::NE, n);
            Select(lz, lbits, la, lb, SELMODE::VSEL_CMPMASK_SPR, n);
            break;
        case 5:  // count not a multiple of 256 B: only whole repeats compared, tail bits untouched
            Compare(lbits, la, lb, CMPMODE::LE, n - 8);  // EXPECT SIM-CMP-COUNT
            break;
        case 6:  // repeatTime 0 is a no-op for Compare and Select
            Compare(lbits, la, lb, CMPMODE::LT, (uint64_t)PER, 0, bp);
            Select(lz, lbits, la, lb, SELMODE::VSEL_TENSOR_TENSOR_MODE, (uint64_t)PER, 0, bp);
            break;
        case 7: {  // Select repeat form with a partial mask: disabled elements keep dst (= b); Compares repeat form
            Compares(lbits, la, half_t, CMPMODE::LT, (uint64_t)PER, n / PER, up);
            uint64_t mask[2] = {0x5555555555555555ull, PER == 128 ? 0x5555555555555555ull : 0ull};
            Select(lz, lbits, la, half_t, SELMODE::VSEL_TENSOR_SCALAR_MODE, mask, n / PER, bp);
            break;
        }
        case 8:  // Compare into CMPMASK (one repeat), GetCmpMask, Select<T, mode 0> from the register
            Compare(la, lb, CMPMODE::GT, (uint64_t)PER, bp);
            GetCmpMask(lbits);
            Select<T, SELMODE::VSEL_CMPMASK_SPR>(lz, la, lb, n / PER, bp);
            break;
        case 9: {  // SetCmpMask then Select mode 1 without the scalar: the scalar comes from CMPMASK
            LocalTensor<T> scal = bufZ.Get<T>()[n - 32 / (int32_t)sizeof(T)];
            Compares(lbits, la, half_t, CMPMODE::GT, n);
            Duplicate(scal, static_cast<T>(-2.0f), 32 / (int32_t)sizeof(T));
            SetCmpMask(scal);
            Select(lz, lbits, la, (uint8_t)(n / PER), bp);
            break;
        }
        case 10: {  // int32_t compares only with EQ
            LocalTensor<int32_t> ia = la.template ReinterpretCast<int32_t>();
            Compare(lbits, ia, ia, CMPMODE::LT, 64);  // EXPECT SIM-CMP-MODE
            break;
        }
        case 11:  // repeatTime 256 wraps on the hardware
            Compare(lbits, la, lb, CMPMODE::LT, (uint64_t)PER, 256, bp);  // EXPECT SIM-REPEAT
            break;
        case 12:  // a buffer reaching into the reserved Select scratch (top 8 KiB of UB)
            pipe.InitBuffer(bufBig, 190 * 1024 - 3 * n * sizeof(T) - 2048);
            Select(lz, lbits, la, half_t, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);  // EXPECT SIM-SEL-SCRATCH
            break;
        default:
            break;
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, lz, n);
    DataCopy(bitsGm, lbits, n / 8);
}

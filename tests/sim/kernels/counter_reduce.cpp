// Test kernel for the repeat forms of the reductions in counter mask mode (SetMaskCount): the hardware takes the
// repeat count from the element count, so repeatTime is a placeholder there and the samples pass 0 (or 1). `mode`
// picks the API, `rep` the repeatTime passed; a holds n elements, z (n elements) starts as a copy of b, and the
// first `cnt` elements of a are reduced. See tests/sim/test_counter_reduce.py.
#include "kernel_operator.h"
using namespace AscendC;
using T = DTYPE_X;

extern "C" __global__ __aicore__ void counter_reduce(GM_ADDR a, GM_ADDR b, GM_ADDR z, int32_t mode, int32_t n,
                                                     int32_t cnt, int32_t rep)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufA, bufZ;
    GlobalTensor<T> aGm, bGm, zGm;
    aGm.SetGlobalBuffer((__gm__ T*)a, n);
    bGm.SetGlobalBuffer((__gm__ T*)b, n);
    zGm.SetGlobalBuffer((__gm__ T*)z, n);
    pipe.InitBuffer(bufA, n * sizeof(T));
    pipe.InitBuffer(bufZ, n * sizeof(T));
    LocalTensor<T> la = bufA.Get<T>();
    LocalTensor<T> lz = bufZ.Get<T>();
    DataCopy(la, aGm, n);
    DataCopy(lz, bGm, n);
    PipeBarrier<PIPE_ALL>();
    SetMaskCount();
    SetVectorMask<T, MaskMode::COUNTER>(0, cnt);
    const uint8_t r = static_cast<uint8_t>(rep);
    switch (mode) {
        case 0: WholeReduceSum<T, false>(lz, la, MASK_PLACEHOLDER, r, 1, 1, 8); break;
        case 1: WholeReduceMax<T, false>(lz, la, MASK_PLACEHOLDER, r, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE); break;
        case 2: WholeReduceMin<T, false>(lz, la, MASK_PLACEHOLDER, r, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE); break;
        case 3: BlockReduceSum<T, false>(lz, la, r, MASK_PLACEHOLDER, 1, 1, 8); break;
        case 4: PairReduceSum<T, false>(lz, la, r, MASK_PLACEHOLDER, 1, 1, 8); break;
        case 5: ReduceRepeat<ReduceType::SUM, T, T, false>(lz, la, MASK_PLACEHOLDER, r, 1, 1, 8); break;
        default: break;
    }
    SetMaskNorm();
    ResetMask();
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, lz, n);
}

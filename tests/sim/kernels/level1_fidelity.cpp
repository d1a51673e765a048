// Test kernel for the corner cases NPUKernelBench level1 answers hit (see tests/sim/test_level1_fidelity.py). Input a
// holds 128 floats; z (128 floats) starts as a copy of input b so untouched elements stay visible. `mode` picks:
//   0: Abs, mask + repeat form, mask 8 on a 32-byte tensor (the span the mask touches fits)
//   1: the same with mask 9 (the 9th element lies past the 32 bytes): SIM-UB-SIZE
//   2: counter mode, 70 elements of float on a 72-element tensor (one full repeat + a 6-element tail)
//   3: WholeReduceMax in counter mode with the mask set by SetVectorMask (isSetMask = false) over 10 elements
//   4: DataCopyPad GM -> UB of 12 bytes with no left/right padding: the dummy tail holds the first element
//   5: a TBuf that InitBuffer never gave memory: Get only warns, the tensor is not used
//   6: the same, and the tensor is used: SIM-TENSOR-UNINIT
//   7: TBuf::Get(0) (Arange's int path): SIM-TBUF-LEN
//   8: TBuf::Get(1) on floats: 4 bytes, off the 32-byte grid: a warning; the element is usable
//   9: PairReduceSum with mask 16 into a 32-byte dst: 8 results, the dst needs only those (Icamax's tail)
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void level1_fidelity(GM_ADDR a, GM_ADDR b, GM_ADDR z, int32_t mode)
{
    constexpr int32_t N = 128;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufA, bufZ, bufSmall, bufTail, never;
    GlobalTensor<float> aGm, bGm, zGm;
    aGm.SetGlobalBuffer((__gm__ float*)a, N);
    bGm.SetGlobalBuffer((__gm__ float*)b, N);
    zGm.SetGlobalBuffer((__gm__ float*)z, N);
    pipe.InitBuffer(bufA, N * sizeof(float));
    pipe.InitBuffer(bufZ, N * sizeof(float));
    pipe.InitBuffer(bufSmall, 32);
    pipe.InitBuffer(bufTail, 72 * sizeof(float));
    LocalTensor<float> la = bufA.Get<float>();
    LocalTensor<float> lz = bufZ.Get<float>();
    LocalTensor<float> small = bufSmall.Get<float>();
    LocalTensor<float> tail = bufTail.Get<float>();
    DataCopy(la, aGm, N);
    DataCopy(lz, bGm, N);
    PipeBarrier<PIPE_ALL>();
    if (mode == 0 || mode == 1) {
        DataCopy(small, la, 8);
        Abs(small, small, mode == 0 ? 8 : 9, 1, {1, 1, 8, 8});  // EXPECT SIM-UB-SIZE
        DataCopy(lz, small, 8);
    } else if (mode == 2) {
        DataCopy(tail, la, 72);
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(0, 70);
        Abs<float, false>(tail, tail, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
        SetMaskNorm();
        ResetMask();
        DataCopy(lz, tail, 72);
    } else if (mode == 3) {
        DataCopy(small, la, 8);
        SetMaskCount();
        SetVectorMask<float, MaskMode::COUNTER>(0, 10);
        WholeReduceMax<float, false>(lz, la, MASK_PLACEHOLDER, 1, 1, 1, 8);
        SetMaskNorm();
        ResetMask();
        float val = 0;
        float idx = 0;
        GetReduceMaxMinCount<float>(val, idx);
        lz.SetValue(8, val);
        lz.SetValue(9, idx);
    } else if (mode == 4) {
        DataCopyPad(small, aGm[5], DataCopyExtParams(1, 12, 0, 0, 0), DataCopyPadExtParams<float>(true, 0, 0, 0.0f));
        PipeBarrier<PIPE_ALL>();
        DataCopy(lz, small, 8);
    } else if (mode == 5 || mode == 6) {
        LocalTensor<float> none = never.Get<float>();
        if (mode == 6) {
            Abs(none, la, 64);  // EXPECT SIM-TENSOR-UNINIT
        }
    } else if (mode == 7) {
        LocalTensor<float> empty = bufSmall.Get<float>(0);  // EXPECT SIM-TBUF-LEN
        lz.SetValue(0, empty.GetSize());
    } else if (mode == 9) {
        PairReduceSum(small, la, 1, 16, 1, 1, 8);
        DataCopy(lz, small, 8);
    } else if (mode == 8) {
        LocalTensor<float> one = bufSmall.Get<float>(1);
        one.SetValue(0, 2.5f);
        lz.SetValue(0, one.GetValue(0));
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, lz, N);
}

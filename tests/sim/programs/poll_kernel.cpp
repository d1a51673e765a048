// A plain kernel (run through a manifest, not as a program) that polls GM with DataCacheCleanAndInvalid: block 1
// waits for block 0's flag. In kernel runs blocks cannot yield, so block 1 (running after block 0) sees the flag at
// once; the kernel links although the program runtime's yield is absent.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void poll_kernel(GM_ADDR flag, GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> flagGm, outGm;
    flagGm.SetGlobalBuffer((__gm__ int32_t*)flag, 64);
    outGm.SetGlobalBuffer((__gm__ int32_t*)out, 64);
    if (AscendC::GetBlockIdx() == 0) {
        flagGm.SetValue(0, 5);
    } else {
        while (true) {
            AscendC::DataCacheCleanAndInvalid<int32_t, AscendC::CacheLine::SINGLE_CACHE_LINE,
                                              AscendC::DcciDst::CACHELINE_OUT>(flagGm);
            if (flagGm.GetValue(0) == 5) break;
        }
        outGm.SetValue(8, flagGm.GetValue(0) + 1);
    }
}
